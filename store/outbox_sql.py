"""The outbox's rows in the one SQL core: what a committed change owes Discord (its
board, its messages), claimed by one process at a time, done or tried again later."""

from __future__ import annotations

from .base import (
    MESSAGE_COLUMNS,
    OUTBOX_COLUMNS,
    OutboxRow,
    Owed,
    OwedMessage,
    merge_owed,
    message_row,
    outbox_row,
)
from .due import SqlDue
from .sql import Conn, fl


class SqlOutbox(SqlDue):
    """The outbox half of :class:`store.core.SqlCore`."""

    # ------------------------------------------------------------ outbox
    async def _put_owed(self, db: Conn, game_id: int, version: int, owed: Owed, now: float) -> None:
        found = await db.one(
            f"SELECT since, notes_json FROM outbox WHERE game_id=?{self.dialect.for_update}", [game_id]
        )
        since, notes = merge_owed(tuple(found) if found else None, version, owed)
        until = now + owed.lease if owed.owner else None
        await db.execute(
            "INSERT INTO outbox(game_id, version, since, kind, notes_json, attempts, due_at, lease_until,"
            " lease_owner, created_at) VALUES (?,?,?,?,?,0,?,?,?,?)"
            " ON CONFLICT (game_id) DO UPDATE SET version=excluded.version, since=excluded.since,"
            " kind=excluded.kind, notes_json=excluded.notes_json, attempts=0, due_at=excluded.due_at,"
            " lease_until=excluded.lease_until, lease_owner=excluded.lease_owner, created_at=excluded.created_at,"
            " message_id=NULL",
            [game_id, version, since, owed.kind, notes, fl(until or now), fl(until), owed.owner, fl(now)],
        )

    async def _put_message(
        self, db: Conn, key: str, game_id: int, kind: str, ref: int, owner: str | None, now: float
    ) -> None:
        until = now + 60.0 if owner else None
        await db.execute(
            "INSERT INTO outbox_messages(key, game_id, kind, ref, user_id, attempts, due_at, lease_until,"
            " lease_owner, created_at) VALUES (?,?,?,?,?,0,?,?,?,?)",
            [key, game_id, kind, ref, None if kind == "vote" else ref, fl(until or now), fl(until), owner, fl(now)],
        )

    async def due_messages(self, now: float, limit: int = 50) -> list[OwedMessage]:
        async with self._read(False) as db:
            rows = await db.fetch(
                f"SELECT {MESSAGE_COLUMNS} FROM outbox_messages WHERE due_at<=?"
                " AND (lease_until IS NULL OR lease_until<=?) ORDER BY due_at, key LIMIT ?",
                [fl(now), fl(now), limit],
            )
        return [message_row(r) for r in rows]

    async def claim_message(self, row: OwedMessage, owner: str, until: float, now: float) -> bool:
        sql = (
            "UPDATE outbox_messages SET lease_owner=?, lease_until=?, attempts=attempts+1 WHERE key=?"
            " AND attempts=? AND (lease_until IS NULL OR lease_until<=?)"
        )
        args = [owner, fl(until), row.key, row.attempts, fl(now)]
        return 1 == await self._tx(lambda db: db.execute(sql, args))

    async def message_done(self, key: str) -> bool:
        return 1 == await self._tx(lambda db: db.execute("DELETE FROM outbox_messages WHERE key=?", [key]))

    async def message_retry(self, key: str, owner: str | None, due_at: float) -> bool:
        sql = (
            "UPDATE outbox_messages SET lease_owner=NULL, lease_until=NULL, due_at=? WHERE key=?"
            " AND (CAST(? AS TEXT) IS NULL OR lease_owner=? OR lease_owner IS NULL)"
        )
        return 1 == await self._tx(lambda db: db.execute(sql, [fl(due_at), key, owner, owner]))

    async def outbox(self, game_id: int) -> OutboxRow | None:
        async with self._read(False) as db:
            r = await db.one(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id=?", [game_id])
        return outbox_row(r) if r else None

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        async with self._read(False) as db:
            rows = await db.fetch(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE due_at<=? AND (lease_until IS NULL OR lease_until<=?)"
                " ORDER BY due_at, game_id LIMIT ?",
                [fl(now), fl(now), limit],
            )
        return [outbox_row(r) for r in rows]

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        sql = (
            "UPDATE outbox SET lease_owner=?, lease_until=?, attempts=attempts+1 WHERE game_id=? AND version=?"
            " AND attempts=? AND (lease_until IS NULL OR lease_until<=?)"
        )
        args = [owner, fl(until), row.game_id, row.version, row.attempts, fl(now)]
        return 1 == await self._tx(lambda db: db.execute(sql, args))

    async def outbox_posted(self, game_id: int, version: int, message_id: int) -> bool:
        sql = "UPDATE outbox SET message_id=? WHERE game_id=? AND version=?"
        return 1 == await self._tx(lambda db: db.execute(sql, [message_id, game_id, version]))

    async def outbox_done(self, game_id: int, version: int) -> bool:
        sql = "DELETE FROM outbox WHERE game_id=? AND version=?"
        return 1 == await self._tx(lambda db: db.execute(sql, [game_id, version]))

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        sql = (
            "UPDATE outbox SET lease_owner=NULL, lease_until=NULL, due_at=? WHERE game_id=? AND version=?"
            " AND (CAST(? AS TEXT) IS NULL OR lease_owner=? OR lease_owner IS NULL)"
        )
        return 1 == await self._tx(lambda db: db.execute(sql, [fl(due_at), game_id, version, owner, owner]))

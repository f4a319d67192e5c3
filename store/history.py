"""The action log and its snapshots in SQL, shared by both backends: the effective log
(taken-back actions left out), the cached states in front of the replay (see
store/base.py) and what rebuilding a state needs (:meth:`SqlHistory.replay_source`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import ActionRow, CorruptRow, NewSnapshot, ReplaySource, SnapshotRow, UndoRow
from .sql import Conn, SqlBase, fl

#: the effective log of table ``?`` (taken-back actions left out), as ``a``
EFFECTIVE = "FROM actions a WHERE a.game_id=? AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"
_ACTION = "SELECT a.id, a.seat, a.user_id, a.action_json, a.events_json, a.version, a.created_at, a.taken_by, a.source "
_SNAPSHOT = "SELECT action_id, position, key, state_json FROM snapshots"


def action_rows(game_id: int, rows: Sequence[Any]) -> list[ActionRow]:
    out = []
    for i, seat, uid, aj, ej, ver, at, taken, source in rows:
        by = source or taken  # the full source since migration 17, else one of the first four names
        try:
            action, events = json.loads(aj), json.loads(ej or "[]")
        except ValueError as exc:
            raise CorruptRow(game_id, f"unreadable action {i}: {exc}") from None
        out.append(
            ActionRow(id=i, seat=seat, user_id=uid, action=action, events=events, version=ver, created_at=at, by=by)
        )
    return out


class SqlHistory(SqlBase):
    """The log and snapshots part of the SQL store."""

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        async with self._read(False) as db:
            rows = await db.fetch(f"{_ACTION}{EFFECTIVE} ORDER BY a.id LIMIT ? OFFSET ?", [game_id, limit, offset])
        return action_rows(game_id, rows)

    async def count_actions(self, game_id: int) -> int:
        async with self._read(False) as db:
            return int(await db.value(f"SELECT COUNT(*) {EFFECTIVE}", [game_id]))

    async def undos(self, game_id: int) -> list[UndoRow]:
        async with self._read(False) as db:
            # one undo writes its rows with one member and one time
            rows = await db.fetch(
                "SELECT by_user, created_at, COUNT(*), MIN(action_id) FROM reverts WHERE game_id=?"
                " GROUP BY by_user, created_at ORDER BY MIN(action_id)",
                [game_id],
            )
        return [UndoRow(by, float(at), int(n), int(first)) for by, at, n, first in rows]

    async def _put_snapshot(self, db: Conn, game_id: int, action_id: int, snap: NewSnapshot, now: float) -> None:
        """One cached state after ``action_id`` (an effective action of this table),
        its position counted from the log (inside the caller's transaction).  Snapshots
        of the table under other keys (older builds) are dropped: nothing reads them again."""
        await db.execute("DELETE FROM snapshots WHERE game_id=? AND key<>?", [game_id, snap.key])
        await db.execute(
            "INSERT INTO snapshots(game_id, action_id, key, position, state_json, created_at)"
            f" SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), (SELECT COUNT(*) {EFFECTIVE} AND a.id<=?),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)"
            " WHERE EXISTS (SELECT 1 FROM actions WHERE id=? AND game_id=?)"
            " AND NOT EXISTS (SELECT 1 FROM reverts WHERE action_id=?) ON CONFLICT DO NOTHING",
            [game_id, action_id, snap.key, game_id, action_id, snap.state_json, fl(now), action_id, game_id, action_id],
        )

    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        snap_sql = f"{_SNAPSHOT} WHERE game_id=? AND key=?"
        async with self._read() as db:
            total = int(await db.value(f"SELECT COUNT(*) {EFFECTIVE}", [game_id]))
            found = await db.value("SELECT version FROM games WHERE id=?", [game_id])
            version = int(found) if found is not None else None
            snap, limit, last = None, None, None
            if user_id is not None:
                last = await db.value(
                    f"SELECT MAX(a.id) {EFFECTIVE} AND a.user_id=? AND a.taken_by<>'auto'", [game_id, user_id]
                )
                if last is None:
                    return ReplaySource(None, [], total, None, version)
                if key is not None:
                    snap = await db.one(
                        snap_sql + " AND action_id<? ORDER BY action_id DESC LIMIT 1", [game_id, key, last]
                    )
            elif turn is not None:
                if key is not None:
                    snap = await db.one(
                        snap_sql + " AND position<=? ORDER BY position DESC LIMIT 1", [game_id, key, turn]
                    )
                limit = max(0, turn - (snap[1] if snap else 0))
            elif key is not None:
                snap = await db.one(snap_sql + " ORDER BY action_id DESC LIMIT 1", [game_id, key])
            sql, args = f"{_ACTION}{EFFECTIVE} AND a.id>? ORDER BY a.id", [game_id, snap[0] if snap else 0]
            if limit is not None:
                sql, args = sql + " LIMIT ?", [*args, limit]
            rows = await db.fetch(sql, args)
        actions = action_rows(game_id, rows)
        cut = next(i for i, a in enumerate(actions) if a.id == last) if last is not None else None
        return ReplaySource(SnapshotRow(*snap) if snap else None, actions, total, cut, version)

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        async with self._read(False) as db:
            rows = await db.fetch(f"{_SNAPSHOT} WHERE game_id=? ORDER BY action_id, key", [game_id])
        return [SnapshotRow(*r) for r in rows]

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        now = self.clock()

        async def tx(db: Conn) -> bool:
            # the row lock orders this fill against a revert of the same table
            sql = f"SELECT id FROM games WHERE id=? AND version=?{self.dialect.for_update}"
            if await db.one(sql, [game_id, expected_version]) is None:
                return False
            for snap in snapshots:
                assert snap.action_id is not None
                await self._put_snapshot(db, game_id, snap.action_id, snap, now)
            return True

        return await self._tx(tx)

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        if game_id is None:
            return await self._tx(lambda db: db.execute("DELETE FROM snapshots"))
        return await self._tx(lambda db: db.execute("DELETE FROM snapshots WHERE game_id=?", [game_id]))

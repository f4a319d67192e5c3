"""Notifications in the one SQL core (issue 32): what was sent once and must not be
sent again -- a clock alert of one turn, a member's digest of one day -- claimed by
inserting its key (``notify_sent``): of several processes the first to insert sends, the
others see the key taken; released again when sending failed.  And when a member last
acted at a table (a member who just acted is not pinged for it again)."""

from __future__ import annotations

from .core import SqlCore
from .sql import Conn, fl


class SqlNotify(SqlCore):
    """The notification half of :class:`store.community.SqlStore`."""

    async def notify_claim(self, key: str, user_id: int, now: float) -> bool:
        async def tx(db: Conn) -> int:
            return await db.execute(
                "INSERT INTO notify_sent(key, user_id, sent_at) VALUES (?,?,?) ON CONFLICT (key) DO NOTHING",
                [key, user_id, fl(now)],
            )

        return await self._tx(tx) > 0

    async def notify_release(self, key: str) -> None:
        async def tx(db: Conn) -> int:
            return await db.execute("DELETE FROM notify_sent WHERE key=?", [key])

        await self._tx(tx)

    async def notify_claimed(self, key: str) -> bool:
        async with self._read(False) as db:
            return bool(await db.fetch("SELECT 1 FROM notify_sent WHERE key=?", [key]))

    async def last_acted(self, game_id: int, user_id: int) -> float | None:
        async with self._read(False) as db:
            rows = await db.fetch(
                "SELECT MAX(created_at) FROM actions WHERE game_id=? AND user_id=?", [game_id, user_id]
            )
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

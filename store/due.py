"""Due times in SQL, shared by both backends: each waiting seat's next reminder and
turn-timer (or time-bank) end, kept in ``turn_clocks`` (indexed, so a scheduler pass
reads only what is due) and recomputed in the transaction of every change that moves
them.  *When* they fall is the table service's policy (tables/rules/clocks.py ``due_times``),
which whoever opens the store passes to it (``open_store(url, due=...)``, a backend's
``due=``; :class:`~store.ports.DuePolicy`); the store only keeps what the policy says.
A store opened without one refuses to time a running table (:class:`StoreError`), as
a copy or backup tool may."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import StoreError, json_dict, json_list
from .history import SqlHistory
from .ports import DuePolicy
from .sql import Conn, chunks, fl


class SqlDue(SqlHistory):
    """The due-time part of the SQL store."""

    def _policy(self) -> DuePolicy:
        if self.due is None:
            raise StoreError(
                "this store was opened without a due-time policy (open_store(url, due=...)):"
                " it cannot time running tables"
            )
        return self.due

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        async def tx(db: Conn) -> bool:
            if expected_version is None:
                n = await db.execute("UPDATE games SET last_reminder_at=? WHERE id=?", [fl(at), game_id])
            else:  # a claim: only for the caller that saw this version and this previous reminder
                n = await db.execute(
                    "UPDATE games SET last_reminder_at=? WHERE id=? AND version=?"
                    " AND last_reminder_at IS NOT DISTINCT FROM ?",
                    [fl(at), game_id, expected_version, fl(previous)],
                )
            if n == 1:
                await self._retime(db, [game_id])  # the next reminder is due one interval later
            return n == 1

        return await self._tx(tx)

    async def _retime(self, db: Conn, game_ids: Sequence[int]) -> None:
        """Recompute the due times of these tables' waiting seats (inside the caller's transaction)."""
        for chunk in chunks(game_ids, self.dialect.chunk):
            within, ids = self.dialect.within("g.id", chunk)
            rows = await db.fetch(
                "SELECT g.id, g.status, g.to_act_json, g.table_json, g.turn_started_at, g.last_reminder_at,"
                f" (SELECT settings_json FROM guild_settings s WHERE s.guild_id=g.guild_id), {self.dialect.seats_json}"
                f" FROM games g WHERE {within}",
                ids,
            )
            within, ids = self.dialect.within("game_id", chunk)
            await db.execute(f"DELETE FROM turn_clocks WHERE {within}", ids)
            seats = {
                r[0]: [(s, u) for _, s, u, _ in sorted(json.loads(r[7] or "[]"))] for r in rows if r[1] == "active"
            }
            uids = sorted({u for ss in seats.values() for _, u in ss if u is not None})
            prefs: dict[int, dict[str, Any]] = {}
            for some in chunks(uids, self.dialect.chunk):
                within, args = self.dialect.within("user_id", some)
                found = await db.fetch(f"SELECT user_id, prefs_json FROM user_prefs WHERE {within}", args)
                prefs.update({int(u): json_dict(p) for u, p in found})
            clocks = []
            for r in rows:
                if r[1] != "active":
                    continue
                for c in self._policy()(
                    status=r[1],
                    to_act=json_list(r[2]),
                    seats=seats[r[0]],
                    table=json_dict(r[3]),
                    guild=json_dict(r[6]),
                    since=r[4],
                    last_reminder_at=r[5],
                    prefs=prefs,
                ):
                    clocks.append((r[0], c[0], c[1], fl(c[2]), fl(c[3]), fl(c[4])))
            if clocks:
                await db.executemany(
                    "INSERT INTO turn_clocks(game_id, seat, user_id, since, remind_at, expire_at) VALUES (?,?,?,?,?,?)",
                    clocks,
                )

    async def _retime_all(self, db: Conn, guild_id: int | None = None) -> None:
        sql, args = "SELECT id FROM games WHERE status='active'", []
        if guild_id is not None:
            sql, args = sql + " AND guild_id=?", [guild_id]
        await self._retime(db, [r[0] for r in await db.fetch(sql, args)])

"""SQLite backend (aiosqlite, WAL, foreign keys, versioned migrations)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, Sequence

import aiosqlite

from .base import (ACTIVE_STATUSES, ActionRow, ChannelBusy, CorruptRow, GameRow, Seat, Store,
                   VersionConflict, dumps)
from .migrations import MIGRATIONS

_GAME_COLS = ("id, guild_id, channel_id, game, status, host_id, options_json, seed, state_json, version, "
              "created_at, updated_at, locale, outcome_json, turn_started_at")


class SqliteStore(Store):
    def __init__(self, path: str | Path = "tabletop.db", clock=time.time) -> None:
        super().__init__()
        self.path = str(path)
        self.clock = clock
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def _migrate(self) -> None:
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
        current = await self.schema_version()
        for version, script in MIGRATIONS:
            if version <= current:
                continue
            async with self._write:
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in _statements(script):
                        await self.db.execute(stmt)
                    await self.db.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)",
                                          (version, self.clock()))
                    await self.db.execute("COMMIT")
                except BaseException:
                    await self.db.execute("ROLLBACK")
                    raise

    async def _tx(self, fn):
        """Run ``fn`` inside one write transaction (serialised in-process)."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await fn(self.db)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
            return result

    # ------------------------------------------------------------ games
    async def create_game(self, *, guild_id, channel_id, game, host_id, options, seed, seats, locale=None,
                          status="lobby", state_json=None) -> GameRow:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> int:
            async with db.execute(
                "SELECT id FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,)
            ) as cur:
                if await cur.fetchone():
                    raise ChannelBusy(str(channel_id))
            cur = await db.execute(
                "INSERT INTO games(guild_id, channel_id, game, status, host_id, options_json, seed, state_json,"
                " version, created_at, updated_at, locale, turn_started_at) VALUES (?,?,?,?,?,?,?,?,1,?,?,?,?)",
                (guild_id, channel_id, game, status, host_id, dumps(options), seed, state_json, now, now, locale,
                 now if status == "active" else None))
            gid = cur.lastrowid
            await self._write_seats(db, gid, seats)
            return gid

        gid = await self._tx(tx)
        row = await self.get_game(gid)
        assert row is not None
        return row

    async def _write_seats(self, db, game_id: int, seats: Sequence[Seat]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
        await db.executemany("INSERT INTO seats(game_id, position, seat, user_id) VALUES (?,?,?,?)",
                             [(game_id, i, s.seat, s.user_id) for i, s in enumerate(seats)])

    async def _row(self, r: tuple) -> GameRow:
        gid = r[0]
        try:
            options = json.loads(r[6]) if r[6] else {}
            outcome = json.loads(r[13]) if r[13] else None
            if not isinstance(options, dict):
                raise ValueError("options are not an object")
        except (ValueError, TypeError) as exc:
            raise CorruptRow(gid, f"unreadable options/outcome: {exc}") from None
        async with self.db.execute("SELECT seat, user_id FROM seats WHERE game_id=? ORDER BY position", (gid,)) as cur:
            seats = [Seat(seat=s, user_id=u) for s, u in await cur.fetchall()]
        return GameRow(id=gid, guild_id=r[1], channel_id=r[2], game=r[3], status=r[4], host_id=r[5],
                       seats=seats, options=options, seed=r[7], state_json=r[8], version=r[9], created_at=r[10],
                       updated_at=r[11], locale=r[12], outcome=outcome, turn_started_at=r[14])

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return await self._row(r) if r else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id=? AND status IN ('lobby','active') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ) as cur:
            r = await cur.fetchone()
        return await self._row(r) if r else None

    async def update_game(self, game_id, expected_version, *, seats=None, status=None, state_json=None,
                          options=None, outcome=None, actions=()) -> int:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> int:
            sets = ["version=version+1", "updated_at=?"]
            args: list[Any] = [now]
            if status is not None:
                sets.append("status=?")
                args.append(status)
                if status == "active":
                    sets.append("turn_started_at=COALESCE(turn_started_at, ?)")
                    args.append(now)
            if state_json is not None:
                sets.append("state_json=?")
                args.append(state_json)
                sets.append("turn_started_at=?")
                args.append(now)
            if options is not None:
                sets.append("options_json=?")
                args.append(dumps(options))
            if outcome is not None:
                sets.append("outcome_json=?")
                args.append(dumps(outcome))
            cur = await db.execute(f"UPDATE games SET {', '.join(sets)} WHERE id=? AND version=?",
                                   (*args, game_id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(str(game_id))
            new_version = expected_version + 1
            if seats is not None:
                await self._write_seats(db, game_id, seats)
            if actions:
                await db.executemany(
                    "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at)"
                    " VALUES (?,?,?,?,?,?,?)",
                    [(game_id, a.seat, a.user_id, dumps(a.action), dumps(a.events), new_version, now) for a in actions])
            return new_version

        return await self._tx(tx)

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        async with self.db.execute(
            "SELECT id, seat, user_id, action_json, events_json, version, created_at FROM actions"
            " WHERE game_id=? ORDER BY id LIMIT ? OFFSET ?", (game_id, limit, offset)
        ) as cur:
            rows = await cur.fetchall()
        out = []
        for i, seat, uid, aj, ej, ver, at in rows:
            try:
                action, events = json.loads(aj), json.loads(ej or "[]")
            except ValueError as exc:
                raise CorruptRow(game_id, f"unreadable action {i}: {exc}") from None
            out.append(ActionRow(id=i, seat=seat, user_id=uid, action=action, events=events, version=ver, created_at=at))
        return out

    async def count_actions(self, game_id: int) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,)) as cur:
            return int((await cur.fetchone())[0])

    async def quarantine(self, game_id: int, reason: str) -> None:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO quarantine(game_id, reason, payload, created_at)"
                " SELECT id, ?, COALESCE(state_json, '') || char(10) || COALESCE(options_json, ''), ? FROM games WHERE id=?",
                (reason, now, game_id))
            await db.execute("UPDATE games SET status='quarantined', version=version+1, updated_at=? WHERE id=?",
                             (now, game_id))

        await self._tx(tx)

    async def quarantined(self) -> list[tuple[int, str]]:
        async with self.db.execute("SELECT game_id, reason FROM quarantine ORDER BY id") as cur:
            return [(int(g), str(r)) for g, r in await cur.fetchall()]

    async def games_of_user(self, user_id, guild_id=None, statuses=ACTIVE_STATUSES) -> list[GameRow]:
        marks = ",".join("?" for _ in statuses)
        sql = (f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM games g"
               f" JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ({marks})")
        args: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id=?"
            args.append(guild_id)
        sql += " ORDER BY g.id"
        async with self.db.execute(sql, args) as cur:
            rows = await cur.fetchall()
        out = []
        for r in rows:
            try:
                out.append(await self._row(r))
            except CorruptRow:
                continue
        return out

    async def count_games(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            return int((await cur.fetchone())[0])

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key=?", (key,)) as cur:
            r = await cur.fetchone()
        return r[0] if r else None

    async def set_meta(self, key: str, value: str) -> None:
        async def tx(db):
            await db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                             (key, value))
        await self._tx(tx)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split("\n    --;\n") if s.strip()]

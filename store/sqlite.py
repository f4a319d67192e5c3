"""SQLite backend (aiosqlite, WAL, foreign keys, versioned migrations)."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from .base import (
    ACTIVE_STATUSES,
    ActionRow,
    Campaign,
    ChannelBusy,
    CorruptRow,
    GameRow,
    ResultRow,
    Seat,
    StatRow,
    Store,
    StoreInUse,
    VersionConflict,
    Vote,
    dumps,
)
from .migrations import migrate_sqlite

_GAME_COLS = (
    "id, guild_id, channel_id, game, status, host_id, options_json, seed, state_json, version, "
    "created_at, updated_at, locale, outcome_json, turn_started_at, to_act_json, last_reminder_at, "
    "campaign_id, finished_at, table_json"
)


class SqliteStore(Store):
    def __init__(self, path: str | Path = "tabletop.db", clock=time.time) -> None:
        super().__init__()
        self.path = str(path)
        self.clock = clock
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()
        self._claimed = False

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            _claim_file(self.path)
            self._claimed = True
        try:
            self._db = await aiosqlite.connect(self.path, isolation_level=None)
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            async with self._write:
                await migrate_sqlite(self._db, self.clock())
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
        if self._claimed:
            self._claimed = False
            _release_file(self.path)

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def sql(self, query: str, *args: Any) -> list[tuple]:
        """Raw SQL for tests and tools (``?`` placeholders); autocommit."""
        async with self.db.execute(query, args) as cur:
            return [tuple(r) for r in await cur.fetchall()]

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
    async def create_game(
        self,
        *,
        guild_id,
        channel_id,
        game,
        host_id,
        options,
        seed,
        seats,
        locale=None,
        status="lobby",
        state_json=None,
        table=None,
        campaign_id=None,
    ) -> GameRow:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> int:
            async with db.execute(
                "SELECT id FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,)
            ) as cur:
                if await cur.fetchone():
                    raise ChannelBusy(str(channel_id))
            cur = await db.execute(
                "INSERT INTO games(guild_id, channel_id, game, status, host_id, options_json, seed, state_json,"
                " version, created_at, updated_at, locale, turn_started_at, table_json, campaign_id)"
                " VALUES (?,?,?,?,?,?,?,?,1,?,?,?,?,?,?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    status,
                    host_id,
                    dumps(options),
                    seed,
                    state_json,
                    now,
                    now,
                    locale,
                    now if status == "active" else None,
                    dumps(table or {}),
                    campaign_id,
                ),
            )
            gid = cur.lastrowid
            await self._write_seats(db, gid, seats)
            return gid

        gid = await self._tx(tx)
        row = await self.get_game(gid)
        assert row is not None
        return row

    async def _write_seats(self, db, game_id: int, seats: Sequence[Seat]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
        await db.executemany(
            "INSERT INTO seats(game_id, position, seat, user_id) VALUES (?,?,?,?)",
            [(game_id, i, s.seat, s.user_id) for i, s in enumerate(seats)],
        )

    async def _row(self, r: tuple) -> GameRow:
        gid = r[0]
        try:
            options = json.loads(r[6]) if r[6] else {}
            outcome = json.loads(r[13]) if r[13] else None
            to_act = json.loads(r[15]) if r[15] else []
            table = json.loads(r[19]) if r[19] else {}
            if not isinstance(options, dict) or not isinstance(table, dict) or not isinstance(to_act, list):
                raise ValueError("options/table/to_act have the wrong shape")
        except (ValueError, TypeError) as exc:
            raise CorruptRow(gid, f"unreadable options/outcome: {exc}") from None
        async with self.db.execute("SELECT seat, user_id FROM seats WHERE game_id=? ORDER BY position", (gid,)) as cur:
            seats = [Seat(seat=s, user_id=u) for s, u in await cur.fetchall()]
        return GameRow(
            id=gid,
            guild_id=r[1],
            channel_id=r[2],
            game=r[3],
            status=r[4],
            host_id=r[5],
            seats=seats,
            options=options,
            seed=r[7],
            state_json=r[8],
            version=r[9],
            created_at=r[10],
            updated_at=r[11],
            locale=r[12],
            outcome=outcome,
            turn_started_at=r[14],
            to_act=to_act,
            last_reminder_at=r[16],
            campaign_id=r[17],
            finished_at=r[18],
            table=table,
        )

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

    async def update_game(
        self,
        game_id,
        expected_version,
        *,
        seats=None,
        status=None,
        state_json=None,
        options=None,
        outcome=None,
        actions=(),
        to_act=None,
        results=(),
        table=None,
        revert=(),
        by_user=None,
    ) -> int:
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
                if status in ("finished", "abandoned"):
                    sets.append("finished_at=?")
                    args.append(now)
            if state_json is not None:
                sets.append("state_json=?")
                args.append(state_json)
            if to_act is not None:
                # a new decision is pending: its clock (timer, reminders) starts now
                sets += ["to_act_json=?", "turn_started_at=?", "last_reminder_at=NULL"]
                args += [dumps(list(to_act)), now]
            if table is not None:
                sets.append("table_json=?")
                args.append(dumps(table))
            if options is not None:
                sets.append("options_json=?")
                args.append(dumps(options))
            if outcome is not None:
                sets.append("outcome_json=?")
                args.append(dumps(outcome))
            cur = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id=? AND version=?", (*args, game_id, expected_version)
            )
            if cur.rowcount != 1:
                raise VersionConflict(str(game_id))
            new_version = expected_version + 1
            if seats is not None:
                await self._write_seats(db, game_id, seats)
            if revert:
                await db.executemany(
                    "INSERT INTO reverts(action_id, game_id, by_user, created_at) VALUES (?,?,?,?)",
                    [(aid, game_id, by_user, now) for aid in revert],
                )
            if results:
                async with db.execute("SELECT guild_id, game FROM games WHERE id=?", (game_id,)) as cur:
                    guild_id, kind = await cur.fetchone()
                await db.executemany(
                    "INSERT OR REPLACE INTO results(game_id, guild_id, game, seat, user_id, place, won, score, record,"
                    " finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    [
                        (game_id, guild_id, kind, r.seat, r.user_id, r.place, int(r.won), r.score, r.record, now)
                        for r in results
                    ],
                )
            if actions:
                await db.executemany(
                    "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at)"
                    " VALUES (?,?,?,?,?,?,?)",
                    [(game_id, a.seat, a.user_id, dumps(a.action), dumps(a.events), new_version, now) for a in actions],
                )
            return new_version

        return await self._tx(tx)

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        async with self.db.execute(
            "SELECT id, seat, user_id, action_json, events_json, version, created_at FROM actions a"
            " WHERE game_id=? AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"
            " ORDER BY id LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        ) as cur:
            rows = await cur.fetchall()
        out = []
        for i, seat, uid, aj, ej, ver, at in rows:
            try:
                action, events = json.loads(aj), json.loads(ej or "[]")
            except ValueError as exc:
                raise CorruptRow(game_id, f"unreadable action {i}: {exc}") from None
            out.append(
                ActionRow(id=i, seat=seat, user_id=uid, action=action, events=events, version=ver, created_at=at)
            )
        return out

    async def count_actions(self, game_id: int) -> int:
        async with self.db.execute(
            "SELECT COUNT(*) FROM actions a WHERE game_id=? AND NOT EXISTS"
            " (SELECT 1 FROM reverts r WHERE r.action_id=a.id)",
            (game_id,),
        ) as cur:
            return int((await cur.fetchone())[0])

    async def waiting_tables(self) -> list[GameRow]:
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE status='active' AND to_act_json != '[]' ORDER BY id"
        ) as cur:
            return await self._readable_rows(await cur.fetchall())

    async def _readable_rows(self, rows: list[tuple]) -> list[GameRow]:
        """Rows for listings; an unreadable one is skipped here (and quarantined when opened)."""
        out = []
        for r in rows:
            try:
                out.append(await self._row(r))
            except CorruptRow:
                continue
        return out

    async def mark_reminded(self, game_id: int, at: float) -> None:
        async def tx(db):
            await db.execute("UPDATE games SET last_reminder_at=? WHERE id=?", (at, game_id))

        await self._tx(tx)

    # ---------------------------------------------------------- settings
    async def _get_json(self, sql: str, key: int) -> dict[str, Any]:
        async with self.db.execute(sql, (key,)) as cur:
            r = await cur.fetchone()
        if not r:
            return {}
        try:
            value = json.loads(r[0])
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT settings_json FROM guild_settings WHERE guild_id=?", guild_id)

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async def tx(db):
            await db.execute(
                "INSERT INTO guild_settings(guild_id, settings_json) VALUES (?, ?) ON CONFLICT(guild_id)"
                " DO UPDATE SET settings_json=excluded.settings_json",
                (guild_id, dumps(settings)),
            )

        await self._tx(tx)

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT prefs_json FROM user_prefs WHERE user_id=?", user_id)

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        async def tx(db):
            await db.execute(
                "INSERT INTO user_prefs(user_id, prefs_json) VALUES (?, ?) ON CONFLICT(user_id)"
                " DO UPDATE SET prefs_json=excluded.prefs_json",
                (user_id, dumps(prefs)),
            )

        await self._tx(tx)

    # ------------------------------------------------------------- stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        sql = "SELECT game, user_id, COUNT(*), SUM(won), MIN(record), MAX(record) FROM results WHERE guild_id=?"
        args: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game=?"
            args.append(game)
        if user_id is not None:
            sql += " AND user_id=?"
            args.append(user_id)
        sql += " GROUP BY game, user_id ORDER BY game, user_id"
        async with self.db.execute(sql, args) as cur:
            rows = await cur.fetchall()
        return [StatRow(g, u, int(n), int(w or 0), lo, hi) for g, u, n, w, lo, hi in rows]

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        async with self.db.execute(
            "SELECT r.seat, r.user_id, r.place, r.won, r.score, r.record FROM results r JOIN games g ON g.id=r.game_id"
            " WHERE g.campaign_id=? ORDER BY r.game_id, r.place",
            (campaign_id,),
        ) as cur:
            return [ResultRow(s, u, p, bool(w), sc, rec) for s, u, p, w, sc, rec in await cur.fetchall()]

    # --------------------------------------------------------- campaigns
    def _campaign(self, r: tuple) -> Campaign:
        try:
            points = json.loads(r[4])
            progress = json.loads(r[5]) if r[5] else None
        except ValueError as exc:
            raise CorruptRow(-int(r[0]), f"campaign {r[0]}: {exc}") from None
        return Campaign(
            id=r[0], guild_id=r[1], game=r[2], name=r[3], points=points, progress=progress, created_by=r[6], status=r[7]
        )

    _CAMPAIGN = "SELECT id, guild_id, game, name, points_json, progress_json, created_by, status FROM campaigns"

    async def create_campaign(self, *, guild_id, game, name, points, created_by, progress=None) -> Campaign:
        now = self.clock()

        async def tx(db):
            cur = await db.execute(
                "INSERT INTO campaigns(guild_id, game, name, points_json, progress_json, created_by, created_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (
                    guild_id,
                    game,
                    name,
                    dumps(points),
                    dumps(progress) if progress is not None else None,
                    created_by,
                    now,
                ),
            )
            return cur.lastrowid

        try:
            cid = await self._tx(tx)
        except aiosqlite.IntegrityError:
            raise ChannelBusy(f"campaign {name}") from None
        return await self.campaign_by_id(cid)

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        async with self.db.execute(self._CAMPAIGN + " WHERE guild_id=? AND name=?", (guild_id, name)) as cur:
            r = await cur.fetchone()
        return self._campaign(r) if r else None

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        async with self.db.execute(self._CAMPAIGN + " WHERE id=?", (campaign_id,)) as cur:
            r = await cur.fetchone()
        return self._campaign(r) if r else None

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        async with self.db.execute(self._CAMPAIGN + " WHERE guild_id=? ORDER BY id", (guild_id,)) as cur:
            return [self._campaign(r) for r in await cur.fetchall()]

    async def set_campaign_progress(self, campaign_id: int, progress: dict[str, Any]) -> None:
        async def tx(db):
            await db.execute("UPDATE campaigns SET progress_json=? WHERE id=?", (dumps(progress), campaign_id))

        await self._tx(tx)

    # ------------------------------------------------------------- votes
    _VOTE = (
        "SELECT id, game_id, kind, payload_json, base_version, voters_json, yes_json, status, created_by, no_json"
        " FROM votes"
    )

    async def create_vote(self, *, game_id, kind, payload, base_version, voters, created_by) -> Vote:
        now = self.clock()

        async def tx(db):
            cur = await db.execute(
                "INSERT INTO votes(game_id, kind, payload_json, base_version, voters_json, created_by, created_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (game_id, kind, dumps(payload), base_version, dumps(voters), created_by, now),
            )
            return cur.lastrowid

        return await self.get_vote(await self._tx(tx))

    async def get_vote(self, vote_id: int) -> Vote | None:
        async with self.db.execute(self._VOTE + " WHERE id=?", (vote_id,)) as cur:
            r = await cur.fetchone()
        if not r:
            return None
        return Vote(
            id=r[0],
            game_id=r[1],
            kind=r[2],
            payload=json.loads(r[3]),
            base_version=r[4],
            voters=json.loads(r[5]),
            yes=json.loads(r[6]),
            status=r[7],
            created_by=r[8],
            no=json.loads(r[9]),
        )

    async def update_vote(self, vote_id: int, *, yes=None, no=None, status=None) -> None:
        async def tx(db):
            if yes is not None:
                await db.execute("UPDATE votes SET yes_json=? WHERE id=?", (dumps(sorted(set(yes))), vote_id))
            if no is not None:
                await db.execute("UPDATE votes SET no_json=? WHERE id=?", (dumps(sorted(set(no))), vote_id))
            if status is not None:
                await db.execute("UPDATE votes SET status=? WHERE id=?", (status, vote_id))

        await self._tx(tx)

    async def quarantine(self, game_id: int, reason: str) -> None:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO quarantine(game_id, reason, payload, created_at)"
                " SELECT id, ?, COALESCE(state_json, '') || char(10) || COALESCE(options_json, ''), ? FROM games WHERE id=?",
                (reason, now, game_id),
            )
            await db.execute(
                "UPDATE games SET status='quarantined', version=version+1, updated_at=? WHERE id=?", (now, game_id)
            )

        await self._tx(tx)

    async def quarantined(self) -> list[tuple[int, str]]:
        async with self.db.execute("SELECT game_id, reason FROM quarantine ORDER BY id") as cur:
            return [(int(g), str(r)) for g, r in await cur.fetchall()]

    async def games_of_user(self, user_id, guild_id=None, statuses=ACTIVE_STATUSES) -> list[GameRow]:
        marks = ",".join("?" for _ in statuses)
        sql = (
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ({marks})"
        )
        args: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id=?"
            args.append(guild_id)
        sql += " ORDER BY g.id"
        async with self.db.execute(sql, args) as cur:
            return await self._readable_rows(await cur.fetchall())

    async def count_games(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            return int((await cur.fetchone())[0])

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key=?", (key,)) as cur:
            r = await cur.fetchone()
        return r[0] if r else None

    async def set_meta(self, key: str, value: str) -> None:
        async def tx(db):
            await db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

        await self._tx(tx)


# ------------------------------------------------------------ one process per file
# SQLite serves one bot process: a second process on the same file is refused at
# start (several writers on one file fail with "database is locked" under load).
# The claim is an flock on ``<file>-lock``, so it is released by the kernel when the
# process dies, even on SIGKILL.  Stores of the same process share the claim.
_claims: dict[str, tuple[int, int]] = {}  # real path -> (fd, stores holding it)


def _claim_file(path: str, exclusive: bool = False) -> None:
    """Claim ``path`` for this process; ``exclusive``: also refuse when a store of this
    process has it open (restoring a backup)."""
    key = os.path.realpath(path)
    if key in _claims and exclusive:
        raise StoreInUse(f"{path} is in use by this process (pid {os.getpid()}); stop the bot first")
    if key in _claims:
        fd, n = _claims[key]
        _claims[key] = (fd, n + 1)
        return
    fd = os.open(key + "-lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreInUse(
            f"{path} is in use by another bot process (pid {holder}); SQLite serves one process: "
            "to run several, set TG_DATABASE=postgresql://user:pass@host/db (see the README)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    _claims[key] = (fd, 1)


def _release_file(path: str) -> None:
    key = os.path.realpath(path)
    if key not in _claims:
        return
    fd, n = _claims.pop(key)
    if n > 1:
        _claims[key] = (fd, n - 1)
        return
    os.close(fd)  # closing the descriptor drops the flock

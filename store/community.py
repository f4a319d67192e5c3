"""The rest of the SQL core: what lives around tables (server settings and member
preferences, limits, results and stats, campaigns, leagues, votes, ratings,
followers, privacy, metadata, the web companion's tokens).  Written once for both
backends, like store/core.py; see store/sql.py for what the dialects change."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import (
    Campaign,
    ChannelBusy,
    CorruptRow,
    FollowRow,
    LeagueRow,
    LimitReached,
    RatingRow,
    ResultRow,
    StatRow,
    VersionConflict,
    Vote,
    dumps,
    json_dict,
)
from .core import CAPPED
from .notify_sql import SqlNotify
from .privacy import forget_personal, personal_footprint
from .sql import Conn, chunks, fl

_CAMPAIGN = "SELECT id, guild_id, game, name, points_json, progress_json, created_by, status, version FROM campaigns"
_LEAGUE = (
    "SELECT id, guild_id, channel_id, game, name, format, status, config_json, state_json, created_by,"
    " created_at, updated_at, version FROM leagues"
)
_VOTE = (
    "SELECT id, game_id, kind, payload_json, base_version, voters_json, yes_json, status, created_by, no_json,"
    " version, created_at FROM votes"
)
_RESULT = "SELECT r.game_id, r.seat, r.user_id, r.place, r.won, r.score, r.record FROM results r"


def _campaign(r: Sequence[Any]) -> Campaign:
    try:
        points = json.loads(r[4])
        progress = json.loads(r[5]) if r[5] else None
    except ValueError as exc:
        raise CorruptRow(-int(r[0]), f"campaign {r[0]}: {exc}") from None
    return Campaign(r[0], r[1], r[2], r[3], points, progress, r[6], status=r[7], version=r[8])


def _league(r: Sequence[Any]) -> LeagueRow:
    try:
        config, state = json.loads(r[7]), json.loads(r[8])
        if not isinstance(config, dict) or not isinstance(state, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        raise CorruptRow(-int(r[0]), f"league {r[0]}: {exc}") from None
    return LeagueRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        game=r[3],
        name=r[4],
        format=r[5],
        status=r[6],
        config=config,
        state=state,
        created_by=r[9],
        created_at=r[10],
        updated_at=r[11],
        version=r[12],
    )


def _vote(r: Sequence[Any]) -> Vote:
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
        version=r[10],
        created_at=r[11],
    )


def _results(rows: Sequence[Any]) -> list[tuple[int, ResultRow]]:
    return [(g, ResultRow(s, u, p, bool(w), sc, rec)) for g, s, u, p, w, sc, rec in rows]


class SqlStore(SqlNotify):
    """:class:`store.ports.Store` in SQL: the core (store/core.py) and the features around tables."""

    async def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        """One read statement."""
        async with self._read(False) as db:
            return await db.fetch(sql, args)

    async def _first(self, sql: str, args: Sequence[Any] = ()) -> tuple | None:
        rows = await self._fetch(sql, args)
        return rows[0] if rows else None

    async def _run(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One write statement in its own transaction; the rows it touched."""
        return await self._tx(lambda db: db.execute(sql, args))

    # ---------------------------------------------------------- settings
    async def _get_json(self, table: str, key: str, col: str, kid: int) -> dict[str, Any]:
        r = await self._first(f"SELECT {col} FROM {table} WHERE {key}=?", [kid])
        return json_dict(r[0]) if r else {}

    async def _update_json(self, db: Conn, table: str, key: str, col: str, kid: int, change) -> dict[str, Any]:
        """Read-modify-write of one JSON row, the row locked (inside the caller's transaction)."""
        await db.execute(f"INSERT INTO {table}({key}, {col}) VALUES (?, '{{}}') ON CONFLICT ({key}) DO NOTHING", [kid])
        new = change(
            json_dict(await db.value(f"SELECT {col} FROM {table} WHERE {key}=?{self.dialect.for_update}", [kid]))
        )
        await db.execute(f"UPDATE {table} SET {col}=? WHERE {key}=?", [dumps(new), kid])
        return new

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._get_json("guild_settings", "guild_id", "settings_json", guild_id)

    async def update_guild_settings(self, guild_id: int, change) -> dict[str, Any]:
        async def tx(db: Conn) -> dict[str, Any]:
            new = await self._update_json(db, "guild_settings", "guild_id", "settings_json", guild_id, change)
            await self._retime_all(db, guild_id)  # the server's timers apply to its waiting seats now
            return new

        return await self._tx(tx)

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        await self.update_user_prefs(user_id, lambda _: prefs)

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        return await self._get_json("user_prefs", "user_id", "prefs_json", user_id)

    async def update_user_prefs(self, user_id: int, change) -> dict[str, Any]:
        async def tx(db: Conn) -> dict[str, Any]:
            new = await self._update_json(db, "user_prefs", "user_id", "prefs_json", user_id, change)
            ids = await db.fetch(  # a vacation moves the member's due times at every table
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status='active'",
                [user_id],
            )
            await self._retime(db, [r[0] for r in ids])
            return new

        return await self._tx(tx)

    # ------------------------------------------------------------ limits
    async def claim_rate(self, kind, guild_id, user_id, now, window, caps) -> None:
        async def tx(db: Conn) -> None:
            # the count and the insert are one step for this server (or member) across processes
            await self._lock(db, f"rate:{kind}:{guild_id or user_id}")
            await db.execute("DELETE FROM rate_events WHERE kind=? AND at<=?", [kind, fl(now - window)])
            for scope, col, who, cap in (
                ("member", "user_id", user_id, caps.member),
                ("server", "guild_id", guild_id, caps.server),
            ):
                sql = f"SELECT COUNT(*) FROM rate_events WHERE kind=? AND {col}=?"
                if cap is not None and who is not None and await db.value(sql, [kind, who]) >= cap:
                    raise LimitReached(kind, scope, cap)
            await db.execute(
                "INSERT INTO rate_events(kind, guild_id, user_id, at) VALUES (?,?,?,?)",
                [kind, guild_id, user_id, fl(now)],
            )

        await self._tx(tx)

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        rid = self.dialect.row_id
        await self._run(
            f"DELETE FROM rate_events WHERE {rid} IN"
            f" (SELECT {rid} FROM rate_events WHERE kind=? AND user_id=? AND at=? LIMIT 1)",
            [kind, user_id, fl(at)],
        )

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        out = {}
        async with self._read() as db:
            for kind, (table, who, where) in CAPPED.items():
                sql = f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=?"
                mine = await db.value(f"{sql} AND {who}=?", [guild_id, user_id])
                out[kind] = (int(mine), int(await db.value(sql, [guild_id])))
        return out

    # ------------------------------------------------------------- stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        sql = "SELECT game, user_id, COUNT(*), SUM(won), MIN(record), MAX(record) FROM results WHERE guild_id=?"
        args: list[Any] = [guild_id]
        for col, value in (("game", game), ("user_id", user_id)):
            if value is not None:
                sql += f" AND {col}=?"
                args.append(value)
        rows = await self._fetch(sql + " GROUP BY game, user_id ORDER BY game, user_id", args)
        return [StatRow(g, u, int(n), int(w or 0), lo, hi) for g, u, n, w, lo, hi in rows]

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        rows = await self._fetch(
            f"{_RESULT} JOIN games g ON g.id=r.game_id WHERE g.campaign_id=? ORDER BY r.game_id, r.place", [campaign_id]
        )
        return [r for _, r in _results(rows)]

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        out: dict[int, list[ResultRow]] = {}
        for chunk in chunks([int(g) for g in game_ids], self.dialect.chunk):
            within, args = self.dialect.within("r.game_id", chunk)
            for g, row in _results(await self._fetch(f"{_RESULT} WHERE {within} ORDER BY r.game_id, r.place", args)):
                out.setdefault(g, []).append(row)
        return out

    # --------------------------------------------------------- campaigns
    async def create_campaign(self, *, guild_id, game, name, points, created_by, progress=None, caps=None) -> Campaign:
        now = fl(self.clock())

        async def tx(db: Conn) -> int:
            if caps is not None:
                await self._check_caps(db, "campaigns", guild_id, created_by, caps)
            return await db.value(
                "INSERT INTO campaigns(guild_id, game, name, points_json, progress_json, created_by, created_at)"
                " VALUES (?,?,?,?,?,?,?) RETURNING id",
                [guild_id, game, name, dumps(points), None if progress is None else dumps(progress), created_by, now],
            )

        try:
            cid = await self._tx(tx)
        except self.unique_violation:
            raise ChannelBusy(f"campaign {name}") from None
        camp = await self.campaign_by_id(cid)
        assert camp is not None
        return camp

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        r = await self._first(_CAMPAIGN + " WHERE guild_id=? AND name=?", [guild_id, name])
        return _campaign(r) if r else None

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        r = await self._first(_CAMPAIGN + " WHERE id=?", [campaign_id])
        return _campaign(r) if r else None

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        return [_campaign(r) for r in await self._fetch(_CAMPAIGN + " WHERE guild_id=? ORDER BY id", [guild_id])]

    # ----------------------------------------------------------- leagues
    async def create_league(
        self, *, guild_id, channel_id, game, name, format, config, state, created_by, caps=None
    ) -> LeagueRow:
        now = fl(self.clock())
        sql = (
            "INSERT INTO leagues(guild_id, channel_id, game, name, format, config_json, state_json, created_by,"
            " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id"
        )
        args = [guild_id, channel_id, game, name, format, dumps(config), dumps(state), created_by, now, now]

        async def tx(db: Conn) -> int:
            if caps is not None:
                await self._check_caps(db, "leagues", guild_id, created_by, caps)
            return await db.value(sql, args)

        try:
            lid = await self._tx(tx)
        except self.unique_violation:
            raise ChannelBusy(f"league {name}") from None
        row = await self.league(lid)
        assert row is not None
        return row

    async def league(self, league_id: int) -> LeagueRow | None:
        r = await self._first(_LEAGUE + " WHERE id=?", [league_id])
        return _league(r) if r else None

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        r = await self._first(_LEAGUE + " WHERE guild_id=? AND name=?", [guild_id, name])
        return _league(r) if r else None

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id=?")
            args.append(guild_id)
        if statuses is not None:
            within, more = self.dialect.within("status", statuses, "TEXT")
            where.append(within)
            args += more
        sql = _LEAGUE + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [_league(r) for r in await self._fetch(sql, args)]

    async def update_league(self, league_id, expected_version, *, status=None, state=None, config=None) -> int:
        n = await self._run(
            "UPDATE leagues SET status=COALESCE(?, status), state_json=COALESCE(?, state_json),"
            " config_json=COALESCE(?, config_json), updated_at=?, version=version+1 WHERE id=? AND version=?",
            [
                status,
                None if state is None else dumps(state),
                None if config is None else dumps(config),
                fl(self.clock()),
                league_id,
                expected_version,
            ],
        )
        if n != 1:
            raise VersionConflict(f"league {league_id}")
        return expected_version + 1

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        sql = (
            "INSERT INTO league_steps(league_id, round, step, claimed_at) VALUES (?,?,?,?)"
            " ON CONFLICT(league_id, round, step) DO UPDATE SET claimed_at=excluded.claimed_at"
            " WHERE league_steps.done_at IS NULL AND league_steps.claimed_at <= ?"
        )
        return 1 == await self._run(sql, [league_id, round, step, fl(now), fl(now - lease)])

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None:
        sql = "UPDATE league_steps SET done_at=? WHERE league_id=? AND round=? AND step=?"
        await self._run(sql, [fl(now), league_id, round, step])

    async def release_league_step(self, league_id: int, round: int, step: str) -> None:
        sql = "DELETE FROM league_steps WHERE league_id=? AND round=? AND step=? AND done_at IS NULL"
        await self._run(sql, [league_id, round, step])

    # ------------------------------------------------------------- votes
    async def get_vote(self, vote_id: int) -> Vote | None:
        r = await self._first(_VOTE + " WHERE id=?", [vote_id])
        return _vote(r) if r else None

    async def open_votes(self, game_id: int) -> list[Vote]:
        return [
            _vote(r) for r in await self._fetch(_VOTE + " WHERE game_id=? AND status='open' ORDER BY id", [game_id])
        ]

    # ----------------------------------------------------------- ratings
    async def ratings(self, guild_id, game=None, user_ids=None) -> list[RatingRow]:
        sql = "SELECT guild_id, game, user_id, mu, sigma, played, version FROM ratings WHERE guild_id=?"
        args: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game=?"
            args.append(game)
        if user_ids is None:
            return [RatingRow(*r) for r in await self._fetch(sql + " ORDER BY game, user_id", args)]
        rows: list[tuple] = []
        for chunk in chunks(sorted(set(user_ids)), self.dialect.chunk):
            within, more = self.dialect.within("user_id", chunk)
            rows += await self._fetch(f"{sql} AND {within}", [*args, *more])
        return sorted((RatingRow(*r) for r in rows), key=lambda r: (r.game, r.user_id))

    # --------------------------------------------------------- followers
    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        await self._run(
            "INSERT INTO follows(game_id, user_id, mode, sent_version, sent_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET mode=excluded.mode",
            [game_id, user_id, mode, sent_version, fl(self.clock())],
        )

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        return 1 == await self._run("DELETE FROM follows WHERE game_id=? AND user_id=?", [game_id, user_id])

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        rows = await self._fetch(
            "SELECT f.game_id, f.user_id, f.mode, f.sent_version, f.sent_at FROM follows f JOIN games g"
            " ON g.id=f.game_id WHERE g.version > f.sent_version AND g.status IN ('active','finished','abandoned')"
            " AND (f.mode='turn' OR f.sent_at <= ?) ORDER BY f.game_id, f.user_id",
            [fl(now - digest_seconds)],
        )
        return [FollowRow(*r) for r in rows]

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        sql = "UPDATE follows SET sent_version=?, sent_at=? WHERE game_id=? AND user_id=? AND sent_version=?"
        return 1 == await self._run(sql, [version, fl(now), game_id, user_id, previous])

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        async def tx(db: Conn) -> None:
            if closed:
                await db.execute("INSERT INTO follow_closed(game_id) VALUES (?) ON CONFLICT DO NOTHING", [game_id])
                await db.execute("DELETE FROM follows WHERE game_id=?", [game_id])
            else:
                await db.execute("DELETE FROM follow_closed WHERE game_id=?", [game_id])

        await self._tx(tx)

    async def followers_closed(self, game_id: int) -> bool:
        return bool(await self._first("SELECT 1 FROM follow_closed WHERE game_id=?", [game_id]))

    # ----------------------------------------------------------- privacy
    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        async with self._read() as db:
            return await personal_footprint(db, user_id, guild_id)

    async def forget_user(self, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
        return await self._tx(lambda db: forget_personal(db, user_id, anon_id, guild_id))

    # -------------------------------------------------------------- meta
    async def get_meta(self, key: str) -> str | None:
        r = await self._first("SELECT value FROM meta WHERE key=?", [key])
        return r[0] if r else None

    async def set_meta(self, key: str, value: str) -> None:
        sql = "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value"
        await self._run(sql, [key, value])

    async def meta_default(self, key: str, value: str) -> str:
        async def tx(db: Conn) -> str:
            await db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value])
            return str(await db.value("SELECT value FROM meta WHERE key=?", [key]))

        return await self._tx(tx)

    # ---------------------------------------------------------- the web companion
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None:
        await self._run(
            "INSERT INTO web_tokens(token_hash, kind, user_id, game_id, expires_at, created_at) VALUES (?,?,?,?,?,?)",
            [token_hash, kind, user_id, game_id, fl(expires_at), fl(self.clock())],
        )

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        sql = "DELETE FROM web_tokens WHERE token_hash=? AND kind=? RETURNING user_id, game_id, expires_at"
        r = await self._tx(lambda db: db.one(sql, [token_hash, kind]))
        return (int(r[0]), r[1]) if r is not None and r[2] > now else None

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        r = await self._first(
            "SELECT user_id, game_id FROM web_tokens WHERE token_hash=? AND kind=? AND expires_at>?",
            [token_hash, kind, fl(now)],
        )
        return (int(r[0]), r[1]) if r is not None else None

    async def web_tokens_end(self, user_id: int) -> int:
        return await self._run("DELETE FROM web_tokens WHERE user_id=?", [user_id])

    async def web_tokens_purge(self, now: float) -> int:
        return await self._run("DELETE FROM web_tokens WHERE expires_at<=?", [fl(now)])

    # ---------------------------------------------------------- members' calendar feeds
    async def calendar_feed_put(self, user_id: int, token_hash: str, now: float, *, replace: bool) -> bool:
        keep = (
            "DO UPDATE SET token_hash=excluded.token_hash, created_at=excluded.created_at" if replace else "DO NOTHING"
        )
        sql = f"INSERT INTO calendar_feeds(user_id, token_hash, created_at) VALUES (?,?,?) ON CONFLICT (user_id) {keep}"
        return await self._run(sql, [user_id, token_hash, fl(now)]) > 0

    async def calendar_feed_member(self, token_hash: str) -> int | None:
        r = await self._first("SELECT user_id FROM calendar_feeds WHERE token_hash=?", [token_hash])
        return int(r[0]) if r is not None else None

    # ---------------------------------------------------------- members' display names
    async def member_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        async with self._read(False) as db:
            for chunk in chunks(sorted({int(u) for u in user_ids})[:10_000], self.dialect.chunk):
                within, args = self.dialect.within("user_id", chunk)
                sql = f"SELECT user_id, name FROM member_names WHERE guild_id=? AND {within}"
                out.update({int(u): str(n) for u, n in await db.fetch(sql, [guild_id, *args])})
        return out

    async def set_member_name(self, guild_id: int, user_id: int, name: str, now: float, *, create: bool = True) -> bool:
        if not create:
            refresh = "UPDATE member_names SET name=?, updated_at=? WHERE guild_id=? AND user_id=? AND name <> ?"
            return await self._run(refresh, [name, fl(now), guild_id, user_id, name]) > 0
        sql = (
            "INSERT INTO member_names(guild_id, user_id, name, updated_at) VALUES (?,?,?,?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
            " WHERE member_names.name <> excluded.name"
        )
        return await self._run(sql, [guild_id, user_id, name, fl(now)]) > 0

"""The store's SQL core, shared by both backends: tables, the one compare-and-swap
commit with its outbox row, due times, the action log and its snapshots.

:class:`SqlStore` implements :class:`store.ports.Store` on top of two things a
backend gives (store/sqlite.py, store/postgres.py): :meth:`SqlStore._tx` (one write
transaction: its locks, its identity checks, :class:`CommitUnknown` when the reply
to COMMIT is lost) and :meth:`SqlStore._read` (one read snapshot), both handing a
:class:`store.sql.Conn`, plus its :class:`store.sql.Dialect`.  The features around
tables (settings, limits, campaigns, leagues, votes, ratings, followers, privacy,
metadata, the web companion's tokens) are in :mod:`store.community`.

Due times (store/due.py) are recomputed in the transaction of every change that
moves them; the log and its snapshots are store/history.py's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

from store.orders import SAME_ORDERS, SqlOrders
from store.outbox_sql import SqlOutbox

from .base import (
    ACTIVE_STATUSES,
    GAME_COLUMNS,
    LANDED,
    ActionRow,
    Caps,
    ChangeSet,
    ChannelBusy,
    Committed,
    CommitUnknown,
    CorruptRow,
    GameChange,
    GameRow,
    LimitReached,
    Seat,
    VersionConflict,
    VoteTaken,
    dumps,
    qualified,
)
from .sql import Conn, chunks, fl

T = TypeVar("T")


#: what a cap counts: (table, the member's column, which rows are open)
#: the names ``actions.taken_by`` allows (migration 12); newer sources go in ``source`` only
TAKEN_BY = ("", "player", "ai", "auto")
CAPPED = {
    "lobbies": ("games", "host_id", "status='lobby'"),
    "campaigns": ("campaigns", "created_by", "status='open'"),
    "leagues": ("leagues", "created_by", "status IN ('signup','running')"),
}


def game_row(r: Sequence[Any]) -> GameRow:
    """A GameRow from the columns of :data:`GAME_COLUMNS` and the seats as JSON."""
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
    seats = [Seat(seat=s, user_id=u, ai_level=lv) for _, s, u, lv in sorted(json.loads(r[21] or "[]"))]
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
        orders_json=r[20],
    )


def by(a: ActionRow) -> tuple[str, str]:
    """(taken_by, source) of a logged step: taken_by one of its four names (a newer source is
    read there as a step of the member, else of the AI), source the full one."""
    if a.by in TAKEN_BY:
        return a.by, a.by
    return ("ai" if a.user_id is None else "player"), a.by


class SqlCore(SqlOrders, SqlOutbox):
    """Tables in SQL: rows, the one commit, the outbox and due times (the log is
    store/history.py's, the features around tables store/community.py's)."""

    @property
    def _game(self) -> str:
        return f"SELECT {qualified(GAME_COLUMNS, 'g')}, {self.dialect.seats_json} FROM games g"

    async def _game_rows(self, sql: str, args: Sequence[Any] = ()) -> list[GameRow]:
        """Rows for listings; an unreadable one is skipped here (and quarantined when opened)."""
        async with self._read(False) as db:
            rows = await db.fetch(sql, args)
        out = []
        for r in rows:
            try:
                out.append(game_row(r))
            except CorruptRow:
                continue
        return out

    async def _check_caps(self, db: Conn, kind: str, guild_id: int | None, user_id: int, caps: Caps) -> None:
        """Raise :class:`LimitReached` when the member or the server is at its cap; the count
        and the caller's insert are one step per server, also across processes."""
        if guild_id is None:
            return
        table, who, where = CAPPED[kind]
        await self._lock(db, f"caps:{kind}:{guild_id}")
        for scope, extra, args, cap in (
            ("member", f" AND {who}=?", [guild_id, user_id], caps.member),
            ("server", "", [guild_id], caps.server),
        ):
            if (
                cap is not None
                and await db.value(f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=?{extra}", args) >= cap
            ):
                raise LimitReached(kind, scope, cap)

    async def _first_game(self, where: str, args: Sequence[Any]) -> GameRow | None:
        async with self._read(False) as db:
            r = await db.one(f"{self._game} WHERE {where}", args)
        return game_row(r) if r else None

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
        caps=None,
    ) -> GameRow:
        now = self.clock()

        async def tx(db: Conn) -> int:
            if await db.one("SELECT id FROM games WHERE channel_id=? AND status IN ('lobby','active')", [channel_id]):
                raise ChannelBusy(str(channel_id))
            if caps is not None:
                await self._check_caps(db, "lobbies", guild_id, host_id, caps)
            gid = await db.value(
                "INSERT INTO games(guild_id, channel_id, game, status, host_id, options_json, seed, state_json,"
                " version, created_at, updated_at, locale, turn_started_at, table_json, campaign_id)"
                " VALUES (?,?,?,?,?,?,?,?,1,?,?,?,?,?,?) RETURNING id",
                [
                    guild_id,
                    channel_id,
                    game,
                    status,
                    host_id,
                    dumps(options),
                    seed,
                    state_json,
                    fl(now),
                    fl(now),
                    locale,
                    fl(now) if status == "active" else None,
                    dumps(table or {}),
                    campaign_id,
                ],
            )
            await self._step("seats")
            await self._write_seats(db, int(gid), seats)
            return int(gid)

        try:
            gid = await self._tx(tx)
        except self.unique_violation:  # the unique index: another process opened one first
            raise ChannelBusy(str(channel_id)) from None
        except CommitUnknown:
            LANDED.set(("unknown", None, None))
            raise
        LANDED.set(("committed", gid, None))
        row = await self.get_game(gid)
        assert row is not None
        return row

    async def _write_seats(self, db: Conn, game_id: int, seats: Sequence[Seat]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id=?", [game_id])
        await db.executemany(
            "INSERT INTO seats(game_id, position, seat, user_id, ai_level) VALUES (?,?,?,?,?)",
            [(game_id, i, s.seat, s.user_id, s.ai_level) for i, s in enumerate(seats)],
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._first_game("g.id=?", [game_id])

    async def active_game(self, channel_id: int) -> GameRow | None:
        return await self.latest_game(channel_id, ACTIVE_STATUSES)

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        within, args = self.dialect.within("g.status", statuses, "TEXT")
        return await self._first_game(f"g.channel_id=? AND {within} ORDER BY g.id DESC LIMIT 1", [channel_id, *args])

    async def games_of_user(self, user_id, guild_id=None, statuses=ACTIVE_STATUSES) -> list[GameRow]:
        within, args = self.dialect.within("g.status", statuses, "TEXT")
        sql = f"{self._game} WHERE {within} AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id=g.id AND s.user_id=?)"
        args.append(user_id)
        if guild_id is not None:
            sql += " AND g.guild_id=?"
            args.append(guild_id)
        return await self._game_rows(sql + " ORDER BY g.id", args)

    async def waiting_tables(self) -> list[GameRow]:
        return await self._game_rows(f"{self._game} WHERE g.status='active' AND g.to_act_json != '[]' ORDER BY g.id")

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        async with self._read(False) as db:
            rows = await db.fetch(
                f"{self._game.replace(' FROM games g', ', g.lobby_message_id FROM games g')}"
                " WHERE g.status='lobby' AND g.updated_at<? ORDER BY g.updated_at, g.id",
                [fl(before)],
            )
        out = []
        for r in rows:
            try:
                out.append((game_row(r[:-1]), r[-1]))
            except CorruptRow:
                continue
        return out

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._tx(lambda db: db.execute("UPDATE games SET lobby_message_id=? WHERE id=?", [message_id, game_id]))

    async def count_games(self) -> int:
        async with self._read(False) as db:
            return int(await db.value("SELECT COUNT(*) FROM games"))

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        async with self._read() as db:
            for chunk in chunks([int(i) for i in game_ids][:10_000], self.dialect.chunk):
                within, args = self.dialect.within("id", chunk)
                out.update(
                    {int(g): int(v) for g, v in await db.fetch(f"SELECT id, version FROM games WHERE {within}", args)}
                )
        return out

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int:
        done = await self.commit(ChangeSet(game=GameChange(game_id, expected_version, **changes)))
        assert done.version is not None
        return done.version

    async def commit(self, changes: ChangeSet) -> Committed:
        now = self.clock()

        async def tx(db: Conn) -> Committed:
            done = Committed()
            if changes.game is not None:
                done.version = await self._apply_game(db, changes.game, now)
                g = changes.game
                if g.to_act is not None or g.seats is not None or g.status is not None or g.table is not None:
                    await self._retime(db, [g.game_id])
            for c in changes.campaigns:
                await self._step("campaigns")
                if 1 != await db.execute(
                    "UPDATE campaigns SET progress_json=?, version=version+1 WHERE id=? AND version=?",
                    [dumps(c.progress), c.campaign_id, c.expected_version],
                ):
                    raise VersionConflict(f"campaign {c.campaign_id}")
            for v in changes.votes:
                await self._step("votes")
                sets: list[str] = ["version=version+1"]
                args: list[Any] = []
                for col, value in (("yes_json", v.yes), ("no_json", v.no)):
                    if value is not None:
                        sets.append(f"{col}=?")
                        args.append(dumps(sorted(set(value))))
                if v.status is not None:
                    sets.append("status=?")
                    args.append(v.status)
                sql = f"UPDATE votes SET {', '.join(sets)} WHERE id=? AND version=?"
                if 1 != await db.execute(sql, [*args, v.vote_id, v.expected_version]):
                    raise VersionConflict(f"vote {v.vote_id}")
            for rc in changes.ratings:
                await self._step("ratings")
                if rc.expected_version == 0:
                    sql = (
                        "INSERT INTO ratings(guild_id, game, user_id, mu, sigma, played, version, updated_at)"
                        " VALUES (?,?,?,?,?,?,1,?) ON CONFLICT DO NOTHING"
                    )
                    args = [rc.guild_id, rc.game, rc.user_id, fl(rc.mu), fl(rc.sigma), rc.played, fl(now)]
                else:
                    sql = (
                        "UPDATE ratings SET mu=?, sigma=?, played=?, version=version+1, updated_at=?"
                        " WHERE guild_id=? AND game=? AND user_id=? AND version=?"
                    )
                    args = [fl(rc.mu), fl(rc.sigma), rc.played, fl(now), rc.guild_id, rc.game, rc.user_id]
                    args.append(rc.expected_version)
                if 1 != await db.execute(sql, args):
                    raise VersionConflict(f"rating {rc.guild_id}/{rc.game}/{rc.user_id}")
            for nv in changes.new_votes:
                await self._step("votes")
                try:
                    vid = await db.value(
                        "INSERT INTO votes(game_id, kind, payload_json, base_version, voters_json, created_by,"
                        " created_at, decision) VALUES (?,?,?,?,?,?,?,?) RETURNING id",
                        [
                            nv.game_id,
                            nv.kind,
                            dumps(nv.payload),
                            nv.base_version,
                            dumps(nv.voters),
                            nv.created_by,
                            fl(now),
                            nv.decision,
                        ],
                    )
                except self.unique_violation:  # votes_one_per_decision: opened first elsewhere
                    raise VoteTaken(f"table {nv.game_id}: {nv.decision}") from None
                done.vote_ids.append(int(vid))
                await self._put_message(db, f"vote:{int(vid)}", nv.game_id, "vote", int(vid), changes.messenger, now)
            if changes.owed is not None and changes.game is not None and done.version is not None:
                await self._step("outbox")
                await self._put_owed(db, changes.game.game_id, done.version, changes.owed, now)
                for uid, kind in changes.owed.dms:
                    key = f"dm:{changes.game.game_id}:{done.version}:{uid}"
                    await self._put_message(db, key, changes.game.game_id, kind, uid, changes.owed.owner, now)
            return done

        gid = changes.game.game_id if changes.game is not None else None
        try:
            done = await self._tx(tx)
        except CommitUnknown:
            LANDED.set(("unknown", gid, None))
            raise
        LANDED.set(("committed", gid, done.version))
        return done

    async def _apply_game(self, db: Conn, c: GameChange, now: float) -> int:
        sets, args = ["version=version+1", "updated_at=?"], [fl(now)]

        def put(col: str, value: Any) -> None:
            sets.append(f"{col}=?")
            args.append(value)

        if c.status is not None:
            put("status", c.status)
            if c.status == "active" and c.to_act is None:
                sets.append("turn_started_at=COALESCE(turn_started_at, ?)")
                args.append(fl(now))
            if c.status in ("finished", "abandoned"):
                put("finished_at", fl(now))
        if c.state_json is not None:
            put("state_json", c.state_json)
        if c.channel_id is not None:
            put("channel_id", c.channel_id)
        if c.to_act is not None:  # a new decision is pending: its clock (timer, reminders) starts now
            put("to_act_json", dumps(list(c.to_act)))
            put("turn_started_at", fl(now))
            sets.append("last_reminder_at=NULL")
        for col, value in (("table_json", c.table), ("options_json", c.options), ("outcome_json", c.outcome)):
            if value is not None:
                put(col, dumps(value))
        where, wargs = "", []
        if c.orders is not None:  # the armed orders as read, else someone (dis)armed one meanwhile
            put("orders_json", c.orders.orders)
            put("orders_due", fl(c.orders.due))
            where, wargs = f" AND {SAME_ORDERS}", [c.orders.expected]
        found = await db.one(
            f"UPDATE games SET {', '.join(sets)} WHERE id=? AND version=?{where} RETURNING guild_id, game",
            [*args, c.game_id, c.expected_version, *wargs],
        )
        if found is None:
            raise VersionConflict(str(c.game_id))
        new_version = c.expected_version + 1
        if c.seats is not None:
            await self._step("seats")
            await self._write_seats(db, c.game_id, c.seats)
        if c.revert:
            await self._step("revert")
            await db.executemany(
                "INSERT INTO reverts(action_id, game_id, by_user, created_at) VALUES (?,?,?,?)",
                [(aid, c.game_id, c.by_user, fl(now)) for aid in c.revert],
            )
            # cached states of the taken-back part of the log are no longer true
            await db.execute("DELETE FROM snapshots WHERE game_id=? AND action_id>=?", [c.game_id, min(c.revert)])
        if c.actions:
            await self._step("actions")
            await db.executemany(
                "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at, taken_by,"
                " source) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (c.game_id, a.seat, a.user_id, dumps(a.action), dumps(a.events), new_version, fl(now), *by(a))
                    for a in c.actions
                ],
            )
            if c.snapshot is not None:
                await self._step("snapshot")
                last = await db.value("SELECT MAX(id) FROM actions WHERE game_id=?", [c.game_id])
                await self._put_snapshot(db, c.game_id, int(last), c.snapshot, now)
        if c.results:
            await self._step("results")
            await db.executemany(
                "INSERT INTO results(game_id, guild_id, game, seat, user_id, place, won, score, record,"
                " finished_at) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " guild_id=excluded.guild_id, game=excluded.game, user_id=excluded.user_id,"
                " place=excluded.place, won=excluded.won, score=excluded.score, record=excluded.record,"
                " finished_at=excluded.finished_at",
                [
                    (c.game_id, *found, r.seat, r.user_id, r.place, int(r.won), fl(r.score), fl(r.record), fl(now))
                    for r in c.results
                ],
            )
        return new_version

    async def quarantine(self, game_id: int, reason: str) -> None:
        now = fl(self.clock())

        async def tx(db: Conn) -> None:
            await db.execute(
                "INSERT INTO quarantine(game_id, reason, payload, created_at)"
                " SELECT id, ?, COALESCE(state_json, '') || CAST(? AS TEXT) || COALESCE(options_json, ''), ?"
                " FROM games WHERE id=? AND status != 'quarantined'",
                [reason, "\n", now, game_id],
            )
            await db.execute(
                "UPDATE games SET status='quarantined', to_act_json='[]', version=version+1, updated_at=?"
                " WHERE id=? AND status != 'quarantined'",
                [now, game_id],
            )
            await db.execute("DELETE FROM turn_clocks WHERE game_id=?", [game_id])

        await self._tx(tx)

    async def quarantined(self) -> list[tuple[int, str]]:
        async with self._read(False) as db:
            rows = await db.fetch("SELECT game_id, reason FROM quarantine ORDER BY id")
        return [(int(g), str(r)) for g, r in rows]

    async def due_tables(self, now: float) -> list[GameRow]:
        return await self._game_rows(
            f"{self._game} WHERE g.id IN (SELECT game_id FROM turn_clocks WHERE remind_at <= ?"
            " UNION SELECT game_id FROM turn_clocks WHERE expire_at <= ?"
            " UNION SELECT id FROM games WHERE orders_due <= ?) AND g.status='active' ORDER BY g.id",
            [fl(now), fl(now), fl(now)],
        )

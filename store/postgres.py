"""PostgreSQL backend (asyncpg): the same interface as the SQLite one, for several
bot processes sharing one database.

Every write is one transaction; every change to a table is a compare-and-swap on
its version (``UPDATE ... WHERE id=$1 AND version=$2``: under READ COMMITTED a
racing writer waits for the row lock, re-reads the version and loses).  A game is
read with its seats in one statement, so a read never sees half a change.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from .base import (
    ACTIVE_STATUSES,
    GAME_COLUMNS,
    LANDED,
    OUTBOX_COLUMNS,
    ActionRow,
    Campaign,
    Caps,
    ChangeSet,
    ChannelBusy,
    Committed,
    CommitUnknown,
    CorruptRow,
    FollowRow,
    GameChange,
    GameRow,
    InjectedCrash,
    LeagueRow,
    LimitReached,
    NewSnapshot,
    OutboxRow,
    Owed,
    RatingRow,
    ReplaySource,
    ResultRow,
    Seat,
    SnapshotRow,
    Sql,
    StatRow,
    Store,
    StoreError,
    VersionConflict,
    Vote,
    VoteTaken,
    away_periods,
    dumps,
    json_dict,
    json_list,
    merge_owed,
    outbox_row,
    qualified,
    redact,
    scrub,
    seat_clocks,
)
from .migrations import CLOCKS_VERSION, migrate_postgres

# a game row with its seats, in one statement (one snapshot)
_GAME = (
    "SELECT {cols}, ARRAY(SELECT s.seat FROM seats s WHERE s.game_id=g.id ORDER BY s.position) AS seat_names,"
    " ARRAY(SELECT s.user_id FROM seats s WHERE s.game_id=g.id ORDER BY s.position) AS seat_users,"
    " ARRAY(SELECT s.ai_level FROM seats s WHERE s.game_id=g.id ORDER BY s.position) AS seat_levels FROM games g"
).format(cols=qualified(GAME_COLUMNS, "g"))


#: the effective log of table ``$1`` (taken-back actions left out), as ``a``
_EFFECTIVE = "FROM actions a WHERE a.game_id=$1 AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"


def _action_rows(game_id: int, rows: Sequence[Any]) -> list[ActionRow]:
    out = []
    for i, seat, uid, aj, ej, ver, at in rows:
        try:
            action, events = json.loads(aj), json.loads(ej or "[]")
        except ValueError as exc:
            raise CorruptRow(game_id, f"unreadable action {i}: {exc}") from None
        out.append(ActionRow(id=i, seat=seat, user_id=uid, action=action, events=events, version=ver, created_at=at))
    return out


def _qmarks(sql: str) -> str:
    """``?`` placeholders (the SQLite spelling) to ``$1, $2, ...``."""
    out, n = [], 0
    for part in sql.split("?"):
        out.append(part)
        n += 1
        out.append(f"${n}")
    return "".join(out[:-1])


class _Sql(Sql):
    def __init__(self, conn) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[tuple]:
        return [tuple(r) for r in await self.conn.fetch(_qmarks(sql), *args)]

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        status = await self.conn.execute(_qmarks(sql), *args)
        last = (status or "").split()[-1:]
        return int(last[0]) if last and last[0].isdigit() else 0


#: what a cap counts: (table, the member's column, which rows are open)
_LOBBIES = ("games", "host_id", "status='lobby'")
_CAMPAIGNS = ("campaigns", "created_by", "status='open'")


async def _check_caps(conn, kind: str, what: tuple[str, str, str], guild_id, user_id, caps: Caps) -> None:
    """Raise :class:`LimitReached` when the member or the server is at its cap; the count
    and the caller's insert are one step per server across processes (an advisory lock)."""
    if guild_id is None:
        return
    table, who, where = what
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"caps:{kind}:{guild_id}")
    for scope, extra, args, cap in (
        ("member", f" AND {who}=$2", (guild_id, user_id), caps.member),
        ("server", "", (guild_id,), caps.server),
    ):
        if cap is None:
            continue
        n = await conn.fetchval(f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=$1{extra}", *args)
        if n >= cap:
            raise LimitReached(kind, scope, cap)


class PostgresStore(Store):
    def __init__(self, dsn: str, clock=time.time, *, min_size: int = 1, max_size: int = 4) -> None:
        super().__init__()
        self.dsn = dsn
        self.clock = clock
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        if self._pool is not None:
            return
        where = redact(self.dsn)
        try:
            pool = await asyncpg.create_pool(self.dsn, min_size=self.min_size, max_size=self.max_size)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {where}: {self._reason(exc)}") from None
        except ValueError as exc:  # the URL itself (a port that is not a number, a stray bracket)
            raise StoreError(f"TG_DATABASE is not a valid PostgreSQL URL ({where}): {self._reason(exc)}") from None
        try:
            async with pool.acquire() as conn:
                before, after = await migrate_postgres(conn, self.clock())
                if before < CLOCKS_VERSION <= after:  # due times for the tables an older schema left running
                    async with conn.transaction():
                        await self._retime_all(conn)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await pool.close()
            raise StoreError(f"cannot prepare the PostgreSQL database at {where}: {self._reason(exc)}") from None
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    def _reason(self, exc: BaseException) -> str:
        """The driver's one-line reason, never with the password in it."""
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return scrub(text, self.dsn)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Any]:
        """One write transaction on a pooled connection.  A COMMIT whose answer is
        lost (the connection dropped; the ``"committed"`` crash step) raises
        :class:`CommitUnknown`: the change may have been written, or not."""
        async with self.pool.acquire() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                yield conn
                await self._step("commit")
            except BaseException:
                try:
                    await tr.rollback()
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    pass  # the connection is gone: the server rolls back on its own
                raise
            try:
                await tr.commit()
                await self._step("committed")
            except (
                TimeoutError,
                asyncpg.PostgresConnectionError,
                asyncpg.InterfaceError,
                OSError,
                InjectedCrash,
            ) as exc:
                raise CommitUnknown(f"COMMIT did not answer: {exc}") from exc

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    async def sql(self, query: str, *args: Any) -> list[tuple]:
        """Raw SQL for tests and tools (``?`` placeholders); autocommit."""
        return [tuple(r) for r in await self.pool.fetch(_qmarks(query), *args)]

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
        caps=None,
    ) -> GameRow:
        now = self.clock()
        async with self.pool.acquire() as conn:
            try:
                async with conn.transaction():
                    if caps is not None:
                        await _check_caps(conn, "lobbies", _LOBBIES, guild_id, host_id, caps)
                    gid = await conn.fetchval(
                        "INSERT INTO games(guild_id, channel_id, game, status, host_id, options_json, seed, state_json,"
                        " version, created_at, updated_at, locale, turn_started_at, table_json, campaign_id)"
                        " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,1,$9,$9,$10,$11,$12,$13) RETURNING id",
                        guild_id,
                        channel_id,
                        game,
                        status,
                        host_id,
                        dumps(options),
                        seed,
                        state_json,
                        now,
                        locale,
                        now if status == "active" else None,
                        dumps(table or {}),
                        campaign_id,
                    )
                    await self._step("seats")
                    await self._write_seats(conn, gid, seats)
                    await self._step("commit")
            except asyncpg.UniqueViolationError:  # games_one_open_per_channel
                raise ChannelBusy(str(channel_id)) from None
        LANDED.set(("committed", gid, None))
        row = await self.get_game(gid)
        assert row is not None
        return row

    async def _write_seats(self, conn, game_id: int, seats: Sequence[Seat]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id=$1", game_id)
        await conn.executemany(
            "INSERT INTO seats(game_id, position, seat, user_id, ai_level) VALUES ($1,$2,$3,$4,$5)",
            [(game_id, i, s.seat, s.user_id, s.ai_level) for i, s in enumerate(seats)],
        )

    @staticmethod
    def _row(r: asyncpg.Record) -> GameRow:
        gid = r["id"]
        try:
            options = json.loads(r["options_json"]) if r["options_json"] else {}
            outcome = json.loads(r["outcome_json"]) if r["outcome_json"] else None
            to_act = json.loads(r["to_act_json"]) if r["to_act_json"] else []
            table = json.loads(r["table_json"]) if r["table_json"] else {}
            if not isinstance(options, dict) or not isinstance(table, dict) or not isinstance(to_act, list):
                raise ValueError("options/table/to_act have the wrong shape")
        except (ValueError, TypeError) as exc:
            raise CorruptRow(gid, f"unreadable options/outcome: {exc}") from None
        return GameRow(
            id=gid,
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            game=r["game"],
            status=r["status"],
            host_id=r["host_id"],
            seats=[
                Seat(seat=s, user_id=u, ai_level=lv)
                for s, u, lv in zip(r["seat_names"], r["seat_users"], r["seat_levels"])
            ],
            options=options,
            seed=r["seed"],
            state_json=r["state_json"],
            version=r["version"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
            locale=r["locale"],
            outcome=outcome,
            turn_started_at=r["turn_started_at"],
            to_act=to_act,
            last_reminder_at=r["last_reminder_at"],
            campaign_id=r["campaign_id"],
            finished_at=r["finished_at"],
            table=table,
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        r = await self.pool.fetchrow(_GAME + " WHERE g.id=$1", game_id)
        return self._row(r) if r else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        r = await self.pool.fetchrow(
            _GAME + " WHERE g.channel_id=$1 AND g.status IN ('lobby','active') ORDER BY g.id DESC LIMIT 1", channel_id
        )
        return self._row(r) if r else None

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        r = await self.pool.fetchrow(
            _GAME + " WHERE g.channel_id=$1 AND g.status = ANY($2::text[]) ORDER BY g.id DESC LIMIT 1",
            channel_id,
            list(statuses),
        )
        return self._row(r) if r else None

    # ------------------------------------------------------------ commit
    async def commit(self, changes: ChangeSet) -> Committed:
        now = self.clock()
        done = Committed()
        gid = changes.game.game_id if changes.game is not None else None
        try:
            async with self._tx() as conn:
                if changes.game is not None:
                    done.version = await self._apply_game(conn, changes.game, now)
                    g = changes.game
                    if g.to_act is not None or g.seats is not None or g.status is not None or g.table is not None:
                        await self._retime(conn, [g.game_id])
                for c in changes.campaigns:
                    await self._step("campaigns")
                    found = await conn.fetchval(
                        "UPDATE campaigns SET progress_json=$1, version=version+1 WHERE id=$2 AND version=$3 RETURNING id",
                        dumps(c.progress),
                        c.campaign_id,
                        c.expected_version,
                    )
                    if found is None:
                        raise VersionConflict(f"campaign {c.campaign_id}")
                for v in changes.votes:
                    await self._step("votes")
                    args: list[Any] = [v.vote_id, v.expected_version]
                    sets = ["version=version+1"]
                    if v.yes is not None:
                        args.append(dumps(sorted(set(v.yes))))
                        sets.append(f"yes_json=${len(args)}")
                    if v.no is not None:
                        args.append(dumps(sorted(set(v.no))))
                        sets.append(f"no_json=${len(args)}")
                    if v.status is not None:
                        args.append(v.status)
                        sets.append(f"status=${len(args)}")
                    found = await conn.fetchval(
                        f"UPDATE votes SET {', '.join(sets)} WHERE id=$1 AND version=$2 RETURNING id", *args
                    )
                    if found is None:
                        raise VersionConflict(f"vote {v.vote_id}")
                for rc in changes.ratings:
                    await self._step("ratings")
                    if rc.expected_version == 0:
                        found = await conn.fetchval(
                            "INSERT INTO ratings(guild_id, game, user_id, mu, sigma, played, version, updated_at)"
                            " VALUES ($1,$2,$3,$4,$5,$6,1,$7) ON CONFLICT DO NOTHING RETURNING user_id",
                            rc.guild_id,
                            rc.game,
                            rc.user_id,
                            float(rc.mu),
                            float(rc.sigma),
                            rc.played,
                            now,
                        )
                    else:
                        found = await conn.fetchval(
                            "UPDATE ratings SET mu=$1, sigma=$2, played=$3, version=version+1, updated_at=$4"
                            " WHERE guild_id=$5 AND game=$6 AND user_id=$7 AND version=$8 RETURNING user_id",
                            float(rc.mu),
                            float(rc.sigma),
                            rc.played,
                            now,
                            rc.guild_id,
                            rc.game,
                            rc.user_id,
                            rc.expected_version,
                        )
                    if found is None:
                        raise VersionConflict(f"rating {rc.guild_id}/{rc.game}/{rc.user_id}")
                for nv in changes.new_votes:
                    await self._step("votes")
                    try:
                        vid = await conn.fetchval(
                            "INSERT INTO votes(game_id, kind, payload_json, base_version, voters_json, created_by,"
                            " created_at, decision) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
                            nv.game_id,
                            nv.kind,
                            dumps(nv.payload),
                            nv.base_version,
                            dumps(nv.voters),
                            nv.created_by,
                            now,
                            nv.decision,
                        )
                    except asyncpg.UniqueViolationError:  # votes_one_per_decision: opened first elsewhere
                        raise VoteTaken(f"table {nv.game_id}: {nv.decision}") from None
                    done.vote_ids.append(int(vid))
                if changes.owed is not None and changes.game is not None and done.version is not None:
                    await self._step("outbox")
                    await self._put_owed(conn, changes.game.game_id, done.version, changes.owed, now)
        except CommitUnknown:
            LANDED.set(("unknown", gid, None))
            raise
        LANDED.set(("committed", gid, done.version))
        return done

    # ------------------------------------------------------------ outbox
    async def _put_owed(self, conn, game_id: int, version: int, owed: Owed, now: float) -> None:
        found = await conn.fetchrow("SELECT since, notes_json FROM outbox WHERE game_id=$1 FOR UPDATE", game_id)
        since, notes = merge_owed(tuple(found) if found else None, version, owed)
        until = now + owed.lease if owed.owner else None
        await conn.execute(
            "INSERT INTO outbox(game_id, version, since, kind, notes_json, attempts, due_at, lease_until,"
            " lease_owner, created_at) VALUES ($1,$2,$3,$4,$5,0,$6,$7,$8,$9)"
            " ON CONFLICT (game_id) DO UPDATE SET version=EXCLUDED.version, since=EXCLUDED.since,"
            " kind=EXCLUDED.kind, notes_json=EXCLUDED.notes_json, attempts=0, due_at=EXCLUDED.due_at,"
            " lease_until=EXCLUDED.lease_until, lease_owner=EXCLUDED.lease_owner, created_at=EXCLUDED.created_at",
            game_id,
            version,
            since,
            owed.kind,
            notes,
            float(until or now),
            None if until is None else float(until),
            owed.owner,
            float(now),
        )

    async def outbox(self, game_id: int) -> OutboxRow | None:
        r = await self.pool.fetchrow(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id=$1", game_id)
        return outbox_row(tuple(r)) if r else None

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        rows = await self.pool.fetch(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE due_at<=$1 AND (lease_until IS NULL OR lease_until<=$1)"
            " ORDER BY due_at, game_id LIMIT $2",
            float(now),
            limit,
        )
        return [outbox_row(tuple(r)) for r in rows]

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        found = await self.pool.fetchval(
            "UPDATE outbox SET lease_owner=$1, lease_until=$2, attempts=attempts+1 WHERE game_id=$3 AND version=$4"
            " AND attempts=$5 AND (lease_until IS NULL OR lease_until<=$6) RETURNING game_id",
            owner,
            float(until),
            row.game_id,
            row.version,
            row.attempts,
            float(now),
        )
        return found is not None

    async def outbox_done(self, game_id: int, version: int) -> bool:
        found = await self.pool.fetchval(
            "DELETE FROM outbox WHERE game_id=$1 AND version=$2 RETURNING game_id", game_id, version
        )
        return found is not None

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        found = await self.pool.fetchval(
            "UPDATE outbox SET lease_owner=NULL, lease_until=NULL, due_at=$1 WHERE game_id=$2 AND version=$3"
            " AND ($4::text IS NULL OR lease_owner=$4::text OR lease_owner IS NULL) RETURNING game_id",
            float(due_at),
            game_id,
            version,
            owner,
        )
        return found is not None

    async def _apply_game(self, conn, c: GameChange, now: float) -> int:
        args: list[Any] = [c.game_id, c.expected_version, now]
        sets = ["version=version+1", "updated_at=$3"]

        def arg(value: Any) -> str:
            args.append(value)
            return f"${len(args)}"

        if c.status is not None:
            sets.append(f"status={arg(c.status)}")
            if c.status == "active" and c.to_act is None:
                sets.append("turn_started_at=COALESCE(turn_started_at, $3)")
            if c.status in ("finished", "abandoned"):
                sets.append("finished_at=$3")
        if c.state_json is not None:
            sets.append(f"state_json={arg(c.state_json)}")
        if c.to_act is not None:
            # a new decision is pending: its clock (timer, reminders) starts now
            sets += [f"to_act_json={arg(dumps(list(c.to_act)))}", "turn_started_at=$3", "last_reminder_at=NULL"]
        if c.table is not None:
            sets.append(f"table_json={arg(dumps(c.table))}")
        if c.options is not None:
            sets.append(f"options_json={arg(dumps(c.options))}")
        if c.outcome is not None:
            sets.append(f"outcome_json={arg(dumps(c.outcome))}")
        found = await conn.fetchrow(
            f"UPDATE games SET {', '.join(sets)} WHERE id=$1 AND version=$2 RETURNING guild_id, game", *args
        )
        if found is None:
            raise VersionConflict(str(c.game_id))
        new_version = c.expected_version + 1
        if c.seats is not None:
            await self._step("seats")
            await self._write_seats(conn, c.game_id, c.seats)
        if c.revert:
            await self._step("revert")
            await conn.executemany(
                "INSERT INTO reverts(action_id, game_id, by_user, created_at) VALUES ($1,$2,$3,$4)",
                [(aid, c.game_id, c.by_user, now) for aid in c.revert],
            )
            # cached states of the taken-back part of the log are no longer true
            await conn.execute("DELETE FROM snapshots WHERE game_id=$1 AND action_id>=$2", c.game_id, min(c.revert))
        if c.actions:
            await self._step("actions")
            await conn.executemany(
                "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at)"
                " VALUES ($1,$2,$3,$4,$5,$6,$7)",
                [(c.game_id, a.seat, a.user_id, dumps(a.action), dumps(a.events), new_version, now) for a in c.actions],
            )
            if c.snapshot is not None:
                await self._step("snapshot")
                last = await conn.fetchval("SELECT MAX(id) FROM actions WHERE game_id=$1", c.game_id)
                await self._put_snapshot(conn, c.game_id, int(last), c.snapshot, now)
        if c.results:
            await self._step("results")
            await conn.executemany(
                "INSERT INTO results(game_id, guild_id, game, seat, user_id, place, won, score, record,"
                " finished_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " guild_id=excluded.guild_id, game=excluded.game, user_id=excluded.user_id,"
                " place=excluded.place, won=excluded.won, score=excluded.score, record=excluded.record,"
                " finished_at=excluded.finished_at",
                [
                    (
                        c.game_id,
                        found["guild_id"],
                        found["game"],
                        r.seat,
                        r.user_id,
                        r.place,
                        int(r.won),
                        _float(r.score),
                        _float(r.record),
                        now,
                    )
                    for r in c.results
                ],
            )
        return new_version

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        rows = await self.pool.fetch(
            "SELECT id, seat, user_id, action_json, events_json, version, created_at FROM actions a"
            " WHERE game_id=$1 AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"
            " ORDER BY id LIMIT $2 OFFSET $3",
            game_id,
            limit,
            offset,
        )
        return _action_rows(game_id, rows)

    # --------------------------------------------------------- snapshots
    @staticmethod
    async def _put_snapshot(conn, game_id: int, action_id: int, snap: NewSnapshot, now: float) -> None:
        """One cached state after ``action_id`` (an effective action of this table),
        its position counted from the log (inside the caller's transaction).  Snapshots
        of the table under other keys (older builds) are dropped: nothing reads them again."""
        await conn.execute("DELETE FROM snapshots WHERE game_id=$1 AND key<>$2", game_id, snap.key)
        await conn.execute(
            "INSERT INTO snapshots(game_id, action_id, key, position, state_json, created_at)"
            f" SELECT $1::bigint, $2::bigint, $3::text, (SELECT COUNT(*) {_EFFECTIVE} AND a.id<=$2), $4::text,"
            " $5::double precision"
            " WHERE EXISTS (SELECT 1 FROM actions WHERE id=$2 AND game_id=$1)"
            " AND NOT EXISTS (SELECT 1 FROM reverts WHERE action_id=$2) ON CONFLICT DO NOTHING",
            game_id,
            action_id,
            snap.key,
            snap.state_json,
            now,
        )

    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        snap_sql = "SELECT action_id, position, key, state_json FROM snapshots WHERE game_id=$1 AND key=$2"
        cols = f"SELECT a.id, a.seat, a.user_id, a.action_json, a.events_json, a.version, a.created_at {_EFFECTIVE}"
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            total = int(await conn.fetchval(f"SELECT COUNT(*) {_EFFECTIVE}", game_id))
            found = await conn.fetchval("SELECT version FROM games WHERE id=$1", game_id)
            version = int(found) if found is not None else None
            snap, limit, last = None, None, None
            if user_id is not None:
                last = await conn.fetchval(f"SELECT MAX(a.id) {_EFFECTIVE} AND a.user_id=$2", game_id, user_id)
                if last is None:
                    return ReplaySource(None, [], total, None, version)
                if key is not None:
                    snap = await conn.fetchrow(
                        snap_sql + " AND action_id<$3 ORDER BY action_id DESC LIMIT 1", game_id, key, last
                    )
            elif turn is not None:
                if key is not None:
                    snap = await conn.fetchrow(
                        snap_sql + " AND position<=$3 ORDER BY position DESC LIMIT 1", game_id, key, turn
                    )
                limit = max(0, turn - (snap[1] if snap else 0))
            elif key is not None:
                snap = await conn.fetchrow(snap_sql + " ORDER BY action_id DESC LIMIT 1", game_id, key)
            rows = await conn.fetch(
                cols + " AND a.id>$2 ORDER BY a.id LIMIT $3", game_id, snap[0] if snap else 0, limit
            )
        actions = _action_rows(game_id, rows)
        cut = next(i for i, a in enumerate(actions) if a.id == last) if last is not None else None
        return ReplaySource(SnapshotRow(*snap) if snap else None, actions, total, cut, version)

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        rows = await self.pool.fetch(
            "SELECT action_id, position, key, state_json FROM snapshots WHERE game_id=$1 ORDER BY action_id, key",
            game_id,
        )
        return [SnapshotRow(*r) for r in rows]

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        now = self.clock()
        async with self.pool.acquire() as conn, conn.transaction():
            # the row lock orders this fill against a revert of the same table
            found = await conn.fetchval(
                "SELECT id FROM games WHERE id=$1 AND version=$2 FOR UPDATE", game_id, expected_version
            )
            if found is None:
                return False
            for snap in snapshots:
                assert snap.action_id is not None
                await self._put_snapshot(conn, game_id, snap.action_id, snap, now)
        return True

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        if game_id is None:
            done = await self.pool.execute("DELETE FROM snapshots")
        else:
            done = await self.pool.execute("DELETE FROM snapshots WHERE game_id=$1", game_id)
        return int(done.split()[-1])

    async def count_actions(self, game_id: int) -> int:
        return int(
            await self.pool.fetchval(
                "SELECT COUNT(*) FROM actions a WHERE game_id=$1 AND NOT EXISTS"
                " (SELECT 1 FROM reverts r WHERE r.action_id=a.id)",
                game_id,
            )
        )

    async def waiting_tables(self) -> list[GameRow]:
        rows = await self.pool.fetch(_GAME + " WHERE g.status='active' AND g.to_act_json != '[]' ORDER BY g.id")
        return self._readable_rows(rows)

    def _readable_rows(self, rows) -> list[GameRow]:
        """Rows for listings; an unreadable one is skipped here (and quarantined when opened)."""
        out = []
        for r in rows:
            try:
                out.append(self._row(r))
            except CorruptRow:
                continue
        return out

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        async with self.pool.acquire() as conn, conn.transaction():
            if expected_version is None:
                found = await conn.fetchval(
                    "UPDATE games SET last_reminder_at=$2 WHERE id=$1 RETURNING id", game_id, at
                )
            else:  # a claim: only for the caller that saw this version and this previous reminder
                found = await conn.fetchval(
                    "UPDATE games SET last_reminder_at=$2 WHERE id=$1 AND version=$3"
                    " AND last_reminder_at IS NOT DISTINCT FROM $4 RETURNING id",
                    game_id,
                    _float(at),
                    expected_version,
                    _float(previous),
                )
            if found is not None:
                await self._retime(conn, [game_id])  # the next reminder is due one interval later
        return found is not None

    # ------------------------------------------------------- due times
    async def _retime(self, conn, game_ids: Sequence[int]) -> None:
        """Recompute the due times of these tables' waiting seats (inside the caller's transaction)."""
        rows = await conn.fetch(
            "SELECT g.id, g.status, g.to_act_json, g.table_json, g.turn_started_at, g.last_reminder_at,"
            " (SELECT settings_json FROM guild_settings s WHERE s.guild_id=g.guild_id) AS guild,"
            " ARRAY(SELECT s.seat FROM seats s WHERE s.game_id=g.id ORDER BY s.position) AS seat_names,"
            " ARRAY(SELECT s.user_id FROM seats s WHERE s.game_id=g.id ORDER BY s.position) AS seat_users"
            " FROM games g WHERE g.id = ANY($1::bigint[])",
            list(game_ids),
        )
        await conn.execute("DELETE FROM turn_clocks WHERE game_id = ANY($1::bigint[])", list(game_ids))
        uids = sorted({u for r in rows for u in r["seat_users"] if u is not None})
        away: dict[int, list[tuple[float, float]]] = {}
        if uids:
            prefs = await conn.fetch(
                "SELECT user_id, prefs_json FROM user_prefs WHERE user_id = ANY($1::bigint[])", uids
            )
            away = {p["user_id"]: away_periods(json_dict(p["prefs_json"])) for p in prefs}
        clocks = []
        for r in rows:
            for c in seat_clocks(
                status=r["status"],
                to_act=json_list(r["to_act_json"]),
                seats=list(zip(r["seat_names"], r["seat_users"])),
                table=json_dict(r["table_json"]),
                guild=json_dict(r["guild"]),
                since=r["turn_started_at"],
                last_reminder_at=r["last_reminder_at"],
                away=away,
            ):
                clocks.append((r["id"], *c))
        if clocks:
            await conn.executemany(
                "INSERT INTO turn_clocks(game_id, seat, user_id, since, remind_at, expire_at)"
                " VALUES ($1,$2,$3,$4,$5,$6)",
                clocks,
            )

    async def _retime_all(self, conn, guild_id: int | None = None) -> None:
        if guild_id is None:
            ids = [r[0] for r in await conn.fetch("SELECT id FROM games WHERE status='active'")]
        else:
            ids = [
                r[0] for r in await conn.fetch("SELECT id FROM games WHERE status='active' AND guild_id=$1", guild_id)
            ]
        await self._retime(conn, ids)

    async def due_tables(self, now: float) -> list[GameRow]:
        rows = await self.pool.fetch(
            _GAME + " WHERE g.id IN (SELECT game_id FROM turn_clocks WHERE remind_at <= $1"
            " UNION SELECT game_id FROM turn_clocks WHERE expire_at <= $1) AND g.status='active' ORDER BY g.id",
            float(now),
        )
        return self._readable_rows(rows)

    # ---------------------------------------------------------- settings
    async def _get_json(self, sql: str, key: int) -> dict[str, Any]:
        raw = await self.pool.fetchval(sql, key)
        if raw is None:
            return {}
        try:
            value = json.loads(raw)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT settings_json FROM guild_settings WHERE guild_id=$1", guild_id)

    @staticmethod
    async def _update_json(conn, table: str, key: str, col: str, kid: int, change) -> dict[str, Any]:
        """Read-modify-write of one JSON row, the row locked (inside the caller's transaction)."""
        await conn.execute(f"INSERT INTO {table}({key}, {col}) VALUES ($1, '{{}}') ON CONFLICT ({key}) DO NOTHING", kid)
        raw = await conn.fetchval(f"SELECT {col} FROM {table} WHERE {key}=$1 FOR UPDATE", kid)
        new = change(json_dict(raw))
        await conn.execute(f"UPDATE {table} SET {col}=$2 WHERE {key}=$1", kid, dumps(new))
        return new

    async def update_guild_settings(self, guild_id: int, change) -> dict[str, Any]:
        async with self.pool.acquire() as conn, conn.transaction():
            new = await self._update_json(conn, "guild_settings", "guild_id", "settings_json", guild_id, change)
            await self._retime_all(conn, guild_id)  # the server's timers apply to its waiting seats now
            return new

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT prefs_json FROM user_prefs WHERE user_id=$1", user_id)

    async def update_user_prefs(self, user_id: int, change) -> dict[str, Any]:
        async with self.pool.acquire() as conn, conn.transaction():
            new = await self._update_json(conn, "user_prefs", "user_id", "prefs_json", user_id, change)
            ids = [  # a vacation moves the member's due times at every table
                r[0]
                for r in await conn.fetch(
                    "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
                    " WHERE s.user_id=$1 AND g.status='active'",
                    user_id,
                )
            ]
            await self._retime(conn, ids)
            return new

    # ------------------------------------------------------------ limits
    async def claim_rate(self, kind, guild_id, user_id, now, window, caps) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            # the count and the insert are one step for this server (or member) across processes
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"rate:{kind}:{guild_id or user_id}")
            await conn.execute("DELETE FROM rate_events WHERE kind=$1 AND at<=$2", kind, now - window)
            for scope, col, who, cap in (
                ("member", "user_id", user_id, caps.member),
                ("server", "guild_id", guild_id, caps.server),
            ):
                if cap is None or who is None:
                    continue
                n = await conn.fetchval(f"SELECT COUNT(*) FROM rate_events WHERE kind=$1 AND {col}=$2", kind, who)
                if n >= cap:
                    raise LimitReached(kind, scope, cap)
            await conn.execute(
                "INSERT INTO rate_events(kind, guild_id, user_id, at) VALUES ($1,$2,$3,$4)",
                kind,
                guild_id,
                user_id,
                now,
            )

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        await self.pool.execute(
            "DELETE FROM rate_events WHERE ctid IN"
            " (SELECT ctid FROM rate_events WHERE kind=$1 AND user_id=$2 AND at=$3 LIMIT 1)",
            kind,
            user_id,
            at,
        )

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        out = {}
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            for kind, (table, who, where) in (("lobbies", _LOBBIES), ("campaigns", _CAMPAIGNS)):
                mine = await conn.fetchval(
                    f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=$1 AND {who}=$2", guild_id, user_id
                )
                server = await conn.fetchval(f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=$1", guild_id)
                out[kind] = (int(mine), int(server))
        return out

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.pool.execute("UPDATE games SET lobby_message_id=$2 WHERE id=$1", game_id, message_id)

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        rows = await self.pool.fetch(
            _GAME.replace(" FROM games g", ", g.lobby_message_id FROM games g")
            + " WHERE g.status='lobby' AND g.updated_at<$1 ORDER BY g.updated_at, g.id",
            before,
        )
        out = []
        for r in rows:
            try:
                out.append((self._row(r), r["lobby_message_id"]))
            except CorruptRow:
                continue
        return out

    # ------------------------------------------------------------- stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        sql = "SELECT game, user_id, COUNT(*), SUM(won), MIN(record), MAX(record) FROM results WHERE guild_id=$1"
        args: list[Any] = [guild_id]
        if game is not None:
            args.append(game)
            sql += f" AND game=${len(args)}"
        if user_id is not None:
            args.append(user_id)
            sql += f" AND user_id=${len(args)}"
        sql += " GROUP BY game, user_id ORDER BY game, user_id"
        rows = await self.pool.fetch(sql, *args)
        return [StatRow(g, u, int(n), int(w or 0), lo, hi) for g, u, n, w, lo, hi in rows]

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        rows = await self.pool.fetch(
            "SELECT r.seat, r.user_id, r.place, r.won, r.score, r.record FROM results r JOIN games g ON g.id=r.game_id"
            " WHERE g.campaign_id=$1 ORDER BY r.game_id, r.place",
            campaign_id,
        )
        return [ResultRow(s, u, p, bool(w), sc, rec) for s, u, p, w, sc, rec in rows]

    # --------------------------------------------------------- campaigns
    @staticmethod
    def _campaign(r) -> Campaign:
        try:
            points = json.loads(r[4])
            progress = json.loads(r[5]) if r[5] else None
        except ValueError as exc:
            raise CorruptRow(-int(r[0]), f"campaign {r[0]}: {exc}") from None
        return Campaign(
            id=r[0],
            guild_id=r[1],
            game=r[2],
            name=r[3],
            points=points,
            progress=progress,
            created_by=r[6],
            status=r[7],
            version=r[8],
        )

    _CAMPAIGN = (
        "SELECT id, guild_id, game, name, points_json, progress_json, created_by, status, version FROM campaigns"
    )

    async def create_campaign(self, *, guild_id, game, name, points, created_by, progress=None, caps=None) -> Campaign:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                if caps is not None:
                    await _check_caps(conn, "campaigns", _CAMPAIGNS, guild_id, created_by, caps)
                cid = await conn.fetchval(
                    "INSERT INTO campaigns(guild_id, game, name, points_json, progress_json, created_by, created_at)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id",
                    guild_id,
                    game,
                    name,
                    dumps(points),
                    dumps(progress) if progress is not None else None,
                    created_by,
                    self.clock(),
                )
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(f"campaign {name}") from None
        campaign = await self.campaign_by_id(cid)
        assert campaign is not None
        return campaign

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        r = await self.pool.fetchrow(self._CAMPAIGN + " WHERE guild_id=$1 AND name=$2", guild_id, name)
        return self._campaign(r) if r else None

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        r = await self.pool.fetchrow(self._CAMPAIGN + " WHERE id=$1", campaign_id)
        return self._campaign(r) if r else None

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        rows = await self.pool.fetch(self._CAMPAIGN + " WHERE guild_id=$1 ORDER BY id", guild_id)
        return [self._campaign(r) for r in rows]

    # ----------------------------------------------------------- leagues
    _LEAGUE = (
        "SELECT id, guild_id, channel_id, game, name, format, status, config_json, state_json, created_by,"
        " created_at, updated_at, version FROM leagues"
    )

    @staticmethod
    def _league(r) -> LeagueRow:
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

    async def create_league(self, *, guild_id, channel_id, game, name, format, config, state, created_by) -> LeagueRow:
        now = self.clock()
        try:
            lid = await self.pool.fetchval(
                "INSERT INTO leagues(guild_id, channel_id, game, name, format, config_json, state_json, created_by,"
                " created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id",
                guild_id,
                channel_id,
                game,
                name,
                format,
                dumps(config),
                dumps(state),
                created_by,
                now,
                now,
            )
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(f"league {name}") from None
        row = await self.league(lid)
        assert row is not None
        return row

    async def league(self, league_id: int) -> LeagueRow | None:
        r = await self.pool.fetchrow(self._LEAGUE + " WHERE id=$1", league_id)
        return self._league(r) if r else None

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        r = await self.pool.fetchrow(self._LEAGUE + " WHERE guild_id=$1 AND name=$2", guild_id, name)
        return self._league(r) if r else None

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            args.append(guild_id)
            where.append(f"guild_id=${len(args)}")
        if statuses is not None:
            args.append(list(statuses))
            where.append(f"status = ANY(${len(args)}::text[])")
        sql = self._LEAGUE + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [self._league(r) for r in await self.pool.fetch(sql, *args)]

    async def update_league(self, league_id, expected_version, *, status=None, state=None, config=None) -> int:
        version = await self.pool.fetchval(
            "UPDATE leagues SET status=COALESCE($1, status), state_json=COALESCE($2, state_json),"
            " config_json=COALESCE($3, config_json), updated_at=$4, version=version+1 WHERE id=$5 AND version=$6"
            " RETURNING version",
            status,
            dumps(state) if state is not None else None,
            dumps(config) if config is not None else None,
            self.clock(),
            league_id,
            expected_version,
        )
        if version is None:
            raise VersionConflict(f"league {league_id}")
        return int(version)

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        got = await self.pool.fetchval(
            "INSERT INTO league_steps(league_id, round, step, claimed_at) VALUES ($1,$2,$3,$4)"
            " ON CONFLICT(league_id, round, step) DO UPDATE SET claimed_at=excluded.claimed_at"
            " WHERE league_steps.done_at IS NULL AND league_steps.claimed_at <= $5 RETURNING 1",
            league_id,
            round,
            step,
            now,
            now - lease,
        )
        return got is not None

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None:
        await self.pool.execute(
            "UPDATE league_steps SET done_at=$1 WHERE league_id=$2 AND round=$3 AND step=$4",
            now,
            league_id,
            round,
            step,
        )

    async def league_step_done(self, league_id: int, round: int, step: str) -> bool:
        r = await self.pool.fetchval(
            "SELECT done_at FROM league_steps WHERE league_id=$1 AND round=$2 AND step=$3", league_id, round, step
        )
        return r is not None

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        out: dict[int, list[ResultRow]] = {}
        rows = await self.pool.fetch(
            "SELECT game_id, seat, user_id, place, won, score, record FROM results"
            " WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, place",
            [int(g) for g in game_ids],
        )
        for g, s, u, p, w, sc, rec in rows:
            out.setdefault(g, []).append(ResultRow(s, u, p, bool(w), sc, rec))
        return out

    # ------------------------------------------------------------- votes
    _VOTE = (
        "SELECT id, game_id, kind, payload_json, base_version, voters_json, yes_json, status, created_by, no_json,"
        " version, created_at FROM votes"
    )

    async def get_vote(self, vote_id: int) -> Vote | None:
        r = await self.pool.fetchrow(self._VOTE + " WHERE id=$1", vote_id)
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
            version=r[10],
            created_at=r[11],
        )

    async def quarantine(self, game_id: int, reason: str) -> None:
        now = self.clock()
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO quarantine(game_id, reason, payload, created_at)"
                " SELECT id, $2, COALESCE(state_json, '') || chr(10) || COALESCE(options_json, ''), $3"
                " FROM games WHERE id=$1 AND status != 'quarantined'",
                game_id,
                reason,
                now,
            )
            await conn.execute(
                "UPDATE games SET status='quarantined', to_act_json='[]', version=version+1, updated_at=$2"
                " WHERE id=$1 AND status != 'quarantined'",
                game_id,
                now,
            )
            await conn.execute("DELETE FROM turn_clocks WHERE game_id=$1", game_id)

    async def quarantined(self) -> list[tuple[int, str]]:
        rows = await self.pool.fetch("SELECT game_id, reason FROM quarantine ORDER BY id")
        return [(int(g), str(r)) for g, r in rows]

    async def games_of_user(self, user_id, guild_id=None, statuses=ACTIVE_STATUSES) -> list[GameRow]:
        sql = (
            _GAME + " WHERE g.status = ANY($2::text[]) AND EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id=g.id AND s.user_id=$1)"
        )
        args: list[Any] = [user_id, list(statuses)]
        if guild_id is not None:
            sql += " AND g.guild_id=$3"
            args.append(guild_id)
        rows = await self.pool.fetch(sql + " ORDER BY g.id", *args)
        return self._readable_rows(rows)

    async def count_games(self) -> int:
        return int(await self.pool.fetchval("SELECT COUNT(*) FROM games"))

    async def open_votes(self, game_id: int) -> list[Vote]:
        rows = await self.pool.fetch("SELECT id FROM votes WHERE game_id=$1 AND status='open' ORDER BY id", game_id)
        out = []
        for r in rows:
            vote = await self.get_vote(r[0])
            if vote is not None:
                out.append(vote)
        return out

    # ----------------------------------------------------------- ratings
    async def ratings(self, guild_id, game=None, user_ids=None) -> list[RatingRow]:
        sql = "SELECT guild_id, game, user_id, mu, sigma, played, version FROM ratings WHERE guild_id=$1"
        args: list[Any] = [guild_id]
        if game is not None:
            args.append(game)
            sql += f" AND game=${len(args)}"
        if user_ids is not None:
            if not user_ids:
                return []
            args.append(list(user_ids))
            sql += f" AND user_id = ANY(${len(args)}::bigint[])"
        rows = await self.pool.fetch(sql + " ORDER BY game, user_id", *args)
        return [RatingRow(*tuple(r)) for r in rows]

    # --------------------------------------------------------- followers
    _FOLLOW = "SELECT game_id, user_id, mode, sent_version, sent_at FROM follows"

    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        await self.pool.execute(
            "INSERT INTO follows(game_id, user_id, mode, sent_version, sent_at) VALUES ($1,$2,$3,$4,$5)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET mode=excluded.mode",
            game_id,
            user_id,
            mode,
            sent_version,
            float(self.clock()),
        )

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        found = await self.pool.fetchval(
            "DELETE FROM follows WHERE game_id=$1 AND user_id=$2 RETURNING user_id", game_id, user_id
        )
        return found is not None

    async def follows_of_user(self, user_id: int) -> list[FollowRow]:
        rows = await self.pool.fetch(self._FOLLOW + " WHERE user_id=$1 ORDER BY game_id", user_id)
        return [FollowRow(*tuple(r)) for r in rows]

    async def followers_of(self, game_id: int) -> list[FollowRow]:
        rows = await self.pool.fetch(self._FOLLOW + " WHERE game_id=$1 ORDER BY user_id", game_id)
        return [FollowRow(*tuple(r)) for r in rows]

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        rows = await self.pool.fetch(
            "SELECT f.game_id, f.user_id, f.mode, f.sent_version, f.sent_at FROM follows f JOIN games g"
            " ON g.id=f.game_id WHERE g.version > f.sent_version AND g.status IN ('active','finished','abandoned')"
            " AND (f.mode='turn' OR f.sent_at <= $1) ORDER BY f.game_id, f.user_id",
            float(now - digest_seconds),
        )
        return [FollowRow(*tuple(r)) for r in rows]

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        found = await self.pool.fetchval(
            "UPDATE follows SET sent_version=$1, sent_at=$2 WHERE game_id=$3 AND user_id=$4 AND sent_version=$5"
            " RETURNING user_id",
            version,
            float(now),
            game_id,
            user_id,
            previous,
        )
        return found is not None

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            if closed:
                await conn.execute("INSERT INTO follow_closed(game_id) VALUES ($1) ON CONFLICT DO NOTHING", game_id)
                await conn.execute("DELETE FROM follows WHERE game_id=$1", game_id)
            else:
                await conn.execute("DELETE FROM follow_closed WHERE game_id=$1", game_id)

    async def followers_closed(self, game_id: int) -> bool:
        return bool(await self.pool.fetchval("SELECT 1 FROM follow_closed WHERE game_id=$1", game_id))

    # ----------------------------------------------------------- privacy
    async def _personal(self, write, fn):
        async with self.pool.acquire() as conn:
            if write:
                async with conn.transaction():
                    return await fn(_Sql(conn))
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await fn(_Sql(conn))

    # -------------------------------------------------------------- meta
    async def get_meta(self, key: str) -> str | None:
        return await self.pool.fetchval("SELECT value FROM meta WHERE key=$1", key)

    async def set_meta(self, key: str, value: str) -> None:
        await self.pool.execute(
            "INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            key,
            value,
        )

    async def meta_default(self, key: str, value: str) -> str:
        await self.pool.execute("INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, value)
        return str(await self.pool.fetchval("SELECT value FROM meta WHERE key=$1", key))

    # ---------------------------------------------------------- the web companion
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None:
        await self.pool.execute(
            "INSERT INTO web_tokens(token_hash, kind, user_id, game_id, expires_at, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            token_hash,
            kind,
            user_id,
            game_id,
            float(expires_at),
            float(self.clock()),
        )

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        r = await self.pool.fetchrow(
            "DELETE FROM web_tokens WHERE token_hash=$1 AND kind=$2 RETURNING user_id, game_id, expires_at",
            token_hash,
            kind,
        )
        return (int(r[0]), r[1]) if r is not None and r[2] > now else None

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        r = await self.pool.fetchrow(
            "SELECT user_id, game_id FROM web_tokens WHERE token_hash=$1 AND kind=$2 AND expires_at>$3",
            token_hash,
            kind,
            float(now),
        )
        return (int(r[0]), r[1]) if r is not None else None

    async def web_tokens_end(self, user_id: int) -> int:
        status = await self.pool.execute("DELETE FROM web_tokens WHERE user_id=$1", user_id)
        return int(status.split()[-1])

    async def web_tokens_purge(self, now: float) -> int:
        status = await self.pool.execute("DELETE FROM web_tokens WHERE expires_at<=$1", float(now))
        return int(status.split()[-1])

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        ids = [int(i) for i in game_ids][:10_000]
        if not ids:
            return {}
        rows = await self.pool.fetch("SELECT id, version FROM games WHERE id = ANY($1::bigint[])", ids)
        return {int(r[0]): int(r[1]) for r in rows}

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """LISTEN on a connection of its own (the trigger of migration 8 notifies every change)."""
        conn = await asyncpg.connect(self.dsn)

        def heard(_conn, _pid, _channel, payload: str) -> None:
            try:
                gid, version = payload.split(":")
                callback(int(gid), int(version))
            except ValueError:
                return

        await conn.add_listener("tg_tables", heard)

        async def stop() -> None:
            try:
                await conn.remove_listener("tg_tables", heard)
            finally:
                await conn.close()

        return stop


def _float(value: float | int | None) -> float | None:
    return None if value is None else float(value)

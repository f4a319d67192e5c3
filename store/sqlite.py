"""SQLite backend (aiosqlite, WAL, foreign keys, versioned migrations).

One write connection (every :meth:`SqliteStore.commit` is one ``BEGIN
IMMEDIATE`` transaction) and one read connection: under WAL a reader sees only
committed transactions, and each read runs inside its own read transaction, so
a row, its seats and its version always come from one snapshot.  An in-memory
database has a single connection; its reads then wait for the writer.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

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
    StoreInUse,
    StoreUnavailable,
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
    seat_clocks,
)
from .migrations import CLOCKS_VERSION, migrate_sqlite

log = logging.getLogger("tabletop.store")

#: the effective log of table ``?`` (taken-back actions left out), as ``a``
_EFFECTIVE = "FROM actions a WHERE a.game_id=? AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"


def _action_rows(game_id: int, rows: Sequence[Any]) -> list[ActionRow]:
    out = []
    for i, seat, uid, aj, ej, ver, at in rows:
        try:
            action, events = json.loads(aj), json.loads(ej or "[]")
        except ValueError as exc:
            raise CorruptRow(game_id, f"unreadable action {i}: {exc}") from None
        out.append(ActionRow(id=i, seat=seat, user_id=uid, action=action, events=events, version=ver, created_at=at))
    return out


class SqliteStore(Store):
    def __init__(self, path: str | Path = "tabletop.db", clock=time.time) -> None:
        super().__init__()
        self.path = str(path)
        self.clock = clock
        self._db: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._claim: _Claim | None = None

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        """Connect and migrate.  A file that cannot be opened or written (a missing
        directory, no permission, a read-only file system, not a database) raises
        :class:`StoreError` with one line saying why; :class:`StoreInUse` when another
        bot process holds it."""
        if self._db is not None:
            return
        try:
            await self._open()
        except StoreError:
            raise
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the SQLite database {self.path}: {_why(exc)}") from None

    async def _open(self) -> None:
        if self.path != ":memory:":
            parent = Path(self.path).parent
            if parent.exists() and not parent.is_dir():  # (mkdir would say "file exists")
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            parent.mkdir(parents=True, exist_ok=True)
            self._claim = _claim_file(self.path)
            links = os.fstat(self._claim.fd).st_nlink
            if links > 1:
                log.warning(
                    "the database file %s has %d hard links: only one name of it may be used (SQLite keeps its WAL "
                    "beside the name)",
                    self.path,
                    links,
                )
        try:
            self._db = await aiosqlite.connect(self.path, isolation_level=None)
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            async with self._write:
                before, after = await migrate_sqlite(self._db, self.clock())
            if before < CLOCKS_VERSION <= after:  # due times for the tables an older schema left running
                await self._tx(self._retime_all)
            if self.path != ":memory:":
                self._reader = await aiosqlite.connect(self.path, isolation_level=None)
                await self._reader.execute("PRAGMA busy_timeout=5000")
                await self._reader.execute("PRAGMA query_only=ON")
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close the reader, checkpoint the WAL into the database file and close
        the writer (the last connection: SQLite then removes the -wal file)."""
        try:
            if self._reader is not None:
                async with self._read_lock:
                    await self._reader.close()
                    self._reader = None
            if self._db is not None:
                async with self._write:
                    try:
                        await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    finally:
                        await self._db.close()
                        self._db = None
        finally:  # after the connections (see _claim_file), also when closing one failed
            if self._claim is not None and self._db is None and self._reader is None:
                claim, self._claim = self._claim, None
                _release_file(claim)

    async def check(self) -> None:
        """Refuse (:class:`StoreUnavailable`) once the database file was deleted or
        replaced under this store: what it writes then would be lost."""
        if self._claim is not None and (why := self._claim.problem()):
            async with self._write:
                await self._lost(why)

    async def _lost(self, why: str) -> None:
        """Inside the write lock, no transaction open: raise :class:`StoreUnavailable`.
        The first time in this process one error line is logged, after the WAL was moved
        into the lost file (SQLite writes through its own descriptor: into the file it
        opened, not the one now at the path) so that its data can still be copied out."""
        claim = self._claim
        assert claim is not None
        if claim.lost is None:
            claim.lost = why
            try:
                await self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except Exception:  # noqa: BLE001 -- the refusal matters, not this copy
                pass
            log.error(
                "the database file %s %s while the bot ran: no more changes are taken until the bot is restarted "
                "with its database in place (until this process stops, its data can be copied from /proc/%d/fd/%d)",
                self.path,
                why,
                os.getpid(),
                claim.fd,
            )
        raise StoreUnavailable(f"the database file {self.path} {claim.lost}")

    @property
    def db(self) -> aiosqlite.Connection:
        """The write connection (tests use it to damage rows on purpose)."""
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read transaction: every query inside sees the same committed snapshot."""
        if self._reader is None:
            if self._db is None:
                raise RuntimeError("store is not open")
            async with self._write:  # :memory: has one connection: wait for the writer
                yield self._db
            return
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield self._reader
            finally:
                await self._reader.execute("COMMIT")

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self._read() as db:
            async with db.execute(sql, args) as cur:
                return await cur.fetchone()

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        async with self._read() as db:
            async with db.execute(sql, args) as cur:
                return list(await cur.fetchall())

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def sql(self, query: str, *args: Any) -> list[tuple]:
        """Raw SQL for tests and tools (``?`` placeholders); autocommit."""
        async with self.db.execute(query, args) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def _tx(self, fn):
        """Run ``fn`` inside one write transaction (serialised in-process).  A COMMIT
        that fails (or whose success is not seen: the ``"committed"`` crash step)
        raises :class:`CommitUnknown`."""
        async with self._write:
            claim = self._claim
            if claim is not None and (why := claim.problem()):
                await self._lost(why)
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await fn(self.db)
                await self._step("commit")
                # the file deleted or replaced meanwhile: nothing goes into a lost file
                why = claim.problem() if claim is not None else None
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            if why:
                await self.db.execute("ROLLBACK")
                await self._lost(why)
            try:
                await self.db.execute("COMMIT")
                await self._step("committed")
            except Exception as exc:
                if self.db.in_transaction:
                    try:
                        await self.db.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 -- the connection itself may be gone
                        pass
                raise CommitUnknown(f"COMMIT did not answer: {exc}") from exc
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
        caps=None,
    ) -> GameRow:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> int:
            async with db.execute(
                "SELECT id FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,)
            ) as cur:
                if await cur.fetchone():
                    raise ChannelBusy(str(channel_id))
            if caps is not None:  # BEGIN IMMEDIATE: no other writer between the count and the insert
                await _check_caps(db, "lobbies", _LOBBIES, guild_id, host_id, caps)
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
            gid = int(cur.lastrowid or 0)
            await self._step("seats")
            await self._write_seats(db, gid, seats)
            return gid

        try:
            gid = await self._tx(tx)
        except aiosqlite.IntegrityError:  # the unique index: another process opened one first
            raise ChannelBusy(str(channel_id)) from None
        except CommitUnknown:
            LANDED.set(("unknown", None, None))
            raise
        LANDED.set(("committed", gid, None))
        row = await self.get_game(gid)
        assert row is not None
        return row

    async def _write_seats(self, db, game_id: int, seats: Sequence[Seat]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
        await db.executemany(
            "INSERT INTO seats(game_id, position, seat, user_id, ai_level) VALUES (?,?,?,?,?)",
            [(game_id, i, s.seat, s.user_id, s.ai_level) for i, s in enumerate(seats)],
        )

    async def _row(self, db: aiosqlite.Connection, r: Any) -> GameRow:
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
        async with db.execute(
            "SELECT seat, user_id, ai_level FROM seats WHERE game_id=? ORDER BY position", (gid,)
        ) as cur:
            seats = [Seat(seat=s, user_id=u, ai_level=lv) for s, u, lv in await cur.fetchall()]
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
        async with self._read() as db:
            async with db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?", (game_id,)) as cur:
                r = await cur.fetchone()
            return await self._row(db, r) if r else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        return await self.latest_game(channel_id, ACTIVE_STATUSES)

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        marks = ",".join("?" for _ in statuses)
        async with self._read() as db:
            async with db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id=? AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
                (channel_id, *statuses),
            ) as cur:
                r = await cur.fetchone()
            return await self._row(db, r) if r else None

    async def _game_rows(self, sql: str, args: Sequence[Any] = ()) -> list[GameRow]:
        """Rows for listings, from one snapshot; an unreadable one is skipped
        here (and quarantined when it is opened)."""
        async with self._read() as db:
            async with db.execute(sql, args) as cur:
                rows = await cur.fetchall()
            out = []
            for r in rows:
                try:
                    out.append(await self._row(db, r))
                except CorruptRow:
                    continue
            return out

    # ------------------------------------------------------------ commit
    async def commit(self, changes: ChangeSet) -> Committed:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> Committed:
            done = Committed()
            if changes.game is not None:
                done.version = await self._apply_game(db, changes.game, now)
                g = changes.game
                if g.to_act is not None or g.seats is not None or g.status is not None or g.table is not None:
                    await self._retime(db, [g.game_id])
            for c in changes.campaigns:
                await self._step("campaigns")
                cur = await db.execute(
                    "UPDATE campaigns SET progress_json=?, version=version+1 WHERE id=? AND version=?",
                    (dumps(c.progress), c.campaign_id, c.expected_version),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(f"campaign {c.campaign_id}")
            for v in changes.votes:
                await self._step("votes")
                sets, args = ["version=version+1"], []
                if v.yes is not None:
                    sets.append("yes_json=?")
                    args.append(dumps(sorted(set(v.yes))))
                if v.no is not None:
                    sets.append("no_json=?")
                    args.append(dumps(sorted(set(v.no))))
                if v.status is not None:
                    sets.append("status=?")
                    args.append(v.status)
                cur = await db.execute(
                    f"UPDATE votes SET {', '.join(sets)} WHERE id=? AND version=?",
                    (*args, v.vote_id, v.expected_version),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(f"vote {v.vote_id}")
            for rc in changes.ratings:
                await self._step("ratings")
                if rc.expected_version == 0:
                    cur = await db.execute(
                        "INSERT INTO ratings(guild_id, game, user_id, mu, sigma, played, version, updated_at)"
                        " VALUES (?,?,?,?,?,?,1,?) ON CONFLICT DO NOTHING",
                        (rc.guild_id, rc.game, rc.user_id, rc.mu, rc.sigma, rc.played, now),
                    )
                else:
                    cur = await db.execute(
                        "UPDATE ratings SET mu=?, sigma=?, played=?, version=version+1, updated_at=?"
                        " WHERE guild_id=? AND game=? AND user_id=? AND version=?",
                        (rc.mu, rc.sigma, rc.played, now, rc.guild_id, rc.game, rc.user_id, rc.expected_version),
                    )
                if cur.rowcount != 1:
                    raise VersionConflict(f"rating {rc.guild_id}/{rc.game}/{rc.user_id}")
            for nv in changes.new_votes:
                await self._step("votes")
                try:
                    cur = await db.execute(
                        "INSERT INTO votes(game_id, kind, payload_json, base_version, voters_json, created_by,"
                        " created_at, decision) VALUES (?,?,?,?,?,?,?,?)",
                        (
                            nv.game_id,
                            nv.kind,
                            dumps(nv.payload),
                            nv.base_version,
                            dumps(nv.voters),
                            nv.created_by,
                            now,
                            nv.decision,
                        ),
                    )
                except aiosqlite.IntegrityError:  # votes_one_per_decision: opened first elsewhere
                    raise VoteTaken(f"table {nv.game_id}: {nv.decision}") from None
                done.vote_ids.append(int(cur.lastrowid or 0))
            if changes.owed is not None and changes.game is not None and done.version is not None:
                await self._step("outbox")
                await self._put_owed(db, changes.game.game_id, done.version, changes.owed, now)
            return done

        gid = changes.game.game_id if changes.game is not None else None
        try:
            done = await self._tx(tx)
        except CommitUnknown:
            LANDED.set(("unknown", gid, None))
            raise
        LANDED.set(("committed", gid, done.version))
        return done

    # ------------------------------------------------------------ outbox
    async def _put_owed(self, db: aiosqlite.Connection, game_id: int, version: int, owed: Owed, now: float) -> None:
        async with db.execute("SELECT since, notes_json FROM outbox WHERE game_id=?", (game_id,)) as cur:
            found = await cur.fetchone()
        since, notes = merge_owed(tuple(found) if found else None, version, owed)
        until = now + owed.lease if owed.owner else None
        await db.execute(
            "INSERT OR REPLACE INTO outbox(game_id, version, since, kind, notes_json, attempts, due_at, lease_until,"
            " lease_owner, created_at) VALUES (?,?,?,?,?,0,?,?,?,?)",
            (game_id, version, since, owed.kind, notes, until or now, until, owed.owner, now),
        )

    async def outbox(self, game_id: int) -> OutboxRow | None:
        r = await self._one(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id=?", (game_id,))
        return outbox_row(r) if r else None

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        rows = await self._all(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE due_at<=? AND (lease_until IS NULL OR lease_until<=?)"
            " ORDER BY due_at, game_id LIMIT ?",
            (now, now, limit),
        )
        return [outbox_row(r) for r in rows]

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        async def tx(db):
            cur = await db.execute(
                "UPDATE outbox SET lease_owner=?, lease_until=?, attempts=attempts+1 WHERE game_id=? AND version=?"
                " AND attempts=? AND (lease_until IS NULL OR lease_until<=?)",
                (owner, until, row.game_id, row.version, row.attempts, now),
            )
            return cur.rowcount == 1

        return await self._tx(tx)

    async def outbox_done(self, game_id: int, version: int) -> bool:
        async def tx(db):
            cur = await db.execute("DELETE FROM outbox WHERE game_id=? AND version=?", (game_id, version))
            return cur.rowcount == 1

        return await self._tx(tx)

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        async def tx(db):
            cur = await db.execute(
                "UPDATE outbox SET lease_owner=NULL, lease_until=NULL, due_at=? WHERE game_id=? AND version=?"
                " AND (? IS NULL OR lease_owner=? OR lease_owner IS NULL)",
                (due_at, game_id, version, owner, owner),
            )
            return cur.rowcount == 1

        return await self._tx(tx)

    async def _apply_game(self, db: aiosqlite.Connection, c: GameChange, now: float) -> int:
        sets = ["version=version+1", "updated_at=?"]
        args: list[Any] = [now]
        if c.status is not None:
            sets.append("status=?")
            args.append(c.status)
            if c.status == "active":
                sets.append("turn_started_at=COALESCE(turn_started_at, ?)")
                args.append(now)
            if c.status in ("finished", "abandoned"):
                sets.append("finished_at=?")
                args.append(now)
        if c.state_json is not None:
            sets.append("state_json=?")
            args.append(c.state_json)
        if c.to_act is not None:
            # a new decision is pending: its clock (timer, reminders) starts now
            sets += ["to_act_json=?", "turn_started_at=?", "last_reminder_at=NULL"]
            args += [dumps(list(c.to_act)), now]
        if c.table is not None:
            sets.append("table_json=?")
            args.append(dumps(c.table))
        if c.options is not None:
            sets.append("options_json=?")
            args.append(dumps(c.options))
        if c.outcome is not None:
            sets.append("outcome_json=?")
            args.append(dumps(c.outcome))
        cur = await db.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE id=? AND version=?", (*args, c.game_id, c.expected_version)
        )
        if cur.rowcount != 1:
            raise VersionConflict(str(c.game_id))
        new_version = c.expected_version + 1
        if c.seats is not None:
            await self._step("seats")
            await self._write_seats(db, c.game_id, c.seats)
        if c.revert:
            await self._step("revert")
            await db.executemany(
                "INSERT INTO reverts(action_id, game_id, by_user, created_at) VALUES (?,?,?,?)",
                [(aid, c.game_id, c.by_user, now) for aid in c.revert],
            )
            # cached states of the taken-back part of the log are no longer true
            await db.execute("DELETE FROM snapshots WHERE game_id=? AND action_id>=?", (c.game_id, min(c.revert)))
        if c.actions:
            await self._step("actions")
            await db.executemany(
                "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at)"
                " VALUES (?,?,?,?,?,?,?)",
                [(c.game_id, a.seat, a.user_id, dumps(a.action), dumps(a.events), new_version, now) for a in c.actions],
            )
            if c.snapshot is not None:
                await self._step("snapshot")
                async with db.execute("SELECT MAX(id) FROM actions WHERE game_id=?", (c.game_id,)) as cur:
                    last = await cur.fetchone()
                assert last is not None
                await self._put_snapshot(db, c.game_id, int(last[0]), c.snapshot, now)
        if c.results:
            await self._step("results")
            async with db.execute("SELECT guild_id, game FROM games WHERE id=?", (c.game_id,)) as cur:
                found = await cur.fetchone()
            assert found is not None
            guild_id, kind = found
            await db.executemany(
                "INSERT OR REPLACE INTO results(game_id, guild_id, game, seat, user_id, place, won, score, record,"
                " finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
                    (c.game_id, guild_id, kind, r.seat, r.user_id, r.place, int(r.won), r.score, r.record, now)
                    for r in c.results
                ],
            )
        return new_version

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        async def tx(db):
            if expected_version is None:
                cur = await db.execute("UPDATE games SET last_reminder_at=? WHERE id=?", (at, game_id))
            else:
                cur = await db.execute(
                    "UPDATE games SET last_reminder_at=? WHERE id=? AND version=? AND last_reminder_at IS ?",
                    (at, game_id, expected_version, previous),
                )
            if cur.rowcount == 1:
                await self._retime(db, [game_id])  # the next reminder is due one interval later
            return cur.rowcount == 1

        return await self._tx(tx)

    # ------------------------------------------------------- due times
    async def _retime(self, db: aiosqlite.Connection, game_ids: Sequence[int]) -> None:
        """Recompute the due times of these tables' waiting seats (inside the caller's transaction)."""
        for gid in game_ids:
            async with db.execute(
                "SELECT g.status, g.to_act_json, g.table_json, g.turn_started_at, g.last_reminder_at,"
                " (SELECT settings_json FROM guild_settings s WHERE s.guild_id=g.guild_id) FROM games g WHERE g.id=?",
                (gid,),
            ) as cur:
                r = await cur.fetchone()
            await db.execute("DELETE FROM turn_clocks WHERE game_id=?", (gid,))
            if r is None or r[0] != "active":
                continue
            async with db.execute("SELECT seat, user_id FROM seats WHERE game_id=?", (gid,)) as cur:
                seats = [(a, b) for a, b in await cur.fetchall()]
            uids = [u for _, u in seats if u is not None]
            away: dict[int, list[tuple[float, float]]] = {}
            if uids:
                marks = ",".join("?" for _ in uids)
                async with db.execute(
                    f"SELECT user_id, prefs_json FROM user_prefs WHERE user_id IN ({marks})", uids
                ) as cur:
                    away = {u: away_periods(json_dict(p)) for u, p in await cur.fetchall()}
            rows = seat_clocks(
                status=r[0],
                to_act=json_list(r[1]),
                seats=seats,
                table=json_dict(r[2]),
                guild=json_dict(r[5]),
                since=r[3],
                last_reminder_at=r[4],
                away=away,
            )
            await db.executemany(
                "INSERT INTO turn_clocks(game_id, seat, user_id, since, remind_at, expire_at) VALUES (?,?,?,?,?,?)",
                [(gid, *c) for c in rows],
            )

    async def _retime_all(self, db: aiosqlite.Connection, guild_id: int | None = None) -> None:
        sql, args = "SELECT id FROM games WHERE status='active'", []
        if guild_id is not None:
            sql, args = sql + " AND guild_id=?", [guild_id]
        async with db.execute(sql, args) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        await self._retime(db, ids)

    async def due_tables(self, now: float) -> list[GameRow]:
        return await self._game_rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN (SELECT game_id FROM turn_clocks WHERE remind_at <= ?"
            " UNION SELECT game_id FROM turn_clocks WHERE expire_at <= ?) AND status='active' ORDER BY id",
            (now, now),
        )

    async def quarantine(self, game_id: int, reason: str) -> None:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO quarantine(game_id, reason, payload, created_at)"
                " SELECT id, ?, COALESCE(state_json, '') || char(10) || COALESCE(options_json, ''), ? FROM games"
                " WHERE id=? AND status != 'quarantined'",
                (reason, now, game_id),
            )
            await db.execute(
                "UPDATE games SET status='quarantined', to_act_json='[]', version=version+1, updated_at=?"
                " WHERE id=? AND status != 'quarantined'",
                (now, game_id),
            )
            await db.execute("DELETE FROM turn_clocks WHERE game_id=?", (game_id,))

        await self._tx(tx)

    async def quarantined(self) -> list[tuple[int, str]]:
        return [(int(g), str(r)) for g, r in await self._all("SELECT game_id, reason FROM quarantine ORDER BY id")]

    # ------------------------------------------------------------ reads
    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        rows = await self._all(
            "SELECT id, seat, user_id, action_json, events_json, version, created_at FROM actions a"
            " WHERE game_id=? AND NOT EXISTS (SELECT 1 FROM reverts r WHERE r.action_id=a.id)"
            " ORDER BY id LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        )
        return _action_rows(game_id, rows)

    # --------------------------------------------------------- snapshots
    async def _put_snapshot(
        self, db: aiosqlite.Connection, game_id: int, action_id: int, snap: NewSnapshot, now: float
    ):
        """One cached state after ``action_id`` (an effective action of this table),
        its position counted from the log (inside the caller's transaction).  Snapshots
        of the table under other keys (older builds) are dropped: nothing reads them again."""
        await db.execute("DELETE FROM snapshots WHERE game_id=? AND key<>?", (game_id, snap.key))
        await db.execute(
            "INSERT OR IGNORE INTO snapshots(game_id, action_id, key, position, state_json, created_at)"
            f" SELECT ?, ?, ?, (SELECT COUNT(*) {_EFFECTIVE} AND a.id<=?), ?, ?"
            " WHERE EXISTS (SELECT 1 FROM actions WHERE id=? AND game_id=?)"
            " AND NOT EXISTS (SELECT 1 FROM reverts WHERE action_id=?)",
            (game_id, action_id, snap.key, game_id, action_id, snap.state_json, now, action_id, game_id, action_id),
        )

    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        snap_sql = "SELECT action_id, position, key, state_json FROM snapshots WHERE game_id=? AND key=?"
        cols = f"SELECT a.id, a.seat, a.user_id, a.action_json, a.events_json, a.version, a.created_at {_EFFECTIVE}"
        async with self._read() as db:

            async def one(sql: str, args: Sequence[Any]) -> Any:
                async with db.execute(sql, args) as cur:
                    return await cur.fetchone()

            total = int((await one(f"SELECT COUNT(*) {_EFFECTIVE}", (game_id,)))[0])
            found = await one("SELECT version FROM games WHERE id=?", (game_id,))
            version = int(found[0]) if found else None
            snap, limit, last = None, -1, None
            if user_id is not None:
                last = (await one(f"SELECT MAX(a.id) {_EFFECTIVE} AND a.user_id=?", (game_id, user_id)))[0]
                if last is None:
                    return ReplaySource(None, [], total, None, version)
                if key is not None:
                    snap = await one(
                        snap_sql + " AND action_id<? ORDER BY action_id DESC LIMIT 1", (game_id, key, last)
                    )
            elif turn is not None:
                if key is not None:
                    snap = await one(snap_sql + " AND position<=? ORDER BY position DESC LIMIT 1", (game_id, key, turn))
                limit = max(0, turn - (snap[1] if snap else 0))
            elif key is not None:
                snap = await one(snap_sql + " ORDER BY action_id DESC LIMIT 1", (game_id, key))
            async with db.execute(
                cols + " AND a.id>? ORDER BY a.id LIMIT ?", (game_id, snap[0] if snap else 0, limit)
            ) as cur:
                rows = list(await cur.fetchall())
        actions = _action_rows(game_id, rows)
        cut = next(i for i, a in enumerate(actions) if a.id == last) if last is not None else None
        return ReplaySource(SnapshotRow(*snap) if snap else None, actions, total, cut, version)

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        rows = await self._all(
            "SELECT action_id, position, key, state_json FROM snapshots WHERE game_id=? ORDER BY action_id, key",
            (game_id,),
        )
        return [SnapshotRow(*r) for r in rows]

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        now = self.clock()

        async def tx(db: aiosqlite.Connection) -> bool:
            async with db.execute("SELECT 1 FROM games WHERE id=? AND version=?", (game_id, expected_version)) as cur:
                if await cur.fetchone() is None:
                    return False
            for snap in snapshots:
                assert snap.action_id is not None
                await self._put_snapshot(db, game_id, snap.action_id, snap, now)
            return True

        return await self._tx(tx)

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        async def tx(db: aiosqlite.Connection) -> int:
            if game_id is None:
                cur = await db.execute("DELETE FROM snapshots")
            else:
                cur = await db.execute("DELETE FROM snapshots WHERE game_id=?", (game_id,))
            return int(cur.rowcount)

        return await self._tx(tx)

    async def count_actions(self, game_id: int) -> int:
        r = await self._one(
            "SELECT COUNT(*) FROM actions a WHERE game_id=? AND NOT EXISTS"
            " (SELECT 1 FROM reverts r WHERE r.action_id=a.id)",
            (game_id,),
        )
        return int(r[0])

    async def waiting_tables(self) -> list[GameRow]:
        return await self._game_rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status='active' AND to_act_json != '[]' ORDER BY id"
        )

    async def games_of_user(self, user_id, guild_id=None, statuses=ACTIVE_STATUSES) -> list[GameRow]:
        marks = ",".join("?" for _ in statuses)
        sql = (
            f"SELECT {qualified(GAME_COLUMNS, 'g')} FROM games g"
            f" JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ({marks})"
        )
        args: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id=?"
            args.append(guild_id)
        sql += " ORDER BY g.id"
        return await self._game_rows(sql, args)

    async def count_games(self) -> int:
        return int((await self._one("SELECT COUNT(*) FROM games"))[0])

    # ---------------------------------------------------------- settings
    async def _get_json(self, sql: str, key: int) -> dict[str, Any]:
        r = await self._one(sql, (key,))
        if not r:
            return {}
        try:
            value = json.loads(r[0])
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT settings_json FROM guild_settings WHERE guild_id=?", guild_id)

    async def _update_json(self, db, table: str, key: str, col: str, kid: int, change) -> dict[str, Any]:
        """Read-modify-write of one JSON row inside the caller's BEGIN IMMEDIATE transaction."""
        async with db.execute(f"SELECT {col} FROM {table} WHERE {key}=?", (kid,)) as cur:
            r = await cur.fetchone()
        new = change(json_dict(r[0]) if r else {})
        await db.execute(
            f"INSERT INTO {table}({key}, {col}) VALUES (?, ?) ON CONFLICT({key}) DO UPDATE SET {col}=excluded.{col}",
            (kid, dumps(new)),
        )
        return new

    async def update_guild_settings(self, guild_id: int, change) -> dict[str, Any]:
        async def tx(db):
            new = await self._update_json(db, "guild_settings", "guild_id", "settings_json", guild_id, change)
            await self._retime_all(db, guild_id)  # the server's timers apply to its waiting seats now
            return new

        return await self._tx(tx)

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        return await self._get_json("SELECT prefs_json FROM user_prefs WHERE user_id=?", user_id)

    async def update_user_prefs(self, user_id: int, change) -> dict[str, Any]:
        async def tx(db):
            new = await self._update_json(db, "user_prefs", "user_id", "prefs_json", user_id, change)
            async with db.execute(  # a vacation moves the member's due times at every table
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
                " WHERE s.user_id=? AND g.status='active'",
                (user_id,),
            ) as cur:
                ids = [r[0] for r in await cur.fetchall()]
            await self._retime(db, ids)
            return new

        return await self._tx(tx)

    # ------------------------------------------------------------ limits
    async def claim_rate(self, kind, guild_id, user_id, now, window, caps) -> None:
        async def tx(db):
            await db.execute("DELETE FROM rate_events WHERE kind=? AND at<=?", (kind, now - window))
            for scope, col, who, cap in (
                ("member", "user_id", user_id, caps.member),
                ("server", "guild_id", guild_id, caps.server),
            ):
                if cap is None or who is None:
                    continue
                async with db.execute(f"SELECT COUNT(*) FROM rate_events WHERE kind=? AND {col}=?", (kind, who)) as cur:
                    n = (await cur.fetchone())[0]
                if n >= cap:
                    raise LimitReached(kind, scope, cap)
            await db.execute(
                "INSERT INTO rate_events(kind, guild_id, user_id, at) VALUES (?,?,?,?)", (kind, guild_id, user_id, now)
            )

        await self._tx(tx)

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        async def tx(db):
            await db.execute(
                "DELETE FROM rate_events WHERE rowid IN"
                " (SELECT rowid FROM rate_events WHERE kind=? AND user_id=? AND at=? LIMIT 1)",
                (kind, user_id, at),
            )

        await self._tx(tx)

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        out = {}
        async with self._read() as db:
            for kind, (table, who, where) in (("lobbies", _LOBBIES), ("campaigns", _CAMPAIGNS)):
                counts = []
                for extra, args in ((f" AND {who}=?", (guild_id, user_id)), ("", (guild_id,))):
                    async with db.execute(
                        f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=?{extra}", args
                    ) as cur:
                        found = await cur.fetchone()
                    counts.append(int(found[0]) if found else 0)
                out[kind] = (counts[0], counts[1])
        return out

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        async def tx(db):
            await db.execute("UPDATE games SET lobby_message_id=? WHERE id=?", (message_id, game_id))

        await self._tx(tx)

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        async with self._read() as db:
            async with db.execute(
                f"SELECT {GAME_COLUMNS}, lobby_message_id FROM games WHERE status='lobby' AND updated_at<?"
                " ORDER BY updated_at, id",
                (before,),
            ) as cur:
                rows = list(await cur.fetchall())
            out = []
            for r in rows:
                try:
                    out.append((await self._row(db, r[:-1]), r[-1]))
                except CorruptRow:
                    continue
            return out

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
        rows = await self._all(sql, args)
        return [StatRow(g, u, int(n), int(w or 0), lo, hi) for g, u, n, w, lo, hi in rows]

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT r.seat, r.user_id, r.place, r.won, r.score, r.record FROM results r JOIN games g ON g.id=r.game_id"
            " WHERE g.campaign_id=? ORDER BY r.game_id, r.place",
            (campaign_id,),
        )
        return [ResultRow(s, u, p, bool(w), sc, rec) for s, u, p, w, sc, rec in rows]

    # --------------------------------------------------------- campaigns
    _CAMPAIGN = (
        "SELECT id, guild_id, game, name, points_json, progress_json, created_by, status, version FROM campaigns"
    )

    def _campaign(self, r: tuple) -> Campaign:
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

    async def create_campaign(self, *, guild_id, game, name, points, created_by, progress=None, caps=None) -> Campaign:
        now = self.clock()

        async def tx(db):
            if caps is not None:
                await _check_caps(db, "campaigns", _CAMPAIGNS, guild_id, created_by, caps)
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
        camp = await self.campaign_by_id(cid)
        assert camp is not None
        return camp

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        r = await self._one(self._CAMPAIGN + " WHERE guild_id=? AND name=?", (guild_id, name))
        return self._campaign(r) if r else None

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        r = await self._one(self._CAMPAIGN + " WHERE id=?", (campaign_id,))
        return self._campaign(r) if r else None

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        rows = await self._all(self._CAMPAIGN + " WHERE guild_id=? ORDER BY id", (guild_id,))
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

        async def tx(db):
            cur = await db.execute(
                "INSERT INTO leagues(guild_id, channel_id, game, name, format, config_json, state_json, created_by,"
                " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (guild_id, channel_id, game, name, format, dumps(config), dumps(state), created_by, now, now),
            )
            return cur.lastrowid

        try:
            lid = await self._tx(tx)
        except aiosqlite.IntegrityError:
            raise ChannelBusy(f"league {name}") from None
        row = await self.league(lid)
        assert row is not None
        return row

    async def league(self, league_id: int) -> LeagueRow | None:
        r = await self._one(self._LEAGUE + " WHERE id=?", (league_id,))
        return self._league(r) if r else None

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        r = await self._one(self._LEAGUE + " WHERE guild_id=? AND name=?", (guild_id, name))
        return self._league(r) if r else None

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id=?")
            args.append(guild_id)
        if statuses is not None:
            where.append(f"status IN ({','.join('?' * len(statuses))})" if statuses else "0")
            args.extend(statuses)
        sql = self._LEAGUE + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [self._league(r) for r in await self._all(sql, args)]

    async def update_league(self, league_id, expected_version, *, status=None, state=None, config=None) -> int:
        now = self.clock()

        async def tx(db):
            cur = await db.execute(
                "UPDATE leagues SET status=COALESCE(?, status), state_json=COALESCE(?, state_json),"
                " config_json=COALESCE(?, config_json), updated_at=?, version=version+1 WHERE id=? AND version=?",
                (
                    status,
                    dumps(state) if state is not None else None,
                    dumps(config) if config is not None else None,
                    now,
                    league_id,
                    expected_version,
                ),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"league {league_id}")
            return expected_version + 1

        return await self._tx(tx)

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        async def tx(db):
            cur = await db.execute(
                "INSERT INTO league_steps(league_id, round, step, claimed_at) VALUES (?,?,?,?)"
                " ON CONFLICT(league_id, round, step) DO UPDATE SET claimed_at=excluded.claimed_at"
                " WHERE league_steps.done_at IS NULL AND league_steps.claimed_at <= ?",
                (league_id, round, step, now, now - lease),
            )
            return cur.rowcount == 1

        return await self._tx(tx)

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None:
        async def tx(db):
            await db.execute(
                "UPDATE league_steps SET done_at=? WHERE league_id=? AND round=? AND step=?",
                (now, league_id, round, step),
            )

        await self._tx(tx)

    async def league_step_done(self, league_id: int, round: int, step: str) -> bool:
        r = await self._one(
            "SELECT done_at FROM league_steps WHERE league_id=? AND round=? AND step=?", (league_id, round, step)
        )
        return bool(r and r[0] is not None)

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        out: dict[int, list[ResultRow]] = {}
        ids = [int(g) for g in game_ids]
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = await self._all(
                "SELECT game_id, seat, user_id, place, won, score, record FROM results"
                f" WHERE game_id IN ({','.join('?' * len(chunk))}) ORDER BY game_id, place",
                chunk,
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
        r = await self._one(self._VOTE + " WHERE id=?", (vote_id,))
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

    async def open_votes(self, game_id: int) -> list[Vote]:
        rows = await self._all("SELECT id FROM votes WHERE game_id=? AND status='open' ORDER BY id", (game_id,))
        out = []
        for (vid,) in rows:
            vote = await self.get_vote(vid)
            if vote is not None:
                out.append(vote)
        return out

    # ----------------------------------------------------------- ratings
    async def ratings(self, guild_id, game=None, user_ids=None) -> list[RatingRow]:
        sql = "SELECT guild_id, game, user_id, mu, sigma, played, version FROM ratings WHERE guild_id=?"
        args: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game=?"
            args.append(game)
        if user_ids is not None:
            if not user_ids:
                return []
            sql += f" AND user_id IN ({','.join('?' for _ in user_ids)})"
            args += list(user_ids)
        rows = await self._all(sql + " ORDER BY game, user_id", args)
        return [RatingRow(*r) for r in rows]

    # --------------------------------------------------------- followers
    _FOLLOW = "SELECT game_id, user_id, mode, sent_version, sent_at FROM follows"

    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        now = self.clock()

        async def tx(db):
            await db.execute(
                "INSERT INTO follows(game_id, user_id, mode, sent_version, sent_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT(game_id, user_id) DO UPDATE SET mode=excluded.mode",
                (game_id, user_id, mode, sent_version, now),
            )

        await self._tx(tx)

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        async def tx(db):
            cur = await db.execute("DELETE FROM follows WHERE game_id=? AND user_id=?", (game_id, user_id))
            return cur.rowcount == 1

        return await self._tx(tx)

    async def follows_of_user(self, user_id: int) -> list[FollowRow]:
        return [FollowRow(*r) for r in await self._all(self._FOLLOW + " WHERE user_id=? ORDER BY game_id", (user_id,))]

    async def followers_of(self, game_id: int) -> list[FollowRow]:
        return [FollowRow(*r) for r in await self._all(self._FOLLOW + " WHERE game_id=? ORDER BY user_id", (game_id,))]

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        rows = await self._all(
            "SELECT f.game_id, f.user_id, f.mode, f.sent_version, f.sent_at FROM follows f JOIN games g"
            " ON g.id=f.game_id WHERE g.version > f.sent_version AND g.status IN ('active','finished','abandoned')"
            " AND (f.mode='turn' OR f.sent_at <= ?) ORDER BY f.game_id, f.user_id",
            (now - digest_seconds,),
        )
        return [FollowRow(*r) for r in rows]

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        async def tx(db):
            cur = await db.execute(
                "UPDATE follows SET sent_version=?, sent_at=? WHERE game_id=? AND user_id=? AND sent_version=?",
                (version, now, game_id, user_id, previous),
            )
            return cur.rowcount == 1

        return await self._tx(tx)

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        async def tx(db):
            if closed:
                await db.execute("INSERT OR IGNORE INTO follow_closed(game_id) VALUES (?)", (game_id,))
                await db.execute("DELETE FROM follows WHERE game_id=?", (game_id,))
            else:
                await db.execute("DELETE FROM follow_closed WHERE game_id=?", (game_id,))

        await self._tx(tx)

    async def followers_closed(self, game_id: int) -> bool:
        return bool(await self._one("SELECT 1 FROM follow_closed WHERE game_id=?", (game_id,)))

    # ----------------------------------------------------------- privacy
    async def _personal(self, write, fn):
        if write:
            return await self._tx(lambda db: fn(_Sql(db)))
        async with self._read() as db:
            return await fn(_Sql(db))

    # -------------------------------------------------------------- meta
    async def get_meta(self, key: str) -> str | None:
        r = await self._one("SELECT value FROM meta WHERE key=?", (key,))
        return r[0] if r else None

    async def set_meta(self, key: str, value: str) -> None:
        async def tx(db):
            await db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

        await self._tx(tx)

    async def meta_default(self, key: str, value: str) -> str:
        async def tx(db):
            await db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (key, value))
            async with db.execute("SELECT value FROM meta WHERE key=?", (key,)) as cur:
                return (await cur.fetchone())[0]

        return await self._tx(tx)

    # ---------------------------------------------------------- the web companion
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None:
        async def tx(db):
            await db.execute(
                "INSERT INTO web_tokens(token_hash, kind, user_id, game_id, expires_at, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (token_hash, kind, user_id, game_id, expires_at, self.clock()),
            )

        await self._tx(tx)

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        async def tx(db):
            async with db.execute(
                "DELETE FROM web_tokens WHERE token_hash=? AND kind=? RETURNING user_id, game_id, expires_at",
                (token_hash, kind),
            ) as cur:
                return await cur.fetchone()

        r = await self._tx(tx)
        return (int(r[0]), r[1]) if r is not None and r[2] > now else None

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        r = await self._one(
            "SELECT user_id, game_id FROM web_tokens WHERE token_hash=? AND kind=? AND expires_at>?",
            (token_hash, kind, now),
        )
        return (int(r[0]), r[1]) if r is not None else None

    async def web_tokens_end(self, user_id: int) -> int:
        async def tx(db):
            cur = await db.execute("DELETE FROM web_tokens WHERE user_id=?", (user_id,))
            return cur.rowcount

        return int(await self._tx(tx))

    async def web_tokens_purge(self, now: float) -> int:
        async def tx(db):
            cur = await db.execute("DELETE FROM web_tokens WHERE expires_at<=?", (now,))
            return cur.rowcount

        return int(await self._tx(tx))

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        ids = [int(i) for i in game_ids][:10_000]
        if not ids:
            return {}
        out: dict[int, int] = {}
        for k in range(0, len(ids), 500):  # SQLite's bound-parameter limit
            chunk = ids[k : k + 500]
            rows = await self._all(f"SELECT id, version FROM games WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            out.update({int(r[0]): int(r[1]) for r in rows})
        return out


class _Sql(Sql):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[tuple]:
        async with self.db.execute(sql, list(args)) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        cur = await self.db.execute(sql, list(args))
        return cur.rowcount


#: what a cap counts: (table, the member's column, which rows are open)
_LOBBIES = ("games", "host_id", "status='lobby'")
_CAMPAIGNS = ("campaigns", "created_by", "status='open'")


async def _check_caps(db, kind: str, what: tuple[str, str, str], guild_id, user_id, caps: Caps) -> None:
    """Raise :class:`LimitReached` when the member or the server is at its cap (inside the writer's transaction)."""
    table, who, where = what
    for scope, extra, args, cap in (
        ("member", f" AND {who}=?", (guild_id, user_id), caps.member),
        ("server", "", (guild_id,), caps.server),
    ):
        if cap is None or guild_id is None:
            continue
        async with db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where} AND guild_id=?{extra}", args) as cur:
            n = (await cur.fetchone())[0]
        if n >= cap:
            raise LimitReached(kind, scope, cap)


# ------------------------------------------------------------ one process per file
# SQLite serves one bot process: a second process on the same file is refused at
# start (several writers on one file fail with "database is locked" under load, and
# two processes reaching one database file by two names keep two WAL files beside
# them: that corrupts it).  The claim is two flocks, released by the kernel when the
# process dies, even on SIGKILL:
#   - on the database file itself (its inode): holds through a hard link to the file
#     and through a deleted ``-lock`` file;
#   - on ``<file>-lock`` beside it (the name): holds while the database file was
#     deleted or replaced under a running bot, whose WAL file is still beside the name.
# flock and SQLite's own (POSIX, fcntl) locks are independent on Linux.  The descriptor
# on the database file stays open until every SQLite connection of the store closed:
# closing a descriptor drops all the POSIX locks the process holds on that file.
# Stores of the same process share the claim.


@dataclass
class _Claim:
    path: str  # real path
    fd: int  # the database file
    lock_fd: int  # <path>-lock
    holders: int = 1
    lost: str | None = None  # why the file can no longer be written (said once per process)

    @property
    def inode(self) -> tuple[int, int]:
        st = os.fstat(self.fd)
        return st.st_dev, st.st_ino

    def problem(self) -> str | None:
        """Why the database file this claim holds is no longer the one at its path, if it is not."""
        if self.lost:
            return self.lost
        held = os.fstat(self.fd)
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return "was deleted" if held.st_nlink == 0 else "was moved away (renamed)"
        except OSError as exc:
            return f"cannot be checked ({exc.strerror})"
        if (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
            return "was replaced by another file"
        return None


_claims: dict[tuple[int, int], _Claim] = {}  # (st_dev, st_ino) of the database file -> claim


def _claim_file(path: str, exclusive: bool = False) -> _Claim:
    """Claim the database file at ``path`` for this process (created empty when absent);
    ``exclusive``: also refuse when a store of this process has it open (restoring a backup)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    held = _claims.get((st.st_dev, st.st_ino)) if st is not None else None
    if held is not None:
        if exclusive:
            raise StoreInUse(f"{path} is in use by this process (pid {os.getpid()}); stop the bot first")
        if held.path != real:
            raise StoreInUse(f"{path} is {held.path} under another name (a hard link), already open in this process")
        held.holders += 1
        return held
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
    lock_fd = os.open(real + "-lock", flags, 0o644)
    fd = -1
    try:
        _flock(lock_fd, path, lock_fd)
        fd = os.open(real, flags, 0o644)
        _flock(fd, path, lock_fd)
    except BaseException:
        if fd >= 0:
            os.close(fd)  # no SQLite connection of this process is on this file (no claim): no lock to lose
        os.close(lock_fd)
        raise
    os.ftruncate(lock_fd, 0)
    os.pwrite(lock_fd, str(os.getpid()).encode(), 0)
    claim = _Claim(real, fd, lock_fd)
    _claims[claim.inode] = claim
    return claim


def _flock(fd: int, path: str, lock_fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd) or os.pread(lock_fd, 32, 0).decode(errors="replace").strip()
        raise StoreInUse(
            f"{path} is in use by another bot process{f' (pid {holder})' if holder else ''}; SQLite serves one process: "
            "to run several, set TG_DATABASE=postgresql://user:pass@host/db (see the README)"
        ) from None


def _holder(fd: int) -> str:
    """The pid holding a flock on ``fd``'s file, from /proc/locks (Linux); "" when unknown."""
    st = os.fstat(fd)
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        parts = line.split()
        if len(parts) < 6 or parts[1] != "FLOCK":  # "->" marks a waiter
            continue
        try:
            major, minor, ino = parts[5].split(":")
            if (int(major, 16), int(minor, 16), int(ino)) == want:
                return parts[4]
        except ValueError:
            continue
    return ""


def _why(exc: BaseException) -> str:
    """One line for a file that cannot be opened: the OS's reason, or SQLite's."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _release_file(claim: _Claim) -> None:
    claim.holders -= 1
    if claim.holders > 0:
        return
    for key, held in list(_claims.items()):
        if held is claim:
            del _claims[key]
    os.close(claim.fd)  # closing the descriptors drops the flocks
    os.close(claim.lock_fd)

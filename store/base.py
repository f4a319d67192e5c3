"""The storage interface the table service uses.  No SQL leaves this package.

A backend (SQLite now; PostgreSQL for several bot processes) implements
:class:`Store`.  Rows come back as plain dataclasses holding JSON *text* for
the state, so nothing above the store depends on a driver's types.

Writing: one call, one transaction
----------------------------------
Every change the table service makes is one :class:`ChangeSet` passed to
:meth:`Store.commit`.  A change set holds at most one table's changes
(:class:`GameChange`), any campaign progress (:class:`CampaignChange`), vote
ballots (:class:`VoteChange`) and new votes (:class:`NewVote`).  Each part that
changes an existing row names the version it was decided on
(``expected_version``); the backend applies the whole set in ONE database
transaction and only if every one of those rows is still at its expected
version (compare-and-swap), else it writes nothing and raises
:class:`VersionConflict`.  So correctness never rests on an in-process lock:
several processes may share one database.  :meth:`Store.lock` is only a
courtesy that saves a process from racing itself.

Every row kind that can be changed has an integer ``version`` that a
successful change increments by one.

Reading: one snapshot
---------------------
Each read method returns data from one consistent snapshot (a row's seats,
state and version always belong together; a half-written change is never
seen).

Snapshots: a rebuildable cache of states
----------------------------------------
A table's state after the first *n* actions of its (effective) log is the
state its seed and those actions replay to; that replay is the truth.  To
spare replaying a long log (undo, ``/game replay <turn>``), a turn may carry a
:class:`NewSnapshot` of the state after its last action.  The backend writes
it in the turn's transaction, keyed by that action's id and by the ``key`` the
caller gives (the engine and schema version of the state), and records its
``position`` (how many effective actions lead up to it).  A change that
reverts actions drops every snapshot at or after the first reverted one; the
action log itself stays append-only.  :meth:`Store.replay_source` returns the
nearest usable snapshot and the actions after it, in one read snapshot; a
caller that finds a snapshot unusable asks again with ``key=None`` (none).

The outbox: what a committed change owes its channel
----------------------------------------------------
A change that the players must see (a turn's board and its pings, a timer's
note) carries an :class:`Owed`; the backend records it in the change's own
transaction, in the table's one ``outbox`` row (a table owes only its newest
board: a later change replaces the row and keeps the earliest version not yet
shown, ``since``, and the notes not yet posted).  A process that commits with
``Owed.owner`` holds the row's lease for ``Owed.lease`` seconds and delivers it
at once; anything not confirmed (a process killed, Discord down) is taken by
whoever :meth:`Store.claim_outbox` lets claim it (a compare-and-swap on the
row's version and attempt count, so one process at a time) once the lease ran
out and its backoff is over; :meth:`Store.outbox_done` removes it when Discord
confirmed.

What the last write of this task did
------------------------------------
:data:`LANDED` says whether the latest :meth:`Store.commit` (or
:meth:`Store.create_game`) of the running asyncio task (one interaction) was
committed (``("committed", table id, new version)``) or whether its outcome is unknown
(``("unknown", table id, None)``: the database stopped answering during COMMIT;
:class:`CommitUnknown` is raised).  The Discord layer reads it when something
fails later, so a player is never told "nothing was changed" after a change.

Crash injection (tests)
-----------------------
A backend calls ``await self._step(name)`` between the steps of a write,
inside its transaction: after the table's row is updated and before its
``"seats"``, ``"revert"``, ``"actions"``, ``"snapshot"``, ``"results"``, then before each
``"campaigns"``, ``"votes"``, ``"ratings"`` and ``"outbox"`` part, last before ``"commit"`` and, once COMMIT
returned, ``"committed"`` (the reply to COMMIT lost: :class:`CommitUnknown`); :meth:`Store.inject_crash` makes the
named step raise :class:`InjectedCrash` (or kill the process), which tests
use to show that a change set lands whole or not at all.
"""

from __future__ import annotations

import asyncio
import os
import signal
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from .errors import (
    LANDED,
    ChannelBusy,
    CommitUnknown,
    CorruptRow,
    InjectedCrash,
    LimitReached,
    StillSeated,
    StoreError,
    StoreInUse,
    StoreUnavailable,
    VersionConflict,
    VoteTaken,
    landed,
    redact,
    scrub,
)
from .privacy import PERSONAL_DATA, PersonalData, forget_personal, personal_footprint, register_personal_data
from .rows import (
    ACTIVE_STATUSES,
    GAME_COLUMNS,
    MESSAGE_COLUMNS,
    OUTBOX_COLUMNS,
    OUTBOX_NOTES,
    ActionRow,
    Campaign,
    CampaignChange,
    Caps,
    ChangeSet,
    Committed,
    FollowRow,
    GameChange,
    GameRow,
    LeagueRow,
    NewSnapshot,
    NewVote,
    OutboxRow,
    Owed,
    OwedMessage,
    RatingChange,
    RatingRow,
    ReplaySource,
    ResultRow,
    Seat,
    SnapshotRow,
    StatRow,
    UndoRow,
    Vote,
    VoteChange,
    dumps,
    json_dict,
    json_list,
    merge_owed,
    message_row,
    outbox_row,
    qualified,
)

if TYPE_CHECKING:
    from .sql import Conn

__all__ = [  # the rows, errors and privacy registry, importable from here as before
    "ACTIVE_STATUSES", "GAME_COLUMNS", "LANDED", "MESSAGE_COLUMNS", "OUTBOX_COLUMNS", "OUTBOX_NOTES", "PERSONAL_DATA",
    "ActionRow", "Campaign", "CampaignChange", "Caps", "ChangeSet", "ChannelBusy", "Committed",
    "CommitUnknown", "CorruptRow", "FollowRow", "GameChange", "GameRow", "InjectedCrash", "LeagueRow",
    "LimitReached", "NewSnapshot", "NewVote", "OutboxRow", "Owed", "OwedMessage", "PersonalData", "RatingChange",
    "RatingRow", "ReplaySource", "ResultRow", "Seat", "SnapshotRow", "StatRow", "StillSeated", "Store",
    "StoreError", "StoreInUse", "StoreUnavailable", "UndoRow", "VersionConflict", "Vote", "VoteChange", "VoteTaken",
    "dumps", "json_dict", "json_list", "landed", "merge_owed", "message_row", "outbox_row", "qualified", "redact",
    "register_personal_data", "scrub",
]  # fmt: skip


class Store:
    """Abstract storage.  Every method is a coroutine.

    One implementation: :class:`store.community.SqlStore` (the SQL written once,
    store/core.py and store/community.py), which SQLite and PostgreSQL specialise
    only by connection handling, locking and dialect (store/sqlite.py,
    store/postgres.py).  The convenience writers below are built on :meth:`commit`.

    Nobody above the store uses all of it: tables/ types its store by role, as in
    store/ports.py (the kernel's :class:`~store.ports.KernelStore`, one protocol per
    feature), so mypy proves each module keeps to its role (:class:`~store.ports.AdminStore`
    names what bot.py's wiring calls); the few methods only tests and benchmarks call are
    listed there (``TEST_SUPPORT``) with their reasons, and tests/test_store_ports.py
    fails on a method that belongs to neither.  cogs/ never hold the store (they read
    through tables/; tests/test_architecture.py)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()
        self._crash: tuple[str, str] | None = None

    @asynccontextmanager
    async def lock(self, key: Hashable) -> AsyncIterator[None]:
        """Per-key lock inside this process (saves racing ourselves); the
        compare-and-swap in :meth:`commit` is what keeps other processes right."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock:
            yield

    # ------------------------------------------------- crash injection
    def inject_crash(self, step: str | None, how: str = "raise") -> None:
        """Tests: make the next commit fail at ``step`` (``how`` "raise": raise
        :class:`InjectedCrash`; "kill": SIGKILL this process).  ``None`` clears it."""
        self._crash = None if step is None else (step, how)

    async def _step(self, name: str) -> None:
        """Called by backends between the steps of a commit, inside its transaction."""
        if self._crash is not None and self._crash[0] == name:
            how = self._crash[1]
            self._crash = None
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise InjectedCrash(name)

    # lifecycle
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def check(self) -> None:
        """Raise :class:`StoreUnavailable` when the database this store opened can no
        longer be written (called before every commit by the backend, and by the
        scheduler's periodic pass so a lost database is noticed while nobody plays)."""

    # ----------------------------------------------------------- writing
    async def commit(self, changes: ChangeSet) -> Committed:
        """Apply ``changes`` in one transaction, all or nothing (see the module
        docstring).  Raises :class:`VersionConflict` when any expected version
        no longer holds; then nothing was written."""
        raise NotImplementedError

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        locale: str | None = None,
        status: str = "lobby",
        state_json: str | None = None,
        table: dict[str, Any] | None = None,
        campaign_id: int | None = None,
        caps: Caps | None = None,
    ) -> GameRow:
        """A new table with its seats, in one transaction.  Raises
        :class:`ChannelBusy` when the channel already has a lobby or running
        table (enforced by the database, so also across processes), and
        :class:`LimitReached` when ``caps`` are given and the host (lobbies they host)
        or the server (its lobbies) already has that many lobbies, counted in the
        same transaction."""
        raise NotImplementedError

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int:
        """One :class:`GameChange` on its own; returns the new version."""
        done = await self.commit(ChangeSet(game=GameChange(game_id, expected_version, **changes)))
        assert done.version is not None
        return done.version

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        """Reminder bookkeeping (does not change the table's version).  With
        ``expected_version`` it claims the reminder: it writes, and returns True,
        only while the table is at that version and its last reminder time is
        still ``previous`` (the one the caller saw), so each reminder is sent
        once, also across processes.  ``at=None`` clears the mark."""
        raise NotImplementedError

    # ------------------------------------------------------------ outbox
    async def outbox(self, game_id: int) -> OutboxRow | None:
        """The table's undelivered board, if any."""
        raise NotImplementedError

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        """Undelivered boards whose backoff is over and whose lease (if any) ran out, oldest first."""
        raise NotImplementedError

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        """Take the delivery of ``row`` until ``until`` (counting one attempt): True only
        while the row is still at that version and attempt count and nobody holds a
        live lease (so one process delivers it, also across processes)."""
        raise NotImplementedError

    async def outbox_posted(self, game_id: int, version: int, message_id: int) -> bool:
        """Record the message the board of ``version`` was posted as (False: no longer owed)."""
        raise NotImplementedError

    async def outbox_done(self, game_id: int, version: int) -> bool:
        """Discord confirmed the board of ``version``: remove the row, unless a newer change replaced it."""
        raise NotImplementedError

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        """A delivery failed: release ``owner``'s lease and try again from ``due_at``
        (None as ``owner``: whoever holds it); False when the row moved on."""
        raise NotImplementedError

    async def due_messages(self, now: float, limit: int = 50) -> list[OwedMessage]:
        """Owed messages (votes' questions) whose backoff is over and whose lease ran out."""
        raise NotImplementedError

    async def claim_message(self, row: OwedMessage, owner: str, until: float, now: float) -> bool:
        """Take the posting of ``row`` until ``until`` (as :meth:`claim_outbox`: one process)."""
        raise NotImplementedError

    async def message_done(self, key: str) -> bool:
        """Discord confirmed the message (or it is no longer owed): remove it."""
        raise NotImplementedError

    async def message_retry(self, key: str, owner: str | None, due_at: float) -> bool:
        """Posting failed: release ``owner``'s lease and try again from ``due_at``."""
        raise NotImplementedError

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Take a table out of play (status ``quarantined``; the channel is
        free again) and keep its raw row for a developer."""
        raise NotImplementedError

    # ----------------------------------------------------------- reading
    async def get_game(self, game_id: int) -> GameRow | None:
        """Raises :class:`CorruptRow` when the row cannot be read."""
        raise NotImplementedError

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running table."""
        return await self.latest_game(channel_id, ACTIVE_STATUSES)

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        """The channel's most recent table (highest id) with one of ``statuses``."""
        raise NotImplementedError

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        """The effective log (taken-back actions left out), oldest first."""
        raise NotImplementedError

    async def count_actions(self, game_id: int) -> int:
        raise NotImplementedError

    async def undos(self, game_id: int) -> list[UndoRow]:
        """The table's undos (its taken-back steps by the undo that took them back), in log order."""
        raise NotImplementedError

    # snapshots (a cache: see the module docstring)
    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        """From one read snapshot: the latest snapshot stored under ``key`` that
        serves the request, and the effective actions after it.

        ``turn``: to rebuild the state after the first ``turn`` actions (the
        actions stop there).  ``user_id``: to take back that member's last
        decision (a step the platform took for them, a forced single choice, is none):
        the snapshot lies before it, the actions run to the end of the
        log and ``cut`` indexes that action (``None``: the member has none).
        Neither: the whole log.  ``key=None`` uses no snapshot."""
        raise NotImplementedError

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        """Every snapshot of a table (any key), oldest first."""
        raise NotImplementedError

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        """Cache states a replay computed (each names its ``action_id``), while the
        table is still at ``expected_version`` (the version does not change; a
        snapshot already there is kept).  Returns False and writes nothing when
        the table moved on."""
        raise NotImplementedError

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        """Drop the cached states of one table (None: of every table); returns how many."""
        raise NotImplementedError

    async def due_tables(self, now: float) -> list[GameRow]:
        """Running tables with a seat whose reminder or turn timer is due at ``now``:
        read through the indexed due times, so a pass costs what is due, not what runs."""
        raise NotImplementedError

    async def waiting_tables(self) -> list[GameRow]:
        """Running games with somebody to act (reminders and turn timers);
        quarantined, finished and unreadable tables are left out."""
        raise NotImplementedError

    async def quarantined(self) -> list[tuple[int, str]]:
        """(table id, reason) of every quarantined table, oldest first."""
        raise NotImplementedError

    # settings: read-modify-write in one transaction, the row locked (no lost updates:
    # two admins changing different settings at once both keep theirs)
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Replace a server's settings by ``change(current)``, where ``current`` is read
        in the same write transaction with the row locked (also against other processes);
        returns what was written.  ``change`` may raise: then nothing is written."""
        raise NotImplementedError

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def update_user_prefs(
        self, user_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Like :meth:`update_guild_settings`, for a member's preferences (and re-times
        the member's waiting seats: a vacation moves their due times)."""
        raise NotImplementedError

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        await self.update_user_prefs(user_id, lambda _: prefs)

    # limits (issue 19)
    async def claim_rate(
        self, kind: str, guild_id: int | None, user_id: int, now: float, window: float, caps: Caps
    ) -> None:
        """Record one ``kind`` event (a thread opened) of the member, unless the member
        (``caps.member``) or the server (``caps.server``) had that many in the last
        ``window`` seconds: then raise :class:`LimitReached` and write nothing.  Counted
        and written in one transaction; events older than the window are dropped."""
        raise NotImplementedError

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        """Give back a claimed event (what it was for could not be done)."""
        raise NotImplementedError

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """What the member and the server have open: {"lobbies": (member's, server's),
        "campaigns": (...)}; lobbies the member hosts, open campaigns they created."""
        raise NotImplementedError

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby (so its expiry can be shown there);
        the table's version does not change."""
        raise NotImplementedError

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        """Lobbies unchanged since ``before``, with their lobby message (None: unknown), oldest first."""
        raise NotImplementedError

    # stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        raise NotImplementedError

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        raise NotImplementedError

    # campaigns
    async def create_campaign(
        self,
        *,
        guild_id: int,
        game: str,
        name: str,
        points: list[int],
        created_by: int,
        progress: dict[str, Any] | None = None,
        caps: Caps | None = None,
    ) -> Campaign:
        """Raises :class:`ChannelBusy` when the server has a campaign of that name, and
        :class:`LimitReached` when ``caps`` are given and the creator or the server
        already has that many open campaigns (counted in the same transaction)."""
        raise NotImplementedError

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        raise NotImplementedError

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        raise NotImplementedError

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        raise NotImplementedError

    # leagues (tables/leagues.py)
    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        format: str,
        config: dict[str, Any],
        state: dict[str, Any],
        created_by: int,
        caps: Caps | None = None,
    ) -> LeagueRow:
        """Raises :class:`ChannelBusy` when the server has a league of that name."""
        raise NotImplementedError

    async def league(self, league_id: int) -> LeagueRow | None:
        raise NotImplementedError

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        raise NotImplementedError

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        """A server's leagues (every server's with ``guild_id`` None), oldest first."""
        raise NotImplementedError

    async def update_league(
        self,
        league_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        state: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
    ) -> int:
        """One change to a league, only while it is at ``expected_version`` (else
        :class:`VersionConflict`); returns the new version."""
        raise NotImplementedError

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        """Claim one step of a league round (open a table, decide at the deadline, ...):
        True for exactly one caller across processes, unless the claim is older than
        ``lease`` seconds and was never marked done (its process died: claimable again)."""
        raise NotImplementedError

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None:
        raise NotImplementedError

    async def release_league_step(self, league_id: int, round: int, step: str) -> None:
        """Give back a claimed step whose effect did not happen (claimable again at once)."""
        raise NotImplementedError

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        """The recorded placings of these tables (finished ones only), by table."""
        raise NotImplementedError

    # votes (undo consent, seat hand-over)
    async def get_vote(self, vote_id: int) -> Vote | None:
        raise NotImplementedError

    async def games_of_user(
        self, user_id: int, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE_STATUSES
    ) -> list[GameRow]:
        raise NotImplementedError

    async def count_games(self) -> int:
        raise NotImplementedError

    async def open_votes(self, game_id: int) -> list[Vote]:
        """The table's open votes, oldest first."""
        raise NotImplementedError

    # ratings
    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]:
        raise NotImplementedError

    # followers (spectators)
    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        """Start (or change) following a table."""
        raise NotImplementedError

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        raise NotImplementedError

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        """Follows whose table moved on since they last heard: "turn" ones at once,
        "digest" ones when ``digest_seconds`` passed since the last digest."""
        raise NotImplementedError

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        """Claim one delivery: True only while the follow is still at ``previous``."""
        raise NotImplementedError

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        """Close (or reopen) a table to followers; closing ends every follow of it."""
        raise NotImplementedError

    async def followers_closed(self, game_id: int) -> bool:
        raise NotImplementedError

    # privacy: both walk PERSONAL_DATA (see :class:`PersonalData`)
    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """What is kept about a member, counted per kind (:func:`personal_footprint`):
        with ``guild_id`` only that server's data and no personal settings."""
        return await self._personal(False, lambda db: personal_footprint(db, user_id, guild_id))

    async def forget_user(self, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
        """In one transaction (:func:`forget_personal`): refused with :class:`StillSeated`
        while the member sits at a lobby or running table (of ``guild_id``'s server), else
        every place that keeps their id is cleared, in running and finished tables alike:
        results, ratings, follows, limits' events (and, unless ``guild_id`` limits it to one
        server, their preferences) deleted; ``anon_id`` put in their place in seats, host,
        action logs, reverts, votes and campaign rosters (replays and exports keep working:
        they use seats, not members).  Returns counts."""
        return await self._personal(True, lambda db: forget_personal(db, user_id, anon_id, guild_id))

    async def _personal(self, write: bool, fn: Callable[[Conn], Awaitable[Any]]) -> Any:
        """Run ``fn`` in one write transaction (``write``) or one read snapshot."""
        raise NotImplementedError

    # key/value metadata (command-tree hash, ...)
    async def get_meta(self, key: str) -> str | None:
        raise NotImplementedError

    async def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError

    async def meta_default(self, key: str, value: str) -> str:
        """The stored value of ``key``, storing ``value`` first when there is none
        (two processes racing both get the one value that was stored)."""
        raise NotImplementedError

    # the web companion (tables/web_sessions.py): sign-in links and sessions, by token hash
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None:
        raise NotImplementedError

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        """Remove a token and return its (member, table) when it had not expired: each
        token is taken once, even by two processes at the same moment."""
        raise NotImplementedError

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        raise NotImplementedError

    async def web_tokens_end(self, user_id: int) -> int:
        """Remove every link and session of a member; how many there were."""
        raise NotImplementedError

    async def web_tokens_purge(self, now: float) -> int:
        raise NotImplementedError

    # members' display names (tables/names.py), per server (guild id 0: outside any server)
    async def member_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored display names of these members on that server (missing ones left out)."""
        raise NotImplementedError

    async def set_member_name(self, guild_id: int, user_id: int, name: str, now: float, *, create: bool = True) -> bool:
        """Store a member's display name on a server; whether a row changed (an unchanged
        name writes nothing; ``create=False``: only a name already stored is refreshed)."""
        raise NotImplementedError

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The current version of each of these tables (one query; missing ids left out)."""
        raise NotImplementedError

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """Call ``callback(game_id, version)`` on every committed table change made by any
        process, until the returned coroutine function is awaited; None when the backend
        cannot push changes (SQLite: poll :meth:`table_versions`)."""
        return None

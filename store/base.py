"""What the store promises, and what every backend shares that is not SQL.  No SQL
leaves this package.

The interface itself, each method with its signature and its own promise, is written
once in store/ports/ (:class:`~store.ports.Store`, the union of the roles its callers
type against); this module says what the calls promise together, and
:class:`StoreBase` holds the part every backend shares that is no SQL: the per-key
lock of one process and crash injection.  A backend (SQLite for one process,
PostgreSQL for several bot processes) satisfies :class:`~store.ports.Store` on top of
it.  Rows come back as plain dataclasses holding JSON *text* for the state, so
nothing above the store depends on a driver's types.

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
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

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
from .ports import Store
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
    OrdersChange,
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

__all__ = [  # the rows, errors and the interface, importable from here as before
    "ACTIVE_STATUSES", "GAME_COLUMNS", "LANDED", "MESSAGE_COLUMNS", "OUTBOX_COLUMNS", "OUTBOX_NOTES", "ActionRow",
    "Campaign", "CampaignChange", "Caps", "ChangeSet", "ChannelBusy", "Committed", "CommitUnknown", "CorruptRow", "FollowRow", "GameChange", "GameRow", "InjectedCrash", "LeagueRow",
    "LimitReached", "NewSnapshot", "NewVote", "OrdersChange", "OutboxRow", "Owed", "OwedMessage", "RatingChange",
    "RatingRow", "ReplaySource", "ResultRow", "Seat", "SnapshotRow", "StatRow", "StillSeated", "Store",
    "StoreBase", "StoreError", "StoreInUse", "StoreUnavailable", "UndoRow", "VersionConflict", "Vote", "VoteChange", "VoteTaken",
    "dumps", "json_dict", "json_list", "landed", "merge_owed", "message_row", "outbox_row", "qualified", "redact",
    "scrub",
]  # fmt: skip


class StoreBase:
    """What every backend shares that is no SQL: the per-key lock of one process and
    crash injection (the methods :class:`~store.ports.Store` declares as ``lock`` and
    ``inject_crash``; store/ports/ says what each promises)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()
        self._crash: tuple[str, str] | None = None

    @asynccontextmanager
    async def lock(self, key: Hashable) -> AsyncIterator[None]:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock:
            yield

    def inject_crash(self, step: str | None, how: str = "raise") -> None:
        self._crash = None if step is None else (step, how)

    async def _step(self, name: str) -> None:
        """Called by backends between the steps of a commit, inside its transaction."""
        if self._crash is not None and self._crash[0] == name:
            how = self._crash[1]
            self._crash = None
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise InjectedCrash(name)

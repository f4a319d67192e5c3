"""Storage: the only package that touches the database.

Layout: :mod:`store.ports` is the interface, written once: the narrow roles its callers
type against (the kernel's, one per feature of tables/) and :class:`Store`, their union;
:mod:`store.base` says what the calls promise together and holds what every backend
shares that is no SQL; with its rows (:mod:`store.rows`), errors (:mod:`store.errors`)
and privacy registry (:mod:`store.privacy`); the SQL is written once (:mod:`store.core`,
:mod:`store.due`, :mod:`store.history`, :mod:`store.community`) over a small dialect
adapter (:mod:`store.sql`); :mod:`store.sqlite` and :mod:`store.postgres` keep only
connections, transactions, locking and their dialect; :mod:`store.migrations` is the
one migration list both apply; :mod:`store.tools` copies, backs up and restores.

Whoever opens a store gives it the clock and the due-time policy (:class:`DuePolicy`,
tables/rules/clocks.py ``due_times``): :func:`open_store` or a backend's constructor."""

import time
from collections.abc import Callable

from .base import (
    ActionRow,
    Campaign,
    CampaignChange,
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
    StillSeated,
    Store,
    StoreError,
    StoreInUse,
    StoreUnavailable,
    UndoRow,
    VersionConflict,
    Vote,
    VoteChange,
    VoteTaken,
    landed,
    redact,
)
from .ports import DuePolicy
from .privacy import PERSONAL_DATA, PersonalData, register_personal_data
from .sqlite import SqliteStore


def backend_of(url: str) -> str:
    """``"postgresql"`` or ``"sqlite"`` for a ``TG_DATABASE`` value."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql"
    if url.startswith("sqlite:///") or "://" not in url:
        return "sqlite"
    raise ValueError(
        f"unsupported database URL {redact(url)!r} in TG_DATABASE (use a file path, sqlite:///path or postgresql://...)"
    )


def open_store(url: str, clock: Callable[[], float] | None = None, *, due: DuePolicy | None) -> Store:
    """The store for ``TG_DATABASE``: a file path, ``sqlite:///path.db``, ``:memory:``
    (SQLite, one process), or ``postgresql://user:pass@host:port/db`` (several processes).
    ``due``: how a running table's due times fall (tables/rules/clocks.py ``due_times``; None
    only for a tool that never times a running table: such a store refuses to).
    The store is returned unopened: ``await store.open()`` connects and migrates."""
    clock = clock or time.time
    if backend_of(url) == "postgresql":
        from .postgres import PostgresStore

        return PostgresStore(url, clock=clock, due=due)
    return SqliteStore(url.removeprefix("sqlite:///"), clock=clock, due=due)


__all__ = [
    "PERSONAL_DATA",
    "Caps",
    "DuePolicy",
    "LimitReached",
    "PersonalData",
    "StillSeated",
    "VoteTaken",
    "register_personal_data",
    "ActionRow",
    "UndoRow",
    "Campaign",
    "LeagueRow",
    "CampaignChange",
    "ChangeSet",
    "Committed",
    "CommitUnknown",
    "OrdersChange",
    "OutboxRow",
    "Owed",
    "OwedMessage",
    "landed",
    "GameChange",
    "InjectedCrash",
    "NewSnapshot",
    "NewVote",
    "RatingChange",
    "RatingRow",
    "ReplaySource",
    "SnapshotRow",
    "VoteChange",
    "ResultRow",
    "StatRow",
    "Vote",
    "ChannelBusy",
    "CorruptRow",
    "FollowRow",
    "GameRow",
    "Seat",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreInUse",
    "StoreUnavailable",
    "backend_of",
    "VersionConflict",
    "open_store",
    "redact",
]

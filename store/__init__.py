"""Storage: the only package that touches the database."""

from .base import (
    ActionRow,
    Campaign,
    CampaignChange,
    ChangeSet,
    ChannelBusy,
    Committed,
    CorruptRow,
    GameChange,
    GameRow,
    InjectedCrash,
    NewVote,
    ResultRow,
    Seat,
    StatRow,
    Store,
    StoreError,
    VersionConflict,
    Vote,
    VoteChange,
)
from .sqlite import SqliteStore


def open_store(url: str, clock=None) -> Store:
    """``sqlite:///path.db``, a bare path, or ``:memory:``."""
    import time

    clock = clock or time.time
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///") :], clock=clock)
    if "://" in url:
        raise ValueError(f"unsupported database URL {url!r} (only sqlite is built in)")
    return SqliteStore(url, clock=clock)


__all__ = [
    "ActionRow",
    "Campaign",
    "CampaignChange",
    "ChangeSet",
    "Committed",
    "GameChange",
    "InjectedCrash",
    "NewVote",
    "VoteChange",
    "ResultRow",
    "StatRow",
    "Vote",
    "ChannelBusy",
    "CorruptRow",
    "GameRow",
    "Seat",
    "SqliteStore",
    "Store",
    "StoreError",
    "VersionConflict",
    "open_store",
]

"""Storage: the only package that touches the database."""

from .base import (ActionRow, ChannelBusy, CorruptRow, GameRow, Seat, Store, StoreError, VersionConflict)
from .sqlite import SqliteStore


def open_store(url: str) -> Store:
    """``sqlite:///path.db``, a bare path, or ``:memory:``."""
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):])
    if "://" in url:
        raise ValueError(f"unsupported database URL {url!r} (only sqlite is built in)")
    return SqliteStore(url)


__all__ = ["ActionRow", "ChannelBusy", "CorruptRow", "GameRow", "Seat", "SqliteStore", "Store", "StoreError",
           "VersionConflict", "open_store"]

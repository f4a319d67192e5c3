"""The store's errors, and what the latest write of this task did (:func:`landed`)."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar


class StoreError(Exception):
    pass


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (``user:password@``, ``password=``),
    for messages and logs; a malformed URL is redacted as far as it can be read."""
    import re

    url = re.sub(r"(://[^/@:]*:).*@", r"\1***@", url, count=1)
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", url)


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's error message) without the password of ``url`` anywhere in it."""
    import re
    from urllib.parse import unquote

    found = re.search(r"://[^/@:]*:(.*)@", url)
    secrets = [found.group(1)] if found else []
    secrets += re.findall(r"(?i)password=([^&]*)", url)
    for secret in secrets:
        for form in {secret, unquote(secret)}:
            if form:
                text = text.replace(form, "***")
    return redact(text)


class VersionConflict(StoreError):
    """Somebody else changed one of the rows first (compare-and-swap lost); nothing was written."""


class VoteTaken(VersionConflict):
    """A vote on that decision (the same seat at the same table version) exists already:
    opened by another call or process first; nothing was written."""


class LimitReached(StoreError):
    """A creation would pass a server's cap (``kind``: "lobbies", "threads",
    "campaigns"; ``scope``: "member" or "server"; ``limit``: the cap); nothing was written."""

    def __init__(self, kind: str, scope: str, limit: int):
        self.kind, self.scope, self.limit = kind, scope, limit
        super().__init__(f"{kind} per {scope}: {limit}")


class StillSeated(StoreError):
    """``forget`` refused: the member still sits at these lobby or running tables."""

    def __init__(self, game_ids: Sequence[int]):
        self.game_ids = list(game_ids)
        super().__init__(f"still seated at {self.game_ids}")


class CommitUnknown(StoreError):
    """The database stopped answering during COMMIT: the change may have been written, or not."""


#: what the latest commit of this asyncio task did (see the module docstring)
LANDED: ContextVar[tuple[str, int | None, int | None] | None] = ContextVar("tabletop_landed", default=None)


def landed() -> tuple[str, int | None, int | None] | None:
    """``("committed" | "unknown", table id, its new version)`` of this task's latest commit, or None."""
    return LANDED.get()


class InjectedCrash(StoreError):
    """Raised inside a transaction by :meth:`Store.inject_crash` (tests only)."""


class StoreInUse(StoreError):
    """The database cannot be opened by this process (SQLite file held by another bot process)."""


class StoreUnavailable(StoreError):
    """The database this store opened is gone (SQLite: its file was deleted or replaced
    while the bot ran): nothing is written any more; nothing of the refused write was kept."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class CorruptRow(StoreError):
    def __init__(self, game_id: int, reason: str):
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id}: {reason}")

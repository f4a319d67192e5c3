"""Display names on the companion's pages (issue 29 item 1; issue 28 item 6).

Every page, board image, link preview and ranking row names members by what the
store keeps (tables/people/names.py), so the companion shows the same names whether it runs
inside the bot or as its own process (``python -m web``).  Inside the bot a fallback
(the bot's own cache of Discord names) fills in members the store does not know yet,
and what it knew is stored for the other processes.

A table's names are read with its row (at most once per ``Limits.row_seconds``, and
again when the row is read again), so many viewers cost one query.  :func:`token`
digests a table's members and their names: the companion's page, fragment and image
caches key on it, and images carry it in their ETag, so a changed name, or a
``/privacy forget`` (which puts a pseudonym in the member's seat and deletes their
names), changes every key: nothing made before is served again.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from tables import clean

#: display names: ``names(guild_id, members) -> {member: name}`` (the bot's name cache)
Names = Callable[[int | None, Sequence[int]], Awaitable[Mapping[int, str]]]

#: tables whose names are held between row reads; bounded
ROWS_LIMIT = 10_000


def token(row, names: Mapping[int, str]) -> str:
    """A short digest of a table's members and their names (a cache key's part)."""
    seen = [(m, names.get(m, "")) for m in row.humans]
    return hashlib.blake2s(repr((row.guild_id, seen)).encode(), digest_size=8).hexdigest()


class NameSource(Protocol):
    """Where the stored names are read and kept: the table service's verbs."""

    async def names_of(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]: ...

    async def fill_names(self, guild_id: int | None, found: Mapping[int, str]) -> None: ...


class PageNames:
    def __init__(self, names: NameSource, fallback: Names | None = None) -> None:
        self.names = names
        self.fallback = fallback
        self._rows: dict[int, tuple[tuple, dict[int, str]]] = {}

    async def __call__(self, row) -> Mapping[int, str]:
        """The names of a table's members (``tables.seeing.board``'s name source), held until
        :meth:`stale` (its row was read again) or its members change."""
        key = (row.guild_id, tuple(row.humans))
        hit = self._rows.get(row.id)
        if hit is not None and hit[0] == key:
            return hit[1]
        found = await self.members(row.guild_id, row.humans)
        if len(self._rows) > ROWS_LIMIT:
            self._rows.clear()
        self._rows[row.id] = (key, found)
        return found

    async def members(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]:
        """Stored names of ``members`` on the server; those the store lacks from the
        fallback (and stored for every other process)."""
        found = await self.names.names_of(guild_id, members)
        missing = [m for m in members if m not in found and m > 0]
        if not missing or self.fallback is None:
            return found
        extra: Mapping[int, str] = {}
        with contextlib.suppress(Exception):  # the bot's cache is a courtesy; the store answered
            extra = await self.fallback(guild_id, missing)
        known = {m: name for m in missing if (name := clean(extra.get(m)))}
        with contextlib.suppress(Exception):
            await self.names.fill_names(guild_id, known)
        return {**found, **known}

    def stale(self, game_id: int) -> None:
        """The table's row was read again: read its names again with it."""
        self._rows.pop(game_id, None)

    def clear(self) -> None:
        self._rows.clear()

"""Members' display names, where every process reads them (issue 29 item 1).
Discord-free.

A member's name (their nick on that server, else their global name: what Discord
itself shows there) is first stored when a board, a page's source, shows them (the bot's
member cache, :meth:`MemberNames.fill_names`); every interaction of theirs afterwards refreshes
it (``create=False``: an interaction stores no name of a member nothing shows, so a
stray or refused click writes no row).  :meth:`MemberNames.note_name` writes only when the
name changed (an in-process cache in front, so a click whose name is unchanged costs no
write).  Every page of the web companion, in the bot's process or in its own
(``python -m web``), reads them with :meth:`MemberNames.of`: one query per page or
per table row read, never a Discord request.  ``/privacy forget`` deletes them
(store/privacy.py lists ``member_names``) and drops this process's cache
(:meth:`MemberNames.forget`, a forget hook).

Names are kept as Discord gives them (trimmed, bounded); every page and image escapes
them where it shows them, as it escapes any name.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence

from store.ports import NameStore

#: the server id that stands for "outside any server" (a table or interaction in a DM)
NO_GUILD = 0
#: the longest name kept (Discord's display names and nicks are at most 32 characters)
MAX_NAME = 64
#: names this process knows to be stored: (server, member) -> name; bounded
CACHE_LIMIT = 50_000
#: how long this process trusts that a name it stored is still there (another process's
#: forget deletes it): after this the next interaction writes it again (no row changes if it is)
KNOWN_SECONDS = 3600.0


def clean(name: str | None) -> str | None:
    """A name as stored: control characters (a NUL, which PostgreSQL's text refuses, line
    breaks) and lone surrogates removed, whitespace at the ends trimmed, at most
    :data:`MAX_NAME` characters; None when nothing is left.  Anything else stays as Discord
    gave it (pages and images escape names where they show them)."""
    if not name:
        return None
    kept = "".join(ch for ch in str(name) if unicodedata.category(ch) not in ("Cc", "Cs"))
    return kept.strip()[:MAX_NAME].strip() or None


class MemberNames:
    def __init__(self, store: NameStore, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[str, float]] = {}
        #: refresh-only notes that changed nothing (no stored name, or the same one)
        self._refreshed: dict[tuple[int, int], tuple[str, float]] = {}
        self.writes = 0  # names written by this process (tests and benches count them)

    async def note_name(self, guild_id: int | None, user_id: int, name: str | None, *, create: bool = True) -> bool:
        """Remember ``user_id``'s display name on server ``guild_id`` (None: outside any
        server); writes only when it differs from what this process last stored or read.
        ``create=False``: only refresh a name already stored.  Returns whether it wrote."""
        shown = clean(name)
        if shown is None or user_id <= 0:
            return False
        key = (guild_id or NO_GUILD, int(user_id))
        now = time.monotonic()
        hit = self._known.get(key)
        if hit is not None and hit[0] == shown and now - hit[1] < KNOWN_SECONDS:
            return False
        if not create:
            tried = self._refreshed.get(key)
            if tried is not None and tried[0] == shown and now - tried[1] < KNOWN_SECONDS:
                return False
        if len(self._known) > CACHE_LIMIT:
            self._known.clear()
        if len(self._refreshed) > CACHE_LIMIT:
            self._refreshed.clear()
        wrote = await self.store.set_member_name(key[0], key[1], shown, self.clock(), create=create)
        if create or wrote:
            self._known[key] = (shown, now)
        else:  # no stored name to refresh (or the same one): not asked again for a while
            self._refreshed[key] = (shown, now)
        if wrote:
            self.writes += 1
        return wrote

    async def names_of(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]:
        """The stored names of ``members`` on server ``guild_id`` (those without one left
        out): read from the store every time, so every process shows the same names."""
        wanted = [int(m) for m in members if int(m) > 0]
        if not wanted:
            return {}
        found = await self.store.member_names(guild_id or NO_GUILD, wanted)
        return found

    async def fill_names(self, guild_id: int | None, found: Mapping[int, str]) -> None:
        """Store names another source knew (the bot's member cache) that the store lacked."""
        for uid, name in found.items():
            await self.note_name(guild_id, uid, name)

    async def forget(self, user_id: int, guild_id: int | None = None) -> None:
        """A forget committed (the store deleted the member's names): drop them here too,
        so a board that shows them later stores their name again."""
        for cache in (self._known, self._refreshed):
            for key in [k for k in cache if k[1] == user_id and (guild_id is None or k[0] == guild_id)]:
                del cache[key]

"""Each member's language, remembered (issue 20 item 4): every interaction
carries the member's client locale; it is kept in their preferences (``locale``)
so what the bot sends them unasked (hidden cards by direct message, follower
messages, the "since your turn" catch-up) is in their language, also after a
restart and in another process.  Discord-free."""

from __future__ import annotations

from engine.i18n import LOCALES, normalise
from tables.rules.settings import Settings

#: members whose stored locale this process knows (user id -> locale); bounded
CACHE_LIMIT = 50_000


class MemberLocales:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._known: dict[int, str | None] = {}

    async def note(self, user_id: int, locale: str | None) -> bool:
        """Remember ``user_id``'s language as an interaction gave it; one write
        when it changed (returns whether it wrote)."""
        if not locale:
            return False
        lang = normalise(locale)
        if lang not in LOCALES or self._known.get(user_id) == lang:
            return False
        prefs = await self.settings.user(user_id)
        if len(self._known) > CACHE_LIMIT:
            self._known.clear()
        if prefs.get("locale") == lang:
            self._known[user_id] = lang
            return False
        # one atomic read-modify-write: a concurrent change of the member's other preferences survives
        await self.settings.store.update_user_prefs(user_id, lambda p: {**p, "locale": lang})
        self._known[user_id] = lang
        return True

    async def of(self, user_id: int) -> str | None:
        """The member's remembered language (None: never seen)."""
        if user_id in self._known:
            return self._known[user_id]
        lang = (await self.settings.user(user_id)).get("locale")
        if not (isinstance(lang, str) and lang in LOCALES):
            return None  # not cached: another process may learn it first
        self._known[user_id] = lang
        return lang

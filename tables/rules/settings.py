"""Server settings and each member's reminder preferences (Discord-free)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from store.ports import SettingsStore
from tables.rules.clocks import DEFAULT_CLOCKS
from tables.rules.notify import NotifyPolicy

#: server-settings defaults; every key is documented in the README (/settings)
DEFAULT_SETTINGS: dict[str, Any] = {
    "channels": [],  # allowed channel ids; empty = every channel
    "threads": {},  # game id -> open each new table in a thread
    "language": None,  # language of public messages; None = the acting user's
    "reminder": DEFAULT_CLOCKS["reminder"],  # minutes a seat may wait before the bot pings it (0 = never)
    "turn_timer": DEFAULT_CLOCKS["turn_timer"],  # minutes before the AI takes an absent seat's decision (0 = never)
    "options": {},  # game id -> default house-rule options
    "clock": "off",  # time-bank profile of new tables (tables/rules/clocks.py PROFILES); replaces the turn timer
    "clock_policy": "ai",  # when a bank runs out: "ai", "default" or "vote"
    "limits": {},  # caps on lobbies, threads and campaigns, lobby expiry (tables/rules/limits.py DEFAULT_LIMITS)
    "web": True,  # the web companion shows this server's tables (False: every page of it is "not found")
}


#: seconds a process trusts its cached copy of a server's settings: a change made by
#: another process (PostgreSQL, several shards) is seen within this time
SETTINGS_TTL = 30.0


class Settings:
    """Server settings (cached for :data:`SETTINGS_TTL` seconds; this process's own changes
    are seen at once) and user preferences."""

    def __init__(self, store: SettingsStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._cache: dict[int, tuple[float, dict[str, Any]]] = {}

    async def server_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return dict(DEFAULT_SETTINGS)
        hit = self._cache.get(guild_id)
        if hit is None or self.clock() - hit[0] > SETTINGS_TTL:
            stored = await self.store.guild_settings(guild_id)
            hit = self._cache[guild_id] = (self.clock(), {**DEFAULT_SETTINGS, **stored})
        return dict(hit[1])

    async def update_guild(self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Change a server's settings (the one way to: no replace-all, which would lose a
        change made meanwhile): ``change`` gets the stored settings (over the
        defaults) read in the write's own transaction, the row locked, and returns them
        changed; so two admins changing different settings at once both keep theirs
        (also across processes), and of two changing the same one the later wins.
        ``change`` may raise: nothing is written.  Returns the settings now in force."""

        def apply(stored: dict[str, Any]) -> dict[str, Any]:
            new = change({**DEFAULT_SETTINGS, **stored})
            return {k: v for k, v in new.items() if k in DEFAULT_SETTINGS}

        clean = await self.store.update_guild_settings(guild_id, apply)
        self._cache[guild_id] = (self.clock(), {**DEFAULT_SETTINGS, **clean})
        return {**DEFAULT_SETTINGS, **clean}

    async def public_language(self, guild_id: int | None, default: str) -> str:
        """The language of a server's public posts that belong to no table (leaderboards,
        league and campaign standings): its /settings language, else ``default`` (the
        bot's); never the language of the member who asked (docs/rulings.md)."""
        return (await self.server_settings(guild_id)).get("language") or default

    async def user(self, user_id: int) -> dict[str, Any]:
        return await self.store.user_prefs(user_id)

    async def set_user(self, user_id: int, prefs: dict[str, Any]) -> None:
        await self.store.set_user_prefs(user_id, prefs)

    async def update_user(self, user_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Change a member's preferences like :meth:`update_guild` (no lost update)."""
        return await self.store.update_user_prefs(user_id, change)


def in_quiet_hours(prefs: dict[str, Any], now: float) -> bool:
    """Whether ``now`` is in the member's quiet hours: their notification policy's
    (tables/rules/notify.py; local hours in their IANA zone, daylight saving followed)."""
    return NotifyPolicy.of(prefs).quiet_at(now)

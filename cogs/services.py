"""What the cogs share: the store, the clock, locale defaults, the render pool,
and the server settings (cached; this process is their only writer)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from store import Store

#: server-settings defaults; every key is documented in the README (/settings)
DEFAULT_SETTINGS: dict[str, Any] = {
    "channels": [],  # allowed channel ids; empty = every channel
    "threads": {},  # game id -> open each new table in a thread
    "language": None,  # language of public messages; None = the acting user's
    "reminder": 720,  # minutes a seat may wait before the bot pings it (0 = never)
    "turn_timer": 0,  # minutes before the AI takes an absent seat's decision (0 = never)
    "options": {},  # game id -> default house-rule options
}


@dataclass
class Services:
    store: Store
    default_locale: str = "en"
    clock: Callable[[], float] = time.time
    executor: Executor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=2, thread_name_prefix="render"))
    max_ai_steps: int = 2000
    _settings: dict[int, dict[str, Any]] = field(default_factory=dict)

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return dict(DEFAULT_SETTINGS)
        if guild_id not in self._settings:
            stored = await self.store.guild_settings(guild_id)
            self._settings[guild_id] = {**DEFAULT_SETTINGS, **stored}
        return dict(self._settings[guild_id])

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        clean = {k: v for k, v in settings.items() if k in DEFAULT_SETTINGS}
        await self.store.set_guild_settings(guild_id, clean)
        self._settings[guild_id] = {**DEFAULT_SETTINGS, **clean}

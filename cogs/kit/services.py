"""What the cogs share: the store, the table service, the clock, locale
defaults, the render pool and the server settings."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

from engine.locales import DEFAULT
from store import Store
from tables import DEFAULT_SETTINGS, FloodGate, LeagueService, MemberLocales, Settings, TableService

__all__ = ["DEFAULT_SETTINGS", "Services", "services_of"]


@dataclass
class Services:
    store: Store
    default_locale: str = DEFAULT
    clock: Callable[[], float] = time.time
    executor: Executor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=2, thread_name_prefix="render"))
    max_ai_steps: int = 2000
    flood: FloodGate | None = field(default_factory=FloodGate)  # per-member rate of interactions (cogs/kit/flood.py)
    web_url: str = ""  # the web companion's public base URL (TG_WEB_URL); "" when there is none
    settings: Settings = field(init=False)
    tables: TableService = field(init=False)
    leagues: LeagueService = field(init=False)
    members: MemberLocales = field(init=False)  # each member's remembered language (their DMs)

    def __post_init__(self) -> None:
        self.settings = Settings(self.store, clock=self.clock)
        self.members = MemberLocales(self.settings)
        self.tables = TableService(
            self.store, self.executor, self.max_ai_steps, settings=self.settings, clock=self.clock
        )
        self.leagues = LeagueService(self.tables)


def services_of(client: object) -> Services:
    """The bot's services (bot.TabletopBot carries them), typed."""
    services = getattr(client, "services", None)
    if not isinstance(services, Services):
        raise TypeError(f"{type(client).__name__} carries no Services")
    return services

"""What the database-driven background cogs share (the scheduler, followers):
a loop that calls ``tick(now)`` every ``interval`` seconds with the bot's
clock once the bot is ready, started when the cog loads (unless the bot's
config turns the scheduler off, as tests do to drive ``tick`` themselves) and
stopped when it unloads.  A failing pass is logged and the next one runs."""

from __future__ import annotations

import logging
from typing import Any, cast

from discord.ext import commands, tasks

from .boards import Boards
from .services import Services


class Periodic:
    """Mixin for a ``commands.Cog`` whose work is one ``tick(now)`` pass."""

    interval: float = 60.0
    log: logging.Logger

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tables = services.tables
        self.boards = Boards(bot, services)
        self.loop_task = tasks.loop(seconds=self.interval)(self._loop)

    async def tick(self, now: float) -> Any:
        raise NotImplementedError

    async def cog_load(self) -> None:
        if getattr(cast(Any, self.bot).config, "scheduler", True):
            self.loop_task.start()

    async def cog_unload(self) -> None:
        self.loop_task.cancel()

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.tick(self.services.clock())
        except Exception:
            self.log.exception("%s pass failed", type(self).__name__)

"""What the database-driven background cogs share (the scheduler, followers):
a loop that runs one pass every ``interval`` seconds once the bot is ready,
started when the cog loads (unless the bot's config turns the scheduler off, as
tests do to drive ``tick`` themselves) and stopped when it unloads.  A failing
pass is logged and the next one runs.

A pass (:meth:`Periodic.run_pass`) is guarded before its ``tick(now)``: when the
wall clock jumped further than the time that really passed explains (forward or
back), or the database became unavailable, the pass does nothing.  The loop
sleeps on the event loop's steady clock, so a wall-clock jump neither bunches
passes nor stalls them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, cast

from discord.ext import commands

from cogs.kit.services import Services
from cogs.present.board_posts import Boards
from store import StoreUnavailable
from tables import WallClock, steady_clock


class Periodic:
    """Mixin for a ``commands.Cog`` whose work is one ``tick(now)`` pass."""

    interval: float = 60.0
    log: logging.Logger
    #: seconds that really passed (tests set a clock they control)
    steady: Callable[[], float] = staticmethod(steady_clock)

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tables = services.tables
        self.boards = Boards(bot, services)
        self.wall = WallClock(tolerance=self.interval)
        self.loop_task: asyncio.Task | None = None

    async def tick(self, now: float) -> Any:
        raise NotImplementedError

    async def run_pass(self) -> Any:
        """One guarded pass: None when it was skipped, else what ``tick`` returned."""
        now = self.services.clock()
        drift = self.wall.jump(now, self.steady())
        if drift is not None:
            self.log.warning(
                "%s pass skipped: the wall clock moved %s by %.0f s more than the time that passed; nothing "
                "expires until it is explained (back to the old time, or keeping the new one %.0f min)",
                type(self).__name__,
                "forward" if drift > 0 else "back",
                abs(drift),
                self.wall.settle / 60,
            )
            return None
        try:
            await self.tables.check()
        except StoreUnavailable:
            return None  # the store said why, once
        return await self.tick(now)

    async def cog_load(self) -> None:
        if getattr(cast(Any, self.bot).config, "scheduler", True):
            self.loop_task = asyncio.create_task(self._loop(), name=f"{type(self).__name__} passes")

    async def cog_unload(self) -> None:
        if self.loop_task is not None:
            self.loop_task.cancel()

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.run_pass()
            except Exception:
                self.log.exception("%s pass failed", type(self).__name__)
            await asyncio.sleep(self.interval)

"""Reminders and turn timers, scheduled from the database (never from
in-memory sleeps), so they survive restarts.

``Scheduler.tick(now)`` does one pass; a background loop calls it every
``INTERVAL`` seconds with the bot's clock, and tests call it directly with a
clock they control.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord.ext import commands, tasks

from engine.i18n import t
from store import GameRow

from .pipeline import TurnRefused
from .services import Services

log = logging.getLogger("tabletop.scheduler")
INTERVAL = 60.0


def in_quiet_hours(prefs: dict[str, Any], now: float) -> bool:
    """``prefs["quiet"] = [start_hour, end_hour]`` in the user's local time
    (``prefs["utc_offset"]`` hours); the range may wrap past midnight."""
    quiet = prefs.get("quiet")
    if not quiet or len(quiet) != 2:
        return False
    start, end = int(quiet[0]) % 24, int(quiet[1]) % 24
    if start == end:
        return False
    local = datetime.fromtimestamp(now, UTC) + timedelta(hours=float(prefs.get("utc_offset", 0)))
    h = local.hour
    return start <= h < end if start < end else (h >= start or h < end)


class Scheduler(commands.Cog):
    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.store = services.store
        self.loop_task = tasks.loop(seconds=INTERVAL)(self._loop)

    async def cog_load(self) -> None:
        if getattr(self.bot.config, "scheduler", True):
            self.loop_task.start()

    async def cog_unload(self) -> None:
        self.loop_task.cancel()

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.tick(self.services.clock())
        except Exception:
            log.exception("scheduler pass failed")

    @property
    def tables(self):
        return self.bot.get_cog("Tables")

    async def tick(self, now: float) -> dict[str, int]:
        """One pass over every waiting table; returns counts (for logs and tests)."""
        counts = {"reminders": 0, "timeouts": 0, "failed": 0}
        for row in await self.store.waiting_tables():
            try:
                await self._visit(row, now, counts)
            except Exception:  # one broken table (deleted channel, lost permission) must not stop the others
                counts["failed"] += 1
                log.exception("scheduler: table %s", row.id)
        return counts

    async def _visit(self, row: GameRow, now: float, counts: dict[str, int]) -> None:
        humans = [(seat, row.user_of(seat)) for seat in row.to_act if row.user_of(seat) is not None]
        if not humans:
            return
        settings = await self.services.guild_settings(row.guild_id)
        timer = float(row.table.get("turn_timer", settings["turn_timer"]) or 0)
        remind = float(row.table.get("reminder", settings["reminder"]) or 0)
        started = row.turn_started_at or row.updated_at
        if timer and now >= started + timer * 60:
            counts["timeouts"] += await self.expire(row, humans)
            return
        if (
            remind
            and now >= started + remind * 60
            and (row.last_reminder_at is None or now >= row.last_reminder_at + remind * 60)
        ):
            counts["reminders"] += await self.remind(row, humans, now)

    async def _channel(self, row: GameRow):
        channel = self.bot.get_channel(row.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(row.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of table %s is gone", row.channel_id, row.id)
                return None
        return channel

    async def remind(self, row: GameRow, humans: list[tuple[str, int]], now: float) -> int:
        awake = []
        for _, uid in humans:
            if not in_quiet_hours(await self.store.user_prefs(uid), now):
                awake.append(uid)
        if not awake:
            return 0  # everyone asleep: try again on a later pass
        channel = await self._channel(row)
        if channel is None:
            return 0
        locale = await self.tables.public_locale_of(row)
        waited = int((now - (row.turn_started_at or now)) // 3600)
        await channel.send(
            t("core.ui.reminder", locale, users=" ".join(f"<@{u}>" for u in awake), id=row.id, hours=waited),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        await self.store.mark_reminded(row.id, now)
        return len(awake)

    async def expire(self, row: GameRow, humans: list[tuple[str, int]]) -> int:
        """The turn timer ran out: the seat-filler AI (or the game's default,
        e.g. a pass) takes each waiting seat's decision, announced in the channel."""
        done = 0
        for seat, uid in humans:
            try:
                result = await self.tables.pipeline.act(
                    row.id, None, lambda g, st, s, legal: g.default_action(st, s), seat=seat
                )
            except TurnRefused as exc:
                log.info("timer on table %s seat %s: %s", row.id, seat, exc.code)
                continue
            done += 1
            channel = await self._channel(row)
            if channel is not None:
                locale = await self.tables.public_locale_of(row)
                await self.tables.post_board_to(
                    channel, result, locale, note=t("core.ui.timed_out", locale, user=f"<@{uid}>", seat=seat)
                )
        return done


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot, bot.services))

"""Reminders and turn timers, scheduled from the database (never from
in-memory sleeps), so they survive restarts.

``Scheduler.tick(now)`` does one pass: the table service says what is due
(:meth:`tables.TableService.due`) and makes the changes; this cog only posts.
A background loop calls it every ``INTERVAL`` seconds with the bot's clock,
and tests call it directly with a clock they control.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord.ext import commands

from cogs.present.lobby_view import lobby_embed
from cogs.present.periodic import Periodic
from cogs.present.ui import allowed_mentions
from cogs.present.vote_posts import post_vote, shown
from engine import get_game
from engine.i18n import t
from store import GameRow
from tables import Due, TurnRefused, in_quiet_hours

__all__ = ["INTERVAL", "Scheduler", "in_quiet_hours"]

log = logging.getLogger("tabletop.scheduler")
INTERVAL = 60.0


class Scheduler(Periodic, commands.Cog):
    interval = INTERVAL
    log = log

    async def tick(self, now: float) -> dict[str, int]:
        """One pass over every waiting table; returns counts (for logs and tests)."""
        counts = {"reminders": 0, "timeouts": 0, "failed": 0, "lobbies_expired": 0}
        for row, message_id in await self.tables.expire_lobbies(now):
            counts["lobbies_expired"] += 1
            try:
                await self.lobby_expired(row, message_id)
            except Exception:  # the lobby is closed either way; only showing it failed
                log.exception("scheduler: expired lobby %s", row.id)
        for due in await self.tables.due(now):
            try:
                if due.kind == "timeout":
                    counts["timeouts"] += await self.expire(due)
                elif due.kind == "order":
                    await self.order_due(due)
                else:
                    counts["reminders"] += await self.remind(due, now)
            except Exception:  # one broken table (deleted channel, lost permission) must not stop the others
                counts["failed"] += 1
                log.exception("scheduler: table %s", due.row.id)
        return counts

    async def lobby_expired(self, row: GameRow, message_id: int | None) -> None:
        """Say on the lobby's message that it expired (its buttons go: the channel is free)."""
        channel = await self.boards.channel_of(row)
        if channel is None or message_id is None:
            return
        locale = await self.boards.public_locale_of(row)
        hours = ((row.outcome or {}).get("reason") or {}).get("params", {}).get("hours", "")
        try:
            await channel.get_partial_message(message_id).edit(
                content=t("asyncplay.lobby_expired", locale, hours=hours),
                embed=lobby_embed(row, get_game(row.game), locale),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:  # the message was deleted: nothing to show it on
            log.info("expired lobby %s: message %s not edited (%s)", row.id, message_id, exc)

    async def remind(self, due: Due, now: float) -> int:
        row = due.row
        channel = await self.boards.channel_of(row)
        if channel is None:
            return 0
        if not await self.tables.claim_reminder(row, now):
            return 0  # the table moved on, or this reminder was already sent
        waited = int((now - (row.turn_started_at or now)) // 3600)
        try:
            await channel.send(
                await self.boards.reminder_text(row, due.users, waited),
                allowed_mentions=allowed_mentions(due.users),
            )
        except BaseException:
            await self.tables.release_reminder(row, now)  # not sent: still due on a later pass
            raise
        return len(due.users)

    async def expire(self, due: Due) -> int:
        """The turn timer (or time bank) of exactly the decision ``due`` saw ran out:
        the table's policy applies to each seat whose time ran out (the seat-filler
        AI or the game's default, e.g. a pass, takes its decision; or the others
        may vote it to the AI), announced in the channel."""
        if due.policy == "vote":
            return await self.expiry_vote(due)
        try:
            result, seats = await self.tables.timeout(
                due.row.id, due.row.version, [s for s, _ in due.seats], due.policy
            )
        except TurnRefused as exc:
            log.info("timer on table %s: %s", due.row.id, exc.code)
            return 0
        # the board and its note ("time ran out for @name") go out through the outbox: posted now,
        # else by the scheduler of any process as soon as Discord takes it
        await self.boards.deliver(result, retire=True)  # the older boards lose their buttons
        await self.boards.push_private(result)
        return len(seats)

    async def order_due(self, due: Due) -> None:
        """A standing order's delayed step fell due (tables/play/orders.py): the autopilot
        takes it; its board goes out like any turn's."""
        result = await self.tables.orders_due(due.row.id)
        if result is not None:
            await self.boards.deliver(result, retire=True)
            await self.boards.push_private(result)

    async def expiry_vote(self, due: Due) -> int:
        """Policy "vote": the other players are asked, once, whether the seat goes to the AI now."""
        try:
            opened = await self.tables.expiry_votes(due.row.id, due.row.version, [s for s, _ in due.seats])
        except TurnRefused as exc:
            log.info("bank vote on table %s: %s", due.row.id, exc.code)
            return 0
        if not opened:
            return 0
        for o in opened:  # each question is owed by the commit that opened it (cogs/present/vote_posts.py)
            try:
                await post_vote(self.boards, o.vote.id, look=False)
            except Exception as exc:  # noqa: BLE001 -- Discord down: the outbox posts it when it is back
                log.info("bank vote %s not posted yet (%s: %s)", o.vote.id, type(exc).__name__, exc)
                continue
            await shown(self.boards, o.vote.id)
        return len(opened)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot, cast(Any, bot).services))

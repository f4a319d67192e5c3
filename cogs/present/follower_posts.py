"""Spectators: members who ``/game follow`` a table hear of it in a private message,
a short summary of each turn or a daily digest, with the public board; never
hidden information (only events everyone sees, the board as no seat sees it).

Driven from the database like the scheduler: each follow remembers the table
version it last heard of, so a delivery is claimed once (also across processes)
and survives restarts.  ``Following.tick(now)`` does one pass; tests call it.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord.ext import commands

from cogs.present.periodic import Periodic
from cogs.present.ui import board_file, clip, game_name
from engine.i18n import t
from tables import secrecy

log = logging.getLogger("tabletop.following")
INTERVAL = 60.0
DIGEST_SECONDS = 86400.0
SUMMARY_LINES = 8


class Following(Periodic, commands.Cog):
    interval = INTERVAL
    log = log

    async def tick(self, now: float) -> int:
        """Send every delivery that is due; returns how many were sent."""
        sent = 0
        for follow, row, game, state in await self.tables.follow_updates(now, DIGEST_SECONDS):
            if not await self.tables.follow_sent(row.id, follow.user_id, row.version, follow.sent_version, now):
                continue  # another pass or process took it
            try:
                await self._send(follow, row, game, state)
                sent += 1
            except Exception:
                # not delivered (DMs closed, Discord down): give it back, it stays due
                await self.tables.follow_sent(row.id, follow.user_id, follow.sent_version, row.version, follow.sent_at)
                log.exception("follower %s of table %s", follow.user_id, row.id)
        return sent

    async def _send(self, follow, row, game, state) -> None:
        # the follower's own language (remembered from their interactions), else the table's
        locale = await self.services.members.of(follow.user_id) or await self.boards.public_locale_of(row)
        recent = await self.tables.recent_actions(row.id, 50)
        new = secrecy.visible(game, [a for a in recent if a.version > follow.sent_version], None)
        # the public board (no seat's hidden view), players by name and seat colour, as in the channel
        steps = [(a.seat, game.load_events(a.events), "player") for a in new]
        b = await self.boards.board(row, None, locale, state=(game, state), steps=steps, live=False)
        lines = [text for step in b.happened for _, text in step.lines]  # public events only
        lines = lines[-SUMMARY_LINES:]
        summary = b.summary
        name = game_name(row.game, locale)
        if row.status != "active":
            head = t("asyncplay.follow_over", locale, id=row.id, game=name, summary=summary)
        elif follow.mode == "digest":
            head = t(
                "asyncplay.follow_digest",
                locale,
                id=row.id,
                game=name,
                channel=row.channel_id,
                n=len(new),
                summary=summary,
            )
        else:
            head = t("asyncplay.follow_turn", locale, id=row.id, game=name, channel=row.channel_id, summary=summary)
        assert b.image is not None
        png = await b.image()
        user = self.bot.get_user(follow.user_id) or await self.bot.fetch_user(follow.user_id)
        await user.send(
            clip("\n".join([head, *lines]), 2000),
            file=board_file(png, b.describe() if b.describe is not None else None),
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Following(bot, cast(Any, bot).services))

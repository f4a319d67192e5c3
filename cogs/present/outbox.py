"""The outbox's delivery loop: every committed change's board (and its pings and
notices) is recorded with the change (store/base.py, "The outbox"); the process
that made the change shows it at once, and whatever Discord did not confirm -- an
outage, a lost reply, a process killed -- is delivered here, by whichever process
claims it first, with a growing wait between tries (tables.play.delivery.BACKOFF).

Each board is posted with its own nonce (``enforce_nonce``), so a repeat gives
back the first message: nobody is pinged twice.  Only a table's newest board is
owed; a superseded one is dropped, never posted.  ``Outbox.tick(now)`` does one
pass; tests call it with a clock they control.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from discord.ext import commands

from cogs.present.periodic import Periodic
from cogs.present.vote_posts import deliver_message

log = logging.getLogger("tabletop.outbox")
INTERVAL = 10.0


class Outbox(Periodic, commands.Cog):
    interval = INTERVAL
    log = log

    async def tick(self, now: float) -> dict[str, int]:
        """One pass over the deliveries that are due; returns counts (for logs and tests)."""
        counts = {"delivered": 0, "failed": 0, "skipped": 0}
        for owed in await self.tables.due_deliveries(now):
            try:
                delivery = await self.tables.claim_delivery(owed, now)
                if delivery is None:  # another process took it, or the table moved on without it
                    counts["skipped"] += 1
                    continue
                if await self.boards.deliver(delivery.result, retire=True):
                    counts["delivered"] += 1
                else:
                    counts["failed"] += 1
            except Exception:  # one table's trouble (a store hiccup) must not stop the others
                counts["failed"] += 1
                log.exception("outbox: table %s", owed.game_id)
        for message in await self.tables.due_messages(now):  # votes' questions (cogs/present/vote_posts.py)
            claimed = await self.tables.claim_message(message, now)
            if claimed is None:
                counts["skipped"] += 1
            elif await deliver_message(self.boards, claimed):
                counts["delivered"] += 1
            else:
                counts["failed"] += 1
        return counts


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Outbox(bot, cast(Any, bot).services))

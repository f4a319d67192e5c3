"""A board that may have been posted already (issue 28 item 13).

Discord answers a repeated nonce with the first message only for a few minutes;
a delivery tried again later (an outage over about 5 minutes, a process killed
after the post and down longer than that) must not post a second board and ping
again.  The outbox row remembers the message a board was posted as, once Discord
said so (:meth:`tables.TableService.posted`); when the answer was lost, the
channel's recent messages tell: a message of the bot whose buttons name the table
at that version is that board.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.kit.ids import decode
from engine.i18n import t
from tables import TurnResult, delivery_nonce

log = logging.getLogger("tabletop.boards")

#: how many of the channel's latest messages are looked at for a board already posted
LOOK_BACK = 25


def board_version(message: discord.Message, gid: int) -> int | None:
    """The version of table ``gid`` whose board ``message`` is (its choices name it)."""
    found: list[int] = []

    def walk(components: Any) -> None:
        for c in components or ():
            known = decode(getattr(c, "custom_id", None))
            if known is not None and getattr(known, "gid", None) == gid and hasattr(known, "ver"):
                found.append(int(known.ver))
            walk(getattr(c, "children", None))
            acc = getattr(c, "accessory", None)
            if acc is not None:
                walk([acc])

    walk(message.components)
    return max(found) if found else None


async def already_posted(client: discord.Client, channel: Any, gid: int, version: int) -> int | None:
    """The id of the bot's board of table ``gid`` at ``version`` among the channel's
    latest messages (None: not posted, as far as can be seen).  Discord failing
    raises, like the post it stands before."""
    me = client.user
    if me is None:
        return None
    async for message in channel.history(limit=LOOK_BACK):
        if message.author.id == me.id and board_version(message, gid) == version:
            return int(message.id)
    return None


async def post_owed(boards: Any, channel: Any, result: TurnResult) -> int:
    """Post what ``result`` owes its channel (:class:`cogs.present.board_posts.Boards` words it) with
    its nonce, and remember the message; a store failing now is only logged (the
    channel's latest messages still show it was posted)."""
    row = result.row
    locale = await boards.public_locale_of(row)
    note = await boards.note_text(result, locale)
    nonce = delivery_nonce(row.id, row.version)
    if result.kind == "notice":
        text = note or t("core.ui.table_closed", locale)
        sent = await channel.send(text, nonce=nonce, allowed_mentions=discord.AllowedMentions.none())
    else:
        sent = await channel.send(**await boards.message(result, locale, note), nonce=nonce)
    try:
        await boards.tables.posted(row.id, row.version, sent.id)
    except Exception as exc:  # noqa: BLE001
        log.warning("table %s: board %s posted, not remembered (%s)", row.id, row.version, exc)
    return int(sent.id)

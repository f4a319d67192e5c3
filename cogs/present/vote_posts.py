"""A vote's question in the channel, owed like a board (issue 28 item 12).

Opening a vote (an undo that needs consent, a hand-over, a time bank's expiry vote)
records its message in the outbox in the same commit (``outbox_messages``,
"vote:<id>").  The process that opened it posts it at once and marks it done;
whatever Discord did not confirm -- an outage, a lost reply, a process killed --
is posted by the ``Outbox`` cog of whichever process claims it first, with the
vote's own nonce, after looking at the channel's latest messages for one already
posted (so nobody is asked, or pinged, twice).  A vote that closed meanwhile is
not posted.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.kit import ids
from cogs.kit.components import VoteButton
from cogs.present.private_posts import deliver_dm
from cogs.present.ui import allowed_mentions, seat_tag
from engine.i18n import t
from store import OwedMessage, Vote
from tables import TurnRefused, escape

log = logging.getLogger("tabletop.outbox")

#: how many of the channel's latest messages are looked at for a question already posted
LOOK_BACK = 25


def vote_key(vote_id: int) -> str:
    """The outbox key of a vote's question."""
    return f"vote:{vote_id}"


def vote_view(vid: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(vid, "yes", label=t("core.ui.agree", locale)))
    view.add_item(VoteButton(vid, "no", label=t("core.ui.refuse", locale)))
    return view


async def vote_message(boards: Any, vote: Vote) -> dict[str, Any] | None:
    """The question of an open vote, worded as when it was opened (None: no table)."""
    try:
        row = await boards.tables.row(vote.game_id)
    except TurnRefused:
        return None
    if row is None:
        return None
    locale = await boards.public_locale_of(row)
    p = vote.payload
    voters = " ".join(f"<@{u}>" for u in vote.voters)
    if vote.kind == "undo":
        text = t("play.vote.undo", locale, user=f"<@{p.get('user')}>", voters=voters)
        mentions = allowed_mentions(vote.voters)
    else:
        seat, owner, to = str(p.get("seat")), p.get("owner"), p.get("to")
        labels = await boards.labels(row, locale)
        if p.get("expired"):
            name = escape(labels[seat].name) if seat in labels else "?"
            needed = p.get("needed")
            text = t("asyncplay.expired_vote", locale, user=f"<@{owner}>", seat=name, voters=voters, needed=needed)
        else:
            who = f"<@{to}>" if to else t("core.ui.ai", locale)
            tag = seat_tag(row, labels, seat)
            text = t("core.ui.handover_vote", locale, user=f"<@{vote.created_by}>", seat=tag, who=who, voters=voters)
            if owner is not None:
                text += "\n" + t("discord.table.owner_may_refuse", locale, owner=f"<@{owner}>", needed=p.get("needed"))
        mentions = allowed_mentions([u for u in (*vote.voters, owner, to) if u])
    return {"content": text, "view": vote_view(vote.id, locale), "allowed_mentions": mentions}


def asks(message: discord.Message, vote_id: int) -> bool:
    """Whether ``message`` carries the buttons of vote ``vote_id``."""
    found: list[bool] = []

    def walk(components: Any) -> None:
        for c in components or ():
            known = ids.decode(getattr(c, "custom_id", None))
            if isinstance(known, ids.Vote) and known.vid == vote_id:
                found.append(True)
            walk(getattr(c, "children", None))

    walk(message.components)
    return bool(found)


async def post_vote(boards: Any, vote_id: int, *, look: bool) -> bool:
    """Post vote ``vote_id``'s question in its table's channel unless it is closed, or
    already there (``look``: an earlier try may have posted it).  True: the outbox may
    forget it.  Discord failing raises."""
    vote = await boards.tables.vote(vote_id)
    if vote is None or vote.status != "open":
        return True
    parts = await vote_message(boards, vote)
    if parts is None:
        return True
    row = await boards.tables.row(vote.game_id)
    channel: Any = boards.client.get_channel(row.channel_id)
    if channel is None:
        try:
            channel = await boards.client.fetch_channel(row.channel_id)
        except (discord.NotFound, discord.Forbidden):
            log.warning("vote %s: channel %s is gone; its question is dropped", vote_id, row.channel_id)
            return True
    me = boards.client.user
    if look and me is not None:
        async for message in channel.history(limit=LOOK_BACK):
            if message.author.id == me.id and asks(message, vote_id):
                return True
    await channel.send(**parts, nonce=f"tv{vote_id}")
    return True


async def deliver_message(boards: Any, owed: OwedMessage) -> bool:
    """One claimed owed message (the Outbox cog's pass): posted and forgotten, or kept
    for a later try after the backoff.  Never raises; False: not posted."""
    try:
        if owed.kind == "vote":
            await post_vote(boards, owed.ref, look=True)
        else:  # a member's private message (cogs/present/private_posts.py): forgotten once sent
            await deliver_dm(boards, owed)
            return True
        await boards.tables.message_done(owed.key)
        return True
    except Exception as exc:  # noqa: BLE001 -- Discord down or refusing, the store unreachable
        log.warning("outbox: %s not posted (%s: %s); tried again later", owed.key, type(exc).__name__, exc)
        try:
            await boards.tables.message_failed(owed.key, owed.attempts)
        except Exception:  # noqa: BLE001 -- the lease runs out on its own
            pass
        return False


async def shown(boards: Any, vote_id: int) -> None:
    """The vote's question was posted another way (an interaction's followup): forgotten."""
    try:
        await boards.tables.message_done(vote_key(vote_id))
    except Exception as exc:  # noqa: BLE001 -- the lease runs out; the repost looks first
        log.warning("vote %s: posted, outbox not cleared (%s)", vote_id, exc)

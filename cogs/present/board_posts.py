"""Posting boards: shared by the cogs that tell a channel about a table
(turns, timers, votes).  Not a cog itself, so cogs never reach each other.

:class:`Boards` is the whole of it, built up by concern: who is who
(cogs/kit/names.py), message surgery (cogs/present/surgery.py), the board message
(cogs/present/board_message.py: every board is built there, by
:meth:`~cogs.present.board_message.BoardMessages.message`), notices
(cogs/present/notices.py), and here what a committed change owes: the outbox's
delivery (:meth:`Boards.deliver`, from the interaction at once or later by the
scheduler; store/base.py) and the private messages hidden information owes its owners.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.kit.locale import failure_key
from cogs.present.notices import Notices
from cogs.present.private_posts import push_private
from cogs.present.reposts import already_posted, post_owed
from store import landed
from tables import TableService, TurnResult, delivery_nonce

log = logging.getLogger("tabletop.boards")


async def truth_key(tables: TableService, error: BaseException | None = None) -> str:
    """The catalog key that tells a member the truth after an unexpected failure
    ``error`` in their interaction: nothing was changed (:func:`cogs.kit.locale.failure_key`:
    our fault, or the database unavailable); or their change was saved (a move counts,
    and its board goes out through the outbox: the scheduler takes it at once); or
    whether it was saved is not known (the database stopped answering during the
    commit).  ``store.landed()`` says what this interaction's last commit did."""
    state = landed()
    if state is None:
        return failure_key(error)
    if state[0] == "unknown":
        return "discord.table.commit_unknown"
    gid, version = state[1], state[2]
    if gid is None or version is None:
        return "discord.table.saved_not_shown"
    try:
        if not await tables.still_owed(gid, version):
            return "discord.table.saved_not_shown"
        await tables.delivery_failed(gid, version)  # the scheduler posts it after the first wait
    except Exception:  # noqa: BLE001 -- the store is down too: the lease runs out on its own
        log.warning("table %s: outbox not updated after a failure", gid)
    return "discord.table.saved_pending"


class Boards(Notices):
    async def confirmed(self, result: TurnResult) -> None:
        """The change was shown another way (a board redrawn in place, a private panel):
        the outbox forgets it.  A store that fails now is only logged: the lease runs out
        and the board is posted by the scheduler."""
        try:
            await self.tables.delivered(result.row.id, result.row.version)
        except Exception as exc:  # noqa: BLE001
            log.warning("table %s: shown, outbox not cleared (%s: %s)", result.row.id, type(exc).__name__, exc)

    async def not_shown(self, result: TurnResult) -> None:
        """The change could not be shown another way: the scheduler posts its board soon."""
        try:
            await self.tables.delivery_failed(result.row.id, result.row.version)
        except Exception as exc:  # noqa: BLE001 -- the lease runs out on its own
            log.warning("table %s: outbox not updated (%s: %s)", result.row.id, type(exc).__name__, exc)

    async def deliver(self, result: TurnResult, *, retire: bool = True, also: int | None = None) -> bool:
        """Show a committed change in its table's channel: the board (with its pings
        and the change's notices) or, for a table that ended without one, the notices.
        Posted with the board's own nonce (``enforce_nonce``), so a repeat -- a retry
        after a lost reply, another process -- gives back the first message and pings
        nobody twice.  Confirmed: the outbox forgets it.  Refused or failed: the outbox
        keeps it and the scheduler tries again after the backoff.  Nothing to do (True)
        when a newer change owes a newer board or this one was shown already (a
        superseded board is never posted).  ``retire``: the table's older boards
        lose their buttons once this one is posted (exactly one live board per table:
        ``also``, the board the change was made from, if it is older than the recent
        messages looked at); the outbox forgets the change only then, so a Discord
        outage between the post and the retirement is finished by the scheduler, which
        never posts a board twice (cogs/present/reposts.py).  Never raises; False: not shown."""
        row = result.row
        try:
            owed = await self.tables.owed_now(row.id, row.version)
            if owed is None:
                return True
            channel: Any = self.client.get_channel(row.channel_id)
            if channel is None:
                try:
                    channel = await self.client.fetch_channel(row.channel_id)
                except (discord.NotFound, discord.Forbidden):  # the channel is gone: nobody can be shown it
                    log.warning("table %s: channel %s is gone; its board is dropped", row.id, row.channel_id)
                    await self.tables.delivered(row.id, row.version)
                    return False
            sent_id = owed.message_id  # posted by an earlier try: never again (cogs/present/reposts.py)
            if sent_id is None and owed.attempts > 0 and result.kind != "notice":
                sent_id = await already_posted(self.client, channel, row.id, row.version)
            if sent_id is None:
                sent_id = await post_owed(self, channel, result)
        except Exception as exc:  # Discord down or refusing, the store unreachable, a render failing
            try:
                await self.tables.delivery_failed(row.id, row.version)
            except Exception:  # noqa: BLE001 -- the lease runs out and the scheduler takes it
                log.warning("table %s: outbox not updated after a failed delivery", row.id)
            log.warning(
                "table %s: the board of version %s was not shown (%s: %s); the scheduler will try again",
                row.id,
                row.version,
                type(exc).__name__,
                exc,
            )
            return False
        retired = not retire or await self.retire_others(row, sent_id, also)
        try:
            if retired:
                await self.tables.delivered(row.id, row.version)
            else:  # posted, an older board still live: the scheduler finishes it
                await self.tables.delivery_failed(row.id, row.version)
        except Exception:  # noqa: BLE001 -- posted; a repeat gives back the same message (nonce)
            log.warning("table %s: board %s posted, outbox not updated", row.id, row.version)
        return True

    async def push_private(self, result: TurnResult, *, skip: int | None = None, start: bool = False) -> int:
        """Hidden information reaches its owner unasked: every human seat's own
        private events of this result (cards dealt, a secret draw) go to its
        member by direct message, in their language (``skip``: the member who
        is told in the interaction itself); ``start``: the game has just
        started, so each also gets what their seat holds (its private summary:
        cards dealt when the table was set up).  Each is owed through the outbox
        (cogs/present/private_posts.py): what Discord does not take now is sent later.
        A member who closed their DMs keeps the board's "My view" button.
        Returns the messages sent."""
        return await push_private(self, result, skip=skip, start=start)

    async def post_to(self, channel, result: TurnResult, locale: str | None = None, note: str | None = None):
        """A board as an ordinary channel message (a league table's first board in its thread),
        with its nonce; once posted, the outbox forgets it (so it is not posted twice)."""
        nonce = delivery_nonce(result.row.id, result.row.version)
        sent = await channel.send(**await self.message(result, locale, note), nonce=nonce)
        await self.confirmed(result)
        return sent

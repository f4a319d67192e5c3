"""Private messages a committed change owes its members (issue 28 item 12).

A change whose events are private to a seat (cards dealt, a secret draw), or a table
that starts with hands dealt, records one ``outbox_messages`` row per member in its
own commit ("dm:<table>:<version>:<member>"; kind "hand" when the table starts).  The
process that made the change sends them at once (:func:`push_private`) and marks each
done; whatever Discord did not take -- an outage, a process killed -- the ``Outbox``
cog of whichever process claims it sends later (:func:`deliver_dm`), worded from the
log of that version (and, for a hand, what the seat holds now).  A member who closed
their DMs keeps the board's "My view" button: their row is done, not retried.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import discord

from cogs.present.ui import board_link, clip, event_lines, msg_text, where
from engine.base import BaseState, Event, Game
from engine.i18n import t
from store import GameRow, OwedMessage
from tables import TurnRefused, TurnResult, escape, order_noticed, order_notices

log = logging.getLogger("tabletop.boards")


def dm_key(game_id: int, version: int, user_id: int) -> str:
    return f"dm:{game_id}:{version}:{user_id}"


def dm_nonce(key: str) -> str:
    """The nonce of an owed DM (at most 25 characters)."""
    return "td" + hashlib.sha256(key.encode()).hexdigest()[:23]


async def dm_text(
    boards: Any,
    row: GameRow,
    game: Game,
    state: BaseState,
    uid: int,
    own: list[Event],
    hand: Any,
    fallback: str,
    version: int | None = None,
) -> str:
    locale = await boards.language_of(uid) or fallback
    labels = await boards.labels(row, locale)
    head = t("discord.private.head", locale, where=where(row, game, state, locale, labels))
    lines = event_lines(game, own, locale, labels)
    # the member's standing orders that switched themselves off with this change, and why
    lines += [escape(x, 500) for x in order_notices(row, uid, row.version if version is None else version, locale)]
    if hand is not None:  # the game starts: what each seat holds (dealt before any event)
        lines.append(msg_text(hand, locale, labels))
    body = "\n".join(dict.fromkeys(lines))
    return clip(f"{head}\n{body}\n{board_link(row)}", 2000)


async def send_dm(boards: Any, key: str, uid: int, text: str) -> bool:
    """Send one owed DM and forget it; DMs closed: forgotten too (My view has it).
    False: Discord failed (the outbox tries again after the backoff)."""
    try:
        user = boards.client.get_user(uid) or await boards.client.fetch_user(uid)
        await user.send(text, nonce=dm_nonce(key))  # a repeat within Discord's window gives back the first
    except discord.Forbidden as exc:
        log.info("%s: not sent by DM (%s); My view has it", key, exc)
    except (discord.HTTPException, OSError, TimeoutError) as exc:
        log.info("%s: not sent by DM yet (%s: %s); the outbox tries again", key, type(exc).__name__, exc)
        return False
    await done(boards, key)
    return True


async def done(boards: Any, key: str) -> None:
    try:
        await boards.tables.message_done(key)
    except Exception as exc:  # noqa: BLE001 -- the lease runs out; a repeat is one more DM, not a lost one
        log.warning("%s: sent, outbox not cleared (%s)", key, exc)


async def push_private(boards: Any, result: TurnResult, *, skip: int | None = None, start: bool = False) -> int:
    """Hidden information reaches its owner unasked (see :meth:`cogs.present.board_posts.Boards.push_private`)."""
    row, game = result.row, result.game
    sent = 0
    table_locale = await boards.public_locale_of(row)
    for seat in row.seats:
        uid = seat.user_id
        if uid is None:
            continue
        key = dm_key(row.id, row.version, uid)
        own = [e for e in result.events if e.to is not None and seat.seat in e.to]
        hand = game.private_summary(result.state, seat.seat) if start and game.private_view else None
        told = not order_notices(row, uid, row.version, None)  # an order's notice is never in the reply
        if (uid == skip and told) or (not own and hand is None and told):
            if uid == skip:  # told in the interaction itself
                await done(boards, key)
            continue
        text = await dm_text(boards, row, game, result.state, uid, own, hand, table_locale)
        if await send_dm(boards, key, uid, text):
            sent += 1
    seated = {s.user_id for s in row.seats}
    for uid in order_noticed(row, row.version):  # a member whose seat went with their orders: told why
        if uid not in seated:
            text = await dm_text(boards, row, game, result.state, uid, [], None, table_locale)
            if await send_dm(boards, dm_key(row.id, row.version, uid), uid, text):
                sent += 1
    return sent


async def deliver_dm(boards: Any, owed: OwedMessage) -> None:
    """One owed DM the Outbox cog claimed, worded from the log of its version; a table
    gone or no longer seating the member: forgotten (unless it owes them why their standing
    orders went with their seat).  Discord failing raises."""
    _, gid, version, uid = owed.key.split(":")
    try:
        row = await boards.tables.row(int(gid))
        game, state = await boards.tables.open_state(row) if row is not None and row.state_json else (None, None)
    except TurnRefused:
        row = game = state = None
    seat = next((s.seat for s in row.seats if s.user_id == int(uid)), None) if row is not None else None
    # a member no longer seated is owed only why their standing orders went with their seat
    gone = row is not None and seat is None and int(uid) in order_noticed(row, int(version))
    if row is None or game is None or state is None or (seat is None and not gone):
        await done(boards, owed.key)
        return
    own: list[Event] = []
    if seat is not None:
        total = await boards.tables.count_actions(row.id)
        recent = await boards.tables.actions(row.id, limit=200, offset=max(0, total - 200))
        events = [e for a in recent if a.version == int(version) for e in game.load_events(a.events)]
        own = [e for e in events if e.to is not None and seat in e.to]
    hand = None
    if seat is not None and owed.kind == "hand" and game.private_view:
        hand = game.private_summary(state, seat)
    if not own and hand is None and not order_notices(row, int(uid), int(version), None):
        await done(boards, owed.key)
        return
    fallback = await boards.public_locale_of(row)
    text = await dm_text(boards, row, game, state, int(uid), own, hand, fallback, int(version))
    if not await send_dm(boards, owed.key, int(uid), text):
        raise RuntimeError("Discord did not take the DM")

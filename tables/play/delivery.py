"""Delivery: the outbox of boards and notices a committed change owes its
channel.  The process that committed shows it at once (it holds the lease); the
scheduler of any process takes over a delivery that was not confirmed."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import get_game
from store import ActionRow, OutboxRow, OwedMessage
from store.ports import DeliveryStore
from tables.core.common import TurnRefused, TurnResult
from tables.core.kernel import Kernel
from tables.rules.decisions import taken_by

log = logging.getLogger("tabletop.tables")

#: the outbox's waits between tries of one delivery (seconds; the last repeats)
BACKOFF = (5.0, 10.0, 20.0, 40.0, 80.0, 120.0)
#: how long a delivery may stay unconfirmed before the scheduler gives it up (a day)
DELIVERY_GIVE_UP = 86400.0


@dataclass
class Delivery:
    """A committed change the channel has not seen confirmed (the outbox row), with
    what showing it needs: the table at that version and the actions since the
    last board the channel saw."""

    owed: OutboxRow
    result: TurnResult

    @property
    def nonce(self) -> str:
        return delivery_nonce(self.owed.game_id, self.owed.version)


def delivery_nonce(game_id: int, version: int) -> str:
    """The message nonce of a table's board at ``version`` (Discord keeps at most 25
    characters and, with ``enforce_nonce``, answers a repeat with the first message)."""
    nonce = f"tg{game_id}.{version}"
    if len(nonce) > 25:
        import hashlib

        nonce = "tg" + hashlib.sha256(nonce.encode()).hexdigest()[:23]
    return nonce


def backoff(attempts: int) -> float:
    """Seconds to wait before the next try of a delivery tried ``attempts`` times."""
    return BACKOFF[min(max(attempts, 1), len(BACKOFF)) - 1]


class Outbox:
    """The outbox: what a committed change owes its channel, until Discord confirms it."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: DeliveryStore = kernel.backend

    async def delivered(self, game_id: int, version: int) -> None:
        """Discord confirmed the board (or notice) of ``version``: the outbox forgets it."""
        await self.store.outbox_done(game_id, version)

    async def delivery_failed(self, game_id: int, version: int) -> None:
        """Showing ``version`` failed: the scheduler of any process tries again after the
        backoff (longer with each failed try of the same board)."""
        owed = await self.store.outbox(game_id)
        if owed is None or owed.version != version:
            return
        await self.store.outbox_retry(game_id, version, self.k.owner, self.k.clock() + backoff(owed.attempts))

    async def posted(self, game_id: int, version: int, message_id: int) -> None:
        """Discord posted the board of ``version`` as ``message_id``: a later try of the
        same delivery (its older boards not yet retired) never posts it again."""
        await self.store.outbox_posted(game_id, version, message_id)

    async def owed_now(self, game_id: int, version: int) -> OutboxRow | None:
        """The outbox row of ``version`` while it is still the table's newest undelivered
        board (None: a later change owes a newer board, or it was shown already)."""
        owed = await self.store.outbox(game_id)
        return owed if owed is not None and owed.version == version else None

    async def still_owed(self, game_id: int, version: int) -> bool:
        """Whether the board of ``version`` is still the table's newest undelivered one
        (False: a later change owes a newer board, or it was shown already)."""
        owed = await self.store.outbox(game_id)
        return owed is not None and owed.version == version

    async def due_deliveries(self, now: float) -> list[OutboxRow]:
        """Deliveries the scheduler may try now (backoff over, no live lease)."""
        return await self.store.due_outbox(now)

    async def claim_delivery(self, owed: OutboxRow, now: float) -> Delivery | None:
        """Take one delivery for this process (a compare-and-swap, so one process at a
        time) with what showing it needs; None when another process took it, or when
        the table moved on without it (a superseded board is never posted: it is
        dropped) or cannot be read any more."""
        if not await self.store.claim_outbox(owed, self.k.owner, now + self.k.lease, now):
            return None
        owed = replace(owed, attempts=owed.attempts + 1, lease_owner=self.k.owner)
        try:
            row = await self.k.row(owed.game_id)
        except TurnRefused:
            row = None
        if row is None or row.version != owed.version or now - owed.created_at > DELIVERY_GIVE_UP:
            if row is not None and row.version == owed.version:
                log.warning("table %s: board of version %s given up after a day", owed.game_id, owed.version)
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        try:
            game, state = await self.k.open_state(row) if row.state_json is not None else (get_game(row.game), None)
        except TurnRefused:
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        if state is None:
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        total = await self.store.count_actions(row.id)
        recent = await self.store.actions(row.id, limit=50, offset=max(0, total - 50))
        entries = [a for a in recent if a.version >= owed.since]
        events = [e for a in entries for e in game.load_events(a.events)]
        result = TurnResult(
            row,
            game,
            state,
            events,
            [a.seat for a in entries],
            [],
            list(entries),
            list(owed.notes),
            owed.kind,
            by=requested_by(entries, owed.notes),
        )
        return Delivery(owed, result)

    # ------------------------------------------------- messages besides the board
    async def message_done(self, key: str) -> None:
        """Discord confirmed an owed message (a vote's question): the outbox forgets it."""
        await self.store.message_done(key)

    async def message_failed(self, key: str, attempts: int = 1) -> None:
        """Posting the owed message ``key`` failed: any process tries again after the backoff."""
        await self.store.message_retry(key, self.k.owner, self.k.clock() + backoff(attempts))

    async def due_messages(self, now: float) -> list[OwedMessage]:
        """Owed messages the scheduler may post now (backoff over, no live lease)."""
        return await self.store.due_messages(now)

    async def claim_message(self, owed: OwedMessage, now: float) -> OwedMessage | None:
        """Take one owed message for this process (a compare-and-swap: one process at a
        time); None when another process took it; given up after a day."""
        if not await self.store.claim_message(owed, self.k.owner, now + self.k.lease, now):
            return None
        if now - owed.created_at > DELIVERY_GIVE_UP:
            log.warning("outbox: message %s given up after a day", owed.key)
            await self.store.message_done(owed.key)
            return None
        return replace(owed, attempts=owed.attempts + 1, lease_owner=self.k.owner)


def requested_by(entries: Sequence[ActionRow], notes: Sequence[dict[str, Any]]) -> int | None:
    """Who made the last change a delivery shows, as far as the log and its notices
    tell (the member's own last step, else the member an undo, resignation or
    abandonment names): its board never pings them (tables/seeing/pings.py)."""
    for a in reversed(entries):
        if taken_by(a) == "player" and a.user_id is not None:
            return a.user_id
    for n in reversed(notes):
        if n.get("note") in ("undone", "resigned", "abandoned") and n.get("user") is not None:
            # (a vote's undo was decided by its last voter, whom the notice does not name)
            return None if "agreed" in n else int(n["user"])
    return None

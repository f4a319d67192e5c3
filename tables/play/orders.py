"""Standing orders of a member (issue 31): what they may arm now, arming and disarming
one, their armed orders, and a delayed step falling due (the scheduler's).

Arming is allowed whenever the member is seated at a running table, also while another
seat is to act.  An order armed while its seat is to act may take its step at once
(the autopilot runs in the same commit, tables/core/standing.py); otherwise arming and
disarming write only the table's orders, never its version: a version is something every
player sees move (their buttons go stale), and armed orders are their owner's alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import GameError
from engine.base import BaseState, Game, Msg
from engine.orders import Lapse, same_params
from store import GameRow
from store.ports import OrderStore
from tables.core import standing
from tables.core.common import TurnRefused, TurnResult
from tables.core.kernel import Kernel
from tables.play import refusals


@dataclass
class OrderChoice:
    """An order the member may arm now: the game's kind, its label in the reader's
    language, its scope ("phase", "round", "game"), its uses (None: unlimited), the
    parameters to arm it with, and whether the member has it armed already."""

    kind: str
    label: str
    scope: str
    uses: int | None
    params: dict[str, Any]
    armed: bool = False


@dataclass
class ArmedShown:
    """One of the member's armed orders (``label``: a catalog message, ``uses``: steps left)."""

    kind: str
    label: Msg
    scope: str
    uses: int | None
    params: dict[str, Any]


@dataclass
class ArmResult:
    """The member's armed orders after arming; ``turn``: the step the new order took at
    once (its seat was to act), whose board is owed like any turn's."""

    orders: list[ArmedShown] = field(default_factory=list)
    turn: TurnResult | None = None


def shown(orders: list[standing.Standing]) -> list[ArmedShown]:
    return [ArmedShown(o.kind, o.label, o.scope, o.uses, dict(o.params)) for o in orders]


class Orders:
    """A member's standing orders at one table (see the module docstring)."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: OrderStore = kernel.backend

    async def _seated(self, table_id: int, user_id: int) -> tuple[GameRow, Game, BaseState, str]:
        loaded = await self.k.load(table_id, statuses=("active", "finished", "abandoned"))
        if loaded.row.status != "active":
            raise TurnRefused("game_over", "core.error.game_over")
        seat = loaded.row.seat_of(user_id)
        if seat is None:
            raise refusals.not_seated(loaded.row, loaded.game, loaded.state)
        return loaded.row, loaded.game, loaded.state, seat

    async def order_choices(self, table_id: int, user_id: int, locale: str | None) -> list[OrderChoice]:
        """The orders the member may arm now at ``table_id``, labelled in ``locale`` (none that
        would switch itself off at once: the game says its decision matters now)."""
        row, game, state, seat = await self._seated(table_id, user_id)
        armed = standing.mine(row, user_id)
        out = []
        for k in game.order_kinds(state, seat):
            trial = standing.Standing(kind=k.kind, seat=seat, scope=k.scope, marker=game.order_marker(state, k.scope),
                                      uses=k.uses, params=k.params, user=user_id, label=k.label)  # fmt: skip
            if isinstance(game.order_step(state, seat, trial), Lapse):
                continue  # it would switch itself off at once (arming it is refused alike)
            on = any(o.kind == k.kind and same_params(o.params, k.params) for o in armed)
            out.append(OrderChoice(k.kind, k.label.text(locale), k.scope, k.uses, dict(k.params), on))
        return out

    async def my_orders(self, table_id: int, user_id: int) -> list[ArmedShown]:
        """The member's armed orders at ``table_id`` (none at a table that ended)."""
        row = await self.k.row(table_id)
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if row.status != "active":
            return []
        return shown(standing.mine(row, user_id))

    async def arm_order(self, table_id: int, user_id: int, kind: Any, params: Any = None) -> ArmResult:
        """Arm ``kind`` (with ``params``: the ones :meth:`order_choices` offered) for the
        member's seat; arming a kind armed already replaces it.  Refused (nothing
        changes) unless the game offers it now."""
        async with self.store.lock(table_id):
            for _ in range(3):
                row, game, state, seat = await self._seated(table_id, user_id)
                try:
                    order = game.arm(state, seat, kind, params)
                except GameError as exc:
                    raise TurnRefused.from_game_error(exc) from None
                offer = next(
                    k
                    for k in game.order_kinds(state, seat)
                    if k.kind == order.kind and same_params(k.params, order.params)
                )
                new = standing.Standing(**order.model_dump(), user=user_id, label=offer.label)
                if isinstance(game.order_step(state, seat, new), Lapse):  # it would switch off at once
                    raise TurnRefused("bad_order", "core.error.bad_order")
                b = standing.book(row)
                b.armed = [o for o in b.armed if not (o.user == user_id and o.kind == new.kind)] + [new]
                waiting = game.to_act(state)
                after, entries, events = await self.k.advance_ai(row, game, state)
                if entries:  # the order took its step at once: a turn like any other
                    row.version = await self.k.save_turn(row, game, after, entries)
                    turn = TurnResult(row, game, after, events, [e.seat for e in entries], waiting, entries)
                    return ArmResult(shown(standing.mine(row, user_id)), turn)
                if await self._write(row, waiting):
                    return ArmResult(shown(standing.mine(row, user_id)))
            raise TurnRefused("stale", "core.ui.stale")

    async def disarm_order(self, table_id: int, user_id: int, kind: Any) -> list[ArmedShown]:
        """Switch off the member's armed order ``kind``; their armed orders after."""
        async with self.store.lock(table_id):
            for _ in range(3):
                row, game, state, seat = await self._seated(table_id, user_id)
                b = standing.book(row)
                keep = [o for o in b.armed if not (o.user == user_id and o.kind == kind)]
                if len(keep) == len(b.armed):
                    raise TurnRefused("order_not_armed", "core.error.order_not_armed")
                b.armed = keep
                if await self._write(row, game.to_act(state)):
                    return shown(standing.mine(row, user_id))
            raise TurnRefused("stale", "core.ui.stale")

    async def orders_due(self, table_id: int) -> TurnResult | None:
        """A delayed standing-order step fell due (the scheduler's): the autopilot takes it,
        with every step nobody clicked that follows, in one commit; None: nothing to show
        (the member acted first, the order switched off, or another process took it)."""
        async with self.store.lock(table_id):
            try:
                loaded = await self.k.load(table_id)
            except TurnRefused:
                return None
            row, game, state = loaded.row, loaded.game, loaded.state
            when = standing.due(standing.book(row))
            if when is None or when > self.k.clock():
                return None
            waiting = game.to_act(state)
            after, entries, events = await self.k.advance_ai(row, game, state)
            try:
                if entries:
                    row.version = await self.k.save_turn(row, game, after, entries)
                    return TurnResult(row, game, after, events, [e.seat for e in entries], waiting, entries)
            except TurnRefused as exc:
                if exc.code != "stale":
                    raise
                return None  # another process took it (or the table moved on): its pass shows it
            await self._write(row, waiting)
            return None

    async def _write(self, row: GameRow, to_act: list[str]) -> bool:
        """The orders of ``row`` alone, on its version and the orders read (False: raced)."""
        change = standing.pending(row, to_act)
        if change is None:
            return True
        if not await self.store.set_orders(row.id, row.version, change):
            return False
        standing.written(row, change)
        return True

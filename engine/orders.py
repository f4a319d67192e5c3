"""Standing orders: decisions a seat arms in advance (issue 31).

A game offers, for a seat at a state, the orders it may arm (:class:`OrderKind`:
"keep passing for the rest of this phase", "decline optional rerolls", "if
they do X, do Y"); the platform stores what was armed (:class:`ArmedOrder`,
private to its owner) and, whenever that seat is to act, asks
:meth:`Game.order_step` what the order does now: :class:`Fire` (take this
action), :class:`Hold` (not a decision it covers; it stays armed) or
:class:`Lapse` (it no longer applies: switch it off and tell the owner why).

The public methods are the base class's (``Game.order_kinds``, ``Game.arm``,
``Game.order_marker``, ``Game.order_step``); they call the functions here,
which call the game's hooks (``_order_kinds``, ``_order_marker``,
``_order_step``).  What every game shares is done here once: the kind and its
parameters must be one the game offers now, the scope's marker is stamped when
armed and compared when asked, a seat not to act holds, a finished game or an
ended scope lapses, and a fired action must be legal.

Pure and deterministic: nothing here (nor a game's hook) draws from the state's
RNG or changes the state, so a replay from seed + log is unchanged by orders
(the log records the actions they took).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Protocol

from pydantic import Field

from .errors import GameError
from .model import Model, Msg


class BaseState(Protocol):
    """What these functions read of a state (engine.base.BaseState; base.py imports this module)."""

    seats: list[str]


class Game(Protocol):
    """What these functions use of a game (engine.base.Game: this module may not import it back)."""

    def outcome(self, state: Any) -> Any: ...

    def to_act(self, state: Any) -> list[str]: ...

    def legal_actions(self, state: Any, seat: str) -> list[Any]: ...

    def parse_action(self, action: Any) -> Any: ...

    def _order_kinds(self, state: Any, seat: str) -> list[OrderKind]: ...

    def _order_marker(self, state: Any, scope: str) -> str: ...

    def _order_step(self, state: Any, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep: ...


#: when an order ends by itself: the phase or round it was armed in ends, or the game does
Scope = Literal["phase", "round", "game"]
SCOPES: tuple[str, ...] = ("phase", "round", "game")


class OrderKind(Model):
    """An order a seat may arm now (offered by the game)."""

    kind: str = Field(min_length=1, max_length=64)  # game-defined id, e.g. "keep_passing"
    label: Msg  # catalog key + params, e.g. Msg(key="automobile.order.keep_passing")
    scope: Scope
    #: None: any number of steps within the scope; 1: one step, then off
    uses: int | None = Field(default=None, ge=1)
    #: game-defined, JSON-able (conditional replies: {"if": ..., "then": ...})
    params: dict[str, Any] = Field(default_factory=dict)
    #: the platform delays this order's steps by a random span, because an
    #: instant answer would tell others the order exists
    hide_timing: bool = False


class ArmedOrder(Model):
    """An order as armed: stored per seat, private to its owner."""

    kind: str = Field(min_length=1, max_length=64)
    seat: str
    scope: Scope
    marker: str  # the game's scope marker when armed (see Game.order_marker)
    uses: int | None = None  # steps left (None: unlimited)
    params: dict[str, Any] = Field(default_factory=dict)
    hide_timing: bool = False


class Fire(Model):
    """Take ``action`` now."""

    kind: Literal["fire"] = "fire"
    action: Any


class Hold(Model):
    """Not now (not a decision the order covers); it stays armed."""

    kind: Literal["hold"] = "hold"


class Lapse(Model):
    """The order no longer applies: switch it off and tell its owner ``reason``."""

    kind: Literal["lapse"] = "lapse"
    reason: Msg


OrderStep = Fire | Hold | Lapse
#: the three as one discriminated union (to read a stored or sent step back)
AnyOrderStep = Annotated[Fire | Hold | Lapse, Field(discriminator="kind")]

SCOPE_ENDED = "core.order.scope_ended"
NO_LONGER_LEGAL = "core.order.no_longer_legal"


def _bad_order() -> GameError:
    return GameError("bad_order", "core.error.bad_order")


def same_params(a: Any, b: Any) -> bool:
    """Whether two parameter sets are the same JSON (a tuple and a list alike)."""
    try:
        return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return False


def _seat_check(state: BaseState, seat: Any) -> None:
    if not isinstance(seat, str) or seat not in state.seats:
        raise GameError("unknown_seat", "core.error.unknown_seat", seat=str(seat)[:64])


def order_kinds(game: Game, state: BaseState, seat: str) -> list[OrderKind]:
    """The orders ``seat`` may arm in ``state`` (none once the game is over)."""
    _seat_check(state, seat)
    if game.outcome(state) is not None:
        return []
    return list(game._order_kinds(state, seat))


def order_marker(game: Game, state: BaseState, scope: str) -> str:
    """The game's marker of the current ``scope`` (an order lapses when it changes)."""
    if scope not in SCOPES:
        raise _bad_order()
    return game._order_marker(state, scope)


def arm(game: Game, state: BaseState, seat: str, kind: Any, params: Any = None) -> ArmedOrder:
    """The order ``kind`` armed for ``seat``: it (with ``params``; ``None``: the
    parameters it is offered with, the first offer of that kind) must be one
    ``order_kinds`` offers now, else ``GameError("bad_order")``."""
    if not isinstance(kind, str) or (params is not None and not isinstance(params, dict)):
        raise _bad_order()
    for offer in order_kinds(game, state, seat):
        if offer.kind == kind and (params is None or same_params(offer.params, params)):
            return ArmedOrder(
                kind=offer.kind,
                seat=seat,
                scope=offer.scope,
                marker=order_marker(game, state, offer.scope),
                uses=offer.uses,
                params=dict(offer.params),
                hide_timing=offer.hide_timing,
            )
    raise _bad_order()


def order_step(game: Game, state: BaseState, seat: str, order: ArmedOrder) -> OrderStep:
    """What ``order`` (armed by ``seat``) does in ``state``: Lapse when the game is
    over or its scope has ended, Hold while the seat is not to act, else the
    game's answer -- a Fire whose action is not legal now lapses instead."""
    _seat_check(state, seat)
    if game.outcome(state) is not None or order_marker(game, state, order.scope) != order.marker:
        return Lapse(reason=Msg(key=SCOPE_ENDED))
    if seat not in game.to_act(state):
        return Hold()
    legal = game.legal_actions(state, seat)
    step = game._order_step(state, seat, order, legal)
    if isinstance(step, Fire):
        action = _legal_one(game, step.action, legal)
        if action is None:
            return Lapse(reason=Msg(key=NO_LONGER_LEGAL))
        return Fire(action=action)
    if not isinstance(step, (Hold, Lapse)):
        raise TypeError(f"{type(game).__name__}._order_step returned {step!r}, not Fire, Hold or Lapse")
    return step


def _legal_one(game: Game, action: Any, legal: list[Any]) -> Any:
    """The object of ``legal`` that ``action`` (an object or its JSON) is, else None."""
    for one in legal:
        if one is action:
            return one
    try:
        parsed = game.parse_action(action)
    except GameError:
        return None
    for one in legal:
        if one == parsed:
            return one
    return None


__all__ = [
    "SCOPES",
    "AnyOrderStep",
    "ArmedOrder",
    "Fire",
    "Hold",
    "Lapse",
    "OrderKind",
    "OrderStep",
    "Scope",
    "arm",
    "order_kinds",
    "order_marker",
    "order_step",
    "same_params",
]

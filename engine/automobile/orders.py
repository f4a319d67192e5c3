"""Automobile's standing orders (issue 31): the decisions its players make the same way.

``typical_orders(state, seat) -> list[OrderKind]`` is what a typical player arms
whenever they look in (the benchmark ``bench/async_days.py`` arms exactly these);
every game with orders has the same function in its ``orders`` module.

* ``sell_distributors`` (scope: the game) -- phase 5: sell every car my distributors
  can reach.  A distributor sale always pays the full price of the car's class
  (the lane is the car's class) and an unused distributor costs a loss point, so
  "sell" is never the wrong answer; the order takes the highest-priced lane first,
  a distributor from that lane's own square before one that could reach elsewhere,
  and the car from a discounted space, else the oldest model (phase 7 sells the
  newest first).  No event of the game lapses it: only the game's end or the owner.
* ``exec_pass`` (scope: the round) -- phase 6: pass (the rules' 放弃).  It lapses
  when closing a factory plainly pays: in the last round (a factory is worth
  nothing after it) or when one of the seat's factories has two newer models of
  its class beside it (loss points every round from now on), and the close is
  still free to take; and when the seat filler's reading of the seat's own cars
  and demand (its hand included: the owner's knowledge) would take a marker or a
  close instead of passing.  So it passes exactly where the seat filler would, or
  hands the decision back.  Its timing is hidden (``hide_timing``): whether a
  player buys markers depends on the demand cards only they hold, so an instant
  pass would tell the table the order exists and hint at a weak hand.

Nothing here draws randomness or reads another seat's hand: an order decides from
the public board and its own seat's state, the same way every time.
"""

from __future__ import annotations

from typing import Any

from ..base import Msg
from ..orders import ArmedOrder, Fire, Hold, Lapse, OrderKind, OrderStep
from . import ai
from . import content as C
from . import rules as R
from .models import AutoState, DistMove, DistSell, Exec

SELL = "sell_distributors"
PASS = "exec_pass"
#: the loss rank (newer models of a class beside a factory) from which closing is worth a look
CLOSE_RANK = 2


def _kind(kind: str, scope: Any, hide: bool = False) -> OrderKind:
    return OrderKind(kind=kind, label=Msg(key=f"automobile.order.{kind}"), scope=scope, hide_timing=hide)


def order_kinds(state: AutoState, seat: str) -> list[OrderKind]:
    """Both orders, to every seat of a game still running (they hold until their phase)."""
    if state.finished:
        return []
    return [_kind(SELL, "game"), _kind(PASS, "round", hide=True)]


def typical_orders(state: AutoState, seat: str) -> list[OrderKind]:
    """What a typical player arms when they look in: both (the pass again each round)."""
    return order_kinds(state, seat)


def order_marker(state: AutoState, scope: str) -> str:
    if scope == "round":
        return f"r{state.round}"
    if scope == "phase":
        return f"r{state.round}p{state.phase}"
    return ""


def order_step(state: AutoState, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    if order.kind == SELL:
        return _sell(state, seat, legal)
    if order.kind == PASS:
        return _pass(state, seat, legal)
    return Hold()


def _sell(state: AutoState, seat: str, legal: list[Any]) -> OrderStep:
    if state.phase != R.PHASE_DIST:
        return Hold()
    price = C.rules()["price"]
    moves = [a for a in legal if isinstance(a, DistMove)]
    if moves:
        return Fire(action=max(moves, key=lambda a: (price[a.lane], a.src == a.lane, a.src != "mid")))
    sells = [a for a in legal if isinstance(a, DistSell)]
    if sells:
        return Fire(action=max(sells, key=lambda a: (state.spaces[a.space].discount, -a.space)))
    return Hold()


def _pass(state: AutoState, seat: str, legal: list[Any]) -> OrderStep:
    if state.phase != R.PHASE_EXEC or state.pending is not None:
        return Hold()
    if Exec(choice="close") in legal and close_pays(state, seat):
        return Lapse(reason=Msg(key="automobile.order.lapse.close_pays"))
    if ai.choose(state, seat) != Exec(choice="pass"):
        return Lapse(reason=Msg(key="automobile.order.lapse.marker_pays"))
    return Fire(action=next(a for a in legal if a == Exec(choice="pass")))


def close_pays(state: AutoState, seat: str) -> bool:
    """Whether closing one of ``seat``'s factories plainly pays now (no cars on it would go
    unsold): the last round, or a factory with ``CLOSE_RANK`` newer models of its class."""
    last = state.round >= C.rules()["rounds"]
    for i in R.closable(state, seat):
        if state.ruleset >= 2 and state.spaces[i].cars:
            continue
        if last or _loss_rank(state, i) >= CLOSE_RANK:
            return True
    return False


def _loss_rank(state: AutoState, space: int) -> int:
    """How many occupied or closed model spaces of the class are newer than ``space``."""
    cls = C.board()[space]["cls"]
    newer = [i for i in C.class_spaces(cls) if i > space]
    return sum(1 for i in newer if state.spaces[i].factories > 0 or state.spaces[i].closed)

"""Thunder Road's standing orders (issue 31): the answers its drivers give the same way.

``typical_orders(state, seat) -> list[OrderKind]`` is what a typical player arms
whenever they look in (the benchmark ``bench/async_days.py`` arms exactly these):
the reply to slams and the bonus moves.  The shot stays the player's in the typical
set: which car to shoot is a choice players make differently (and it comes in their
own turn, so arming it saves a click, never a wait).

* ``slam_reply`` -- a conditional reply (params ``{"if": <condition>, "then":
  "demand", "else": "accept"}``, scope: the game): when a move slams one of my
  vehicles and the larger is mine (rules 9: 拥有较大尺寸载具的玩家可以要求...重新投掷1次),
  demand the reroll if the condition holds, else accept the roll.  Conditions:
  ``my_vehicle_hurt_or_rival_spared`` (the push would hurt my own vehicle -- off the
  road, into a chopper, another slam or a face-down hazard -- or would leave a
  rival's vehicle unhurt: the seat filler's rule, and the typical one) and
  ``my_vehicle_hurt`` (only to save my own vehicle).  It is asked between another
  player's steps, so it is the decision that keeps a table waiting on a second
  person (and then on the mover again).
* ``decline_rerolls`` (scope: the game) -- never demand the reroll; it lapses when
  the push would take my own vehicle off the road.
* Both slam orders lapse when the push would carry a car over the finish line:
  the race is decided there, and its owner should look.
* ``always_shoot`` (scope: the game) -- after a move (or an airstrike), shoot the
  most advanced rival vehicle in front (the likelier hit between equals); hold fire when only my own vehicles or
  wrecks are there.  A shot costs nothing (rules 10) and a hit damages its target,
  so no event makes it the wrong answer; it ends with the game or the owner.
* ``take_bonus`` (scope: the game) -- take the road die's bonus move (the seat
  filler takes it in 98 of 100 offers); it lapses when every first step of the
  bonus would hurt the car (off the road, a slam, a chopper or a face-down hazard),
  or when the seat filler's look-ahead over the public board finds no way of it
  worth taking (then the player decides; the seat filler would decline).
* ``no_commands`` (scope: the round) -- make no command (keep every die for moves).
  It lapses when one of my vehicles is damaged and a repair command is on offer.

No order here hides its timing: the only hidden information is the face-down
hazards and the road deck, hidden from every seat alike, and an order decides from
the public board only (a face-down token is known to be there, never what it is),
so a fast answer tells nothing that anyone, its owner included, does not know.
"""

from __future__ import annotations

from typing import Any

from ..base import Msg
from ..orders import ArmedOrder, Fire, Hold, Lapse, OrderKind, OrderStep
from . import rules as R
from .ai import _best_path as best_path
from .ai import _hit_chance as hit_chance
from .content import add
from .models import Bonus, Command, Reroll, Shoot, TRState

REPLY = "slam_reply"
DECLINE = "decline_rerolls"
SHOOT = "always_shoot"
NO_COMMANDS = "no_commands"
BONUS = "take_bonus"
#: where a push sends a vehicle that hurts it (``rules.push_mark``)
HURT = frozenset({"eliminate", "chopper", "slam", "hazard"})
#: the conditional replies to a slam offered: "if <condition>, demand a reroll, else accept"
MINE_HURT = "my_vehicle_hurt"
HURT_OR_SPARED = "my_vehicle_hurt_or_rival_spared"
REPLIES = (HURT_OR_SPARED, MINE_HURT)


def reply_params(condition: str) -> dict[str, Any]:
    return {"if": condition, "then": "demand", "else": "accept"}


def _kind(kind: str, scope: Any, params: dict[str, Any] | None = None) -> OrderKind:
    return OrderKind(kind=kind, label=Msg(key=f"thunder_road.order.{kind}"), scope=scope, params=params or {})


def order_kinds(state: TRState, seat: str) -> list[OrderKind]:
    if state.winners is not None or R.crew_of(state, seat).out:
        return []
    replies = [
        OrderKind(
            kind=REPLY,
            label=Msg(key=f"thunder_road.order.slam_reply.{cond}"),
            scope="game",
            params=reply_params(cond),
        )
        for cond in REPLIES
    ]
    return [
        *replies,
        _kind(DECLINE, "game"),
        _kind(SHOOT, "game"),
        _kind(BONUS, "game"),
        _kind(NO_COMMANDS, "round"),
    ]


def typical_orders(state: TRState, seat: str) -> list[OrderKind]:
    """The reply to slams (the seat filler's rule: demand a reroll when it hurts my vehicle or
    spares a rival's) and the bonus moves; shots and commands stay the player's."""
    return [
        k for k in order_kinds(state, seat) if (k.kind == REPLY and k.params["if"] == HURT_OR_SPARED) or k.kind == BONUS
    ]


def order_marker(state: TRState, scope: str) -> str:
    return "" if scope == "game" else f"r{state.round}"


def _lapse(reason: str) -> Lapse:
    return Lapse(reason=Msg(key=f"thunder_road.order.lapse.{reason}"))


def order_step(state: TRState, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    if order.kind in (REPLY, DECLINE):
        return _slam(state, seat, order, legal)
    if order.kind == SHOOT:
        return _shoot(state, seat, legal)
    if order.kind == BONUS:
        return _bonus(state, seat)
    if order.kind == NO_COMMANDS:
        return _no_commands(state, seat, legal)
    return Hold()


def _slam(state: TRState, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    q = state.reroll
    if q is None or q.asker != seat:
        return Hold()
    result = q.info.get("result", "ok")
    mine = q.info.get("pushed_owner") == seat
    if result == "finish":
        return _lapse("finish")
    if order.kind == DECLINE:
        if mine and result == "eliminate":
            return _lapse("own_vehicle_out")
        return Fire(action=Reroll(demand=False))
    hurt = mine and result in HURT
    spared = q.info.get("pushed_owner") not in ("", seat) and result not in HURT
    met = hurt or (order.params.get("if") == HURT_OR_SPARED and spared)
    answer = order.params.get("then") if met else order.params.get("else")
    return Fire(action=Reroll(demand=answer == "demand"))


def _shoot(state: TRState, seat: str, legal: list[Any]) -> OrderStep:
    p = state.pending
    if state.reroll is not None or p is None or p.stage not in ("shoot", "chopper_shoot"):
        return Hold()
    rivals = []
    for a in legal:
        if isinstance(a, Shoot) and a.target is not None:
            v = R.veh(state, a.target)
            if v.owner is not None and v.owner != seat and v.kind != "wreck":
                rivals.append((v, a))
    if not rivals:
        return Fire(action=Shoot(target=None))
    _, best = max(rivals, key=lambda va: ((va[0].pos or [0, 0])[1], hit_chance(va[0].shoot_size), va[0].id))
    return Fire(action=best)


def _no_commands(state: TRState, seat: str, legal: list[Any]) -> OrderStep:
    p = state.pending
    if state.reroll is not None or p is None or p.stage != "command":
        return Hold()
    if any(isinstance(a, Command) and a.command in ("repair", "patch_up") for a in legal):
        return _lapse("repair")
    return Fire(action=Command(command="none"))


def _bonus(state: TRState, seat: str) -> OrderStep:
    p = state.pending
    if state.reroll is not None or p is None or p.stage != "bonus" or p.car is None:
        return Hold()
    v = R.veh(state, p.car)
    moving = p.model_copy(update={"moves": state.road_die, "in_bonus": True})
    marks = [R.step_mark(state, v, moving, add(v.pos or [0, 0], d)) for d in R.dirs_for(state, v)]
    if all(m in HURT for m in marks) or bonus_value(state, v.id, v.pos) <= 0:
        return _lapse("bonus_hurts")
    return Fire(action=Bonus(take=True))


def bonus_value(state: TRState, vid: str, pos: list[int] | None) -> float:
    """What the bonus is worth by the seat filler's look-ahead over the public board (its
    best path of the road die's steps, 3 deep; below 0: every way hurts)."""
    if pos is None:
        return -1.0
    return best_path(state, vid, pos, state.road_die, 3) * 0.5 + 0.1

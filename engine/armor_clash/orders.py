"""Armor Clash's standing orders (issue 31): the turn orders a crew gives the same way.

``typical_orders(state, seat) -> list[OrderKind]`` is what a typical player arms
whenever they look in (the benchmark ``bench/async_days.py`` arms exactly these):
keep firing at the foe the seat filler would pick, and carry on what is under way.

* ``keep_firing`` (params: ``target``, ``ammo``, ``turn``, ``rival_points``; scope:
  the game) -- the loader-gunner routine of rules 2.2 and 7 against one foe: shoot
  it whenever it is in the gun's reach, else load ``ammo`` (or keep loading), else
  turn the gun towards it (the free 1-2 cell turn of 8.2 first, a slow traverse or
  a hull turn, 8.4, as the seat filler's easy level does).  It lapses when the
  target is out of the battle, when another foe than the target hit the seat's
  vehicle in a turn since it was armed (a new threat: whom to fire at is the
  question again; hits from the target itself are the exchange the order is for),
  when a rival scored at the duel's crossroads since (R14: the duel is won there,
  not by firing), or when the gun cannot be brought to bear.
* ``carry_on`` (params: ``wounds``, ``rival_points``; scope: the game) -- continue a
  move, a reload or a turret traverse that is under way (the rules' multi-turn
  actions).  It lapses when the vehicle was wounded while still driving or
  traversing (``wounds``: crew injuries, power hits, track knock-outs), when a foe
  is in the loaded gun's reach while still driving or traversing (then firing may
  be better), or when a rival scored at the crossroads.

Every order is given in secret and at once by every seat (2.3, 11), so there are no
conditional replies on another seat's order: nobody sees it before the turn
resolves.  In a duel (another seat on another side) both orders hide their timing
(``hide_timing``): a commit is public (``Committed``), and an instant one would tell
the rival that the seat's secret order is the routine one -- with one target, which
order exactly, since the routine is a function of the public board.  Against AI
tanks or the boss the other seats are teammates (who may talk plans over openly)
and the enemy is the rules' automaton, which reads the board and never the clock:
the timing tells no adversary anything, so the step is taken at once.  An order
reads the public battlefield and its own seat only and draws no dice.
"""

from __future__ import annotations

from typing import Any

from ..base import Msg
from ..orders import ArmedOrder, Fire, Hold, Lapse, OrderKind, OrderStep
from . import ai as AI
from . import geometry as G
from . import rules as R
from .models import AmmoChoice, Choose, HullTo, Pending, State, Target, TurretTo, Unit

FIRE = "keep_firing"
CARRY = "carry_on"
#: the most foes offered a keep-firing order each (a Discord select holds 25)
MAX_TARGETS = 10


def wounds(u: Unit) -> int:
    """What a hit leaves on a vehicle that a crew would react to (never undone by its own orders)."""
    return sum(u.injuries.values()) + u.power + u.heavy_power + u.track_knockouts + int(u.tracks != "ok")


def hit_by_other(state: State, u: Unit, target: str, armed_turn: int) -> bool:
    """Whether a foe other than ``target`` hit ``u`` in a turn resolved since the order was
    armed in turn ``armed_turn`` (``last_shots`` are the shots of the turn before this one)."""
    if state.turn - 1 < armed_turn:
        return False
    return any(s.target == u.id and s.hit and s.shooter != target for s in state.last_shots)


def has_rival(state: State, u: Unit) -> bool:
    """Whether another seat fights on another side than ``u`` (a duel): a person who could read
    the timing of ``u``'s commit.  In a battle of the players' side against AI tanks or the boss
    every other seat is a teammate, and the enemy's automaton reads the board, never the clock."""
    return any(x.seat is not None and x.seat != u.seat and x.side != u.side for x in state.units)


def rival_points(state: State, seat: str) -> int:
    """The crossroads points of every other seat (duels of rules revision 3, R14)."""
    return sum(n for s, n in state.points.items() if s != seat)


def _lapse(reason: str) -> Lapse:
    return Lapse(reason=Msg(key=f"armor_clash.standing.lapse.{reason}"))


def order_kinds(state: State, seat: str) -> list[OrderKind]:
    u = R.unit_of_seat(state, seat)
    if u is None or not u.active or state.result is not None:
        return []
    points = rival_points(state, seat)
    hide = has_rival(state, u)
    ammo = u.loading or u.loaded or AI._best_ammo(state)
    out = [
        OrderKind(
            kind=FIRE,
            label=Msg(
                key="armor_clash.standing.keep_firing", params={"target": o.label, "ammo": f"@armor_clash.ammo.{ammo}"}
            ),
            scope="game",
            params={"target": o.id, "ammo": ammo, "turn": state.turn, "rival_points": points},
            hide_timing=hide,
        )
        for o in R.foes(state, u)[:MAX_TARGETS]
    ]
    out.append(
        OrderKind(
            kind=CARRY,
            label=Msg(key="armor_clash.standing.carry_on"),
            scope="game",
            params={"wounds": wounds(u), "rival_points": points},
            hide_timing=hide,
        )
    )
    return out


def typical_orders(state: State, seat: str) -> list[OrderKind]:
    """Keep firing at the foe the seat filler would pick (the boss first, else the nearest),
    and carry on what is under way."""
    u = R.unit_of_seat(state, seat)
    kinds = order_kinds(state, seat)
    if u is None or not kinds:
        return []
    pick = AI._pick_target(state, u, R.foes(state, u)) if R.foes(state, u) else None
    return [k for k in kinds if k.kind == CARRY or (pick is not None and k.params["target"] == pick.id)]


def order_marker(state: State, scope: str) -> str:
    return "" if scope == "game" else f"t{state.turn}"


def order_step(game: Any, state: State, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    u = R.unit_of_seat(state, seat)
    if u is None:
        return Hold()
    if rival_points(state, seat) > int(order.params.get("rival_points", 0)):
        return _lapse("rival_scored")
    p = state.pending.get(seat, Pending())
    if order.kind == FIRE:
        return _keep_firing(game, state, u, p, order, legal)
    if order.kind == CARRY:
        return _carry_on(game, state, u, p, order, legal)
    return Hold()


def _take(action: Any, legal: list[Any]) -> OrderStep | None:
    for a in legal:
        if a == action or (a.kind == action.kind and a.kind in ("turret", "move_dist") and _same(a, action)):
            return Fire(action=a)
    return None


def _same(a: Any, b: Any) -> bool:
    return bool(a.model_dump(exclude={"turns"}) == b.model_dump(exclude={"turns"}))


def _keep_firing(game: Any, state: State, u: Unit, p: Pending, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    tgt = R.unit_by_id(state, str(order.params.get("target", "")))
    if tgt is None or not tgt.active:
        return _lapse("target_out")
    if hit_by_other(state, u, tgt.id, int(order.params.get("turn", 0))):
        return _lapse("hit_by_other")
    in_reach = any(o.id == tgt.id for o in game._targets(state, u, p))
    if p.step == "target":
        return _take(Target(target=tgt.id), legal) or Hold()
    if p.step == "ammo":
        return _take(AmmoChoice(ammo=order.params.get("ammo", "AP")), legal) or Hold()
    if p.step in ("turret", "hull"):
        want = AI._bring_to_bear(state, u, tgt)
        if p.step == "turret" and want.what == "rotate" and want.turret_to is not None:
            cell = G.RING_TO_CELL[(want.turret_to - u.hull) % 8]
            return _take(TurretTo(cell=cell), legal) or Hold()
        if p.step == "hull" and want.what == "hull" and want.facing is not None:
            return _take(HullTo(facing=want.facing), legal) or Hold()
        return Hold()
    if p.step != "top":
        return Hold()  # the player began a move by hand: theirs to finish
    if u.loaded is not None and in_reach:
        return _take(Choose(what="shoot"), legal) or _lapse("no_aim")
    if u.loading is not None:
        return _take(Choose(what="continue_reload"), legal) or _lapse("no_aim")
    if u.loaded is None:
        return _take(Choose(what="reload"), legal) or _lapse("no_aim")
    if p.pre_rot is not None:  # turned for free and still out of reach
        return _lapse("no_aim")
    want = AI._bring_to_bear(state, u, tgt)
    return _take(Choose(what=want.what), legal) or _lapse("no_aim")


def _carry_on(game: Any, state: State, u: Unit, p: Pending, order: ArmedOrder, legal: list[Any]) -> OrderStep:
    if p.step != "top" or p.pre_rot is not None:
        return Hold()
    if u.loading is not None:
        return _take(Choose(what="continue_reload"), legal) or Hold()
    if (u.move_plan or u.rot_plan) and wounds(u) > int(order.params.get("wounds", 0)):
        return _lapse("hit")  # still driving or traversing, and hit meanwhile
    under_way = [w for w, plan in (("continue_move", u.move_plan), ("continue_rotate", u.rot_plan)) if plan]
    for what in under_way:
        step = _take(Choose(what=what), legal)
        if step is not None:
            if u.loaded is not None and game._targets(state, u, p):
                return _lapse("in_sights")
            return step
    return Hold()

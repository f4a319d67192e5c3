"""Thunder Road's standing orders (issue 31, engine side): engine/thunder_road/orders.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine.i18n import has
from engine.locales import CODES
from engine.registry import get_game
from engine.thunder_road import orders as O
from engine.thunder_road import rules as R
from engine.thunder_road.models import Bonus, Command, Hazard, Reroll, Shoot
from tests import orderplay

G = get_game("thunder_road")
TWO = ["p1", "p2"]
THREE = ["p1", "p2", "p3"]


def states(seats: list[str], seeds: range) -> Any:
    """Every state of seeded AI games, with its seat to act."""
    for seed in seeds:
        st = G.new(seats, seed=seed)
        while G.outcome(st) is None:
            seat = G.to_act(st)[0]
            yield st, seat
            st = G.ai_step(st)[0]


def first(seats: list[str], until: Any, seeds: range = range(40)) -> tuple[Any, str]:
    for st, seat in states(seats, seeds):
        if until(st, seat):
            return st, seat
    raise AssertionError("no seed reaches the situation")


def asked(st: Any, seat: str) -> bool:
    return st.reroll is not None and st.reroll.asker == seat


def test_every_order_has_its_words_in_every_language_and_shows_its_timing() -> None:
    st = G.new(TWO, seed=1)
    kinds = G.order_kinds(st, "p1")
    assert {k.kind for k in kinds} == {O.REPLY, O.DECLINE, O.SHOOT, O.BONUS, O.NO_COMMANDS}
    replies = [k.params for k in kinds if k.kind == O.REPLY]
    assert replies == [
        {"if": "my_vehicle_hurt_or_rival_spared", "then": "demand", "else": "accept"},
        {"if": "my_vehicle_hurt", "then": "demand", "else": "accept"},
    ]
    for k in kinds:
        assert not k.hide_timing  # hazards are hidden from every seat alike: nothing to tell
        for lang in CODES:
            assert has(k.label.key, lang)
    for reason in ("finish", "own_vehicle_out", "repair", "bonus_hurts"):
        assert has(f"thunder_road.order.lapse.{reason}", "zh")
    typical = O.typical_orders(st, "p2")
    assert {k.kind for k in typical} == {O.REPLY, O.BONUS}
    assert [k.params["if"] for k in typical if k.kind == O.REPLY] == [O.HURT_OR_SPARED]


def test_the_slam_replies_demand_a_reroll_exactly_when_their_condition_holds() -> None:
    seen = set()
    for st, seat in states(THREE, range(40)):
        if not asked(st, seat):
            continue
        q = st.reroll
        if q.info["result"] == "finish":
            continue
        hurt = q.info["pushed_owner"] == seat and q.info["result"] in O.HURT
        spared = q.info["pushed_owner"] not in ("", seat) and q.info["result"] not in O.HURT
        for cond, demand in ((O.MINE_HURT, hurt), (O.HURT_OR_SPARED, hurt or spared)):
            step = G.order_step(st, seat, G.arm(st, seat, O.REPLY, O.reply_params(cond)))
            assert step.kind == "fire" and step.action == Reroll(demand=demand)
        typical = G.order_step(st, seat, G.arm(st, seat, O.REPLY, O.reply_params(O.HURT_OR_SPARED)))
        assert typical.action == G.ai_action(st, seat)  # the seat filler's rule (docs/rulings.md)
        decline = G.order_step(st, seat, G.arm(st, seat, O.DECLINE))
        if q.info["pushed_owner"] == seat and q.info["result"] == "eliminate":
            assert decline.kind == "lapse" and decline.reason.key == "thunder_road.order.lapse.own_vehicle_out"
        else:
            assert decline.kind == "fire" and decline.action == Reroll(demand=False)
        seen.add((hurt, spared))
    assert {(True, False), (False, True), (False, False)} <= seen


def test_the_slam_orders_lapse_when_the_push_would_decide_the_race() -> None:
    st, seat = first(THREE, asked)
    q = st.reroll.model_copy(update={"info": {**st.reroll.info, "result": "finish"}})
    finish = st.model_copy(update={"reroll": q})
    for kind, params in ((O.REPLY, O.reply_params(O.MINE_HURT)), (O.REPLY, None), (O.DECLINE, None)):
        step = G.order_step(finish, seat, G.arm(st, seat, kind, params))
        assert step.kind == "lapse" and step.reason.key == "thunder_road.order.lapse.finish"


def test_shooting_takes_the_most_advanced_rival_and_holds_fire_at_its_own() -> None:
    both = set()
    for st, seat in states(THREE, range(30)):
        if st.reroll is not None or st.pending is None or st.pending.stage not in ("shoot", "chopper_shoot"):
            continue
        step = G.order_step(st, seat, G.arm(st, seat, O.SHOOT))
        assert step.kind == "fire" and isinstance(step.action, Shoot)
        rivals = [
            R.veh(st, a.target)
            for a in G.legal_actions(st, seat)
            if a.target is not None and R.veh(st, a.target).owner not in (None, seat)
        ]
        if rivals:
            target = R.veh(st, step.action.target)
            assert target in rivals and target.pos[1] == max(v.pos[1] for v in rivals)
        else:
            assert step.action == Shoot(target=None)
        both.add(bool(rivals))
    assert both == {True, False}


def test_the_bonus_is_taken_unless_every_way_of_it_hurts() -> None:
    fired = lapsed = 0
    for st, seat in states(THREE, range(40)):
        if st.reroll is not None or st.pending is None or st.pending.stage != "bonus":
            continue
        step = G.order_step(st, seat, G.arm(st, seat, O.BONUS))
        v = R.veh(st, st.pending.car)
        after = G.apply(st, seat, Bonus(take=True))[0]
        marks = {a.mark for a in G.legal_actions(after, seat) if a.kind == "step" and a.then is None}
        if step.kind == "fire":
            assert step.action == Bonus(take=True)
            fired += 1
        else:
            assert step.reason.key == "thunder_road.order.lapse.bonus_hurts" and v.pos is not None
            assert marks <= O.HURT or O.bonus_value(st, v.id, v.pos) <= 0
            lapsed += 1
        if G.ai_action(st, seat) == Bonus(take=False):  # where the seat filler declines, it never takes
            assert step.kind == "lapse"
    assert fired and lapsed


def test_no_commands_fires_none_lapses_on_a_repair_and_ends_with_the_round() -> None:
    st, seat = first(TWO, lambda s, x: s.pending is not None and s.pending.stage == "command" and s.reroll is None)
    order = G.arm(st, seat, O.NO_COMMANDS)
    legal = G.legal_actions(st, seat)
    step = G.order_step(st, seat, order)
    if any(a.command in ("repair", "patch_up") for a in legal):
        assert step.kind == "lapse" and step.reason.key == "thunder_road.order.lapse.repair"
    else:
        assert step.kind == "fire" and step.action == Command(command="none")
    later = st
    while later.round == st.round or seat not in G.to_act(later):
        later = G.ai_step(later)[0]
    ended = G.order_step(later, seat, order)
    assert ended.kind == "lapse" and ended.reason.key == "core.order.scope_ended"
    assert G.order_step(later, seat, G.arm(st, seat, O.SHOOT)).kind != "lapse"  # the game's orders go on
    _, repair_seat = first(
        TWO,
        lambda s, x: (
            s.pending is not None
            and s.pending.stage == "command"
            and any(getattr(a, "command", "") in ("repair", "patch_up") for a in G.legal_actions(s, x))
        ),
    )
    assert repair_seat


def test_orders_hold_when_the_decision_is_not_theirs() -> None:
    st, seat = first(TWO, lambda s, x: s.pending is not None and s.pending.stage == "assign")
    other = next(s for s in TWO if s != seat)
    for k in G.order_kinds(st, seat):
        assert G.order_step(st, seat, G.arm(st, seat, k.kind, k.params)).kind == "hold"  # a die to assign
        assert G.order_step(st, other, G.arm(st, other, k.kind, k.params)).kind == "hold"  # not to act


def test_no_order_reads_a_face_down_hazard() -> None:
    """The same board with every face-down token of another type: every order steps the same."""
    types = sorted({h.type for st, _ in states(TWO, range(3)) for h in st.hazards.values()})
    count = 0
    for st, seat in states(THREE, range(12)):
        down = [k for k, h in st.hazards.items() if not h.up]
        if not down:
            continue
        swapped = st.model_copy(
            update={
                "hazards": {
                    k: (Hazard(type=types[(types.index(h.type) + 1) % len(types)]) if not h.up else h)
                    for k, h in st.hazards.items()
                }
            }
        )
        for k in G.order_kinds(st, seat):
            order = G.arm(st, seat, k.kind, k.params)
            assert G.order_step(st, seat, order) == G.order_step(swapped, seat, order)
            count += 1
    assert count > 100


@pytest.mark.parametrize(("seed", "seats"), [(0, TWO), (1, THREE), (2, ["p1", "p2", "p3", "p4"])])
def test_whole_races_with_orders_replay_equal_and_show_others_what_a_click_shows(seed: int, seats: list[str]) -> None:
    played = orderplay.play(G, seats, seed, keep=15)
    assert G.outcome(played.state) is not None
    assert played.fired.get(O.BONUS, 0) > 0
    if seed:
        assert played.fired.get(O.REPLY, 0) > 0
    start = G.new(seats, seed=seed)
    for k in G.order_kinds(start, start.seats[0]):  # every order ends with the game
        step = G.order_step(played.state, start.seats[0], G.arm(start, start.seats[0], k.kind, k.params))
        assert step.kind == "lapse" and step.reason.key == "core.order.scope_ended"
    assert orderplay.replays_equal(G, seats, seed, None, played)
    for state, seat, action, _ in played.steps:
        orderplay.same_as_clicked(G, state, seat, action)
        orderplay.no_order_in_views(
            G, state, seat, [G.arm(state, seat, k.kind, k.params) for k in G.order_kinds(state, seat)]
        )


@pytest.mark.parametrize("seed", [4, 5])
def test_the_typical_orders_answer_as_the_seat_filler_does(seed: int) -> None:
    """A race where every seat plays the AI ends the same with the typical orders armed (they take
    the seat filler's answers, or hand the decision back): orders change who waits, never the race."""
    played = orderplay.play(G, THREE, seed)
    plain = G.new(THREE, seed=seed)
    while G.outcome(plain) is None:
        plain = G.ai_step(plain)[0]
    assert played.fired.get(O.REPLY, 0) + played.fired.get(O.BONUS, 0) > 0
    assert G.dump(played.state) == G.dump(plain)

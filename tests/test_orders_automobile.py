"""Automobile's standing orders (issue 31, engine side): engine/automobile/orders.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine.automobile import ai
from engine.automobile import content as C
from engine.automobile import orders as O
from engine.automobile import rules as R
from engine.automobile.models import DistMove, DistSell, Exec
from engine.i18n import has
from engine.locales import CODES
from engine.registry import get_game
from tests import orderplay

G = get_game("automobile")
SEATS = ["p1", "p2", "p3", "p4"]


def advance(state: Any, until: Any, limit: int = 3000) -> Any:
    for _ in range(limit):
        if until(state):
            return state
        if G.outcome(state) is not None:
            return None
        state = G.ai_step(state)[0]
    return None


def find(until: Any, seeds: range = range(40)) -> Any:
    for seed in seeds:
        st = advance(G.new(SEATS, seed=seed), until)
        if st is not None:
            return st
    raise AssertionError("no seed reaches the situation")


def in_dist(st: Any) -> bool:
    return st.phase == R.PHASE_DIST and st.pending is None and st.current is not None


def test_every_order_has_its_words_in_every_language() -> None:
    st = G.new(SEATS, seed=1)
    kinds = G.order_kinds(st, "p1")
    assert {k.kind for k in kinds} == {O.SELL, O.PASS}
    for k in kinds:
        for lang in CODES:
            assert has(k.label.key, lang)
    assert has("automobile.order.lapse.close_pays", "zh")
    assert [k.kind for k in O.typical_orders(st, "p2")] == [k.kind for k in kinds]


def test_distributor_sales_fire_the_dearest_lane_then_the_oldest_car() -> None:
    st = find(in_dist)
    seat = G.to_act(st)[0]
    order = G.arm(st, seat, O.SELL)
    step = G.order_step(st, seat, order)
    assert step.kind == "fire" and isinstance(step.action, DistMove)
    price = C.rules()["price"]
    legal = [a for a in G.legal_actions(st, seat) if isinstance(a, DistMove)]
    assert price[step.action.lane] == max(price[a.lane] for a in legal)
    after = G.apply(st, seat, step.action)[0]
    if after.pending is not None and after.pending.kind == "dist_sell":  # more than one space: the oldest
        nxt = G.order_step(after, seat, order)
        spaces = [a.space for a in G.legal_actions(after, seat) if isinstance(a, DistSell)]
        assert nxt.kind == "fire" and isinstance(nxt.action, DistSell)
        if not any(after.spaces[i].discount for i in spaces):
            assert nxt.action.space == min(spaces)


def test_orders_hold_when_the_decision_is_not_theirs() -> None:
    st = G.new(SEATS, seed=3)
    seat = G.to_act(st)[0]
    other = next(s for s in SEATS if s != seat)
    for kind in (O.SELL, O.PASS):
        assert G.order_step(st, other, G.arm(st, other, kind)).kind == "hold"  # not to act
        assert G.order_step(st, seat, G.arm(st, seat, kind)).kind == "hold"  # a character pick
    st3 = advance(st, lambda s: s.phase == R.PHASE_ACTIONS)
    seat = G.to_act(st3)[0]
    assert G.order_step(st3, seat, G.arm(st3, seat, O.PASS)).kind == "hold"
    assert G.order_step(st3, seat, G.arm(st3, seat, O.SELL)).kind == "hold"


def passing(s: Any) -> bool:
    """Phase 6, the seat to act would pass (the seat filler's reading) and no close plainly pays."""
    return (
        s.phase == R.PHASE_EXEC
        and s.pending is None
        and not O.close_pays(s, s.current)
        and ai.choose(s, s.current) == Exec(choice="pass")
    )


def test_the_pass_fires_a_pass_and_lapses_when_the_round_ends() -> None:
    st = find(passing)
    seat = G.to_act(st)[0]
    order = G.arm(st, seat, O.PASS)
    step = G.order_step(st, seat, order)
    assert step.kind == "fire" and step.action == Exec(choice="pass")
    nxt = advance(st, lambda s: s.round > st.round and seat in G.to_act(s))
    assert nxt is not None
    lapse = G.order_step(nxt, seat, order)
    assert lapse.kind == "lapse" and lapse.reason.key == "core.order.scope_ended"
    # the distributor order is the game's: it holds on into the next round
    assert G.order_step(nxt, seat, G.arm(st, seat, O.SELL)).kind != "lapse"


def test_the_pass_lapses_when_closing_a_factory_pays() -> None:
    def closing_pays(s: Any) -> bool:
        return (
            s.phase == R.PHASE_EXEC
            and s.pending is None
            and s.current is not None
            and Exec(choice="close") in R.legal(s, s.current)
            and O.close_pays(s, s.current)
        )

    st = find(closing_pays)
    seat = G.to_act(st)[0]
    step = G.order_step(st, seat, G.arm(st, seat, O.PASS))
    assert step.kind == "lapse" and step.reason.key == "automobile.order.lapse.close_pays"
    assert has(step.reason.key, "en")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_games_with_orders_replay_equal_and_show_others_what_a_click_shows(seed: int) -> None:
    played = orderplay.play(G, SEATS, seed, keep=20)
    assert G.outcome(played.state) is not None
    assert played.fired.get(O.SELL, 0) > 0 and played.fired.get(O.PASS, 0) > 0
    start = G.new(SEATS, seed=seed)
    for k in G.order_kinds(start, start.seats[0]):  # every order ends with the game
        step = G.order_step(played.state, start.seats[0], G.arm(start, start.seats[0], k.kind, k.params))
        assert step.kind == "lapse" and step.reason.key == "core.order.scope_ended"
    assert orderplay.replays_equal(G, SEATS, seed, None, played)
    for state, seat, action, _ in played.steps:
        orderplay.same_as_clicked(G, state, seat, action)
        orderplay.no_order_in_views(G, state, seat, [G.arm(state, seat, k) for k in (O.SELL, O.PASS)])


def test_the_hidden_timing_is_the_pass_s_and_the_orders_never_read_another_hand() -> None:
    """The pass hides its timing (markers follow the private demand cards); the sales are the
    same for every hand.  Whatever the other seats hold, an order's step is the same."""
    kinds = {k.kind: k for k in G.order_kinds(G.new(SEATS, seed=0), "p1")}
    assert kinds[O.PASS].hide_timing and not kinds[O.SELL].hide_timing
    checked = 0
    for seed in range(3):
        st = G.new(SEATS, seed=seed)
        while G.outcome(st) is None:
            if st.phase in (R.PHASE_DIST, R.PHASE_EXEC):
                seat = G.to_act(st)[0]
                swapped = G.copy_state(st)
                for other in SEATS:
                    if other != seat:
                        swapped.players[other].hand = [5] * len(swapped.players[other].hand)
                for kind in (O.SELL, O.PASS):
                    order = G.arm(st, seat, kind)
                    assert G.order_step(st, seat, order) == G.order_step(swapped, seat, order)
                    checked += 1
            st = G.ai_step(st)[0]
    assert checked > 100


def test_the_pass_lapses_when_a_marker_looks_worth_it() -> None:
    def marker(s: Any) -> bool:
        return (
            s.phase == R.PHASE_EXEC
            and s.pending is None
            and not O.close_pays(s, s.current)
            and ai.choose(s, s.current).choice in ("bonus", "discount2", "discount1")
        )

    st = find(marker)
    seat = G.to_act(st)[0]
    step = G.order_step(st, seat, G.arm(st, seat, O.PASS))
    assert step.kind == "lapse" and step.reason.key == "automobile.order.lapse.marker_pays"


@pytest.mark.parametrize("seed", [5, 6])
def test_the_typical_orders_answer_as_the_seat_filler_does(seed: int) -> None:
    """A game where every seat plays the AI ends the same with the typical orders armed (they
    take the seat filler's answers, or hand the decision back): orders change who waits only."""
    played = orderplay.play(G, SEATS, seed)
    plain = G.new(SEATS, seed=seed)
    while G.outcome(plain) is None:
        plain = G.ai_step(plain)[0]
    assert played.fired.get(O.SELL, 0) and played.fired.get(O.PASS, 0)
    assert G.dump(played.state) == G.dump(plain)

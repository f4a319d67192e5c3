"""The standing-order contract of the engine (issue 31; engine/orders.py):
arming checks the offer and stamps the scope's marker, a seat not to act
holds, an ended scope or a finished game lapses, a game's own reason lapses,
a fired action is checked to be legal, and nothing draws randomness."""

from __future__ import annotations

import random

import nimgame
import ordertoy
import pytest

from engine import GameError, Msg, available, canonical, get_game, register, unregister
from engine.base import _memo
from engine.i18n import t
from engine.orders import ArmedOrder, Fire, Hold, Lapse, OrderKind

SEATS = ["a", "b", "c"]


@pytest.fixture
def bids():
    game = register(ordertoy.GAME)
    yield game
    unregister("bids")


def _play(game, state, *moves):
    for seat, action in moves:
        state, _ = game.apply(state, seat, {"kind": action})
    return state


def test_offers_are_the_games_and_armed_orders_carry_the_scope_marker(bids):
    state = bids.new(SEATS, {}, 7)
    kinds = {k.kind: k for k in bids.order_kinds(state, "b")}
    assert set(kinds) == {"keep_passing", "bid_once", "decline_reroll", "always_reroll", "bad_fire"}
    assert kinds["keep_passing"].label.text("en") == "keep passing"
    order = bids.arm(state, "b", "keep_passing")
    assert order == ArmedOrder(kind="keep_passing", seat="b", scope="phase", marker="r1p0", params={"high": 0})
    assert bids.arm(state, "b", "bid_once").uses == 1 and bids.arm(state, "b", "bid_once").marker == "r1"
    assert bids.arm(state, "c", "decline_reroll").hide_timing and bids.arm(state, "c", "decline_reroll").marker == ""
    # explicit params must be the offered ones
    assert bids.arm(state, "b", "keep_passing", {"high": 0}) == order


@pytest.mark.parametrize(
    "kind, params",
    [
        ("nope", None),  # not offered
        ("keep_passing", {"high": 5}),  # forged params
        ("keep_passing", ["high"]),  # params not an object
        (None, None),
        (3, None),
        ("", None),
    ],
)
def test_arming_what_is_not_offered_is_refused_with_bad_order(bids, kind, params):
    state = bids.new(SEATS, {}, 7)
    with pytest.raises(GameError) as exc:
        bids.arm(state, "b", kind, params)
    assert exc.value.code == "bad_order" and exc.value.key == "core.error.bad_order"
    assert exc.value.message("en") != "core.error.bad_order" and exc.value.message("zh") != exc.value.message("en")


def test_arming_refuses_unknown_seats_and_a_finished_game(bids):
    state = bids.new(SEATS, {"rounds": 1}, 7)
    with pytest.raises(GameError) as exc:
        bids.arm(state, "zed", "keep_passing")
    assert exc.value.code == "unknown_seat"
    state = _play(bids, state, *[(s, "pass") for s in SEATS], *[(s, "keep") for s in SEATS])
    assert bids.outcome(state) is not None
    assert bids.order_kinds(state, "a") == []
    with pytest.raises(GameError) as exc:
        bids.arm(state, "a", "decline_reroll")
    assert exc.value.code == "bad_order"


def test_an_order_offered_only_to_a_seat_still_to_act_in_the_round(bids):
    state = _play(bids, bids.new(SEATS, {}, 7), ("a", "pass"), ("b", "pass"))
    assert "bid_once" not in {k.kind for k in bids.order_kinds(state, "a")}
    with pytest.raises(GameError):
        bids.arm(state, "a", "bid_once")
    bids.arm(state, "c", "bid_once")  # c is to act: still offered


def test_armed_while_another_seat_is_to_act_it_holds_then_fires(bids):
    state = bids.new(SEATS, {}, 7)
    order = bids.arm(state, "c", "keep_passing")
    assert bids.to_act(state) == ["a"]
    assert bids.order_step(state, "c", order) == Hold()
    state = _play(bids, state, ("a", "pass"), ("b", "pass"))
    step = bids.order_step(state, "c", order)
    assert isinstance(step, Fire) and step.action.kind == "pass"
    # the fired action is the very object legal_actions offered (apply takes it without recomputing)
    assert any(step.action is a for a in _memo(state)["c"])


def test_the_games_reason_lapses_an_order(bids):
    state = bids.new(SEATS, {}, 7)
    order = bids.arm(state, "c", "keep_passing")
    state = _play(bids, state, ("a", "bid"), ("b", "pass"))
    step = bids.order_step(state, "c", order)
    assert step == Lapse(reason=Msg(key="bids.order.someone_bid"))
    assert step.reason.text("zh") == t("bids.order.someone_bid", "zh") != step.reason.text("en")


def test_an_order_lapses_when_its_scope_ends(bids):
    state = bids.new(SEATS, {}, 7)
    phase = bids.arm(state, "a", "keep_passing")
    round_ = bids.arm(state, "a", "bid_once")
    game = bids.arm(state, "a", "decline_reroll")
    state = _play(bids, state, ("a", "pass"), ("b", "pass"), ("c", "pass"))  # the bidding phase ends
    assert bids.order_step(state, "a", phase) == Lapse(reason=Msg(key="core.order.scope_ended"))
    assert bids.order_step(state, "a", round_) == Hold()  # the round goes on; not a decision it covers
    assert isinstance(bids.order_step(state, "a", game), Fire)
    state = _play(bids, state, ("a", "keep"), ("b", "keep"), ("c", "keep"))  # round 2
    assert bids.order_step(state, "a", round_) == Lapse(reason=Msg(key="core.order.scope_ended"))
    assert bids.order_step(state, "a", game) == Hold()


def test_every_order_lapses_when_the_game_is_over(bids):
    state = bids.new(SEATS, {"rounds": 1}, 7)
    order = bids.arm(state, "b", "decline_reroll")
    state = _play(bids, state, *[(s, "pass") for s in SEATS], *[(s, "keep") for s in SEATS])
    assert bids.order_step(state, "b", order) == Lapse(reason=Msg(key="core.order.scope_ended"))


def test_a_fired_action_that_is_not_legal_lapses(bids):
    state = bids.new(SEATS, {}, 7)
    again = bids.arm(state, "a", "always_reroll")
    broken = bids.arm(state, "a", "bad_fire")
    assert bids.order_step(state, "a", broken) == Lapse(reason=Msg(key="core.order.no_longer_legal"))
    state = _play(bids, state, *[(s, "pass") for s in SEATS])
    step = bids.order_step(state, "a", again)
    assert isinstance(step, Fire) and step.action.kind == "reroll"
    state, _ = bids.apply(state, "a", step.action)
    state = _play(bids, state, ("b", "keep"), ("c", "keep"), *[(s, "pass") for s in SEATS])
    assert bids.order_step(state, "a", again) == Lapse(reason=Msg(key="core.order.no_longer_legal"))
    for key in ("core.order.scope_ended", "core.order.no_longer_legal"):
        assert t(key, "en") != key and t(key, "zh") != key and t(key, "zh") != t(key, "en")


def test_orders_are_pure_and_draw_no_randomness(bids):
    state = _play(bids, bids.new(SEATS, {}, 11), *[(s, "pass") for s in SEATS])
    before = canonical(bids.dump(state))
    for seat in SEATS:
        for offer in bids.order_kinds(state, seat):
            order = bids.arm(state, seat, offer.kind)
            bids.order_step(state, seat, order)
            bids.order_marker(state, order.scope)
    assert canonical(bids.dump(state)) == before


def test_a_game_without_order_hooks_offers_none_and_the_public_methods_are_the_bases(bids):
    nim = nimgame.GAME
    state = nim.new(["a", "b"], {}, 1)
    assert nim.order_kinds(state, "b") == [] and nim.order_marker(state, "game") == ""
    with pytest.raises(GameError) as exc:
        nim.arm(state, "b", "keep_passing")
    assert exc.value.code == "bad_order"
    with pytest.raises(TypeError):
        type("Bad", (type(bids),), {"order_step": lambda self, *a: Hold()})
    with pytest.raises(TypeError):
        type("Bad", (type(bids),), {"arm": lambda self, *a: None})


@pytest.mark.parametrize("game_id", available())
def test_every_games_orders_keep_the_contract(game_id):
    """For every registered game, along a random game: every offered order arms
    with its own marker, and asking it changes nothing and fires only legal actions."""
    game = get_game(game_id)
    state = game.new([f"s{i}" for i in range(game.min_seats)], {}, 5)
    rnd = random.Random(5)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        before = canonical(game.dump(state))
        for seat in state.seats:
            for offer in game.order_kinds(state, seat):
                order = game.arm(state, seat, offer.kind, offer.params)
                assert order.marker == game.order_marker(state, offer.scope)
                step = game.order_step(state, seat, order)
                assert isinstance(step, (Fire, Hold, Lapse))
                if isinstance(step, Fire):
                    assert step.action in game.legal_actions(state, seat)
        assert canonical(game.dump(state)) == before
        seat = rnd.choice(game.to_act(state))
        state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))


def test_order_models_reject_bad_shapes():
    with pytest.raises(ValueError):
        OrderKind(kind="x", label=Msg(key="k"), scope="season")
    with pytest.raises(ValueError):
        OrderKind(kind="x", label=Msg(key="k"), scope="game", uses=0)
    with pytest.raises(ValueError):
        ArmedOrder(kind="x", seat="a", scope="game", marker="", extra=1)

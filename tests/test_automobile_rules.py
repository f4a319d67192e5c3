"""Automobile: one test (or a few) per rule sentence, with worked numbers.

Space ids used below (data/automobile/board.json):
low  2 (era 1, $200), 4 ($210), 7 ($220), 9 (era 2, $240)
mid  0 (era 1, $300), 3 ($310), 6 ($320), 10 (era 2, $340)
high 1 (era 1, $400), 5 ($410), 8 ($420)
"""

import pytest

from engine import GameError, canonical
from engine.automobile import GAME
from engine.automobile import content as D
from engine.automobile import rules as R
from engine.automobile.models import (
    Act,
    BuildClass,
    BuildCount,
    BuildParts,
    BuildSpace,
    Cancel,
    Close,
    DistMove,
    DistStop,
    Done,
    Exec,
    HowardSell,
    Loan,
    Marker,
    Pick,
    PlaceDist,
    Produce,
)


# ------------------------------------------------------------ helpers
def start(order=("a", "b", "c"), seed=1):
    st = GAME.new(["a", "b", "c"], seed=seed)
    st.selection_order = list(order)
    st.current = order[0]
    return st


def pick_all(st, chars):
    for ch in chars:
        st, _ = GAME.apply(st, GAME.to_act(st)[0], Pick(character=ch))
    return st


def actions_phase(chars=("ford", "kettering", "sloan"), order=("a", "b", "c")):
    """a, b, c pick ``chars`` in that order; returns the state at the first action."""
    return pick_all(start(order), chars)


def do(st, *actions):
    events = []
    for a in actions:
        st, ev = GAME.apply(st, GAME.to_act(st)[0], a)
        events += ev
    return st, events


def legal(st):
    return GAME.legal_actions(st, GAME.to_act(st)[0])


def own(st, space, seat, factories=1, cars=0, parts=False):
    sp = st.spaces[space]
    sp.owner, sp.factories, sp.cars, sp.parts = seat, factories, cars, parts


# ======================================================== phase 1: demand
def test_round_one_each_player_draws_one_private_card():
    st = GAME.new(["a", "b", "c"], seed=4)
    assert all(len(st.players[s].hand) == 1 for s in "abc")
    assert len(st.bag) == 13
    v = GAME.view(st, "a")
    assert v.hand == st.players["a"].hand and v.viewer == "a"
    assert "hand" not in GAME.view(st, None).model_dump()
    assert all(v.players[s].hand_count == 1 for s in "abc")


def test_demand_cards_are_values_two_to_five_four_of_each():
    assert sorted(D.rules()["demand_tiles"]) == [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4


def test_rigged_draw_goes_to_players_in_selection_order_and_is_private():
    st = start()
    st.round = 2
    st.bag = list(D.rules()["demand_tiles"])
    st = GAME.rig(st, "deck.demand", [5, 2, 4, 4, 3, 2])
    ev = []
    R.start_round(st, ev)
    assert [st.players[s].hand for s in "abc"] == [[5, 2], [4, 4], [3, 2]]
    private = [e for e in ev if e.kind == "demand_drawn"]
    assert [(e.to, e.cards) for e in private] == [(["a"], [5, 2]), (["b"], [4, 4]), (["c"], [3, 2])]
    public = [e for e in ev if e.to is None]
    assert all(not hasattr(e, "cards") for e in public)


@pytest.mark.parametrize(
    "rnd,extra,expected",
    [
        (1, [], {"low": 0, "mid": 12, "high": 0}),  # 1 card each, all mid: 5+4+3
        (2, [], {"low": 8, "mid": 13, "high": 0}),  # larger to mid 5+4+4, smaller to low 2+3+3... see hands
        (3, [4], {"low": 13, "mid": 8, "high": 4}),  # larger to low, smaller to mid, +1 card high
        (4, [5, 2], {"low": 15, "mid": 8, "high": 5}),  # and one more card for low
    ],
)
def test_demand_assignment_by_round(rnd, extra, expected):
    st = start()
    st.round = rnd
    hands = {"a": [5], "b": [4], "c": [3]} if rnd == 1 else {"a": [5, 2], "b": [4, 3], "c": [4, 3]}
    for s, h in hands.items():
        st.players[s].hand = h
    st.bag = [2, 2, 5, 5, 4]
    st.action_order = ["a", "b", "c"]
    st = GAME.rig(st, "demand.extra", extra)
    ev = []
    R.phase_demand(st, ev)
    if rnd == 2:
        expected = {"low": 2 + 3 + 3, "mid": 5 + 4 + 4, "high": 0}
    assert st.demand == expected
    assert st.revealed == hands
    rev = [e for e in ev if e.kind == "demand_revealed"]
    assert rev and rev[0].to is None


# ================================================= phase 2: characters
def test_selection_in_track_order_takes_rd_cubes_and_sets_action_order():
    st = start(order=("c", "a", "b"))
    assert GAME.to_act(st) == ["c"]
    st, ev = do(st, Pick(character="kettering"))
    assert st.players["c"].rd == 3 and st.char_rd["kettering"] == 0
    assert GAME.to_act(st) == ["a"]
    with pytest.raises(GameError) as err:
        GAME.apply(st, "a", Pick(character="kettering"))  # each character once
    assert err.value.code == "not_allowed"
    st, _ = do(st, Pick(character="chrysler"), Pick(character="ford"))
    assert st.players["a"].rd == 2 and st.players["b"].rd == 0
    # Ford first ... Chrysler last, whatever the order of choosing
    assert st.action_order == ["b", "c", "a"] and st.phase == 3 and GAME.to_act(st) == ["b"]


def test_durant_builds_a_factory_immediately_or_declines():
    st = start()
    st, ev = do(st, Pick(character="durant"))
    assert st.pending.kind == "build_class" and st.pending.origin == "durant" and GAME.to_act(st) == ["a"]
    assert Cancel() in legal(st)
    st, ev = do(st, BuildClass(cls="mid"), BuildSpace(space=0))
    assert st.spaces[0].owner == "a" and st.spaces[0].factories == 1
    assert st.players["a"].money == 2000 - 300 and st.players["a"].rd == 1
    assert GAME.to_act(st) == ["b"] and st.pending is None
    st2 = start()
    st2, ev = do(st2, Pick(character="durant"), Cancel())
    assert any(e.kind == "durant_decline" for e in ev) and GAME.to_act(st2) == ["b"]


# ====================================================== phase 3: actions
def test_three_action_rounds_in_action_order():
    st = actions_phase()
    seen = []
    for _ in range(9):
        seen.append(GAME.to_act(st)[0])
        st, _ = do(st, Act(what="rd"))
    assert seen == ["a", "b", "c"] * 3
    assert st.players["a"].rd == 0 + 6 and st.players["b"].rd == 3 + 6 and st.players["c"].rd == 1 + 6
    assert st.phase > 3


def test_build_one_or_two_factories_pays_printed_cost():
    st = actions_phase()
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"))
    assert BuildSpace(space=0) in legal(st)
    st, _ = do(st, BuildSpace(space=0))
    counts = [a.count for a in legal(st) if isinstance(a, BuildCount)]
    assert counts == [1, 2, 3]  # a is Ford: one extra factory
    st, ev = do(st, BuildCount(count=2))
    assert st.players["a"].money == 2000 - 600 and st.spaces[0].factories == 2
    assert GAME.to_act(st) == ["b"]


def test_jump_fee_per_factory_counts_skipped_spaces_of_the_class():
    st = actions_phase(chars=("kettering", "sloan", "howard"))  # a has 3 R&D
    assert R.jump_fee(st, 0) == 0 and R.jump_fee(st, 3) == 1 and R.jump_fee(st, 6) == 2
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=6))
    # 2 factories would need 4 R&D: only 1 is offered
    assert [a.count for a in legal(st) if isinstance(a, BuildCount)] == [1]
    st, ev = do(st, BuildCount(count=1))
    assert st.players["a"].rd == 1 and st.players["a"].money == 2000 - 320
    assert ev[0].kind == "build" and ev[0].rd == 2
    # now space 6 is the newest occupied mid space: older spaces cost no R&D
    assert R.jump_fee(st, 0) == 0 and R.jump_fee(st, 3) == 0


def test_build_only_available_era_own_spaces_and_not_closed():
    st = actions_phase()
    own(st, 3, "b")
    st.spaces[4].closed = True
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"))
    spaces = [a.space for a in legal(st) if isinstance(a, BuildSpace)]
    assert 3 not in spaces and 10 not in spaces and 0 in spaces  # b's space; era 2 in round 1
    st, _ = do(st, Cancel(), Act(what="build"), BuildClass(cls="low"))
    assert 4 not in [a.space for a in legal(st) if isinstance(a, BuildSpace)]  # closed-factory tile


def test_at_most_three_factories_and_one_parts_factory_per_space():
    st = actions_phase()  # a is Ford: still only one more factory fits
    own(st, 0, "a", factories=2)
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=0))
    opts = legal(st)
    assert [a.count for a in opts if isinstance(a, BuildCount)] == [1] and BuildParts() in opts
    st, ev = do(st, BuildParts())
    assert st.spaces[0].parts and st.players["a"].money == 2000 - 500
    st.turn = 3  # a's next action
    st.current = "a"
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=0))
    assert BuildParts() not in legal(st)


def test_place_up_to_three_distributors_of_eight():
    st = actions_phase()
    st, ev = do(st, Act(what="distributors"), PlaceDist(cls="mid"), PlaceDist(cls="mid"), PlaceDist(cls="high"))
    p = st.players["a"]
    assert p.dist == {"low": 0, "mid": 2, "high": 1} and p.dist_supply == 5 and GAME.to_act(st) == ["b"]
    st, _ = do(st, Act(what="distributors"), PlaceDist(cls="low"), Done())
    assert st.players["b"].dist_supply == 7 and GAME.to_act(st) == ["c"]


@pytest.mark.parametrize(
    "cls,space,table",
    [
        ("low", 2, [(1, 2), (3, 4), (5, 6)]),
        ("mid", 0, [(1, 3), (4, 7), (8, 11)]),
        ("high", 1, [(1, 4), (5, 9), (10, 14)]),
    ],
)
def test_production_ranges_per_factory_count_and_class(cls, space, table):
    for factories, (lo, hi) in enumerate(table, start=1):
        st = actions_phase()
        own(st, space, "a", factories=factories)
        st, _ = do(st, Act(what="produce"))
        assert [a.count for a in legal(st)] == [0] + list(range(lo, hi + 1))


def test_production_cost_per_class_and_parts_factory_discount():
    st = actions_phase()
    own(st, 0, "a", factories=2)  # mid, $60 a car
    own(st, 2, "a", factories=1, parts=True)  # low, $30 - $20 = $10 a car
    st, ev = do(st, Act(what="produce"), Produce(space=0, count=7), Produce(space=2, count=2))
    assert st.players["a"].money == 2000 - 7 * 60 - 2 * 10
    assert st.spaces[0].cars == 7 and st.spaces[2].cars == 2 and GAME.to_act(st) == ["b"]
    assert [e.delta for e in ev if e.kind == "produce"] == [-420, -20]


def test_production_must_reach_the_minimum_and_is_limited_by_money():
    st = actions_phase()
    own(st, 0, "a", factories=2)  # mid 4-7 at $60
    st.players["a"].money = 300
    st, _ = do(st, Act(what="produce"))
    assert [a.count for a in legal(st)] == [0, 4, 5]
    with pytest.raises(GameError) as err:
        GAME.apply(st, "a", Produce(space=0, count=3))
    assert err.value.code == "not_allowed"


def test_close_refunds_cost_less_100_parts_400_and_halves_losses_rounding_up():
    st = actions_phase()
    own(st, 3, "a", factories=2, parts=True)  # mid $310
    st.players["a"].losses = 5
    st, ev = do(st, Act(what="close"), Close(space=3))
    assert st.players["a"].money == 2000 + 2 * 210 + 400
    assert st.players["a"].losses == 2  # 5 - ceil(5/2)
    sp = st.spaces[3]
    assert sp.closed and sp.factories == 0 and not sp.parts and st.closed_used == 1


def test_closing_removes_the_cars_still_on_the_space():
    """Ruling (docs/rulings.md, Automobile D, 关闭停产车型位): the discontinued model's cars leave
    with its factories, unsold and without loss points; produce-then-close no longer pays."""
    st = actions_phase()
    st.round = 4
    own(st, 3, "a", factories=2)
    st, _ = do(st, Act(what="produce"), Produce(space=3, count=7))
    assert st.spaces[3].cars == 7
    st, _ = do(st, Act(what="rd"), Act(what="rd"))  # b, c
    label = GAME.action_label(GAME.apply(st, "a", Act(what="close"))[0], Close(space=3), "en")
    assert "7 cars leave unsold" in label
    st, ev = do(st, Act(what="close"), Close(space=3))
    close = next(e for e in ev if e.kind == "close")
    assert close.cars == 7 and st.spaces[3].cars == 0 and st.players["a"].losses == 0
    assert "withdrawn" in GAME.event_text(close, "en") and "撤回" in GAME.event_text(close, "zh")
    assert R.cars_on_board(st, "a") == 0  # the cars are back in a's supply


def test_ruleset_1_closing_kept_the_cars():
    st = GAME.new(["a", "b", "c"], {"ruleset": 1}, seed=1)
    st.selection_order = ["a", "b", "c"]
    st.current = "a"
    st = pick_all(st, ("ford", "kettering", "sloan"))
    own(st, 3, "a", factories=2, cars=5)
    st, ev = do(st, Act(what="close"), Close(space=3))
    assert st.spaces[3].cars == 5 and next(e for e in ev if e.kind == "close").cars == 0


def test_loans_at_most_two_of_500():
    st = actions_phase()
    st, ev = do(st, Loan())
    assert st.players["a"].money == 2500 and st.players["a"].loans == 1 and GAME.to_act(st) == ["a"]
    st, _ = do(st, Loan())
    assert Loan() not in legal(st)
    with pytest.raises(GameError):
        GAME.apply(st, "a", Loan())


# ================================================= phase 4: Howard sales
def test_howard_must_sell_two_cars_mid_150_low_100_not_high():
    st = actions_phase(chars=("howard", "ford", "sloan"))
    own(st, 0, "a", factories=1, cars=3)
    own(st, 2, "a", factories=1, cars=1)
    own(st, 1, "a", factories=1, cars=2)
    ev = []
    R.phase_howard(st, ev)
    assert st.phase == 4 and GAME.to_act(st) == ["a"]
    assert {a.space for a in legal(st)} == {0, 2}
    st, ev = do(st, HowardSell(space=2))
    # only mid cars remain: the second sale is forced and automatic
    assert st.players["a"].money == 2100 + 150 and st.spaces[0].cars == 2
    assert st.phase == 6  # nobody has distributors: phase 5 resolves at once
    assert [e.price for e in ev if e.kind == "howard_sale"] == [100, 150]


def test_howard_without_cars_sells_nothing():
    st = actions_phase(chars=("howard", "ford", "sloan"))
    ev = []
    R.phase_howard(st, ev)
    assert st.phase in (5, 6) and st.players["a"].money == 2000


# ============================================ phase 5: distributor sales
def _dist_state(round_=1):
    st = actions_phase()
    st.round = round_
    st.action_order = ["a", "b", "c"]
    return st


def test_distributor_moves_one_step():
    st = _dist_state()
    st.players["a"].dist = {"low": 1, "mid": 1, "high": 1}
    own(st, 2, "a", cars=2)
    own(st, 0, "a", cars=2)
    own(st, 1, "a", cars=2)
    R.phase_dist(st, [])
    moves = {(a.src, a.lane) for a in legal(st) if isinstance(a, DistMove)}
    assert moves == {
        ("high", "high"),
        ("high", "mid"),
        ("mid", "high"),
        ("mid", "mid"),
        ("mid", "low"),
        ("low", "mid"),
        ("low", "low"),
    }


@pytest.mark.parametrize("round_,capacity", [(1, 3), (2, 6), (3, 9), (4, 9)])
def test_sales_boxes_open_by_round(round_, capacity):
    st = _dist_state(round_)
    assert R.lane_capacity(st) == capacity  # 1 slot per player per open box: 1-4 / 2-4 / 3-4


def test_distributor_sales_take_turns_full_price_until_boxes_full_and_unused_score_losses():
    st = _dist_state()
    st.players["a"].dist, st.players["a"].dist_supply = {"low": 0, "mid": 3, "high": 0}, 5
    st.players["b"].dist, st.players["b"].dist_supply = {"low": 0, "mid": 1, "high": 0}, 7
    own(st, 0, "a", cars=5)
    own(st, 3, "b", cars=5)
    R.phase_dist(st, [])
    assert GAME.to_act(st) == ["a"]
    st, ev = do(st, DistMove(src="mid", lane="mid"))  # one space only: the car is picked automatically
    assert st.players["a"].money == 2150 and st.spaces[0].cars == 4 and GAME.to_act(st) == ["b"]
    st, ev = do(st, DistMove(src="mid", lane="mid"))
    assert st.players["b"].money == 2150 and GAME.to_act(st) == ["a"]  # b has no distributor left
    st, ev = do(st, DistMove(src="mid", lane="mid"))
    # the mid lane holds 3 cars in round 1: full, a's last distributor is unused
    assert st.phase == 6
    a = st.players["a"]
    assert (
        a.money == 2300 and a.losses == 1 and a.dist_supply == 8 - 3 + 1 and a.dist == {"low": 0, "mid": 2, "high": 0}
    )
    assert any(e.kind == "dist_unused" and e.seat == "a" and e.n == 1 for e in ev)


def test_used_distributor_returns_to_the_square_of_its_lane():
    st = _dist_state()
    st.players["a"].dist = {"low": 0, "mid": 1, "high": 0}
    own(st, 2, "a", cars=1)
    R.phase_dist(st, [])
    st, _ = do(st, DistMove(src="mid", lane="low"))
    assert st.players["a"].dist == {"low": 1, "mid": 0, "high": 0} and st.players["a"].money == 2100


def test_stopping_early_leaves_unused_distributors_as_losses():
    st = _dist_state()
    st.players["a"].dist, st.players["a"].dist_supply = {"low": 0, "mid": 2, "high": 0}, 6
    own(st, 0, "a", cars=5)
    R.phase_dist(st, [])
    st, ev = do(st, DistStop())
    assert st.players["a"].losses == 2 and st.players["a"].dist_supply == 8 and st.phase == 6


# =========================================== phase 6: executive decisions
def _exec_state():
    st = actions_phase()
    st.action_order = ["a", "b", "c"]
    R.phase_exec(st, [])
    return st


def test_only_one_player_per_round_may_close():
    st = _exec_state()
    own(st, 0, "a", factories=1)
    own(st, 3, "b", factories=1)
    own(st, 6, "a", factories=1)
    st, ev = do(st, Exec(choice="close"))
    assert Cancel() not in legal(st)
    st, ev = do(st, Close(space=0))
    assert st.players["a"].money == 2000 + 200 and GAME.to_act(st) == ["b"]
    assert Exec(choice="close") not in legal(st)
    st, _ = do(st, Exec(choice="pass"), Exec(choice="pass"))
    # a's second turn: a still has a factory (space 6), but the round's one close is used
    assert GAME.to_act(st) == ["a"] and Exec(choice="close") not in legal(st)


def test_decisions_go_round_in_order_until_everyone_passed():
    """「按顺序轮流，每人做 1 项决策，全部通过后进入下一阶段」: one decision a turn, in action
    order, skipping those who passed, until all have passed."""
    st = _exec_state()
    for seat, space in (("a", 0), ("b", 3), ("c", 6)):
        own(st, space, seat)
    own(st, 2, "a")
    st.players["a"].rd = 5
    turns = []
    for choice in ("bonus", "pass", "discount1", "bonus", "pass", "pass"):
        seat = GAME.to_act(st)[0]
        turns.append(seat)
        st, _ = do(st, Exec(choice=choice))
        if st.pending is not None:
            st, _ = do(st, Marker(space=GAME.legal_actions(st, seat)[0].space))
        assert st.phase == 6 or choice == "pass"
    # a bonus; b passes; c discount; a bonus again (b is skipped); c passes; a passes
    assert turns == ["a", "b", "c", "a", "c", "a"]
    assert st.round == 2 and st.phase == 2 and st.spaces[0].bonus is False  # cleaned up
    # the passing order (b, c, a) is the next round's choosing order
    assert st.selection_order == ["b", "c", "a"]


def test_a_player_who_passed_gets_no_more_turns():
    st = _exec_state()
    own(st, 0, "a")
    own(st, 3, "b")
    st.players["b"].rd = 4
    st, _ = do(st, Exec(choice="pass"))  # a
    st, _ = do(st, Exec(choice="bonus"), Marker(space=3))  # b
    st, _ = do(st, Exec(choice="pass"))  # c
    # only b has not passed: b decides again and again until it passes
    assert GAME.to_act(st) == ["b"]
    assert Exec(choice="bonus") not in legal(st)  # b's only space already has a bonus marker
    st, _ = do(st, Exec(choice="discount1"), Marker(space=3))
    assert GAME.to_act(st) == ["b"]
    st, _ = do(st, Exec(choice="pass"))
    assert st.round == 2 and st.selection_order == ["a", "c", "b"]


def test_bonus_markers_first_costs_two_rd_then_one_one_per_space():
    st = _exec_state()
    own(st, 0, "a")
    own(st, 3, "b")
    own(st, 6, "c")
    st.players["a"].rd = 2
    st.players["b"].rd = 1
    st.players["c"].rd = 1
    st, _ = do(st, Exec(choice="bonus"), Marker(space=0))
    assert st.players["a"].rd == 0 and st.spaces[0].bonus
    st, _ = do(st, Exec(choice="bonus"), Marker(space=3))
    assert st.players["b"].rd == 0 and st.bonus_left == [1]
    st, ev = do(st, Exec(choice="bonus"), Marker(space=6))
    assert st.players["c"].rd == 0 and [e.price for e in ev if e.kind == "bonus_bought"] == [1]
    # all 3 markers are out: nobody may buy another this round
    own(st, 2, "a")
    st.players["a"].rd = 5
    assert GAME.to_act(st) == ["a"] and Exec(choice="bonus") not in legal(st)


def test_three_bonus_markers_can_go_to_one_player_over_several_turns():
    st = _exec_state()
    for space in (0, 2, 3, 4):
        own(st, space, "a")
    st.players["a"].rd = 4
    for space in (0, 2, 3):
        st, _ = do(st, Exec(choice="bonus"), Marker(space=space))
        st, _ = do(st, Exec(choice="pass")) if GAME.to_act(st) == ["b"] else (st, [])
        st, _ = do(st, Exec(choice="pass")) if GAME.to_act(st) == ["c"] else (st, [])
    assert (
        st.players["a"].rd == 0
        and st.bonus_left == []
        and [i for i in (0, 2, 3, 4) if st.spaces[i].bonus]
        == [
            0,
            2,
            3,
        ]
    )
    assert GAME.to_act(st) == ["a"] and Exec(choice="bonus") not in legal(st)


def test_first_bonus_needs_two_rd():
    st = _exec_state()
    own(st, 0, "a")
    st.players["a"].rd = 1
    assert Exec(choice="bonus") not in legal(st)


def test_discount_markers_pair_or_single_not_on_high_or_twice():
    st = _exec_state()
    own(st, 0, "a")
    own(st, 1, "a")  # high: never a discount marker
    assert Exec(choice="discount2") not in legal(st)  # only one eligible space
    st, _ = do(st, Exec(choice="discount1"))
    assert [a.space for a in legal(st)] == [0]
    st, _ = do(st, Marker(space=0))
    own(st, 3, "b")
    own(st, 4, "b")
    st, _ = do(st, Exec(choice="discount2"), Marker(space=3))
    assert [a.space for a in legal(st)] == [4]  # not twice on space 3
    st, _ = do(st, Marker(space=4))
    assert st.discount_left == [1] and st.spaces[3].discount and st.spaces[4].discount
    # c has nothing to mark; a's next turn: space 0 has a marker, space 1 is high: no discount for a
    st, _ = do(st, Exec(choice="pass"))
    assert GAME.to_act(st) == ["a"] and Exec(choice="discount1") not in legal(st)
    st, _ = do(st, Exec(choice="pass"))
    # b's second turn: both its spaces are marked, so the last single has no space
    assert GAME.to_act(st) == ["b"] and Exec(choice="discount1") not in legal(st)


def test_discount_markers_run_out_after_the_pair_and_two_singles():
    st = _exec_state()
    for space in (0, 2, 3, 4, 6):
        own(st, space, "a")
    st, _ = do(st, Exec(choice="discount2"), Marker(space=0), Marker(space=2))
    st, _ = do(st, Exec(choice="pass"), Exec(choice="pass"))  # b, c
    st, _ = do(st, Exec(choice="discount1"), Marker(space=3))
    st, _ = do(st, Exec(choice="discount1"), Marker(space=4))
    assert st.discount_left == [] and Exec(choice="discount1") not in legal(st)
    assert legal(st) == [Exec(choice="close"), Exec(choice="pass")]


def test_pass_sets_next_round_selection_order():
    st = _exec_state()
    st.players["a"].hand, st.players["b"].hand, st.players["c"].hand = [3], [4], [5]
    st, _ = do(st, Exec(choice="pass"))  # a passes first
    own(st, 0, "b")
    st.players["b"].rd = 2
    st, _ = do(st, Exec(choice="bonus"), Marker(space=0))  # b decides
    st, _ = do(st, Exec(choice="pass"))  # c passes second
    assert st.phase == 6 and GAME.to_act(st) == ["b"]
    st, _ = do(st, Exec(choice="pass"))  # b passes last
    assert st.round == 2 and st.selection_order == ["a", "c", "b"] and GAME.to_act(st) == ["a"]


def test_schema_1_game_keeps_one_decision_each():
    """A game stored before the round-until-passed ruling plays on (and replays) under its rules."""
    st = _exec_state()
    data = GAME.dump(st)
    data["schema_version"] = 1
    data.pop("ruleset")
    data["exec_done"] = []
    old = GAME.load(data)
    assert old.ruleset == 1 and old.schema_version == 2
    own(old, 0, "b")
    old.players["b"].rd = 2
    old, _ = do(old, Exec(choice="pass"), Exec(choice="bonus"), Marker(space=0), Exec(choice="pass"))
    assert old.round == 2 and old.selection_order == ["a", "c", "b"]


# ============================================== phase 7: demand sales
def test_demand_sales_newest_first_with_bonus_and_discount_markers():
    st = start()
    st.round = 1
    st.action_order = ["a", "b", "c"]
    own(st, 0, "a", cars=4)
    own(st, 3, "b", cars=4)
    st.spaces[3].bonus = True
    own(st, 6, "c", cars=3)
    st.spaces[6].discount = True
    st.players["a"].hand, st.players["b"].hand, st.players["c"].hand = [2], [3], [3]  # mid demand 8
    ev = []
    R.phase_demand(st, ev)
    sales = [(e.seat, e.n, e.price) for e in ev if e.kind == "demand_sale"]
    assert sales == [("c", 2, 100), ("b", 2, 150), ("a", 1, 150), ("c", 1, 100), ("b", 2, 150)]
    assert st.players["c"].money == 2300 and st.players["b"].money == 2600 and st.players["a"].money == 2150
    # a's 3 unsold cars: 3 loss points, cars gone
    assert st.players["a"].losses == 3 and st.spaces[0].cars == 0


def test_discounted_prices_low_70_mid_100():
    st = start()
    st.round = 2
    st.action_order = ["a", "b", "c"]
    own(st, 2, "a", cars=1)
    own(st, 0, "b", cars=1)
    st.spaces[2].discount = st.spaces[0].discount = True
    st.players["a"].hand, st.players["b"].hand, st.players["c"].hand = [2, 2], [2, 2], [2, 2]
    R.phase_demand(st, [])
    assert st.players["a"].money == 2070 and st.players["b"].money == 2100


# ===================================================== phase 8: losses
def test_loss_points_per_class_newest_first_closed_tile_counts():
    st = start()
    st.round = 2
    st.action_order = ["a", "b", "c"]
    own(st, 7, "a")  # newest low: 0
    st.spaces[4].closed = True  # occupied, scores nothing
    own(st, 2, "b")  # third: 2 points
    own(st, 6, "c")  # newest mid: 0
    own(st, 0, "a")  # second mid: 1
    ev = []
    R.phase_loss(st, ev)
    pts = [(e.seat, e.space, e.n) for e in ev if e.kind == "loss_points"]
    assert pts == [("b", 2, 2), ("a", 0, 1)]
    assert st.players["a"].money == 2000 - 20 and st.players["b"].money == 2000 - 40
    assert st.players["a"].losses == 1 and st.players["b"].losses == 2  # points are kept after paying


@pytest.mark.parametrize("rnd,fee", [(1, 30), (2, 60), (3, 90), (4, 120)])
def test_loss_fee_by_round(rnd, fee):
    st = start()
    st.round = rnd
    st.action_order = ["a", "b", "c"]
    st.players["a"].losses = 3
    R.phase_loss(st, [])
    assert st.players["a"].money == 2000 - fee and st.players["a"].losses == 3


def test_sloan_discards_half_rounding_up_and_chrysler_the_round_number_after_paying():
    st = start()
    st.round = 3
    st.action_order = ["a", "b", "c"]
    st.taken = {"sloan": "a", "chrysler": "b"}
    st.players["a"].losses = 5
    st.players["b"].losses = 5
    st.players["c"].losses = 5
    R.phase_loss(st, [])
    assert [st.players[s].money for s in "abc"] == [2000 - 150] * 3
    assert st.players["a"].losses == 2 and st.players["b"].losses == 2 and st.players["c"].losses == 5


def test_interest_50_per_loan():
    st = start()
    st.action_order = ["a", "b", "c"]
    st.players["a"].loans = 2
    st.players["a"].money = 3000
    R.phase_loss(st, [])
    assert st.players["a"].money == 2900


def test_unpayable_fee_takes_an_emergency_loan_then_arrears_never_negative():
    st = start()
    st.round = 2
    st.action_order = ["a", "b", "c"]
    st.players["a"].money, st.players["a"].losses = 30, 5
    ev = []
    R.phase_loss(st, ev)
    assert st.players["a"].loans == 1 and st.players["a"].money == 30 + 500 - 100 - 50
    st.players["b"].money, st.players["b"].losses, st.players["b"].loans = 30, 5, 2
    R.phase_loss(st, ev)
    b = st.players["b"]
    assert b.money == 0 and b.arrears == 100 + 100 - 30 and b.bankrupt


# ==================================================== phase 9: clean-up
def test_clean_up_returns_cards_markers_and_restocks():
    st = _exec_state()
    for s, h in zip("abc", ([3], [4], [5])):
        st.players[s].hand = h
    own(st, 0, "a", cars=1)
    st.spaces[0].bonus = True
    st.bonus_left = [1]
    st.discount_left = []
    st.exec_close = 0
    st = GAME.rig(st, "deck.demand", [2, 2, 3, 3, 4, 4])
    st, ev = do(st, Exec(choice="pass"), Exec(choice="pass"), Exec(choice="pass"))
    assert st.round == 2 and st.phase == 2
    assert (
        not st.spaces[0].bonus and st.bonus_left == [2, 1, 1] and st.discount_left == [2, 1, 1] and st.exec_close == 1
    )
    assert st.char_rd == D.character_rd() and all(st.players[s].character is None for s in "abc")
    assert [st.players[s].hand for s in "abc"] == [[2, 2], [3, 3], [4, 4]]
    assert len(st.bag) == 16 - 6
    # round 1's revealed cards stay public (labelled with their round) until round 2's phase 7
    assert st.revealed == {"a": [3], "b": [4], "c": [5]} and st.revealed_round == 1
    assert GAME.view(st, None).revealed_round == 1


def test_end_of_game_repays_600_per_loan_and_most_money_wins():
    st = _exec_state()
    st.round = 4
    st.players["a"].money, st.players["a"].loans = 2500, 1
    st.players["b"].money = 1950
    st.players["c"].money = 100
    st.players["c"].loans = 1
    st, ev = do(st, Exec(choice="pass"), Exec(choice="pass"), Exec(choice="pass"))
    out = GAME.outcome(st)
    # a: 2500 - 50 interest - 600 = 1850; c: 100 - 50 = 50 left, owes 600 - 50
    assert out.scores == {"a": 1850.0, "b": 1950.0, "c": -550.0}
    assert out.winners == ["b"] and st.players["c"].money == 0 and st.players["c"].bankrupt


# ===================================================== illegal actions
def test_illegal_actions_raise_stable_codes_and_leave_state_untouched():
    st = actions_phase()
    before = canonical(st)
    for seat, action, code in [
        ("b", Act(what="rd"), "not_your_turn"),
        ("a", Pick(character="howard"), "wrong_step"),
        ("a", Act(what="produce"), "not_allowed"),  # no factory yet
        ("a", {"kind": "fly"}, "bad_action"),
    ]:
        with pytest.raises(GameError) as err:
            GAME.apply(st, seat, action)
        assert err.value.code == code
        assert err.value.message("en") and err.value.message("zh")
    assert canonical(st) == before


def test_cannot_build_without_money():
    st = actions_phase()
    st.players["a"].money = 150
    assert Act(what="build") not in legal(st)
    with pytest.raises(GameError) as err:
        GAME.apply(st, "a", Act(what="build"))
    assert err.value.code == "not_allowed"


def test_events_round_trip_through_json():
    st = actions_phase()
    st, ev = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=0), BuildCount(count=1))
    for e in ev:
        assert GAME.load_events(GAME.dump_events([e])) == [e]
        assert GAME.event_text(e, "en") and GAME.event_text(e, "zh")


def test_ford_extra_factory_only_once_per_round():
    st = actions_phase()  # a is Ford
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=0), BuildCount(count=3))
    assert st.ford_used
    st.turn, st.current = 3, "a"
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=3))
    assert [a.count for a in legal(st) if isinstance(a, BuildCount)] == [1, 2]


def test_six_factory_pieces_and_28_cars_per_player():
    st = actions_phase()
    own(st, 0, "a", factories=3)
    own(st, 3, "a", factories=2)
    st, _ = do(st, Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=6))
    assert [a.count for a in legal(st) if isinstance(a, BuildCount)] == [1]  # 5 of 6 factories in play
    st, _ = do(st, Cancel())
    st.spaces[3].cars = 25  # 3 car pieces left: neither 8-11 (space 0) nor 4-7 (space 3) fits
    assert Act(what="produce") not in legal(st)
    st.spaces[3].cars = 24  # 4 left: only space 3 can make exactly 4
    st, _ = do(st, Act(what="produce"))
    assert st.pending.queue == [3] and [a.count for a in legal(st)] == [0, 4]


def test_durant_cannot_build_a_parts_factory_and_builds_only_one():
    st = start()
    own(st, 0, "a", factories=1)
    st, _ = do(st, Pick(character="durant"), BuildClass(cls="mid"))
    st, ev = do(st, BuildSpace(space=0))
    assert st.spaces[0].factories == 2 and not st.spaces[0].parts and GAME.to_act(st) == ["b"]


def test_bonus_marker_at_most_one_per_space():
    st = _exec_state()
    own(st, 0, "a")
    own(st, 3, "a")
    st.players["a"].rd = 5
    st.spaces[0].bonus = True  # already has one
    st, _ = do(st, Exec(choice="bonus"))
    assert [a.space for a in legal(st)] == [3]
    st.spaces[3].bonus = True
    st.pending = None
    assert Exec(choice="bonus") not in legal(st)  # no space left for a marker

"""Thunder Road: Vendetta -- one test (or more) per rule sentence, with rigged dice.

Scenario tests run on test-only tile faces injected into the cached tile data
("9a" = all road) so that the geometry of each case is explicit.
"""

from __future__ import annotations

import pytest
from roadfaces import add_face, only_this_test

from engine.errors import GameError
from engine.thunder_road import GAME
from engine.thunder_road import content as C
from engine.thunder_road import rules as R
from engine.thunder_road.models import Hazard, Pending


@pytest.fixture(autouse=True)
def _test_only_faces():
    """ "9a"/"9b" (all road) and the faces a test adds with :func:`face`, for that test only."""
    with only_this_test():
        yield


def face(fid: str, rows: list[str]) -> str:
    """Register a test-only face (rows[0] = back edge)."""
    return add_face(fid, rows)


def hx(row: int, col: int) -> list[int]:
    return C.hex_of(row, col)


def board(n: int = 2, opts: dict | None = None, seed: int = 3, tiles=("9a", "9a", "9a"), rnd: int = 2):
    """A game with every vehicle parked on the rear tile (rows 0-3), no hazards."""
    st = GAME.new([f"p{i}" for i in range(n)], opts or {}, seed)
    st.tiles = list(tiles)
    st.hazards = {}
    st.deck = ["9a", "9a", "9a", "9a"]
    st.round = rnd
    st.road_die = 2
    st.reroll = None
    for k, v in enumerate(st.vehicles):
        v.where, v.pos = "road", hx((k // 7) * 2, k % 7)
        v.moved = False
    return st


def put(st, vid: str, row: int, col: int):
    v = R.veh(st, vid)
    v.where, v.pos = "road", hx(row, col)
    return v


def turn(st, seat: str, dice: list[int]):
    c = R.crew_of(st, seat)
    c.dice, c.turns, c.command_used, c.used = sorted(dice), 0, False, []
    st.current = seat
    st.pending = Pending(seat=seat, stage="assign")
    return st


def do(st, seat: str, **action):
    new, events = GAME.apply(st, seat, action)
    return new, events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def park_ahead(st, keep=()):
    """Move every other vehicle onto the lead tile, away from column 3."""
    spots = [hx(r, c) for r in (17, 19, 21) for c in (0, 1, 5, 6)]
    for v in st.vehicles:
        if v.id not in keep and v.where == "road":
            v.pos = spots.pop(0)


def move_car(st, seat, car, die, steps, command=None, cdie=0, ccar=None, bonus="decline"):
    """Assign, (command), then step the given directions (declining a road bonus offered at the end)."""
    st, ev = do(st, seat, kind="assign", car=car, die=die)
    out = list(ev)
    if st.pending is not None and st.pending.stage == "command":
        if command:
            st, ev = do(st, seat, kind="command", command=command, die=cdie, car=ccar)
        else:
            st, ev = do(st, seat, kind="command", command="none")
        out += ev
    for d in steps:
        st, ev = do(st, seat, kind="step", dir=d)
        out += ev
    if bonus == "decline" and st.pending is not None and st.pending.stage == "bonus":
        st, ev = do(st, seat, kind="bonus", take=False)
        out += ev
    return st, out


# ------------------------------------------------------------------ 1. rounds


def test_setup_lowest_total_starts_and_round_one_keeps_the_setup_dice():
    from engine.rng import Rng

    rng = Rng.from_seed(1)
    rng.force("move", [6, 6, 6, 6, 1, 1, 2, 1, 5, 5, 5, 5])
    state = GAME._new(["a", "b", "c"], GAME.parse_options({}), 1, rng)
    assert state.starter == "b"
    assert R.crew_of(state, "b").dice == [1, 1, 1, 2]
    assert R.crew_of(state, "a").dice == [6, 6, 6, 6]
    assert state.round == 1 and state.pending.seat == "b"


def test_setup_tie_rerolls_only_the_tied_players():
    from engine.rng import Rng

    rng = Rng.from_seed(1)
    rng.force("move", [1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 2, 2, 2, 2, 1, 1, 1, 2])
    state = GAME._new(["a", "b", "c"], GAME.parse_options({}), 1, rng)
    assert state.starter == "b"
    assert R.crew_of(state, "a").dice == [2, 2, 2, 2] and R.crew_of(state, "c").dice == [6, 6, 6, 6]


def test_round_structure_three_turns_each_clockwise_then_road_die_passes_left():
    st = GAME.new(["a", "b", "c"], {}, 11)
    starter = st.starter
    order = []
    while st.round == 1:
        s = GAME.to_act(st)[0]
        if st.pending and st.pending.stage == "assign":
            order.append(s)
        st, ev = GAME.apply(st, s, GAME.ai_action(st, s))
        if GAME.outcome(st):
            pytest.skip("game ended in round 1")
    i = st.seats.index(starter)
    expect = [st.seats[(i + k) % 3] for k in range(3)] * 3
    assert order == expect
    assert st.starter == st.seats[(i + 1) % 3]
    assert all(c.turns == 0 and len(c.dice) == 4 and not c.command_used for c in st.crews if not c.out)


def test_new_round_rerolls_movement_dice_and_road_die():
    st = board(2)
    turn(st, "p0", [6])
    st.pending = None
    R.crew_of(st, "p0").turns = 3
    R.crew_of(st, "p1").turns = 3
    st.starter = "p0"
    st = GAME.rig(st, "move", [1, 2, 3, 4, 4, 4, 4, 4])
    st = GAME.rig(st, "road", [3])
    ctx = R.Ctx(st)
    R.new_round(ctx)
    assert st.starter == "p1" and st.round == 3 and st.road_die == 3
    assert R.crew_of(st, "p0").dice == [1, 2, 3, 4] and R.crew_of(st, "p1").dice == [4, 4, 4, 4]
    assert ("road_die", "p1") in [(e.kind, getattr(e, "seat", None)) for e in ctx.events]


# ------------------------------------------------------------------ 2-3. assigning dice


def test_must_assign_to_unmoved_operable_cars_before_coasting():
    st = turn(board(), "p0", [2, 4, 5, 6])
    R.veh(st, "p0:small").moved = True
    legal = GAME.legal_actions(st, "p0")
    assert legal and all(not a.coast for a in legal)
    assert {a.car for a in legal} == {"p0:medium", "p0:large"}
    assert {a.die for a in legal} == {2, 4, 5, 6}


def test_inoperable_car_cannot_get_a_die_and_moved_car_only_coasts():
    st = turn(board(), "p0", [2, 4])
    R.veh(st, "p0:small").damage = ["dent", "dent"]
    R.veh(st, "p0:medium").moved = True
    R.veh(st, "p0:large").moved = True
    legal = GAME.legal_actions(st, "p0")
    assert {(a.car, a.coast) for a in legal if a.kind == "assign"} == {("p0:medium", True), ("p0:large", True)}


def test_each_car_moves_normally_once_per_round():
    st = turn(board(), "p0", [1, 1, 1, 1])
    put(st, "p0:small", 8, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    assert R.veh(st, "p0:small").moved
    st.pending = Pending(seat="p0", stage="assign")
    st.current = "p0"
    assert "p0:small" not in {a.car for a in GAME.legal_actions(st, "p0")}


def test_illegal_action_raises_with_stable_code_and_state_untouched():
    st = turn(board(), "p0", [3])
    before = GAME.dump(st)
    with pytest.raises(GameError) as e:
        GAME.apply(st, "p0", {"kind": "assign", "car": "p0:small", "die": 6})
    assert e.value.code == "illegal" and GAME.dump(st) == before
    assert "not allowed" in e.value.message("en") and e.value.message("zh")
    with pytest.raises(GameError) as e2:
        GAME.apply(st, "p1", {"kind": "assign", "car": "p1:small", "die": 3})
    assert e2.value.code == "not_your_turn"


# ------------------------------------------------------------------ 4. commands


def test_command_dice_ranges():
    st = turn(board(), "p0", [1, 3, 5, 6])
    R.veh(st, "p0:large").damage = ["dent"]
    put(st, "p0:small", 8, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=1)
    cmds = {(a.command, a.die) for a in GAME.legal_actions(st, "p0")}
    assert ("nitro", 3) in cmds and ("nitro", 5) not in cmds and ("nitro", 6) not in cmds
    assert ("drift", 3) in cmds and ("drift", 5) in cmds and ("drift", 6) not in cmds
    assert ("repair", 6) in cmds and ("repair", 5) not in cmds
    assert {("airstrike", d) for d in (3, 5, 6)} <= cmds
    assert ("none", 0) in cmds


def test_rules_example_five_with_nitro_three_moves_eight():
    st = turn(board(), "p0", [3, 5, 2, 2])
    put(st, "p0:medium", 4, 3)
    st.road_die = 1
    st, _ = move_car(st, "p0", "p0:medium", 5, [], command="nitro", cdie=3, bonus=None)
    assert st.pending.moves == 8
    for _i in range(8):
        assert st.pending.stage == "step"
        st, _ = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:medium").pos == hx(12, 3)
    assert st.pending.stage == "bonus"  # the full distance was used, still on road


def test_only_one_command_per_round():
    st = turn(board(), "p0", [1, 2, 3, 4])
    put(st, "p0:small", 8, 3)
    st, _ = move_car(st, "p0", "p0:small", 4, ["n"] * 5, command="nitro", cdie=1)
    assert R.crew_of(st, "p0").command_used and R.crew_of(st, "p0").dice == [2, 3]
    # p0's next turn in the same round: the die goes straight to the move, no command step
    st.current = "p0"
    st.pending = Pending(seat="p0", stage="assign")
    put(st, "p0:medium", 8, 5)
    st, _ = do(st, "p0", kind="assign", car="p0:medium", die=2)
    assert st.pending.stage == "step"
    with pytest.raises(GameError):
        do(st, "p0", kind="command", command="nitro", die=3)


def test_airstrike_only_on_empty_spaces_and_no_shot_in_round_one():
    st = board(rnd=1)
    turn(st, "p0", [2, 4])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(10, 2))] = Hazard(type="mine")
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, _ = do(st, "p0", kind="command", command="airstrike", die=4)
    assert st.pending.stage == "air_row"
    st, _ = do(st, "p0", kind="air_row", row=10)
    cols = {a.col for a in GAME.legal_actions(st, "p0")}
    assert 2 not in cols and 3 in cols
    put(st, "p1:small", 11, 3)
    st, _ = do(st, "p0", kind="air_space", col=3)
    assert R.crew_of(st, "p0").chopper == hx(10, 3)
    assert st.pending.stage == "step"  # no chopper shot in round 1


def test_airstrike_chopper_shoots_in_round_two_and_can_redeploy():
    st = turn(board(), "p0", [2, 4])
    put(st, "p0:small", 8, 3)
    put(st, "p1:large", 11, 3)
    R.crew_of(st, "p0").chopper = hx(15, 0)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, _ = do(st, "p0", kind="command", command="airstrike", die=4)
    st, _ = do(st, "p0", kind="air_row", row=10)
    st, _ = do(st, "p0", kind="air_space", col=3)
    assert R.crew_of(st, "p0").chopper == hx(10, 3)  # moved from its old space
    assert st.pending.stage == "chopper_shoot"
    targets = {a.target for a in GAME.legal_actions(st, "p0")}
    assert targets == {"p1:large", None}
    st = GAME.rig(st, "shoot", ["large"])
    st = GAME.rig(st, "damage", ["dent"])
    st, ev = do(st, "p0", kind="shoot", target="p1:large")
    assert "hit" in kinds(ev) and R.veh(st, "p1:large").damage == ["dent"]
    assert st.pending.stage == "step"


def test_drift_passes_only_the_first_occupied_space():
    st = turn(board(), "p0", [3, 4])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    put(st, "p1:medium", 11, 3)
    st, ev = move_car(st, "p0", "p0:small", 4, [], command="drift", cdie=3)
    legal = GAME.legal_actions(st, "p0")
    through = [x for x in legal if x.dir == "n"]
    assert {x.then for x in through} == {"nw", "n", "ne"} and all(x.mark.startswith("drift_") for x in through)
    st, ev = do(st, "p0", kind="step", dir="n", then="n")  # through (9,3) and on to (10,3) in one action
    assert "drift_through" in kinds(ev) and "slam" not in kinds(ev)
    assert R.veh(st, "p0:small").pos == hx(10, 3) and st.pending.moves == 2 and not st.pending.drift
    assert all(x.then is None for x in GAME.legal_actions(st, "p0"))
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, ev = do(st, "p0", kind="step", dir="n")
    assert "slam" in kinds(ev)  # the second occupied space slams


def test_drift_ending_on_a_vehicle_still_slams():
    st = turn(board(), "p0", [3, 1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=1)
    st, _ = do(st, "p0", kind="command", command="drift", die=3)
    acts = GAME.legal_actions(st, "p0")
    assert {a.dir: a.mark for a in acts}["n"] == "slam"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert "slam" in kinds(ev) and "drift_through" not in kinds(ev)


def test_repair_removes_one_token_back_to_pile_and_restores_operability():
    st = turn(board(), "p0", [6, 2])
    sm = R.veh(st, "p0:small")
    sm.damage = ["blast", "dent"]
    pile = len(st.damage_pile)
    put(st, "p0:medium", 8, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:medium", die=2)
    st, ev = do(st, "p0", kind="command", command="repair", die=6, car="p0:small")
    sm = R.veh(st, "p0:small")
    assert sm.damage == ["blast"] and len(st.damage_pile) == pile + 1 and "dent" in st.damage_pile
    assert "restored" in kinds(ev) and R.operable(sm)
    # it has not moved this round: a later turn may give it a die
    st.pending = Pending(seat="p0", stage="assign")
    R.crew_of(st, "p0").dice = [4]
    assert "p0:small" in {a.car for a in GAME.legal_actions(st, "p0")}


# ------------------------------------------------------------------ 5. coasting


def test_coast_moves_exactly_one_space_without_command_or_road_die():
    st = turn(board(), "p0", [6, 5])
    for v in ("p0:small", "p0:medium", "p0:large"):
        R.veh(st, v).moved = True
    put(st, "p0:large", 8, 3)
    legal = GAME.legal_actions(st, "p0")
    assert all(a.coast for a in legal if a.kind == "assign") and [a.kind for a in legal].count("pass") == 1
    st, ev = do(st, "p0", kind="assign", car="p0:large", die=6, coast=True)
    assert st.pending.stage == "step" and st.pending.moves == 1  # no command step
    st, ev = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:large").pos == hx(9, 3)
    assert st.pending is None or st.pending.seat != "p0" or st.pending.stage == "assign"
    assert "bonus" not in kinds(ev)


def test_coasting_is_optional_a_player_may_end_the_turn_instead():
    st = turn(board(), "p0", [6, 5])
    for v in ("p0:small", "p0:medium", "p0:large"):
        R.veh(st, v).moved = True
    put(st, "p0:large", 8, 3)
    st, ev = do(st, "p0", kind="pass")
    assert "pass" in kinds(ev) and R.crew_of(st, "p0").dice == [5, 6] and R.crew_of(st, "p0").turns == 1
    assert R.veh(st, "p0:large").pos == hx(8, 3) and GAME.to_act(st) == ["p1"]
    # but never while an unmoved operable car is waiting
    st2 = turn(board(), "p0", [6, 5])
    assert all(a.kind == "assign" for a in GAME.legal_actions(st2, "p0"))
    with pytest.raises(GameError):
        do(st2, "p0", kind="pass")


def test_coast_at_most_twice_per_car_per_round_and_may_shoot():
    st = turn(board(), "p0", [6, 5])
    for v in ("p0:small", "p0:medium", "p0:large"):
        R.veh(st, v).moved = True
    R.veh(st, "p0:small").coasts = 2
    R.veh(st, "p0:medium").where = "gone"
    put(st, "p0:large", 8, 3)
    put(st, "p1:medium", 10, 3)
    assert {a.car for a in GAME.legal_actions(st, "p0") if a.kind == "assign"} == {"p0:large"}
    st, _ = do(st, "p0", kind="assign", car="p0:large", die=5, coast=True)
    st, _ = do(st, "p0", kind="step", dir="n")
    assert st.pending.stage == "shoot"


# ------------------------------------------------------------------ 6-7. movement and terrain


def test_three_front_spaces_and_full_distance():
    st = turn(board(), "p0", [3])
    put(st, "p0:small", 8, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
    assert [a.dir for a in GAME.legal_actions(st, "p0")] == ["nw", "n", "ne"]
    st, _ = do(st, "p0", kind="step", dir="ne")
    assert R.veh(st, "p0:small").pos == [4, hx(8, 3)[1] + 1]
    st, _ = do(st, "p0", kind="step", dir="nw")
    st, _ = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:small").pos == hx(10, 3)
    assert st.pending.stage == "bonus"


def test_terrain_costs_mud_two_enterable_with_one_and_impassable_eliminates():
    f = face("8a", ["OOOOOOO", "OOOOOOO", "OOOMOOO", "OOOMOOO", "OOOXOOO", "OOOOOOO", "OOOOOOO", "OOOOOOO"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [3])
    put(st, "p0:small", 9, 3)  # middle tile local row 1
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "mud"
    st, _ = do(st, "p0", kind="step", dir="n")  # mud costs 2 -> 1 left
    assert st.pending.moves == 1
    st, _ = do(st, "p0", kind="step", dir="n")  # mud with one move left: allowed, uses it
    assert R.veh(st, "p0:small").pos == hx(11, 3)
    assert st.pending is None or st.pending.seat != "p0"  # off-road: no road bonus
    turn(st, "p0", [1])
    R.veh(st, "p0:small").moved = False
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=1)
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "eliminate"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert "eliminated" in kinds(ev) and R.veh(st, "p0:small").where == "gone"


def test_offroad_costs_one_and_empty_hazard_space_has_no_effect():
    f = face("8b", ["OOOOOOO", "OOOHOOO", "OOOOOOO", "OOOOOOO", "OOOOOOO", "OOOOOOO", "OOOOOOO", "OOOOOOO"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [2])
    put(st, "p0:small", 8, 3)
    st, ev = move_car(st, "p0", "p0:small", 2, ["n", "n"])
    assert R.veh(st, "p0:small").pos == hx(10, 3) and "hazard" not in kinds(ev)


def test_round_one_first_move_enters_a_back_edge_space_from_the_start_area():
    st = GAME.new(["a", "b"], {"start_face": "a"}, 2)
    s = st.pending.seat
    a = GAME.legal_actions(st, s)[0]
    st, _ = GAME.apply(st, s, a)
    if st.pending.stage == "command":
        st, _ = GAME.apply(st, s, {"kind": "command", "command": "none"})
    assert st.pending.stage == "enter"
    legal = GAME.legal_actions(st, s)
    assert sorted(x.col for x in legal) == list(range(C.W))
    col = next(x.col for x in legal if x.mark in ("road", "end_road"))
    st, _ = GAME.apply(st, s, {"kind": "enter", "col": col})
    assert R.veh(st, a.car).pos == C.hex_of(0, col)


def test_car_may_pass_a_chopper_but_ending_on_any_chopper_eliminates():
    st = turn(board(), "p0", [2, 1])
    put(st, "p0:small", 8, 3)
    R.crew_of(st, "p0").chopper = hx(9, 3)  # own chopper
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, _ = do(st, "p0", kind="command", command="none")
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "chopper_pass"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:small").where == "road"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:small").where == "road"
    # now one that ends on p1's chopper
    turn(st, "p0", [1])
    put(st, "p0:medium", 8, 5)
    R.crew_of(st, "p1").chopper = hx(9, 5)
    st, _ = do(st, "p0", kind="assign", car="p0:medium", die=1)
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "chopper"
    st, ev = do(st, "p0", kind="step", dir="n")
    st, ev = do(st, "p0", kind="bonus", take=False)
    assert R.veh(st, "p0:medium").where == "gone"


# ------------------------------------------------------------------ hazards


@pytest.mark.parametrize("token", ["road", "mud", "oil"])
def test_face_down_hazard_flips_on_entry_and_stays(token):
    f = face("8i", ["RRRRRRR", "RRRHRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = turn(board(tiles=("9a", f, "9a")), "p0", [3])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type=token)
    st = GAME.rig(st, "direction", ["n"])
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "hazard"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert "hazard" in kinds(ev)
    hz = st.hazards[C.key(hx(9, 3))]
    assert hz.up and hz.type == token
    if token == "oil":
        assert "oil" in kinds(ev) and R.veh(st, "p0:small").pos == hx(10, 3)  # free shift, keeps moving
        assert st.pending.moves == 2
    elif token == "mud":
        assert R.terrain(st, hx(9, 3)) == "M" and st.pending.moves == 1
    else:
        assert R.terrain(st, hx(9, 3)) == "R" and st.pending.moves == 2


def test_mine_damages_and_ends_the_move():
    st = turn(board(), "p0", [4])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="mine")
    st = GAME.rig(st, "damage", ["dent"])
    st, ev = move_car(st, "p0", "p0:small", 4, ["n"])
    assert R.veh(st, "p0:small").damage == ["dent"] and C.key(hx(9, 3)) not in st.hazards
    assert "stop" in kinds(ev) and (st.pending is None or st.pending.seat != "p0")


def test_wreck_token_places_a_wreck_and_slams_it():
    st = turn(board(), "p0", [4])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="wreck")
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, ev = move_car(st, "p0", "p0:small", 4, ["n"])
    wrecks = [v for v in st.vehicles if v.kind == "wreck" and v.where == "road"]
    assert len(wrecks) == 1 and wrecks[0].pos == C.add(hx(9, 3), "ne")
    assert R.veh(st, "p0:small").pos == hx(9, 3) and "slam" in kinds(ev)
    assert st.wrecks_left == 3


def test_road_token_counts_as_road_for_the_bonus():
    f = face("8c", ["RRRRRRR", "RRRHRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [2])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="road")
    st, _ = move_car(st, "p0", "p0:small", 2, ["n", "n"], bonus=None)
    assert st.pending.stage == "bonus"


# ------------------------------------------------------------------ 8. road die


def test_road_bonus_all_or_nothing_and_may_leave_the_road():
    f = face("8d", ["RRRRRRR", "RRRRRRR", "RRRRRRR", "OOOOOOO", "OOOOOOO", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [2])
    st.road_die = 3
    put(st, "p0:small", 8, 3)
    st, _ = move_car(st, "p0", "p0:small", 2, ["n", "n"], bonus=None)
    assert st.pending.stage == "bonus"
    assert {a.take for a in GAME.legal_actions(st, "p0")} == {True, False}
    st, _ = do(st, "p0", kind="bonus", take=True)
    assert st.pending.moves == 3
    for _ in range(3):
        st, _ = do(st, "p0", kind="step", dir="n")  # off-road allowed during bonus
    assert R.veh(st, "p0:small").pos == hx(13, 3)


def test_no_road_bonus_after_offroad_or_when_starting_offroad():
    f = face("8e", ["RRROOOO", "RRROOOO", "RRROOOO", "RRROOOO", "RRROOOO", "RRROOOO", "RRROOOO", "RRROOOO"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [2, 2])
    put(st, "p0:small", 8, 2)
    st, ev = move_car(st, "p0", "p0:small", 2, ["ne", "nw"], bonus=None)
    assert "bonus" not in [getattr(st.pending, "stage", None)]
    turn(st, "p0", [2])
    R.veh(st, "p0:medium").moved = False
    put(st, "p0:medium", 8, 4)  # starts off-road
    st, _ = move_car(st, "p0", "p0:medium", 2, ["nw", "n"], bonus=None)
    assert getattr(st.pending, "stage", None) != "bonus"


def test_no_road_bonus_when_a_slam_ends_the_move():
    st = turn(board(), "p0", [3])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["n"])
    st, ev = move_car(st, "p0", "p0:small", 3, ["n"], bonus=None)
    assert "slam" in kinds(ev) and getattr(st.pending, "stage", None) != "bonus"


# ------------------------------------------------------------------ 9. slams


def test_slam_stacks_loses_moves_and_pushes_the_rolled_vehicle():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, ev = move_car(st, "p0", "p0:small", 5, ["n"])
    assert R.veh(st, "p0:small").pos == hx(9, 3)
    assert R.veh(st, "p1:small").pos == C.add(hx(9, 3), "ne")
    assert "stop" in kinds(ev) and st.pending.stage == "shoot"  # moves lost; it may still shoot


def test_slam_top_result_moves_the_mover():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    st = GAME.rig(st, "slam", ["top"])
    st = GAME.rig(st, "direction", ["nw"])
    st, ev = move_car(st, "p0", "p0:small", 5, ["n"])
    assert R.veh(st, "p1:small").pos == hx(9, 3)
    assert R.veh(st, "p0:small").pos == C.add(hx(9, 3), "nw")


def test_slam_chain_resolves_until_every_space_holds_one_vehicle():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    put(st, "p1:medium", 10, 3)
    put(st, "p0:medium", 11, 3)
    st = GAME.rig(st, "slam", ["bottom", "bottom", "bottom"])
    st = GAME.rig(st, "direction", ["n", "n", "ne"])
    st = GAME.rig(st, "move", [])
    st, ev = move_car(st, "p0", "p0:small", 5, ["n"])
    # p1:small -> (10,3) slams p1:medium -> (11,3) slams p0:medium -> ne
    # (p1 owns the bigger medium in the 2nd slam: p1 may demand a reroll)
    while st.reroll is not None:
        st, more = GAME.apply(st, st.reroll.asker, {"kind": "reroll", "demand": False})
        ev += more
    assert kinds(ev).count("slam") == 3
    pos = [tuple(v.pos) for v in st.vehicles if v.where == "road"]
    assert len(pos) == len(set(pos))
    assert R.veh(st, "p0:medium").pos == C.add(hx(11, 3), "ne")


def test_larger_vehicle_owner_may_demand_one_reroll_even_inoperable_or_same_owner():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    big = put(st, "p0:large", 9, 3)
    big.damage = ["dent", "dent"]  # inoperable, same owner
    st = GAME.rig(st, "slam", ["top", "bottom"])
    st = GAME.rig(st, "direction", ["nw", "ne"])
    st, ev = move_car(st, "p0", "p0:small", 5, ["n"])
    assert st.reroll is not None and GAME.to_act(st) == ["p0"]
    assert {a.demand for a in GAME.legal_actions(st, "p0")} == {True, False}
    assert GAME.prompt(st, "p0").text("en") and "reroll_asked" in kinds(ev)
    st, ev2 = GAME.apply(st, "p0", {"kind": "reroll", "demand": True})
    assert "reroll" in kinds(ev2) and st.reroll is None
    assert R.veh(st, "p0:large").pos == C.add(hx(9, 3), "ne")  # rerolled: bottom, ne
    assert R.veh(st, "p0:small").pos == hx(9, 3)


def test_reroll_declined_keeps_the_first_roll_and_same_size_has_no_reroll():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    put(st, "p1:large", 9, 3)
    st = GAME.rig(st, "slam", ["top"])
    st = GAME.rig(st, "direction", ["nw"])
    st, _ = move_car(st, "p0", "p0:small", 5, ["n"])
    assert GAME.to_act(st) == ["p1"]
    st, _ = GAME.apply(st, "p1", {"kind": "reroll", "demand": False})
    assert R.veh(st, "p0:small").pos == C.add(hx(9, 3), "nw")
    # equal sizes: no question at all
    st2 = turn(board(), "p0", [5])
    put(st2, "p0:medium", 8, 3)
    put(st2, "p1:medium", 9, 3)
    st2 = GAME.rig(st2, "slam", ["top"])
    st2 = GAME.rig(st2, "direction", ["nw"])
    st2, _ = move_car(st2, "p0", "p0:medium", 5, ["n"])
    assert st2.reroll is None


def test_slam_pushes_into_impassable_and_off_the_side_eliminate():
    f = face("8f", ["RRRRRRR", "RRRRRRR", "RRRRXRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [5])
    put(st, "p0:medium", 8, 3)
    put(st, "p1:medium", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])  # (9,3) ne -> column 4, row 10 = X
    st, ev = move_car(st, "p0", "p0:medium", 5, ["n"])
    assert R.veh(st, "p1:medium").where == "gone"
    st2 = turn(board(), "p0", [5])
    put(st2, "p0:medium", 8, 0)
    put(st2, "p1:medium", 9, 0)
    st2 = GAME.rig(st2, "slam", ["bottom"])
    st2 = GAME.rig(st2, "direction", ["nw"])
    st2, ev = move_car(st2, "p0", "p0:medium", 5, ["n"])
    assert R.veh(st2, "p1:medium").where == "gone"
    assert "off_side" in [getattr(e, "reason", None) for e in ev]


# ------------------------------------------------------------------ 10. shooting


def test_no_shooting_in_round_one():
    st = board(rnd=1)
    turn(st, "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 10, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    assert st.pending is None or st.pending.stage != "shoot"


def test_shooting_targets_front_arc_own_cars_and_wrecks_but_not_choppers():
    st = turn(board(), "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 10, 3)  # front
    put(st, "p0:medium", 9, 2)  # front-left (own car: column 2 sits lower -> row 9 col 2 is nw of (9,3))
    st.vehicles.append(
        R.Vehicle(
            id="w9",
            kind="wreck",
            name="wreck",
            size="small",
            shoot_size="small",
            capacity=1,
            where="road",
            pos=C.add(hx(9, 3), "ne"),
        )
    )
    put(st, "p1:large", 9, 3)  # directly behind the firing position after the move? no: beside
    R.veh(st, "p1:large").where = "gone"
    R.crew_of(st, "p1").chopper = C.add(hx(9, 3), "n")
    R.veh(st, "p1:small").pos = C.add(hx(9, 3), "n")
    R.crew_of(st, "p1").chopper = hx(15, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    assert st.pending.stage == "shoot"
    targets = {a.target for a in GAME.legal_actions(st, "p0")}
    assert targets == {"p1:small", "w9", None} | ({"p0:medium"} if C.add(hx(9, 3), "nw") == hx(9, 2) else set())
    # behind / sideways vehicles are not targets
    put(st, "p1:medium", 8, 3)
    assert "p1:medium" not in {a.target for a in GAME.legal_actions(st, "p0")}


@pytest.mark.parametrize(
    "size,face,hit",
    [
        ("small", "small_medium", True),
        ("small", "medium", False),
        ("small", "large", False),
        ("small", "any", True),
        ("medium", "small_medium", True),
        ("medium", "medium", True),
        ("medium", "large", False),
        ("large", "large", True),
        ("large", "small_medium", False),
        ("large", "any", True),
    ],
)
def test_shooting_die_must_match_the_target_size(size, face, hit):
    st = turn(board(), "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, f"p1:{size}", 10, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", [face])
    st = GAME.rig(st, "damage", ["dent"])
    st, ev = do(st, "p0", kind="shoot", target=f"p1:{size}")
    assert ("hit" in kinds(ev)) == hit
    assert len(R.veh(st, f"p1:{size}").damage) == (1 if hit else 0)


def test_shot_wreck_is_removed_and_may_shoot_after_a_slam():
    st = turn(board(), "p0", [2])
    put(st, "p0:large", 8, 3)
    put(st, "p1:small", 9, 3)
    st.vehicles.append(
        R.Vehicle(
            id="w9",
            kind="wreck",
            name="wreck",
            size="small",
            shoot_size="small",
            capacity=1,
            where="road",
            pos=hx(10, 3),
        )
    )
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["se"])
    st, ev = move_car(st, "p0", "p0:large", 2, ["n"])
    while st.reroll is not None:
        st, _ = GAME.apply(st, st.reroll.asker, {"kind": "reroll", "demand": False})
    assert st.pending.stage == "shoot"
    st = GAME.rig(st, "shoot", ["any"])
    st, ev = do(st, "p0", kind="shoot", target="w9")
    assert R.veh(st, "w9").where == "gone" and st.wrecks_left == 5


# ------------------------------------------------------------------ 11-12. damage


def damage_scene(token: str, **rig):
    st = turn(board(), "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:medium", 10, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", ["any"])
    st = GAME.rig(st, "damage", [token])
    for k, v in rig.items():
        st = GAME.rig(st, k, v)
    return st


def test_dent_is_just_one_damage():
    st = damage_scene("dent")
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    v = R.veh(st, "p1:medium")
    assert v.damage == ["dent"] and v.pos == hx(10, 3) and "dent" not in st.damage_pile[:0]


def test_shrapnel_flies_through_impassable_to_the_first_vehicle():
    f = face("8g", ["RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRXRRR", "RRRXRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:medium", 10, 3)
    put(st, "p0:large", 14, 3)  # beyond the impassable spaces (rows 11, 12)
    put(st, "p1:large", 16, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", ["any"])
    st = GAME.rig(st, "damage", ["shrapnel", "dent"])
    st = GAME.rig(st, "direction", ["n"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert "shrapnel" in kinds(ev)
    assert R.veh(st, "p0:large").damage == ["dent"] and R.veh(st, "p1:large").damage == []


def test_shrapnel_with_no_vehicle_in_line_does_nothing():
    st = damage_scene("shrapnel", direction=["se"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert "shrapnel_none" in kinds(ev)
    assert sum(len(v.damage) for v in st.vehicles) == 1


def test_skid_moves_one_space_in_the_printed_direction():
    st = damage_scene("skid_ne")
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert R.veh(st, "p1:medium").pos == C.add(hx(10, 3), "ne")


def test_dazed_rolls_stunt_then_a_direction_per_space():
    st = damage_scene("dazed", stunt=[3], direction=["n", "ne", "n"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert R.veh(st, "p1:medium").pos == C.add(C.add(C.add(hx(10, 3), "n"), "ne"), "n")


def test_dazed_stops_when_it_slams():
    st = damage_scene("dazed", stunt=[3], direction=["n", "n", "s", "n"], slam=["top"])
    put(st, "p0:medium", 12, 3)
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert kinds(ev).count("slam") == 1
    # dazed n, n (slam: top = the dazed car is pushed back s) and the third space is never rolled
    assert R.veh(st, "p1:medium").pos == hx(11, 3) and R.veh(st, "p0:medium").pos == hx(12, 3)
    assert kinds(ev).count("step") == 2


def test_blast_jumps_ignoring_spaces_between_and_can_land_off_the_board():
    st = damage_scene("blast", direction=["n"], stunt=[3])
    put(st, "p0:medium", 11, 3)  # jumped over
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert R.veh(st, "p1:medium").pos == hx(13, 3) and "slam" not in kinds(ev)
    st = damage_scene("blast", direction=["sw"], stunt=[3])
    R.veh(st, "p1:medium").pos = hx(10, 1)
    R.veh(st, "p0:small").pos = hx(9, 1)
    st.pending.stage = "shoot"
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert R.veh(st, "p1:medium").where == "gone"
    assert "off_side" in [getattr(e, "reason", None) for e in ev]


def test_damage_while_moving_ends_the_move():
    st = turn(board(), "p0", [5])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="mine")
    st = GAME.rig(st, "damage", ["skid_ne"])
    st, ev = move_car(st, "p0", "p0:small", 5, ["n"])
    assert R.veh(st, "p0:small").pos == C.add(hx(9, 3), "ne")
    assert st.pending is None or st.pending.seat != "p0"


def test_second_damage_makes_a_car_inoperable_no_more_damage_still_slammable():
    st = damage_scene("dent")
    R.veh(st, "p1:medium").damage = ["dent"]
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    v = R.veh(st, "p1:medium")
    assert not R.operable(v) and "inoperable" in kinds(ev)
    pile = len(st.damage_pile)
    ctx = R.Ctx(st)
    R.damage(ctx, v, "shot")
    assert len(v.damage) == 2 and len(st.damage_pile) == pile and "damage_ignored" in kinds(ctx.events)
    # an inoperable car can still be slammed and pushed
    turn(st, "p0", [1])
    put(st, "p0:small", 5, 0)
    put(st, "p0:large", 9, 3)
    R.veh(st, "p0:large").moved = False
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, ev = move_car(st, "p0", "p0:large", 1, ["n"])
    st, _ = GAME.apply(st, "p0", {"kind": "reroll", "demand": False})
    assert R.veh(st, "p1:medium").pos == C.add(hx(10, 3), "ne")


# ------------------------------------------------------------------ 15. end of turn, players out


def test_player_out_when_all_cars_inoperable_or_eliminated_and_chopper_removed_two_player_win():
    st = damage_scene("dent")
    for v in ("p1:small", "p1:large"):
        R.veh(st, v).where = "gone"
    R.veh(st, "p1:medium").damage = ["dent"]
    R.crew_of(st, "p1").chopper = hx(20, 0)
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert "player_out" in kinds(ev) and R.crew_of(st, "p1").chopper is None
    o = GAME.outcome(st)
    assert o is not None and o.winners == ["p0"] and st.end_reason == "last_standing"
    assert R.veh(st, "p1:medium").where == "road"  # inoperable cars stay on the road


@pytest.mark.parametrize("n", [3, 4])
def test_three_or_four_players_first_out_makes_lead_tile_final_and_finish_wins(n):
    st = board(n)
    turn(st, "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:medium", 10, 3)
    for v in ("p1:small", "p1:large"):
        R.veh(st, v).where = "gone"
    R.veh(st, "p1:medium").damage = ["dent"]
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", ["any"])
    st = GAME.rig(st, "damage", ["dent"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert "player_out" in kinds(ev) and "finish_line" in kinds(ev) and st.final
    assert GAME.outcome(st) is None
    # a car driving off the front of the final lead tile wins
    turn(st, "p2", [2, 1])
    put(st, "p2:small", 23, 3)
    st, _ = do(st, "p2", kind="assign", car="p2:small", die=2)
    st, _ = do(st, "p2", kind="command", command="none")
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p2")}["n"] == "finish"
    st, ev = do(st, "p2", kind="step", dir="n")
    assert GAME.outcome(st).winners == ["p2"] and st.end_reason == "finish"


# ------------------------------------------------------------------ 16-17. road extension and finish line


def test_road_extends_mid_move_and_the_car_continues():
    st = turn(board(), "p0", [4, 2])
    deck_top = "5b"
    st.deck = [deck_top, "9a"]
    put(st, "p0:small", 23, 3)  # front row of the lead tile
    park_ahead(st, keep=("p0:small",))
    put(st, "p0:medium", 1, 2)
    put(st, "p1:small", 3, 4)
    st.hazards[C.key(hx(1, 5))] = Hazard(type="mine")  # rear tile: cleared
    R.crew_of(st, "p1").chopper = hx(2, 4)  # rear tile: returned
    R.crew_of(st, "p0").chopper = hx(12, 0)  # middle tile: slides back
    st.hazards[C.key(hx(12, 1))] = Hazard(type="road", up=True)
    rear_cars = [v.id for v in st.vehicles if v.where == "road" and v.pos[1] < C.TH]
    placed = st.tiles_placed
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=4)
    st, _ = do(st, "p0", kind="command", command="none")
    st, _ = do(st, "p0", kind="step", dir="n")  # (23,3) -> row 24: off the lead tile
    st_ev = st
    v = R.veh(st, "p0:small")
    assert v.pos == hx(16, 3) and st.pending.moves == 3 and st.pending.stage == "step"
    assert st.tiles == ["9a", "9a", deck_top] and st.tiles_placed == placed + 1
    assert all(R.veh(st, vid).where == "gone" for vid in rear_cars if vid != "p0:small")
    assert C.key(hx(1, 5)) not in st.hazards and "mine" in st.hazard_discard
    assert R.crew_of(st, "p1").chopper is None and R.crew_of(st, "p0").chopper == hx(4, 0)
    assert st.hazards[C.key(hx(4, 1))].type == "road"
    assert st.deck[-1] == "9b"  # the removed rear tile went flipped to the bottom
    new_haz = [k for k in st.hazards if C.unkey(k)[1] >= 2 * C.TH]
    assert len(new_haz) == sum(1 for r in C.faces()[deck_top]["rows"] for ch in r if ch == "H")
    assert all(not st.hazards[k].up for k in new_haz)
    assert st_ev.vehicles  # (kept for readability)


def test_extension_eliminating_the_last_car_of_a_player_sets_the_new_lead_tile_final():
    st = board(3)
    turn(st, "p0", [2])
    st.deck = ["9a", "9a"]
    put(st, "p0:small", 23, 3)
    for k, v in enumerate(st.vehicles):
        if v.owner in ("p1", "p2") or v.id in ("p0:medium", "p0:large"):
            v.pos = hx(12 + k // 7, k % 7)
    R.veh(st, "p1:small").pos = hx(1, 1)  # p1's only car left is on the rear tile
    R.veh(st, "p1:medium").where = "gone"
    R.veh(st, "p1:large").where = "gone"
    st, _ = move_car(st, "p0", "p0:small", 2, ["n"])
    assert R.crew_of(st, "p1").out and st.final and st.tiles_placed == 4
    # the finish line sits after the NEW lead tile: the car is on it, one row in
    assert R.veh(st, "p0:small").pos == hx(16, 3)


def test_two_players_finish_line_with_the_fifth_tile():
    st = turn(board(2), "p0", [1, 1, 1])
    st.deck = ["9a"] * 4
    assert st.tiles_placed == 3 and not st.final
    for want_final in (False, True):
        R.veh(st, "p0:small").moved = False
        put(st, "p0:small", 23, 3)
        park_ahead(st, keep=("p0:small",))
        turn(st, "p0", [1])
        st, ev = move_car(st, "p0", "p0:small", 1, ["n"])
        assert st.final == want_final
    assert st.tiles_placed == 5 and "finish_line" in kinds(ev)


@pytest.mark.parametrize("n", [3, 4])
def test_three_or_four_players_no_finish_line_until_someone_is_out(n):
    st = board(n)
    st.deck = ["9a"] * 6
    for _ in range(3):
        turn(st, "p0", [1])
        R.veh(st, "p0:small").moved = False
        put(st, "p0:small", 23, 3)
        park_ahead(st, keep=("p0:small",))
        st, ev = move_car(st, "p0", "p0:small", 1, ["n"])
    assert st.tiles_placed == 6 and not st.final


def test_hazard_pile_reshuffles_discards_when_empty():
    f = face("8h", ["RRRRRRR", "RHRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board()
    st.hazard_pile = []
    st.hazard_discard = ["oil"]
    st.tiles[2] = f
    R.seed_tile(st, 2)
    assert st.hazards[C.key(hx(17, 1))].type == "oil" and st.hazard_discard == []


def test_start_tile_hazards_only_on_spaces_marked_for_the_player_count():
    for n in (2, 3, 4):
        st = GAME.new([f"p{i}" for i in range(n)], {"start_face": "a"}, 1)
        rows = C.faces()["1a"]["rows"]
        want = {
            C.key(C.hex_of(r, c))
            for r, line in enumerate(rows)
            for c, ch in enumerate(line)
            if ch.isdigit() and n >= int(ch)
        }
        have = {k for k in st.hazards if C.unkey(k)[1] < C.TH}
        assert have == want


def test_damage_persists_across_rounds():
    st = board()
    R.veh(st, "p0:small").damage = ["dent"]
    for c in st.crews:
        c.turns = 3
    st.pending = None
    ctx = R.Ctx(st)
    R.new_round(ctx)
    assert R.veh(st, "p0:small").damage == ["dent"]


# ------------------------------------------------------------------ more sentences


def test_choppers_are_never_targets_and_inoperable_cars_cannot_shoot():
    st = turn(board(), "p0", [1])
    put(st, "p0:small", 8, 3)
    R.crew_of(st, "p1").chopper = hx(10, 3)  # directly in front after the move
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    assert st.pending is None or st.pending.seat != "p0"  # nothing to shoot at: turn over
    st2 = turn(board(), "p0", [3])
    put(st2, "p0:small", 8, 3)
    R.veh(st2, "p0:small").damage = ["dent"]
    st2.hazards[C.key(hx(9, 3))] = Hazard(type="mine")
    put(st2, "p1:large", 10, 3)
    st2 = GAME.rig(st2, "damage", ["dent"])
    st2, ev = move_car(st2, "p0", "p0:small", 3, ["n"])
    assert "inoperable" in kinds(ev)
    assert st2.pending is None or st2.pending.seat != "p0"  # a target in the arc, but no shot


def test_a_vehicle_pushed_onto_a_chopper_is_eliminated_at_once():
    st = turn(board(), "p0", [3])
    put(st, "p0:medium", 8, 3)
    put(st, "p1:medium", 9, 3)
    R.crew_of(st, "p0").chopper = C.add(hx(9, 3), "ne")
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["ne"])
    st, ev = move_car(st, "p0", "p0:medium", 3, ["n"])
    assert R.veh(st, "p1:medium").where == "gone"
    assert "chopper" in [getattr(e, "reason", None) for e in ev]


def test_road_die_passes_over_a_crew_that_is_out():
    st = board(3)
    for c in st.crews:
        c.turns = 3
    st.pending = None
    st.starter = "p0"
    R.crew_of(st, "p1").out = True
    ctx = R.Ctx(st)
    R.new_round(ctx)
    assert st.starter == "p2" and st.current == "p2"


def test_wrecks_trigger_hazards_and_no_wreck_without_figures():
    st = turn(board(), "p0", [3])
    put(st, "p0:large", 8, 3)
    w = R.Vehicle(
        id="w9", kind="wreck", name="wreck", size="small", shoot_size="small", capacity=1, where="road", pos=hx(9, 3)
    )
    st.vehicles.append(w)
    st.hazards[C.key(C.add(hx(9, 3), "n"))] = Hazard(type="mine")
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["n"])
    st, ev = move_car(st, "p0", "p0:large", 3, ["n"])
    while st.reroll is not None:
        st, more = GAME.apply(st, st.reroll.asker, {"kind": "reroll", "demand": False})
        ev += more
    assert R.veh(st, "w9").where == "gone" and "hazard" in kinds(ev)  # the wreck hit the mine
    st2 = turn(board(), "p0", [3])
    st2.wrecks_left = 0
    put(st2, "p0:small", 8, 3)
    st2.hazards[C.key(hx(9, 3))] = Hazard(type="wreck")
    st2, ev = move_car(st2, "p0", "p0:small", 3, ["n", "n", "n"])
    assert "no_wreck" in kinds(ev) and "slam" not in kinds(ev)


def test_blast_over_the_front_edge_extends_the_road():
    st = turn(board(), "p0", [1])
    park_ahead(st)
    put(st, "p0:small", 20, 3)
    put(st, "p1:medium", 22, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", ["any"])
    st = GAME.rig(st, "damage", ["blast"])
    st = GAME.rig(st, "direction", ["n"])
    st = GAME.rig(st, "stunt", [3])
    placed = st.tiles_placed
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert "extend" in kinds(ev) and st.tiles_placed == placed + 1
    assert R.veh(st, "p1:medium").pos == hx(25 - 8, 3)


def test_oil_slide_into_impassable_eliminates():
    f = face("8k", ["RRRRRRR", "RRRHRRR", "RRRRXRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    st = board(tiles=("9a", f, "9a"))
    turn(st, "p0", [3])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="oil")
    st = GAME.rig(st, "direction", ["ne"])  # (9,3) ne -> column 4, row 10 = X
    st, ev = move_car(st, "p0", "p0:small", 3, ["n"])
    assert R.veh(st, "p0:small").where == "gone" and "oil" in kinds(ev)


def test_summary_prompt_and_outcome_messages():
    st = turn(board(), "p0", [3])
    assert "Round 2" in GAME.summary(st).text("en") and "第2轮" in GAME.summary(st).text("zh")
    assert GAME.prompt(st, "p0").text("zh")
    assert GAME.outcome(st) is None


def test_choppers_take_no_damage_shrapnel_flies_past_them():
    st = turn(board(), "p0", [1])
    put(st, "p0:small", 8, 3)
    put(st, "p1:medium", 10, 3)
    R.crew_of(st, "p1").chopper = hx(12, 3)
    put(st, "p1:large", 14, 3)
    st, _ = move_car(st, "p0", "p0:small", 1, ["n"])
    st = GAME.rig(st, "shoot", ["any"])
    st = GAME.rig(st, "damage", ["shrapnel", "dent"])
    st = GAME.rig(st, "direction", ["n"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    assert R.veh(st, "p1:large").damage == ["dent"] and R.crew_of(st, "p1").chopper == hx(12, 3)


def test_view_lists_the_next_spaces_with_their_marks():
    st = turn(board(), "p0", [2])
    put(st, "p0:small", 8, 0)
    put(st, "p1:small", 9, 0)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2)
    v = GAME.view(st, "p1").model_dump(mode="json")
    marks = {tuple(c["pos"]): c["mark"] for c in v["choices"]}
    assert marks[tuple(C.add(hx(8, 0), "nw"))] == "eliminate"  # off the side
    assert marks[tuple(hx(9, 0))] == "slam"
    assert marks[tuple(C.add(hx(8, 0), "ne"))] == "road"


def test_ai_prefers_progress_and_the_best_shot_and_never_shoots_its_own():
    st = turn(board(), "p0", [3])
    put(st, "p0:small", 8, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
    a = GAME.ai_action(st, "p0")
    assert a.kind == "step" and a.dir == "n"  # open road: straight ahead is the most progress
    st2 = turn(board(), "p0", [1])
    put(st2, "p0:small", 8, 3)
    put(st2, "p1:small", C.row_of(C.add(hx(9, 3), "nw")), 2)
    put(st2, "p1:large", C.row_of(C.add(hx(9, 3), "ne")), 4)
    put(st2, "p0:medium", 10, 3)
    st2, _ = move_car(st2, "p0", "p0:small", 1, ["n"])
    assert st2.pending.stage == "shoot"
    assert GAME.ai_action(st2, "p0").target == "p1:large"  # 4/6 to hit, not the small car (2/6) or its own


def test_ruling_5_oil_slide_pays_the_space_it_slides_into():
    """Ruling 5 (docs/rulings.md, Thunder Road): oil = direction die, the car shifts one space and
    the move goes on; the step onto the oil and the slide are one move, paid at the terrain the car
    ends on (§7: costs are checked for movement by a special effect).  Die 3 onto face-up oil, the
    slide into mud: 3 - 2 = 1 move left (a slide onto road: 2 left)."""
    f = face("8o", ["RRRRRRR", "RRRHRRR", "RRRRMRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR", "RRRRRRR"])
    for slide, terrain, left in (("ne", "M", 1), ("n", "R", 2)):
        st = turn(board(tiles=("9a", f, "9a")), "p0", [3])
        put(st, "p0:small", 8, 3)
        st.hazards[C.key(hx(9, 3))] = Hazard(type="oil", up=True)
        st = GAME.rig(st, "direction", [slide])  # (row 9, col 3) ne -> column 4, row 10 = mud
        st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
        assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "oil"
        st, ev = do(st, "p0", kind="step", dir="n")
        assert "oil" in kinds(ev) and R.terrain(st, R.veh(st, "p0:small").pos) == terrain
        assert st.pending.stage == "step" and st.pending.moves == left


# ------------------------------------------------------------------ rulings without a rule-section test


def test_ruling_2_a_crew_that_can_move_nothing_has_its_turn_skipped():
    st = turn(board(), "p0", [3, 4])
    park_ahead(st, keep=("p0:small",))
    put(st, "p0:small", 8, 3)
    for v in st.vehicles:
        if v.owner == "p1":
            v.moved, v.coasts = True, 2  # moved and coasted twice: nothing p1 may give a die to
    R.crew_of(st, "p1").turns = 0
    st, ev = move_car(st, "p0", "p0:small", 3, ["n", "n", "n"])
    if st.pending is not None and st.pending.stage == "shoot":
        st, more = do(st, "p0", kind="shoot", target=None)
        ev += more
    assert ("turn_skipped", "p1") in [(e.kind, getattr(e, "seat", None)) for e in ev]
    assert R.crew_of(st, "p1").turns == 1  # the skipped turn counts as one of its three
    assert st.pending.seat == "p0"


def test_ruling_6_a_vehicle_entering_an_occupied_space_slams_and_leaves_the_token_under_it():
    st = turn(board(), "p0", [2])
    put(st, "p0:small", 8, 3)
    put(st, "p1:medium", 9, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="oil", up=True)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["n"])
    st, ev = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, ev = do(st, "p0", kind="step", dir="n")
    assert st.reroll is not None and st.reroll.asker == "p1"  # the larger vehicle's owner is asked
    st, more = do(st, "p1", kind="reroll", demand=False)
    ev += more
    assert "slam" in kinds(ev) and "oil" not in kinds(ev)  # the stacking car does not slide
    assert R.veh(st, "p0:small").pos == hx(9, 3) and R.veh(st, "p1:medium").pos == hx(10, 3)
    assert st.hazards[C.key(hx(9, 3))].type == "oil"


def test_ruling_16_extension_removes_wrecks_on_the_rear_tile_and_cars_still_in_the_start_area():
    st = turn(board(), "p0", [3])
    park_ahead(st, keep=("p0:small", "p1:large"))
    put(st, "p0:small", 23, 3)  # the last row of the lead tile: one step extends the road
    R.veh(st, "p1:large").where, R.veh(st, "p1:large").pos = "start", None
    wreck = R.Vehicle(id="w9", kind="wreck", name="wreck", size="small", shoot_size="small", capacity=1)
    wreck.where, wreck.pos = "road", hx(2, 5)
    st.vehicles.append(wreck)
    st.wrecks_left -= 1
    st, ev = move_car(st, "p0", "p0:small", 3, ["n"])
    assert "extend" in kinds(ev)
    assert R.veh(st, "w9").where == "gone" and st.wrecks_left == 4  # the figure returns
    assert R.veh(st, "p1:large").where == "gone"
    assert "wreck_removed" in kinds(ev) and "rear_tile" in [getattr(e, "reason", None) for e in ev]


def test_ruling_19_crews_going_out_in_the_same_resolution_share_the_win():
    st = damage_scene("dent")
    for seat in ("p0", "p1"):
        for v in st.vehicles:
            if v.owner == seat and v.id not in ("p0:small", "p1:medium"):
                v.where, v.pos, v.damage = "gone", None, []
    R.veh(st, "p0:small").damage = ["dent"]
    R.veh(st, "p1:medium").damage = ["dent"]
    st.damage_pile.remove("dent")
    st.damage_pile.remove("dent")
    # the shot makes p1's last car inoperable; its shrapnel flies back (s) into p0's last car
    st.rng.rig["damage"] = ["shrapnel", "dent"]
    st = GAME.rig(st, "direction", ["s"])
    st, ev = do(st, "p0", kind="shoot", target="p1:medium")
    out = GAME.outcome(st)
    assert out is not None and sorted(out.winners) == ["p0", "p1"] and st.end_reason == "last_standing"


def test_ruling_26_an_absent_players_decision_is_the_seat_filler_ais():
    st = GAME.new(["a", "b", "c"], {}, 8)
    for _ in range(40):
        s = GAME.to_act(st)[0]
        assert GAME.default_action(st, s) == GAME.ai_action(st, s)
        st, _ = GAME.ai_step(st)


@pytest.mark.parametrize("token", ["road", "mud", "oil", "mine", "wreck", "fire"])
def test_entering_every_kind_of_face_down_hazard_counts_as_a_reveal(token):
    """Previews and free undo stop at a reveal (issue 13 item 4): a flip without dice (road, mud,
    fire), one whose dice come later (oil's slide, a mine's damage) and a wreck whose slam asks
    the larger vehicle's owner to reroll (the state then still holds the starting RNG) all count."""
    st = turn(board(), "p0", [3])
    park_ahead(st, keep=("p0:medium",))
    put(st, "p0:medium", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type=token)
    st, _ = do(st, "p0", kind="assign", car="p0:medium", die=3)
    before = st
    after, _ = do(st, "p0", kind="step", dir="n")
    if token == "wreck":
        assert after.reroll is not None and after.rng == before.rng  # the question hides the RNG change
    assert GAME.hidden_revealed(before, after)
    assert not GAME.hidden_revealed(after, after)

"""Thunder Road: Vendetta -- the Maximum Chrome FAQ points and the two extra crews."""

from __future__ import annotations

import json

import pytest
from roadfaces import add_face, only_this_test

from engine.errors import GameError
from engine.thunder_road import GAME
from engine.thunder_road import content as C
from engine.thunder_road import rules as R
from engine.thunder_road.models import Hazard, Pending


@pytest.fixture(autouse=True)
def _test_only_faces():
    """ "9a"/"9b" (all road) and the faces a test adds, for that test only."""
    with only_this_test():
        yield


def hx(row, col):
    return C.hex_of(row, col)


def board(n=2, opts=None, seed=3):
    st = GAME.new([f"p{i}" for i in range(n)], opts or {}, seed)
    st.tiles = ["9a", "9a", "9a"]
    st.hazards = {}
    st.deck = ["9a"] * 4
    st.round = 2
    st.road_die = 2
    spots = [hx(r, c) for r in (17, 19, 21, 23) for c in (0, 1, 5, 6)]
    for v in st.vehicles:
        v.where, v.pos, v.moved = "road", spots.pop(0), False
    return st


def put(st, vid, row, col):
    v = R.veh(st, vid)
    v.where, v.pos = "road", hx(row, col)
    return v


def turn(st, seat, dice):
    c = R.crew_of(st, seat)
    c.dice, c.turns, c.command_used, c.used = sorted(dice), 0, False, []
    st.current = seat
    st.pending = Pending(seat=seat, stage="assign")
    return st


def do(st, seat, **a):
    return GAME.apply(st, seat, a)


def kinds(ev):
    return [e.kind for e in ev]


# ------------------------------------------------------------------ FAQ 1: assigning, coasting, commands


def test_faq_no_command_die_in_a_coasting_turn():
    st = turn(board(), "p0", [6, 2, 3])
    for v in ("p0:small", "p0:medium", "p0:large"):
        R.veh(st, v).moved = True
    put(st, "p0:small", 8, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2, coast=True)
    assert st.pending.stage == "step"
    with pytest.raises(GameError):
        do(st, "p0", kind="command", command="nitro", die=3)


def test_faq_coasting_only_when_no_available_vehicle():
    st = turn(board(), "p0", [6, 2])
    R.veh(st, "p0:small").moved = True
    legal = GAME.legal_actions(st, "p0")
    assert not any(a.coast for a in legal)


# ------------------------------------------------------------------ FAQ 2: drift


def test_faq_drift_first_occupied_only_and_still_slams_when_ending_there():
    st = turn(board(), "p0", [2, 4])
    put(st, "p0:small", 8, 3)
    put(st, "p1:small", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["se"])
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, _ = do(st, "p0", kind="command", command="drift", die=4)
    put(st, "p1:medium", 10, 3)
    marks = {(a.dir, a.then): a.mark for a in GAME.legal_actions(st, "p0")}
    assert marks[("n", "n")] == "drift_slam" and marks[("n", "ne")] == "drift_end_road"
    st, ev = do(st, "p0", kind="step", dir="n", then="n")  # second occupied space: slams
    assert "drift_through" in kinds(ev) and "slam" in kinds(ev)


# ------------------------------------------------------------------ FAQ 3: leaving the front


def test_faq_vehicle_continues_on_the_new_lead_tile_and_wins_over_the_last_tile():
    st = turn(board(), "p0", [3, 1])
    put(st, "p0:small", 23, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:small", die=3)
    st, _ = do(st, "p0", kind="command", command="none")
    assert {a.dir: a.mark for a in GAME.legal_actions(st, "p0")}["n"] == "extend"
    st, ev = do(st, "p0", kind="step", dir="n")
    assert "extend" in kinds(ev) and st.pending.moves == 2
    st, _ = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:small").pos == hx(17, 3)
    st.final = True
    put(st, "p0:small", 23, 3)
    st.pending.moves = 1
    st, ev = do(st, "p0", kind="step", dir="ne")
    assert GAME.outcome(st).winners == ["p0"] and "finish" in kinds(ev)


# ------------------------------------------------------------------ FAQ 4: slam reroll


def test_faq_reroll_belongs_to_the_larger_vehicle_and_chains_continue():
    st = turn(board(), "p0", [4])
    put(st, "p0:large", 8, 3)
    put(st, "p1:small", 9, 3)
    put(st, "p1:medium", C.row_of(C.add(hx(9, 3), "ne")), 4)
    st = GAME.rig(st, "slam", ["bottom", "bottom", "bottom", "top"])
    st = GAME.rig(st, "direction", ["ne", "n", "n", "n"])
    st, ev = do(st, "p0", kind="assign", car="p0:large", die=4)
    st, ev = do(st, "p0", kind="step", dir="n")
    assert GAME.to_act(st) == ["p0"]  # large vs small: p0 may reroll
    st, ev = GAME.apply(st, "p0", {"kind": "reroll", "demand": True})
    # reroll: bottom, n -> p1:small pushed n (free space) -- chain ends
    assert "reroll" in kinds(ev)
    pos = [tuple(v.pos) for v in st.vehicles if v.where == "road"]
    assert len(pos) == len(set(pos))
    assert R.veh(st, "p1:small").pos == C.add(hx(9, 3), "n")


def test_reroll_question_round_trips_through_json_and_replays_the_same_dice():
    st = turn(board(), "p0", [4])
    put(st, "p0:large", 8, 3)
    put(st, "p1:small", 9, 3)
    st, _ = do(st, "p0", kind="assign", car="p0:large", die=4)
    st, _ = do(st, "p0", kind="step", dir="n")
    if st.reroll is None:
        pytest.skip("no question with this seed")
    q = st.reroll
    back = GAME.State.model_validate_json(json.dumps(GAME.dump(st)))  # a scenario state: parse, no validate
    assert GAME.dump(back) == GAME.dump(st)
    v = GAME.view(st, "p1").model_dump(mode="json")
    assert "snapshot" not in str(v) and "rng" not in v
    a, _ = GAME.apply(st, q.asker, {"kind": "reroll", "demand": False})
    b, _ = GAME.apply(back, q.asker, {"kind": "reroll", "demand": False})
    assert GAME.dump(a) == GAME.dump(b)


# ------------------------------------------------------------------ FAQ 5: damage, minor damage, ON FIRE!


def test_faq_big_rig_and_bikes_take_minor_damage_without_token_effects():
    st = board(3, {"big_rig": True, "final_five": True})
    rig = R.veh(st, "p2:rig")
    bike = R.veh(st, "p1:bike1")
    pile = len(st.damage_pile)
    ctx = R.Ctx(st)
    R.damage(ctx, rig, "shot")
    R.damage(ctx, bike, "shot")
    assert rig.damage == ["minor"] and bike.damage == ["minor"] and len(st.damage_pile) == pile
    assert R.operable(rig) and not R.operable(bike)  # a bike has one slot
    assert kinds(ctx.events).count("minor_damage") == 2


def test_faq_on_fire_marker_stays_and_forces_a_fire_roll_before_moving():
    st = board(2, {"on_fire": True})
    assert "on_fire" in st.damage_pile and "fire" in st.hazard_pile + [h.type for h in st.hazards.values()]
    turn(st, "p0", [2, 3, 4])
    car = put(st, "p0:small", 8, 3)
    ctx = R.Ctx(st)
    st = GAME.rig(st, "damage", ["on_fire"])
    ctx = R.Ctx(st)
    R.damage(ctx, R.veh(st, "p0:small"), "shot")
    assert R.veh(st, "p0:small").on_fire and R.veh(st, "p0:small").damage == ["on_fire"]
    st = GAME.rig(st, "fire", ["flare_2"])
    st, ev = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, ev = do(st, "p0", kind="command", command="none")
    assert "fire_roll" in kinds(ev) and st.pending.moves == 4 and R.veh(st, "p0:small").on_fire
    assert car is not None


@pytest.mark.parametrize("face,expect", [("extinguish", "out"), ("burn_out", "inoperable"), ("flare_1", "burning")])
def test_fire_die_results(face, expect):
    st = board(2, {"on_fire": True})
    turn(st, "p0", [2])
    v = put(st, "p0:medium", 8, 3)
    v.on_fire = True
    st = GAME.rig(st, "fire", [face])
    st, ev = do(st, "p0", kind="assign", car="p0:medium", die=2)
    v = R.veh(st, "p0:medium")
    if expect == "out":
        assert not v.on_fire and st.pending.moves == 2
    elif expect == "inoperable":
        assert not R.operable(v) and v.pos == hx(8, 3) and "inoperable" in kinds(ev)
    else:
        assert v.on_fire and st.pending.moves == 3


def test_fire_hazard_sets_a_vehicle_on_fire():
    st = board(2, {"on_fire": True})
    add_face("8z", ["RRRRRRR", "RRRHRRR"] + ["RRRRRRR"] * 6, "fire test")
    st.tiles[1] = "8z"
    turn(st, "p0", [2])
    put(st, "p0:small", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="fire")
    st, ev = do(st, "p0", kind="assign", car="p0:small", die=2)
    st, ev = do(st, "p0", kind="step", dir="n")
    assert R.veh(st, "p0:small").on_fire and st.hazards[C.key(hx(9, 3))].up


# ------------------------------------------------------------------ FAQ 6: Big Rig and the road die


def test_faq_big_rig_uses_the_road_die_only_with_traction_drive():
    st = board(2, {"big_rig": True})
    rig = put(st, "p1:rig", 8, 3)
    turn(st, "p1", [1, 2, 3])
    st, _ = do(st, "p1", kind="assign", car="p1:rig", die=2)
    cmds = {a.command for a in GAME.legal_actions(st, "p1")}
    assert cmds <= {"none", "traction_drive", "patch_up"} and "traction_drive" in cmds
    st2, _ = do(st, "p1", kind="command", command="none")
    st2, _ = do(st2, "p1", kind="step", dir="n")
    st2, _ = do(st2, "p1", kind="step", dir="n")
    assert st2.pending is None or st2.pending.stage != "bonus"
    st3, _ = do(st, "p1", kind="command", command="traction_drive", die=1)
    st3, _ = do(st3, "p1", kind="step", dir="n")
    st3, _ = do(st3, "p1", kind="step", dir="n")
    assert st3.pending.stage == "bonus"
    assert rig is not None


def test_big_rig_moves_every_turn_first_die_sets_turns_and_cannot_be_pushed():
    st = board(2, {"big_rig": True})
    put(st, "p1:rig", 8, 3)
    turn(st, "p1", [1, 2, 3])
    R.veh(st, "p1:rig").moved = True
    assert {a.car for a in GAME.legal_actions(st, "p1")} == {"p1:rig"}  # moves every turn, no coasting
    st, _ = do(st, "p1", kind="assign", car="p1:rig", die=1)
    assert R.crew_of(st, "p1").rig_turns == 1
    st, _ = do(st, "p1", kind="command", command="none")
    assert {a.dir for a in GAME.legal_actions(st, "p1")} == {"nw", "n", "ne"}
    st, _ = do(st, "p1", kind="step", dir="ne")
    assert R.crew_of(st, "p1").rig_turns == 0
    # slams: the other vehicle always moves
    st = board(2, {"big_rig": True})
    turn(st, "p0", [3])
    put(st, "p0:large", 8, 3)
    put(st, "p1:rig", 9, 3)
    st = GAME.rig(st, "slam", ["bottom"])
    st = GAME.rig(st, "direction", ["nw"])
    st, _ = do(st, "p0", kind="assign", car="p0:large", die=3)
    st, _ = do(st, "p0", kind="step", dir="n")
    if st.reroll is not None:
        st, _ = GAME.apply(st, st.reroll.asker, {"kind": "reroll", "demand": False})
    assert R.veh(st, "p1:rig").pos == hx(9, 3)
    assert R.veh(st, "p0:large").pos == C.add(hx(9, 3), "nw")


def test_big_rig_ploughs_through_hazards_taking_minor_damage():
    st = board(2, {"big_rig": True})
    add_face("8y", ["RRRRRRR", "RRRHRRR"] + ["RRRRRRR"] * 6, "plough")
    st.tiles[1] = "8y"
    put(st, "p1:rig", 8, 3)
    st.hazards[C.key(hx(9, 3))] = Hazard(type="mine")
    turn(st, "p1", [3])
    st, ev = do(st, "p1", kind="assign", car="p1:rig", die=3)
    st, ev = do(st, "p1", kind="step", dir="n")
    assert "plough" in kinds(ev) and R.veh(st, "p1:rig").damage == ["minor"]
    assert st.pending.moves == 2 and C.key(hx(9, 3)) not in st.hazards


def test_final_five_bikes_zigzag_through_vehicles_and_get_five_turns():
    st = board(2, {"final_five": True})
    assert len([v for v in st.vehicles if v.owner == "p1"]) == 5
    assert R.turns_per_round(R.crew_of(st, "p1")) == 5
    turn(st, "p1", [3, 4])
    put(st, "p1:bike1", 8, 3)
    put(st, "p0:small", 9, 3)
    st, _ = do(st, "p1", kind="assign", car="p1:bike1", die=3)
    st, _ = do(st, "p1", kind="command", command="none")
    st, ev = do(st, "p1", kind="step", dir="n", then="n")
    assert "drift_through" in kinds(ev) and R.veh(st, "p1:bike1").pos == hx(10, 3)


def test_five_seats_need_an_extra_crew():
    with pytest.raises(GameError) as e:
        GAME.new(["a", "b", "c", "d", "e"], {}, 1)
    assert e.value.code == "bad_seat_count" and e.value.params["hi"] == 4  # via Game.seat_range, as the lobby sees it
    assert GAME.seat_range({}) == (2, 4) and GAME.seat_range({"final_five": True}) == (2, 5)
    st = GAME.new(["a", "b", "c", "d", "e"], {"big_rig": True}, 1)
    assert [c.crew for c in st.crews][-1] == "big_rig"
    with pytest.raises(GameError):
        GAME.new(["a"], {}, 1)
    with pytest.raises(GameError):
        GAME.new(["a", "b"], {"start_face": "z"}, 1)


def test_final_five_assignment_splits_into_vehicle_then_die_when_over_25_choices():
    st = board(2, {"final_five": True})
    turn(st, "p1", [1, 2, 3, 4, 5, 6])
    legal = GAME.legal_actions(st, "p1")
    assert len(legal) == 5 and all(a.die == 0 for a in legal)
    assert GAME.action_label(st, legal[0], "zh").startswith("选择")
    st, _ = do(st, "p1", kind="assign", car="p1:bike2", die=0)
    legal = GAME.legal_actions(st, "p1")
    assert {a.car for a in legal} == {"p1:bike2"} and {a.die for a in legal} == {1, 2, 3, 4, 5, 6}
    st, _ = do(st, "p1", kind="assign", car="p1:bike2", die=4)
    assert st.pending.stage == "command" and R.veh(st, "p1:bike2").moved

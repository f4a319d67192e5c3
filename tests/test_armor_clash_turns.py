"""Armor Clash turn mechanics: simultaneous commits, pending steps, movement, reload, turret, hull, illegal actions."""

import pytest

from engine import GameError, canonical
from engine.armor_clash import GAME
from engine.armor_clash import ai as AI
from engine.armor_clash import geometry as G
from engine.armor_clash import rules as R
from engine.armor_clash.models import Choose

PASS = {"kind": "choose", "what": "pass"}


def duel(**opts):
    """The duel of rules revision 2 (its start cells are the geometry these tests use)."""
    # a at C9 facing N, b at J2 facing S: b is NE of a, inside a's arc
    return GAME.new(["a", "b"], {"scenario": "duel", "rules": 2, **opts}, 1)


def unit(s, uid):
    return R.unit_by_id(s, uid)


def do(s, seat, *actions):
    events = []
    for a in actions:
        s, ev = GAME.apply(s, seat, a)
        events += ev
    return s, events


def turn(s, a_actions, b_actions=(PASS,)):
    s, e1 = do(s, "a", *a_actions)
    s, e2 = do(s, "b", *b_actions)
    return s, e1 + e2


def kinds(legal):
    return [(x.kind, getattr(x, "what", None)) for x in legal]


# ------------------------------------------------------------ simultaneous turns
def test_every_seat_commits_then_the_turn_resolves():
    s = duel()
    assert GAME.to_act(s) == ["a", "b"]
    s, ev = do(s, "a", PASS)
    assert GAME.to_act(s) == ["b"] and s.turn == 1
    private = [e for e in ev if e.kind == "order_given"]
    assert private and all(e.to == ["a"] for e in private)
    assert [e.seat for e in ev if e.kind == "committed"] == ["a"]
    s, ev = do(s, "b", PASS)
    assert s.turn == 2 and GAME.to_act(s) == ["a", "b"]
    assert any(e.kind == "turn_resolves" for e in ev)


def test_uncommitted_and_committed_orders_stay_private():
    s = duel()
    s, _ = do(s, "a", {"kind": "choose", "what": "shoot"})
    pub = GAME.view(s, None)
    assert pub.my_pending is None and pub.pending == {}
    s, _ = do(s, "a", {"kind": "target", "target": "b"})
    for seat in (None, "b"):
        v = GAME.view(s, seat)
        assert v.committed == ["a"] and v.my_order is None and v.orders == {}
        text = v.model_dump_json()
        assert '"what"' not in text and '"target":"b"' not in text
    assert GAME.view(s, "a").my_order.what == "shoot"
    assert GAME.visible_events([e for e in do(s, "b", PASS)[1]], "b")


def test_committed_seat_cannot_act_again():
    s, _ = do(duel(), "a", PASS)
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", PASS)
    assert exc.value.code == "not_your_turn"


def test_timer_default_is_a_pass_even_mid_decision():
    s = duel()
    s, _ = do(s, "a", {"kind": "choose", "what": "move"})
    d = GAME.default_action(s, "a")
    assert d == Choose(what="pass")
    s, ev = do(s, "a", d)
    assert GAME.to_act(s) == ["b"]
    s, ev = do(s, "b", GAME.default_action(s, "b"))
    assert sum(1 for e in ev if e.kind == "passed") == 2


# ------------------------------------------------------------ illegal actions
@pytest.mark.parametrize(
    "setup,action,code",
    [
        ([], {"kind": "target", "target": "b"}, "wrong_step"),
        ([{"kind": "choose", "what": "shoot"}], {"kind": "target", "target": "zz"}, "unknown_target"),
        ([], {"kind": "choose", "what": "reload"}, "already_loaded"),
        (
            [{"kind": "choose", "what": "move"}, {"kind": "move_dir", "reverse": False}],
            {"kind": "move_dist", "cells": 9},
            "too_far",
        ),
        ([], {"kind": "choose", "what": "continue_move"}, "cannot_move"),
        ([], {"kind": "back"}, "wrong_step"),
    ],
)
def test_illegal_actions_raise_stable_codes_and_leave_state(setup, action, code):
    s, _ = do(duel(), "a", *setup)
    before = canonical(s)
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", action)
    assert exc.value.code == code
    assert exc.value.message("en") != exc.value.key and exc.value.message("zh") != exc.value.key
    assert canonical(s) == before


def test_no_shooting_while_loading_or_unloaded():
    s = duel()
    unit(s, "a").loaded = None
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", {"kind": "choose", "what": "shoot"})
    assert exc.value.code == "not_loaded"
    s, _ = turn(s, [{"kind": "choose", "what": "reload"}, {"kind": "ammo", "ammo": "AP"}])
    assert unit(s, "a").loading == "AP" and unit(s, "a").reload_left == 1
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", {"kind": "choose", "what": "shoot"})
    assert exc.value.code == "reloading"


def test_back_returns_to_the_first_step():
    s, _ = do(duel(), "a", {"kind": "choose", "what": "move"}, {"kind": "back"})
    assert s.pending["a"].step == "top"


# ------------------------------------------------------------ movement (rules 2.1)
@pytest.mark.parametrize(
    "cells,band,turns",
    [(1, "short", 1), (2, "short", 1), (3, "medium", 2), (4, "medium", 2), (5, "long", 3), (6, "long", 4)],
)
def test_move_bands_for_max_move_6(cells, band, turns):
    assert G.move_turns(cells, 6) == (band, turns)


@pytest.mark.parametrize("cells,band,turns", [(1, "short", 1), (2, "medium", 2), (3, "long", 3), (4, "long", 4)])
def test_move_bands_for_kv2(cells, band, turns):
    assert G.move_turns(cells, 4) == (band, turns)


def test_long_move_takes_turns_and_keeps_remaining_distance_when_interrupted():
    s = duel()
    move6 = [
        {"kind": "choose", "what": "move"},
        {"kind": "move_dir", "reverse": False},
        {"kind": "move_dist", "cells": 6},
    ]
    s, _ = turn(s, move6)
    a = unit(s, "a")
    assert (a.x, a.y) == (2, 7) and a.move_plan.cells_total == 6 and a.move_plan.turns_total == 4
    s, _ = turn(s, [PASS])  # interrupted: position and plan kept
    a = unit(s, "a")
    assert (a.x, a.y) == (2, 7) and a.move_plan.cells_done == 1
    s, _ = turn(s, [{"kind": "choose", "what": "continue_move"}])
    assert unit(s, "a").y == 5
    s, _ = turn(s, [{"kind": "choose", "what": "continue_move"}])
    s, _ = turn(s, [{"kind": "choose", "what": "continue_move"}])
    a = unit(s, "a")
    assert (a.x, a.y) == (2, 2) and a.move_plan is None


def test_reverse_moves_backwards_along_the_hull():
    s = duel()
    s, _ = turn(
        s,
        [{"kind": "choose", "what": "move"}, {"kind": "move_dir", "reverse": True}, {"kind": "move_dist", "cells": 1}],
    )
    assert (unit(s, "a").x, unit(s, "a").y, unit(s, "a").hull) == (2, 9, 0)


def test_move_penalty_adds_turns():
    s = duel()
    unit(s, "a").pen["move"] = 1
    s, _ = turn(
        s,
        [{"kind": "choose", "what": "move"}, {"kind": "move_dir", "reverse": False}, {"kind": "move_dist", "cells": 2}],
    )
    assert unit(s, "a").move_plan.turns_total == 2 and unit(s, "a").y == 7


def test_plain_tank_cannot_fire_while_moving_but_autoloader_can():
    s = duel()
    s, _ = do(
        s,
        "a",
        {"kind": "choose", "what": "move"},
        {"kind": "move_dir", "reverse": False},
        {"kind": "move_dist", "cells": 1},
    )
    assert "a" in s.orders and s.orders["a"].target is None
    s = duel(vehicles=["amx13", "t34_85"])
    s, _ = do(
        s,
        "a",
        {"kind": "choose", "what": "move"},
        {"kind": "move_dir", "reverse": False},
        {"kind": "move_dist", "cells": 1},
    )
    assert s.pending["a"].step == "move_fire"
    legal = GAME.legal_actions(s, "a")
    assert {"kind": "target", "target": ""} in [x.model_dump() for x in legal]
    s, _ = do(s, "a", {"kind": "target", "target": "b"})
    s.rng.force("hit", [6])
    s, ev = do(s, "b", PASS)
    assert unit(s, "a").y == 7 and any(e.kind == "shot" for e in ev)


# ------------------------------------------------------------ reload (rules 2.2, 7)
@pytest.mark.parametrize("vehicle,turns", [("t34_85", 2), ("kv2", 3), ("amx13", 1), ("sherman", 2)])
def test_reload_time_per_vehicle(vehicle, turns):
    s = duel(vehicles=[vehicle, "t34_85"])
    unit(s, "a").loaded = None
    s, _ = turn(s, [{"kind": "choose", "what": "reload"}, {"kind": "ammo", "ammo": "HEAT"}])
    for _ in range(turns - 1):
        assert unit(s, "a").loaded is None
        assert ("choose", "shoot") not in kinds(GAME.legal_actions(s, "a"))
        s, _ = turn(s, [{"kind": "choose", "what": "continue_reload"}])
    assert unit(s, "a").loaded == "HEAT"
    assert ("choose", "shoot") in kinds(GAME.legal_actions(s, "a"))


def test_ammo_choice_is_part_of_loading_and_unload_takes_a_turn():
    s = duel()
    legal = kinds(GAME.legal_actions(s, "a"))
    assert ("choose", "reload") not in legal and ("choose", "unload") in legal
    s, _ = turn(s, [{"kind": "choose", "what": "unload"}])
    assert unit(s, "a").loaded is None and s.turn == 2
    s, _ = do(s, "a", {"kind": "choose", "what": "reload"})
    assert sorted(x.ammo for x in GAME.legal_actions(s, "a") if x.kind == "ammo") == ["AP", "HE", "HEAT"]


def test_a_shot_empties_the_gun():
    s = duel()
    s.rng.force("hit", [6])
    s, _ = turn(s, [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "b"}])
    assert unit(s, "a").loaded is None
    assert ("choose", "reload") in kinds(GAME.legal_actions(s, "a"))


def test_gunner_penalty_makes_aiming_take_longer():
    s = duel()
    unit(s, "a").pen["shoot"] = 1
    s.rng.force("hit", [6])
    shoot = [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "b"}]
    s, ev = turn(s, shoot)
    assert unit(s, "a").loaded == "AP" and unit(s, "a").aim.done == 1
    s, ev = turn(s, shoot)
    assert unit(s, "a").loaded is None
    assert any(e.kind == "roll" and e.die == "hit" for e in ev)


def test_interrupting_an_aim_loses_it():
    s = duel()
    unit(s, "a").pen["shoot"] = 1
    s, _ = turn(s, [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "b"}])
    s, _ = turn(s, [PASS])
    assert unit(s, "a").aim is None


# ------------------------------------------------------------ turret (rules 8.1-8.6)
def test_firing_arc_is_the_pointed_cell_and_its_neighbours():
    for d in range(8):
        assert G.in_arc(0, d) == (d in (7, 0, 1))
    assert G.RING_TO_CELL[7] == 1 and G.RING_TO_CELL[0] == 2 and G.RING_TO_CELL[1] == 3


def test_default_turret_points_at_the_front_cell_2():
    s = duel()
    assert all(G.RING_TO_CELL[u.turret] == 2 for u in s.units)


def test_target_outside_arc_cannot_be_shot():
    s = duel()
    b = unit(s, "b")
    b.x, b.y = 2, 3  # north of a? put it behind a instead
    b.x, b.y = 2, 2
    unit(s, "a").hull = 4  # a faces south, b is north: 4 cells off, beyond the free 2
    assert ("choose", "shoot") not in kinds(GAME.legal_actions(s, "a"))
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", {"kind": "choose", "what": "shoot"})
    assert exc.value.code == "no_target_in_arc"


def test_free_rotation_of_two_cells_with_the_shot_and_turret_stays_on_target():
    s = duel()
    b = unit(s, "b")
    b.x, b.y = 9, 9  # due east of a: 2 ring steps from N, needs 1 cell of free rotation
    assert ("choose", "shoot") in kinds(GAME.legal_actions(s, "a"))
    s.rng.force("hit", [6])
    s, _ = turn(s, [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "b"}])
    assert unit(s, "a").abs_turret == 2 and G.RING_TO_CELL[unit(s, "a").turret] == 5


def test_free_rotation_does_not_use_the_turn():
    s = duel()
    s, ev = do(s, "a", {"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 5})
    assert s.pending["a"].step == "top" and s.pending["a"].pre_rot == 2
    assert ("choose", "rotate") not in kinds(GAME.legal_actions(s, "a"))
    s, _ = do(s, "a", {"kind": "choose", "what": "unload"})
    s, _ = do(s, "b", PASS)
    a = unit(s, "a")
    assert a.abs_turret == 2 and a.loaded is None


def test_three_cells_take_one_turn():
    s = duel()
    s, _ = turn(s, [{"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 8}])
    assert G.RING_TO_CELL[unit(s, "a").turret] == 8 and unit(s, "a").rot_plan is None


def test_half_turn_takes_two_turns_and_is_interruptible():
    s = duel()
    s, _ = turn(s, [{"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 7}])
    a = unit(s, "a")
    assert a.rot_plan is not None and G.ring_dist(a.abs_turret, 0) == 3
    s, _ = turn(s, [PASS])
    assert G.ring_dist(unit(s, "a").abs_turret, 0) == 3
    s, _ = turn(s, [{"kind": "choose", "what": "continue_rotate"}])
    assert G.RING_TO_CELL[unit(s, "a").turret] == 7 and unit(s, "a").rot_plan is None


def test_rotation_takes_the_shortest_way():
    assert G.ring_dist(0, 7) == 1 and not G.clockwise(0, 7) and G.step_towards(0, 6, 1) == 7


def test_hand_cranked_turret_pays_even_one_cell():
    s = duel()
    unit(s, "a").turret_state = "crank"
    s, _ = do(s, "a", {"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 3})
    assert s.orders["a"].what == "rotate"
    s, _ = do(s, "b", PASS)
    assert G.RING_TO_CELL[unit(s, "a").turret] == 3


def test_hand_cranked_two_cells_take_three_turns():
    s = duel()
    unit(s, "a").turret_state = "crank"
    s, _ = turn(s, [{"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 5}])
    for _ in range(2):
        assert unit(s, "a").rot_plan is not None
        s, _ = turn(s, [{"kind": "choose", "what": "continue_rotate"}])
    assert G.RING_TO_CELL[unit(s, "a").turret] == 5 and unit(s, "a").rot_plan is None


def test_locked_turret_cannot_rotate_but_hull_can_turn():
    s = duel()
    unit(s, "a").turret_state = "locked"
    legal = kinds(GAME.legal_actions(s, "a"))
    assert ("choose", "rotate") not in legal and ("choose", "hull") in legal
    with pytest.raises(GameError) as exc:
        GAME.apply(s, "a", {"kind": "choose", "what": "rotate"})
    assert exc.value.code == "turret_locked"


def test_hull_turn_takes_a_turn_keeps_turret_relative_and_continues_loading():
    s = duel()
    a = unit(s, "a")
    a.loaded, a.loading, a.reload_left = None, "AP", 1
    s, _ = turn(s, [{"kind": "choose", "what": "hull"}, {"kind": "hull", "facing": 2}])
    a = unit(s, "a")
    assert a.hull == 2 and a.turret == 0 and a.loaded == "AP"


def test_body_turret_link_needs_a_veteran_and_turns_hull_with_turret():
    s = duel(crews=["veteran", "recruit"], links=[True, True])
    assert unit(s, "a").link and not unit(s, "b").link
    s, _ = turn(s, [{"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 7}])
    a = unit(s, "a")
    assert a.abs_turret == 4 and a.hull == 4 and a.turret == 0 and a.rot_plan is None
    assert R.turret_speed(s, a) == 5


def test_choice_labels_show_turn_costs():
    s = duel()
    s1, _ = do(s, "a", {"kind": "choose", "what": "move"}, {"kind": "move_dir", "reverse": False})
    turns = {x.cells: x.turns for x in GAME.legal_actions(s1, "a") if x.kind == "move_dist"}
    assert turns == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 4}
    assert GAME.action_label(s1, GAME.legal_actions(s1, "a")[5], "en") == "6 cells · 4 turns"
    s2, _ = do(s, "a", {"kind": "choose", "what": "rotate"})
    costs = {x.cell: x.turns for x in GAME.legal_actions(s2, "a") if x.kind == "turret"}
    assert costs == {3: 0, 5: 0, 8: 1, 7: 2, 6: 1, 4: 0, 1: 0}
    # the informational field may be sent or left out
    s3, _ = do(s2, "a", {"kind": "turret", "cell": 8, "turns": 1})
    s4, _ = do(s2, "a", {"kind": "turret", "cell": 8})
    assert s3.orders["a"] == s4.orders["a"]


def test_a_shot_resolves_only_at_the_end_of_the_turn_with_its_dice_in_order():
    s = duel()
    s.rng.force("hit", [1, 6])
    s.rng.force("location", [1])
    s.rng.force("damage", [6])
    s.rng.force("penalty", [4])
    s, ev = do(s, "a", {"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "b"})
    assert not [e for e in ev if e.kind not in ("committed", "order_given", "free_rotate")]
    s, ev = do(s, "b", {"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "a"})
    dice = [(e.label, e.die, e.value) for e in ev if e.kind == "roll"]
    assert dice == [("a", "hit", 1), ("a", "location", 1), ("a", "damage", 6), ("b", "penalty", 4), ("b", "hit", 6)]
    texts = [GAME.event_text(e, "en") for e in ev if e.to is None]
    assert "a: hit die 1 → hit" in texts and "b: penalty die 4 → +2" in texts
    # simultaneous: b was hit first but still fired
    assert unit(s, "b").loaded is None and unit(s, "b").pen["reload"] == 2


def test_ai_force_withdraws_after_losing_half_its_tanks():
    s = GAME.new(["a", "b"], {"scenario": "skirmish"}, 1)
    enemies = [u for u in s.units if u.side == "enemies"]
    assert len(enemies) == 2
    enemies[0].status = "out"
    R.check_result(s)
    assert s.result is not None and s.result.side == "players" and s.result.winners == ["a", "b"]


def test_ai_force_fights_on_below_half_losses():
    s = GAME.new(["a", "b", "c"], {"scenario": "skirmish"}, 1)
    enemies = [u for u in s.units if u.side == "enemies"]
    assert len(enemies) == 3
    enemies[0].status = "out"
    R.check_result(s)
    assert s.result is None


def test_turn_limit_gives_the_defenders_the_battle():
    s = GAME.new(["a"], {"scenario": "skirmish", "max_turns": 1}, 1)
    s, _ = do(s, "a", PASS)
    assert s.result is not None and s.result.reason == "time_up" and GAME.outcome(s).winners == []


def test_duel_last_crew_standing_wins():
    s = duel()
    unit(s, "b").status = "out"
    R.check_result(s)
    assert GAME.outcome(s).winners == ["a"]


def test_linked_free_rotation_then_move_goes_where_the_hull_now_points():
    s = duel(crews=["veteran", "veteran"], links=[True, False])
    s, _ = do(s, "a", {"kind": "choose", "what": "rotate"}, {"kind": "turret", "cell": 5})  # free, hull swings east
    s, _ = do(
        s,
        "a",
        {"kind": "choose", "what": "move"},
        {"kind": "move_dir", "reverse": False},
        {"kind": "move_dist", "cells": 1},
    )
    s, _ = do(s, "b", PASS)
    a = unit(s, "a")
    assert a.hull == 2 and (a.x, a.y) == (3, 8)


def test_ai_turns_the_hull_when_a_traverse_would_be_slower():
    s = duel()
    a, b = unit(s, "a"), unit(s, "b")
    b.x, b.y = 2, 0  # due north of a
    a.turret = 4  # turret points south: 3 cells bring the target into the arc (1 turn)
    o = AI.order_easy(s, a)
    assert o.what == "rotate" and o.turret_to == 7 and G.in_arc(o.turret_to, 0)
    a.turret_state = "crank"  # 3 cells hand-cranked = 4 turns: turn the hull instead
    o = AI.order_easy(s, a)
    assert o.what == "hull" and o.facing == 4 and (o.facing + a.turret) % 8 == 0
    a.turret_state = "locked"
    assert AI.order_easy(s, a).what == "hull"


def test_views_never_carry_the_dice_generator_or_its_seed():
    s = duel()
    for seat in (None, "a", "b"):
        v = GAME.view(s, seat).model_dump(mode="json")
        assert "rng" not in v and "seed" not in v


def test_seat_ai_always_commits_within_a_few_steps():
    # regression: a turret step whose legal actions carry their turn cost once made the AI step back forever
    for seed in range(6):
        s = GAME.new(["p1", "p2"], {"mode": "normal"}, seed)
        while GAME.outcome(s) is None:
            turn, steps = s.turn, 0
            while GAME.outcome(s) is None and s.turn == turn:
                seat = GAME.to_act(s)[0]
                s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
                steps += 1
                assert steps <= 12, f"seed {seed} turn {turn}: the AI is not committing"

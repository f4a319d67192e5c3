"""One test per Armor Clash ruling of docs/rulings.md, named after it (``test_r<n>_...``).

The detailed rule tests live in the other ``test_armor_clash_*`` files; each test here pins
the decision its ruling records, so a change of a ruling fails a test that names it.  The
last test checks that every ``### R<n>`` heading of the Armor Clash section has one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import GameError, canonical
from engine.armor_clash import GAME, content
from engine.armor_clash import ai as AI
from engine.armor_clash import geometry as G
from engine.armor_clash import rules as R
from engine.armor_clash.models import RULES_REVISION, Order

PASS = {"kind": "choose", "what": "pass"}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulings.md"


def duel(**opts):
    """The duel of rules revision 2 (its start cells are the geometry these tests use)."""
    return GAME.new(["a", "b"], {"scenario": "duel", "rules": 2, **opts}, 1)


def unit(s, uid):
    return R.unit_by_id(s, uid)


def fire(s, shooter, target, **dice):
    s = s.model_copy(deep=True)
    for name, values in dice.items():
        s.rng.force(name, values if isinstance(values, list) else [values])
    ev: list = []
    R.fire(s, unit(s, shooter), unit(s, target), ev)
    return s, ev


def resolve(s, orders):
    s = s.model_copy(deep=True)
    s.orders = {seat: Order(**o) for seat, o in orders.items()}
    ev: list = []
    R.resolve_turn(s, ev, AI.enemy_order)
    return s, ev


def test_r1_only_simple_and_normal_are_played():
    for mode in ("hard", "hell"):
        with pytest.raises(GameError) as exc:
            GAME.new(["a"], {"mode": mode}, 1)
        assert exc.value.code == "mode_unavailable"
    assert {GAME.new(["a"], {"mode": m}, 1).options.mode for m in ("simple", "normal")} == {"simple", "normal"}


def test_r2_move_bands_of_a_six_cell_vehicle_and_proportional_progress():
    assert [G.move_turns(c, 6)[1] for c in range(1, 7)] == [1, 1, 2, 2, 3, 4]
    s = duel()
    s, _ = resolve(s, {"a": {"what": "move", "reverse": False, "cells": 6}, "b": {"what": "pass"}})
    a = unit(s, "a")
    assert (a.x, a.y) == (2, 7) and a.move_plan.cells_done == 1  # floor(6 * 1 / 4)


def test_r3_the_arc_is_the_pointed_direction_and_its_two_neighbours():
    assert [G.in_arc(0, d) for d in range(8)] == [True, True, False, False, False, False, False, True]
    s = duel()
    a = unit(s, "a")
    a.turret = 2  # turret relative to the hull: turning the hull carries it
    R.hull_turn(s, a, 2, [])
    assert a.abs_turret == 4


def test_r4_the_damage_die_is_a_second_die_read_in_both_block_tables():
    results = {die: content.damage_result(loc, die) for loc in range(1, 7) for die in range(1, 7)}
    assert results == {1: "pen", 2: "weak", 3: "nopen", 4: "pen_weak", 5: "ricochet", 6: "damaged"}


def test_r5_a_six_on_tracks_knocks_out_a_three_does_nothing():
    s = duel()
    s2, _ = fire(s, "a", "b", hit=1, location=6, damage=6)
    assert unit(s2, "b").status == "out" and unit(s2, "b").tracks == "destroyed"
    s3, _ = fire(s, "a", "b", hit=1, location=1, damage=3)
    b = unit(s3, "b")
    assert b.active and not any(b.pen.values()) and not any(b.injuries.values())


def test_r6_simple_mode_rolls_location_then_one_combined_die():
    s = duel(mode="simple")
    s2, ev = fire(s, "a", "b", location=3, hit=1)
    assert [e.die for e in ev if e.kind == "roll"] == ["location", "hit"]
    assert unit(s2, "b").status == "out"


def test_r7_the_penalty_die_gives_one_or_two_turns():
    s = duel()
    for face, pen in ((1, 1), (3, 1), (4, 2), (6, 2)):
        s2, _ = fire(s, "a", "b", hit=1, location=1, damage=6, penalty=face)
        assert unit(s2, "b").pen["reload"] == pen and unit(s2, "b").injuries["loader"] == 1


def test_r8_rotation_costs_on_the_eight_cell_ring():
    s = duel()
    a = unit(s, "a")
    assert [R.rotation_turns(s, a, c) for c in (1, 2, 3, 4)] == [1, 1, 1, 2]
    assert R.free_rotation(a) == 2
    a.turret_state = "crank"
    assert [R.rotation_turns(s, a, c) for c in (1, 2, 3, 4)] == [1, 3, 4, 6] and R.free_rotation(a) == 0


def test_r9_a_hull_turn_keeps_a_reload_counting():
    s = duel()
    a = unit(s, "a")
    a.loaded, a.loading, a.reload_left = None, "AP", 2
    s, _ = resolve(s, {"a": {"what": "hull", "facing": 2}, "b": {"what": "pass"}})
    assert unit(s, "a").hull == 2 and unit(s, "a").reload_left == 1


def test_r10_the_link_needs_a_veteran_crew():
    s = GAME.new(["a", "b"], {"scenario": "duel", "crews": ["recruit", "veteran"], "links": [True, True]}, 1)
    assert not unit(s, "a").link and unit(s, "b").link


def test_r11_reload_times_and_ammunition_cards():
    v = content.vehicles()
    assert (v["kv2"]["reload"], v["t34_85"]["reload"], v["amx13"]["reload"]) == (3, 2, 1)
    ammo = content.tables()["ammo"]
    assert ammo["HEAT"]["result_map"] == {"ricochet": "pen", "damaged": "pen"}
    assert ammo["HE"]["result_map"] == {"ricochet": "nopen", "pen": "pen_weak"} and ammo["HE"]["he_spall"]


def test_r12_only_vehicles_with_the_trait_fire_on_the_move():
    for vehicle, steps in (("amx13", "move_fire"), ("t34_85", None)):
        s = GAME.new(["a", "b"], {"scenario": "duel", "vehicles": [vehicle, "t34_85"]}, 1)
        for a in ({"kind": "choose", "what": "move"}, {"kind": "move_dir", "reverse": False}):
            s, _ = GAME.apply(s, "a", a)
        s, _ = GAME.apply(s, "a", {"kind": "move_dist", "cells": 1})
        assert (s.pending["a"].step if "a" in s.pending else None) == steps


def test_r13_orders_are_secret_until_the_last_seat_commits():
    s = duel()
    s, ev = GAME.apply(s, "a", PASS)
    assert GAME.to_act(s) == ["b"] and s.turn == 1
    assert [e.kind for e in GAME.visible_events(ev, "b")] == ["committed"]
    assert GAME.view(s, "b").orders == {} and GAME.view(s, "a").my_order.what == "pass"


def test_r14_crews_bail_out_of_crippled_vehicles_under_rules_2():
    s = GAME.new(["a"], {"mode": "normal"}, 1)
    boss = unit(s, "boss")
    boss.pen["move"] = content.scenarios()["boss"]["bail_out"]["boss"]
    s2, ev = resolve(s, {"a": {"what": "pass"}})
    assert unit(s2, "boss").out_reason == "bailed_out" and s2.result.reason == "victory"
    old = GAME.new(["a"], {"mode": "normal", "rules": 1}, 1)
    unit(old, "boss").pen["move"] = 20
    old2, _ = resolve(old, {"a": {"what": "pass"}})
    assert unit(old2, "boss").active and old2.result is None  # revision 1 had no bail-out
    a = unit(s, "a")
    a.pen["shoot"] = content.scenarios()["boss"]["bail_out"]["players"] - 1
    boss.pen["move"] = 0
    boss.loaded, boss.reload_left = None, 2  # the boss does not fire this turn
    s3, _ = resolve(s, {"a": {"what": "pass"}})
    assert unit(s3, "a").active  # one short of the threshold


def test_r14_duels_of_rules_3_are_fought_for_the_crossroads():
    """New duels (revision 3): alone in the zone at the end of a turn scores; the goal wins."""
    s = GAME.new(["a", "b"], {"scenario": "duel", "mode": "simple"}, 1)
    obj = content.scenarios()["duel"]["objective"]
    assert s.options.rules >= 3 and R.objective(s) is obj
    a = unit(s, "a")
    a.x, a.y = obj["zone"][0]
    for n in range(1, obj["points"]["simple"] + 1):
        s, ev = resolve(s, {"a": {"what": "pass"}, "b": {"what": "pass"}})
        assert s.points == {"a": n}
    assert s.result.winners == ["a"] and s.result.reason == "objective"
    old = GAME.new(["a", "b"], {"scenario": "duel", "rules": 2}, 1)
    assert R.objective(old) is None  # a stored duel of revision 2 plays on without it


def test_r15_the_boss_reloads_in_one_turn_and_drives_three_cells():
    s = GAME.new(["a"], {"mode": "normal"}, 1)
    boss = unit(s, "boss")
    assert R.reload_turns(boss) == 1 and R.boss_cells_per_turn(s) == 3
    assert R.boss_cells_per_turn(GAME.new(["a"], {"boss_speed_pct": 200}, 1)) == 4


def test_r16_optional_ammo_rack_detonation():
    s = duel(ammo_rack=True)
    s2, _ = fire(s, "a", "b", hit=1, location=1, damage=1)
    assert unit(s2, "b").status == "destroyed" and unit(s2, "b").out_reason == "ammo_rack"
    s3, _ = fire(duel(), "a", "b", hit=1, location=1, damage=1, penalty=1)
    assert unit(s3, "b").active


def test_r17_ai_levels_easy_never_drives_hard_does():
    assert GAME.ai_levels == ("hard", "easy")
    for seed in range(3):
        s = GAME.new(["a", "b", "c"], {"scenario": "duel"}, seed)
        moves = {"easy": 0, "hard": 0}
        for _ in range(40):
            if s.result is not None:
                break
            for u in s.units:
                if u.active and u.stunned == 0:
                    level = "hard" if u.seat == "a" else "easy"
                    s.orders[u.seat] = AI.order_for(s, u, level)
                    moves[level] += s.orders[u.seat].what == "move"
            R.resolve_turn(s, [], AI.enemy_order)
        assert moves["easy"] == 0
        assert moves["hard"] > 0, seed


def test_r17_hard_plays_the_crossroads_easy_stays_todays_ai():
    """Easy is the AI of schema 1 whatever the revision; hard drives into the zone."""
    assert AI.ORDERS["easy"] is AI.order_easy and AI.enemy_order is not None
    for seed in range(4):
        s = GAME.new(["a", "b", "c"], {"scenario": "duel", "mode": "normal"}, seed)
        for _ in range(12):
            if s.result is not None:
                break
            old = s.model_copy(update={"options": s.options.model_copy(update={"rules": 2})})
            for u in s.units:
                if u.active and u.stunned == 0:
                    assert AI.order_easy(s, u) == AI.order_easy(old, u)  # the objective changes nothing
                    s.orders[u.seat] = AI.order_for(s, u, "hard" if u.seat == "a" else "easy")
            R.resolve_turn(s, [], AI.enemy_order)
        a = unit(s, "a")
        assert s.points.get("a", 0) > 0 or not a.active, seed


def test_r18_vehicle_cards():
    v = content.vehicles()
    table = {
        k: (v[k]["max_move"], v[k]["reload"]) for k in ("t34_85", "kv2", "amx13", "sherman", "pz4", "stug", "tiger")
    }
    assert table == {
        "t34_85": (6, 2),
        "kv2": (4, 3),
        "amx13": (7, 1),
        "sherman": (6, 2),
        "pz4": (6, 1),
        "stug": (5, 2),
        "tiger": (5, 2),
    }
    assert "shoot_on_move" in v["amx13"]["traits"] and "shoot_on_move" in v["sherman"]["traits"]


def test_r19_promotion_thresholds():
    assert content.campaign()["promote"] == {"veteran": 3, "legend": 7}


def test_r20_boss_battles_are_decided_by_play_not_the_clock():
    """A small seeded sample of the bench's measurement (bench/selfplay_armor_clash.py)."""
    timeouts = games = 0
    for mode in ("simple", "normal"):
        for k in (1, 2):
            for seed in range(15):
                s = GAME.new([f"p{i}" for i in range(k)], {"mode": mode}, seed)
                while s.result is None:
                    for u in s.units:
                        if u.seat is not None and u.active and u.stunned == 0:
                            s.orders[u.seat] = AI.order_for(s, u, "hard")
                    R.resolve_turn(s, [], AI.enemy_order)
                timeouts += s.result.reason == "time_up"
                games += 1
    assert timeouts <= games // 10


def test_schema_1_tables_keep_rules_1_and_replay():
    stored = {"mode": "normal", "scenario": "boss", "vehicles": [], "crews": [], "links": []}
    stored |= {"repeated_hits": False, "ammo_rack": False, "ricochet_stun": False, "boss_speed_pct": 150}
    stored["max_turns"] = 0
    assert GAME.parse_options(stored).rules == 1  # a complete schema-1 dump
    assert GAME.parse_options({}).rules == RULES_REVISION == GAME.parse_options({"mode": "simple"}).rules
    s = GAME.new(["a"], stored, 5)
    data = GAME.dump(s)
    data["schema_version"] = 1
    del data["options"]["rules"]
    loaded = GAME.load(data)
    assert loaded.schema_version == 2 and loaded.options.rules == 1
    assert canonical(GAME.dump(loaded)) == canonical(GAME.dump(s))


def test_every_ruling_has_a_test_that_names_it():
    section = DOCS.read_text(encoding="utf-8").split("## Armor Clash", 1)[1]
    rulings = sorted({int(n) for n in re.findall(r"^### R(\d+)\b", section, re.M)})
    assert rulings == list(range(1, len(rulings) + 1)) and len(rulings) >= 20
    names = set(globals())
    for n in rulings:
        assert any(name.startswith(f"test_r{n}_") for name in names), f"no test for ruling R{n}"


def test_r17_hard_crews_share_wittmanns_fire():
    """He tracks the nearest crew (9.4): the healthiest closes in, a wounded one he tracks falls back."""
    s = GAME.new(["a", "b"], {"mode": "normal"}, 1)
    a, b, boss = unit(s, "a"), unit(s, "b"), unit(s, "boss")
    boss.x, boss.y = 3, 5
    a.x, a.y, a.hull = 3, 7, 0  # two cells south of the boss: the nearest
    b.x, b.y, b.hull = 6, 6, 6  # three cells east of the boss, facing west
    a.pen["move"] = 3
    for u in (a, b):
        u.loaded = None  # both just fired
    assert R.boss_target(s, boss) is a
    o = AI.order_for(s, b, "hard")
    assert o.what == "move"
    moved = s.model_copy(deep=True)
    mb = unit(moved, "b")
    step = G.DIRS[(mb.hull + 4) % 8 if o.reverse else mb.hull]
    mb.x, mb.y = mb.x + step[0] * o.cells, mb.y + step[1] * o.cells
    assert R.boss_target(moved, unit(moved, "boss")) is mb  # b now draws the fire
    o = AI.order_for(s, a, "hard")
    assert o.what == "move" and o.reverse  # a backs away along its hull, out of being the nearest
    assert AI.order_for(s, a, "easy").what == "reload"  # the easy AI never drives


def test_r21_standing_orders_run_the_loader_gunner_routine_in_secret():
    """R21: an empty gun is loaded with the armed ammunition, a loading one keeps loading, and
    both orders hide their timing (the commit is public); the full tests are test_orders_armor_clash."""
    s = GAME.new(["a", "b"], {"scenario": "duel"}, 1)
    a = unit(s, "a")
    a.loaded = None
    kinds = {k.kind: k for k in GAME.order_kinds(s, "a")}
    assert set(kinds) == {"keep_firing", "carry_on"} and all(k.hide_timing for k in kinds.values())
    order = GAME.arm(s, "a", "keep_firing", kinds["keep_firing"].params)
    step = GAME.order_step(s, "a", order)
    assert step.kind == "fire" and step.action.kind == "choose" and step.action.what == "reload"
    s2 = GAME.apply(s, "a", step.action)[0]
    ammo = GAME.order_step(s2, "a", order)
    assert ammo.kind == "fire" and ammo.action.ammo == kinds["keep_firing"].params["ammo"]

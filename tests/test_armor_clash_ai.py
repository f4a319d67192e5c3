"""The Armor Clash seat filler's levels in the duel (docs/rulings.md R17).

R17 records why one hard seat cannot win 1.5 times its share of a 2-seat duel: the only
decisions that change the odds are the ammunition and dodging a damaged turret.  These tests pin
the facts that argument rests on, so a change to the rules, the tables or the AI that opens a
new decision fails here and sends the reader back to R17.
"""

from __future__ import annotations

import pytest

from engine.armor_clash import GAME
from engine.armor_clash import ai as AI
from engine.armor_clash import geometry as G
from engine.armor_clash import rules as R


def duel(**opts):
    """The duel of rules revision 2 (its start cells are the geometry these tests use)."""
    return GAME.new(["a", "b"], {"scenario": "duel", "rules": 2, **opts}, 1)


def unit(s, uid):
    return R.unit_by_id(s, uid)


def outcome(ammo: str, location: int, damage: int) -> tuple[int, bool]:
    """(penalty turns dealt, knocked out) by one hit of ``ammo`` with these dice."""
    s = duel().model_copy(deep=True)
    a, b = unit(s, "a"), unit(s, "b")
    a.loaded = ammo
    for name, values in (("hit", [1]), ("location", [location]), ("damage", [damage]), ("penalty", [1] * 4)):
        s.rng.force(name, values)
    R.fire(s, a, b, [])
    return sum(b.pen.values()), not b.active


def test_r17_he_wounds_on_more_damage_faces_than_ap_or_heat_and_keeps_the_knock_outs():
    for location in range(1, 7):
        faces = {ammo: {d for d in range(1, 7) if outcome(ammo, location, d)[0] > 0} for ammo in ("AP", "HEAT", "HE")}
        if location == 6:  # tracks: no crew, only the knock-out
            assert faces == {"AP": set(), "HEAT": set(), "HE": set()}
        elif location == 3:  # driver's compartment: a 6 knocks out (AP, HE) instead of wounding
            assert (len(faces["AP"]), len(faces["HEAT"]), len(faces["HE"])) == (2, 4, 3)
        else:
            assert (len(faces["AP"]), len(faces["HEAT"]), len(faces["HE"])) == (3, 4, 4)
    for location in (3, 6):
        assert outcome("AP", location, 6)[1] and outcome("HE", location, 6)[1]
        assert not outcome("HEAT", location, 6)[1]  # HEAT never knocks out


def test_r17_a_normal_turret_reaches_every_bearing_but_the_one_behind_it_a_damaged_one_only_its_arc():
    for turret in range(8):
        for bearing in range(8):
            need = G.rotation_needed(turret, bearing)
            assert (need <= 2) == (G.ring_dist(turret, bearing) < 4)  # 1-2 cells free with the shot (8.2)
            assert (need <= 0) == (G.ring_dist(turret, bearing) <= 1)  # hand-cranked or locked: no free cells
    s = duel()
    b = unit(s, "b")
    assert R.free_rotation(b) == 2
    b.turret_state = "crank"
    assert R.free_rotation(b) == 0


def test_r17_after_a_shot_the_gun_points_at_its_target():
    """So a foe it just fired at stands in the middle of its reach, never in the blind sector."""
    s = duel()
    a, b = unit(s, "a"), unit(s, "b")
    s.rng.force("hit", [4])  # a veteran's miss still turns the gun
    R.fire(s, a, b, [])
    assert a.abs_turret == G.bearing(a, b)


@pytest.mark.parametrize("ammo_rack,scenario,want", [(False, "duel", "HE"), (True, "duel", "HE"), (True, "boss", "AP")])
def test_r17_hard_loads_he_in_a_duel_also_under_the_ammo_rack_rule(ammo_rack, scenario, want):
    s = GAME.new(["a", "b"], {"scenario": scenario, "ammo_rack": ammo_rack, "rules": 2}, 1)
    a = unit(s, "a")
    a.loaded = None
    order = AI.order_for(s, a, "hard")
    assert order.what == "reload" and order.ammo == want
    assert AI.order_for(s, a, "easy").ammo == "AP"


def test_r17_a_simple_mode_duel_of_two_leaves_no_decision():
    """Rules revision 2 (no objective): 360° arcs and no ammunition effects (R6): the levels
    order the same in every position.  Revision 3's crossroads gives them one (the drive)."""
    positions = 0
    for seed in range(6):
        s = GAME.new(["a", "b"], {"scenario": "duel", "mode": "simple", "rules": 2}, seed)
        while s.result is None:
            for u in s.units:
                if u.active and u.stunned == 0:
                    hard, easy = AI.order_for(s, u, "hard"), AI.order_for(s, u, "easy")
                    assert hard == easy, (seed, s.turn, u.id)
                    s.orders[u.id] = hard
                    positions += 1
            R.resolve_turn(s, [], AI.enemy_order)
    assert positions > 20

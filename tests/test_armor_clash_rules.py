"""Armor Clash rule tables, one test per sentence / table row (rules chapters 1, 3-7, 10).

Dice are rigged by name: "hit", "location", "damage", "penalty".
"""

import pytest

from engine import GameError
from engine.armor_clash import GAME, content
from engine.armor_clash import rules as R

HIT_TABLE = {
    "recruit": {1, 3, 5},
    "veteran": {1, 2, 3, 5},
    "legend": {1, 2, 3, 4, 5},
    "hell": {1, 2, 3, 4, 5, 6},
}
LOCATIONS = {1: "ammo", 2: "fuel", 3: "driver_comp", 4: "engine", 5: "turret", 6: "tracks"}


def duel(mode="normal", crew="veteran", **opts):
    return GAME.new(
        ["a", "b"],
        {"mode": mode, "scenario": "duel", "crews": [crew if crew != "hell" else "legend", "veteran"], **opts},
        1,
    )


def unit(s, uid):
    return R.unit_by_id(s, uid)


def shoot(s, shooter="a", target="b", **dice):
    s = s.model_copy(deep=True)
    for name, values in dice.items():
        s.rng.force(name, values if isinstance(values, list) else [values])
    ev = []
    R.fire(s, unit(s, shooter), unit(s, target), ev)
    return s, ev


def rolls(ev):
    return [(e.die, e.value) for e in ev if e.kind == "roll"]


# ---------------------------------------------------------------- chapter 1: modes
@pytest.mark.parametrize("mode,key", [("hard", "armor_clash.error.mode_hard"), ("hell", "armor_clash.error.mode_hell")])
def test_hard_and_hell_modes_point_to_war_thunder(mode, key):
    with pytest.raises(GameError) as exc:
        GAME.new(["a"], {"mode": mode}, 1)
    assert exc.value.code == "mode_unavailable" and exc.value.key == key
    assert "War Thunder" in exc.value.message("en") and "战争雷霆" in exc.value.message("zh")
    assert ("街机" if mode == "hard" else "历史") in exc.value.message("zh")


def test_normal_mode_has_three_stages_hit_location_damage():
    s, ev = shoot(duel(), hit=1, location=3, damage=3)
    assert [d for d, _ in rolls(ev)] == ["hit", "location", "damage"]


def test_simple_mode_has_two_stages_location_then_combined_result():
    s, ev = shoot(duel("simple"), location=2, hit=1, penalty=1)
    assert [d for d, _ in rolls(ev)][:2] == ["location", "hit"]
    assert "damage" not in [d for d, _ in rolls(ev)]


# ---------------------------------------------------------------- chapter 3: proficiency
@pytest.mark.parametrize("level", ["recruit", "veteran", "legend"])
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_hit_numbers_per_proficiency(level, die):
    s = duel(crew=level)
    s, ev = shoot(s, hit=die, location=3, damage=3)
    hit = any(d == "location" for d, _ in rolls(ev))
    assert hit == (die in HIT_TABLE[level])


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_hell_proficiency_hits_on_every_face(die):
    s = duel()
    unit(s, "a").crew = "hell"
    s, ev = shoot(s, hit=die, location=3, damage=3)
    assert any(d == "location" for d, _ in rolls(ev))


def test_hit_table_data_matches_rules():
    for level, faces in HIT_TABLE.items():
        assert set(content.hit_numbers(level)) == faces


# ---------------------------------------------------------------- chapter 4: location
@pytest.mark.parametrize("die,name", sorted(LOCATIONS.items()))
def test_location_die(die, name):
    assert content.location_name(die) == name
    s, ev = shoot(duel(), hit=1, location=die, damage=3)
    loc = [e for e in ev if e.kind == "roll" and e.die == "location"][0]
    assert loc.result == f"@armor_clash.loc.{name}"
    assert content.block_of(die) == ("upper" if die in (1, 3, 5) else "lower")


# ---------------------------------------------------------------- chapter 5: damage tables
UPPER = {1: "pen", 3: "nopen", 5: "ricochet"}
LOWER = {2: "weak", 4: "pen_weak", 6: "damaged"}


@pytest.mark.parametrize("loc", [1, 3, 5])
@pytest.mark.parametrize("die", [1, 3, 5])
def test_upper_block_damage_table(loc, die):
    assert content.damage_result(loc, die) == UPPER[die]


@pytest.mark.parametrize("loc", [2, 4, 6])
@pytest.mark.parametrize("die", [2, 4, 6])
def test_lower_block_damage_table(loc, die):
    assert content.damage_result(loc, die) == LOWER[die]


@pytest.mark.parametrize("loc", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_damage_die_off_block_reads_other_table(loc, die):
    expected = {**UPPER, **LOWER}[die]
    assert content.damage_result(loc, die) == expected


@pytest.mark.parametrize("res_die", [3, 4])
def test_no_penetration_and_weak_after_effect_do_nothing(res_die):
    s, ev = shoot(duel(), hit=1, location=1, damage=res_die)
    b = unit(s, "b")
    assert b.active and sum(b.pen.values()) == 0 and not any(b.injuries.values())


def test_ricochet_does_nothing_without_options():
    s, ev = shoot(duel(), hit=1, location=5, damage=5)
    b = unit(s, "b")
    assert b.active and sum(b.pen.values()) == 0 and b.stunned == 0


def test_simple_mode_assumes_penetration_and_applies_after_effects():
    s, ev = shoot(duel("simple"), location=1, hit=1, penalty=6)
    b = unit(s, "b")
    assert b.injuries["loader"] == 1 and b.pen["reload"] == 2


# ---------------------------------------------------------------- chapter 6: incapacitation
@pytest.mark.parametrize("loc", [6, 3])
def test_incapacitation_prerequisites(loc):
    s, ev = shoot(duel(), hit=1, location=loc, damage=6)
    b = unit(s, "b")
    assert b.status == "out" and b.out_reason == f"loc{loc}"
    assert unit(s, "a").kills == 1
    if loc == 6:
        assert b.tracks == "destroyed"


@pytest.mark.parametrize("loc,crew,pen", [(1, "loader", "reload"), (5, "gunner", "shoot")])
@pytest.mark.parametrize("pdie,amount", [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_six_without_prerequisite_injures_crew(loc, crew, pen, pdie, amount):
    s, ev = shoot(duel(), hit=1, location=loc, damage=6, penalty=pdie)
    b = unit(s, "b")
    assert b.active and b.injuries[crew] == 1 and b.pen[pen] == amount
    assert ("penalty", pdie) in rolls(ev)


def test_driver_compartment_injury_on_penetration_adds_move_penalty():
    s, ev = shoot(duel(), hit=1, location=3, damage=1, penalty=4)
    b = unit(s, "b")
    assert b.active and b.injuries["driver"] == 1 and b.pen["move"] == 2


@pytest.mark.parametrize("loc", [2, 4])
def test_fuel_and_engine_hit_power_system_move_plus_one(loc):
    s, ev = shoot(duel(), hit=1, location=loc, damage=6)
    b = unit(s, "b")
    assert b.power == 1 and b.pen["move"] == 1 and b.active
    assert R.move_cost(b, 1)[1] == 2


def test_tracks_without_prerequisite_have_no_crew():
    s, ev = shoot(duel(), hit=1, location=6, damage=2)
    b = unit(s, "b")
    assert b.active and sum(b.pen.values()) == 0
    assert any(e.kind == "tracks_no_crew" for e in ev)


def test_penalties_stack():
    s, _ = shoot(duel(), hit=1, location=1, damage=6, penalty=1)
    unit(s, "a").loaded = "AP"
    s, _ = shoot(s, hit=1, location=1, damage=6, penalty=5)
    b = unit(s, "b")
    assert b.injuries["loader"] == 2 and b.pen["reload"] == 3
    assert R.reload_turns(b) == 2 + 3


# ---------------------------------------------------------------- chapter 7: ammunition
def test_ap_is_default_ammo():
    s = duel()
    assert all(u.loaded == "AP" for u in s.units)


def test_heat_turns_ricochet_into_penetration():
    s = duel()
    unit(s, "a").loaded = "HEAT"
    s, ev = shoot(s, hit=1, location=5, damage=5, penalty=1)
    assert unit(s, "b").injuries["gunner"] == 1


def test_he_spalls_crew_on_no_penetration():
    s = duel()
    unit(s, "a").loaded = "HE"
    s, ev = shoot(s, hit=1, location=1, damage=3, penalty=1)
    assert unit(s, "b").injuries["loader"] == 1


def test_he_does_not_ricochet():
    s = duel()
    unit(s, "a").loaded = "HE"
    s, ev = shoot(s, hit=1, location=5, damage=5)
    dmg = [e for e in ev if e.kind == "roll" and e.die == "damage"][0]
    assert dmg.result == "@armor_clash.dmg.nopen"


# ---------------------------------------------------------------- chapter 8.3: turret states
def test_turret_hit_with_six_hand_cranks_then_locks():
    s, _ = shoot(duel(), hit=1, location=5, damage=6, penalty=1)
    assert unit(s, "b").turret_state == "crank"
    unit(s, "a").loaded = "AP"
    s, _ = shoot(s, hit=1, location=5, damage=6, penalty=1)
    assert unit(s, "b").turret_state == "locked"
    assert R.turret_speed(s, unit(s, "b")) == 0


@pytest.mark.parametrize("cells,turns", [(1, 1), (2, 3), (3, 4), (4, 6), (5, 7), (6, 9)])
def test_hand_crank_lookup_table(cells, turns):
    assert content.crank_turns(cells) == turns == (cells * 3) // 2  # rules: floor(cells x 1.5)
    s = duel()
    b = unit(s, "b")
    b.turret_state = "crank"
    if cells <= 4:
        assert R.rotation_turns(s, b, cells) == turns


@pytest.mark.parametrize("cells,turns", [(1, 0), (2, 0), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_normal_rotation_table(cells, turns):
    assert content.normal_rotation_turns(cells) == turns


# ---------------------------------------------------------------- chapter 10: optional rules
def test_optional_fire_after_second_heavy_engine_or_fuel_hit():
    s = duel(repeated_hits=True)
    s, _ = shoot(s, hit=1, location=2, damage=6)
    assert unit(s, "b").fire_left is None
    unit(s, "a").loaded = "AP"
    s, ev = shoot(s, hit=1, location=4, damage=6)
    b = unit(s, "b")
    assert b.fire_left == 3 and [e.turns for e in ev if e.kind == "on_fire"] == [3]
    # the countdown runs at the ends of turns: played through whole turns in
    # tests/test_armor_clash_timing.py (destroyed at the end of the third turn after the hit)


def test_no_fire_without_the_option():
    s = duel()
    s, _ = shoot(s, hit=1, location=2, damage=6)
    unit(s, "a").loaded = "AP"
    s, _ = shoot(s, hit=1, location=2, damage=6)
    assert unit(s, "b").fire_left is None


@pytest.mark.parametrize("opt", [True, False])
def test_optional_ammo_rack_detonation(opt):
    s, ev = shoot(duel(ammo_rack=opt), hit=1, location=1, damage=1, penalty=1)
    b = unit(s, "b")
    assert (b.status == "destroyed") == opt
    if not opt:
        assert b.injuries["loader"] == 1


@pytest.mark.parametrize("opt", [True, False])
def test_optional_ricochet_stun(opt):
    s, ev = shoot(duel(ricochet_stun=opt), hit=1, location=5, damage=5)
    b = unit(s, "b")
    assert b.stunned == (1 if opt else 0)
    if opt:
        assert GAME.to_act(s) == ["a"]


def test_stunned_crew_loses_its_next_turn():
    s, _ = shoot(duel(ricochet_stun=True), hit=1, location=5, damage=5)
    s, ev = GAME.apply(s, "a", {"kind": "choose", "what": "pass"})
    assert any(e.kind == "stunned_skip" for e in ev)
    assert set(GAME.to_act(s)) == {"a", "b"}


def test_heat_never_knocks_out():
    s = duel()
    unit(s, "a").loaded = "HEAT"
    s, ev = shoot(s, hit=1, location=6, damage=6)
    b = unit(s, "b")
    assert b.active and b.tracks == "ok"
    s2 = duel()
    unit(s2, "a").loaded = "HEAT"
    s2, _ = shoot(s2, hit=1, location=5, damage=6, penalty=1)
    assert unit(s2, "b").turret_state == "normal" and unit(s2, "b").injuries["gunner"] == 1


def test_he_does_not_penetrate_but_a_six_still_knocks_out():
    s = duel()
    unit(s, "a").loaded = "HE"
    s, _ = shoot(s, hit=1, location=1, damage=1)
    assert sum(unit(s, "b").pen.values()) == 0
    unit(s, "a").loaded = "HE"
    s, _ = shoot(s, hit=1, location=3, damage=6)
    assert unit(s, "b").status == "out"

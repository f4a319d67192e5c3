"""The Tiger "Wittmann" boss (rules chapter 9): hits, rage in both modes, fatigue, turret, counters."""

import pytest

from engine.armor_clash import GAME
from engine.armor_clash import geometry as G
from engine.armor_clash import rules as R

PASS = {"kind": "choose", "what": "pass"}


def boss_game(mode="normal", seats=("a", "b"), **opts):
    return GAME.new(list(seats), {"mode": mode, "scenario": "boss", **opts}, 1)


def unit(s, uid):
    return R.unit_by_id(s, uid)


def boss_fire(s, target="a", **dice):
    s = s.model_copy(deep=True)
    for name, values in dice.items():
        s.rng.force(name, values if isinstance(values, list) else [values])
    ev = []
    R.fire(s, unit(s, "boss"), unit(s, target), ev)
    return s, ev


def all_pass(s):
    evs = []
    for seat in list(GAME.to_act(s)):
        s, ev = GAME.apply(s, seat, PASS)
        evs += ev
    return s, evs


def notes(ev, key):
    return [e for e in ev if e.kind == key]


# ------------------------------------------------------------------ 9.1
@pytest.mark.parametrize("mode", ["normal", "simple"])
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_boss_hits_on_every_face(mode, die):
    s, ev = boss_fire(boss_game(mode), hit=die, location=2, damage=4)
    assert any(e.kind == "roll" and e.die == "location" for e in ev)
    assert [e for e in ev if e.kind == "roll" and e.die == "hit"][0].result == "@armor_clash.result.hit"


@pytest.mark.parametrize("pen,turns", [(0, 1), (1, 2), (2, 2), (3, 3)])
def test_boss_reload_is_half_the_player_time_rounded_up(pen, turns):
    s = boss_game()
    b = unit(s, "boss")
    b.pen["reload"] = pen
    assert R.reload_turns(b) == turns
    assert R.reload_turns(unit(s, "a")) == 2  # the T-34-85 it halves


def test_boss_fires_every_other_turn():
    s = boss_game()
    s.rng.force("hit", [3] * 10)
    s.rng.force("damage", [4] * 10)
    shots = 0
    for _ in range(6):
        s, ev = all_pass(s)
        shots += len([e for e in notes(ev, "shot") if e.unit == R.BOSS_LABEL])
    assert shots == 3


@pytest.mark.parametrize("pct,cells", [(150, 3), (200, 4)])
def test_boss_speed_is_one_and_a_half_to_two_times(pct, cells):
    s = boss_game(boss_speed_pct=pct)
    assert R.boss_cells_per_turn(s) == cells
    b = unit(s, "boss")
    b.x, b.y = 11, 0
    for u in s.units:
        if u.seat:
            u.x, u.y = 0, 9 if u.id == "a" else 8
    s, ev = all_pass(s)
    assert max(abs(unit(s, "boss").x - 11), abs(unit(s, "boss").y)) == cells


def test_boss_rotation_speeds():
    s = boss_game()
    b = unit(s, "boss")
    assert R.turret_speed(s, b) == 5
    b.turret_state = "crank"
    assert R.turret_speed(s, b) == 3
    b.card.halved_turns = 2
    assert R.turret_speed(s, b) == 1
    b.turret_state = "normal"
    assert R.turret_speed(s, b) == 2


def test_boss_has_body_turret_link_by_default():
    s = boss_game()
    b = unit(s, "boss")
    R.set_turret_abs(b, 6)
    assert b.hull == 6 and b.turret == 0


def test_boss_moves_and_shoots_in_the_same_turn():
    s = boss_game(seats=("a",))
    s.rng.force("hit", [3])
    s.rng.force("damage", [4])
    s, ev = all_pass(s)
    assert notes(ev, "moved") and notes(ev, "shot")


# ------------------------------------------------------------------ 9.2 fatigue
def test_fatigue_three_moving_turns_then_two_rest_turns_with_shooting():
    s = boss_game(seats=("a",))
    b = unit(s, "boss")
    b.x, b.y, b.hull = 11, 0, 5
    a = unit(s, "a")
    a.x, a.y = 0, 9
    s.rng.force("hit", [3] * 20)
    s.rng.force("damage", [4] * 20)
    seen = []
    for _ in range(6):
        before = (unit(s, "boss").x, unit(s, "boss").y)
        s, ev = all_pass(s)
        after = (unit(s, "boss").x, unit(s, "boss").y)
        card = unit(s, "boss").card
        seen.append((before != after, card.ms_left, card.rest_left, bool(notes(ev, "shot"))))
        # keep the boss wanting to drive: move the player away again
        a = unit(s, "a")
        bb = unit(s, "boss")
        bb.x, bb.y = min(11, bb.x + 3), 0
    moved = [m for m, *_ in seen]
    assert moved[:3] == [True, True, True]
    assert moved[3:5] == [False, False]
    assert seen[2][1:3] == (0, 2)
    assert seen[4][1:3] == (3, 0)
    assert any(shot for m, _, _, shot in seen[3:5])  # shooting allowed while resting
    assert moved[5] is True


def test_a_standing_turn_breaks_the_moving_streak():
    s = boss_game()
    b = unit(s, "boss")
    b.card.ms_left = 1
    b.moved_this_turn = False
    R.boss_end_of_turn(s, b, [])
    assert b.card.ms_left == 3 and b.card.rest_left == 0


# ------------------------------------------------------------------ 9.3 rage
@pytest.mark.parametrize("mode", ["normal", "simple"])
def test_hit_die_one_gains_rage_and_is_public(mode):
    s, ev = boss_fire(boss_game(mode), hit=1, location=2, damage=4)
    assert unit(s, "boss").card.rage == 1
    assert notes(ev, "rage")[0].to is None
    assert [u for u in GAME.view(s, None).units if u.boss][0].card.rage == 1
    s, ev = boss_fire(boss_game(mode), hit=2, location=2, damage=4)
    assert unit(s, "boss").card.rage == 0


@pytest.mark.parametrize("start", range(0, 9))
def test_normal_rage_accumulates_below_ten(start):
    s = boss_game()
    unit(s, "boss").card.rage = start
    s, ev = boss_fire(s, hit=1, location=2, damage=4)
    assert unit(s, "boss").card.rage == start + 1
    assert unit(s, "a").active and unit(s, "b").active


def test_normal_rage_ten_destroys_a_player_vehicle_and_resets():
    s = boss_game()
    unit(s, "boss").card.rage = 9
    s, ev = boss_fire(s, target="b", hit=1)
    assert unit(s, "b").status == "destroyed" and unit(s, "b").out_reason == "rage"
    assert unit(s, "boss").card.rage == 0
    assert notes(ev, "rage_lock")


def test_simple_rage_one_has_no_effect():
    s = boss_game("simple")
    unit(s, "boss").card.rage = 1
    s, ev = boss_fire(s, location=1, hit=3, penalty=1)
    assert unit(s, "a").injuries["loader"] == 1 and unit(s, "boss").card.rage == 1


@pytest.mark.parametrize("rage", [2, 3])
def test_simple_rage_two_doubles_the_next_hit_then_resets(rage):
    s = boss_game("simple")
    unit(s, "boss").card.rage = rage
    s, ev = boss_fire(s, location=1, hit=3, penalty=[1, 1])
    assert unit(s, "a").injuries["loader"] == 2 and unit(s, "a").pen["reload"] == 2
    assert unit(s, "boss").card.rage == 0 and notes(ev, "rage_double")


def test_simple_mode_rage_does_not_kill_at_ten():
    s = boss_game("simple")
    unit(s, "boss").card.rage = 0
    for _ in range(3):
        unit(s, "boss").loaded = "AP"
        s, _ = boss_fire(s, location=2, hit=1, penalty=1)
    assert unit(s, "a").active


@pytest.mark.parametrize(
    "mode,dice",
    [
        ("normal", {"hit": 1, "location": 1, "damage": 1, "penalty": 1}),
        ("simple", {"location": 1, "hit": 1, "penalty": 1}),
    ],
)
def test_ammo_rack_penetration_on_boss_halves_rage(mode, dice):
    s = boss_game(mode)
    unit(s, "boss").card.rage = 7
    s = s.model_copy(deep=True)
    for k, v in dice.items():
        s.rng.force(k, [v])
    ev = []
    R.fire(s, unit(s, "a"), unit(s, "boss"), ev)
    assert unit(s, "boss").card.rage == 3


# ------------------------------------------------------------------ 9.4 rage and turret
@pytest.mark.parametrize("rage,cells", [(0, 0), (3, 0), (4, 1), (6, 1), (7, 2), (9, 2)])
def test_prerotation_by_rage(rage, cells):
    s = boss_game(seats=("a",))
    b = unit(s, "boss")
    b.card.rage = rage
    b.hull, b.turret = 0, 0  # turret points north, the player is south: 4 cells away
    before = b.abs_turret
    R.boss_end_of_turn(s, b, [])
    assert G.ring_dist(before, b.abs_turret) == cells
    assert b.card.prerot_mode == cells


def test_rage_seven_to_nine_prefers_damaged_players():
    s = boss_game()
    b, a, c = unit(s, "boss"), unit(s, "a"), unit(s, "b")
    near, far = (a, c) if G.chebyshev(b, a) <= G.chebyshev(b, c) else (c, a)
    far.pen["move"] = 1
    b.card.rage = 3
    assert R.boss_target(s, b).id == near.id
    b.card.rage = 8
    assert R.boss_target(s, b).id == far.id


def test_simple_mode_ignores_turret_prerotation_and_overload():
    s = boss_game("simple", seats=("a",))
    b = unit(s, "boss")
    b.card.rage = 1
    b.hull, b.turret = 0, 0
    b.card.link_streak = 5
    b.rotated_this_turn = True
    R.boss_end_of_turn(s, b, [])
    assert b.abs_turret == 0 and b.card.overload_left == 0
    assert R.shootable(s, b)  # 360 degree arc


# ------------------------------------------------------------------ 9.5 overload
def test_overload_after_three_link_turns_with_rage_five():
    s = boss_game()
    b = unit(s, "boss")
    b.card.rage, b.card.link_streak = 5, 2
    b.rotated_this_turn = True
    ev = []
    R.boss_end_of_turn(s, b, ev)
    assert b.card.overload_left == 1 and b.card.rage == 3 and R.turret_state(b) == "overload"
    assert R.turret_speed(s, b) == 0 and notes(ev, "overload")
    b.rotated_this_turn = False
    R.boss_end_of_turn(s, b, [])
    assert b.card.overload_left == 0 and R.turret_state(b) == "normal"


def test_no_overload_below_rage_five():
    s = boss_game()
    b = unit(s, "boss")
    b.card.rage, b.card.link_streak = 4, 2
    b.rotated_this_turn = True
    R.boss_end_of_turn(s, b, [])
    assert b.card.overload_left == 0 and b.card.link_streak >= 3


# ------------------------------------------------------------------ 9.6 counters
def test_turret_penetration_halves_boss_traverse_for_two_turns():
    s = boss_game()
    s.rng.force("hit", [1])
    s.rng.force("location", [5])
    s.rng.force("damage", [1])
    s.rng.force("penalty", [1])
    ev = []
    R.fire(s, unit(s, "a"), unit(s, "boss"), ev)
    b = unit(s, "boss")
    speeds = []
    for _ in range(3):
        R.boss_end_of_turn(s, b, [])
        speeds.append(R.turret_speed(s, b))
    assert speeds == [2, 2, 5]


def test_turret_ricochet_cancels_the_next_prerotation():
    s = boss_game(seats=("a",))
    b = unit(s, "boss")
    b.card.rage = 5
    b.hull, b.turret = 0, 0
    s.rng.force("hit", [1])
    s.rng.force("location", [5])
    s.rng.force("damage", [5])
    ev = []
    R.fire(s, unit(s, "a"), b, ev)
    assert b.card.prerot_blocked
    R.boss_end_of_turn(s, b, ev)
    assert b.abs_turret == 0 and notes(ev, "prerot_blocked")
    R.boss_end_of_turn(s, b, ev)
    assert b.abs_turret != 0


def test_two_turns_of_fire_from_one_direction_force_a_turn():
    s = boss_game(seats=("a",))
    s.rng.force("hit", [6] * 10)
    shoot = [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": "boss"}]
    a = unit(s, "a")
    a.vehicle = "amx13"  # reload 1: it can fire in consecutive turns... with a reload between
    s, _ = GAME.apply(s, "a", shoot[0])
    s, _ = GAME.apply(s, "a", shoot[1])
    card = unit(s, "boss").card
    assert card.last_dirs and card.forced_turn is None
    d = card.last_dirs[0]
    # the next turn another shot from the same side
    unit(s, "a").loaded = "AP"
    unit(s, "a").aim = None
    s, _ = GAME.apply(s, "a", shoot[0])
    s, ev = GAME.apply(s, "a", shoot[1])
    assert unit(s, "boss").card.forced_turn == d and notes(ev, "counter_same_dir")
    s, ev = all_pass(s)
    assert notes(ev, "boss_forced_turn") and unit(s, "boss").hull == d
    assert not [e for e in notes(ev, "shot") if e.unit == R.BOSS_LABEL]


# ------------------------------------------------------------------ 9.7 state card
def test_boss_state_card_in_the_public_view():
    s = boss_game()
    v = GAME.view(s, None).model_dump(mode="json")
    boss = [u for u in v["units"] if u["boss"]][0]
    for k in ("rage", "ms_left", "rest_left", "prerot_mode", "overload_left"):
        assert k in boss["card"]
    assert boss["turret_state"] == "normal" and boss["reload_left"] == 0 and "hull" in boss and "turret" in boss


def test_players_win_by_knocking_out_the_boss():
    s = boss_game(seats=("a",))
    s.rng.force("hit", [1])
    s.rng.force("location", [6])
    s.rng.force("damage", [6])
    s, _ = GAME.apply(s, "a", {"kind": "choose", "what": "shoot"})
    s, ev = GAME.apply(s, "a", {"kind": "target", "target": "boss"})
    out = GAME.outcome(s)
    assert out is not None and out.winners == ["a"] and out.scores["a"] == 1.0


@pytest.mark.parametrize(
    "mode,n,escorts",
    [
        ("simple", 1, 0),
        ("simple", 2, 1),
        ("simple", 3, 2),
        ("simple", 4, 4),
        ("normal", 1, 0),
        ("normal", 2, 0),
        ("normal", 3, 1),
        ("normal", 4, 3),
    ],
)
def test_boss_escort_scales_with_players(mode, n, escorts):
    s = boss_game(mode, seats=tuple(f"p{i}" for i in range(n)))
    assert sum(1 for u in s.units if u.side == "enemies" and not u.boss) == escorts


def test_escort_withdraws_when_the_boss_is_out():
    s = boss_game(seats=("a", "b", "c"))
    assert any(u.side == "enemies" and not u.boss for u in s.units)
    s.rng.force("hit", [1])
    s.rng.force("location", [3])
    s.rng.force("damage", [6])
    s, _ = GAME.apply(s, "a", {"kind": "choose", "what": "shoot"})
    s, _ = GAME.apply(s, "a", {"kind": "target", "target": "boss"})
    s, _ = GAME.apply(s, "b", PASS)
    s, _ = GAME.apply(s, "c", PASS)
    out = GAME.outcome(s)
    assert out is not None and set(out.winners) == {"a", "b", "c"}
    assert any(u.active and not u.boss and u.side == "enemies" for u in s.units)


def test_in_range_wittmann_drives_around_the_gun_of_its_target():
    s = boss_game(seats=("a",))
    b, a = unit(s, "boss"), unit(s, "a")
    a.x, a.y, a.hull, a.turret = 5, 6, 0, 0  # a's gun points north
    b.x, b.y = 5, 3  # in range, straight in front of that gun
    plan = {"move": True, "shoot": False}
    b.card.target = "a"
    R.boss_phase_move(s, b, plan, [])
    d = G.octant(b.x - a.x, b.y - a.y)
    assert b.moved_this_turn and 2 <= G.chebyshev(a, b) <= 3
    assert G.ring_dist(a.abs_turret, d) >= 2  # off the gun's axis
    assert max(abs(b.x - 5), abs(b.y - 3)) <= R.boss_cells_per_turn(s)
    R.boss_phase_move(s, b, plan, [])  # a second turn of driving
    d = G.octant(b.x - a.x, b.y - a.y)
    assert G.rotation_needed(a.abs_turret, d) > R.free_rotation(a)  # a must spend a turn to aim again


def test_no_flanking_in_simple_mode_where_arcs_are_360():
    s = boss_game("simple", seats=("a",))
    b, a = unit(s, "boss"), unit(s, "a")
    a.x, a.y = 5, 6
    b.x, b.y = 5, 3
    b.card.target = "a"
    R.boss_phase_move(s, b, {"move": True}, [])
    assert (b.x, b.y) == (5, 3) and not b.moved_this_turn

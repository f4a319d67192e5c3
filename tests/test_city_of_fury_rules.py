"""City of Fury: one test (or more) per rule sentence of fury-city.zh.txt."""

from __future__ import annotations

import pytest

from engine import GameError, Rng, canonical
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.city_of_fury import rules as r
from engine.city_of_fury.content import content, enemies, heroes

SEAT = "solo"
H = "hero"
BOSS = content().boss.id


def fresh(seed: int = 0, hero: str | None = None) -> m.State:
    return GAME.new([SEAT], {"hero": hero} if hero else {}, seed)


def board(street, hp=None, hero_hp=None, levels=None, screen=None, beaten=(), hero=None) -> m.State:
    """A state with the street laid out as given (slot 0 = left end)."""
    s = fresh(hero=hero)
    s.street = list(street)
    s.enemy_hp = {e: (hp or {}).get(e, enemies()[e].max_hp) for e in street if e not in (None, H)}
    if hero_hp is not None:
        s.hero_hp = hero_hp
    if levels is not None:
        s.levels = dict(levels)
    if screen is not None:
        s.screen = list(screen)
    s.beaten = list(beaten)
    # a position built for one rule need not be reachable (three enemies on a five-card street, a card on
    # the screen and the street at once): its shape is checked, not what it means (that is validate's job)
    return m.State.model_validate(GAME.dump(s))


def act(s: m.State, action: dict) -> tuple[m.State, list]:
    return GAME.apply(s, SEAT, action)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def play_steps(s: m.State, skill: str, *steps: dict) -> tuple[m.State, list]:
    evs: list = []
    s, ev = act(s, {"kind": "choose_skill", "skill": skill})
    evs += ev
    for step in steps:
        s, ev = act(s, step)
        evs += ev
    return s, evs


SKIP = {"kind": "skip"}


# ------------------------------------------------------------------ setup
def test_setup_screen_street_hp_and_levels():
    s = fresh(seed=5)
    minions = {e.id for e in content().minions}
    # boss card cafe side up as the rightmost screen card; 4 shuffled minions street side up left of it
    assert len(s.screen) == 5 and s.screen[-1] == BOSS
    assert set(s.screen[:4]) <= minions and len(set(s.screen[:4])) == 4
    # the other two enemies face up under the two rightmost screen cards
    under = [s.street[3], s.street[4]]
    assert set(under) == minions - set(s.screen[:4])
    # hero at the far left; nobody else on the street
    assert s.street[0] == H and s.street[1] is None and s.street[2] is None
    # HP trackers: hero and the two enemies at their max HP
    assert s.hero_hp == heroes()[s.hero].max_hp
    assert s.enemy_hp == {e: enemies()[e].max_hp for e in under}
    # every skill at level 2 (the second box)
    assert s.levels == {"punch": 2, "kick": 2, "shoot": 2, "dodge": 2}
    assert s.round == 1 and s.pending.kind == "choose_skill" and s.result is None
    assert GAME.to_act(s) == [SEAT] and GAME.outcome(s) is None


def test_setup_hero_option_default_is_first_hero_and_other_hero_selectable():
    assert fresh().hero == content().heroes[0].id
    b = fresh(hero="brawler")
    assert b.hero == "brawler" and b.hero_hp == heroes()["brawler"].max_hp
    with pytest.raises(GameError) as err:
        GAME.new([SEAT], {"hero": "nobody"}, 1)
    assert err.value.code == "bad_options"


def test_rigged_setup_shuffle_lays_out_the_given_order():
    order = ["glitch", "rash", "krupp", "baton", "knuckles", "tin_can"]
    rng = Rng.from_seed(9)
    rng.force("deck.enemies", order)
    s = GAME._new([SEAT], GAME.parse_options({}), 9, rng)
    assert s.screen == order[:4] + [BOSS]
    assert s.street == [H, None, None, "knuckles", "tin_can"]


def test_different_seeds_give_different_layouts():
    layouts = {tuple(fresh(seed=i).screen) + tuple(fresh(seed=i).street) for i in range(20)}
    assert len(layouts) > 5


# -------------------------------------------------------------- hero phase
def test_choose_skill_offers_the_four_skills_with_current_level_actions():
    s = fresh()
    legal = GAME.legal_actions(s, SEAT)
    assert [a.skill for a in legal] == ["punch", "kick", "shoot", "dodge"]
    labels = [GAME.action_label(s, a, "en") for a in legal]
    assert "Kick Lv2: move, move, attack" in labels
    s.levels["punch"] = 4
    assert GAME.action_label(s, m.ChooseSkill(skill="punch"), "en").startswith("Punch Lv4:")


def test_kick_example_two_moves_one_attack_then_punch_and_kick_raised():
    """The rules' example: kick (level 2) = 2 moves and 1 attack; reset kick; raise punch and kick."""
    s = board([H, None, None, "knuckles", "rash"])
    assert r.level_actions(s.hero, "kick", 2) == ["move", "move", "attack"]
    s, ev = act(s, {"kind": "choose_skill", "skill": "kick"})
    assert s.pending.kind == "step" and GAME.current_step(s) == "move"
    s, _ = act(s, {"kind": "move", "direction": "right"})
    assert GAME.current_step(s) == "move"
    s, _ = act(s, {"kind": "move", "direction": "right"})
    assert s.street[2] == H and GAME.current_step(s) == "attack"
    s, ev = act(s, {"kind": "attack", "target": "knuckles"})
    assert s.enemy_hp["knuckles"] == enemies()["knuckles"].max_hp - 1
    assert s.levels["kick"] == 1 and s.pending.kind == "raise"  # reset to the leftmost box
    assert "skill_reset" in kinds(ev)
    s, ev = act(s, {"kind": "raise", "skills": ["punch", "kick"]})
    assert s.levels == {"punch": 3, "kick": 2, "shoot": 2, "dodge": 2}
    assert s.round == 2 and s.pending.kind == "choose_skill"


def test_actions_resolve_in_card_order_each_optional():
    s = board([H, None, None, "knuckles", "rash"])
    s, _ = act(s, {"kind": "choose_skill", "skill": "kick"})
    s, ev = act(s, SKIP)
    assert ev[0].kind == "step_skipped" and not ev[0].forced
    assert s.street[0] == H and s.pending.index == 1
    # the second action is still a move: an attack now is the wrong step
    with pytest.raises(GameError) as err:
        act(s, {"kind": "attack", "target": "knuckles"})
    assert err.value.code == "wrong_step"


def test_impossible_step_is_skipped_automatically():
    s = board([H, None, None, "knuckles", "rash"])
    s, ev = act(s, {"kind": "choose_skill", "skill": "punch"})  # attack, attack: nobody adjacent
    assert [e.kind for e in ev] == ["skill_chosen", "step_skipped", "step_skipped", "skill_reset"]
    assert all(e.forced for e in ev if e.kind == "step_skipped")
    assert s.pending.kind == "raise" and s.levels["punch"] == 1


def test_move_into_empty_space():
    s = board([None, H, None, "knuckles", None])
    s, _ = play_steps(s, "dodge", {"kind": "move", "direction": "left"})
    assert s.street[0] == H and s.street[1] is None


def test_move_onto_enemy_swaps_places():
    s = board([None, None, H, "rash", "knuckles"])
    s, ev = play_steps(s, "dodge", {"kind": "move", "direction": "right"})
    moved = [e for e in ev if e.kind == "hero_moved"][0]
    assert moved.swapped == "rash" and s.street[:4] == [None, None, "rash", H]


def test_hero_cannot_move_off_the_street():
    s = board([H, None, None, "knuckles", "rash"])
    s, _ = act(s, {"kind": "choose_skill", "skill": "dodge"})
    assert m.Move(direction="left") not in GAME.legal_actions(s, SEAT)
    before = canonical(s)
    with pytest.raises(GameError) as err:
        act(s, {"kind": "move", "direction": "left"})
    assert err.value.code == "off_street" and canonical(s) == before
    s = board(["knuckles", None, None, "rash", H])
    s, _ = act(s, {"kind": "choose_skill", "skill": "dodge"})
    assert [a.model_dump() for a in GAME.legal_actions(s, SEAT)] == [
        {"kind": "move", "direction": "left"},
        {"kind": "skip"},
    ]


def test_attack_hits_adjacent_enemy_only():
    s = board(["rash", H, None, "knuckles", None])
    s, _ = act(s, {"kind": "choose_skill", "skill": "punch"})
    assert [a.target for a in GAME.legal_actions(s, SEAT) if a.kind == "attack"] == ["rash"]
    with pytest.raises(GameError) as err:
        act(s, {"kind": "attack", "target": "knuckles"})
    assert err.value.code == "bad_target"
    with pytest.raises(GameError):
        act(s, {"kind": "attack", "target": "tin_can"})  # not on the street at all
    s, ev = act(s, {"kind": "attack", "target": "rash"})
    assert s.enemy_hp["rash"] == enemies()["rash"].max_hp - 1


def test_attack_can_choose_between_two_adjacent_enemies():
    s = board(["rash", H, "knuckles", None, None])
    s, _ = act(s, {"kind": "choose_skill", "skill": "punch"})
    assert sorted(a.target for a in GAME.legal_actions(s, SEAT) if a.kind == "attack") == ["knuckles", "rash"]


def test_shoot_hits_non_adjacent_enemy_only():
    s = board([H, "rash", None, "knuckles", None])
    s, _ = act(s, {"kind": "choose_skill", "skill": "shoot"})  # move, shoot
    s, _ = act(s, SKIP)
    assert [a.target for a in GAME.legal_actions(s, SEAT) if a.kind == "shoot"] == ["knuckles"]
    with pytest.raises(GameError) as err:
        act(s, {"kind": "shoot", "target": "rash"})
    assert err.value.code == "bad_target"
    s, _ = act(s, {"kind": "shoot", "target": "knuckles"})
    assert s.enemy_hp["knuckles"] == enemies()["knuckles"].max_hp - 1


def test_enemy_at_zero_hp_leaves_the_street():
    s = board(["rash", H, None, "knuckles", None], hp={"rash": 1})
    s, ev = play_steps(s, "punch", {"kind": "attack", "target": "rash"})
    assert "enemy_defeated" in kinds(ev)
    assert "rash" not in s.street and "rash" not in s.enemy_hp
    assert s.beaten == ["rash"] and s.to_scroll == ["rash"]
    # the second attack has no adjacent target left: skipped by itself
    assert ev[-2].kind == "step_skipped" and ev[-2].forced


def test_heal_adds_one_and_is_capped_at_max_hp():
    s = board([H, None, None, "knuckles", "rash"], hero_hp=4)
    s, _ = act(s, {"kind": "choose_skill", "skill": "dodge"})  # move, heal
    s, _ = act(s, SKIP)
    s, ev = act(s, {"kind": "heal"})
    assert s.hero_hp == 5
    full = board([H, None, None, "knuckles", "rash"])
    assert full.hero_hp == heroes()[full.hero].max_hp == 6
    full, _ = act(full, {"kind": "choose_skill", "skill": "dodge"})
    full, _ = act(full, {"kind": "move", "direction": "right"})
    # at full health nothing can be healed: the step was skipped automatically
    assert full.pending.kind == "raise"
    # the brawler's cap is its own max HP (5)
    b = board([H, None, None, "knuckles", "rash"], hero_hp=4, hero="brawler")
    b, _ = act(b, {"kind": "choose_skill", "skill": "dodge"})  # brawler dodge Lv2: move, heal
    b, _ = act(b, SKIP)
    b, _ = act(b, {"kind": "heal"})
    assert b.hero_hp == 5 == heroes()["brawler"].max_hp


def test_heal_at_full_hp_is_refused():
    s = board([H, None, None, "knuckles", "rash"], levels={"punch": 2, "kick": 2, "shoot": 2, "dodge": 4}, hero_hp=5)
    s, _ = act(s, {"kind": "choose_skill", "skill": "dodge"})  # heal, move, heal, move
    s, _ = act(s, {"kind": "heal"})
    assert s.hero_hp == 6
    s, ev = act(s, SKIP)
    # the second heal cannot do anything at full HP: skipped by itself, on to the last move
    assert ev[-1].kind == "step_skipped" and ev[-1].forced and GAME.current_step(s) == "move"
    # a heal sent while a heal is pending at full HP (e.g. a stale client) is refused
    s.pending = m.Pending(kind="step", skill="dodge", level=4, index=2)
    assert GAME.legal_actions(s, SEAT) == [m.Skip()]
    with pytest.raises(GameError) as err:
        act(s, {"kind": "heal"})
    assert err.value.code == "full_hp"


def test_used_skill_resets_then_two_different_skills_raise_including_the_used_one():
    s = board([H, None, None, "knuckles", "rash"], levels={"punch": 2, "kick": 2, "shoot": 2, "dodge": 2})
    s, _ = act(s, {"kind": "choose_skill", "skill": "punch"})  # attack, attack: nobody adjacent
    assert s.levels["punch"] == 1 and s.pending.kind == "raise"
    assert len(GAME.legal_actions(s, SEAT)) == 6  # every pair of different skills
    s, ev = act(s, {"kind": "raise", "skills": ["punch", "dodge"]})
    assert s.levels == {"punch": 2, "kick": 2, "shoot": 2, "dodge": 3}
    raised = [e for e in ev if e.kind == "skills_raised"][0]
    assert raised.skills == ["punch", "dodge"] and raised.levels == [2, 3]


def test_raising_the_same_skill_twice_is_refused():
    s = board([H, None, None, "knuckles", "rash"])
    s, _ = act(s, {"kind": "choose_skill", "skill": "punch"})
    before = canonical(s)
    with pytest.raises(GameError) as err:
        act(s, {"kind": "raise", "skills": ["kick", "kick"]})
    assert err.value.code == "same_skill_twice" and canonical(s) == before
    assert err.value.message("zh") != err.value.message("en")


def test_skill_levels_cap_at_four():
    s = board([H, None, None, "knuckles", "rash"], levels={"punch": 2, "kick": 4, "shoot": 3, "dodge": 2})
    s, _ = act(s, {"kind": "choose_skill", "skill": "punch"})
    assert all("kick" not in a.skills for a in GAME.legal_actions(s, SEAT))
    with pytest.raises(GameError) as err:
        act(s, {"kind": "raise", "skills": ["kick", "shoot"]})
    assert err.value.code == "bad_raise"


def test_only_one_skill_raisable_is_raised_automatically():
    s = board([H, None, None, "knuckles", "rash"], levels={"punch": 4, "kick": 4, "shoot": 4, "dodge": 1})
    s, ev = act(s, {"kind": "choose_skill", "skill": "dodge"})  # dodge Lv1: move
    s, ev = act(s, SKIP)
    # dodge back to 1 and the three others are at 4: dodge alone goes up, the round goes on
    raised = [e for e in ev if e.kind == "skills_raised"]
    assert raised and raised[0].skills == ["dodge"]
    assert s.levels == {"punch": 4, "kick": 4, "shoot": 4, "dodge": 2}
    assert s.round == 2 and s.pending.kind == "choose_skill"


def test_wrong_step_and_bad_json_shapes_are_refused_without_change():
    s = fresh()
    before = canonical(s)
    bad = [
        {"kind": "raise", "skills": ["punch", "kick"]},  # raising before choosing a skill
        {"kind": "move", "direction": "right"},  # a step before choosing
    ]
    for a in bad:
        with pytest.raises(GameError) as err:
            act(s, a)
        assert err.value.code == "wrong_step"
    shapes = [
        {"kind": "fly"},
        {"kind": "move"},
        {"kind": "move", "direction": "up"},
        {"kind": "choose_skill", "skill": "uppercut"},
        {"kind": "raise", "skills": ["punch", "kick", "shoot"]},
        {"kind": "raise", "skills": []},
        {"kind": "heal", "extra": 1},
        "punch",
        None,
        42,
    ]
    for a in shapes:
        with pytest.raises(GameError) as err:
            act(s, a)
        assert err.value.code == "bad_action"
    assert canonical(s) == before
    s, _ = act(s, {"kind": "choose_skill", "skill": "kick"})
    with pytest.raises(GameError) as err:
        act(s, {"kind": "choose_skill", "skill": "punch"})
    assert err.value.code == "wrong_step"
    with pytest.raises(GameError) as err:
        GAME.apply(s, "somebody_else", {"kind": "skip"})
    assert err.value.code == "unknown_seat"


# -------------------------------------------------------------- enemy phase
def run_enemy_phase(s: m.State) -> list:
    ev: list = []
    r.enemy_phase(s, ev)
    return ev


def test_enemy_farthest_from_left_end_acts_first():
    s = board(["knuckles", H, None, None, "krupp"])
    ev = run_enemy_phase(s)
    assert [e.enemy for e in ev if e.kind == "enemy_turn"] == ["krupp", "knuckles"]
    s = board([None, "glitch", "rash", H, None])
    ev = run_enemy_phase(s)
    assert [e.enemy for e in ev if e.kind == "enemy_turn"] == ["rash", "glitch"]


def test_enemy_left_of_hero_uses_right_row_jumping_right_twice():
    """The rules' example: an enemy left of the hero uses its right row (Rash: jump right twice)."""
    assert enemies()["rash"].right == ["jump_right", "jump_right"]
    s = board(["rash", None, H, None, None])
    ev = run_enemy_phase(s)
    turn = ev[0]
    assert turn.side == "left" and turn.row == "right"
    # jump to slot 1, then jump onto the hero's slot and swap
    assert s.street[:3] == [None, H, "rash"]


def test_enemy_right_of_hero_uses_left_row():
    assert enemies()["knuckles"].left == ["move_left", "attack", "attack"]
    s = board([H, None, None, "knuckles", None])
    ev = run_enemy_phase(s)
    assert ev[0].side == "right" and ev[0].row == "left"
    assert s.street[2] == "knuckles" and s.hero_hp == 6  # moved once, not adjacent: both attacks skipped
    ev = run_enemy_phase(s)
    assert s.street[1] == "knuckles" and s.hero_hp == 4


def test_second_enemy_row_is_reevaluated_after_the_first_acts():
    # baton (right of the hero) acts first: its push left shoves the hero past glitch
    s = board([None, "glitch", H, "baton", None])
    ev = run_enemy_phase(s)
    turns = [e for e in ev if e.kind == "enemy_turn"]
    assert [t.enemy for t in turns] == ["baton", "glitch"]
    assert turns[1].side == "right" and turns[1].row == "left"  # glitch is now right of the hero
    # glitch's left row: jump left (swap with the hero), shoot (adjacent: skipped)
    assert s.street[:4] == [None, "glitch", H, "baton"]
    assert s.hero_hp == 6


def enemy_do(street, enemy, action, **kw):
    s = board(street, **kw)
    ev: list = []
    done = r.enemy_action(s, enemy, action, ev)
    return s, done, ev


def test_enemy_move_only_into_an_empty_space_on_screen():
    s, done, _ = enemy_do([H, None, "rash", None, None], "rash", "move_left")
    assert done and s.street[1] == "rash"
    s, done, _ = enemy_do([None, H, "rash", None, None], "rash", "move_left")
    assert not done and s.street[2] == "rash"  # hero in the way
    s, done, _ = enemy_do([H, None, None, "knuckles", "rash"], "rash", "move_left")
    assert not done  # another enemy in the way
    s, done, _ = enemy_do([H, None, None, None, "rash"], "rash", "move_right")
    assert not done  # would leave the screen
    s, done, _ = enemy_do(["rash", None, H, None, None], "rash", "move_left")
    assert not done
    s, done, _ = enemy_do(["rash", None, H, None, None], "rash", "move_right")
    assert done and s.street[1] == "rash"


def test_enemy_jump_swaps_with_whoever_is_there_but_not_off_screen():
    s, done, ev = enemy_do([None, H, "rash", None, None], "rash", "jump_left")
    assert done and s.street[1:3] == ["rash", H] and ev[0].swapped == H
    s, done, ev = enemy_do([H, None, None, "knuckles", "rash"], "rash", "jump_left")
    assert done and s.street[3:] == ["rash", "knuckles"] and ev[0].swapped == "knuckles"
    s, done, _ = enemy_do([H, None, None, None, "rash"], "rash", "jump_right")
    assert not done and s.street[4] == "rash"
    s, done, _ = enemy_do(["rash", H, None, None, None], "rash", "jump_left")
    assert not done
    s, done, _ = enemy_do([H, "rash", None, None, None], "rash", "jump_right")
    assert done and s.street[2] == "rash"


def test_enemy_attack_only_when_adjacent():
    s, done, _ = enemy_do([H, "rash", None, None, None], "rash", "attack")
    assert done and s.hero_hp == 5
    s, done, _ = enemy_do([H, None, "rash", None, None], "rash", "attack")
    assert not done and s.hero_hp == 6
    s, done, _ = enemy_do([None, "rash", H, None, None], "rash", "attack")
    assert done and s.hero_hp == 5


def test_enemy_shoot_only_when_not_adjacent():
    s, done, _ = enemy_do([H, None, None, None, "krupp"], "krupp", "shoot")
    assert done and s.hero_hp == 5
    s, done, _ = enemy_do([None, None, None, H, "krupp"], "krupp", "shoot")
    assert not done and s.hero_hp == 6


def test_enemy_push_left_moves_hero_and_swaps_like_a_hero_move():
    s, done, ev = enemy_do([None, None, H, "baton", None], "baton", "push_left")
    assert done and s.street[1] == H and s.street[2] is None
    s, done, ev = enemy_do([None, "rash", H, "baton", None], "baton", "push_left")
    assert done and s.street[1:4] == [H, "rash", "baton"] and ev[0].swapped == "rash"
    # hero not exactly one space to the left: skipped
    s, done, _ = enemy_do([H, None, None, "baton", None], "baton", "push_left")
    assert not done and s.street[0] == H
    s, done, _ = enemy_do([None, None, "baton", H, None], "baton", "push_left")
    assert not done
    # the hero cannot be pushed off the street
    s, done, _ = enemy_do([H, "baton", None, None, None], "baton", "push_left")
    assert not done and s.street[:2] == [H, "baton"]


def test_enemy_push_right_moves_hero_and_swaps():
    s, done, ev = enemy_do([None, "baton", H, "rash", None], "baton", "push_right")
    assert done and s.street[1:4] == ["baton", "rash", H] and ev[0].swapped == "rash"
    s, done, _ = enemy_do([None, None, None, "baton", H], "baton", "push_right")
    assert not done
    s, done, _ = enemy_do([H, "baton", None, None, None], "baton", "push_right")
    assert not done


def test_enemy_row_skips_what_cannot_be_done_and_goes_on():
    # baton right of the hero: move left (blocked by the hero), push left (hero at slot 0: blocked), attack
    s = board([H, "baton", None, None, None])
    ev = run_enemy_phase(s)
    assert kinds(ev) == ["enemy_turn", "enemy_skipped", "enemy_skipped", "enemy_hit_hero"]
    assert [e.action for e in ev if e.kind == "enemy_skipped"] == ["move_left", "push_left"]
    assert s.hero_hp == 5


def test_full_round_runs_enemy_phase_after_the_raise():
    s = board([H, None, None, "knuckles", "rash"])
    s, ev = play_steps(s, "dodge", SKIP)  # dodge Lv2 = move, heal (heal impossible at full HP)
    assert s.pending.kind == "raise"
    s, ev = act(s, {"kind": "raise", "skills": ["punch", "kick"]})
    assert kinds(ev)[0] == "skills_raised"
    assert [e.enemy for e in ev if e.kind == "enemy_turn"] == ["rash", "knuckles"]
    assert kinds(ev)[-1] == "round_started"


# -------------------------------------------------------------- scroll phase
def scroll(s: m.State, *defeated: str) -> list:
    s.to_scroll = list(defeated)
    s.beaten += list(defeated)
    ev: list = []
    r.scroll_phase(s, ev)
    return ev


def test_no_defeat_no_scroll():
    s = board([H, None, None, "knuckles", "rash"])
    screen = list(s.screen)
    s, ev = play_steps(s, "dodge", SKIP, {"kind": "raise", "skills": ["punch", "kick"]})
    assert "scrolled" not in kinds(ev) and s.screen == screen


def test_scroll_puts_defeated_card_right_flips_leftmost_into_new_enemy():
    s = board([None, H, None, "knuckles", None], screen=["glitch", "tin_can", "krupp", "baton", BOSS])
    ev = scroll(s, "rash")
    assert s.screen == ["tin_can", "krupp", "baton", BOSS, "rash"]
    # everybody stays on their card: the street shifts one slot left; glitch enters under the new card
    assert s.street == [H, None, "knuckles", None, "glitch"]
    assert s.enemy_hp["glitch"] == enemies()["glitch"].max_hp
    assert kinds(ev) == ["scrolled", "enemy_entered"] and ev[0].slid == []


def test_characters_that_fall_off_slide_right_pushing_others():
    s = board([H, "knuckles", None, None, None], screen=["glitch", "tin_can", "krupp", "baton", BOSS])
    ev = scroll(s, "rash")
    # the hero fell off with the leftmost card and slides back, pushing knuckles along
    assert s.street == [H, "knuckles", None, None, "glitch"]
    assert ev[0].slid == [H]
    s = board(["knuckles", H, None, None, None], screen=["glitch", "tin_can", "krupp", "baton", BOSS])
    scroll(s, "rash")
    assert s.street == ["knuckles", H, None, None, "glitch"]


def test_two_defeats_in_one_round_scroll_twice():
    s = board(
        ["rash", H, "knuckles", None, None],
        hp={"rash": 1, "knuckles": 1},
        screen=["glitch", "tin_can", "krupp", "baton", BOSS],
    )
    s, ev = play_steps(s, "punch", {"kind": "attack", "target": "rash"}, {"kind": "attack", "target": "knuckles"})
    assert s.to_scroll == ["rash", "knuckles"]
    s, ev = act(s, {"kind": "raise", "skills": ["punch", "kick"]})
    assert kinds(ev).count("scrolled") == 2
    assert s.screen == ["krupp", "baton", BOSS, "rash", "knuckles"]
    # first newcomer entered at the right end and shifted once; the second is at the right end
    assert s.street[3:] == ["glitch", "tin_can"]
    assert s.to_scroll == []


def test_boss_enters_when_the_cafe_card_is_flipped():
    s = board(
        [H, None, None, "knuckles", None],
        screen=[BOSS, "rash", "glitch", "krupp", "baton"],
        beaten=["rash", "glitch", "krupp", "baton"],
    )
    ev = scroll(s, "tin_can")
    assert s.street[4] == BOSS and s.enemy_hp[BOSS] == enemies()[BOSS].max_hp
    assert s.screen == ["rash", "glitch", "krupp", "baton", "tin_can"]
    assert ev[-1].kind == "enemy_entered" and ev[-1].enemy == BOSS


def test_beaten_card_at_left_end_is_set_aside_not_revived():
    s = board(
        [H, None, None, BOSS, None],
        screen=["rash", "glitch", "krupp", "baton", "tin_can"],
        beaten=["rash", "glitch", "krupp", "baton", "tin_can"],
    )
    ev = scroll(s, "knuckles")
    assert "rash" not in s.street and s.gone == ["rash"]
    assert s.street == [H, None, BOSS, None, None]
    assert kinds(ev) == ["scrolled"] and ev[0].entered is None
    assert s.screen == ["glitch", "krupp", "baton", "tin_can", "knuckles"]


# -------------------------------------------------------------- win / loss
def test_boss_at_zero_hp_wins_at_once():
    s = board([None, H, BOSS, None, None], hp={BOSS: 1})
    s, ev = play_steps(s, "punch", {"kind": "attack", "target": BOSS})
    assert kinds(ev)[-2:] == ["enemy_defeated", "game_won"]
    out = GAME.outcome(s)
    assert out is not None and out.winners == [SEAT] and s.result == "win"
    assert GAME.to_act(s) == [] and GAME.legal_actions(s, SEAT) == []
    with pytest.raises(GameError) as err:
        act(s, SKIP)
    assert err.value.code == "game_over"


def test_hero_at_zero_hp_loses_and_remaining_enemy_actions_stop():
    s = board([H, "knuckles", None, None, "krupp"], hero_hp=1)
    s, ev = play_steps(s, "dodge", SKIP, SKIP, {"kind": "raise", "skills": ["punch", "kick"]})
    # krupp acts first (farthest right) and shoots: the hero falls, knuckles never acts
    assert kinds(ev)[-1] == "game_lost"
    assert [e.enemy for e in ev if e.kind == "enemy_turn"] == ["krupp"]
    out = GAME.outcome(s)
    assert out is not None and out.winners == [] and s.hero_hp == 0 and s.result == "loss"
    assert GAME.to_act(s) == []


def test_defeating_a_minion_is_not_a_win():
    s = board([None, H, "rash", None, None], hp={"rash": 1})
    s, ev = play_steps(s, "punch", {"kind": "attack", "target": "rash"})
    assert GAME.outcome(s) is None and s.result is None


# -------------------------------------------------------------- presentation
def test_labels_say_what_each_choice_does():
    s = board([None, None, H, "rash", "knuckles"], hp={"rash": 2})
    s, _ = act(s, {"kind": "choose_skill", "skill": "kick"})
    labels = {GAME.action_label(s, a, "en") for a in GAME.legal_actions(s, SEAT)}
    assert labels == {"Move left", "Move right (swap with Rash)", "Skip this move"}
    zh = {GAME.action_label(s, a, "zh") for a in GAME.legal_actions(s, SEAT)}
    assert "向右移动（与莽汉拉什换位）" in zh
    assert GAME.prompt(s, SEAT).text("en").startswith("Kick Lv2, action 1/3: move")
    s, _ = act(s, SKIP)
    s, _ = act(s, SKIP)
    assert [GAME.action_label(s, a, "en") for a in GAME.legal_actions(s, SEAT)] == [
        "Attack Rash (2 HP)",
        "Skip this attack",
    ]
    assert {GAME.action_group(s, a) for a in GAME.legal_actions(s, SEAT)} == {"step"}
    s, _ = act(s, SKIP)
    assert "Raise Punch → Lv3 + Kick → Lv2" in [GAME.action_label(s, a, "en") for a in GAME.legal_actions(s, SEAT)]
    assert GAME.prompt(s, SEAT).text("en") == "Kick is back to Lv1. Raise two different skills by 1."


def test_event_text_names_enemies_in_both_languages():
    s = board(["rash", None, H, None, None])
    ev = run_enemy_phase(s)
    en = [GAME.event_text(e, "en") for e in ev]
    zh = [GAME.event_text(e, "zh") for e in ev]
    assert en[0] == "Rash is left of the hero and uses its right row: jump right, jump right."
    assert en[-1] == "Rash jumps to space 3, swapping places with the hero."
    assert zh[0].startswith("莽汉拉什位于英雄左侧")

"""City of Fury: docs/rulings.md and the code agree (issue 14 item 6).

Every numbered ruling of "Rulings (ambiguities resolved)" and every row of "Rule sentences and how
each is handled" names the tests that check it, and each named test exists. The tests below check
the rulings no rule test covered on its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine import GameError
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.city_of_fury import rules as r
from engine.city_of_fury.content import content, enemies

ROOT = Path(__file__).resolve().parent.parent
SEAT = "solo"
H = "hero"
BOSS = content().boss.id
SKIP = {"kind": "skip"}


def board(street, hp=None, hero_hp=None, screen=None, beaten=()) -> m.State:
    """A state with the street laid out as given (slot 0 = left end); shape checked, not meaning."""
    s = GAME.new([SEAT], {}, 0)
    s.street = list(street)
    s.enemy_hp = {e: (hp or {}).get(e, enemies()[e].max_hp) for e in street if e not in (None, H)}
    if hero_hp is not None:
        s.hero_hp = hero_hp
    if screen is not None:
        s.screen = list(screen)
    s.beaten = list(beaten)
    return m.State.model_validate(GAME.dump(s))


def play(s: m.State, skill: str, *steps: dict) -> tuple[m.State, list]:
    evs: list = []
    s, ev = GAME.apply(s, SEAT, {"kind": "choose_skill", "skill": skill})
    evs += ev
    for step in steps:
        s, ev = GAME.apply(s, SEAT, step)
        evs += ev
    return s, evs


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def enemy_phase(s: m.State) -> list:
    ev: list = []
    r.enemy_phase(s, ev)
    return ev


# ------------------------------------------------------------------ rulings without a test of their own
def test_ruling_6_the_boss_beaten_mid_skill_wins_at_once_with_a_minion_standing_and_no_scroll():
    # punch Lv2 = attack, attack: the first attack beats the boss, the second is never asked for;
    # knuckles still stands and nothing scrolls
    s = board([None, H, BOSS, "knuckles", None], hp={BOSS: 1})
    screen = list(s.screen)
    s, ev = play(s, "punch", {"kind": "attack", "target": BOSS})
    assert s.result == "win" and kinds(ev)[-1] == "game_won"
    assert "knuckles" in s.street and s.enemy_hp["knuckles"] == enemies()["knuckles"].max_hp
    assert "scrolled" not in kinds(ev) and "enemy_turn" not in kinds(ev) and s.screen == screen
    assert s.pending is None and GAME.legal_actions(s, SEAT) == []


def test_ruling_7_enemy_order_is_fixed_at_the_start_and_each_keeps_its_row():
    # rash (rightmost) acts first and jumps left past glitch: glitch now stands rightmost, yet
    # rash does not act again and glitch still acts second
    s = board([H, None, "glitch", "rash", None])
    ev = enemy_phase(s)
    assert [e.enemy for e in ev if e.kind == "enemy_turn"] == ["rash", "glitch"]
    # rash right of the hero uses its left row (jump left, attack); jumping past the hero puts it
    # on the hero's left, but it keeps the left row and attacks instead of jumping back right
    s = board([H, "rash", None, None, None])
    ev = enemy_phase(s)
    turn = next(e for e in ev if e.kind == "enemy_turn")
    assert turn.row == "left" and turn.actions == ["jump_left", "attack"]
    assert s.street[:2] == ["rash", H] and s.hero_hp == 5


def test_ruling_11_an_enemy_phase_with_no_enemy_does_nothing_and_two_enemies_enter():
    s = board(
        ["rash", H, "knuckles", None, None],
        hp={"rash": 1, "knuckles": 1},
        screen=["glitch", "tin_can", "krupp", "baton", BOSS],
    )
    hp = s.hero_hp
    s, _ = play(s, "punch", {"kind": "attack", "target": "rash"}, {"kind": "attack", "target": "knuckles"})
    assert r.enemies_on_street(s) == []
    s, ev = GAME.apply(s, SEAT, {"kind": "raise", "skills": ["punch", "kick"]})
    assert "enemy_turn" not in kinds(ev) and "enemy_hit_hero" not in kinds(ev) and s.hero_hp == hp
    assert [e.enemy for e in ev if e.kind == "enemy_entered"] == ["glitch", "tin_can"]
    assert s.pending is not None and s.pending.kind == "choose_skill" and s.result is None


def test_ruling_12_there_is_no_round_limit():
    s = board([H, None, None, "knuckles", "rash"])
    s.round = 999
    GAME.validate(s)  # a long game is a possible game
    s, ev = play(s, "dodge", SKIP, {"kind": "raise", "skills": ["punch", "kick"]})
    assert s.round == 1000 and s.result is None and GAME.outcome(s) is None
    assert kinds(ev)[-1] == "round_started" and GAME.to_act(s) == [SEAT]


def test_a_rig_on_a_running_game_is_checked_but_never_drawn():
    s = GAME.new([SEAT], {}, 3)
    with pytest.raises(GameError) as exc:
        GAME.rig(s, "deck.enemies", ["boss_man"])
    assert exc.value.code == "bad_rig"
    rigged = GAME.rig(s, "deck.enemies", ["glitch", "rash"])
    plain = s
    for _ in range(6):  # the same play with and without the rig: nothing draws it
        a = GAME.ai_action(plain, SEAT)
        plain, ev_plain = GAME.apply(plain, SEAT, a)
        rigged, ev_rigged = GAME.apply(rigged, SEAT, a)
        assert GAME.dump_events(ev_plain) == GAME.dump_events(ev_rigged)
    assert rigged.street == plain.street and rigged.screen == plain.screen
    assert rigged.rng.rig == {"deck.enemies": ["glitch", "rash"]}


# ------------------------------------------------------------------ the docs name the tests
def section() -> str:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    start = text.index("## City of Fury")
    return text[start : text.index("## Thunder Road", start)]


def our_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def named_tests(text: str) -> list[str]:
    assert not re.search(r"`test_[a-z0-9_]*(\*|\.\.\.)", text), f"an abbreviated test name: {text}"
    return re.findall(r"`(test_[a-z0-9_]+)`", text)


def test_every_city_of_fury_ruling_names_existing_tests():
    text = section()
    part = text[text.index("### Rulings (ambiguities resolved)") : text.index("### Designed content")]
    rulings = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", part, flags=re.M | re.S)
    assert [int(n) for n, _ in rulings] == list(range(1, len(rulings) + 1)) and len(rulings) >= 13
    tests = our_tests()
    for n, body in rulings:
        assert "Tests: " in body, f"ruling {n} names no test"
        named = named_tests(body.split("Tests: ", 1)[1])
        assert named, f"ruling {n} names no test"
        missing = [t for t in named if t not in tests]
        assert not missing, f"ruling {n}: no such test {missing}"


def test_every_city_of_fury_rule_sentence_names_existing_tests():
    text = section()
    part = text[text.index("### Rule sentences and how each is handled") : text.index("### Rulings")]
    rows = [line for line in part.splitlines() if line.startswith("| ") and not line.startswith("| Rule text")]
    rows = [row for row in rows if not set(row) <= set("| -")]
    assert len(rows) >= 28
    tests = our_tests()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 3, row
        named = named_tests(cells[2])
        assert named, f"rule sentence names no test: {cells[0]}"
        missing = [t for t in named if t not in tests]
        assert not missing, f"{cells[0]}: no such test {missing}"


def test_the_rigging_note_says_the_set_up_can_be_rigged():
    model = section().split("### Model", 1)[1].split("###", 1)[0]
    assert "force the set-up" in model and "test_new_can_rig_the_set_up_shuffle" in model
    assert "test_a_rig_on_a_running_game_is_checked_but_never_drawn" in model
    assert "cannot rig" not in section()


def test_city_of_fury_offers_no_standing_orders():
    """docs/rulings.md, City of Fury, Standing orders: none (solo; issue 31)."""
    st = GAME.new(["p1"], seed=3)
    assert GAME.order_kinds(st, "p1") == []
    with pytest.raises(GameError):
        GAME.arm(st, "p1", "keep_passing")

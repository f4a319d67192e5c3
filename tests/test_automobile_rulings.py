"""Automobile: docs/rulings.md and the code agree (issue 14 item 6).

Every rule sentence and ruling of sections D (rule sentences), E (money), F (hidden information)
and I (exploits) names the tests that check it, and each named test exists. The tests below check
the rulings no rule test covered on its own.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.automobile import GAME
from engine.automobile import content as D
from engine.automobile import rules as R
from engine.automobile.models import Act, BuildClass, BuildSpace, Cancel, Close, Exec, Pick

ROOT = Path(__file__).resolve().parent.parent


def do(st, *actions):
    events: list = []
    for a in actions:
        st, ev = GAME.apply(st, GAME.to_act(st)[0], a)
        events += ev
    return st, events


def own(st, space, seat, factories=1, cars=0):
    sp = st.spaces[space]
    sp.owner, sp.factories, sp.cars = seat, factories, cars


def exec_state(chars=("ford", "kettering", "sloan"), order=("a", "b", "c")):
    """a, b, c choose ``chars`` in ``order``; the state at the start of phase 6."""
    st = GAME.new(["a", "b", "c"], seed=1)
    st.selection_order = list(order)
    st.current = order[0]
    for ch in chars:
        st, _ = GAME.apply(st, GAME.to_act(st)[0], Pick(character=ch))
    R.phase_exec(st, [])
    return st


# ------------------------------------------------------------------ rulings without a test of their own
def test_d_a_space_closed_in_phase_6_sells_nothing_in_phase_7_and_scores_no_unsold_cars():
    st = exec_state()
    for s, h in zip("abc", ([5], [5], [5])):
        st.players[s].hand = h  # round 1: 15 mid demand, more than the cars on the board
    own(st, 0, "a", factories=1, cars=3)  # mid, a's: closed by executive decision
    own(st, 3, "b", factories=1, cars=2)  # mid, b's: stays
    money = st.players["a"].money
    refund = R.close_refund(st, 0)
    st, ev = do(st, Exec(choice="close"), Close(space=0))
    assert st.spaces[0].closed and st.spaces[0].cars == 0
    st, ev = do(st, Exec(choice="pass"), Exec(choice="pass"), Exec(choice="pass"))
    sales = [e for e in ev if e.kind == "demand_sale"]
    assert {e.space for e in sales} == {3} and sum(e.n for e in sales) == 2
    assert not [e for e in ev if e.kind == "unsold" and e.seat == "a"]
    assert st.players["a"].money == money + refund  # no sale, no loss fee, no interest


def test_e_equal_final_money_shares_the_win():
    st = exec_state()
    st.round = 4
    for s in "abc":
        st.players[s].losses = 0
    st.players["a"].money, st.players["b"].money, st.players["c"].money = 1500, 1500, 900
    st, _ = do(st, Exec(choice="pass"), Exec(choice="pass"), Exec(choice="pass"))
    out = GAME.outcome(st)
    assert out is not None and out.scores == {"a": 1500.0, "b": 1500.0, "c": 900.0}
    assert out.winners == ["a", "b"]


def test_f_the_revealed_hands_stay_public_until_the_next_reveal():
    st = GAME.new(["a", "b", "c"], seed=7)
    while not (st.round == 2 and st.phase == 6):
        st, _ = GAME.ai_step(st)
    view = GAME.view(st, None)
    assert view.revealed_round == 1 and view.revealed == st.revealed and sorted(view.revealed) == ["a", "b", "c"]
    assert all(len(cards) == 1 for cards in view.revealed.values())  # round 1's single cards
    while st.round == 2:
        st, _ = GAME.ai_step(st)
    view = GAME.view(st, None)
    assert view.revealed_round == 2 and all(len(cards) == 2 for cards in view.revealed.values())


def test_i_ford_lock_ford_decides_first_in_phase_6_and_passing_first_chooses_first_next_round():
    # c chooses last but takes Ford: it acts first in phase 3 and in phase 6
    st = exec_state(chars=("kettering", "sloan", "ford"), order=("a", "b", "c"))
    assert st.action_order[0] == "c" and GAME.to_act(st) == ["c"]
    st, _ = do(st, Exec(choice="pass"))
    assert GAME.to_act(st) == ["a"]  # then the others in action order
    st, _ = do(st, Exec(choice="pass"), Exec(choice="pass"))
    assert st.round == 2 and st.selection_order[0] == "c" and GAME.to_act(st) == ["c"]


def test_b_the_model_track_runs_by_era_and_class_and_costs_follow_the_designed_formula():
    spaces = D.board()
    assert len(spaces) == 36 and [s["year"] for s in spaces] == sorted(s["year"] for s in spaces)
    base = {"low": 200, "mid": 300, "high": 400}
    for cls in base:
        for era in (1, 2, 3, 4):
            row = [s for s in spaces if s["cls"] == cls and s["era"] == era]
            assert len(row) == 3, (cls, era)
            assert [s["cost"] for s in row] == [base[cls] + 40 * (era - 1) + 10 * k for k in range(3)]
    assert {s["cost"] for s in spaces if s["cls"] == "low"} >= {200, 340}
    assert max(s["cost"] for s in spaces if s["cls"] == "high") == 540


def test_b_prices_costs_character_cubes_and_the_round_one_seat_order():
    rules = D.rules()
    assert rules["price"] == {"low": 100, "mid": 150, "high": 250}
    assert rules["production_cost"] == {"low": 30, "mid": 60, "high": 120} and rules["parts_discount"] == 20
    assert "high" not in rules["discount_price"]  # high has no discount price, so no discount marker
    assert D.character_rd() == {"ford": 0, "kettering": 3, "sloan": 1, "howard": 1, "durant": 1, "chrysler": 2}
    st = GAME.new(["a", "b", "c"], seed=1)
    assert all(p.rd == 0 for p in st.players.values())
    # round 1's choosing order is a seeded shuffle (rig name seat_order)
    orders = {tuple(GAME.new(["a", "b", "c"], seed=s).selection_order) for s in range(30)}
    assert len(orders) > 3
    forced = GAME.new(["p1", "p2", "p3"], seed=1, rig={"seat_order": ["p3", "p1", "p2"]})
    assert forced.selection_order == ["p3", "p1", "p2"] and GAME.to_act(forced) == ["p3"]


def test_g_cancel_backs_out_of_an_unfinished_build_or_close_in_phase_3_only():
    st = exec_state()
    own(st, 0, "a", factories=1)
    st, _ = do(st, Exec(choice="close"))
    assert Cancel() not in GAME.legal_actions(st, "a")  # an executive close, once chosen, is made
    st = GAME.new(["a", "b", "c"], seed=1)
    st.selection_order, st.current = ["a", "b", "c"], "a"
    for ch in ("ford", "kettering", "sloan"):
        st, _ = GAME.apply(st, GAME.to_act(st)[0], Pick(character=ch))
    own(st, 0, "a", factories=1)
    before = {k: v for k, v in GAME.dump(st).items() if k != "step"}  # step counts every action
    for steps in ([Act(what="close")], [Act(what="build"), BuildClass(cls="mid"), BuildSpace(space=3)]):
        mid, _ = do(st, *steps)
        assert Cancel() in GAME.legal_actions(mid, "a")
        back, _ = do(mid, Cancel())
        assert {k: v for k, v in GAME.dump(back).items() if k != "step"} == before and GAME.to_act(back) == ["a"]


# ------------------------------------------------------------------ the docs name the tests
def section() -> str:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    start = text.index("## Automobile")
    return text[start : text.index("## Armor Clash", start)]


def part(title: str) -> str:
    text = section()
    a = text.index(f"### {title}")
    b = text.find("\n### ", a + 1)
    return text[a : b if b > 0 else len(text)]


def our_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def bullets(text: str) -> list[str]:
    """Each bullet (top-level or nested), its own text with its continuation lines, without its sub-bullets."""
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"^ *- ", line):
            out.append(line.strip())
        elif out and line.startswith("  ") and line.strip():
            out[-1] += " " + line.strip()
        elif not line.strip() and out and out[-1] != "":
            out.append("")
    return [b for b in out if b]


def check_names(where: str, text: str, tests: set[str]) -> None:
    assert not re.search(r"`test_[a-z0-9_]*(\*|\.\.\.)", text), f"{where}: abbreviated test name"
    named = re.findall(r"`(test_[a-z0-9_]+)`", text)
    assert named, f"{where} names no test: {text[:80]}"
    missing = [t for t in named if t not in tests]
    assert not missing, f"{where}: no such test {missing}"


def test_every_rule_sentence_of_d_names_existing_tests():
    tests = our_tests()
    items = bullets(part("D. Rule sentences"))
    assert len(items) >= 19
    for item in items:
        check_names("D", item, tests)


def test_every_ruling_of_e_f_and_i_names_existing_tests():
    tests = our_tests()
    e = bullets(part("E. Money"))
    assert len(e) >= 4
    for item in e:
        check_names("E", item, tests)
    f = part("F. Hidden information").split("\n", 1)[1]
    check_names("F", f, tests)
    i = part("I. Exploits measured")
    items = [b for b in bullets(i) if b.startswith("- **")]
    assert len(items) == 3
    for item in items:
        check_names("I", item, tests)


def test_every_designed_value_of_b_and_ability_of_c_names_existing_tests():
    tests = our_tests()
    b = [para for para in part("B. Designed values").split("\n\n") if para.startswith("**")]
    assert len(b) >= 10
    for para in b:
        check_names("B " + para.split("**")[1], para, tests)
    rows = [r for r in part("C. Reconstructed").splitlines() if r.startswith("| ") and not r.startswith("| character")]
    assert len(rows) == 7
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4, row
        check_names("C " + cells[0], cells[3], tests)


def test_every_presentation_choice_of_g_and_stored_game_rule_of_j_names_existing_tests():
    tests = our_tests()
    for title, n in (("G. Presentation choices", 3), ("J. Stored games", 3)):
        items = bullets(part(title))
        assert len(items) == n, title
        for item in items:
            check_names(title[:1], item, tests)


def test_the_phase_6_and_closing_rulings_say_what_the_code_does():
    d = part("D. Rule sentences")
    assert "test_decisions_go_round_in_order_until_everyone_passed" in d
    assert "test_closing_removes_the_cars_still_on_the_space" in d
    assert "the cars still\n    on the space leave with its factories" in d

"""Thunder Road: Vendetta -- docs/rulings.md and the code agree: every ruling of §2 names
the tests that check it, and each named test exists (issue 14 item 6)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def section() -> str:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    start = text.index("## Thunder Road: Vendetta")
    text = text[start:]
    a = text.index("### 2. Rule sentences handled otherwise")
    b = text.index("### 3. Decisions as buttons")
    return text[a:b]


def our_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_thunder_road_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_every_ruling_names_existing_tests():
    rulings = re.findall(r"^(\d+)\. (.*)$", section(), flags=re.M)
    assert [int(n) for n, _ in rulings] == list(range(1, len(rulings) + 1)) and len(rulings) >= 27
    tests = our_tests()
    for n, text in rulings:
        assert "Tests: " in text, f"ruling {n} names no test"
        named = re.findall(r"`(test_[a-z0-9_]+)`", text.split("Tests: ", 1)[1])
        assert named, f"ruling {n} names no test"
        missing = [t for t in named if t not in tests]
        assert not missing, f"ruling {n}: no such test {missing}"


def test_the_oil_ruling_says_what_the_code_does():
    text = section()
    oil = next(line for line in text.splitlines() if line.startswith("5. "))
    assert "test_ruling_5_oil_slide_pays_the_space_it_slides_into" in oil
    assert "paid at the terrain the car ends up on" in oil

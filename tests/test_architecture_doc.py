"""docs/architecture.md stays true: every rule it states links a test that exists, its
layers are the ones tests/test_architecture.py enforces (in that order), and every module
count it gives (the layers of tables/, the packages of cogs/ and web/) is the real one."""

import ast
import re
from pathlib import Path

from tests.test_architecture import LAYERS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def _tests_named(text: str) -> list[tuple[str, str]]:
    return re.findall(r"(tests/test_\w+\.py)::(\w+)", text)


def _defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _rules(text: str) -> list[str]:
    section = text.split("## The rules and their tests", 1)[1]
    return [line for line in section.splitlines() if line.startswith("- ")]


def test_every_rule_links_a_test_that_exists():
    text = DOC.read_text(encoding="utf-8")
    rules = _rules(text)
    assert len(rules) >= 10
    unlinked = [r for r in rules if not _tests_named(r)]
    assert not unlinked, f"a rule without its test: {unlinked}"
    missing = [
        f"{f}::{name}" for f, name in _tests_named(text) if not (ROOT / f).is_file() or name not in _defined(ROOT / f)
    ]
    assert not missing, f"docs/architecture.md links tests that do not exist: {missing}"


def test_the_layers_and_their_counts_are_the_real_ones():
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `tables/(\w+)` \| (\d+) \|", text, re.M)
    assert tuple(name for name, _ in rows) == LAYERS, "the doc's layers, bottom first, are the enforced ones"
    counts = re.findall(r"^\| `([\w/]+)` \| (\d+) \|", text, re.M)
    assert len(counts) >= len(LAYERS) + 4, "the layers and the edges' packages"
    for folder, count in counts:
        real = [f for f in (ROOT / folder).glob("*.py") if f.name != "__init__.py"]
        assert int(count) == len(real), f"{folder}/: the doc says {count} modules, there are {len(real)}"
    order = re.search(r"`(rules(?: < \w+)+)`", text)
    assert order and tuple(order[1].split(" < ")) == LAYERS


def test_the_checks_catch_a_stale_doc():
    assert _tests_named("- x: [tests/test_a.py::test_b](../tests/test_a.py)") == [("tests/test_a.py", "test_b")]
    assert "test_nothing_here" not in _defined(ROOT / "tests" / "test_architecture.py")
    assert _rules("intro\n## The rules and their tests\n\n- one\n- two\ntext") == ["- one", "- two"]

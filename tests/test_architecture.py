"""The import direction is a rule: bot -> cogs -> (engine, render, store); render -> engine."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engine": {"discord", "asyncio", "aiosqlite", "PIL", "cogs", "render", "store", "bot", "driver", "sqlite3"},
    "render": {"discord", "asyncio", "aiosqlite", "cogs", "store", "bot"},
    "store": {"discord", "cogs", "render", "engine", "bot", "PIL"},
    "cogs": {"bot"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    bad = {str(f.relative_to(ROOT)): sorted(imports_of(f) & FORBIDDEN[package]) for f in files}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"forbidden imports: {bad}"


def test_engine_has_no_dynamic_import_of_edges():
    for f in (ROOT / "engine").rglob("*.py"):
        text = f.read_text(encoding="utf-8")
        if f.name == "__main__.py":
            continue  # dispatches to the top-level driver (an edge adapter, like bot.py)
        assert 'import_module("render' not in text and "import_module('render" not in text, f

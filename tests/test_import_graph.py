"""No import cycle among the project's own modules: the graph of who imports whom
(every ``import`` and ``from ... import`` the source names, at the top of a module, in a
function or under ``TYPE_CHECKING`` alike) has no strongly connected part of two or more
modules, so each module can be read, tested and moved knowing only what lies below it.

The graph is the standard library's :mod:`ast` over the packages setuptools installs
(pyproject.toml) and the two top-level modules; an import of ``a.b`` counts as an edge
to ``a.b`` (not to the package ``a`` that Python runs first), ``from a import b`` to the
module ``a.b`` when there is one, else to ``a``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "store", "tables", "cogs", "web", "data")
TOP_MODULES = ("bot.py", "driver.py")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path) -> dict[str, Path]:
    files = [root / m for m in TOP_MODULES if (root / m).exists()]
    for package in PACKAGES:
        files += sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []
    return {module_name(f, root): f for f in files}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` (at ``path``) imports."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()

    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {m for a in node.names if (m := nearest(a.name))}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    out.add(f"{source}.{alias.name}")
                elif m := nearest(source):
                    out.add(m)
    out.discard(name)
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = project_modules(root)
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # the graph is a few hundred modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_project_has_no_import_cycle():
    graph = import_graph(ROOT)
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300, "the graph sees the project"
    found = cycles(graph)
    assert not found, "modules that import each other in a circle:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_check_sees_every_kind_of_import(tmp_path):
    """A circle through a relative import, one under TYPE_CHECKING and one inside a
    function is found; a package importing its own submodules is no circle."""
    pkg = tmp_path / "store"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .base import Store\nfrom . import sql\n")
    (pkg / "base.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sql import Conn\n")
    (pkg / "sql.py").write_text("def f():\n    from store.privacy import forget\n")
    (pkg / "privacy.py").write_text("from .base import Store\nimport json\n")
    (pkg / "rows.py").write_text("import store.privacy\n")
    graph = {n: imports_of(n, p, set(project_modules(tmp_path))) for n, p in project_modules(tmp_path).items()}
    assert graph["store"] == {"store.base", "store.sql"} and graph["store.rows"] == {"store.privacy"}
    assert cycles(graph) == [["store.base", "store.privacy", "store.sql"]]
    (pkg / "sql.py").write_text("import json\n")
    graph = {n: imports_of(n, p, set(project_modules(tmp_path))) for n, p in project_modules(tmp_path).items()}
    assert cycles(graph) == []

"""The import direction is a rule: bot -> cogs -> tables (the table service)
-> (engine, render, store); render -> engine.  The cogs only adapt: they never
write to the store and never reach into each other."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engine": {
        "discord",
        "asyncio",
        "aiosqlite",
        "PIL",
        "cogs",
        "render",
        "store",
        "tables",
        "bot",
        "driver",
        "sqlite3",
    },
    "render": {"discord", "asyncio", "aiosqlite", "cogs", "store", "tables", "bot"},
    "store": {"discord", "cogs", "render", "engine", "tables", "bot", "PIL"},
    "tables": {"discord", "cogs", "bot", "aiosqlite", "sqlite3", "asyncpg"},
    "cogs": {"bot", "aiosqlite", "sqlite3", "asyncpg"},
    # the web companion reads tables only through the table service (tables/)
    "web": {"discord", "cogs", "bot", "engine", "render", "store", "aiosqlite", "sqlite3", "asyncpg", "PIL"},
}

#: every Store method that writes (a cog calling one bypasses the table service)
STORE_WRITES = {
    "commit",
    "create_game",
    "update_game",
    "create_vote",
    "create_campaign",
    "mark_reminded",
    "quarantine",
    "set_guild_settings",
    "set_user_prefs",
    "set_meta",
    "set_campaign_progress",
    "update_vote",
    "create_league",
    "update_league",
    "claim_league_step",
    "finish_league_step",
    "release_league_step",
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


def _store_writes(tree: ast.AST) -> list[str]:
    """Calls of a store write method on anything named ``store`` (self.store.x, services.store.x, store.x)
    or on the cogs' shared ``services`` (a pass-through there would be the same write)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORE_WRITES:
            target = node.func.value
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if "store" in name.lower() or name == "services":
                found.append(f"{node.func.attr} (line {node.lineno})")
    return found


def test_no_cog_writes_to_the_store():
    bad = {}
    for f in sorted((ROOT / "cogs").rglob("*.py")):
        writes = _store_writes(ast.parse(f.read_text(encoding="utf-8")))
        if writes:
            bad[f.name] = writes
    assert not bad, f"cogs must change tables through the table service, not the store: {bad}"


def _defines_cog(tree: ast.AST) -> bool:
    return any(
        isinstance(node, ast.ClassDef)
        and any((isinstance(b, ast.Attribute) and b.attr == "Cog") or getattr(b, "id", "") == "Cog" for b in node.bases)
        for node in ast.walk(tree)
    )


def test_cogs_never_reach_into_each_other():
    trees = {f: ast.parse(f.read_text(encoding="utf-8")) for f in sorted((ROOT / "cogs").rglob("*.py"))}
    cog_modules = {f.stem for f, tree in trees.items() if _defines_cog(tree)}
    assert {"play", "scheduler", "community"} <= cog_modules
    bad = {}
    for f, tree in trees.items():
        if f.stem not in cog_modules:
            continue
        problems = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("cogs.")):
                # cogs/ is in sub-packages (kit, present, game, league): a cog module is named by its leaf
                leaves = {(node.module or "").split(".")[-1]} | {a.name for a in node.names}
                if leaves & cog_modules:
                    problems.append(f"imports {node.module}")
            if isinstance(node, ast.Attribute) and node.attr == "get_cog":
                problems.append(f"get_cog (line {node.lineno})")
        if problems:
            bad[f.name] = problems
    assert not bad, f"a cog module must not import another cog module or look one up: {bad}"


def test_the_checks_catch_what_they_forbid():
    """The two checks above fail on the code they are meant to stop."""
    assert _store_writes(ast.parse("await self.store.update_game(1, 2)")) == ["update_game (line 1)"]
    assert _store_writes(ast.parse("await self.tables.act(1)")) == []
    assert _store_writes(ast.parse("await self.services.set_guild_settings(1, {})")) == ["set_guild_settings (line 1)"]
    assert _store_writes(ast.parse("await self.services.settings.set_guild(1, {})")) == []
    assert _defines_cog(ast.parse("class A(commands.Cog):\n    pass"))


#: the store's methods that commit a change to a table (the kernel's alone: tables/core/kernel.py)
TABLE_COMMITS = {"commit", "update_game"}
MAX_LINES = 500


def _table_commits(tree: ast.AST) -> list[str]:
    """Calls of the store's commit methods on anything named ``store``, or through an
    alias of the method (``commit = store.commit``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in TABLE_COMMITS:
            target = node.value
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if "store" in name.lower():
                found.append(f"{node.attr} (line {node.lineno})")
    return found


def test_only_the_kernel_commits_a_table():
    """tables/core/kernel.py is the only code that calls the store's commit: the feature
    modules decide a change and hand it to the kernel (Kernel.commit, save_turn, write)."""
    modules = {f.relative_to(ROOT / "tables").as_posix(): f for f in sorted((ROOT / "tables").rglob("*.py"))}
    assert {"core/kernel.py", "play/lobby.py", "play/turns.py", "play/seats.py"} <= set(modules)
    bad = {}
    for name, f in modules.items():
        if name == "core/kernel.py":
            assert _table_commits(ast.parse(f.read_text(encoding="utf-8"))), "the kernel commits"
            continue
        found = _table_commits(ast.parse(f.read_text(encoding="utf-8")))
        if found:
            bad[name] = found
    assert not bad, f"only tables/core/kernel.py may commit a table: {bad}"


#: the packages whose every module stays under the size limit, with no exceptions
SIZED = ("tables", "cogs", "web", "store")


def test_no_module_is_over_the_size_limit():
    """Every module under tables/, cogs/, web/ and store/ (sub-packages included) is at
    most MAX_LINES lines: a module that grows past it is split by concern."""
    sizes = {
        str(f.relative_to(ROOT)): len(f.read_text(encoding="utf-8").splitlines())
        for package in SIZED
        for f in (ROOT / package).rglob("*.py")
    }
    assert any(k.startswith("cogs/") for k in sizes) and any(k.startswith("web/") for k in sizes)
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not over, f"modules over {MAX_LINES} lines (split them by concern): {over}"


#: cogs/ in layers: each package imports only the packages at or below it (the kit at the bottom)
COG_LAYERS = {
    "kit": {"kit"},  # the Discord kit: routing, ids, checks, locale, inputs, names, services
    "present": {"kit", "present"},  # how a table looks and reaches Discord
    "game": {"kit", "present", "game"},  # the game commands
    "league": {"kit", "present", "league"},  # the league commands
}


def _cog_layer_violations(tree: ast.AST, allowed: set[str]) -> list[str]:
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "cogs" and (len(parts) < 2 or parts[1] not in allowed):
                found.append(f"{name} (line {node.lineno})")
    return found


def test_cogs_packages_import_down():
    """Every cog module lives in a package named for its role, and a package imports only
    those below it: the kit knows no presentation, presentation no command."""
    packages = {p.name for p in (ROOT / "cogs").iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert packages == set(COG_LAYERS)
    assert not sorted((ROOT / "cogs").glob("*.py")), "a cogs/ module outside a role package"
    bad = {}
    for package, allowed in COG_LAYERS.items():
        for f in sorted((ROOT / "cogs" / package).rglob("*.py")):
            found = _cog_layer_violations(ast.parse(f.read_text(encoding="utf-8")), allowed)
            if found:
                bad[str(f.relative_to(ROOT))] = found
    assert not bad, f"a cogs/ package imports one above it: {bad}"
    assert _cog_layer_violations(ast.parse("from cogs.present.ui import clip"), COG_LAYERS["kit"])
    assert not _cog_layer_violations(ast.parse("from cogs.kit import ids"), COG_LAYERS["present"])


def test_the_kernel_check_catches_a_commit():
    assert _table_commits(ast.parse("await self.k.store.commit(changes)")) == ["commit (line 1)"]
    assert _table_commits(ast.parse("await store.update_game(1, 2)")) == ["update_game (line 1)"]
    assert _table_commits(ast.parse("write = self.store.commit")) == ["commit (line 1)"]
    assert _table_commits(ast.parse("await self.k.write(changes)")) == []
    assert _table_commits(ast.parse("await self.k.commit(row, build)")) == []


#: the one cogs/ module that may hold the store: the wiring that builds the table service
STORE_WIRING = {"services.py"}


def _store_reads(tree: ast.AST) -> list[str]:
    """Every ``x.store`` (services.store, self.store, ...): a cog reading the store directly."""
    return [f"line {n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "store"]


def test_cogs_never_touch_the_store():
    """cogs/ read and change tables only through tables/ (the facade, its features, the
    league service); only the wiring in cogs/kit/services.py holds the store."""
    bad = {}
    for f in sorted((ROOT / "cogs").rglob("*.py")):
        if f.name in STORE_WIRING:
            continue
        found = _store_reads(ast.parse(f.read_text(encoding="utf-8")))
        if found:
            bad[f.name] = found
    assert not bad, f"cogs must go through tables/, not the store: {bad}"
    assert _store_reads(ast.parse("await self.services.store.leagues(1)")) == ["line 1"]
    assert _store_reads(ast.parse("rows = await self.store.stats(1)")) == ["line 1"]
    assert _store_reads(ast.parse("await self.tables.count_actions(1)")) == []


#: where a step is applied to a table: the autopilot (every step nobody clicked) and the
#: kernel's validated apply of a member's own click (``Kernel.advance``)
STEP_TAKERS = {("tables/core/autopilot.py", None), ("tables/core/kernel.py", "advance")}
#: modules that apply actions to a copy of a state and never log or commit it: the
#: offered choices and their previews, the log's text, the replay from snapshots
SIMULATORS = {
    "tables/rules/choices.py",
    "tables/rules/preview.py",
    "tables/seeing/logtext.py",
    "tables/core/snapshots.py",
}
#: the one maker of a log row (``Logged``), called by the step takers
LOG_ROW = ("tables/core/common.py", "log_entry")


def _steps(tree: ast.AST) -> list[tuple[str, str | None, int]]:
    """(kind, enclosing function, line) of each step taken in ``tree``: a call of a
    game's ``apply(state, seat, action)`` ("apply") and each log row made ("log_entry")."""
    found: list[tuple[str, str | None, int]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call):
                f = child.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name == "apply" and isinstance(f, ast.Attribute) and len(child.args) + len(child.keywords) >= 3:
                    found.append(("apply", func, child.lineno))
                elif name in ("log_entry", "Logged"):
                    found.append(("log_entry", func, child.lineno))
            visit(child, func)

    visit(tree, None)
    return found


def test_only_the_autopilot_and_a_members_click_apply_actions():
    """A step is applied to a table (a game's ``apply`` whose result is logged) only in
    tables/core/autopilot.py and in the kernel's apply of a member's own click: the timer,
    the league, the lobby and the seats pass policies to the autopilot instead of looping.
    The simulators apply to a copy and never make a log row."""
    files: list[Path] = []
    for d in ("tables", "cogs", "web"):
        files += sorted((ROOT / d).rglob("*.py"))
    files += [ROOT / "bot.py"]
    bad = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for kind, func, line in _steps(ast.parse(path.read_text(encoding="utf-8"))):
            if (rel, None) in STEP_TAKERS or (rel, func) in STEP_TAKERS or (rel, func) == LOG_ROW:
                continue
            if kind == "apply" and rel in SIMULATORS:
                continue
            bad.append(f"{rel}:{line} {kind} in {func}")
    assert not bad, f"only tables/core/autopilot.py and Kernel.advance take steps: {bad}"
    taken = {(k, f) for k, f, _ in _steps(ast.parse((ROOT / "tables/core/kernel.py").read_text(encoding="utf-8")))}
    assert taken == {("apply", "advance"), ("log_entry", "advance")}, "the kernel applies a click, nothing else"


def test_the_step_check_catches_a_loop_of_its_own():
    loop = "def advance():\n    for s in seats:\n        st, evs = game.apply(st, s, action)\n        log_entry(game, s, None, action, evs)\n"
    assert _steps(ast.parse(loop)) == [("apply", "advance", 3), ("log_entry", "advance", 4)]
    assert _steps(ast.parse("x = self.apply(a, b, c)")) == [("apply", None, 1)]
    assert _steps(ast.parse("functools.partial(f).apply(x)")) == []


#: what a board reads with (issue 30 item 1): the rooms it is handed, never the facade above them
READS_DOWN = ("seeing/board.py", "seeing/catchup.py", "seeing/logtext.py", "seeing/secrecy.py", "seeing/reads.py")


def _facade_uses(tree: ast.AST) -> list[str]:
    """Every import of the table service (``tables.service``, ``.service``, ``tables`` itself,
    which re-exports it; under TYPE_CHECKING or inside a function too) and every name
    ``TableService``: a module that calls back up through the facade."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module in ("tables", "tables.service") or (
                node.level == 1 and (module == "service" or any(a.name == "service" for a in node.names))
            ):
                out.append(f"from {'.' * node.level}{module} (line {node.lineno})")
        elif isinstance(node, ast.Import):
            out += [
                f"import {a.name} (line {node.lineno})" for a in node.names if a.name in ("tables", "tables.service")
            ]
        elif isinstance(node, ast.Name | ast.Attribute) and "TableService" in (
            getattr(node, "id", ""),
            node.attr if isinstance(node, ast.Attribute) else "",
        ):
            out.append(f"TableService (line {node.lineno})")
    return out


def test_the_board_builder_reads_down():
    """tables/seeing/board.py and tables/seeing/catchup.py (and the log's words and secrecy they use) take
    the rooms they read (tables/seeing/reads.py), not the facade: no call of theirs goes back up."""
    bad = {}
    for name in READS_DOWN:
        found = _facade_uses(ast.parse((ROOT / "tables" / name).read_text(encoding="utf-8")))
        if found:
            bad[name] = found
    assert not bad, f"the board builder calls back up through the facade: {bad}"
    assert _facade_uses(ast.parse("if TYPE_CHECKING:\n    from .service import TableService")) != []
    assert _facade_uses(ast.parse("def f():\n    from .service import TurnRefused")) != []
    assert _facade_uses(ast.parse("from tables import TableService")) != []
    assert _facade_uses(ast.parse("def f(tables: 'x') -> None:\n    tables.TableService")) != []
    assert _facade_uses(ast.parse("from . import service")) != []
    assert _facade_uses(ast.parse("from . import logtext\nfrom .views import Views")) == []


_HTML_TAG = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?/?>")


def _html_literals(tree: ast.AST) -> list[str]:
    """String literals (f-strings' parts included) that hold an HTML tag."""
    return [
        f"line {node.lineno}: {node.value[:40]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _HTML_TAG.search(node.value)
    ]


def test_html_is_written_only_by_the_page_builders():
    """The web companion's HTML is built in web/pages.py alone: the application, its
    routes and its serving infrastructure hold none."""
    bad = {}
    for f in sorted((ROOT / "web").rglob("*.py")):
        if f.relative_to(ROOT).as_posix() == "web/pages.py":
            assert _html_literals(ast.parse(f.read_text(encoding="utf-8")))
            continue
        found = _html_literals(ast.parse(f.read_text(encoding="utf-8")))
        if found:
            bad[str(f.relative_to(ROOT))] = found
    assert not bad, f"HTML outside web/pages.py: {bad}"
    assert _html_literals(ast.parse("x = f'<td>{c}</td>'"))
    assert not _html_literals(ast.parse("x = a < b > c"))


def test_a_seat_is_labelled_by_one_rule():
    """An AI seat's label ("AI 1 (hard)") and an unnamed member's ("Player 2") are made by
    one function (tables/seeing/board.py's seat_labels); a lobby, a board and a page all ask it
    (cogs/ui.py kept a copy of the AI rule)."""
    code = [ROOT / "bot.py", ROOT / "driver.py"]
    code += [
        f for package in ("engine", "render", "store", "tables", "cogs", "web") for f in (ROOT / package).rglob("*.py")
    ]
    for key in ("discord.seat.ai", "discord.seat.player"):
        users = sorted(str(f.relative_to(ROOT)) for f in code if f'"{key}"' in f.read_text(encoding="utf-8"))
        assert len(users) == 1, f"{key} is worded in more than one place: {users}"


#: the layers of tables/, bottom first (docs/architecture.md): a module may import its own
#: layer and the layers below it, never one above, and never the facade (tables/service.py,
#: or the package ``tables`` that re-exports it), which sits on top of them all
LAYERS = ("rules", "core", "play", "seeing", "leagues", "people")
#: the modules at the top of tables/: the facade and the package that exports it (the one door)
TOP = {"__init__.py", "service.py"}


def _tables_imports(rel: str, text: str) -> list[tuple[str, int]]:
    """(imported tables module, line) for every import of tables/ in ``text``, the module
    at ``rel`` (relative imports resolved), under TYPE_CHECKING or inside a function too."""
    package = rel.removesuffix(".py").split("/")[:-1]
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            if module == "tables" or module.startswith("tables."):
                # ``from tables.play import lobby`` imports the room tables.play.lobby
                for a in node.names:
                    sub = f"{module}.{a.name}"
                    parts = module.split(".")
                    out.append((sub if len(parts) == 2 and parts[1] in LAYERS else module, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "tables"]
    return out


def _layer_of(module: str) -> str | None:
    """The layer of a dotted tables module (None: the facade, the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def _layer_breaks(rel: str, text: str) -> list[str]:
    """The imports of the module at ``rel`` (its source ``text``) that go up a layer."""
    own = _layer_of(rel.removesuffix(".py").replace("/", "."))
    assert own is not None, rel
    bad = []
    for module, line in _tables_imports(rel, text):
        layer = _layer_of(module)
        if layer is None:
            bad.append(f"{module} (line {line}): the facade, above every layer")
        elif LAYERS.index(layer) > LAYERS.index(own):
            bad.append(f"{module} (line {line}): {layer} is above {own}")
    return bad


def test_tables_is_its_layers_and_the_facade():
    """At the top of tables/ only the facade and the package that exports it; every other
    module lives in one layer's sub-package."""
    top = {f.name for f in (ROOT / "tables").glob("*.py")}
    assert top == TOP, f"modules at the top of tables/ (move each into its layer): {sorted(top - TOP)}"
    subs = {d.name for d in (ROOT / "tables").iterdir() if d.is_dir() and d.name != "__pycache__"}
    assert subs == set(LAYERS), f"sub-packages of tables/ that are not layers (add one to LAYERS and the doc): {subs}"
    for layer in LAYERS:
        assert (ROOT / "tables" / layer / "__init__.py").is_file(), layer


def test_the_layers_import_downwards():
    """rules < core < play < seeing < leagues < people < the facade: a room imports its own
    layer and those below it, never one above and never the facade."""
    bad = {}
    for layer in LAYERS:
        files = sorted((ROOT / "tables" / layer).rglob("*.py"))
        assert len(files) > 1, f"tables/{layer}/ has no rooms"
        for f in files:
            found = _layer_breaks(f.relative_to(ROOT).as_posix(), f.read_text(encoding="utf-8"))
            if found:
                bad[f.relative_to(ROOT).as_posix()] = found
    assert not bad, f"a layer imports one above it (or the facade): {bad}"


def test_the_layer_check_catches_an_upward_import():
    room = "tables/core/probe.py"
    for text, expected in (
        ("from tables.play.lobby import Lobbies\n", ["tables.play.lobby (line 1): play is above core"]),
        ("from ..seeing import board\n", ["tables.seeing.board (line 1): seeing is above core"]),
        (
            "if TYPE_CHECKING:\n    from tables.service import TableService\n",
            ["tables.service (line 2): the facade, above every layer"],
        ),
        (
            "def f():\n    from tables import TurnRefused\n",
            ["tables (line 2): the facade, above every layer"],
        ),
        ("from tables.rules import clocks\nfrom .common import Step\n", []),
    ):
        assert _layer_breaks(room, text) == expected, text


#: the edges: they reach tables/ only through the names the package exports
EDGES = ("cogs", "web", "bot.py", "driver.py")


def _reach_throughs(text: str, exported: set[str]) -> list[str]:
    """Imports of a room past the facade (``tables.<layer>...``, ``tables.service``) and names
    imported from ``tables`` that it does not export."""
    bad = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("tables."):
                bad.append(f"from {node.module} (line {node.lineno})")
            elif node.module == "tables":
                bad += [
                    f"tables.{a.name} not exported (line {node.lineno})" for a in node.names if a.name not in exported
                ]
        elif isinstance(node, ast.Import):
            bad += [f"import {a.name} (line {node.lineno})" for a in node.names if a.name.startswith("tables.")]
    return bad


def test_the_edges_reach_tables_only_through_its_door():
    """cogs/, web/, bot.py and driver.py import from ``tables`` (its __all__: the facade, the
    types its calls return, a few pure rule modules), never a room: 0 reach-throughs."""
    exported = set(_all_of(ROOT / "tables" / "__init__.py"))
    assert {"TableService", "TurnRefused", "Board", "LeagueService"} <= exported
    files: list[Path] = []
    for edge in EDGES:
        files += [ROOT / edge] if edge.endswith(".py") else sorted((ROOT / edge).rglob("*.py"))
    bad = {}
    for f in files:
        found = _reach_throughs(f.read_text(encoding="utf-8"), exported)
        if found:
            bad[f.relative_to(ROOT).as_posix()] = found
    assert not bad, f"reach-throughs past the facade (export the name from tables/__init__.py): {bad}"
    probe = "from tables.seeing.board import Board\nfrom tables import Kernel, Board\nimport tables.service\n"
    assert _reach_throughs(probe, exported) == [
        "from tables.seeing.board (line 1)",
        "tables.Kernel not exported (line 2)",
        "import tables.service (line 3)",
    ]


def _all_of(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError(f"{path} has no __all__")


#: the edges' uses of a facade's room through its attribute (``tables.community``) instead of a
#: facade verb: none (issue 30 item 3). Every call into a room goes to a facade verb, and no edge
#: holds a room or hands one on; a new one fails the test below.
ROOMS_HANDED_ON: set[tuple[str, str]] = set()


def _room_uses(source: str, rooms: set[str]) -> set[str]:
    """The rooms ``source`` reaches as ``<x>.tables.<room>`` (or ``tables.<room>``)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in rooms:
            base = node.value
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
            if name == "tables":
                found.add(node.attr)
    return found


def test_the_edges_use_no_room_past_the_facade(tmp_path):
    """No edge calls into a room of the facade through its attribute, holds one or hands one on."""
    from store import SqliteStore
    from tables import TableService, due_times

    service = TableService(SqliteStore(tmp_path / "x.db", due=due_times))
    methods = {n for n in dir(TableService) if callable(getattr(TableService, n, None))}
    rooms = {
        n for n, v in vars(service).items() if not n.startswith("_") and n not in methods and hasattr(v, "__dict__")
    }
    rooms |= {n for n in ("settings", "privacy") if hasattr(service, n)}  # properties that hand out a room
    assert {"community", "names", "kernel", "seats", "web_sessions", "watch", "reads"} <= rooms, rooms
    seen = set()
    for edge in EDGES:
        for f in [ROOT / edge] if edge.endswith(".py") else sorted((ROOT / edge).rglob("*.py")):
            rel = f.relative_to(ROOT).as_posix()
            seen |= {(rel, room) for room in _room_uses(f.read_text(encoding="utf-8"), rooms)}
    assert seen == ROOMS_HANDED_ON, f"a room used past the facade (give it a facade verb): {sorted(seen)}"
    probe = "x = await self.tables.community.leaderboard(1)\ny = await self.tables.act(1)\nz = svc.tables.names\n"
    assert _room_uses(probe, rooms) == {"community", "names"}

"""The store's interface, written once (store/ports/): each role (the kernel, each feature
of tables/, the bot's wiring) names only what it calls, mypy proves each caller keeps
to its role, the Store is exactly the union of the roles and the test-support protocol
(so a method nobody uses shows up here), each method is declared once, and the backends
implement every one of them with the declared parameters (no stub stands in for one).
The reads the cogs used to take from the store directly now come through tables/; they
answer the same."""

from __future__ import annotations

import ast
import inspect
from collections import Counter
from pathlib import Path
from typing import Generic, Protocol

from tablekit import AI, BOB, HOST, new_table

from store import Store
from store.ports import PORTS, TEST_SUPPORT, KernelStore, SupportStore
from store.postgres import PostgresStore
from store.sqlite import SqliteStore
from tables import TableService
from tables.leagues.rounds import LeagueService

ROOT = Path(__file__).resolve().parent.parent
#: the most methods one role may name (the leagues, the largest feature, name 13)
MAX_METHODS = 13


def methods(cls: type) -> set[str]:
    """The public methods a protocol names, its own and those it inherits from other protocols."""
    return {
        n
        for k in cls.__mro__
        if k not in (object, Protocol, Generic)
        for n, v in vars(k).items()
        if not n.startswith("_") and callable(v)
    }


def test_each_role_is_small_and_the_kernel_smallest_of_the_large():
    counts = {p.__name__: len(methods(p)) for p in PORTS}
    print("\n".join(f"{name}: {n}" for name, n in counts.items()))
    assert all(0 < n <= MAX_METHODS for n in counts.values()), counts
    assert counts["KernelStore"] <= 11, counts
    assert {"get_game", "commit", "update_game", "replay_source", "fill_snapshots"} <= methods(KernelStore)


def test_the_store_is_the_union_of_its_roles():
    """Every method of the Store belongs to a role or to the test support (with its reason),
    and the Store declares nothing of its own."""
    used = set().union(*(methods(p) for p in PORTS))
    public = methods(Store)
    print(f"Store public methods: {len(public)}; in a role: {len(public & used)}; test support: {len(TEST_SUPPORT)}")
    assert public == used | methods(SupportStore)
    assert not [n for n, v in vars(Store).items() if not n.startswith("_") and callable(v)]
    assert methods(SupportStore) == set(TEST_SUPPORT) and all(TEST_SUPPORT.values())
    assert not (set(TEST_SUPPORT) & used), "a method a role calls is not test support"


def _declared(folder: Path) -> Counter[str]:
    """How often each method is declared in the classes of a folder's modules."""
    found: Counter[str] = Counter()
    for f in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.update(n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return found


def test_each_method_is_written_once_and_the_base_holds_no_stub():
    """One declaration of each method (its signature and its promise) in store/ports/; no
    class of stubs beside it (store/base.py had 73 ``raise NotImplementedError``, one per
    method, for a class with one implementation)."""
    declared = _declared(ROOT / "store" / "ports")
    assert {n for n in declared if not n.startswith("_")} == methods(Store)
    assert not {n: k for n, k in declared.items() if k > 1}, "declared more than once"
    for f in sorted((ROOT / "store").glob("*.py")):
        assert "NotImplementedError" not in f.read_text(encoding="utf-8"), f.name
    base = ast.parse((ROOT / "store" / "base.py").read_text(encoding="utf-8"))
    defined = {n.name for n in ast.walk(base) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert defined <= {"__init__", "lock", "inject_crash", "_step"}, defined


def _parameters(fn) -> list[tuple[str, object, object]]:
    """A method's parameters by name, kind and default (annotations aside: the implementation
    may leave its types to the declaration)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def test_both_backends_implement_every_method_as_declared():
    for backend in (SqliteStore, PostgresStore):
        assert not getattr(backend, "__abstractmethods__", None), backend
        for name in methods(Store):
            declared = getattr(Store, name)
            implemented = getattr(backend, name, None)
            assert callable(implemented), f"{backend.__name__} lacks {name}"
            assert _parameters(implemented) == _parameters(declared), f"{backend.__name__}.{name}"
            assert inspect.iscoroutinefunction(implemented) == inspect.iscoroutinefunction(declared), name


def _names_store(path: Path) -> list[str]:
    """Where a module names the whole ``Store`` (rather than its role)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "Store"]


def test_tables_modules_type_their_store_as_their_role():
    """Only the wiring (the kernel hands the backend to the features, the facade hands
    it to bot.py and tools) names the whole Store; a feature names its role, so mypy
    proves it calls nothing else."""
    wiring = {"core/kernel.py", "service.py", "seeing/live.py"}  # live.py: open_database, for python -m web
    modules = {f.relative_to(ROOT / "tables").as_posix(): f for f in sorted((ROOT / "tables").rglob("*.py"))}
    assert len(modules) > 40, "every module under tables/, its sub-packages too"
    bad = {name: _names_store(f) for name, f in modules.items() if name not in wiring}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"tables/ modules typed with the whole Store: {bad}"
    assert _names_store(ROOT / "tables" / "core" / "kernel.py")  # the check sees the wiring


async def test_the_reads_the_cogs_need_come_through_tables(store):
    service = TableService(store)
    # structurally (runtime_checkable: names only; mypy checks types)
    assert isinstance(store, KernelStore) and isinstance(store, Store)
    await service.check()
    row = await new_table(store)
    assert await service.last_ended(row.channel_id) is None
    await service.lobby(row.id, HOST, "start")
    for _ in range(6):
        loaded = await service.load(row.id)
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(row.id, loaded.row.user_of(seat), AI, seat=seat)
    total = await store.count_actions(row.id)
    assert total >= 6 and await service.count_actions(row.id) == total
    everything = await store.actions(row.id, limit=total)
    assert [a.id for a in await service.actions(row.id, limit=total)] == [a.id for a in everything]
    assert [a.id for a in await service.actions(row.id, limit=2, offset=1)] == [a.id for a in everything[1:3]]
    assert [a.id for a in await service.recent_actions(row.id, 3)] == [a.id for a in everything[-3:]]
    assert await service.last_ended(row.channel_id) is None  # still running
    await service.abandon(row.channel_id, HOST)
    ended = await service.last_ended(row.channel_id)
    assert ended is not None and ended.id == row.id and ended.status == "abandoned"
    assert await service.vote(1) is None and await service.vote(1 << 70) is None  # forged ids: no vote, no error
    tokens = service.web_sessions
    assert await tokens.link_token(BOB, None)


async def test_campaigns_stats_and_leagues_come_through_tables(store):
    service = TableService(store)
    camp = await service.create_campaign(
        guild_id=1, game_id="thunder_road", name="Spring", points=[3, 1], created_by=HOST, story={}
    )
    community = service.community
    assert [c.name for c in await community.server_campaigns(1)] == ["Spring"]
    assert await community.server_campaigns(None) == []
    named = await community.campaign(1, "Spring")
    assert named is not None and named.id == camp.id
    assert await community.campaign(2, "Spring") is None  # another server's
    assert (await community.campaign_by_id(camp.id)).name == "Spring"
    assert await community.campaign_by_id(1 << 70) is None
    assert await community.campaign_standings(camp.id) == []
    assert await community.stats(1) == await store.stats(1)
    assert await community.ratings(1, "thunder_road") == await store.ratings(1, "thunder_road")

    leagues = LeagueService(service)
    assert await leagues.of_guild(1) == [] and await leagues.of_guild(None) == []
    lg = await leagues.create(
        guild_id=1, channel_id=5, game="armor_clash", name="Open", format="pods", created_by=HOST,
        rounds=2, seats=2, options={"scenario": "duel"},
    )  # fmt: skip
    assert [r.id for r in await leagues.of_guild(1)] == [lg.id]
    assert [r.id for r in await leagues.active()] == [lg.id]
    await leagues.cancel(lg.id)
    assert await leagues.active() == []

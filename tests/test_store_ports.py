"""The store's narrow interfaces (store/ports.py): each role (the kernel, each feature
of tables/, the bot's wiring) names only what it calls, mypy proves each caller keeps
to its role, and every public method of the Store belongs to a role or to the explicit
test-support list, so a method nobody uses shows up here.  The reads the cogs used to
take from the store directly now come through tables/; they answer the same."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from tablekit import AI, BOB, HOST, new_table

from store import Store
from store.community import SqlStore
from store.ports import PORTS, TEST_SUPPORT, KernelStore
from store.postgres import PostgresStore
from store.sqlite import SqliteStore
from tables import TableService
from tables.leagues import LeagueService

ROOT = Path(__file__).resolve().parent.parent
#: the most methods one role may name (the leagues, the largest feature, name 13)
MAX_METHODS = 13


def methods(cls: type) -> set[str]:
    return {n for n, v in vars(cls).items() if not n.startswith("_") and callable(v)}


def store_methods() -> set[str]:
    return {n for n in dir(Store) if not n.startswith("_") and callable(getattr(Store, n))}


def test_each_role_is_small_and_the_kernel_smallest_of_the_large():
    counts = {p.__name__: len(methods(p)) for p in PORTS}
    print("\n".join(f"{name}: {n}" for name, n in counts.items()))
    assert all(0 < n <= MAX_METHODS for n in counts.values()), counts
    assert counts["KernelStore"] <= 11, counts
    assert {"get_game", "commit", "update_game", "replay_source", "fill_snapshots"} <= methods(KernelStore)


def test_every_store_method_has_a_role_or_a_reason():
    used = set().union(*(methods(p) for p in PORTS))
    public = store_methods()
    print(f"Store public methods: {len(public)}; in a role: {len(public & used)}; test support: {len(TEST_SUPPORT)}")
    orphans = public - used - set(TEST_SUPPORT)
    assert not orphans, f"Store methods no role calls (remove them, or list them in TEST_SUPPORT): {sorted(orphans)}"
    assert not (used - public), f"roles name methods the Store lacks: {sorted(used - public)}"
    assert not (set(TEST_SUPPORT) & used), "a method a role calls is not test support"
    assert set(TEST_SUPPORT) <= public and all(TEST_SUPPORT.values())


def test_each_role_matches_the_store_and_both_backends_have_it():
    for port in PORTS:
        for name in methods(port):
            if name != "lock":  # an asynccontextmanager: the role names what it returns
                want = inspect.signature(getattr(port, name))
                assert inspect.signature(getattr(Store, name)) == want, f"{port.__name__}.{name}"
            for backend in (SqlStore, SqliteStore, PostgresStore):
                assert callable(getattr(backend, name, None)), f"{backend.__name__} lacks {name}"


def _names_store(path: Path) -> list[str]:
    """Where a module names the whole ``Store`` (rather than its role)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "Store"]


def test_tables_modules_type_their_store_as_their_role():
    """Only the wiring (the kernel hands the backend to the features, the facade hands
    it to bot.py and tools) names the whole Store; a feature names its role, so mypy
    proves it calls nothing else."""
    wiring = {"kernel.py", "service.py", "live.py"}  # live.py: open_database, for python -m web
    bad = {f.name: _names_store(f) for f in sorted((ROOT / "tables").glob("*.py")) if f.name not in wiring}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"tables/ modules typed with the whole Store: {bad}"
    assert _names_store(ROOT / "tables" / "kernel.py")  # the check sees the wiring


async def test_the_reads_the_cogs_need_come_through_tables(store):
    service = TableService(store)
    assert isinstance(store, KernelStore)  # structurally (runtime_checkable: names only; mypy checks types)
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
    assert [c.name for c in await community.campaigns(1)] == ["Spring"]
    assert await community.campaigns(None) == []
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

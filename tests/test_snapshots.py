"""Snapshots: a rebuildable cache of a table's state in front of the replay from
the seed (tables/core/snapshots.py).  Whatever the cache holds, undo and ``/game
replay <turn>`` give exactly what a full replay of the log from the seed gives.
Runs on every store backend."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from store import ActionRow, InjectedCrash, NewSnapshot, Seat
from tables import TableService
from tables.core.snapshots import snapshot_key

HOST = 7
EVERY = 10  # snapshot interval for these tests (the default is larger)


def survive(seed: int):
    """A picker that plays random legal moves that do not end the game (a long game)."""
    rnd = random.Random(seed)

    def pick(game, state, seat, legal):
        options = list(legal)
        rnd.shuffle(options)
        for action in options:
            after, _ = game.apply(state, seat, action)
            if game.outcome(after) is None:
                return action
        return options[0]

    return pick


async def long_table(store, steps: int, game: str = "armor_clash", seed: int = 5):
    """A running table with the host as its only human (an undo needs nobody's consent;
    AI seats fill the game's minimum) and at least ``steps`` logged actions."""
    service = TableService(store)
    service.snapshot_every = EVERY
    lo, _ = get_game(game).seat_range({})
    row = await store.create_game(
        guild_id=1,
        channel_id=random.randrange(1, 1 << 40),
        game=game,
        host_id=HOST,
        options={},
        seed=seed,
        seats=[Seat("p1", HOST)] + [Seat(f"p{i}", None) for i in range(2, lo + 1)],
    )
    await service.lobby(row.id, HOST, "start")
    pick = survive(seed)
    while await store.count_actions(row.id) < steps:
        await service.act(row.id, HOST, pick)
        assert (await store.get_game(row.id)).status == "active", "the game ended early: pick another seed"
    return service, row.id


async def full_replay(store, gid: int, n: int | None = None) -> str:
    """The truth: the state after the first ``n`` logged actions, replayed from the seed."""
    row = await store.get_game(gid)
    log = await store.actions(gid, limit=1_000_000)
    game = get_game(row.game)
    state = game.replay([s.seat for s in row.seats], row.options, row.seed, [(a.seat, a.action) for a in log[:n]])
    return state.model_dump_json()


async def test_snapshots_written_with_the_turns_are_the_replayed_states(store):
    service, gid = await long_table(store, 60)
    row = await store.get_game(gid)
    game = get_game(row.game)
    snaps = await store.snapshots(gid)
    total = await store.count_actions(gid)
    # about one every EVERY log positions (a turn may log a few actions at once)
    assert len(snaps) >= total // EVERY - 1
    assert [s.position for s in snaps] == sorted({s.position for s in snaps})
    log = await store.actions(gid, limit=1_000_000)
    for snap in snaps:
        assert snap.key == snapshot_key(game)
        assert log[snap.position - 1].id == snap.action_id, "a snapshot's position counts the log up to its action"
        assert snap.state_json == await full_replay(store, gid, snap.position)
    # and the table's own stored state is the replay of the whole log
    assert game.load(row.state_json).model_dump_json() == await full_replay(store, gid)


async def test_replay_to_any_turn_equals_the_full_replay_from_the_seed(store):
    service, gid = await long_table(store, 45)
    row = await store.get_game(gid)
    total = await store.count_actions(gid)
    assert await store.snapshots(gid)
    for turn in [0, 1, EVERY - 1, EVERY, EVERY + 1, 2 * EVERY + 3, total - 1, total, total + 50, None]:
        game, state, n, count = await service.replay_state(row, turn)
        assert count == total
        assert n == (total if turn is None else min(turn, total))
        assert state.model_dump_json() == await full_replay(store, gid, n), f"turn {turn}"


async def test_undo_from_a_snapshot_equals_the_full_replay_and_drops_what_it_reverts(store):
    service, gid = await long_table(store, 50)
    log = await store.actions(gid, limit=1_000_000)
    cut = max(i for i, a in enumerate(log) if a.user_id == HOST)
    snaps = await store.snapshots(gid)
    assert any(s.position <= cut for s in snaps), "the undo starts from a snapshot"
    raw = await store.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)
    sources = []
    read = store.replay_source

    async def spy(*args, **kw):
        sources.append(await read(*args, **kw))
        return sources[-1]

    store.replay_source = spy
    result = await service.undo(gid, HOST)
    del store.replay_source
    assert len(sources) == 1 and sources[0].snapshot is not None, "the undo started from a snapshot"
    assert sources[0].start > 0 and len(sources[0].actions) == len(log) - sources[0].start, "not from the seed"

    assert result.done is not None
    assert result.done.state.model_dump_json() == await full_replay(store, gid, cut)
    assert (await store.get_game(gid)).state_json == result.done.state.model_dump_json()
    assert await store.count_actions(gid) == cut
    # the log stays append-only: the taken-back actions are still stored, marked reverted
    assert await store.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid) == raw
    # snapshots at or after the first reverted action are gone, the earlier ones stay
    reverted = log[cut].id
    left = await store.snapshots(gid)
    assert [s.action_id for s in left] == [s.action_id for s in snaps if s.action_id < reverted]
    # play on past the cut: new snapshots again equal the replay
    pick = survive(99)
    while await store.count_actions(gid) < cut + 3 * EVERY:
        await service.act(gid, HOST, pick)
    for snap in await store.snapshots(gid):
        assert snap.state_json == await full_replay(store, gid, snap.position)
    # and a second undo still matches the truth
    log = await store.actions(gid, limit=1_000_000)
    cut = max(i for i, a in enumerate(log) if a.user_id == HOST)
    result = await service.undo(gid, HOST)
    assert result.done.state.model_dump_json() == await full_replay(store, gid, cut)


async def test_a_damaged_or_foreign_snapshot_is_never_trusted(store):
    service, gid = await long_table(store, 40)
    row = await store.get_game(gid)
    snaps = await store.snapshots(gid)
    assert len(snaps) >= 2
    # every snapshot holds a wrong state: unreadable, or the state of another position
    await store.sql("UPDATE snapshots SET state_json=? WHERE action_id=?", "{not json", snaps[-1].action_id)
    for s in snaps[:-1]:
        await store.sql("UPDATE snapshots SET state_json=? WHERE action_id=?", snaps[-1].state_json, s.action_id)
    total = await store.count_actions(gid)
    _, state, n, _ = await service.replay_state(row, total)
    assert state.model_dump_json() == await full_replay(store, gid, total)
    # the bad cache was dropped and rebuilt from the seed on the way
    rebuilt = await store.snapshots(gid)
    assert rebuilt
    for snap in rebuilt:
        assert snap.state_json == await full_replay(store, gid, snap.position)

    # a snapshot of another build (engine or schema version) is never used
    await store.sql("UPDATE snapshots SET key=?", "armor_clash/s0/olderbuild")
    await store.sql("UPDATE snapshots SET state_json=?", "{}")
    log = await store.actions(gid, limit=1_000_000)
    cut = max(i for i, a in enumerate(log) if a.user_id == HOST)
    result = await service.undo(gid, HOST)
    assert result.done.state.model_dump_json() == await full_replay(store, gid, cut)
    # the rebuild from the seed cached this build's states and dropped the other build's
    assert {s.key for s in await store.snapshots(gid)} == {snapshot_key(get_game("armor_clash"))}


async def test_snapshots_of_an_older_build_are_dropped_when_the_table_caches_again(store):
    row = await store.create_game(
        guild_id=1, channel_id=78, game="armor_clash", host_id=HOST, options={}, seed=1, seats=[Seat("p1", HOST)]
    )
    v = await store.update_game(
        row.id, row.version, actions=[ActionRow("p1", HOST, {"k": 0})], snapshot=NewSnapshot("old", "{}")
    )
    other = await store.create_game(
        guild_id=1, channel_id=79, game="armor_clash", host_id=HOST, options={}, seed=1, seats=[Seat("p1", HOST)]
    )
    await store.update_game(
        other.id, other.version, actions=[ActionRow("p1", HOST, {"k": 0})], snapshot=NewSnapshot("old", "{}")
    )
    await store.update_game(row.id, v, actions=[ActionRow("p1", HOST, {"k": 1})], snapshot=NewSnapshot("new", "{}"))
    assert [(s.position, s.key) for s in await store.snapshots(row.id)] == [(2, "new")]
    assert [s.key for s in await store.snapshots(other.id)] == ["old"], "another table's cache is its own"


async def test_the_cache_rebuilds_itself(store):
    service, gid = await long_table(store, 45)
    row = await store.get_game(gid)
    written = [(s.action_id, s.position, s.state_json) for s in await store.snapshots(gid)]
    assert written
    assert await store.drop_snapshots(gid) == len(written)
    _, state, n, _ = await service.replay_state(row, None)
    assert state.model_dump_json() == await full_replay(store, gid)
    refilled = {(s.action_id, s.position): s.state_json for s in await store.snapshots(gid)}
    for aid, pos, state_json in written:
        if pos % EVERY == 0:  # a rebuild caches every EVERY positions
            assert refilled[(aid, pos)] == state_json
    for (_, pos), state_json in refilled.items():
        assert state_json == await full_replay(store, gid, pos)


async def test_a_snapshot_lands_with_its_turn_or_not_at_all(store):
    service, gid = await long_table(store, 8)
    pick = survive(3)
    crashed = False
    for _ in range(3 * EVERY):
        before = (await store.count_actions(gid), len(await store.snapshots(gid)), (await store.get_game(gid)).version)
        store.inject_crash("snapshot")
        try:
            await service.act(gid, HOST, pick)
        except InjectedCrash:
            crashed = True
            after = (
                await store.count_actions(gid),
                len(await store.snapshots(gid)),
                (await store.get_game(gid)).version,
            )
            assert after == before, "a turn whose snapshot failed left nothing behind"
            break
        finally:
            store.inject_crash(None)
    assert crashed, "some turn carried a snapshot"
    await service.act(gid, HOST, pick)  # the same turn again, whole
    assert len(await store.snapshots(gid)) == before[1] + 1


async def test_store_keeps_the_cache_consistent_with_the_log(store):
    row = await store.create_game(
        guild_id=1, channel_id=77, game="armor_clash", host_id=HOST, options={}, seed=1, seats=[Seat("p1", HOST)]
    )
    v = row.version
    for i in range(4):  # one action per turn, a snapshot after each
        v = await store.update_game(
            row.id, v, actions=[ActionRow("p1", HOST, {"k": i})], snapshot=NewSnapshot("k", f'{{"i":{i}}}')
        )
    snaps = await store.snapshots(row.id)
    assert [s.position for s in snaps] == [1, 2, 3, 4]
    log = await store.actions(row.id)
    # a stale fill (the table moved on) writes nothing
    assert not await store.fill_snapshots(row.id, v - 1, [NewSnapshot("k", "{}", log[0].id)])
    # reverting the last two drops their snapshots and keeps the log
    v = await store.update_game(row.id, v, revert=[log[2].id, log[3].id], by_user=HOST)
    assert [s.position for s in await store.snapshots(row.id)] == [1, 2]
    # a fill for a reverted action is refused by the store
    assert await store.fill_snapshots(row.id, v, [NewSnapshot("k", "{}", log[3].id)])
    assert [s.position for s in await store.snapshots(row.id)] == [1, 2]
    assert await store.get_game(row.id) is not None and (await store.get_game(row.id)).version == v
    # the next action's snapshot counts only the effective log
    v = await store.update_game(row.id, v, actions=[ActionRow("p1", HOST, {"k": 9})], snapshot=NewSnapshot("k", "{}"))
    snaps = await store.snapshots(row.id)
    assert snaps[-1].position == 3
    src = await store.replay_source(row.id, "k", user_id=HOST)
    assert src.snapshot.position == 2 and [a.action for a in src.actions] == [{"k": 9}] and src.cut == 0
    src = await store.replay_source(row.id, "k", turn=1)
    assert src.snapshot.position == 1 and src.actions == [] and src.total == 3
    src = await store.replay_source(row.id, None, turn=2)
    assert src.snapshot is None and [a.action for a in src.actions] == [{"k": 0}, {"k": 1}]
    assert (await store.replay_source(row.id, "k", user_id=12345)).cut is None


@pytest.mark.parametrize(
    ("game", "steps", "seed"), [("thunder_road", 40, 3), ("automobile", 40, 3), ("city_of_fury", 12, 1)]
)
async def test_every_game_undoes_from_snapshots_to_the_truth(store, game, steps, seed):
    service, gid = await long_table(store, steps, game=game, seed=seed)
    assert await store.snapshots(gid)
    log = await store.actions(gid, limit=1_000_000)
    cut = max(i for i, a in enumerate(log) if a.user_id == HOST)
    result = await service.undo(gid, HOST)
    assert result.done is not None
    assert result.done.state.model_dump_json() == await full_replay(store, gid, cut)

"""The outbox without Discord (issue 19 item 5): what a committed change owes its
channel is written in the change's own transaction, only a table's newest board is
owed, a delivery is claimed by one process at a time (also two services on one
database), and the truth about a commit whose answer was lost (item 4).  Runs on
every store backend."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import Clock, make_store

from store import CommitUnknown, InjectedCrash, Seat, landed
from tables import TableService, TurnRefused
from tables.play.delivery import BACKOFF, backoff, delivery_nonce

HOST, BOB = 7, 8
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


@pytest.fixture
async def clocked(store_backend, tmp_path):
    """(store, clock): a store whose time is the test's (leases and backoff are stored times)."""
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield s, clock
    await s.close()


async def _running(service: TableService) -> int:
    row = await service.store.create_game(
        guild_id=1,
        channel_id=random.randrange(1, 1 << 40),
        game="thunder_road",
        host_id=HOST,
        options={},
        seed=11,
        seats=[Seat("p1", HOST), Seat("p2", BOB)],
    )
    await service.lobby(row.id, HOST, "start")
    return row.id


async def _move(service: TableService, gid: int):
    loaded = await service.load(gid)
    seat = loaded.game.to_act(loaded.state)[0]
    return await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)


async def test_a_change_and_what_it_owes_land_together_or_not_at_all(clocked):
    store, clock = clocked
    service = TableService(store, clock=clock)
    gid = await _running(service)
    started = await store.get_game(gid)
    owed = await store.outbox(gid)
    assert owed is not None and owed.version == started.version and owed.lease_owner == service.owner
    for step in ("actions", "outbox", "commit"):
        store.inject_crash(step)
        with pytest.raises(InjectedCrash):
            await _move(service, gid)
        store.inject_crash(None)
        assert (await store.get_game(gid)).version == started.version, step
        assert (await store.outbox(gid)).version == started.version, f"{step}: nothing owed for an unsaved move"
    done = await _move(service, gid)
    owed = await store.outbox(gid)
    assert owed.version == done.row.version and owed.since == started.version, "the start's board is still owed"
    assert owed.lease_until == clock() + service.lease and owed.due_at == owed.lease_until


async def test_only_the_newest_board_is_owed_and_its_notes_accumulate(clocked):
    store, clock = clocked
    service = TableService(store, clock=clock)
    gid = await _running(service)
    first = (await store.outbox(gid)).version
    await _move(service, gid)
    result, _ = await service.timeout(gid, (await store.get_game(gid)).version, policy="ai")
    owed = await store.outbox(gid)
    assert (owed.version, owed.since) == (result.row.version, first)
    assert [n["note"] for n in owed.notes] == ["timeout"] and owed.notes[0]["seats"]
    await service.delivered(gid, first)  # an older board confirmed late: the newer one stays owed
    assert (await store.outbox(gid)).version == result.row.version
    await service.delivered(gid, result.row.version)
    assert await store.outbox(gid) is None


async def test_a_delivery_is_claimed_once_and_tried_again_after_a_growing_wait(clocked):
    store, clock = clocked
    a, b = TableService(store, clock=clock), TableService(store, clock=clock)
    gid = await _running(a)
    assert await a.due_deliveries(clock()) == [], "the committing process holds the lease"
    clock.now += a.lease
    due = await b.due_deliveries(clock())
    assert [d.game_id for d in due] == [gid]
    got = await asyncio.gather(a.claim_delivery(due[0], clock()), b.claim_delivery(due[0], clock()))
    assert sum(d is not None for d in got) == 1, "one process takes it"
    taker = a if got[0] is not None else b
    delivery = got[0] or got[1]
    assert delivery.result.row.id == gid and delivery.nonce == delivery_nonce(gid, delivery.owed.version)
    assert await a.due_deliveries(clock()) == [], "leased"
    await taker.delivery_failed(gid, delivery.owed.version)
    owed = await store.outbox(gid)
    assert owed.lease_owner is None and owed.due_at == clock() + BACKOFF[0] and owed.attempts == 1
    assert [backoff(n) for n in (1, 2, 3, 10)] == [5.0, 10.0, 20.0, 120.0]
    clock.now += BACKOFF[0]
    again = await a.claim_delivery((await a.due_deliveries(clock()))[0], clock())
    assert again is not None and again.owed.attempts == 2
    await a.delivery_failed(gid, again.owed.version)
    assert (await store.outbox(gid)).due_at == clock() + BACKOFF[1]


async def test_two_services_on_one_database_claim_a_delivery_once(store_backend, tmp_path):
    """Two processes (PostgreSQL: two connection pools) race for every due delivery."""
    if store_backend != "postgresql":
        pytest.skip("one SQLite file has one process")
    clock = Clock()
    first = await make_store(store_backend, tmp_path, clock=clock)
    second = await make_store(store_backend, tmp_path, clock=clock)
    try:
        a, b = TableService(first, clock=clock), TableService(second, clock=clock)
        tables = [await _running(a) for _ in range(6)]
        clock.now += a.lease
        taken: list[int] = []
        for _ in range(3):
            due_a, due_b = await asyncio.gather(a.due_deliveries(clock()), b.due_deliveries(clock()))
            got = await asyncio.gather(
                *[a.claim_delivery(d, clock()) for d in due_a], *[b.claim_delivery(d, clock()) for d in due_b]
            )
            for d in got:
                if d is not None:
                    taken.append(d.owed.game_id)
                    await (a if d.owed.lease_owner == a.owner else b).delivered(d.owed.game_id, d.owed.version)
        assert sorted(taken) == sorted(tables), f"each delivery taken exactly once: {taken}"
        assert await first.due_outbox(clock.now + 1e6) == []
    finally:
        await first.close()
        await second.close()


async def test_a_superseded_board_is_dropped_not_delivered(clocked):
    store, clock = clocked
    service = TableService(store, clock=clock)
    gid = await _running(service)
    row = await store.get_game(gid)
    await store.update_game(gid, row.version, status="abandoned", to_act=[])  # a change owing no board
    clock.now += service.lease
    due = await service.due_deliveries(clock())
    assert len(due) == 1 and await service.claim_delivery(due[0], clock()) is None
    assert await store.outbox(gid) is None


async def test_abandoning_a_running_table_owes_its_channel_a_notice(store):
    service = TableService(store, clock=Clock())
    gid = await _running(service)
    row = await store.get_game(gid)
    await service.abandon(row.channel_id, HOST)
    owed = await store.outbox(gid)
    assert owed.kind == "notice" and owed.notes == [{"note": "abandoned", "user": HOST}]


async def test_a_commit_whose_answer_is_lost_is_unknown_to_the_player_but_owed_to_the_channel(store):
    """The COMMIT lands and its answer is lost: the caller cannot know; the outbox,
    written in the same transaction, shows the channel the truth."""
    service = TableService(store, clock=Clock())
    gid = await _running(service)
    version = (await store.get_game(gid)).version
    store.inject_crash("committed")
    with pytest.raises(CommitUnknown):
        await _move(service, gid)
    state = landed()
    assert state is not None and state[:2] == ("unknown", gid)
    assert (await store.get_game(gid)).version == version + 1, "it did land"
    assert (await store.outbox(gid)).version == version + 1, "and its board is owed"
    done = await _move(service, gid)
    assert landed() == ("committed", gid, done.row.version)


async def test_a_refused_move_owes_nothing(store):
    service = TableService(store, clock=Clock())
    gid = await _running(service)
    before = await store.outbox(gid)
    with pytest.raises(TurnRefused):
        await service.act(gid, 999, AI)
    assert await store.outbox(gid) == before


# ---------------------------------------- issue 28 item 12: a vote's question is owed too
async def _open_votes(service: TableService, n: int) -> list[int]:
    from store import ChangeSet, NewVote

    out = []
    for _ in range(n):
        gid = await _running(service)
        row = await service.store.get_game(gid)
        vote = NewVote(gid, "handover", {"seat": "p2", "owner": BOB, "needed": 1}, row.version, [HOST], HOST)
        done = await service.store.commit(ChangeSet(new_votes=[vote]))  # no messenger: the scheduler posts it
        out.append(done.vote_ids[0])
    return out


async def test_a_vote_and_its_question_land_together_or_not_at_all(store_backend, tmp_path):
    from store import ChangeSet, NewVote

    clock = Clock()
    store = await make_store(store_backend, tmp_path, clock=clock)
    try:
        service = TableService(store, clock=clock)
        gid = await _running(service)
        row = await store.get_game(gid)
        vote = NewVote(gid, "handover", {"seat": "p2", "owner": BOB, "needed": 1}, row.version, [HOST], HOST)
        store.inject_crash("commit")  # after the vote and its question are written, before COMMIT
        with pytest.raises(InjectedCrash):
            await store.commit(ChangeSet(new_votes=[vote]))
        assert await store.due_messages(clock.now + 1e6) == [] and await store.open_votes(gid) == []
        opened = await service.kernel.write(ChangeSet(new_votes=[vote]))  # this process posts it at once
        assert await service.due_messages(clock.now) == [], "the opener holds its lease"
        [owed] = await service.due_messages(clock.now + service.lease)
        assert (owed.key, owed.kind, owed.ref) == (f"vote:{opened.vote_ids[0]}", "vote", opened.vote_ids[0])
    finally:
        await store.close()


async def test_two_services_on_one_database_claim_a_vote_question_once(store_backend, tmp_path):
    """Two processes (PostgreSQL: two connection pools) race for every owed question."""
    if store_backend != "postgresql":
        pytest.skip("one SQLite file has one process")
    clock = Clock()
    first = await make_store(store_backend, tmp_path, clock=clock)
    second = await make_store(store_backend, tmp_path, clock=clock)
    try:
        a, b = TableService(first, clock=clock), TableService(second, clock=clock)
        votes = await _open_votes(a, 5)
        taken: list[int] = []
        for _ in range(3):
            due_a, due_b = await asyncio.gather(a.due_messages(clock()), b.due_messages(clock()))
            got = await asyncio.gather(
                *[a.claim_message(m, clock()) for m in due_a], *[b.claim_message(m, clock()) for m in due_b]
            )
            for m in got:
                if m is not None:
                    taken.append(m.ref)
                    await (a if m.lease_owner == a.owner else b).message_done(m.key)
        assert sorted(taken) == sorted(votes), f"each question taken exactly once: {taken}"
        assert await first.due_messages(clock.now + 1e6) == []
    finally:
        await first.close()
        await second.close()


async def test_a_started_table_owes_each_seated_member_their_hand_and_forget_drops_it(store_backend, tmp_path):
    """Automobile deals hands: its start owes each human seat one private message (issue 28
    item 12), claimed like a board; /privacy forget deletes the unsent ones of that member."""
    clock = Clock()
    store = await make_store(store_backend, tmp_path, clock=clock)
    try:
        service = TableService(store, clock=clock)
        row = await store.create_game(
            guild_id=1,
            channel_id=77,
            game="automobile",
            host_id=HOST,
            options={},
            seed=3,
            seats=[Seat("p1", HOST), Seat("p2", BOB), Seat("p3", None)],
        )
        started = await service.lobby(row.id, HOST, "start")
        version = (await store.get_game(row.id)).version
        owed = await service.due_messages(clock.now + service.lease)
        assert sorted((m.key, m.kind) for m in owed) == sorted(
            (f"dm:{row.id}:{version}:{u}", "hand") for u in (HOST, BOB)
        ), "one hand per human seat, none for the AI's"
        assert started is not None
        await service.abandon(77, HOST)  # Discord still down: the hands are still owed
        await service.forget(BOB)
        left = await service.due_messages(clock.now + service.lease)
        assert [m.ref for m in left] == [HOST], "the forgotten member's unsent hand is gone"
    finally:
        await store.close()

"""The store's write API: one change set, one transaction, compare-and-swap on
every row it touches; reads from one snapshot.  Runs on every backend
(``store`` fixture in conftest)."""

from __future__ import annotations

import asyncio
import json

import pytest
from tablekit import open_vote

from store import (
    ActionRow,
    CampaignChange,
    ChangeSet,
    GameChange,
    InjectedCrash,
    NewVote,
    ResultRow,
    Seat,
    VersionConflict,
    VoteChange,
)


async def _table(store, channel=10, seats=(("p1", 5), ("p2", 6)), status="active"):
    return await store.create_game(
        guild_id=1,
        channel_id=channel,
        game="thunder_road",
        host_id=5,
        options={},
        seed=7,
        seats=[Seat(s, u) for s, u in seats],
        status=status,
        state_json='{"n":0}',
    )


async def _snapshot(store, gid, cid, vid):
    row = await store.get_game(gid)
    camp = await store.campaign_by_id(cid)
    vote = await store.get_vote(vid)
    return (
        row.version,
        row.status,
        row.state_json,
        [(s.seat, s.user_id) for s in row.seats],
        row.to_act,
        [a.action for a in await store.actions(gid)],
        await store.stats(1),
        camp.progress,
        camp.version,
        (vote.yes, vote.status, vote.version),
    )


def _full_change(row, camp, vote) -> ChangeSet:
    return ChangeSet(
        game=GameChange(
            row.id,
            row.version,
            seats=[Seat("p1", 5), Seat("p2", None)],
            state_json='{"n":1}',
            status="finished",
            outcome={"winners": ["p1"]},
            to_act=[],
            actions=[ActionRow("p1", 5, {"kind": "a"}), ActionRow("p2", None, {"kind": "b"})],
            results=[ResultRow("p1", 5, 1, True)],
        ),
        campaigns=[CampaignChange(camp.id, camp.version, {"story": 2})],
        votes=[VoteChange(vote.id, vote.version, yes=[6], status="passed")],
        new_votes=[NewVote(row.id, "undo", {"user": 5}, row.version + 1, [6], 5)],
    )


@pytest.mark.parametrize("step", ["seats", "actions", "results", "campaigns", "votes", "commit"])
async def test_a_crash_at_any_step_writes_nothing(store, step):
    row = await _table(store)
    camp = await store.create_campaign(guild_id=1, game="thunder_road", name="c", points=[1], created_by=5)
    vote = await open_vote(
        store, game_id=row.id, kind="handover", payload={}, base_version=row.version, voters=[6], created_by=5
    )
    before = await _snapshot(store, row.id, camp.id, vote.id)
    store.inject_crash(step)
    with pytest.raises(InjectedCrash):
        await store.commit(_full_change(row, camp, vote))
    assert await _snapshot(store, row.id, camp.id, vote.id) == before, f"partial write after a crash at {step}"
    done = await store.commit(_full_change(row, camp, vote))  # the same change then goes through whole
    assert done.version == row.version + 1 and len(done.vote_ids) == 1
    after = await _snapshot(store, row.id, camp.id, vote.id)
    assert after[1] == "finished" and after[7] == {"story": 2} and after[9] == ([6], "passed", vote.version + 1)
    assert [s.won for s in await store.results_of_campaign(camp.id)] == []  # table not in the campaign
    assert (await store.stats(1))[0].wins == 1


@pytest.mark.parametrize("stale", ["game", "campaign", "vote"])
async def test_one_stale_part_refuses_the_whole_change(store, stale):
    row = await _table(store)
    camp = await store.create_campaign(guild_id=1, game="thunder_road", name="c", points=[1], created_by=5)
    vote = await open_vote(
        store, game_id=row.id, kind="handover", payload={}, base_version=row.version, voters=[6], created_by=5
    )
    # somebody else moved one of the three rows on first
    if stale == "game":
        await store.update_game(row.id, row.version, state_json='{"n":9}')
    elif stale == "campaign":
        await store.commit(ChangeSet(campaigns=[CampaignChange(camp.id, camp.version, {"other": 1})]))
    else:
        await store.commit(ChangeSet(votes=[VoteChange(vote.id, vote.version, yes=[6])]))
    before = await _snapshot(store, row.id, camp.id, vote.id)
    with pytest.raises(VersionConflict):
        await store.commit(_full_change(row, camp, vote))
    assert await _snapshot(store, row.id, camp.id, vote.id) == before


async def test_racing_ballots_exactly_one_wins(store):
    row = await _table(store)
    vote = await open_vote(
        store, game_id=row.id, kind="undo", payload={}, base_version=row.version, voters=[6, 7], created_by=5
    )
    results = await asyncio.gather(
        *[store.commit(ChangeSet(votes=[VoteChange(vote.id, vote.version, yes=[u])])) for u in (6, 7)],
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["Committed", "VersionConflict"]
    assert len((await store.get_vote(vote.id)).yes) == 1


async def test_reads_racing_writes_never_see_a_half_written_table(store):
    """1,000 reads against seat/state writes on one table: seats, state and
    version always belong together."""
    row = await _table(store, seats=[("p1", 5)])
    version, stop, tried, bad = row.version, False, 0, []

    async def writer():
        nonlocal version
        n = 0
        while not stop:
            n += 1
            seats = [Seat(f"p{i + 1}", 100 + i) for i in range(1 + n % 4)]
            state = json.dumps({"seats": len(seats), "version": version + 1})
            version = await store.update_game(row.id, version, seats=seats, state_json=state)

    async def reader():
        nonlocal tried
        for _ in range(250):
            got = await store.get_game(row.id)
            tried += 1
            state = json.loads(got.state_json)
            if got.version == row.version:
                continue
            if state != {"seats": len(got.seats), "version": got.version}:
                bad.append((got.version, len(got.seats), state))
            await asyncio.sleep(0)

    w = asyncio.create_task(writer())
    await asyncio.gather(*[reader() for _ in range(4)])
    stop = True
    await w
    print(f"reads racing writes: tried={tried} inconsistent={len(bad)} writes={version - row.version}")
    assert tried == 1000 and version - row.version > 10
    assert bad == []


async def test_latest_game_of_a_channel_by_status(store):
    first = await _table(store, channel=3)
    await store.update_game(first.id, first.version, status="finished")
    second = await _table(store, channel=3)
    await store.update_game(second.id, second.version, status="abandoned")
    assert (await store.latest_game(3, ("finished",))).id == first.id
    assert (await store.latest_game(3, ("finished", "abandoned"))).id == second.id
    assert await store.latest_game(4, ("finished",)) is None


async def test_a_reminder_is_claimed_once(store):
    row = await _table(store)
    claims = await asyncio.gather(
        *[store.mark_reminded(row.id, 1000.0 + i, expected_version=row.version, previous=None) for i in range(3)]
    )
    assert claims.count(True) == 1
    again = await store.get_game(row.id)
    assert again.version == row.version, "reminder bookkeeping leaves the table's version alone"
    assert not await store.mark_reminded(row.id, 2000.0, expected_version=row.version, previous=None)
    assert await store.mark_reminded(row.id, 2000.0, expected_version=row.version, previous=again.last_reminder_at)


async def test_quarantine_frees_the_channel_and_leaves_the_scheduler(store):
    row = await _table(store)
    await store.update_game(row.id, row.version, to_act=["p1"])
    assert [r.id for r in await store.waiting_tables()] == [row.id]
    await store.quarantine(row.id, "bad state")
    await store.quarantine(row.id, "bad state")  # twice is once
    assert await store.waiting_tables() == []
    assert await store.active_game(10) is None
    assert await store.quarantined() == [(row.id, "bad state")]
    assert (await _table(store)).id != row.id


async def test_a_lobby_is_created_with_its_seats_or_not_at_all(store):
    store.inject_crash("seats")
    with pytest.raises(InjectedCrash):
        await _table(store, channel=5, status="lobby")
    assert await store.count_games() == 0 and await store.active_game(5) is None
    row = await _table(store, channel=5, status="lobby")
    assert [s.seat for s in row.seats] == ["p1", "p2"]

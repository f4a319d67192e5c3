"""Votes (tables/play/votes.py) on every store backend: the deciding ballot and the undo
or hand-over it passes are one change; racing ballots both count."""

from __future__ import annotations

import asyncio

import pytest
from tablekit import AI, BOB, CAROL, HOST, all_or_nothing, new_table, play_until

from tables import TableService, TurnRefused


async def others_act_after(service, store, gid, who=(BOB, CAROL)):
    """Play until the host has acted and each of ``who`` decided after them (so an undo
    asks them: the players whose decisions it removes, tables/rules/undo_rule.py)."""
    for _ in range(5000):
        log = await store.actions(gid, limit=100_000)
        mine = [i for i, a in enumerate(log) if a.user_id == HOST]
        if mine and set(who) <= {a.user_id for a in log[mine[-1] :]}:
            return
        loaded = await service.load(gid)
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    raise AssertionError("nobody acted after the host")


async def test_a_deciding_ballot_and_the_undo_it_passes_are_one_change(store):
    service = TableService(store)
    row = await new_table(store, seats=[("p1", HOST), ("p2", BOB), ("p3", CAROL)])
    await service.lobby(row.id, HOST, "start")
    await others_act_after(service, store, row.id)
    opened = await service.undo(row.id, HOST)
    assert opened.vote is not None and sorted(opened.vote.voters) == [BOB, CAROL]
    vid = opened.vote.vote.id
    assert (await service.ballot(vid, BOB, True)).status == "counted"
    moves = await store.count_actions(row.id)

    async def after(res):
        assert res.status == "passed"
        assert await store.count_actions(row.id) < moves, "the host's last move and what followed are taken back"
        assert (await store.get_vote(vid)).status == "passed"

    await all_or_nothing(
        store, row.id, "ballot+undo", ["revert", "votes", "commit"], lambda: service.ballot(vid, CAROL, True), after
    )


async def test_racing_ballots_from_two_members_both_count(store):
    service = TableService(store)
    row = await new_table(store, seats=[("p1", HOST), ("p2", BOB), ("p3", CAROL), ("p4", 10)])
    await service.lobby(row.id, HOST, "start")
    await others_act_after(service, store, row.id, who=(BOB, CAROL, 10))  # three asked: two yes do not decide
    vote = (await service.undo(row.id, HOST)).vote.vote
    results = await asyncio.gather(service.ballot(vote.id, BOB, True), service.ballot(vote.id, CAROL, True))
    assert sorted(r.status for r in results) == ["counted", "counted"]
    assert sorted((await store.get_vote(vote.id)).yes) == [BOB, CAROL]


async def test_a_deciding_hand_over_ballot_and_its_ai_move_are_one_change(store):
    service = TableService(store)
    row = await new_table(store, seats=[("p1", HOST), ("p2", BOB), ("p3", CAROL)])
    await service.lobby(row.id, HOST, "start")
    loaded = await play_until(service, row.id, lambda ld: ld.game.to_act(ld.state) == ["p3"])
    with pytest.raises(TurnRefused) as err:  # carol is not keeping anybody waiting yet
        await service.handover(row.id, BOB, "p3", None, now=loaded.row.turn_started_at + 60)
    assert err.value.code == "seat_not_idle"
    opened = (await service.handover(row.id, BOB, "p3", None, now=loaded.row.turn_started_at + 12 * 3600 + 1)).vote
    assert opened.owner == CAROL and sorted(opened.voters) == [HOST, BOB] and opened.needed == 2
    vid = opened.vote.id
    assert (await service.ballot(vid, BOB, True)).status == "counted"
    moves = await store.count_actions(row.id)

    async def after(res):
        assert res.status == "passed"
        fresh = await store.get_game(row.id)
        assert fresh.user_of("p3") is None and await store.count_actions(row.id) > moves

    await all_or_nothing(
        store,
        row.id,
        "ballot+handover+ai",
        ["seats", "actions", "votes", "commit"],
        lambda: service.ballot(vid, HOST, True),
        after,
    )

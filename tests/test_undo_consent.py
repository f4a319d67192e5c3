"""Issue 20 item 6: an undo players can use (docs/rulings.md, "Undo"): consent is
asked only of the players whose decisions the undo removes, and the vote survives
moves; 2-4 players, both store backends."""

from __future__ import annotations

import pytest

from store import ActionRow, Seat
from tables import TableService, TurnRefused
from tables.rules.undo_rule import removed_players

HOST, BOB, CAROL, DAVE = 7, 8, 9, 10
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731
SEATS = [("p1", HOST), ("p2", BOB), ("p3", CAROL), ("p4", DAVE)]


async def _table(store, service, n):
    row = await store.create_game(
        guild_id=1,
        channel_id=1000 + n,
        game="thunder_road",
        host_id=HOST,
        options={},
        seed=11,
        seats=[Seat(s, u) for s, u in SEATS[:n]],
    )
    await service.lobby(row.id, HOST, "start")
    return row.id


async def _after_host(store, gid):
    """Members who decided after the host's last decision (None: the host never decided)."""
    log = await store.actions(gid, limit=100_000)
    mine = [i for i, a in enumerate(log) if a.user_id == HOST and a.by != "auto"]
    if not mine:
        return None
    return {a.user_id for a in log[mine[-1] + 1 :] if a.user_id not in (None, HOST) and a.by != "auto"}


async def _step(service, gid):
    loaded = await service.load(gid)
    seat = loaded.game.to_act(loaded.state)[0]
    await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    return seat


async def _play_until_after_host(service, store, gid, who: set[int]):
    """AI moves until exactly ``who`` decided after the host's last decision; returns the
    table's state before that decision of the host (what the undo must restore)."""
    before_host = None
    for _ in range(3000):
        after = await _after_host(store, gid)
        loaded = await service.load(gid)
        if after == who and loaded.game.to_act(loaded.state)[0] != "p1":
            return before_host
        if loaded.game.to_act(loaded.state)[0] == "p1":
            before_host = loaded.state.model_dump_json()
        await _step(service, gid)
    raise AssertionError("never reached")


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_only_the_players_whose_decisions_the_undo_removes_are_asked(store, players):
    service = TableService(store)
    gid = await _table(store, service, players)
    before = await _play_until_after_host(service, store, gid, {BOB})
    opened = await service.undo(gid, HOST)
    assert opened.vote is not None and opened.vote.voters == [BOB], "only Bob decided since"
    vid = opened.vote.vote.id
    for other in (CAROL, DAVE)[: players - 2]:
        with pytest.raises(TurnRefused) as err:
            await service.ballot(vid, other, True)
        assert err.value.code == "not_a_voter", "nothing of theirs is taken back: not asked"
    res = await service.ballot(vid, BOB, True)
    assert res.status == "passed"
    loaded = await service.load(gid)
    assert loaded.state.model_dump_json() == before, "back to the state before the host's decision"


async def test_the_vote_survives_moves_and_asks_whoever_decides_meanwhile(store):
    service = TableService(store)
    gid = await _table(store, service, 4)
    before = await _play_until_after_host(service, store, gid, {BOB})
    opened = await service.undo(gid, HOST)
    vid = opened.vote.vote.id
    # play goes on while the vote is open, until Carol has decided too (the host must not decide again)
    for _ in range(500):
        if await _after_host(store, gid) >= {BOB, CAROL}:
            break
        loaded = await service.load(gid)
        assert loaded.game.to_act(loaded.state)[0] != "p1", "the host would decide again first"
        await _step(service, gid)
    assert await _after_host(store, gid) == {BOB, CAROL}
    res = await service.ballot(vid, BOB, True)
    assert res.status == "counted" and res.waiting == [CAROL] and (res.yes, res.needed) == (1, 2)
    with pytest.raises(TurnRefused) as err:
        await service.ballot(vid, DAVE, True)
    assert err.value.code == "not_a_voter"
    res = await service.ballot(vid, CAROL, True)
    assert res.status == "passed", "the moves made meanwhile did not void it"
    assert (await service.load(gid)).state.model_dump_json() == before


async def test_one_refusal_among_those_asked_ends_it(store):
    service = TableService(store)
    gid = await _table(store, service, 3)
    await _play_until_after_host(service, store, gid, {BOB, CAROL})
    opened = await service.undo(gid, HOST)
    assert opened.vote.voters == [BOB, CAROL]
    version = (await store.get_game(gid)).version
    assert (await service.ballot(opened.vote.vote.id, CAROL, False)).status == "refused"
    assert (await store.get_game(gid)).version == version


async def test_the_vote_ends_when_the_mover_decides_again(store):
    service = TableService(store)
    gid = await _table(store, service, 2)
    await _play_until_after_host(service, store, gid, {BOB})
    opened = await service.undo(gid, HOST)
    vid = opened.vote.vote.id
    for _ in range(500):  # Bob finishes his turn, the host decides again
        if await _after_host(store, gid) == set():
            break
        await _step(service, gid)
    res = await service.ballot(vid, BOB, True)
    assert res.status == "expired" and res.reason == "decided_again"
    assert (await store.get_vote(vid)).status == "expired"


async def test_past_a_roll_with_only_the_movers_own_decisions_every_other_player_is_asked(store):
    service = TableService(store)
    gid = await _table(store, service, 3)
    for _ in range(3000):  # the host decides, a die is rolled, and it is still the host's turn
        loaded = await service.load(gid)
        seat = await _step(service, gid)
        after = await service.load(gid)
        if seat == "p1" and after.state.rng != loaded.state.rng and after.game.to_act(after.state)[0] == "p1":
            if await _after_host(store, gid) == set():
                break
    else:
        pytest.skip("no roll by the host in this seeded game")
    opened = await service.undo(gid, HOST)
    assert opened.vote is not None and opened.vote.voters == [BOB, CAROL]


def test_a_step_the_platform_took_for_a_player_asks_nobody():
    def row(user: int | None, by: str) -> ActionRow:
        r = ActionRow(seat="p2", user_id=user, action={})
        r.by = by
        return r

    tail = [row(HOST, "player"), row(BOB, "auto"), row(None, "ai"), row(CAROL, "player")]
    assert removed_players(tail, HOST) == [CAROL], "Bob's forced step is not his decision"
    assert removed_players(tail[:3], HOST) == []


async def test_undo_takes_back_the_last_decision_not_a_forced_step_after_it(store):
    """A forced single choice the platform took for the host after their decision is not
    the host's last decision: the undo goes back to before the decision itself."""
    service = TableService(store)
    gid = await _table(store, service, 2)
    before_act: list[tuple[int, str]] = []  # (last log id before a decision of the host, state)
    for _ in range(3000):
        log = await store.actions(gid, limit=100_000)
        mine = [a for a in log if a.user_id == HOST]
        if mine and mine[-1].by == "auto" and any(a.by == "player" for a in mine):
            break
        loaded = await service.load(gid)
        seat = loaded.game.to_act(loaded.state)[0]
        if seat == "p1":
            before_act.append((log[-1].id if log else 0, loaded.state.model_dump_json()))
        await _step(service, gid)
    else:
        raise AssertionError("the host never had a forced step")
    decision = [a for a in mine if a.by == "player"][-1]
    expected = [state for last, state in before_act if last < decision.id][-1]
    opened = await service.undo(gid, HOST)
    if opened.vote is not None:
        assert HOST not in opened.vote.voters
        for voter in opened.vote.voters:
            await service.ballot(opened.vote.vote.id, voter, True)
    loaded = await service.load(gid)
    assert loaded.state.model_dump_json() == expected, "back to before the host's decision, not its forced step"


async def test_a_passed_undo_vote_is_told_with_its_board_and_kept_in_the_log(store):
    """Issue 29 item 4: the passing ballot's change owes the channel a notice of what was
    taken back, at whose request and who agreed, and never pings the voter who decided
    it; the undo stays findable in the log (Store.undos), on both backends."""
    service = TableService(store)
    gid = await _table(store, service, 2)
    await _play_until_after_host(service, store, gid, {BOB})
    host_last = max(a.id for a in await store.actions(gid, limit=100_000) if a.user_id == HOST and a.by != "auto")
    taken = len([a for a in await store.actions(gid, limit=100_000) if a.id >= host_last])
    opened = await service.undo(gid, HOST)
    res = await service.ballot(opened.vote.vote.id, BOB, True)
    assert res.status == "passed" and res.result is not None
    assert res.result.notes == [{"note": "undone", "user": HOST, "steps": taken, "agreed": [BOB]}]
    assert res.result.by == BOB, "the ballot that decided it: its voter is not pinged by the board"
    (undo,) = await service.undos(gid)
    assert (undo.by_user, undo.steps, undo.first_action) == (HOST, taken, host_last)

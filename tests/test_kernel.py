"""The kernel (tables/core/kernel.py) on every store backend: a table that cannot be
loaded or fails validation is quarantined, an engine crash refuses the action and
keeps the table, a lost compare-and-swap writes nothing, the AI and forced choices."""

from __future__ import annotations

import pytest
from tablekit import AI, HOST, new_table, snapshot

from engine import get_game
from tables import TableService, TurnRefused


async def test_an_unloadable_table_is_quarantined_whatever_the_exception(store, monkeypatch):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    game = get_game("thunder_road")

    def broken_load(data):
        raise IndexError("list index out of range")

    monkeypatch.setattr(game, "load", broken_load)
    with pytest.raises(TurnRefused) as err:
        await service.act(row.id, HOST, AI)
    assert err.value.code == "corrupt"
    assert [q[0] for q in await store.quarantined()] == [row.id]
    assert "IndexError" in (await store.quarantined())[0][1]
    assert (await store.get_game(row.id)).status == "quarantined"
    assert await store.active_game(row.channel_id) is None, "the channel is free"
    assert await service.due(1e12) == [], "the scheduler skips it"


async def test_a_state_failing_validation_is_quarantined(store, monkeypatch):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    game = get_game("thunder_road")
    monkeypatch.setattr(game, "validate", lambda state: "speed -3 out of range", raising=False)
    with pytest.raises(TurnRefused) as err:
        await service.load(row.id)
    assert err.value.code == "corrupt"
    assert (await store.quarantined())[0][1] == "invalid state: speed -3 out of range"


async def test_an_action_that_crashes_the_engine_is_refused_and_the_table_stays(store, monkeypatch, caplog):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    before = await snapshot(store, row.id)
    game = get_game("thunder_road")
    real = game.apply

    def flaky(state, seat, action):
        raise KeyError("c,9")

    monkeypatch.setattr(game, "apply", flaky)
    loaded = await service.load(row.id)
    seat = loaded.game.to_act(loaded.state)[0]
    with pytest.raises(TurnRefused) as err:
        await service.act(row.id, loaded.row.user_of(seat), AI)
    assert err.value.code == "action_failed" and err.value.params == {"id": row.id}
    assert f"table {row.id}" in caplog.text
    assert await snapshot(store, row.id) == before, "nothing changed"
    assert await store.quarantined() == [], "a healthy table is not frozen by one bad path"
    monkeypatch.setattr(game, "apply", real)
    assert (await service.act(row.id, loaded.row.user_of(seat), AI)).row.version == before[0] + 1


async def test_a_lost_compare_and_swap_is_refused_as_stale_and_writes_nothing(store):
    """A turn decided on a version another call has moved past lands nowhere."""
    service = TableService(store)
    kernel = service.kernel
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    seen = await kernel.load(row.id)
    seat = seen.game.to_act(seen.state)[0]
    await service.act(row.id, seen.row.user_of(seat), AI, seat=seat)  # the table moves on
    before = await snapshot(store, row.id)
    state, entries, _ = kernel.advance(seen.row, seen.game, seen.state, seat, seen.row.user_of(seat), [AI])
    with pytest.raises(TurnRefused) as err:
        await kernel.save_turn(seen.row, seen.game, state, entries)
    assert err.value.code == "stale"
    assert await snapshot(store, row.id) == before


async def test_the_ai_plays_its_seats_and_a_forced_choice_is_logged_as_taken_by_the_platform(store):
    """run_ai moves every AI seat that is to act and takes a human decision only when it
    has exactly one legal choice (logged as "auto"); it stops at a real decision."""
    service = TableService(store)
    kernel = service.kernel
    row = await new_table(store, seats=[("p1", HOST), ("p2", None)])
    await service.lobby(row.id, HOST, "start")
    for _ in range(60):
        loaded = await kernel.load(row.id, statuses=("active", "finished"))
        game, state = loaded.game, loaded.state
        if game.outcome(state) is not None:
            break
        after, _ = game.apply(state, "p1", game.ai_action(state, "p1"))
        after, entries, events = kernel.run_ai(loaded.row, game, after)
        for e in entries:
            if e.user_id is None:
                assert e.seat == "p2"
            else:
                assert e.seat == "p1" and e.auto
        if game.outcome(after) is None:
            waiting = game.to_act(after)
            assert "p2" not in waiting
            assert all(len(game.legal_actions(after, s)) != 1 for s in waiting), "a forced choice was left"
        kernel.auto_forced = False
        plain, plain_entries, _ = kernel.run_ai(
            loaded.row, game, game.apply(state, "p1", game.ai_action(state, "p1"))[0]
        )
        kernel.auto_forced = True
        assert all(e.user_id is None for e in plain_entries)
        await service.act(row.id, HOST, AI)

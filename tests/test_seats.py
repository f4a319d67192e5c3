"""Seats (tables/play/seats.py) on every store backend: a hand-over and the AI move it
triggers, and a resignation, are each one change.  Undo and its consent:
tests/test_undo_consent.py and tests/test_snapshots.py."""

from __future__ import annotations

from tablekit import BOB, HOST, all_or_nothing, new_table, play_until

from tables import TableService


async def test_hand_over_and_the_ai_move_it_triggers_are_one_change(store):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    loaded = await play_until(service, row.id, lambda ld: ld.game.to_act(ld.state) == ["p2"])
    moves = await store.count_actions(row.id)

    async def after(res):
        fresh = await store.get_game(row.id)
        assert fresh.seats[1].user_id is None and "p2" not in fresh.to_act
        assert await store.count_actions(row.id) > moves, "the AI moved for p2 in the same change"

    await all_or_nothing(
        store,
        row.id,
        "handover+ai",
        ["seats", "actions", "commit"],
        lambda: service.handover(row.id, HOST, "p2", None),
        after,
    )
    assert loaded.row.version < (await store.get_game(row.id)).version


async def test_resign_is_one_change_without_dropping_the_lock(store):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    await play_until(service, row.id, lambda ld: ld.game.to_act(ld.state) == ["p2"])

    async def after(res):
        fresh = await store.get_game(row.id)
        assert fresh.user_of("p2") is None and "p2" not in fresh.to_act

    await all_or_nothing(
        store, row.id, "resign", ["seats", "actions", "commit"], lambda: service.resign(row.id, BOB), after
    )

"""The lobby (tables/play/lobby.py) on every store backend: opening, joining, starting,
abandoning.  Its limits and expiry: tests/test_limits.py."""

from __future__ import annotations

import pytest
from tablekit import AI, BOB, CAROL, HOST, snapshot

from engine import get_game
from store import Seat
from tables import TableService, TurnRefused


@pytest.mark.parametrize("game_id", ["automobile", "armor_clash"])
async def test_a_lobby_stored_before_a_rules_change_starts_with_complete_options_and_replays(store, game_id):
    """A lobby row whose options are ``{}`` (as stored before tables kept every default) is
    started on today's rules, its stored options say so, and its log replays to its state
    (a replay with ``{}`` would pick the rules of the old release)."""
    game = get_game(game_id)
    lo, _ = game.seat_range()
    seats = [Seat("p1", HOST)] + [Seat(f"p{i + 2}", None) for i in range(lo - 1)]
    row = await store.create_game(
        guild_id=1, channel_id=4242, game=game_id, host_id=HOST, options={}, seed=3, seats=seats
    )
    service = TableService(store)
    await service.lobby(row.id, HOST, "start")
    for _ in range(12):
        if (await store.get_game(row.id)).status != "active":
            break
        await service.act(row.id, HOST, AI)
    row = await store.get_game(row.id)
    assert row.options == game.parse_options({}).model_dump(mode="json")
    log = [(a.seat, a.action) for a in await store.actions(row.id, limit=10_000)]
    replayed = game.replay([s.seat for s in row.seats], row.options, row.seed, log)
    assert replayed.model_dump_json() == game.load(row.state_json).model_dump_json()


async def test_joining_leaving_and_starting_a_lobby_are_refused_to_the_wrong_member(store):
    service = TableService(store)
    opened = await service.open_table(
        guild_id=1, channel_id=7070, game_id="thunder_road", host_id=HOST, options={}, ai=0, seed=1,
        locale="en", table={},
    )  # fmt: skip
    gid = opened.row.id
    assert opened.started is None and opened.row.status == "lobby"

    async def refused(user, op, code):
        before = await snapshot(store, gid)
        with pytest.raises(TurnRefused) as err:
            await service.lobby(gid, user, op)
        assert err.value.code == code and await snapshot(store, gid) == before

    await refused(HOST, "join", "already_seated")
    await refused(HOST, "leave", "host_cannot_leave")
    await refused(BOB, "leave", "not_seated")
    await refused(HOST, "start", "need_players")
    joined = await service.lobby(gid, BOB, "join")
    assert [(s.seat, s.user_id) for s in joined.row.seats] == [("p1", HOST), ("p2", BOB)]
    await refused(BOB, "start", "host_only")
    await refused(BOB, "ai", "host_only")
    await refused(CAROL, "cancel", "host_only")
    await refused(HOST, "no such op", "stale")
    started = await service.lobby(gid, HOST, "start")
    assert started.started is not None and started.started.row.status == "active"
    await refused(CAROL, "join", "lobby_closed")
    with pytest.raises(TurnRefused) as err:
        await service.open_table(
            guild_id=1, channel_id=7070, game_id="thunder_road", host_id=CAROL, options={}, ai=0, seed=1,
            locale="en", table={},
        )  # fmt: skip
    assert err.value.code == "channel_busy"

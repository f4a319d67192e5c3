"""AI levels at the table service (issue 14 item 4, platform side): a level
is stored with each AI seat, chosen when a table opens and per added AI seat,
and every AI move the service makes (seat fillers, a resigned or handed-over
seat, a turn timer) is the AI's choice at that seat's level.  A forged level
is refused and changes nothing.  Runs on every store backend."""

from __future__ import annotations

import pytest

from engine import get_game
from store import Seat
from tables import TableService, TurnRefused
from tables.rules.levels import seat_level

HOST, BOB, CAROL = 7, 8, 9
CHANNEL = iter(range(10_000, 1 << 30))
SEED = 20261201  # fixed: the same games every run (where the levels choose differently is seeded)


def human_ai(g, st, s, legal):  # a human who clicks what the easy AI would
    return g.ai_action(st, s, "easy")


async def open_table(service, game="thunder_road", ai=0, ai_level=None, seed=SEED, **kw):
    return await service.open_table(
        guild_id=1,
        channel_id=next(CHANNEL),
        game_id=game,
        host_id=HOST,
        options={},
        ai=ai,
        seed=seed,
        locale="en",
        table={},
        ai_level=ai_level,
        **kw,
    )


async def check_log(store, gid: int, level_of) -> tuple[int, int]:
    """Replay table ``gid``'s log: every action with no member behind it
    (seat filler, timer) must be the AI's choice at ``level_of(seat)``.
    Returns (AI actions checked, of them where the levels choose differently)."""
    row = await store.get_game(gid)
    game = get_game(row.game)
    state = game.new([s.seat for s in row.seats], row.options, row.seed)
    checked = differ = 0
    for entry in await store.actions(gid, limit=100_000):
        if entry.user_id is None and level_of(entry.seat) is not None:
            want = game.ai_action(state, entry.seat, level_of(entry.seat))
            assert entry.action == game.parse_action(want).model_dump(mode="json"), (entry.seat, level_of(entry.seat))
            checked += 1
            others = {
                game.parse_action(game.ai_action(state, entry.seat, lv)).model_dump_json() for lv in game.ai_levels
            }
            differ += len(others) > 1
        state, _ = game.apply(state, entry.seat, entry.action)
    return checked, differ


async def play_humans(service, store, gid, level_of, *, enough=1, limit=1000):
    """The humans play (as the easy AI would) until the log holds ``enough`` AI
    decisions where the levels differ, for every seat ``level_of`` names."""
    for n in range(limit):
        loaded = await service.load(gid, statuses=("active", "finished"))
        if n % 10 == 0 or loaded.row.status != "active":
            seats = [s.seat for s in loaded.row.seats if level_of(s.seat) is not None]
            counts = [await check_log(store, gid, lambda x, s=s: level_of(x) if x == s else None) for s in seats]
            if all(d >= enough for _, d in counts):
                return counts
        if loaded.row.status != "active":
            break
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), human_ai, seat=seat)
    raise AssertionError("the levels never chose differently")


async def test_table_and_lobby_levels_are_stored_and_played(store):
    service = TableService(store)
    opened = await open_table(service, ai=1, ai_level="hard")
    gid = opened.row.id
    row = await store.get_game(gid)
    assert [(s.seat, s.user_id, s.ai_level) for s in row.seats] == [("p1", HOST, None), ("p2", None, "hard")]
    assert row.table["ai_level"] == "hard"
    res = await service.lobby(gid, HOST, "ai", level="easy")
    assert [s.ai_level for s in res.row.seats] == [None, "hard", "easy"]
    res = await service.lobby(gid, HOST, "ai")  # no level: the table's
    assert [s.ai_level for s in (await store.get_game(gid)).seats] == [None, "hard", "easy", "hard"]
    await service.lobby(gid, HOST, "start")
    levels = {"p2": "hard", "p3": "easy", "p4": "hard"}
    counts = await play_humans(service, store, gid, levels.get)
    assert all(checked >= 1 for checked, _ in counts)
    checked, differ = await check_log(store, gid, levels.get)
    assert differ >= 3
    # and the log would not pass with the other level: the check can fail
    swapped = {"p2": "easy", "p3": "hard", "p4": "easy"}
    with pytest.raises(AssertionError):
        await check_log(store, gid, swapped.get)


async def test_a_table_without_a_level_plays_the_default(store):
    service = TableService(store)
    opened = await open_table(service, ai=2)
    assert "ai_level" not in opened.row.table
    assert [s.ai_level for s in opened.row.seats] == [None, "easy", "easy"]
    gid = opened.row.id
    await service.lobby(gid, HOST, "start")
    await play_humans(service, store, gid, {"p2": "easy", "p3": "easy"}.get)


async def test_forged_levels_are_refused_and_change_nothing(store):
    service = TableService(store)
    channel = next(CHANNEL)
    for game, level in (("thunder_road", "nightmare"), ("thunder_road", "@core.ui.internal"), ("city_of_fury", "hard")):
        with pytest.raises(TurnRefused) as err:
            await service.open_table(
                guild_id=1,
                channel_id=channel,
                game_id=game,
                host_id=HOST,
                options={},
                ai=0,
                seed=1,
                locale="en",
                table={},
                ai_level=level,
            )
        assert err.value.code == "bad_ai_level"
        assert await store.active_game(channel) is None
    assert err.value.text("en") == "City of Fury has no AI level `hard`. Its levels: easy. Nothing was changed."
    with pytest.raises(TurnRefused) as err:
        await open_table(service, ai_level="x" * 500)
    assert "`" + "x" * 40 + "`" in err.value.text("en") and "x" * 41 not in err.value.text("en")
    assert err.value.text("zh").endswith("可选难度：简单, 困难。什么都没有改变。")
    assert "@" not in (await open_table(service)).row.table.get("ai_level", "")

    opened = await open_table(service, ai=1)
    gid = opened.row.id
    before = await store.get_game(gid)
    for who, level, code in (
        (HOST, "nightmare", "bad_ai_level"),
        (HOST, 3, "bad_ai_level"),
        (BOB, "hard", "host_only"),
    ):
        with pytest.raises(TurnRefused) as err:
            await service.lobby(gid, who, "ai", level=level)  # type: ignore[arg-type]
        assert err.value.code == code
    after = await store.get_game(gid)
    assert (after.version, after.seats) == (before.version, before.seats)


async def test_resigned_and_handed_over_seats_play_at_the_tables_level(store):
    service = TableService(store)
    opened = await open_table(service, ai_level="hard")
    gid = opened.row.id
    await service.lobby(gid, BOB, "join")
    await service.lobby(gid, CAROL, "join")
    await service.lobby(gid, HOST, "start")
    await service.resign(gid, BOB)
    await service.handover(gid, HOST, "p3", None)
    row = await store.get_game(gid)
    assert [(s.user_id, seat_level(row, get_game(row.game), s.seat)) for s in row.seats] == [
        (HOST, "hard"),
        (None, "hard"),
        (None, "hard"),
    ]
    await play_humans(service, store, gid, {"p2": "hard", "p3": "hard"}.get)


async def test_a_seat_keeps_its_level_through_a_hand_over(store):
    """An easy AI seat taken by a member and handed back plays easy again."""
    service = TableService(store)
    opened = await open_table(service, ai_level="hard")
    gid = opened.row.id
    await service.lobby(gid, HOST, "ai", level="easy")
    await service.lobby(gid, BOB, "join")
    await service.lobby(gid, HOST, "start")
    await service.handover(gid, HOST, "p2", CAROL)
    row = await store.get_game(gid)
    assert [(s.seat, s.user_id, s.ai_level) for s in row.seats] == [
        ("p1", HOST, None),
        ("p2", CAROL, "easy"),
        ("p3", BOB, None),
    ]
    await service.handover(gid, CAROL, "p2", None)
    await play_humans(service, store, gid, {"p2": "easy"}.get)


async def test_the_turn_timer_plays_the_absent_seat_at_the_tables_level(store):
    service = TableService(store)
    opened = await open_table(service, ai_level="hard")
    gid = opened.row.id
    await service.lobby(gid, BOB, "join")
    await service.lobby(gid, HOST, "start")
    for _ in range(400):
        row = await store.get_game(gid)
        if row.status != "active":
            break
        _, differ = await check_log(store, gid, {"p1": "hard", "p2": "hard"}.get)
        if differ >= 2:
            break
        await service.timeout(gid, row.version)
    checked, differ = await check_log(store, gid, {"p1": "hard", "p2": "hard"}.get)
    assert differ >= 2 and checked >= differ


async def test_a_games_own_timer_policy_ignores_the_level(store):
    """Armor Clash's absent crew passes (its rules' default), whatever the level."""
    service = TableService(store)
    game = get_game("armor_clash")
    opened = await open_table(service, game="armor_clash", ai_level="easy")
    gid = opened.row.id
    await service.lobby(gid, BOB, "join")
    started = await service.lobby(gid, HOST, "start")
    assert started.started is not None
    row = await store.get_game(gid)
    loaded = await service.load(gid)
    waiting = [s for s in loaded.game.to_act(loaded.state) if row.user_of(s) is not None]
    await service.timeout(gid, row.version)
    timed = [a for a in await store.actions(gid, limit=1000) if a.user_id is None and a.seat in waiting]
    assert timed and timed[0].action == game.parse_action(game.default_action(loaded.state, waiting[0])).model_dump(
        mode="json"
    )
    assert timed[0].action["kind"] == "choose" and timed[0].action["what"] == "pass"


async def test_seat_levels_round_trip_through_the_store(store):
    row = await store.create_game(
        guild_id=1,
        channel_id=next(CHANNEL),
        game="thunder_road",
        host_id=HOST,
        options={},
        seed=3,
        seats=[Seat("p1", HOST), Seat("p2", None, "hard"), Seat("p3", None)],
    )
    got = await store.get_game(row.id)
    assert [(s.seat, s.user_id, s.ai_level) for s in got.seats] == [
        ("p1", HOST, None),
        ("p2", None, "hard"),
        ("p3", None, None),
    ]
    await store.update_game(
        row.id, got.version, seats=[Seat("p1", HOST), Seat("p2", BOB, "hard"), Seat("p3", None, "easy")]
    )
    again = await store.get_game(row.id)
    assert [s.ai_level for s in again.seats] == [None, "hard", "easy"] and again.user_of("p2") == BOB


async def test_a_campaign_table_keeps_each_ai_seats_level(store):
    """A campaign renames the seats at the start (ai1, ai2, ...); the levels go with them."""
    service = TableService(store)
    camp = await service.create_campaign(
        guild_id=1, game_id="armor_clash", name="North", points=[3, 1], created_by=HOST, story={"mode": "simple"}
    )
    opened = await open_table(service, game="armor_clash", ai=1, ai_level="easy", campaign="North")
    gid = opened.row.id
    await service.lobby(gid, HOST, "ai", level="hard")
    started = (await service.lobby(gid, HOST, "start")).started
    assert started is not None and started.row.campaign_id == camp.id
    row = await store.get_game(gid)
    assert [(s.user_id, s.ai_level) for s in row.seats] == [(HOST, None), (None, "easy"), (None, "hard")]
    assert [s.seat for s in row.seats][1:] == ["ai1", "ai2"]

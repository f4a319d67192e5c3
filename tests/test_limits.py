"""Limits a server sets (issue 19, item 7): caps on waiting lobbies, threads opened per
hour and open campaigns, per member and per server; idle lobbies expire and free their
channel.  Through the table service on both store backends (and two services on one
database for the race on the last place)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from conftest import make_store

from tables import TableService, TurnRefused
from tables.rules import limits

HOST, BOB, CAROL = 7, 8, 9
GUILD = 1


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def lobby(service, host, channel=None, guild=GUILD, game="thunder_road"):
    return await service.open_table(
        guild_id=guild,
        channel_id=channel or random.randrange(1, 1 << 40),
        game_id=game,
        host_id=host,
        options={},
        ai=0,
        seed=1,
        locale="en",
        table={},
    )


async def set_limits(service, **values):
    await service.settings.update_guild(GUILD, lambda s: {**s, "limits": {**s["limits"], **values}})


async def refused(call) -> TurnRefused:
    with pytest.raises(TurnRefused) as exc:
        await call
    return exc.value


def test_the_defaults_are_sensible_and_documented():
    assert limits.limits_of({}) == limits.DEFAULT_LIMITS
    assert limits.DEFAULT_LIMITS["lobby_idle_hours"] == 24
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for key, value in limits.DEFAULT_LIMITS.items():
        assert f"`{key}`" in readme and str(value) in readme, key
    # junk in the stored settings falls back to the defaults
    assert limits.limits_of({"limits": {"lobbies_member": -3, "threads_member": "9", "x": 1}}) == limits.DEFAULT_LIMITS


async def test_lobby_caps_per_member_and_per_server_name_the_limit_and_change_nothing(store):
    service = TableService(store)
    await set_limits(service, lobbies_member=2, lobbies_server=3)
    await lobby(service, HOST)
    first = await lobby(service, HOST)
    exc = await refused(lobby(service, HOST))
    assert exc.key == "asyncplay.limit.lobbies.member" and exc.params == {"limit": 2}
    assert "2 lobbies" in exc.text("en") and "2" in exc.text("zh")
    await lobby(service, BOB)
    exc = await refused(lobby(service, CAROL))
    assert exc.key == "asyncplay.limit.lobbies.server" and "3" in exc.text("en")
    assert len(await store.games_of_user(CAROL)) == 0  # nothing was written
    with pytest.raises(TurnRefused):
        await service.check_can_open(GUILD, CAROL)  # the check before a thread is opened says the same
    await service.lobby(first.row.id, HOST, "cancel")  # a cancelled lobby frees its place
    await service.check_can_open(GUILD, CAROL)
    await lobby(service, CAROL)
    await lobby(service, CAROL, guild=2)  # another server's caps are its own
    await set_limits(service, lobbies_server=0)  # 0: no cap
    await lobby(service, BOB)


async def test_two_processes_racing_for_the_last_lobby_place_get_one(store, store_backend, tmp_path):
    other = TableService(await make_store(store_backend, tmp_path))
    try:
        service = TableService(store)
        await set_limits(service, lobbies_member=1)
        for n in range(5):
            host = 1000 + n
            out = await asyncio.gather(lobby(service, host), lobby(other, host), return_exceptions=True)
            assert sorted(type(o).__name__ for o in out) == ["LobbyResult", "TurnRefused"], out
            assert len(await store.games_of_user(host)) == 1
    finally:
        await other.store.close()


async def test_threads_per_hour_per_member_and_per_server(store):
    clock = Clock()
    service = TableService(store, clock=clock)
    await set_limits(service, threads_member=2, threads_server=3)
    await service.claim_thread(GUILD, HOST)
    clock.now += 600
    await service.claim_thread(GUILD, HOST)
    exc = await refused(service.claim_thread(GUILD, HOST))
    assert exc.key == "asyncplay.limit.threads.member" and "2 table threads" in exc.text("en")
    claim = await service.claim_thread(GUILD, BOB)
    exc = await refused(service.claim_thread(GUILD, CAROL))
    assert exc.key == "asyncplay.limit.threads.server"
    await service.release_thread(BOB, claim)  # the thread could not be opened: it does not count
    await service.claim_thread(GUILD, CAROL)
    clock.now += 3001  # an hour after HOST's first thread: one place again
    await service.claim_thread(GUILD, HOST)
    await refused(service.claim_thread(GUILD, HOST))


async def test_campaign_caps(store):
    service = TableService(store)
    await set_limits(service, campaigns_member=1, campaigns_server=2)

    def camp(user, name):
        return service.create_campaign(
            guild_id=GUILD, game_id="thunder_road", name=name, points=[3, 1], created_by=user, story={}
        )

    await camp(HOST, "a")
    exc = await refused(camp(HOST, "b"))
    assert exc.key == "asyncplay.limit.campaigns.member" and "1 open campaigns" in exc.text("en")
    await camp(BOB, "c")
    exc = await refused(camp(CAROL, "d"))
    assert exc.key == "asyncplay.limit.campaigns.server" and "战役" in exc.text("zh")
    assert [c.name for c in await store.campaigns(GUILD)] == ["a", "c"]


async def test_league_caps_like_campaigns_a_finished_or_cancelled_league_frees_its_place(store):
    """Issue 28 item 10: one admin made 300 leagues; leagues are capped like campaigns."""
    from tables.leagues.rounds import LeagueService

    service = TableService(store)
    leagues = LeagueService(service)
    assert limits.DEFAULT_LIMITS["leagues_member"] == limits.DEFAULT_LIMITS["campaigns_member"] == 5
    assert limits.DEFAULT_LIMITS["leagues_server"] == limits.DEFAULT_LIMITS["campaigns_server"] == 50

    def new(user, name):
        return leagues.create(
            guild_id=GUILD, channel_id=5, game="thunder_road", name=name, format="swiss", created_by=user
        )

    made = [await new(HOST, f"s{i}") for i in range(5)]  # the default cap
    exc = await refused(new(HOST, "s5"))
    assert exc.key == "asyncplay.limit.leagues.member" and "5 leagues" in exc.text("en")
    await set_limits(service, leagues_member=5, leagues_server=6)
    await new(BOB, "b")
    exc = await refused(new(CAROL, "c"))
    assert exc.key == "asyncplay.limit.leagues.server" and "联赛" in exc.text("zh")
    await leagues.cancel(made[0].id)  # a cancelled league no longer counts
    await new(CAROL, "c")
    assert len(await store.leagues(GUILD)) == 7


async def test_idle_lobbies_expire_and_free_the_channel_a_change_restarts_the_wait(store):
    clock = Clock()
    store.clock = clock
    service = TableService(store, clock=clock)
    channel = random.randrange(1, 1 << 40)
    idle = await lobby(service, HOST, channel=channel)
    busy = await lobby(service, BOB)
    await service.lobby_posted(idle.row.id, 123456789012345678)
    clock.now += 20 * 3600
    await service.lobby(busy.row.id, CAROL, "join")  # a change: its 24 hours start again
    clock.now += 4 * 3600 - 1
    assert await service.expire_lobbies(clock.now) == []
    clock.now += 2
    expired = await service.expire_lobbies(clock.now)
    assert [(r.id, m) for r, m in expired] == [(idle.row.id, 123456789012345678)]
    row = await store.get_game(idle.row.id)
    assert row.status == "abandoned" and row.outcome["reason"]["key"] == limits.EXPIRED_REASON
    assert await service.expire_lobbies(clock.now) == []  # once
    again = await lobby(service, CAROL, channel=channel)  # the channel is free
    assert again.row.status == "lobby"
    assert (await store.get_game(busy.row.id)).status == "lobby"
    exc = await refused(service.lobby(idle.row.id, BOB, "join"))  # its buttons are dead
    assert exc.code == "lobby_closed"
    # a server's own idle time; 0 = never
    await set_limits(service, lobby_idle_hours=2)
    clock.now += 2 * 3600 + 1
    assert {r.id for r, _ in await service.expire_lobbies(clock.now)} == {busy.row.id, again.row.id}
    await set_limits(service, lobby_idle_hours=0)
    kept = await lobby(service, HOST)
    clock.now += 1000 * 3600
    assert await service.expire_lobbies(clock.now) == [] and (await store.get_game(kept.row.id)).status == "lobby"


async def test_a_join_racing_the_expiry_wins_or_loses_whole(store):
    clock = Clock()
    store.clock = clock
    service = TableService(store, clock=clock)
    for _ in range(5):
        opened = await lobby(service, HOST)
        clock.now += 25 * 3600
        out = await asyncio.gather(
            service.expire_lobbies(clock.now), service.lobby(opened.row.id, BOB, "join"), return_exceptions=True
        )
        row = await store.get_game(opened.row.id)
        if row.status == "abandoned":  # expired first: the join was refused, nobody was seated
            assert isinstance(out[1], TurnRefused) and row.seat_of(BOB) is None
        else:  # joined first: the lobby lives on
            assert out[0] == [] and row.seat_of(BOB) == "p2"
            await service.lobby(opened.row.id, HOST, "cancel")

"""Issue 32 item 4: a member's deadlines as an iCalendar feed from the web companion,
behind a secret URL (stored hashed), with event ids that stay the same while a deadline
moves, a finished table's event gone, a new secret that makes the old URL answer 404,
/privacy forget removing it, and the guard's rate limit in front of it; on both backends,
over HTTP (aiohttp's test client), parsed back with icalendar."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime

import icalendar
import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import BOB, HOST

from tables import LeagueService, TableService, TurnRefused
from web import Limits, make_app

BASE = "https://games.example"


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    svc = TableService(s, clock=clock)
    yield svc
    await s.close()


async def client_for(service: TableService, **kw) -> TestClient:
    kw.setdefault("limits", Limits(rate=1000, burst=1000))
    c = TestClient(TestServer(make_app(service, base_url=BASE, **kw)))
    await c.start_server()
    return c


async def timed_table(service: TableService, guild_id: int = 1, minutes: int = 60) -> int:
    """A running two-member Thunder Road table with a turn timer (HOST in p1, BOB in p2)."""
    lob = await service.open_table(
        guild_id=guild_id,
        channel_id=random.randrange(1, 1 << 40),
        game_id="thunder_road",
        host_id=HOST,
        options={},
        ai=0,
        seed=3,
        locale="en",
        table={"turn_timer": minutes},
    )
    started = (await service.lobby(lob.row.id, BOB, "join")).started
    if started is None:
        started = (await service.lobby(lob.row.id, HOST, "start")).started
    assert started is not None
    return started.row.id


def events(body: bytes) -> dict[str, icalendar.Event]:
    cal = icalendar.Calendar.from_ical(body)
    return {str(e["uid"]): e for e in cal.walk("VEVENT")}


def start_of(event: icalendar.Event) -> float:
    when = event.decoded("dtstart")
    assert isinstance(when, datetime) and when.tzinfo is not None
    return when.timestamp()


async def test_the_feed_lists_the_members_deadlines_and_keeps_each_events_id(service):
    gid = await timed_table(service)
    row = await service.row(gid)
    waiting = row.user_of(row.to_act[0])
    other = BOB if waiting == HOST else HOST
    secret = await service.calendar_secret(waiting)
    assert secret and await service.calendar_secret(waiting) is None, "one feed a member; not shown twice"
    # only the secret's hash is kept
    kept = await service.store._fetch("SELECT token_hash FROM calendar_feeds WHERE user_id=?", [waiting])
    assert kept == [(hashlib.sha256(secret.encode()).hexdigest(),)] and secret not in str(kept)
    other_secret = await service.calendar_secret(other)
    c = await client_for(service)
    try:
        r = await c.get(f"/cal/{secret}.ics")
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/calendar")
        assert "no-store" in r.headers["Cache-Control"] or "private" in r.headers["Cache-Control"]
        first = events(await r.read())
        uid = f"table-{gid}@games.example"
        assert list(first) == [uid]
        due = start_of(first[uid])
        assert due == pytest.approx(service.clock() + 3600, abs=1)
        assert f"#{gid}" in str(first[uid]["summary"]) and str(first[uid]["url"]) == f"{BASE}/t/{gid}"
        # the member the table does not wait for has no deadline in their feed (none of the other's)
        r = await c.get(f"/cal/{other_secret}.ics")
        assert r.status == 200 and events(await r.read()) == {}
        # the deadline moves (the member goes away for a day: their time stops): same id, new time
        service.clock.advance(10)
        await service.go_away(waiting, 1)
        second = events(await (await c.get(f"/cal/{secret}.ics")).read())
        assert list(second) == [uid], "the same event, so calendar apps move it instead of adding one"
        assert start_of(second[uid]) > due + 3600
        # in Chinese when asked
        zh = events(await (await c.get(f"/cal/{secret}.ics?lang=zh")).read())
        assert "你的时间" in str(zh[uid]["summary"])
        # the table ends: its event goes
        await service.abandon(row.channel_id, HOST)
        assert events(await (await c.get(f"/cal/{secret}.ics")).read()) == {}
        # a forged or unknown secret is a plain 404
        for bad in ("x" * 43, "", "a" * 300):
            assert (await c.get(f"/cal/{bad}.ics")).status == 404
    finally:
        await c.close()


async def test_a_new_secret_retires_the_old_url_and_forget_removes_the_feed(service):
    await timed_table(service)
    old = await service.calendar_secret(HOST)
    c = await client_for(service)
    try:
        assert (await c.get(f"/cal/{old}.ics")).status == 200
        new = await service.calendar_secret(HOST, replace=True)
        assert new and new != old
        assert (await c.get(f"/cal/{old}.ics")).status == 404, "the rotated URL opens nothing"
        assert (await c.get(f"/cal/{new}.ics")).status == 200
        assert (await service.footprint(HOST))["calendar"] == 1
        with pytest.raises(TurnRefused):  # still seated: forget refuses, the feed stays
            await service.forget(HOST)
        assert (await c.get(f"/cal/{new}.ics")).status == 200
        nobody = 4242
        s = await service.calendar_secret(nobody)
        assert (await c.get(f"/cal/{s}.ics")).status == 200
        await service.forget(nobody)
        assert (await c.get(f"/cal/{s}.ics")).status == 404, "/privacy forget removes the feed"
        assert await service.calendar_secret(nobody) is not None, "a forgotten member may make a new one"
    finally:
        await c.close()


async def test_the_feed_is_rate_limited_like_every_page(service):
    secret = await service.calendar_secret(HOST)
    c = await client_for(service, limits=Limits(rate=0.001, burst=3))
    try:
        got = [(await c.get(f"/cal/{secret}.ics")).status for _ in range(5)]
        assert got[:3] == [200, 200, 200] and got[3:] == [429, 429]
        # guessing secrets is throttled the same way
        c2 = await client_for(service, limits=Limits(rate=0.001, burst=2))
        try:
            got = [(await c2.get(f"/cal/{'g' * 43}{i}.ics")).status for i in range(4)]
            assert got == [404, 404, 429, 429]
        finally:
            await c2.close()
    finally:
        await c.close()


async def test_a_league_rounds_close_is_in_the_feed_of_its_players(service):
    leagues = LeagueService(service)
    league = await leagues.create(
        guild_id=1, channel_id=77, game="thunder_road", name="Spring", format="swiss", created_by=HOST
    )
    for uid in (HOST, BOB, 1003, 1004):
        await leagues.signup(league.id, uid)
    league = await leagues.start(league.id)
    await leagues.advance(league.id)
    league = await leagues.get(league.id)
    rnd = league.state["rounds"][-1]
    secret = await service.calendar_secret(BOB)
    stranger = await service.calendar_secret(5555)
    c = await client_for(service)
    try:
        found = events(await (await c.get(f"/cal/{secret}.ics")).read())
        uid = f"league-{league.id}-round-{rnd['n']}@games.example"
        assert uid in found and start_of(found[uid]) == pytest.approx(rnd["deadline"], abs=1)
        assert "Spring" in str(found[uid]["summary"])
        assert datetime.fromtimestamp(rnd["deadline"], UTC) == found[uid].decoded("dtstart")
        assert events(await (await c.get(f"/cal/{stranger}.ics")).read()) == {}, "not a player: not in the feed"
    finally:
        await c.close()

"""The web companion without a browser: signing, sessions, per-game redaction, caching,
access rules and the live watcher, on both backends (pages through aiohttp's test client)."""

from __future__ import annotations

import asyncio
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import BOB, HOST, ai_pick, move, open_two_player, signin_form

from tables import TableService
from tables.people.web_sessions import LINK_SECONDS, WebSessions, end_sessions, sign, verify
from tables.seeing.live import TableWatch
from web import Limits, make_app
from web.app import COMPANION


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    svc = TableService(s, clock=clock)
    yield svc
    await s.close()


async def client_for(service: TableService, **kw) -> TestClient:
    kw.setdefault("limits", Limits(rate=1000, burst=1000))
    c = TestClient(TestServer(make_app(service, base_url="https://games.example", **kw)))
    await c.start_server()
    return c


def test_a_link_is_signed_expires_and_names_its_member():
    key = b"k" * 32
    token = sign(key, 42, 7, 1000.0, "nonce")
    assert verify(key, token, 999.0).user_id == 42
    assert verify(key, token, 999.0).game_id == 7
    assert verify(key, token, 1000.0) is None  # expired
    assert verify(b"x" * 32, token, 0) is None  # another key
    payload, mac = token.split(".")
    forged = sign(key, 43, 7, 1000.0, "nonce").split(".")[0] + "." + mac  # another member, the old signature
    assert verify(key, forged, 0) is None
    assert verify(key, "garbage", 0) is None and verify(key, "a.b", 0) is None and verify(key, "", 0) is None


async def test_a_link_works_once_then_the_session_until_forget(service):
    sessions = WebSessions(service.store, clock=service.clock, secret="s3cret")
    token = await sessions.link_token(HOST, 5)
    sid, member, game = await sessions.redeem_link(token)
    assert (member, game) == (HOST, 5)
    assert await sessions.redeem_link(token) is None  # single use
    assert await sessions.session_member(sid) == HOST
    late = await sessions.link_token(HOST)
    service.clock.now += LINK_SECONDS + 1
    assert await sessions.redeem_link(late) is None  # expired
    assert await end_sessions(service.store, HOST) >= 1
    assert await sessions.session_member(sid) is None
    # the generated key is shared through the database by every process
    a, b = WebSessions(service.store), WebSessions(service.store)
    a._secret = b._secret = None
    assert await a.key() == await b.key()


async def test_two_processes_redeeming_one_link_at_once_get_one_session(service):
    sessions = WebSessions(service.store, clock=service.clock, secret="s")
    token = await sessions.link_token(BOB)
    results = await asyncio.gather(*(sessions.redeem_link(token) for _ in range(5)))
    assert sum(r is not None for r in results) == 1


@pytest.mark.parametrize("game", ["automobile", "armor_clash"])
async def test_private_parts_reach_their_seat_only(service, game):
    gid = await open_two_player(service, game)
    if game == "armor_clash":  # secret orders: p1 locks its orders in, p2 has not chosen yet
        for _ in range(20):
            loaded = await service.load(gid)
            if "p1" not in loaded.game.to_act(loaded.state):
                break
            await service.act(gid, HOST, ai_pick, seat="p1")
    public = await service.board(gid, None, "en")
    stranger = await service.board(gid, 999, "en")
    mine = await service.board(gid, HOST, "en")
    theirs = await service.board(gid, BOB, "en")
    assert public.private is None and stranger.private is None and public.viewer_seat is None
    assert not public.orders_locked and not stranger.orders_locked and not theirs.orders_locked
    if game == "automobile":  # a hand of cards
        assert mine.private and theirs.private and mine.private != theirs.private
    else:  # p1's secret orders: in its own log only
        assert mine.orders_locked
        own = [x.text for x in mine.log if x.private]
        assert own and not any(x.private for x in public.log + theirs.log + stranger.log)
        assert not set(own) & {x.text for x in public.log + theirs.log}
    assert mine.viewer_seat == "p1" and [p.seat for p in mine.players if p.you] == ["p1"]
    # the public image is the public view; a seat's image its own view
    assert await public.image() == await stranger.image()
    assert await mine.image() != await public.image()


async def test_pages_redact_the_hand_and_a_signed_in_seat_sees_it(service):
    gid = await open_two_player(service, "automobile")
    hand = (await service.board(gid, HOST, "en")).private
    assert hand and "demand cards" in hand
    c = await client_for(service)
    try:
        page = await (await c.get(f"/t/{gid}")).text()
        assert "demand cards" not in page and 'id="board"' in page
        assert 'property="og:image" content="https://games.example/t/' in page  # link previews
        assert "og:description" in page
        resp = await c.get(f"/t/{gid}/mine.png")
        assert resp.status == 404  # no session: no private image
        sessions = WebSessions(service.store, clock=service.clock)
        token = await sessions.link_token(HOST, gid)
        shown = await c.get(f"/signin/{token}")
        form = await shown.text()
        assert "Open my view" in form  # GET does not use the link up (link previews, prefetch)
        fields, form_cookie = signin_form(form, shown)
        resp = await c.post("/signin", data=fields, cookies=form_cookie, allow_redirects=False)
        assert resp.status == 303 and resp.headers["Location"] == f"/t/{gid}"
        cookie = next(v for v in resp.headers.getall("Set-Cookie") if v.startswith("tg_session="))
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
        jar = {"tg_session": resp.cookies["tg_session"].value}  # a Secure cookie: sent by hand over http
        page = await (await c.get(f"/t/{gid}", cookies=jar)).text()
        assert hand.split(":")[0] in page and 'id="hand"' in page
        assert (await c.get(f"/t/{gid}/mine.png", cookies=jar)).status == 200
        again = await c.post("/signin", data=fields, cookies=form_cookie, allow_redirects=False)
        assert again.status == 403  # used
        assert "Your demand cards" not in await (await c.get(f"/t/{gid}", cookies={"tg_session": "forged"})).text()
        mine = await (await c.get("/me", cookies=jar)).text()
        assert f"/t/{gid}" in mine
    finally:
        await c.close()


async def test_security_headers_and_bounded_inputs(service):
    gid = await open_two_player(service, "automobile")
    c = await client_for(service, limits=Limits(rate=0.001, burst=8))
    try:
        resp = await c.get(f"/t/{gid}")
        csp = resp.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        assert resp.headers["X-Frame-Options"] == "DENY"
        assert "Strict-Transport-Security" in resp.headers
        assert (await c.get("/t/" + "9" * 30)).status == 404
        assert (await c.get("/t/abc")).status == 404
        assert (await c.get(f"/t/{gid}?x=" + "a" * 400)).status == 414
        statuses = [(await c.get("/")).status for _ in range(10)]
        assert statuses[-1] == 429 and 200 in statuses  # the client's burst ran out
    finally:
        await c.close()


async def test_hostile_names_are_escaped(service):
    gid = await open_two_player(service, "automobile")

    async def names(guild, members):
        return {m: '<script>alert(1)</script>"&' for m in members}

    c = await client_for(service, names=names)
    try:
        page = await (await c.get(f"/t/{gid}")).text()
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    finally:
        await c.close()


async def test_closed_tables_and_servers_that_turn_the_companion_off_show_nothing(service):
    gid = await open_two_player(service, "automobile")
    c = await client_for(service, limits=Limits(rate=1000, burst=1000, row_seconds=0))  # (else seen within 1 s)
    try:
        assert (await c.get(f"/t/{gid}")).status == 200
        await service.store.set_followers_closed(gid, True)
        assert (await c.get(f"/t/{gid}")).status == 404
        assert (await c.get(f"/t/{gid}/board.png")).status == 404
        assert (await c.get(f"/t/{gid}/history")).status == 404
        await service.store.set_followers_closed(gid, False)
        await service.settings.update_guild(1, lambda s: {**s, "web": False})
        assert (await c.get(f"/t/{gid}")).status == 404
        assert (await c.get("/g/1/leaderboard")).status == 404
    finally:
        await c.close()


async def test_frames_are_cached_and_the_same_position_is_the_same_image(service):
    gid = await open_two_player(service, "automobile")
    await move(service, gid, 4)
    c = await client_for(service)
    comp = c.server.app[COMPANION]
    try:
        first = await (await c.get(f"/t/{gid}/frames/2")).json()
        assert first["position"] == 2 and first["total"] >= 4
        png = await (await c.get(first["image"])).read()
        r2 = await c.get(first["image"])
        # names are drawn in it: revalidated on every use (a forget must reach caches), never immutable
        assert r2.headers["Cache-Control"] == "public, no-cache" and await r2.read() == png
        same = await c.get(first["image"], headers={"If-None-Match": r2.headers["ETag"]})
        assert same.status == 304 and await same.read() == b""
        start = await (await c.get(f"/t/{gid}/frames/0")).json()
        assert await (await c.get(start["image"])).read() != png
        misses = comp.frames.misses
        await move(service, gid, 1)  # a new move leaves past positions as they were
        again = await (await c.get(f"/t/{gid}/frames/2")).json()
        assert again["image"] == first["image"] and comp.frames.misses == misses
        beyond = await (await c.get(f"/t/{gid}/frames/9999")).json()
        assert beyond["position"] == beyond["total"]
    finally:
        await c.close()


async def test_one_watcher_polls_once_for_every_viewer_and_wakes_them(service):
    gid = await open_two_player(service, "automobile")
    other = await open_two_player(service, "automobile", seed=9)
    calls = []
    real = service.store.table_versions

    async def counted(ids):
        calls.append(sorted(ids))
        return await real(ids)

    service.store.table_versions = counted  # type: ignore[method-assign]
    watch = TableWatch(service.store, poll=0.02, fallback_poll=0.02)
    await watch.watch_tables()
    try:
        row, row2 = await service.row(gid), await service.row(other)
        queues = [watch.watch_table(gid, row.version) for _ in range(50)]
        idle = watch.watch_table(other, row2.version)
        calls.clear()
        await move(service, gid, 1)
        new = (await service.row(gid)).version
        got = await asyncio.wait_for(asyncio.gather(*(q.get() for q in queues)), 5)
        assert set(got) == {new}
        assert idle.empty()
        assert all(ids == sorted({gid, other}) for ids in calls)  # one query for all, not one per viewer
    finally:
        await watch.stop_watching()


async def test_standings_pages_list_names_and_escape_them(service):
    c = await client_for(service)
    try:
        page = await (await c.get("/g/1/leaderboard?game=automobile")).text()
        assert "Automobile" in page
        assert (await c.get("/g/1/leaderboard?game=nope")).status == 404
        assert (await c.get("/c/12345")).status == 404
        import importlib.util

        leagues = importlib.util.find_spec("tables.leagues.rounds") is not None
        assert (await c.get("/g/1/leagues")).status == (200 if leagues else 404)  # listed when the bot runs leagues
        zh = await (await c.get("/me?lang=zh")).text()
        assert "我的牌桌" in zh
    finally:
        await c.close()


def test_every_page_text_is_translated():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    en = json.loads((root / "data/locales/en/web.json").read_text(encoding="utf-8"))
    zh = json.loads((root / "data/locales/zh/web.json").read_text(encoding="utf-8"))
    assert set(en) == set(zh)
    used = set()
    for f in (root / "web").glob("*.py"):
        used |= set(re.findall(r"\"(web\.[a-z_.]*[a-z])\"", f.read_text(encoding="utf-8")))
    assert used and used <= set(en), used - set(en)

"""The web companion's edges (issue 28): ids in ASCII digits only and the same security
headers on every answer (item 3), no sign-in from another site (item 4), live pages
re-authorised on every push (item 5); on both backends, over HTTP."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import HOST, move, open_two_player, signin_form

from tables import TableService
from web import Limits, make_app
from web.serve.guard import HEADERS


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    svc = TableService(s, clock=clock)
    yield svc
    await s.close()


async def client_for(service: TableService, **kw) -> TestClient:
    kw.setdefault("limits", Limits(rate=1000, burst=1000, row_seconds=0))
    c = TestClient(TestServer(make_app(service, base_url="https://games.example", **kw)))
    await c.start_server()
    return c


def assert_secured(resp) -> None:
    for name, value in HEADERS.items():
        assert resp.headers.get(name) == value, (resp.status, resp.url, name)
    assert "Strict-Transport-Security" in resp.headers


def arabic(n: int) -> str:
    return "".join(chr(0x660 + int(d)) for d in str(n))


def fullwidth(n: int) -> str:
    return "".join(chr(0xFF10 + int(d)) for d in str(n))


async def test_ids_are_ascii_digits_only_and_every_error_carries_the_headers(service, caplog):
    gid = await open_two_player(service, "automobile")
    await move(service, gid, 2)
    c = await client_for(service)
    try:
        assert (await c.get(f"/t/{gid}")).status == 200
        odd = [
            "/t/²",
            "/t/①",
            f"/t/{arabic(gid)}",  # another script's digits of a real table's id
            f"/t/{fullwidth(gid)}",
            f"/t/{gid}/history?at=²",
            f"/t/{gid}/history?at=①",
            f"/t/{gid}/frames/{arabic(1)}",
            f"/t/{gid}/frames/{arabic(1)}.png",
            f"/t/{arabic(gid)}/live",
            f"/t/{arabic(gid)}/board.png",
            "/g/²/leaderboard",
            "/g/²/leagues",
            "/c/²",
            "/c/①",
        ]
        for url in odd:
            resp = await c.get(url)
            # the history page with an odd position shows the latest one, as with none
            want = 200 if "?at=" in url else 404
            assert resp.status == want, (url, resp.status)
            assert_secured(resp)
        # a sign-in token that is not ASCII: refused as a bad link, not an error
        shown = await c.get("/signin/x")
        fields, cookie = signin_form(await shown.text(), shown)
        resp = await c.post("/signin", data={**fields, "token": "é.²"}, cookies=cookie)
        assert resp.status == 403
        assert_secured(resp)
        # every other error page: method not allowed, too long, too many, a fault
        resp = await c.post(f"/t/{gid}")
        assert resp.status == 405
        assert_secured(resp)
        resp = await c.get(f"/t/{gid}?x=" + "a" * 400)
        assert resp.status == 414
        assert_secured(resp)
        assert not [r for r in caplog.records if r.levelno >= 40], "no traceback for odd input"
    finally:
        await c.close()


async def test_a_fault_answers_500_with_the_headers(service, monkeypatch):
    gid = await open_two_player(service, "automobile")

    async def broken(gid):
        raise RuntimeError("the name cache broke")

    monkeypatch.setattr(service, "row", broken)  # a fault below the companion (the database, say)
    c = await client_for(service)
    try:
        resp = await c.get(f"/t/{gid}")
        assert resp.status == 500
        assert "the name cache broke" not in await resp.text()
        assert_secured(resp)
    finally:
        await c.close()


async def test_a_rate_limited_answer_carries_the_headers(service):
    c = await client_for(service, limits=Limits(rate=0.001, burst=1))
    try:
        statuses = []
        for _ in range(3):
            resp = await c.get("/")
            statuses.append(resp.status)
            assert_secured(resp)
        assert statuses[-1] == 429
    finally:
        await c.close()


async def test_another_site_cannot_sign_a_browser_in(service):
    """Login CSRF: the attacker's own link, posted to /signin from the attacker's page."""
    gid = await open_two_player(service, "automobile")
    c = await client_for(service)
    try:
        token = await service.web_sessions.link_token(HOST, gid)
        # the attacker's page posts the link: the browser sends no form cookie (SameSite)
        # and an Origin naming the attacker's site
        for headers, with_cookie, with_form in [
            ({"Origin": "https://evil.example"}, False, False),
            ({"Origin": "https://evil.example"}, True, True),  # even with a form value somehow right
            ({"Origin": "null"}, True, True),  # a sandboxed frame or a data: page
            ({"Sec-Fetch-Site": "cross-site"}, True, True),  # a browser that sent no Origin
            ({}, False, False),  # no form cookie: the form was not this browser's
            ({}, True, False),  # the cookie but not the form's value
        ]:
            shown = await c.get(f"/signin/{token}")
            fields, cookie = signin_form(await shown.text(), shown)
            data = fields if with_form else {"token": token}
            resp = await c.post(
                "/signin", data=data, cookies=cookie if with_cookie else {}, headers=headers, allow_redirects=False
            )
            assert resp.status == 403, headers
            assert "tg_session" not in resp.cookies
            assert "did not come from this site" in await resp.text()
        # the link was not used up by the refusals: from this site's own form it works
        shown = await c.get(f"/signin/{token}")
        assert "SameSite=Strict" in shown.headers["Set-Cookie"] and "HttpOnly" in shown.headers["Set-Cookie"]
        fields, cookie = signin_form(await shown.text(), shown)
        ours = {"Origin": "https://games.example", "Sec-Fetch-Site": "same-origin"}
        resp = await c.post("/signin", data=fields, cookies=cookie, headers=ours, allow_redirects=False)
        assert resp.status == 303 and resp.cookies["tg_session"].value
    finally:
        await c.close()


async def signed_in(c: TestClient, service: TableService, gid: int) -> dict[str, str]:
    token = await service.web_sessions.link_token(HOST, gid)
    shown = await c.get(f"/signin/{token}")
    fields, cookie = signin_form(await shown.text(), shown)
    resp = await c.post("/signin", data=fields, cookies=cookie, allow_redirects=False)
    assert resp.status == 303
    return {"tg_session": resp.cookies["tg_session"].value}


async def events_until_closed(resp) -> list[tuple[str, dict]]:
    """The stream's board events until the server ends it."""
    out, event = [], None
    async for raw in resp.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event:
            out.append((event, json.loads(line[6:])))
    return out


async def open_stream(c: TestClient, gid: int, jar: dict[str, str]):
    resp = await c.get(f"/t/{gid}/live", cookies=jar)
    assert resp.status == 200
    assert (await resp.content.readline()).startswith(b"retry:")  # the stream is open
    return resp


@pytest.mark.parametrize("how", ["sign_out", "web_off"])
async def test_a_live_page_stops_pushing_a_private_view_once_it_may_not(service, how):
    gid = await open_two_player(service, "automobile")
    c = await client_for(service)
    try:
        jar = await signed_in(c, service, gid)
        hand = "Your demand cards"
        assert hand in await (await c.get(f"/t/{gid}", cookies=jar)).text()
        stream = await open_stream(c, gid, jar)
        # the private view is pushed while the member may see it
        await move(service, gid, 1)
        first = b""
        while not first.startswith(b"event: board"):  # (keep-alive comments before it)
            first = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 30)).lstrip(b"\n")
        assert hand in first.decode()
        if how == "sign_out":
            assert (await c.post("/signout", cookies=jar, allow_redirects=False)).status == 303
        else:
            await service.settings.update_guild(1, lambda s: {**s, "web": False})
        await move(service, gid, 2)
        pushed = await asyncio.wait_for(events_until_closed(stream), 30)
        assert not [d for e, d in pushed if e == "board"], "a board was pushed after the member lost the view"
        assert stream.content.at_eof()
    finally:
        await c.close()


async def test_a_request_that_cannot_be_parsed_gets_the_headers_too(service):
    """aiohttp answers a malformed request itself (400), before any route: the companion's
    connections (web.start) carry the headers on that answer as well."""
    from web.app import start

    runner = await start(
        service, 0, host="127.0.0.1", base_url="https://games.example", limits=Limits(raise_files_to=0)
    )
    try:
        port = runner.addresses[0][1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /t/1 HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n")
        head = (await asyncio.wait_for(reader.read(65536), 30)).decode("latin-1")
        writer.close()
        assert head.split(" ")[1] == "400", head[:100]
        lines = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in head.split("\r\n")[1:] if x)}
        for name, value in HEADERS.items():
            assert lines.get(name.lower()) == value, name
        assert "strict-transport-security" in lines
    finally:
        await runner.cleanup()

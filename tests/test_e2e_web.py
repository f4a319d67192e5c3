"""The web companion through Discord (the real bot against the stand-in): every board
carries a link button to its page, /game web gives the page and a private single-use
link, the companion runs inside the bot's process, and /privacy forget signs the member
out of the web."""

from __future__ import annotations

import json
import re

import aiohttp
from webtables import signin_form

from bot import Config, create_bot

BASE = "https://web.example"


def with_web(table):
    def make_bot():
        config = Config(
            token="test-token", database=str(table.db), sync="auto", scheduler=False, web_port=0, web_url=BASE
        )
        bot = create_bot(config, clock=table.clock, guild_ready_timeout=0.05)
        bot.services.flood = None
        return bot

    table.make_bot = make_bot


def local(bot) -> str:
    host, port = bot.web_runner.addresses[0][:2]
    return f"http://127.0.0.1:{port}"


async def redeem(http: aiohttp.ClientSession, base: str, token: str) -> tuple[int, str | None, str | None]:
    """A browser's use of a sign-in link: its page, then its button (the form and its cookie):
    (status, Location, the session cookie)."""
    async with http.get(f"{base}/signin/{token}") as r:
        fields, cookie = signin_form(await r.text(), r)
    async with http.post(f"{base}/signin", data=fields, cookies=cookie, allow_redirects=False) as r:
        sid = r.cookies["tg_session"].value if "tg_session" in r.cookies else None
        return r.status, r.headers.get("Location"), sid


async def test_boards_link_to_their_page_and_game_web_signs_the_member_in_once(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    stranger = table.fd.add_user(103, "stranger")
    with_web(table)
    bot = await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    parts = json.dumps(board.data["components"])
    assert f'"url": "{BASE}/t/{gid}"' in parts and '"style": 5' in parts, "the board links to its page"

    ex = await table.fd.slash(host, "game web")
    reply = await table.wait_ephemeral(ex)
    assert f"{BASE}/t/{gid}" in reply.content
    token = re.search(r"/signin/([\w.\-]+)", reply.content)[1]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(f"{local(bot)}/t/{gid}") as r:
            page = await r.text()
            assert r.status == 200 and "Host" in page and "Bob" in page  # the companion knows the bot's display names
            assert 'class="you"' not in page
        status, where, sid = await redeem(http, local(bot), token)
        assert status == 303 and where == f"/t/{gid}" and sid
        async with http.get(f"{local(bot)}/t/{gid}", cookies={"tg_session": sid}) as r:
            assert 'class="you"' in await r.text()  # signed in: the host's own seat
        assert (await redeem(http, local(bot), token))[0] == 403  # the link worked once

        # a member who sits at no table: signed in to "my tables", then forgets themselves
        ex = await table.fd.slash(stranger, "game web")
        token = re.search(r"/signin/([\w.\-]+)", (await table.wait_ephemeral(ex)).content)[1]
        status, where, sid = await redeem(http, local(bot), token)
        assert where == "/me" and sid
        async with http.get(f"{local(bot)}/me", cookies={"tg_session": sid}) as r:
            assert r.status == 200
        ex = await table.fd.slash(stranger, "privacy forget")
        await table.wait_ephemeral(ex)
        async with http.get(f"{local(bot)}/me", cookies={"tg_session": sid}) as r:
            assert r.status == 401  # the session ended with /privacy forget


async def test_without_a_public_url_there_is_no_link_and_game_web_says_so(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    parts = json.dumps(board.data["components"])
    assert f"/t/{gid}" not in parts and '"style": 5' not in parts  # no link button
    ex = await table.fd.slash(host, "game web")
    assert "not set up" in (await table.wait_ephemeral(ex)).content

"""The companion as its own process (``python -m web``, the PostgreSQL deployment of the
README and docker-compose.yml) next to the real bot (the stand-in): it names members as
the bot does, on the page, its link preview, the board image and the leaderboard, and
a ``/privacy forget`` reaches it (issue 29 item 1, issue 28 item 6)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import sys
import time
from pathlib import Path

import aiohttp
from webtables import move

from bot import Config, create_bot
from tables import TurnRefused

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def until(check, what: str, timeout: float = 60.0):
    """Wait for ``check()`` (a coroutine function) to give something true: the real condition."""
    ends = time.monotonic() + timeout
    while True:
        got = await check()
        if got:
            return got
        if time.monotonic() > ends:
            raise AssertionError(f"no {what} within {timeout} s")
        await asyncio.sleep(0.05)


async def test_the_companion_in_its_own_process_names_members_and_forgets_them(table, pg_database):
    host = table.fd.add_user(101, "host", nick="Hostess ★")  # a nick on this server
    bob = table.fd.add_user(102, "bob", global_name="Bobby")  # no nick: the account's name
    config = Config(token="t", database=pg_database, sync="auto", scheduler=False)
    bot = create_bot(config, clock=table.clock, guild_ready_timeout=0.05)
    bot.services.flood = None
    await table.fd.start(bot)
    table.bot = bot
    ex = await table.fd.slash(host, "game new", {"game": "automobile"})
    lobby = await ex.wait(
        lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "the lobby"
    )
    gid = int(re.search(r"tg:l:(\d+):join", " ".join(lobby.custom_ids))[1])
    await (await table.fd.click(bob, lobby, f"tg:l:{gid}:join")).wait_response()
    await (await table.fd.select(host, lobby, f"tg:la:{gid}", ["easy"])).wait_response()  # automobile seats 3
    await table.wait_board(await table.fd.click(host, lobby, f"tg:l:{gid}:start"))

    port = free_port()
    env = dict(os.environ, TG_DATABASE=pg_database, TG_WEB_PORT=str(port), TG_WEB_HOST="127.0.0.1")
    env["TG_WEB_URL"] = "https://web.example"
    web = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web", cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http:

            async def get(path: str, **kw):
                async with http.get(base + path, **kw) as r:
                    return r.status, r.headers.copy(), await r.read()

            async def up():
                assert web.returncode is None, "python -m web stopped"
                with contextlib.suppress(aiohttp.ClientConnectionError):
                    return (await get("/"))[0] == 200
                return False

            await until(up, "companion answering")
            page = (await get(f"/t/{gid}"))[2].decode()
            assert "Hostess ★" in page and "Bobby" in page and "Player 1" not in page and "Player 2" not in page
            preview = re.search(r'property="og:description" content="([^"]*)"', page)[1]
            assert "Hostess ★" in preview or "Bobby" in preview, preview  # who is to act, by name

            service = bot.services.tables
            for _ in range(2000):  # the table played to its end (the AI's choices)
                if (await service.row(gid)).status != "active":
                    break
                with contextlib.suppress(TurnRefused):
                    await move(service, gid, 1)
            row = await service.row(gid)
            assert row.status == "finished"

            async def drawn(names):
                async def source(_row):
                    return names

                b = await service.board(row, None, row.locale or "en", names=source)
                return await b.image()

            async def finished():  # the companion trusts a row it read for 1 s (web/app.py Limits)
                return f'data-version="{row.version}"' in (await get(f"/t/{gid}"))[2].decode()

            await until(finished, "page of the finished table")
            status, headers, png = await get(f"/t/{gid}/board.png")
            assert png == await drawn({host.id: "Hostess ★", bob.id: "Bobby"}) != await drawn({})
            assert headers["Cache-Control"] == "public, no-cache"
            ranking = (await get(f"/g/{table.fd.guild_id}/leaderboard?game=automobile"))[2].decode()
            assert "Hostess ★" in ranking and "Bobby" in ranking and "…" not in ranking

            ex = await table.fd.slash(bob, "privacy forget")
            await table.wait_ephemeral(ex)
            assert await service.store.member_names(table.fd.guild_id, [bob.id]) == {}

            async def forgotten():
                return "Bobby" not in (await get(f"/t/{gid}"))[2].decode()

            await until(forgotten, "page without the forgotten name")
            page = (await get(f"/t/{gid}"))[2].decode()
            assert "Hostess ★" in page
            status, after, png2 = await get(f"/t/{gid}/board.png", headers={"If-None-Match": headers["ETag"]})
            assert status == 200 and after["ETag"] != headers["ETag"]
            assert png2 == await drawn({host.id: "Hostess ★"})
            ranking = (await get(f"/g/{table.fd.guild_id}/leaderboard?game=automobile"))[2].decode()
            assert "Bobby" not in ranking and "Hostess ★" in ranking
    finally:
        if web.returncode is None:
            web.terminate()
        await web.wait()
        await table.fd.stop(bot)

"""A crew's secret order leaves no public trace but "has given orders" (issue 28 item 11),
on the web companion over HTTP, on both backends: whatever kind of order a crew builds
(one step, two or three), anyone's page, a rival crew's page, the public replay and the
live updates change the same number of times and show the same number of log lines.
(``/game log``: tests/test_e2e_secret_orders.py.)"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import BOB, HOST, open_two_player

from tables import TableService
from web import Limits, make_app

#: an order's first choice, and how many steps it takes to build
KINDS = {"pass": 1, "unload": 1, "hull": 2, "shoot": 2, "move": 3}


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield TableService(s, clock=clock)
    await s.close()


async def step(service: TableService, gid: int, seat: str, what: str | None) -> bool:
    """One step of ``seat``'s order (its first: choose ``what``); whether it is still choosing after it."""
    loaded = await service.load(gid)
    legal = loaded.game.legal_actions(loaded.state, seat)
    if what is not None:
        pick = next(a for a in legal if a.kind == "choose" and a.what == what)
    else:
        pick = next(a for a in legal if a.kind != "back")
    await service.act(gid, loaded.row.user_of(seat), lambda *_: pick, seat=seat)
    after = await service.load(gid)
    return seat in after.game.to_act(after.state)


def seen(page: str) -> tuple[str, int]:
    """What a page shows that counts: its version token and its log lines."""
    return re.search(r'data-version="([^"]*)"', page)[1], len(re.findall(r"<li value=", page))


async def next_push(stream) -> dict:
    while True:
        line = await asyncio.wait_for(stream.content.readline(), 10)
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[6:])


async def trace(service: TableService, what: str) -> dict[str, list]:
    """p1 builds an order of kind ``what`` while anyone (and p2, signed in) watch: what changed for them."""
    gid = await open_two_player(service, "armor_clash")
    c = TestClient(TestServer(make_app(service, limits=Limits(rate=1000, burst=1000, row_seconds=0))))
    await c.start_server()
    try:
        sessions = service.web_sessions
        sid, _, _ = await sessions.redeem_link(await sessions.link_token(BOB, gid))
        out: dict[str, list] = {"public": [], "rival": [], "pushes": [], "frames": []}
        pages = {"public": {}, "rival": {"tg_session": sid}}  # anyone; the other crew, signed in
        assert 'class="you"' in await (await c.get(f"/t/{gid}", cookies=pages["rival"])).text()
        first = {k: seen(await (await c.get(f"/t/{gid}?lang=en", cookies=jar)).text()) for k, jar in pages.items()}
        stream = await c.get(f"/t/{gid}/live?lang=en&v={first['public'][0]}")
        assert stream.status == 200
        last = first
        replay = json.loads(await (await c.get(f"/t/{gid}/frames/1000")).text())["total"]
        choosing, steps = True, 0
        while choosing:
            choosing = await step(service, gid, "p1", what if steps == 0 else None)
            steps += 1
            now = {k: seen(await (await c.get(f"/t/{gid}?lang=en", cookies=jar)).text()) for k, jar in pages.items()}
            for k in pages:
                if now[k] != last[k]:
                    out[k].append(now[k][1] - first[k][1])
            if now["public"][0] != last["public"][0]:  # a change anyone sees: pushed to the open page
                push = await next_push(stream)
                assert str(push["version"]) == now["public"][0], "a push the viewer could not see came first"
                out["pushes"].append(str(push["version"]))
            total = json.loads(await (await c.get(f"/t/{gid}/frames/1000")).text())["total"]
            if total != replay:  # the public replay grew
                out["frames"].append(total)
                replay = total
            last = now
        assert steps == KINDS[what], (what, steps)
        # the rival locks in (the turn resolves): the next push is that, nothing of p1's steps before it
        while await step(service, gid, "p2", "pass"):
            pass
        after = seen(await (await c.get(f"/t/{gid}?lang=en")).text())
        push = await next_push(stream)
        assert str(push["version"]) not in [first["public"][0], *out["pushes"]], "a stale push of p1's steps"
        while str(push["version"]) != after[0]:  # the turn's own changes, up to the page as it is now
            push = await next_push(stream)
        stream.close()
        return out
    finally:
        await c.close()


async def test_the_kind_of_a_secret_order_leaves_no_trace_on_the_web(service):
    traces = {what: await trace(service, what) for what in KINDS}
    want = traces["pass"]
    # one change per order for anyone and for the rival crew: one more log line, one more replay step
    assert want["public"] == [1] and want["rival"] == [1], want
    assert len(want["pushes"]) == 1 and want["frames"] == [1], want
    for what, got in traces.items():
        assert {k: len(v) for k, v in got.items()} == {k: len(v) for k, v in want.items()}, (what, got)
        assert got["public"] == want["public"] and got["rival"] == want["rival"], (what, got)


async def test_a_crew_sees_its_own_steps(service):
    """The crew building the order sees each of its own steps (its log is its own to read)."""
    gid = await open_two_player(service, "armor_clash")
    c = TestClient(TestServer(make_app(service, limits=Limits(rate=1000, burst=1000, row_seconds=0))))
    await c.start_server()
    try:
        sessions = service.web_sessions
        sid, _, _ = await sessions.redeem_link(await sessions.link_token(HOST, gid))
        jar = {"tg_session": sid}
        before = seen(await (await c.get(f"/t/{gid}", cookies=jar)).text())
        assert await step(service, gid, "p1", "move")
        page = await (await c.get(f"/t/{gid}", cookies=jar)).text()
        assert 'class="you"' in page, "signed in as the crew"
        mid = seen(page)
        assert mid[1] == before[1] + 1 and mid[0] != before[0]
    finally:
        await c.close()

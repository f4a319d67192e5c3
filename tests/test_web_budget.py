"""A web visitor cannot take the game off Discord (issue 28 item 1): the companion, in the
bot's process, holds no more connections than the process can afford under its open-files
limit, with a cap per address and per network prefix; beyond them a 503 with Retry-After;
the pressure is logged once.  The visitors run in a process of their own
(tests/webflood.py), from many loopback addresses."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sys
from pathlib import Path

import aiohttp
import pytest
from conftest import Clock, make_store
from webtables import move, open_two_player

from tables import TableService
from web import Limits
from web.app import COMPANION, start
from web.serve.guard import HEADERS, open_files

resource = pytest.importorskip("resource")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.0.0/8 as many visitors: Linux")

FLOOD = Path(__file__).resolve().parent / "webflood.py"


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    svc = TableService(s, clock=clock)
    yield svc
    await s.close()


class Flood:
    """The visitors' process: ``await Flood.open(...)``; ``summary`` is what it saw."""

    def __init__(self, proc: asyncio.subprocess.Process, summary: dict) -> None:
        self.proc, self.summary = proc, summary

    @classmethod
    async def open(cls, port: int, path: str, addresses: list[str], per: int) -> Flood:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(FLOOD),
            str(port),
            path,
            ",".join(addresses),
            str(per),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 120)
        return cls(proc, json.loads(line))

    async def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        await asyncio.wait_for(self.proc.wait(), 60)


async def until(condition, what: str) -> None:
    """Wait for a condition the server reaches (no fixed sleep): bounded, then fail."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def pressure_lines(caplog) -> list[str]:  # (caplog sees asyncio's lines as well)
    return [r.getMessage() for r in caplog.records if "under pressure" in r.getMessage()]


async def get(port: int, path: str, source: str) -> tuple[int, dict[str, str]]:
    conn = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=conn) as http:
        async with http.get(f"http://127.0.0.1:{port}{path}") as r:
            await r.read()
            return r.status, dict(r.headers)


async def test_a_flood_of_live_pages_leaves_the_process_its_files(service, caplog, tmp_path):
    """100 visitors in 100 networks open 3 live pages each under an open-files limit of what
    is open now + 200: the companion holds what the budget allows, refuses the rest with 503
    and Retry-After, and the process can still open files, save a move and serve a page."""
    caplog.set_level(logging.INFO, logger="tabletop.web")
    gid = await open_two_player(service, "automobile")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_files() + 300, hard))
    flood = None
    runner = await start(
        service,
        0,
        host="127.0.0.1",
        limits=Limits(rate=1e6, burst=1e6, reserve_files=64, raise_files_to=0, streams_per_prefix=1000),
    )
    try:
        comp = runner.app[COMPANION]
        assert comp.gate is not None
        budget, streams = comp.gate.budget, comp.streams.total
        assert 0 < streams < budget <= 300 - 64
        port = runner.addresses[0][1]
        flood = await Flood.open(port, f"/t/{gid}/live", [f"127.0.{k}.2" for k in range(1, 101)], 3)
        got = flood.summary
        assert got["held"] == streams, got  # all the live pages the budget allows, no more
        # the rest: answered 503 with Retry-After (or, in the burst, reset), none left waiting
        assert got["status"].get("503", 0) + got["failed"] == 300 - streams and got["retry_after"] == ["30"], got
        assert got["status"].get("503", 0) > 0, got
        assert comp.gate.open <= budget
        assert not [r for r in caplog.records if "out of system resource" in r.getMessage()]
        # the process still has what a click needs: files, the database, a page for a new visitor
        (tmp_path / "still.txt").write_text("ok")  # a new file
        before = (await service.row(gid)).version
        await move(service, gid, 1)
        assert (await service.row(gid)).version > before
        status, headers = await get(port, f"/t/{gid}", "127.0.200.2")
        assert status == 200
        # a new visitor's live page: refused at once, with the headers and Retry-After
        status, headers = await get(port, f"/t/{gid}/live", "127.0.201.2")
        assert status == 503 and headers["Retry-After"] == "30"
        assert all(headers.get(k) == v for k, v in HEADERS.items())
        assert len(pressure_lines(caplog)) == 1, pressure_lines(caplog)  # once, not per refusal
        await flood.close()
        flood = None
        await until(lambda: comp.streams.open == 0 and comp.gate.open == 0, "the streams closed")
    finally:
        if flood is not None:
            await flood.close()
        await runner.cleanup()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.parametrize(
    "limits, addresses, per, held",
    [
        # more connections than the budget, from 100 networks: the budget holds
        (Limits(connections=50), [f"127.0.{k}.2" for k in range(1, 101)], 2, 50),
        # 100 addresses of one /24: the prefix's cap holds
        (Limits(connections_per_prefix=40), [f"127.0.0.{k}" for k in range(2, 102)], 2, 40),
        # one address: its cap holds
        (Limits(connections_per_client=6), ["127.0.0.2"], 20, 6),
    ],
    ids=["budget", "prefix", "address"],
)
async def test_connections_that_never_finish_a_request_are_capped(service, caplog, limits, addresses, per, held):
    caplog.set_level(logging.INFO, logger="tabletop.web")
    limits = dataclasses.replace(limits, rate=1e6, burst=1e6, raise_files_to=0)
    runner = await start(service, 0, host="127.0.0.1", limits=limits)
    comp = runner.app[COMPANION]
    gate = comp.gate
    assert gate is not None
    flood = None
    try:
        port = runner.addresses[0][1]
        flood = await Flood.open(port, "-", addresses, per)
        total = len(addresses) * per
        await until(lambda: gate.open + gate.refused >= total, "every connection admitted or refused")
        assert gate.open == held and gate.refused == total - held
        # (the refused ones that never read their answer are let go after a moment)
        await until(lambda: gate.lingering == 0, "the refused connections closed")
        if held == 50:  # the budget is full: a new visitor is answered 503 at once, headers and all
            status, headers = await get(port, "/", "127.0.250.2")
            assert status == 503 and headers["Retry-After"] == "30"
            assert all(headers.get(k) == v for k, v in HEADERS.items())
        else:  # another network is served
            assert (await get(port, "/", "127.0.250.2"))[0] == 200
        assert len(pressure_lines(caplog)) == 1, pressure_lines(caplog)
        await flood.close()
        flood = None
        await until(lambda: gate.open == 0, "the connections closed")
        assert (await get(port, "/", addresses[0]))[0] == 200  # served again once they left
    finally:
        if flood is not None:
            await flood.close()
        await runner.cleanup()


def test_a_network_prefix_is_a_slash_24_or_a_slash_64():
    from web.serve.guard import prefix

    assert prefix("203.0.113.7") == prefix("203.0.113.200") == "203.0.113.0/24"
    assert prefix("203.0.114.7") != prefix("203.0.113.7")
    assert prefix("::ffff:203.0.113.7") == "203.0.113.0/24"  # an IPv4 visitor on a dual-stack socket
    assert prefix("2001:db8:1:2:aaaa::1") == prefix("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert prefix("2001:db8:1:3::1") != prefix("2001:db8:1:2::1")
    assert prefix("fe80::1%eth0") == "fe80::/64" and prefix("?") == "?"

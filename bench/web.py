"""The web companion under load: page latency and live-update latency.

    python bench/web.py [--tables 50] [--viewers 200] [--database URL]

Sets up ``--tables`` running tables (real games, played a few decisions by the AI)
in a fresh database (SQLite in a temporary directory, or ``--database`` such as a
PostgreSQL URL), serves the companion on a loopback port, and then:

* ``--viewers`` viewers open a live page each (its Server-Sent Events stream stays
  open throughout; the tables spread over the viewers);
* pages: meanwhile every viewer loads table pages (``GET /t/<id>``) ``--pages``
  times, a think time of ``--think`` seconds (uniform, as a person reading) apart;
  the p99 of the request time;
* live: one move is made through the table service on each table, one after
  another; for every viewer of that table, the time from the start of the service
  call to the arrival of the page update; the p99 of those.

Clients and server share this one process (and its cores), so the figures include
the clients' own work.

Prints one line: ``web tables=<n> viewers=<v> page_p99_ms=<x> live_p99_ms=<y>``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web as aioweb

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from webtables import move, open_two_player  # noqa: E402

from store import open_store  # noqa: E402
from tables import TableService  # noqa: E402
from web import Limits, make_app  # noqa: E402

GAMES = ("thunder_road", "automobile", "city_of_fury", "armor_clash")


def p99(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))] if s else float("nan")


async def main(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp(prefix="tg-web-bench-")
    store = open_store(args.database or f"{tmp}/bench.db")
    await store.open()
    service = TableService(store)
    ids = []
    for i in range(args.tables):
        gid = await open_two_player(service, GAMES[i % len(GAMES)], seed=100 + i)
        await move(service, gid, 2)
        ids.append(gid)
    app = make_app(service, limits=Limits(rate=1e6, burst=1e6, streams_per_client=10**6))
    runner = aioweb.AppRunner(app, access_log=None)
    await runner.setup()
    site = aioweb.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        for gid in ids:  # the first view of each table builds its page (then cached per version)
            async with http.get(f"{base}/t/{gid}") as r:
                await r.read()

        # ---------------------------------------------------------- live pages open
        started: dict[int, float] = {}
        live_ms: list[float] = []
        ready = 0
        all_ready = asyncio.Event()

        async def watcher(v: int) -> None:
            nonlocal ready
            gid = ids[v % len(ids)]
            async with http.get(f"{base}/t/{gid}/live", timeout=aiohttp.ClientTimeout(total=None)) as r:
                ready += 1
                if ready == args.viewers:
                    all_ready.set()
                event = None
                async for raw in r.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "board":
                        json.loads(line[6:])
                        live_ms.append((time.perf_counter() - started[gid]) * 1000)
                        return

        tasks = [asyncio.create_task(watcher(v)) for v in range(args.viewers)]
        await asyncio.wait_for(all_ready.wait(), 60)

        # ---------------------------------------------------------- pages
        page_ms: list[float] = []
        rng = random.Random(1)

        async def viewer(v: int) -> None:
            await asyncio.sleep(rng.uniform(0, args.think))
            for k in range(args.pages):
                gid = ids[(v + k) % len(ids)]
                t0 = time.perf_counter()
                async with http.get(f"{base}/t/{gid}") as r:
                    await r.read()
                    assert r.status == 200, r.status
                page_ms.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)

        await asyncio.gather(*(viewer(v) for v in range(args.viewers)))

        # ---------------------------------------------------------- live
        for gid in ids:
            started[gid] = time.perf_counter()
            await move(service, gid, 1)
            await asyncio.sleep(args.gap)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
    await runner.cleanup()
    await store.close()
    if args.verbose:
        for name, xs in (("page", page_ms), ("live", live_ms)):
            xs = sorted(xs)
            print(
                f"{name}: n={len(xs)} p50={xs[len(xs) // 2]:.1f} p90={xs[int(0.9 * (len(xs) - 1))]:.1f} max={xs[-1]:.1f}"
            )
    print(
        f"web tables={args.tables} viewers={args.viewers} page_p99_ms={p99(page_ms):.1f} live_p99_ms={p99(live_ms):.1f}"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--pages", type=int, default=10, help="page loads per viewer")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a viewer's page loads")
    ap.add_argument("--gap", type=float, default=0.05, help="seconds between two tables' moves")
    ap.add_argument("--verbose", action="store_true", help="also the median, p90 and maximum")
    ap.add_argument("--database", default=None, help="a TG_DATABASE value (default: SQLite in a temporary directory)")
    asyncio.run(main(ap.parse_args()))

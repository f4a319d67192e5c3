"""The web companion under load: page latency and live-update latency.

    python bench/web.py [--tables 50] [--viewers 200] [--clients 2] [--database URL]

Sets up ``--tables`` running tables (real games, played a few decisions by the AI)
in a fresh database (SQLite in a temporary directory, or ``--database`` such as a
PostgreSQL URL) and serves the companion on a loopback port from this process (as
the bot does).  The viewers run in ``--clients`` other processes (so their own work
is not counted in the server's), on the same machine:

* every viewer opens a live page (its Server-Sent Events stream stays open
  throughout; the tables spread over the viewers);
* pages: meanwhile every viewer loads table pages (``GET /t/<id>``) ``--pages``
  times, ``--think`` seconds apart on average (uniform 0.5-1.5x, as a person
  reading); the p99 of the request times;
* live: one move is made through the table service on each table, one after
  another; for every viewer of that table, the time from the start of the service
  call to the arrival of the page update (one monotonic clock for all processes);
  the p99 of those.

Prints one line: ``web tables=<n> viewers=<v> page_p99_ms=<x> live_p99_ms=<y>``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GAMES = ("thunder_road", "automobile", "city_of_fury", "armor_clash")


def p99(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))] if s else float("nan")


# ------------------------------------------------------------------ viewers (a client process)
async def viewers(base: str, ids: list[int], first: int, count: int, pages: int, think: float) -> None:
    import aiohttp

    arrivals: dict[int, list[float]] = {}
    page_ms: list[float] = []
    ready = 0
    all_ready = asyncio.Event()
    go = asyncio.Event()
    rng = random.Random(first)

    async def live(v: int, http) -> None:
        nonlocal ready
        gid = ids[v % len(ids)]
        async with http.get(f"{base}/t/{gid}/live", timeout=aiohttp.ClientTimeout(total=None)) as r:
            assert r.status == 200, r.status
            ready += 1
            if ready == count:
                all_ready.set()
            event = None
            async for raw in r.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "board":
                    json.loads(line[6:])
                    arrivals.setdefault(gid, []).append(time.monotonic())
                    return

    async def reader(v: int, http) -> None:
        await asyncio.sleep(rng.uniform(0, think))
        for k in range(pages):
            gid = ids[(v + k) % len(ids)]
            t0 = time.perf_counter()
            async with http.get(f"{base}/t/{gid}") as r:
                await r.read()
                assert r.status == 200, r.status
            page_ms.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)

    async def stdin_line() -> str:
        return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        streams = [asyncio.create_task(live(v, http)) for v in range(first, first + count)]
        await asyncio.wait_for(all_ready.wait(), 120)
        print("ready", flush=True)
        await stdin_line()  # every client's streams are open: read pages
        go.set()
        await asyncio.gather(*(reader(v, http) for v in range(first, first + count)))
        print("pages", flush=True)
        await asyncio.wait_for(asyncio.gather(*streams), 120)
    print(json.dumps({"page_ms": page_ms, "arrivals": arrivals}), flush=True)


# ------------------------------------------------------------------ the server (this process)
async def main(args: argparse.Namespace) -> None:
    from aiohttp import web as aioweb
    from webtables import move, open_two_player

    from store import open_store
    from tables import TableService, due_times
    from web import Limits, make_app

    tmp = tempfile.mkdtemp(prefix="tg-web-bench-")
    store = open_store(args.database or f"{tmp}/bench.db", due=due_times)
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
    await aioweb.TCPSite(runner, "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    import aiohttp

    async with aiohttp.ClientSession() as http:  # the first view of each table builds its page (then cached)
        for gid in ids:
            async with http.get(f"{base}/t/{gid}") as r:
                await r.read()

    per = -(-args.viewers // args.clients)
    procs = []
    for c in range(args.clients):
        first, count = c * per, min(per, args.viewers - c * per)
        if count <= 0:
            break
        cmd = [sys.executable, __file__, "--worker", base, json.dumps(ids), str(first), str(count)]
        cmd += ["--pages", str(args.pages), "--think", str(args.think)]
        procs.append(
            await asyncio.create_subprocess_exec(
                *cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, limit=2**26, cwd=str(ROOT)
            )
        )

    async def expect(word: str) -> None:
        for p in procs:
            assert p.stdout is not None
            line = (await asyncio.wait_for(p.stdout.readline(), 300)).decode().strip()
            assert line == word, f"a viewer process said {line!r}, not {word!r}"

    await expect("ready")
    await asyncio.sleep(0.5)
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        await p.stdin.drain()
    await expect("pages")
    started: dict[int, float] = {}
    for gid in ids:
        started[gid] = time.monotonic()
        await move(service, gid, 1)
        await asyncio.sleep(args.gap)
    page_ms: list[float] = []
    live_ms: list[float] = []
    for p in procs:
        assert p.stdout is not None
        got = json.loads((await asyncio.wait_for(p.stdout.readline(), 300)).decode())
        await p.wait()
        page_ms += got["page_ms"]
        for gid, times in got["arrivals"].items():
            live_ms += [(t - started[int(gid)]) * 1000 for t in times]
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
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--clients", type=int, default=2, help="viewer processes")
    ap.add_argument("--pages", type=int, default=10, help="page loads per viewer")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a viewer's page loads")
    ap.add_argument("--gap", type=float, default=0.05, help="seconds between two tables' moves")
    ap.add_argument("--verbose", action="store_true", help="also the median, p90 and maximum")
    ap.add_argument("--database", default=None, help="a TG_DATABASE value (default: SQLite in a temporary directory)")
    ap.add_argument("--worker", nargs=4, metavar=("BASE", "IDS", "FIRST", "COUNT"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        b, i, f, n = a.worker
        asyncio.run(viewers(b, json.loads(i), int(f), int(n), a.pages, a.think))
    else:
        asyncio.run(main(a))

"""The web companion under a flood of live pages, at an open-files limit (issue 28 item 1).

    python bench/web_flood.py [--limit 1024] [--fixed] [--visitors 100] [--per 12]

Sets this process's soft open-files limit to ``--limit`` (``--fixed``: the companion may not
raise it, as where the hard limit is the same), serves the companion from this process on a loopback port
(as the bot does: ``web.start``, which raises the soft limit where allowed and sizes its
budget), and opens ``--per`` live pages from each of ``--visitors`` loopback addresses in
different /24 networks (127.0.k.2) from another process (tests/webflood.py).  While they are
held it does three "clicks" as the bot would: a move saved through the table service, a new
TCP connection (as to Discord; to a listener in this process) and a new file; and a new
visitor loads a page.  Loopback only; stops by itself.

Prints the limit, the budget, what the visitors got (held, 503, reset), the peak of open
files, the clicks that worked, the page's status, and the ERROR and pressure lines logged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


class Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.errors = 0
        self.pressure = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.errors += 1
        if "under pressure" in record.getMessage():
            self.pressure += 1


async def main(args) -> None:
    import aiohttp
    from webtables import move, open_two_player

    from store import SqliteStore
    from tables import TableService, due_times
    from web.app import COMPANION, start

    def open_files() -> int:
        return len(os.listdir("/proc/self/fd"))

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (args.limit, hard))
    counted = Count()
    logging.getLogger().addHandler(counted)
    logging.getLogger().setLevel(logging.INFO)
    tmp = tempfile.mkdtemp()
    store = SqliteStore(str(Path(tmp) / "flood.db"), due=due_times)
    await store.open()
    service = TableService(store)
    gid = await open_two_player(service, "automobile")
    from web import Limits

    fixed = {"limits": Limits(raise_files_to=0)} if args.fixed and hasattr(Limits, "raise_files_to") else {}
    runner = await start(service, 0, host="127.0.0.1", **fixed)  # (--fixed: as if the hard limit were --limit)
    comp = runner.app[COMPANION]
    port = runner.addresses[0][1]
    soft_now, hard_now = resource.getrlimit(resource.RLIMIT_NOFILE)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    discord_port = listener.getsockname()[1]
    peak = open_files()

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, open_files())
            await asyncio.sleep(0.05)

    sampler = asyncio.create_task(sample())
    addresses = [f"127.0.{k}.2" for k in range(1, args.visitors + 1)]
    t0 = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "tests" / "webflood.py"),
        str(port),
        f"/t/{gid}/live",
        ",".join(addresses),
        str(args.per),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdin is not None
    got = json.loads(await asyncio.wait_for(proc.stdout.readline(), 120))
    flood_s = time.monotonic() - t0

    clicks, click_ms = 0, []
    for i in range(3):
        t = time.monotonic()
        ok = True
        try:
            await asyncio.wait_for(move(service, gid, 1), 10)
            r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", discord_port), 10)
            w.close()
            (Path(tmp) / f"click{i}.txt").write_text("ok")  # a new file (briefly blocking: a figure)
        except Exception as exc:  # noqa: BLE001 -- a failed click is a figure
            print(f"click {i} failed: {exc!r}")
            ok = False
        clicks += ok
        click_ms.append((time.monotonic() - t) * 1000)
    t = time.monotonic()
    try:
        conn = aiohttp.TCPConnector(local_addr=("127.0.250.2", 0), force_close=True)
        async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=10)) as http:
            async with http.get(f"http://127.0.0.1:{port}/t/{gid}") as r:
                await r.read()
                page = str(r.status)
    except Exception as exc:  # noqa: BLE001
        page = type(exc).__name__
    page_ms = (time.monotonic() - t) * 1000
    proc.stdin.close()
    await asyncio.wait_for(proc.wait(), 60)
    sampler.cancel()
    gate = getattr(comp, "gate", None)
    cap = comp.streams.total if hasattr(comp, "streams") else comp.limits.streams
    print(
        f"web_flood limit={args.limit}{' fixed' if args.fixed else ''} soft_after_start={soft_now} hard={hard_now} "
        f"budget={gate.budget if gate else '-'} live_cap={cap} "
        f"attempts={args.visitors * args.per} held={got['held']} http503={got['status'].get('503', 0)} "
        f"reset={got['failed']} timed_out={got['status'].get('timeout', 0)} flood_s={flood_s:.1f} peak_open_files={peak} "
        f"clicks_ok={clicks}/3 click_ms={'/'.join(f'{m:.0f}' for m in click_ms)} "
        f"new_page={page} page_ms={page_ms:.0f} error_lines={counted.errors} pressure_lines={counted.pressure}"
    )
    await runner.cleanup()
    await store.close()
    listener.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--limit", type=int, default=1024)
    p.add_argument("--fixed", action="store_true", help="the companion may not raise the limit (as if hard = --limit)")
    p.add_argument("--visitors", type=int, default=100)
    p.add_argument("--per", type=int, default=12)
    asyncio.run(main(p.parse_args()))

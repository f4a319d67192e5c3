"""One scheduler pass over many running tables, few of them due.

    python bench/scheduler.py --database URL --tables 10000 --due 100 [--passes 20]

Fills an empty database with ``--tables`` running tables, each with a human seat
waiting; ``--due`` of them have waited longer than the reminder interval.  Then
times the table service's scheduler pass (``TableService.due``: the store's read
of the due tables plus each waiting member's reminder preferences), which is all
the store work of a pass before any Discord message.  Prints exactly one line
(the median pass of ``--passes``):

    scheduler <sqlite|postgresql> tables=<n> due=<m> pass_ms=<float>

Target: under 100 ms with 10,000 tables of which 100 are due, on both backends.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from store import Seat, backend_of, open_store  # noqa: E402
from tables import TableService, due_times  # noqa: E402

GAME = "thunder_road"
HOUR = 3600.0


async def fill(store, n: int, due: int, now: float) -> None:
    game = get_game(GAME)
    state = game.new(["p1", "p2"], {}, 1).model_dump_json()
    clock = store.clock
    try:
        for i in range(n):
            # the first ``due`` tables have waited 13 hours (past the 12-hour default reminder)
            started = now - 13 * HOUR if i < due else now - 60.0
            store.clock = lambda started=started: started
            row = await store.create_game(
                guild_id=1 + i % 50,
                channel_id=10_000 + i,
                game=GAME,
                host_id=1000 + i,
                options={},
                seed=i,
                seats=[Seat("p1", 1000 + i), Seat("p2", 2000 + i)],
                status="active",
                state_json=state,
            )
            await store.update_game(row.id, row.version, to_act=["p1"])
    finally:
        store.clock = clock


async def run(url: str, tables: int, due: int, passes: int) -> float:
    store = open_store(url, due=due_times)
    await store.open()
    try:
        if await store.count_games():
            raise SystemExit("bench/scheduler.py needs an empty database")
        now = time.time()
        t0 = time.perf_counter()
        await fill(store, tables, due, now)
        print(f"filled {tables} tables in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        service = TableService(store, clock=lambda: now)
        times = []
        for _ in range(passes):
            service.settings._cache.clear()  # every pass pays for its settings reads
            t = time.perf_counter()
            work = await service.due(now)
            times.append((time.perf_counter() - t) * 1000)
            if len(work) != due:
                raise SystemExit(f"the pass found {len(work)} due tables, expected {due}")
        t = time.perf_counter()
        waiting = await store.waiting_tables()
        print(
            f"for comparison, reading every waiting table ({len(waiting)}): {(time.perf_counter() - t) * 1000:.1f} ms",
            file=sys.stderr,
        )
        return statistics.median(times)
    finally:
        await store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database", required=True, help="an empty database: a new SQLite file or postgresql://...")
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--due", type=int, default=100)
    ap.add_argument("--passes", type=int, default=20)
    args = ap.parse_args()
    ms = asyncio.run(run(args.database, args.tables, args.due, args.passes))
    print(f"scheduler {backend_of(args.database)} tables={args.tables} due={args.due} pass_ms={ms:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Turns through the table service (load, apply, save, render) with many games stored.

    python bench/pipeline.py [--turns 300] [--games 1,10000] [--game city_of_fury]
    python bench/pipeline.py --game all --turns 200 --games 1
    python bench/pipeline.py --race 1000

``--game all`` runs every game in one run and then prints how Thunder Road's render
compares with the others' (issue 20: at most 1.5x their median):
``render: thunder_road=<ms> others_median=<ms> ratio=<r>`` (medians of the render stage),
then the same from the CPU time of drawing each turn's board once more on the bench's own
thread (``time.thread_time``), which a loaded machine does not skew:
``render_cpu: thunder_road=<ms> others_median=<ms> ratio=<r>``.

``--race N`` instead races N reads of one table against a writer changing its
seats and state, once with the separate WAL read connection and once with
reads waiting for the write lock, and prints per mode:
``reads racing writes: mode=<reader|write_lock> tried=<n> inconsistent=<n> writes=<n> read_p50_ms=<f> read_p99_ms=<f>``.

Prints median and p99 per stage and for the whole turn, for each database size.
The whole-turn figure is what a click costs between Discord's interaction and
our reply (minus network).  Targets: pipeline p99 < 150 ms, render < 40 ms,
no growth from 1 to 10,000 stored games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from render import render as draw  # noqa: E402
from store import Seat, SqliteStore  # noqa: E402
from tables import TableService, due_times  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


async def fill(store: SqliteStore, game_id: str, n: int) -> list[int]:
    game = get_game(game_id)
    seats = [f"p{i + 1}" for i in range(game.min_seats)]
    ids = []
    for i in range(n):
        state = game.new(seats, {}, i)
        row = await store.create_game(
            guild_id=1,
            channel_id=10_000 + i,
            game=game_id,
            host_id=1,
            options={},
            seed=i,
            seats=[Seat(s, 1000 + k) for k, s in enumerate(seats)],
            status="active",
            state_json=state.model_dump_json(),
        )
        ids.append(row.id)
    return ids


async def run(game_id: str, n_games: int, turns: int, path: Path) -> dict[str, list[float]]:
    store = SqliteStore(path, due=due_times)
    await store.open()
    ids = await fill(store, game_id, n_games)
    pipe = TableService(store)
    game = get_game(game_id)
    totals: list[float] = []
    cpu: list[float] = []
    pipe.timings = {}
    rng_pick = 0
    target = ids[len(ids) // 2]
    done = 0
    while done < turns:
        row = await store.get_game(target)
        if row.status != "active":  # finished: start a new table in a fresh channel
            state = game.new([s.seat for s in row.seats], {}, done)
            row = await store.create_game(
                guild_id=1,
                channel_id=900_000 + done,
                game=game_id,
                host_id=1,
                options={},
                seed=done,
                seats=row.seats,
                status="active",
                state_json=state.model_dump_json(),
            )
            target = row.id
            continue
        seat_user = {s.seat: s.user_id for s in row.seats}
        state = game.load(row.state_json)
        seat = game.to_act(state)[0]

        def pick(g, st, s, legal):
            return g.ai_action(st, s)

        t0 = time.perf_counter()
        result = await pipe.act(target, seat_user[seat], pick)
        await pipe.render(result.game, result.state, None, "en")
        totals.append(time.perf_counter() - t0)
        c0 = time.thread_time()
        draw(game_id, game.view(result.state, None), "en")
        cpu.append(time.thread_time() - c0)
        done += 1
        rng_pick += 1
    await store.close()
    timings = dict(pipe.timings)
    timings["turn"] = totals
    timings["render_cpu"] = cpu
    return timings


async def race(path: Path, reads: int, mode: str) -> str:
    store = SqliteStore(path, due=due_times)
    await store.open()
    if mode == "write_lock":  # the alternative design: reads wait for the writer on its connection
        assert store._reader is not None
        await store._reader.close()
        store._reader = None
    row = await store.create_game(
        guild_id=1, channel_id=1, game="city_of_fury", host_id=1, options={}, seed=1, seats=[Seat("p1", 1)]
    )
    version, stop, bad, times = row.version, False, 0, []

    async def writer() -> None:
        nonlocal version
        n = 0
        while not stop:
            n += 1
            seats = [Seat(f"p{i + 1}", 100 + i) for i in range(1 + n % 4)]
            state = json.dumps({"seats": len(seats), "version": version + 1})
            version = await store.update_game(row.id, version, seats=seats, state_json=state)

    async def reader(k: int) -> None:
        nonlocal bad
        for _ in range(k):
            t0 = time.perf_counter()
            got = await store.get_game(row.id)
            times.append(time.perf_counter() - t0)
            if got.version != row.version:
                state = json.loads(got.state_json)
                bad += state != {"seats": len(got.seats), "version": got.version}
            await asyncio.sleep(0)

    w = asyncio.create_task(writer())
    await asyncio.gather(*[reader(reads // 4) for _ in range(4)])
    stop = True
    await w
    await store.close()
    return (
        f"reads racing writes: mode={mode} tried={len(times)} inconsistent={bad} writes={version - row.version}"
        f" read_p50_ms={statistics.median(times) * 1000:.2f} read_p99_ms={pct(times, 0.99) * 1000:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--games", default="1,10000")
    ap.add_argument("--game", default="city_of_fury")
    ap.add_argument("--race", type=int, default=0, help="race this many reads against writes instead")
    args = ap.parse_args()
    if args.race:
        for mode in ("reader", "write_lock"):
            with tempfile.TemporaryDirectory() as tmp:
                print(asyncio.run(race(Path(tmp) / "race.db", args.race, mode)))
        return
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {platform.machine()} · {os.cpu_count()} cores · "
        f"Python {platform.python_version()} · game {args.game}"
    )
    games = ["thunder_road", "automobile", "armor_clash", "city_of_fury"] if args.game == "all" else [args.game]
    renders: dict[str, float] = {}
    cpus: dict[str, float] = {}
    for game_id in games:
        if len(games) > 1:
            print(f"# game {game_id}")
        print(f"{'games stored':>12} {'stage':>8} {'median ms':>10} {'p99 ms':>8} {'n':>6}")
        for n in [int(x) for x in args.games.split(",")]:
            with tempfile.TemporaryDirectory() as tmp:
                timings = asyncio.run(run(game_id, n, args.turns, Path(tmp) / "bench.db"))
            for stage in ("load", "apply", "save", "render", "turn"):
                vals = timings.get(stage, [])
                if vals:
                    print(
                        f"{n:>12} {stage:>8} {statistics.median(vals) * 1000:>10.2f} {pct(vals, 0.99) * 1000:>8.2f} {len(vals):>6}"
                    )
            if timings.get("render"):
                renders[game_id] = statistics.median(timings["render"]) * 1000
                cpus[game_id] = statistics.median(timings["render_cpu"]) * 1000
    if "thunder_road" in renders and len(renders) > 1:
        for name, medians in (("render", renders), ("render_cpu", cpus)):
            others = statistics.median(v for k, v in medians.items() if k != "thunder_road")
            print(
                f"{name}: thunder_road={medians['thunder_road']:.2f} others_median={others:.2f} "
                f"ratio={medians['thunder_road'] / others:.2f}"
            )
        print(f"# load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

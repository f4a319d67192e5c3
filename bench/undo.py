"""Rebuilding a long game's state for undo and for ``/game replay <turn>``.

    python bench/undo.py [--database URL] [--steps 10,500,2000] [--game ID ...] [--runs 5] [--baseline]

For every game, plays one table through the table service (every seat a human,
so each turn logs one action; random legal moves that do not end the game) and,
when its log reaches each of ``--steps``, times what an undo rebuilds before it
commits anything: the store read (nearest snapshot and the actions after it) and
the replay from there, plus the replay of the taken-back tail that checks it
leads to the stored state (``tables.play.seats.Seats.undo_plan``).  No rendering, nothing
written.  Prints exactly one line per game and step (the median of ``--runs``):

    undo game=<id> step=<n> ms=<float>

followed by ``#`` lines: the same table's ``/game replay`` to that turn (store
read plus replay), and with ``--baseline`` both again without snapshots (the
replay from the seed every time).  A game whose every continuation ends before
a step is reported at the longest log it reached, with a ``#`` line saying so.

Target (issue 10 item 5): under 50 ms at step 2,000.  Default database: a
temporary SQLite file.  Run it under ``nice`` on a shared machine and record the
figures with ``uptime`` in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import available, get_game  # noqa: E402
from store import NewSnapshot, Seat, open_store  # noqa: E402
from tables import Loaded, TableService, due_times  # noqa: E402

FIRST_USER = 1000


def survive(rnd: random.Random):
    """Random legal moves that do not end the game while another move does not."""

    def pick(game, state, seat, legal):
        options = list(legal)
        rnd.shuffle(options)
        for action in options:
            after, _ = game.apply(state, seat, action)
            if game.outcome(after) is None:
                return action
        return options[0]

    return pick


async def timed(fn, runs: int) -> float:
    """Median wall-clock milliseconds of ``runs`` calls of ``fn``."""
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - started) * 1000)
    return statistics.median(out)


async def bench_game(store, gid: str, steps: list[int], runs: int, baseline: bool, channel: int) -> None:
    game = get_game(gid)
    lo, hi = game.seat_range(game.parse_options({}))
    seats = [Seat(f"p{i + 1}", FIRST_USER + i) for i in range(hi)]
    service = TableService(store)
    row = await store.create_game(
        guild_id=1, channel_id=channel, game=gid, host_id=FIRST_USER, options={}, seed=7, seats=seats
    )
    await service.lobby(row.id, FIRST_USER, "start")
    pick = survive(random.Random(7))
    for target in steps:
        ended = False
        while True:
            loaded = await service.load(row.id, statuses=("active", "finished"))
            if await store.count_actions(row.id) >= target:
                break
            if loaded.row.status != "active":
                ended = True
                break
            seat = loaded.game.to_act(loaded.state)[0]
            await service.act(row.id, loaded.row.user_of(seat), pick, seat=seat)
        n = await store.count_actions(row.id)
        last = (await store.actions(row.id, limit=1, offset=n - 1))[0]

        async def undo_rebuild(user: int = last.user_id) -> None:
            fresh = await service.load(row.id, statuses=("active", "finished"))  # the store read of the table
            await service.seats.undo_plan(Loaded(fresh.row, fresh.game, fresh.state), user)

        async def replay(turn: int = n) -> None:
            fresh = await store.get_game(row.id)
            await service.replay_state(fresh, turn)

        ms = await timed(undo_rebuild, runs)
        print(f"undo game={gid} step={n} ms={ms:.1f}", flush=True)
        if ended:
            print(
                f"#   {gid}: the game ended at step {n} (no move kept it going); step {target} not reached", flush=True
            )
        note = f"#   replay game={gid} turn={n} ms={await timed(replay, runs):.1f}"
        if baseline:
            every, service.snapshot_every = service.snapshot_every, 0
            saved = await store.snapshots(row.id)
            await store.drop_snapshots(row.id)
            note += f"; without snapshots: undo ms={await timed(undo_rebuild, 1):.1f}"
            note += f", replay ms={await timed(replay, 1):.1f}"
            service.snapshot_every = every
            await store.drop_snapshots(row.id)
            again = [NewSnapshot(s.key, s.state_json, s.action_id) for s in saved]
            await store.fill_snapshots(row.id, (await store.get_game(row.id)).version, again)
        snaps = await store.snapshots(row.id)
        size = sum(len(s.state_json) for s in snaps)
        print(f"{note}; {len(snaps)} snapshots, {size / 1024:.0f} KiB", flush=True)
        if ended:
            break


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database", help="TG_DATABASE URL (default: a temporary SQLite file)")
    ap.add_argument("--steps", default="10,500,2000")
    ap.add_argument("--game", action="append", help="only these games (default: every registered one)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", action="store_true", help="also time the replay from the seed")
    args = ap.parse_args()
    steps = sorted(int(s) for s in args.steps.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(args.database or os.path.join(tmp, "bench.db"), due=due_times)
        await store.open()
        try:
            print(f"# {type(store).__name__}, load average {os.getloadavg()[0]:.1f}", flush=True)
            for i, gid in enumerate(args.game or available()):
                await bench_game(store, gid, steps, args.runs, args.baseline, channel=random.randrange(1 << 40) + i)
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())

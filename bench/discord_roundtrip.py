"""Click-to-board latency through the real discord.py client and the local Discord stand-in.

    python bench/discord_roundtrip.py [--turns 200]

Each turn: a button click (MESSAGE_COMPONENT) -> the bot's ack (type 6) -> the new board
(the clicked message redrawn with the new PNG, or a new message when the turn passes on).  Network time to Discord is not included (none is reachable here).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def run(turns: int) -> tuple[list[float], list[float]]:
    acks, boards = [], []
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fd:
            table = Table(fd, Path(tmp) / "bench.db")
            user = fd.add_user(101, "bench")
            await table.start()
            while len(boards) < turns:
                ex = await fd.slash(user, "game new", {"game": "city_of_fury"})
                board = await table.wait_board(ex)
                gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
                while table.row(gid)["status"] == "active" and len(boards) < turns:
                    idx = table.ai_index(gid, "p1")
                    version = table.row(gid)["version"]
                    t0 = time.perf_counter()
                    ex = await table.choose(user, board, gid, idx)
                    await ex.wait_ack()
                    acks.append(time.perf_counter() - t0)
                    board = await table.next_board(ex, gid, version)  # redrawn in place or posted anew
                    boards.append(time.perf_counter() - t0)
                if table.row(gid)["status"] == "active":
                    break
                ex = await fd.slash(user, "game status")  # finished: the channel is free for the next table
                await ex.wait_response()
    return acks, boards


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=200)
    args = ap.parse_args()
    acks, boards = asyncio.run(run(args.turns))
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {platform.machine()} · {os.cpu_count()} cores · "
        f"load {os.getloadavg()[0]:.1f}"
    )
    for name, vals in (("click -> ack", acks), ("click -> board", boards)):
        print(
            f"{name:>15}: median {statistics.median(vals) * 1000:.1f} ms, p99 {pct(vals, 0.99) * 1000:.1f} ms, n={len(vals)}"
        )


if __name__ == "__main__":
    main()

"""The route of one click, measured: which of the project's files a button press crosses.

    python bench/click_route.py [--game city_of_fury] [--edges]

A player presses an action button on the public board of a running table (the real
discord.py client against the local Discord stand-in) until the new board is posted.
Every Python call made meanwhile is recorded (sys.setprofile, also in the render
threads); a call from a function in one project file to a function in another is a
hop. Prints the project files crossed (by package) and the distinct cross-file hops;
``--edges`` lists them. The tests' stand-in and the libraries are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

OWN = ("bot.py", "cogs/", "tables/", "engine/", "render/", "store/", "web/")


_OWN: dict[str, str | None] = {}


def own(path: str) -> str | None:
    """``path`` relative to the checkout when it is one of the project's files, else None."""
    if path not in _OWN:
        try:
            rel: str | None = Path(path).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            rel = None
        _OWN[path] = rel if rel is not None and rel.startswith(OWN) else None
    return _OWN[path]


class Recorder:
    def __init__(self) -> None:
        self.files: set[str] = set()
        self.edges: set[tuple[str, str]] = set()
        self.on = False

    def __call__(self, frame, event, arg) -> None:
        if not self.on or event != "call":
            return
        callee = own(frame.f_code.co_filename)
        if callee is None:
            return
        self.files.add(callee)
        back = frame.f_back
        while back is not None and own(back.f_code.co_filename) is None:
            back = back.f_back  # through library frames (discord.py dispatch, asyncio) to our caller
        if back is None:
            return
        caller = own(back.f_code.co_filename)
        if caller is not None and caller != callee:
            self.edges.add((f"{caller}:{back.f_code.co_qualname}", f"{callee}:{frame.f_code.co_qualname}"))


async def run(game: str) -> Recorder:
    probe = Recorder()
    try:
        return await _run(game, probe)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


async def _run(game: str, probe: Recorder) -> Recorder:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fd:
            table = Table(fd, Path(tmp) / "route.db")
            user = fd.add_user(101, "route")
            await table.start()
            sys.setprofile(probe)  # before the first board: the render threads (started then) inherit it
            threading.setprofile(probe)
            ex = await fd.slash(user, "game new", {"game": game})
            board = await table.wait_board(ex)
            gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
            for _ in range(200):
                if table.row(gid)["status"] != "active":
                    raise SystemExit("the table ended before a click posted a new board")
                idx = table.choice_for(gid, "p1", table.ai_index(gid, "p1"))
                version = table.row(gid)["version"]
                probe.files.clear()
                probe.edges.clear()
                probe.on = True
                try:
                    ex = await table.choose(user, board, gid, idx)
                    await ex.wait_ack()
                    nxt = await table.next_board(ex, gid, version)
                finally:
                    probe.on = False
                await asyncio.sleep(0.5)  # the click's last replies, before the next click or the end
                if table.new_board(ex) is not None:  # posted anew (not redrawn in place): this is the click
                    return probe
                board = nxt
    raise SystemExit("no click posted a new board")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="city_of_fury")
    ap.add_argument("--edges", action="store_true")
    args = ap.parse_args()
    rec = asyncio.run(run(args.game))
    by: dict[str, list[str]] = defaultdict(list)
    for f in sorted(rec.files):
        by[f.split("/")[0] if "/" in f else f].append(f)
    print(f"click -> new board ({args.game}): {len(rec.files)} project files, {len(rec.edges)} cross-file hops")
    for pkg, files in sorted(by.items()):
        print(f"  {pkg:>7}: {len(files):3d}  {' '.join(Path(f).name for f in files)}")
    if args.edges:
        for a, b in sorted(rec.edges):
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()

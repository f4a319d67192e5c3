"""The route of one click, measured: which of the project's files a button press crosses.

    python bench/click_route.py [--players 1|2] [--game GAME] [--edges]

A player presses an action button on the public board of a running table (the real
discord.py client against the local Discord stand-in) until the new board is posted.
``--players 1`` (the default): one member against the AI, and the measured click is
the one that posts a new board: the game-ending click (until then each board is
redrawn in place).  ``--players 2``: two members (Thunder Road unless ``--game``), and the measured click is the first
whose turn passes to the other member (a new board, and its ping).
Every Python call made meanwhile is recorded (sys.setprofile, also in the render
threads); a call from a function in one project file to a function in another is a
hop. Prints the project files crossed (by package), the distinct cross-file hops, the
calls into the facade (tables/service.py and tables/<layer>/facade.py: in all, and from the board builder, which
reads down: tables/seeing/reads.py) and the reads of the table's row from the store
(``get_game``/``active_game``); ``--edges`` lists the hops. The tests' stand-in and the
libraries are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

OWN = ("bot.py", "cogs/", "tables/", "engine/", "render/", "store/", "web/")
#: the facade (tables/service.py and the layers' verb classes it is made of), and the board
#: builder with the modules it reads through
FACADE = (
    "tables/service.py",
    "tables/core/facade.py",
    "tables/play/facade.py",
    "tables/seeing/facade.py",
    "tables/people/facade.py",
)
BUILDER = ("tables/seeing/board.py", "tables/seeing/logtext.py", "tables/seeing/secrecy.py", "tables/seeing/catchup.py")
#: the store's reads of one table's row
ROW_READS = ("get_game", "active_game")


_OWN: dict[str, str | None] = {}
_RESUME = dis.opmap.get("RESUME")


def fresh(frame) -> bool:
    """Whether a profiler "call" starts a function (not a coroutine or generator resumed after
    an ``await``: Python 3.11+ marks the start with ``RESUME 0``)."""
    i, code = frame.f_lasti, frame.f_code.co_code
    return i < 0 or _RESUME is None or (code[i] == _RESUME and code[i + 1] == 0)


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
        self.calls: Counter[tuple[str, str]] = Counter()  # (caller file, callee file:function), every call
        self.row_reads = 0
        self.labels = 0  # seat labels built (tables/seeing/board.py: seat_labels)
        self.on = False

    def clear(self) -> None:
        self.files.clear()
        self.edges.clear()
        self.calls.clear()
        self.row_reads = 0
        self.labels = 0

    def __call__(self, frame, event, arg) -> None:
        if not self.on or event != "call":
            return
        callee = own(frame.f_code.co_filename)
        if callee is None:
            return
        self.files.add(callee)
        start = fresh(frame)
        if start and callee.startswith("store/") and frame.f_code.co_name in ROW_READS:
            self.row_reads += 1
        if start and callee == "tables/seeing/board.py" and frame.f_code.co_name == "seat_labels":
            self.labels += 1
        back = frame.f_back
        while back is not None and own(back.f_code.co_filename) is None:
            back = back.f_back  # through library frames (discord.py dispatch, asyncio) to our caller
        if back is None:
            return
        caller = own(back.f_code.co_filename)
        if caller is not None and caller != callee:
            self.edges.add((f"{caller}:{back.f_code.co_qualname}", f"{callee}:{frame.f_code.co_qualname}"))
            if start:
                self.calls[(caller, f"{callee}:{frame.f_code.co_qualname}")] += 1

    def facade_calls(self, only: tuple[str, ...] | None = None) -> tuple[int, int]:
        """(calls, distinct functions) into the facade from outside it (``only``: from these files)."""
        found = {
            callee: n
            for (caller, callee), n in self.calls.items()
            if callee.split(":")[0] in FACADE and caller not in FACADE and (only is None or caller in only)
        }
        return sum(found.values()), len(found)


async def run(game: str, players: int = 1) -> Recorder:
    probe = Recorder()
    try:
        return await _run(game, probe, players)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


async def _run(game: str, probe: Recorder, players: int) -> Recorder:
    from engine import get_game

    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fd:
            table = Table(fd, Path(tmp) / "route.db")
            users = {uid: fd.add_user(uid, f"route{uid}") for uid in range(101, 101 + players)}
            await table.start()
            sys.setprofile(probe)  # before the first board: the render threads (started then) inherit it
            threading.setprofile(probe)
            if players == 1:
                board = await table.wait_board(await fd.slash(users[101], "game new", {"game": game}))
                gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
            else:
                gid, board = await table.open_table(users[101], game, joiners=list(users.values())[1:])
            for _ in range(400):
                if table.row(gid)["status"] != "active":
                    raise SystemExit("the table ended before a click posted a new board")
                members = table.seat_user(gid)
                acting = get_game(game).to_act(table.state(gid))
                seat = next((s for s in acting if members.get(s) is not None), None)
                if seat is None:
                    raise SystemExit(f"no member is to act ({acting})")
                user = users[members[seat]]  # type: ignore[index]
                idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
                version = table.row(gid)["version"]
                probe.clear()
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
    ap.add_argument("--game", help="city_of_fury (one member; it starts at once), thunder_road (two)")
    ap.add_argument("--players", type=int, choices=(1, 2), default=1)
    ap.add_argument("--edges", action="store_true")
    args = ap.parse_args()
    args.game = args.game or ("city_of_fury" if args.players == 1 else "thunder_road")
    rec = asyncio.run(run(args.game, args.players))
    by: dict[str, list[str]] = defaultdict(list)
    for f in sorted(rec.files):
        by[f.split("/")[0] if "/" in f else f].append(f)
    print(
        f"click -> new board ({args.game}, {args.players} member{'s' if args.players > 1 else ''}): "
        f"{len(rec.files)} project files, {len(rec.edges)} cross-file hops"
    )
    (calls, names), (up, up_names) = rec.facade_calls(), rec.facade_calls(BUILDER)
    print(
        f"  facade calls: {calls} to {names} functions (from the board builder: {up} to {up_names}); "
        f"reads of the row: {rec.row_reads}; seat labels built: {rec.labels}"
    )
    for pkg, files in sorted(by.items()):
        print(f"  {pkg:>7}: {len(files):3d}  {' '.join(Path(f).name for f in files)}")
    if args.edges:
        for a, b in sorted(rec.edges):
            print(f"  {a} -> {b}")


if __name__ == "__main__":
    main()

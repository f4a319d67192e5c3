"""Several bot-side processes playing the same tables on one database.

    python bench/scale.py --database postgresql://... --processes 4 --tables 8 --seconds 20 [--kill-one]

Each worker process opens its own store and plays every running table through the
table service (``TableService.act``: load, apply, compare-and-swap commit), choosing the seat-filler AI's
action for whichever human seat is to act, so the processes race each other on
every turn.  A refusal because another process moved first (stale version, not
your turn, table just finished) is a legitimate race loss; anything else is an
error.  Every acknowledged turn is appended to the worker's own file *after* the
store acknowledged it.  ``--kill-one`` SIGKILLs worker 0 half-way and restarts it.

Afterwards every table of the run is replayed from its seed and log and compared
with the stored state, and every acknowledged turn is looked up in the log.
Prints exactly one line:

    scale <sqlite|postgresql> processes=<n> tables=<n> turns=<n> errors=<n> double_applies=<n> lost=<n> replay_mismatches=<n> auto_steps=<n>

(auto_steps: steps the platform took for a member, a forced single choice; not decisions,
so not double applies.)
(tables = tables played in this run, including those opened when one finished.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from store import ChannelBusy, Seat, StoreError, backend_of, open_store  # noqa: E402
from tables import TableService, TurnRefused, due_times  # noqa: E402
from tables.rules.decisions import decisions, taken_by  # noqa: E402

GAME = "thunder_road"
SEATS = ["p1", "p2"]
RACE_LOSSES = {"stale", "not_your_turn", "not_running", "chain_broken"}


def race_loss(exc: TurnRefused, read_version: int | None) -> bool:
    """A refusal another process caused: one of RACE_LOSSES, or "finished" for a table
    that was active at the version this worker read and that another process ended since
    (the refusal carries the ended row). A "finished" refusal at the version read is an
    error: the worker acted on a table the store itself called active."""
    if exc.code in RACE_LOSSES:
        return True
    ended = getattr(exc, "row", None)
    return exc.code == "finished" and ended is not None and read_version is not None and ended.version > read_version


def channel_of(base: int, slot: int) -> int:
    return base + slot


async def open_table(store, base: int, slot: int, seed: int) -> None:
    game = get_game(GAME)
    state = game.new(SEATS, {}, seed)
    try:
        await store.create_game(
            guild_id=1,
            channel_id=channel_of(base, slot),
            game=GAME,
            host_id=1000,
            options={},
            seed=seed,
            seats=[Seat(s, 1000 + k) for k, s in enumerate(SEATS)],
            status="active",
            state_json=state.model_dump_json(),
        )
    except ChannelBusy:  # another process opened the slot's next table first
        pass


# ------------------------------------------------------------------ worker
async def work(url: str, base: int, slots: int, until: float, ack_path: str, wid: int) -> int:
    store = open_store(url, due=due_times)
    try:
        await store.open()
    except StoreError as exc:
        print(f"worker {wid}: {exc}", file=sys.stderr)
        return 3
    service = TableService(store)
    game = get_game(GAME)
    rng = random.Random(os.getpid())
    errors = 0
    with open(ack_path, "a", encoding="utf-8") as acks:  # noqa: ASYNC230 -- one small append per turn
        while time.time() < until:
            order = list(range(slots))
            rng.shuffle(order)
            for slot in order:
                if time.time() >= until:
                    break
                row = None
                try:
                    row = await store.active_game(channel_of(base, slot))
                    if row is None:
                        await open_table(store, base, slot, rng.randrange(2**48))
                        continue
                    state = game.load(row.state_json)
                    waiting = [s for s in game.to_act(state) if row.user_of(s) is not None]
                    if not waiting:
                        continue
                    seat = waiting[0]
                    uid = row.user_of(seat)
                    picked: list = []

                    def pick(g, st, s, legal, picked=picked):
                        action = g.ai_action(st, s)
                        picked.append(g.parse_action(action).model_dump(mode="json"))
                        return action

                    result = await service.act(row.id, uid, pick, expected_version=row.version)
                    acks.write(json.dumps([row.id, result.row.version, seat, uid, picked[0]]) + "\n")
                    acks.flush()
                except TurnRefused as exc:
                    if not race_loss(exc, row.version if row is not None else None):
                        errors += 1
                        print(f"worker {wid}: refused {exc.code}", file=sys.stderr)
                except Exception as exc:  # noqa: BLE001 -- counted, reported, never hidden
                    errors += 1
                    if errors <= 5:
                        print(f"worker {wid}: {type(exc).__name__}: {exc}", file=sys.stderr)
    await store.close()
    print(json.dumps({"errors": errors}), flush=True)
    return 0


# ------------------------------------------------------------------ parent
def spawn(args, base: int, until: float, ack_dir: str, wid: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--worker",
            str(wid),
            "--database",
            args.database,
            "--base",
            str(base),
            "--tables",
            str(args.tables),
            "--until",
            str(until),
            "--acks",
            os.path.join(ack_dir, f"worker{wid}.jsonl"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )


def worker_errors(proc: subprocess.Popen) -> int:
    out, _ = proc.communicate()
    if proc.returncode == -signal.SIGKILL:
        return 0  # killed on purpose
    try:
        return int(json.loads(out.strip().splitlines()[-1])["errors"])
    except (ValueError, IndexError, KeyError):
        return 1  # the worker died or was refused: an error


async def verify(url: str, base: int, slots: int, acks: list[list]) -> dict[str, int]:
    store = open_store(url, due=due_times)
    await store.open()
    game = get_game(GAME)
    try:
        ids = sorted(
            {
                r[0]
                for r in await store.sql(
                    "SELECT id FROM games WHERE channel_id >= ? AND channel_id < ?", base, base + slots
                )
            }  # type: ignore[attr-defined]
        )
        mismatches = 0
        logs: dict[int, list] = {}
        for gid in ids:
            row = await store.get_game(gid)
            assert row is not None
            log = await store.actions(gid, limit=10**9)
            logs[gid] = log
            replayed = game.replay(
                [s.seat for s in row.seats], row.options, row.seed, [(a.seat, a.action) for a in log]
            )
            if json.loads(replayed.model_dump_json()) != json.loads(row.state_json or "null"):
                mismatches += 1
        seen = Counter((gid, version) for gid, version, *_ in acks)
        double = sum(n - 1 for n in seen.values() if n > 1)
        lost = 0
        for gid, version, seat, uid, action in acks:
            entries = [a for a in logs.get(gid, []) if a.version == version]
            if not entries or (entries[0].seat, entries[0].user_id, entries[0].action) != (seat, uid, action):
                lost += 1
        # a version holds exactly one commit, and each commit exactly one human decision; the
        # steps the platform took after it (a forced single choice, taken_by "auto") and the AI
        # seats' moves are not decisions (tables/rules/decisions.py)
        auto = 0
        for log in logs.values():
            humans = Counter(d.version for d in decisions(log) if d.by == "player")
            double += sum(n - 1 for n in humans.values() if n > 1)
            auto += sum(1 for a in log if taken_by(a) == "auto")
        return {
            "tables": len(ids),
            "double_applies": double,
            "lost": lost,
            "replay_mismatches": mismatches,
            "auto_steps": auto,
        }
    finally:
        await store.close()


async def prepare(url: str, base: int, slots: int) -> None:
    store = open_store(url, due=due_times)
    await store.open()
    try:
        for slot in range(slots):
            await open_table(store, base, slot, slot + 1)
    finally:
        await store.close()


def run(args) -> str:
    url = args.database
    backend = backend_of(url)
    base = random.randrange(10**12, 10**13)  # this run's channels (a reused database keeps older runs)
    asyncio.run(prepare(url, base, args.tables))
    with tempfile.TemporaryDirectory() as ack_dir:
        start = time.time() + 1.0
        until = start + args.seconds
        procs = {w: spawn(args, base, until, ack_dir, w) for w in range(args.processes)}
        errors = 0
        if args.kill_one:
            time.sleep(max(0.0, start + args.seconds / 2 - time.time()))
            victim = procs[0]
            victim.send_signal(signal.SIGKILL)
            errors += worker_errors(victim)
            print(f"killed worker 0 (pid {victim.pid}) at {args.seconds / 2:.0f} s; restarting it", file=sys.stderr)
            procs[0] = spawn(args, base, until, ack_dir, 0)
        for p in procs.values():
            errors += worker_errors(p)
        acks = []
        for f in Path(ack_dir).glob("*.jsonl"):
            for line in f.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    try:
                        acks.append(json.loads(line))
                    except ValueError:
                        pass  # a line cut by SIGKILL was never acknowledged to anyone
    result = asyncio.run(verify(url, base, args.tables, acks))
    return (
        f"scale {backend} processes={args.processes} tables={result['tables']} turns={len(acks)} errors={errors}"
        f" double_applies={result['double_applies']} lost={result['lost']}"
        f" replay_mismatches={result['replay_mismatches']} auto_steps={result['auto_steps']}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database", required=True, help="TG_DATABASE of the run (postgresql://... or a SQLite file)")
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--kill-one", action="store_true", help="SIGKILL one process half-way and restart it")
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--base", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--until", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--acks", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        return asyncio.run(work(args.database, args.base, args.tables, args.until, args.acks, args.worker))
    print(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Kill -9 in the middle of every multi-step change: nothing half-applied.

    python bench/crash.py [--rounds 3]

For each multi-step change of the table service and each step inside its
transaction (``Store.inject_crash``), a child process prepares a table,
records every row of the database, and is killed with SIGKILL at that step.
The parent then reopens the database, checks every row is exactly as before
(``partial`` counts the runs where it was not) and that the same change now
goes through.  Prints one line per change:

    crash <change> tried=<n> partial=<n> killed=<n> redo_failed=<n>
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from store import Seat, SqliteStore  # noqa: E402
from tables import TableService, due_times  # noqa: E402

HOST, BOB, CAROL = 7, 8, 9
TABLES = ("games", "seats", "actions", "results", "campaigns", "votes", "reverts")


def ai(g, st, s, legal):
    return g.ai_action(st, s)


def dump(path: Path) -> str:
    con = sqlite3.connect(path)
    try:
        out = {t: sorted(map(repr, con.execute(f"SELECT * FROM {t}").fetchall())) for t in TABLES}  # noqa: S608
    finally:
        con.close()
    return json.dumps(out)


async def play_until(service, gid, until):
    for _ in range(5000):
        loaded = await service.load(gid)
        if until(loaded):
            return loaded
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), ai, seat=seat)
    raise RuntimeError("never reached")


async def table(store, game="thunder_road", seats=(("p1", HOST), ("p2", BOB)), campaign_id=None):
    return await store.create_game(
        guild_id=1,
        channel_id=1,
        game=game,
        host_id=HOST,
        options={},
        seed=11,
        seats=[Seat(s, u) for s, u in seats],
        campaign_id=campaign_id,
    )


# ----------------------------------------------------------------- scenarios
# prepare(service, store) -> ctx (JSON); change(service, ctx) is the multi-step call
async def prep_handover(service, store):
    row = await table(store)
    await service.lobby(row.id, HOST, "start")
    await play_until(service, row.id, lambda ld: ld.game.to_act(ld.state) == ["p2"])
    return {"gid": row.id}


async def do_handover(service, ctx):
    await service.handover(ctx["gid"], HOST, "p2", None)


async def prep_resign(service, store):
    return await prep_handover(service, store)


async def do_resign(service, ctx):
    await service.resign(ctx["gid"], BOB)


async def prep_finish(service, store):
    camp = await service.create_campaign(
        guild_id=1, game_id="armor_clash", name="East", points=[3, 1], created_by=HOST, story={"mode": "simple"}
    )
    row = await table(store, "armor_clash", [("p1", HOST)], campaign_id=camp.id)
    await service.lobby(row.id, HOST, "start")
    game = get_game("armor_clash")

    def finishes(ld):
        seat = game.to_act(ld.state)[0]
        after, _ = game.apply(ld.state, seat, game.ai_action(ld.state, seat))
        after, _, _ = service.run_ai(ld.row, game, after)
        return game.outcome(after) is not None

    loaded = await play_until(service, row.id, finishes)
    return {"gid": row.id, "version": loaded.row.version, "seat": game.to_act(loaded.state)[0]}


async def do_finish(service, ctx):
    await service.act(ctx["gid"], HOST, ai, seat=ctx["seat"], expected_version=ctx["version"])


async def prep_start(service, store):
    camp = await service.create_campaign(
        guild_id=1, game_id="armor_clash", name="West", points=[3, 1], created_by=HOST, story={"mode": "simple"}
    )
    row = await table(store, "armor_clash", [("p1", BOB), ("p2", HOST)], campaign_id=camp.id)
    return {"gid": row.id}


async def do_start(service, ctx):
    await service.lobby(ctx["gid"], HOST, "start")


async def _others_after_host(service, store, gid):
    for _ in range(5000):
        log = await store.actions(gid, limit=100_000)
        mine = [i for i, a in enumerate(log) if a.user_id == HOST]
        if mine and any(a.user_id not in (None, HOST) for a in log[mine[-1] :]):
            return
        loaded = await service.load(gid)
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), ai, seat=seat)


async def prep_undo_vote(service, store):
    row = await table(store, seats=[("p1", HOST), ("p2", BOB), ("p3", CAROL)])
    await service.lobby(row.id, HOST, "start")
    await _others_after_host(service, store, row.id)
    vote = (await service.undo(row.id, HOST)).vote.vote
    await service.ballot(vote.id, BOB, True)
    return {"vid": vote.id}


async def do_undo_vote(service, ctx):
    await service.ballot(ctx["vid"], CAROL, True)


async def prep_handover_vote(service, store):
    row = await table(store, seats=[("p1", HOST), ("p2", BOB), ("p3", CAROL)])
    await service.lobby(row.id, HOST, "start")
    loaded = await play_until(service, row.id, lambda ld: ld.game.to_act(ld.state) == ["p3"])
    opened = (await service.handover(row.id, BOB, "p3", None, now=loaded.row.turn_started_at + 12 * 3600 + 1)).vote
    await service.ballot(opened.vote.id, BOB, True)
    return {"vid": opened.vote.id}


async def do_handover_vote(service, ctx):
    await service.ballot(ctx["vid"], HOST, True)


async def prep_timeout(service, store):
    row = await table(store)
    await service.lobby(row.id, HOST, "start")
    fresh = await store.get_game(row.id)
    return {"gid": row.id, "version": fresh.version}


async def do_timeout(service, ctx):
    await service.timeout(ctx["gid"], ctx["version"])


SCENARIOS = {
    "handover+ai": (prep_handover, do_handover, ["seats", "actions", "commit"]),
    "resign": (prep_resign, do_resign, ["seats", "actions", "commit"]),
    "finish+results+campaign": (prep_finish, do_finish, ["actions", "results", "campaigns", "commit"]),
    "lobby_start+campaign": (prep_start, do_start, ["seats", "campaigns", "commit"]),
    "ballot+undo": (prep_undo_vote, do_undo_vote, ["revert", "votes", "commit"]),
    "ballot+handover+ai": (prep_handover_vote, do_handover_vote, ["seats", "actions", "votes", "commit"]),
    "timer": (prep_timeout, do_timeout, ["actions", "commit"]),
}


def save_context(path: Path, ctx: dict, before: str) -> None:
    path.write_text(json.dumps({"ctx": ctx, "before": before}))


async def child(db: Path, name: str, step: str, ctx_file: Path) -> None:
    prep, change, _ = SCENARIOS[name]
    store = SqliteStore(db, due=due_times)
    await store.open()
    service = TableService(store)
    ctx = await prep(service, store)
    save_context(ctx_file, ctx, dump(db))
    store.inject_crash(step, "kill")
    await change(service, ctx)
    await store.close()  # the step was never reached


async def redo(db: Path, name: str, ctx: dict) -> bool:
    store = SqliteStore(db, due=due_times)
    await store.open()
    try:
        await SCENARIOS[name][1](TableService(store), ctx)
        return True
    except Exception as exc:  # noqa: BLE001
        print(f"#   redo of {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return False
    finally:
        await store.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="kills per step")
    ap.add_argument("--child", nargs=4, metavar=("DB", "NAME", "STEP", "CTX"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        db, name, step, ctx_file = args.child
        asyncio.run(child(Path(db), name, step, Path(ctx_file)))
        return
    for name, (_, _, steps) in SCENARIOS.items():
        tried = partial = killed = redo_failed = 0
        for step in steps:
            for _ in range(args.rounds):
                with tempfile.TemporaryDirectory() as tmp:
                    db, ctx_file = Path(tmp) / "crash.db", Path(tmp) / "ctx.json"
                    proc = subprocess.run(
                        [sys.executable, __file__, "--child", str(db), name, step, str(ctx_file)],
                        capture_output=True,
                        text=True,
                        timeout=300,
                        env={**os.environ, "PYTHONHASHSEED": "0"},
                    )
                    tried += 1
                    if proc.returncode != -9:
                        print(
                            f"#   {name}/{step}: child exited {proc.returncode}: {proc.stderr[-500:]}", file=sys.stderr
                        )
                        continue
                    killed += 1
                    saved = json.loads(ctx_file.read_text())
                    partial += dump(db) != saved["before"]
                    # the same change then goes through, and the row dump sees it (the check is sensitive)
                    redo_failed += not asyncio.run(redo(db, name, saved["ctx"])) or dump(db) == saved["before"]
        print(f"crash {name} tried={tried} partial={partial} killed={killed} redo_failed={redo_failed}")


if __name__ == "__main__":
    main()

"""Seeded self-play of Thunder Road: Vendetta with the seat-filler AI.

    python bench/selfplay_thunder_road.py [games] [--opts JSON] [--five]
    python bench/selfplay_thunder_road.py --engine [--seconds S]

Plays ``games`` games (default 1,000) cycling 2, 3 and 4 players (seed = game
number) and prints, per player count: median rounds per race, the share of
races won at the finish line vs by the last crew standing, tiles placed, and
the overall games per second.

``--engine``: engine speed in random legal play (the step of bench/engine.py:
``legal_actions`` for the seat to act, a uniform pick, ``apply``) at 2 seats and at
5 seats (the 5th seat needs an extra crew: Big Rig; bench/engine.py uses default
options, so its maximum is 4), at least ``--seconds`` (10) of CPU time each,
printing ``engine thunder_road seats=<n> actions_per_s=<integer>`` per CPU second
(one core's throughput, as bench/engine.py) and a ``#`` line with the wall-clock rate.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.thunder_road import GAME  # noqa: E402

CAP = 6000


def play(n: int, seed: int, opts: dict) -> dict:
    st = GAME.new([f"ai{i}" for i in range(n)], opts, seed)
    steps = 0
    slams = 0
    elim = 0
    while GAME.outcome(st) is None and steps < CAP:
        st, ev = GAME.ai_step(st)
        steps += 1
        for e in ev:
            if e.kind == "slam":
                slams += 1
            elif e.kind == "eliminated":
                elim += 1
    return {
        "n": n,
        "rounds": st.round,
        "reason": st.end_reason or "capped",
        "tiles": st.tiles_placed,
        "steps": steps,
        "slams": slams,
        "eliminated": elim,
    }


def engine_speed(seconds: float) -> None:
    import random

    for n, opts in ((2, {}), (5, {"big_rig": True})):
        names = [f"s{i}" for i in range(n)]
        seed = 1
        rnd = random.Random(seed)
        st = GAME.new(names, opts, seed)
        steps = 0
        w0, c0 = time.perf_counter(), time.process_time()
        while True:
            if GAME.outcome(st) is not None:
                seed += 1
                st = GAME.new(names, opts, seed)
            choices = [(s, a) for s in GAME.to_act(st) for a in GAME.legal_actions(st, s)]
            seat, action = choices[rnd.randrange(len(choices))]
            st, _ = GAME.apply(st, seat, action)
            steps += 1
            if steps % 256 == 0 and time.process_time() - c0 >= seconds:
                break
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        print(f"engine thunder_road seats={n} actions_per_s={int(steps / cpu)}", flush=True)
        print(
            f"# seats={n} options={json.dumps(opts)} steps={steps} wall_actions_per_s={int(steps / wall)}", flush=True
        )


def main() -> None:
    args = sys.argv[1:]
    if "--engine" in args:
        engine_speed(float(args[args.index("--seconds") + 1]) if "--seconds" in args else 10.0)
        return
    games = int(args[0]) if args and not args[0].startswith("--") else 1000
    opts = json.loads(args[args.index("--opts") + 1]) if "--opts" in args else {}
    t0 = time.time()
    c0 = time.process_time()
    by_n: dict[int, list[dict]] = defaultdict(list)
    for g in range(games):
        n = (2, 3, 4)[g % 3] if "--five" not in args else 5
        by_n[n].append(play(n, g, opts))
    dt = time.time() - t0
    cpu = time.process_time() - c0
    print(
        f"games={games} options={json.dumps(opts)} wall_seconds={dt:.1f} games_per_second={games / dt:.2f} "
        f"cpu_seconds={cpu:.1f} games_per_cpu_second={games / cpu:.2f}"
    )
    allr = []
    for n in sorted(by_n):
        rs = by_n[n]
        allr += rs
        rounds = [r["rounds"] for r in rs]
        fin = sum(r["reason"] == "finish" for r in rs)
        last = sum(r["reason"] == "last_standing" for r in rs)
        cap = sum(r["reason"] == "capped" for r in rs)
        print(
            f"players={n} games={len(rs)} median_rounds={statistics.median(rounds):.1f} "
            f"p10_rounds={sorted(rounds)[len(rounds) // 10]} p90_rounds={sorted(rounds)[len(rounds) * 9 // 10]} "
            f"finish={fin / len(rs):.1%} last_standing={last / len(rs):.1%} capped={cap} "
            f"median_tiles={statistics.median(r['tiles'] for r in rs):.0f} "
            f"slams_per_game={statistics.mean(r['slams'] for r in rs):.1f} "
            f"eliminations_per_game={statistics.mean(r['eliminated'] for r in rs):.1f}"
        )
    fin = sum(r["reason"] == "finish" for r in allr)
    print(
        f"all median_rounds={statistics.median(r['rounds'] for r in allr):.1f} "
        f"finish:last_standing={fin}:{sum(r['reason'] == 'last_standing' for r in allr)}"
    )


if __name__ == "__main__":
    main()

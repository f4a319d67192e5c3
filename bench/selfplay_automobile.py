"""Seeded Automobile self-play with the seat-filler AI.

    python bench/selfplay_automobile.py [--games 1000] [--players 3 4 5]

Prints, per player count: games, games per second, the winner's money
(mean / min / max), every seat's mean final money, bankruptcies (a seat that
could not pay a forced payment even after its two loans, or could not repay
its loans at the end), emergency loans, and how often each character was
taken.  The closing Markdown table is what docs/performance.md records.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.automobile import GAME  # noqa: E402

SEATS = ["p1", "p2", "p3", "p4", "p5"]


def play(n: int, seed: int) -> dict:
    st = GAME.new(SEATS[:n], seed=seed)
    steps = 0
    emergency = 0
    made = unsold = 0
    chars: collections.Counter = collections.Counter()
    while GAME.outcome(st) is None:
        st, events = GAME.ai_step(st)
        steps += 1
        for e in events:
            if e.kind == "emergency_loan":
                emergency += 1
            elif e.kind == "produce":
                made += e.n
            elif e.kind == "unsold":
                unsold += e.n
            elif e.kind == "pick":
                chars[e.character] += 1
    out = GAME.outcome(st)
    assert out is not None
    return {
        "winner_money": max(out.scores.values()),
        "scores": list(out.scores.values()),
        "bankrupt": sum(1 for p in st.players.values() if p.bankrupt),
        "emergency": emergency,
        "steps": steps,
        "made": made,
        "unsold": unsold,
        "chars": chars,
        "ties": len(out.winners) > 1,
    }


def run(n: int, games: int, seed0: int = 0) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    results = [play(n, seed0 + g) for g in range(games)]
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    winners = [r["winner_money"] for r in results]
    scores = [s for r in results for s in r["scores"]]
    chars: collections.Counter = collections.Counter()
    for r in results:
        chars.update(r["chars"])
    return {
        "players": n,
        "games": games,
        "seconds": elapsed,
        "gps": games / elapsed,
        "cpu_gps": games / cpu,
        "winner_mean": statistics.mean(winners),
        "winner_median": statistics.median(winners),
        "winner_min": int(min(winners)),
        "winner_max": int(max(winners)),
        "seat_mean": statistics.mean(scores),
        "seat_below_start": sum(1 for s in scores if s < 2000) / len(scores),
        "bankrupt": sum(r["bankrupt"] for r in results),
        "bankrupt_games": sum(1 for r in results if r["bankrupt"]),
        "emergency": sum(r["emergency"] for r in results),
        "ties": sum(1 for r in results if r["ties"]),
        "steps_mean": statistics.mean(r["steps"] for r in results),
        "made_per_seat": statistics.mean(r["made"] for r in results) / n,
        "unsold_share": sum(r["unsold"] for r in results) / max(1, sum(r["made"] for r in results)),
        "chars": dict(chars.most_common()),
    }


def report(rows: list[dict]) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Automobile: self-play measurements",
        "",
        f"Measured {now} on a 2-core {platform.machine()} machine shared with other work (load average "
        f"{os.getloadavg()[0]:.1f} at the end, so wall-clock rates are low; games per CPU-second is the fairer figure), Python "
        f"{platform.python_version()}, with `python bench/selfplay_automobile.py --games {rows[0]['games']}`.",
        "Seeds 0..N-1; every seat is the easy seat-filler AI (`engine/automobile/ai.py`), rules 2 (issue 14); each game goes through the",
        "public API (`apply` copies the state; the AI's action comes from `legal_actions`, so it is not checked again).",
        "",
        "| players | games | games/s (wall) | games per CPU-s | winner $ mean | median | min | max | seat $ mean | seats < $2000 | "
        "bankrupt seats (games) | emergency loans | tied wins | steps/game | cars made/seat | unsold |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['games']} | {r['gps']:.1f} | {r['cpu_gps']:.1f} | {r['winner_mean']:.0f} | {r['winner_median']:.0f} | "
            f"{r['winner_min']} | {r['winner_max']} | {r['seat_mean']:.0f} | {100 * r['seat_below_start']:.1f}% | "
            f"{r['bankrupt']} ({r['bankrupt_games']}) | {r['emergency']} | {r['ties']} | {r['steps_mean']:.0f} | "
            f"{r['made_per_seat']:.1f} | {100 * r['unsold_share']:.1f}% |"
        )
    lines += ["", "Characters taken (all games):", ""]
    for r in rows:
        lines.append(f"- {r['players']} players: " + ", ".join(f"{k} {v}" for k, v in r["chars"].items()))
    lines += [
        "",
        "A seat is *bankrupt* when a forced payment (loss fee, interest, loan repayment) exceeded its cash after",
        "its two loans; the shortfall is recorded as arrears and subtracted from its final money",
        '(docs/rulings.md, Automobile, "Cannot pay").',
        "",
    ]
    return "\n".join(lines)


def render_timing(frames: int = 60) -> str:
    """Draw views sampled from a 5-player AI game; wall and CPU milliseconds per PNG."""
    from render.automobile import draw

    st = GAME.new(SEATS, seed=99)
    views = []
    while GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat))
        if st.step % 4 == 0:
            views.append(GAME.view(st, None if st.step % 8 else seat))
    views.append(GAME.view(st, None))
    lines = []
    for loc in ("en", "zh"):
        for v in views[:5]:
            draw(v, loc)  # warm the font and the per-round background caches
        wall, cpu = [], []
        for k in range(frames):
            v = views[(k * 7) % len(views)]
            w0, c0 = time.perf_counter(), time.process_time()
            draw(v, loc)
            wall.append((time.perf_counter() - w0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        wall.sort()
        cpu.sort()
        lines.append(
            f"- render `{loc}`: {frames} frames, wall median {statistics.median(wall):.1f} ms "
            f"(p95 {wall[int(0.95 * (frames - 1))]:.1f}), CPU median {statistics.median(cpu):.1f} ms "
            f"(p95 {cpu[int(0.95 * (frames - 1))]:.1f})"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--render", action="store_true", help="only time render/automobile.py")
    args = ap.parse_args()
    if args.render:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        text = (
            f"\n## Rendering\n\nMeasured {now}, 2-core {platform.machine()}, load average {load:.1f} "
            f"(`python bench/selfplay_automobile.py --render`):\n\n" + render_timing() + "\n"
        )
        print(text)
        return
    rows = []
    for n in args.players:
        r = run(n, args.games)
        rows.append(r)
        print(
            f"{n} players: {r['games']} games in {r['seconds']:.1f}s = {r['gps']:.2f} games/s "
            f"({r['cpu_gps']:.2f} per CPU-second); "
            f"winner ${r['winner_mean']:.0f} mean (median {r['winner_median']:.0f}, {r['winner_min']}..{r['winner_max']}); "
            f"seat mean ${r['seat_mean']:.0f}, {100 * r['seat_below_start']:.1f}% below $2000; "
            f"bankrupt seats {r['bankrupt']} in {r['bankrupt_games']} games; emergency loans {r['emergency']}; "
            f"tied wins {r['ties']}; {r['steps_mean']:.0f} steps/game; {r['made_per_seat']:.1f} cars made a seat, "
            f"{100 * r['unsold_share']:.1f}% unsold",
            flush=True,
        )
    print(report(rows))  # a Markdown section for docs/performance.md


if __name__ == "__main__":
    main()

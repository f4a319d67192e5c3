"""Armor Clash self-play: boss battles for 1-4 AI crews of veteran and legend rank in each mode.

Usage: python bench/selfplay_armor_clash.py [games_per_config=1000] [--quick] [--level=hard|easy]
       [--no-api | --api-only]
       (prints one line per configuration:
        ``boss mode=<m> crew=<c> crews=<n> level=<l> games=<g> boss_win_pct=<f> time_limit_pct=<f> avg_turns=<f>``)
       python bench/selfplay_armor_clash.py 200 --campaign   (the campaign battles' table)
       python bench/selfplay_armor_clash.py 300 --mechanics  (how often the boss rules fire)

Every seat is played by the engine's seat AI (the same orders ``GAME.ai_action``
builds step by step), the Tiger by its rules automaton.  The fast loop drives
``rules.resolve_turn`` directly with those orders; a second, smaller loop plays
through the public ``GAME.apply`` API to measure the real per-game cost.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.armor_clash import GAME  # noqa: E402
from engine.armor_clash import ai as AI  # noqa: E402
from engine.armor_clash import rules as R  # noqa: E402


def fast_game(seats: list[str], options: dict, seed: int, levels: list[str] | str = "hard"):
    """One game with every seat played by the seat AI at ``levels`` (one level or one per seat)."""
    s = GAME.new(seats, options, seed)
    per_seat = [levels] * len(seats) if isinstance(levels, str) else levels
    level = dict(zip(seats, per_seat, strict=True))
    while s.result is None:
        for u in s.units:
            if u.seat is not None and u.active and u.stunned == 0:
                s.orders[u.seat] = AI.order_for(s, u, level[u.seat])
        R.resolve_turn(s, [], AI.enemy_order)
    return s


def api_game(seats: list[str], options: dict, seed: int):
    s = GAME.new(seats, options, seed)
    while GAME.outcome(s) is None:
        s, _ = GAME.ai_step(s)
    return s


def mechanics(n: int) -> None:
    """How often the boss's special rules fire per game (normal mode, 1/2/4 crews, n seeds each)."""
    from collections import Counter

    keys = (
        "boss_must_rest",
        "boss_forced_turn",
        "counter_halved",
        "counter_prerot",
        "prerotate",
        "overload",
        "rage_lock",
        "rage_double",
        "turret_state",
        "incapacitated",
        "destroyed",
    )
    for mode in ("normal", "simple"):
        count: Counter = Counter()
        games = 0
        max_rage = 0
        for k in (1, 2, 4):
            for seed in range(n):
                s = GAME.new([f"p{i + 1}" for i in range(k)], {"mode": mode}, seed)
                while s.result is None:
                    for u in s.units:
                        if u.seat is not None and u.active and u.stunned == 0:
                            s.orders[u.seat] = AI.order_for(s, u, "hard")
                    events: list = []
                    R.resolve_turn(s, events, AI.enemy_order)
                    for e in events:
                        count[e.kind] += 1
                        if e.kind == "rage":
                            max_rage = max(max_rage, e.new)
                games += 1
        print(
            f"{mode}: per game "
            + ", ".join(f"{k} {count[k] / games:.3f}" for k in keys)
            + f"; highest rage seen {max_rage}"
        )


def campaign_table(n: int) -> None:
    """Players' win % of each campaign battle at its typical crew level (recruits early, veterans late)."""
    print(f"Campaign battles, {n} seeded games per cell: players' win % / turn-limit % / avg turns")
    for mode in ("normal", "simple"):
        for sc, crew in (
            ("c1_recon", "recruit"),
            ("c2_bridge", "recruit"),
            ("c3_village", "veteran"),
            ("c4_wittmann", "veteran"),
        ):
            row = []
            for k in (1, 2, 4):
                won = time_up = turns = 0
                for seed in range(n):
                    s = fast_game(
                        [f"p{i + 1}" for i in range(k)], {"mode": mode, "scenario": sc, "crews": [crew] * k}, seed
                    )
                    won += s.result.side == "players"
                    time_up += s.result.reason == "time_up"
                    turns += s.turn - 1
                row.append(f"{k} crews {100 * won / n:5.1f} / {100 * time_up / n:4.1f} / {turns / n:4.1f}")
            print(f"{mode:<7} {sc:<12} {crew:<8} " + " | ".join(row))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 1000
    if "--campaign" in sys.argv:
        campaign_table(n)
        return
    if "--mechanics" in sys.argv:
        mechanics(n)
        return
    level = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--level=")), "hard")
    configs = (
        []
        if "--api-only" in sys.argv
        else [(m, c, k) for m in ("simple", "normal") for c in ("veteran", "legend") for k in (1, 2, 3, 4)]
    )
    for mode, crew, k in configs:
        seats = [f"p{i + 1}" for i in range(k)]
        boss_wins = time_ups = turns = 0
        for seed in range(n):
            s = fast_game(seats, {"mode": mode, "scenario": "boss", "crews": [crew] * k}, seed, level)
            boss_wins += s.result.side != "players"
            time_ups += s.result.reason == "time_up"
            turns += s.turn - 1
        print(
            f"boss mode={mode} crew={crew} crews={k} level={level} games={n} "
            f"boss_win_pct={100 * boss_wins / n:.1f} time_limit_pct={100 * time_ups / n:.1f} avg_turns={turns / n:.1f}",
            flush=True,
        )
    if "--no-api" in sys.argv:
        return
    m = 20 if "--quick" in sys.argv else 100
    t0, c0 = time.perf_counter(), time.process_time()
    steps = 0
    for seed in range(m):
        s = api_game(["p1", "p2"], {"mode": "normal"}, seed)
        steps += s.step
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"public API (GAME.ai_step, 2 crews, normal, hard AI): {m / dt:.1f} games/s, {steps / dt:.0f} actions/s "
        f"wall; {steps / cpu:.0f} actions per CPU second"
    )
    from render.armor_clash import draw

    s = api_game(["p1", "p2", "p3", "p4"], {"mode": "normal", "max_turns": 12}, 3)
    view = GAME.view(s, None)
    times = []
    for locale in ("en", "zh") * 10:
        t0 = time.perf_counter()
        draw(view, locale)
        times.append(time.perf_counter() - t0)
    times.sort()
    print(
        f"render (4 crews + boss + escort, 20 draws): median {1000 * times[len(times) // 2]:.1f} ms, "
        f"best {1000 * times[0]:.1f} ms, worst {1000 * times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()

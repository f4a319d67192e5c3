"""Property tests: random legal play keeps the invariants; states round-trip and replay exactly."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import canonical
from engine.armor_clash import GAME
from engine.armor_clash import rules as R
from engine.locales import CODES

SCENARIOS = ["boss", "skirmish", "duel", "c1_recon", "c3_village"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    mode=st.sampled_from(["simple", "normal"]),
    scenario=st.sampled_from(SCENARIOS),
    n=st.integers(1, 4),
    picks=st.lists(st.integers(0, 1000), min_size=20, max_size=160),
    opts=st.fixed_dictionaries(
        {"repeated_hits": st.booleans(), "ammo_rack": st.booleans(), "ricochet_stun": st.booleans()}
    ),
)
def test_random_legal_play(seed, mode, scenario, n, picks, opts):
    if scenario == "duel":
        n = max(n, 2)
    seats = [f"s{i}" for i in range(n)]
    vehicles = [["t34_85", "kv2", "amx13", "sherman"][(seed + i) % 4] for i in range(n)]
    options = {"mode": mode, "scenario": scenario, "vehicles": vehicles, "links": [True] * n, **opts}
    s = GAME.new(seats, options, seed)
    log = []
    for p in picks:
        if GAME.outcome(s) is not None:
            assert GAME.to_act(s) == []
            break
        acting = GAME.to_act(s)
        assert acting and set(acting) <= set(seats)
        seat = acting[p % len(acting)]
        legal = GAME.legal_actions(s, seat)
        assert 1 <= len(legal) <= 25
        action = legal[(p // 7) % len(legal)]
        for loc in CODES:
            assert "armor_clash." not in GAME.action_label(s, action, loc)
            assert "armor_clash." not in GAME.prompt(s, seat).text(loc)
        assert "armor_clash." not in GAME.summary(s).text("zh")
        s, events = GAME.apply(s, seat, action)
        log.append((seat, action.model_dump(mode="json")))
        for e in events:
            if e.kind == "order":
                assert e.to == [seat]
            for loc in CODES:
                assert "armor_clash." not in GAME.event_text(e, loc), e
        cells = [(u.x, u.y) for u in s.units]
        assert len(cells) == len(set(cells))
        assert all(0 <= u.x < s.width and 0 <= u.y < s.height for u in s.units)
        for u in s.units:
            assert u.reload_left >= 0 and all(v >= 0 for v in u.pen.values())
            if u.card is not None:
                assert 0 <= u.card.rage <= 10 and u.card.ms_left >= 0 and u.card.rest_left >= 0
        for other in seats:
            if other != seat:
                v = GAME.view(s, other)
                assert set(v.orders) <= {other} and set(v.pending) <= {other}
                assert v.my_order == s.orders.get(other)
    assert canonical(GAME.load(GAME.dump(s))) == canonical(s)
    assert canonical(GAME.replay(seats, options, seed, log)) == canonical(s)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), mode=st.sampled_from(["simple", "normal"]), n=st.integers(1, 4))
def test_ai_and_timer_play_always_finish(seed, mode, n):
    seats = [f"s{i}" for i in range(n)]
    s = GAME.new(seats, {"mode": mode}, seed)
    for i in range(5000):
        if GAME.outcome(s) is not None:
            break
        seat = GAME.to_act(s)[0]
        act = GAME.default_action(s, seat) if (i + seed) % 5 == 0 else GAME.ai_action(s, seat)
        s, _ = GAME.apply(s, seat, act)
    out = GAME.outcome(s)
    assert out is not None and s.turn - 1 <= s.max_turns
    assert set(out.winners) <= set(seats)


def test_rigged_rolls_make_the_game_deterministic():
    a = GAME.new(["x"], {}, 1)
    b = GAME.new(["x"], {}, 999)
    for s in (a, b):
        s.rng.force("hit", [2, 2, 2])
        s.rng.force("location", [4, 4, 4])
        s.rng.force("damage", [4, 4, 4])
    a, ea = GAME.apply(a, "x", {"kind": "choose", "what": "pass"})
    b, eb = GAME.apply(b, "x", {"kind": "choose", "what": "pass"})
    assert [e.model_dump() for e in ea] == [e.model_dump() for e in eb]
    assert R.unit_by_id(a, "boss").card == R.unit_by_id(b, "boss").card


def test_random_requests_only_ever_raise_game_errors():
    import random

    from engine import GameError

    r = random.Random(7)
    pool = [
        {"kind": "choose", "what": w}
        for w in (
            "move",
            "continue_move",
            "shoot",
            "reload",
            "continue_reload",
            "unload",
            "rotate",
            "continue_rotate",
            "hull",
            "pass",
        )
    ]
    pool += [{"kind": "move_dir", "reverse": b} for b in (True, False)]
    pool += [{"kind": "move_dist", "cells": c} for c in range(0, 14)]
    pool += [{"kind": "target", "target": t} for t in ("", "boss", "e2", "a", "b", "zz")]
    pool += [{"kind": "ammo", "ammo": a} for a in ("AP", "HE", "HEAT", "APDS")]
    pool += [{"kind": "turret", "cell": c} for c in range(0, 10)] + [
        {"kind": "hull", "facing": f} for f in range(-1, 9)
    ]
    pool += [{"kind": "back"}, {"kind": "nope"}]
    codes = set()
    for g in range(20):
        s = GAME.new(
            ["a", "b"], {"mode": r.choice(["simple", "normal"]), "scenario": r.choice(["boss", "skirmish", "duel"])}, g
        )
        for _ in range(120):
            if GAME.outcome(s):
                break
            before = canonical(s)
            try:
                s, _ = GAME.apply(s, r.choice(["a", "b", "c"]), r.choice(pool))
            except GameError as e:
                codes.add(e.code)
                assert canonical(s) == before
                assert "armor_clash." not in e.message("zh")
    assert {"wrong_step", "bad_action", "unknown_seat", "not_your_turn"} <= codes


def test_seat_ai_answer_is_always_one_of_the_legal_actions():
    for seed in range(4):
        for mode in ("simple", "normal"):
            s = GAME.new(["p1", "p2", "p3"], {"mode": mode, "links": [True, True, True]}, seed)
            for _ in range(400):
                if GAME.outcome(s) is not None:
                    break
                seat = GAME.to_act(s)[0]
                a = GAME.ai_action(s, seat)
                assert a in GAME.legal_actions(s, seat)
                s, _ = GAME.apply(s, seat, a)

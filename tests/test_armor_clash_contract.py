"""Armor Clash on the engine contract: validate, checked rigs, typed events and texts, seat labels."""

from __future__ import annotations

import json
import random

import pytest

from engine import GameError
from engine.armor_clash import GAME
from engine.armor_clash.models import NOTE_EVENTS
from engine.base import SeatLabel
from engine.locales import CODES
from render.armor_clash import draw


def played(seats=("a", "b"), steps=60, seed=3, **opts):
    s = GAME.new(list(seats), opts, seed)
    for _ in range(steps):
        if GAME.outcome(s) is not None:
            break
        s, _ = GAME.ai_step(s)
    return s


def broken(s, change):
    data = json.loads(json.dumps(GAME.dump(s)))
    change(data)
    return data


@pytest.mark.parametrize(
    "field, change",
    [
        ("vehicle", lambda d: d["units"][0].update(vehicle="panther")),
        ("x", lambda d: d["units"][0].update(x=40)),
        ("share a cell", lambda d: d["units"][1].update(x=d["units"][0]["x"], y=d["units"][0]["y"])),
        ("pen", lambda d: d["units"][0]["pen"].update(move=-2)),
        ("injuries", lambda d: d["units"][0]["injuries"].pop("driver")),
        ("crew", lambda d: d["units"][0].update(crew="god")),
        ("seat", lambda d: d["units"][0].update(seat="zz")),
        ("card", lambda d: d["units"][-1]["card"].update(rage=11)),
        ("aim", lambda d: d["units"][0].update(aim={"target": "ghost", "done": 0})),
        ("pending", lambda d: d.update(pending={"zz": {"step": "top"}})),
        ("move_dist", lambda d: d.update(pending={"a": {"step": "move_dist"}})),
        ("turn", lambda d: d.update(turn=999)),
        ("loaded", lambda d: d["units"][0].update(loaded="AP", loading="HE")),
        ("status", lambda d: d["units"][0].update(status="out", out_reason=None)),
    ],
)
def test_load_refuses_impossible_states_naming_the_problem(field, change):
    s = GAME.new(["a", "b"], {"scenario": "boss"}, 1)
    with pytest.raises(GameError) as exc:
        GAME.load(broken(s, change))
    assert exc.value.code == "bad_state" and field in exc.value.message("en")


def test_states_of_real_play_validate_and_newer_schemas_are_refused():
    for seats in (("a",), ("a", "b", "c", "d")):
        for scenario in ("boss", "skirmish", "duel") if len(seats) > 1 else ("boss", "skirmish"):
            s = played(seats, scenario=scenario, steps=120)
            GAME.validate(s)
            assert GAME.load(GAME.dump(s)) == s
    data = GAME.dump(GAME.new(["a"], {}, 1))
    data["schema_version"] = 99
    with pytest.raises(GameError) as exc:
        GAME.load(data)
    assert exc.value.code == "newer_schema"


def test_randomly_mutated_states_are_refused_or_play_on():
    rnd = random.Random(7)
    base = GAME.dump(played(("a", "b"), steps=30, scenario="boss"))
    accepted = 0
    for _ in range(300):
        data = json.loads(json.dumps(base))
        unit = rnd.choice(data["units"])
        key = rnd.choice([k for k in unit if isinstance(unit[k], int) and not isinstance(unit[k], bool)])
        unit[key] = rnd.choice([-5, -1, 0, 1, 7, 13, 99])
        try:
            s = GAME.load(data)
        except GameError as exc:
            assert exc.code == "bad_state"
            continue
        accepted += 1
        for _ in range(8):  # an accepted state must keep playing without crashing
            if GAME.outcome(s) is not None:
                break
            s, _ = GAME.ai_step(s)
    assert accepted > 0


def test_rigs_are_declared_and_checked():
    rigs = GAME.rigs()
    assert set(rigs) == {"hit", "location", "damage", "penalty"}
    s = GAME.new(["a"], {}, 1)
    with pytest.raises(GameError) as exc:
        GAME.rig(s, "loot", [1])
    assert exc.value.code == "unknown_rig"
    for bad in ([7], [0], ["6"], [1.5]):
        with pytest.raises(GameError) as exc:
            GAME.rig(s, "hit", bad)
        assert exc.value.code == "bad_rig"
    s2 = GAME.rig(s, "hit", [6, 1])
    assert s2.rng.rig == {"hit": [6, 1]} and s.rng.rig == {}
    with pytest.raises(GameError):
        GAME.new(["a"], {}, 1, rig={"location": [9]})


def test_every_event_kind_is_typed_and_reads_in_both_languages_with_labels():
    labels = {"a": SeatLabel(name="Alice", colour="#ff00ff"), "b": SeatLabel(name="Bob")}
    seen: set[str] = set()
    for seed in range(12):
        for scenario, mode in (("boss", "normal"), ("boss", "simple"), ("duel", "normal")):
            opts = {"scenario": scenario, "mode": mode, "repeated_hits": True, "ricochet_stun": True}
            s = GAME.new(["a", "b"], opts, seed)
            while GAME.outcome(s) is None:
                seat = GAME.to_act(s)[0]
                s, events = GAME.apply(s, seat, GAME.ai_action(s, seat, "easy" if seed % 2 else "hard"))
                for e in events:
                    assert e.kind not in ("note", "order")  # the schema-1 shapes are only read
                    seen.add(e.kind)
                    for locale in CODES:
                        text = GAME.event_text(e, locale, labels)
                        assert "{" not in text and "armor_clash." not in text and "@" not in text, (e, text)
                    named = {getattr(e, f, None) for f in ("unit", "target")}
                    if e.kind == "committed":
                        named.add(e.seat)
                    if "a" in named:
                        assert "Alice" in GAME.event_text(e, "en", labels)
    assert len(seen & set(NOTE_EVENTS)) >= 30, sorted(set(NOTE_EVENTS) - seen)


def test_schema_1_events_of_stored_logs_become_typed_events():
    old = [
        {
            "kind": "note",
            "key": "armor_clash.shot",
            "params": {"unit": "a", "target": "b", "ammo": "@armor_clash.ammo.HE"},
        },
        {"kind": "note", "key": "armor_clash.hull", "params": {"unit": "a", "facing": "@armor_clash.dir.SW"}},
        {
            "kind": "note",
            "key": "armor_clash.moved",
            "params": {"unit": "a", "cells": 2, "to": "C7", "left": 0, "turns": 0},
        },
        {
            "kind": "note",
            "key": "armor_clash.game_over",
            "params": {"reason": "@armor_clash.outcome.victory", "winners": "a"},
        },
        {
            "kind": "order",
            "seat": "a",
            "key": "armor_clash.order.reload",
            "params": {"what": "reload", "ammo": "@armor_clash.ammo.AP"},
            "to": ["a"],
        },
        {"kind": "order", "seat": "a", "key": "armor_clash.order.free_rotate", "params": {"cell": 3}, "to": ["a"]},
    ]
    shot, hull, moved, over, order, free = GAME.load_events(old)
    assert (shot.kind, shot.ammo, hull.facing, moved.cell, over.winners) == ("shot", "HE", 5, "C7", ["a"])
    assert order.kind == "order_given" and order.order.ammo == "AP" and order.to == ["a"]
    assert free.kind == "free_rotate" and free.cell == 3
    assert GAME.event_text(shot, "en", {"a": SeatLabel(name="Alice")}) == "Alice fires HE at b."


def test_every_stored_schema_1_event_converts():
    import sqlite3
    from pathlib import Path

    db = Path(__file__).parent / "fixtures" / "stored_f4ba435.sqlite"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "select events_json from actions a join games g on a.game_id = g.id where g.game = 'armor_clash'"
    ).fetchall()
    con.close()
    kinds = set()
    for (text,) in rows:
        for e in GAME.load_events(json.loads(text)):
            kinds.add(e.kind)
            assert "{" not in GAME.event_text(e, "zh")
    assert len(kinds) >= 20 and not kinds & {"note", "order"}


def test_the_view_names_seats_by_their_labels_and_draws_them():
    s = played(("a", "b"), steps=10, scenario="duel")
    labels = {"a": SeatLabel(name="Alice", colour="#ff00ff")}
    v = GAME.view(s, None, labels)
    assert v.label("a") == "Alice" and v.label("b") == "b"
    assert "rng" not in v.model_dump() and "seed" not in v.model_dump()
    assert draw(v, "en")[:4] == b"\x89PNG" and draw(v, "en") != draw(GAME.view(s, None), "en")


def test_render_reads_only_the_view():
    import ast
    from pathlib import Path

    src = (Path(__file__).resolve().parent.parent / "render" / "armor_clash.py").read_text(encoding="utf-8")
    mods = [n.module for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ImportFrom)]
    mods += [a.name for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in mods if m and m.startswith("engine.armor_clash") and m != "engine.armor_clash.models"]


def test_a_resolved_turn_is_a_reveal_even_without_dice():
    s = GAME.new(["a", "b"], {"scenario": "duel"}, 1)
    s1, _ = GAME.apply(s, "a", {"kind": "choose", "what": "pass"})
    assert not GAME.hidden_revealed(s, s1)  # a's own commit reveals nothing to anyone
    s2, _ = GAME.apply(s1, "b", {"kind": "choose", "what": "pass"})
    assert s2.rng == s1.rng and s2.turn == s1.turn + 1  # everybody observed: no die was rolled
    assert GAME.hidden_revealed(s1, s2)  # but a's secret order is now known to b


def test_the_ai_never_changes_the_state_it_looks_at():
    from engine import canonical
    from engine.armor_clash import ai as AI

    for scenario, n in (("duel", 4), ("boss", 3)):
        for seed in range(4):
            s = GAME.new([f"p{i}" for i in range(n)], {"scenario": scenario}, seed)
            for _ in range(80):
                if GAME.outcome(s) is not None:
                    break
                before = canonical(GAME.dump(s))
                for u in s.units:
                    if u.seat is not None and u.active:
                        for level in AI.LEVELS:
                            AI.order_for(s, u, level)
                assert canonical(GAME.dump(s)) == before
                s, _ = GAME.ai_step(s)

"""The JSON-lines driver (`python -m engine`), spoken to as a separate process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from driver import Session
from engine import available, canonical, get_game
from engine.locales import CODES

ROOT = Path(__file__).resolve().parent.parent


def converse(lines: list) -> list[dict]:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "engine"], input=text, capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len([ln for ln in lines if (ln if isinstance(ln, str) else "x").strip()])
    return out


def test_a_whole_conversation(tmp_path):
    game = get_game("city_of_fury")
    state = game.new(["me"], {}, 7)
    first = game.legal_actions(state, "me")[1]
    after, _ = game.apply(state, "me", first)
    png = tmp_path / "board.png"
    r = converse(
        [
            {"cmd": "games"},
            "this is not json",
            {"cmd": "legal", "seat": "me"},  # before any game
            {"cmd": "new", "game": "city_of_fury", "seats": ["me"], "seed": 7},
            {"cmd": "legal", "seat": "me", "labels": True, "locale": "zh"},
            {"cmd": "act", "seat": "me", "action": first.model_dump(mode="json")},
            {"cmd": "act", "seat": "me", "action": {"kind": "no_such_thing"}},
            {"cmd": "act", "seat": "someone", "action": first.model_dump(mode="json")},
            {"cmd": "view", "seat": None},
            {"cmd": "dump"},
            {"cmd": "schema"},
            {"cmd": "render", "seat": None, "path": str(png), "locale": "zh"},
            {"cmd": "frobnicate"},
            [1, 2, 3],
        ]
    )
    games, bad_json, no_game, new, legal, act, bad_action, bad_seat, view, dump, schema, render, unknown, not_obj = r
    assert games == {"ok": True, "games": available()}
    assert bad_json["ok"] is False and bad_json["error"]["code"] == "bad_json"
    assert no_game["error"]["code"] == "no_game"
    assert new["ok"] and canonical(new["state"]) == canonical(game.dump(state)) and new["to_act"] == ["me"]
    assert legal["actions"] == [a.model_dump(mode="json") for a in game.legal_actions(state, "me")]
    assert len(legal["labels"]) == len(legal["actions"]) and all(legal["labels"])
    assert act["ok"] and act["to_act"] == game.to_act(after)
    assert bad_action["ok"] is False and bad_action["error"]["code"] == "bad_action" and bad_action["error"]["message"]
    assert bad_seat["error"]["code"] == "unknown_seat"
    assert "rng" not in json.dumps(view["view"]), "the RNG state would predict the future"
    assert canonical(dump["state"]) == canonical(game.dump(after)), "an illegal action left the state untouched"
    assert "oneOf" in json.dumps(schema["actions"]) or "anyOf" in json.dumps(schema["actions"])
    assert schema["state"]["type"] == "object"
    assert render["ok"] and png.read_bytes().startswith(b"\x89PNG")
    assert unknown["error"]["code"] == "unknown_command" and not_obj["error"]["code"] == "bad_request"


def test_load_and_rig_make_a_rule_example_exact():
    game = get_game("city_of_fury")
    state = game.new(["me"], {}, 3)
    minions = game.rigs()["deck.enemies"].values
    r = converse(
        [
            {"cmd": "load", "state": game.dump(state)},
            {"cmd": "rig", "name": "deck.enemies", "values": minions[:2]},
            {"cmd": "rig", "name": "some_die", "values": [6, 6]},
            {"cmd": "rig", "name": "deck.enemies", "values": "not a list"},
            {"cmd": "rig", "name": "deck.enemies", "values": ["boss_man"]},
            {"cmd": "dump"},
            {"cmd": "load", "state": {"game": "city_of_fury", "nonsense": 1}},
            {"cmd": "load", "state": {**game.dump(state), "hero_hp": -5}},
            {"cmd": "rigs"},
        ]
    )
    load, rig, unknown, bad_rig, impossible, dump, bad_load, impossible_state, rigs = r
    assert load["ok"] and rig["rig"] == {"deck.enemies": minions[:2]}
    assert unknown["error"]["code"] == "unknown_rig" and "deck.enemies" in unknown["error"]["message"]
    assert bad_rig["ok"] is False and impossible["error"]["code"] == "bad_rig"
    assert dump["state"]["rng"]["rig"] == {"deck.enemies": minions[:2]}  # the refusals changed nothing
    assert bad_load["ok"] is False and bad_load["error"]["code"] == "bad_state"
    assert impossible_state["error"]["code"] == "bad_state" and "hero_hp" in impossible_state["error"]["message"]
    assert rigs["rigs"]["deck.enemies"]["kind"] == "deck"


def test_replay_of_an_export_reaches_the_identical_state(tmp_path):
    game = get_game("city_of_fury")
    state = game.new(["p1"], {}, 11)
    log = []
    for _ in range(30):
        if game.outcome(state):
            break
        action = game.ai_action(state, "p1")
        log.append({"seat": "p1", "action": action.model_dump(mode="json")})
        state, _ = game.apply(state, "p1", action)
    export = {"game": "city_of_fury", "seats": ["p1"], "options": {}, "seed": 11, "log": log}
    (tmp_path / "export.json").write_text(json.dumps(export))
    (r,) = converse([{"cmd": "replay", "export": export}])
    assert canonical(r["state"]) == canonical(game.dump(state))
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(tmp_path / "export.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.stdout.strip() == canonical(game.dump(state))


def test_selfplay_plays_complete_games_and_renders(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "selfplay",
            "city_of_fury",
            "--seed",
            "5",
            "--games",
            "2",
            "--render",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("seed 5:") and lines[1].startswith("seed 6:")
    assert "2 games of city_of_fury with 1 seat in" in lines[-1]  # CLDR plurals, not "game(s)"
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) > 10 and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs[:3])


@pytest.mark.parametrize(
    ("locale", "argv", "expected"),
    [
        ("en", ["--players", "9"], "This game needs 3 to 5 players (got 9)."),
        ("zh", ["--players", "9"], "本游戏需要 3 至 5 名玩家（当前 9 名）。"),
        ("en", ["--players", "0"], "This game needs 3 to 5 players (got 0)."),
        ("en", ["--options", "{bad"], "That option is not valid: "),
        ("en", ["--options", '{"ruleset": 7}'], "That option is not valid: "),
    ],
)
def test_selfplay_with_bad_arguments_prints_one_translated_line(locale, argv, expected, capsys):
    from driver import main

    assert main(["selfplay", "automobile", "--locale", locale, *argv]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), out.err
    assert "Traceback" not in out.err and "core.error" not in out.err and not out.out


def test_no_view_of_any_game_carries_the_seed_or_the_rng():
    from engine import available

    for gid in available():
        game = get_game(gid)
        seats = [f"p{i + 1}" for i in range(game.min_seats if game.min_seats > 1 else 1)]
        if game.min_seats < 2 <= game.max_seats:
            seats = ["p1", "p2"]
        state = game.new(seats, {}, 123456789)
        for seat in [None, *seats]:
            view = game.view(state, seat)
            if not isinstance(view, dict):
                view = view.model_dump(mode="json")
            text = json.dumps(view)
            assert "rng" not in view and "seed" not in view, (gid, seat)
            assert str(state.rng.state) not in text and "123456789" not in text, (gid, seat)


def test_new_can_rig_the_set_up_shuffle():
    r = converse(
        [
            {
                "cmd": "new",
                "game": "city_of_fury",
                "seats": ["me"],
                "seed": 1,
                "rig": {"deck.enemies": ["rash", "krupp", "glitch", "knuckles"]},
            },
            {"cmd": "new", "game": "city_of_fury", "seats": ["me"], "seed": 1, "rig": {"deck.enemies": ["nobody"]}},
            {"cmd": "new", "game": "city_of_fury", "seats": ["me"], "seed": 1, "rig": ["not", "a", "dict"]},
        ]
    )
    ok, impossible, malformed = r
    assert ok["state"]["screen"][:4] == ["rash", "krupp", "glitch", "knuckles"]
    assert impossible["error"]["code"] == "bad_rig" and "nobody" in impossible["error"]["message"]
    assert malformed["error"]["code"] == "bad_request"


def test_docs_list_every_declared_rig_name_of_every_game():
    """docs/driver.md's rig table is exactly what the games declare (name, kind and values), as
    the driver's ``rigs`` command answers it in a fresh process (some rule tests add test tiles
    to Thunder Road's content in this one)."""
    import re

    games = available()
    lines = "".join(json.dumps({"cmd": "rigs", "game": g}) + "\n" for g in games)
    proc = subprocess.run(
        [sys.executable, "-m", "engine"], input=lines, capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(games) and all(a["ok"] and a["rigs"] for a in answers), "every game declares its rigs"
    declared = {
        (gid, name): (r["kind"], [str(v) for v in r["values"]])
        for gid, a in zip(games, answers)
        for name, r in a["rigs"].items()
    }
    doc = (ROOT / "docs" / "driver.md").read_text(encoding="utf-8")
    rows = {
        (gid, name): (kind, re.findall(r"`([^`]+)`", vals))
        for gid, name, kind, vals in re.findall(r"^\| (\w+) \| `([^`]+)` \| (\w+) \| (.+?) \|", doc, re.M)
    }
    assert rows == declared


@pytest.mark.parametrize("lang", CODES)
def test_a_request_before_new_names_the_command_as_it_is_typed(lang):
    """The driver's commands are not translated: every language tells a program to send
    ``new`` (the German message said „neu“, which the driver refuses as unknown)."""
    session = Session()
    starts = next(name for name, fn in session.commands.items() if fn == session.new)
    refused = session.handle_line(json.dumps({"cmd": "legal", "seat": "p0", "locale": lang}))
    assert refused["error"]["code"] == "no_game"
    assert re.search(rf"(?<!\w){starts}(?!\w)", refused["error"]["message"]), refused
    assert session.handle_line(json.dumps({"cmd": starts, "game": "city_of_fury", "seats": ["p0"]}))["ok"]

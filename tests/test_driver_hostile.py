"""Hostile input to the driver (issue 13 item 1): deep nesting, huge and
non-finite numbers, lone surrogates, 1 MB lines, blank lines, wrong types,
invalid UTF-8 and other games' actions.  0 deaths, 0 missing replies, 0 state
changes after a refusal, every error a stable code with a filled message."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from driver import MAX_LINE, Session, encode, serve
from engine import available, canonical, get_game

ROOT = Path(__file__).resolve().parent.parent
UNFILLED = re.compile(r"\{[a-z_]+\}")

json_values = hs.recursive(
    hs.none()
    | hs.booleans()
    | hs.integers(-(10**30), 10**30)
    | hs.floats(allow_nan=False, allow_infinity=False)
    | hs.text(max_size=20),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _actions_of_every_game() -> list[dict]:
    out = []
    for gid in available():
        game = get_game(gid)
        seats = [f"s{i}" for i in range(game.seat_range(game.parse_options({}))[0])]
        state = game.new(seats, {}, 5)
        for _ in range(12):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            out += [a.model_dump(mode="json") for a in legal[:3]]
            state, _ = game.apply(state, seat, legal[0])
    return out


FOREIGN = _actions_of_every_game()
CMDS = ["games", "new", "legal", "act", "view", "dump", "load", "rig", "rigs", "render", "schema", "replay", "outcome"]
FIELDS = ["game", "seats", "seed", "options", "rig", "seat", "action", "labels", "locale", "text", "all_events"]
FIELDS += ["state", "name", "values", "path", "export", "seat_labels"]


def deep(n: int) -> str:
    return "[" * n + "]" * n


def hostile_line() -> hs.SearchStrategy[str]:
    raw = hs.sampled_from(
        [
            "",
            "   ",
            "\t",
            deep(100_000),
            '{"cmd": "act", "seat": "s0", "action": ' + deep(5000) + "}",
            '{"cmd": "act", "seat": "s0", "action": {"kind": ' + deep(60) + "}}",
            '{"cmd": "new", "game": "city_of_fury", "seats": ["s0"], "seed": 1e400}',
            '{"cmd": "new", "game": "city_of_fury", "seats": ["s0"], "seed": -Infinity}',
            '{"cmd": "new", "game": "city_of_fury", "seats": ["s0"], "seed": NaN}',
            '{"cmd": "new", "game": "city_of_fury", "seats": ["s0"], "seed": ' + "9" * 5000 + "}",
            '{"cmd": "new", "game": "city_of_fury", "seats": ["s0"], "seed": ' + "9" * 300 + "}",
            '{"cmd": "new", "game": "\\ud800", "seats": ["s0"]}',
            '{"cmd": "\\udfff"}',
            '{"cmd": "legal", "seat": "\\ud800\\udc00\\ud800"}',
            '{"cmd": "view", "seat": "s0", "locale": "\\ud800"}',
            '{"cmd": "legal", "seat": "nobody"}',
            '{"cmd": "render", "path": "/", "seat": null}',
            '{"cmd": "render", "path": "' + "x" * 5000 + '.png"}',
            '{"cmd": "render", "path": "/no/such/folder/board.png"}',
            '{"cmd": "render", "path": "/etc/passwd"}',
            '{"cmd": "rig", "name": "deck.enemies", "values": [1e308]}',
            '{"cmd": "rig", "name": "\\ud800", "values": []}',
            '{"cmd": "load", "state": {"game": "city_of_fury", "schema_version": 99}}',
            '{"cmd": "load", "state": {"game": ["x"]}}',
            '{"cmd": "replay", "export": {"game": "city_of_fury", "seats": ["a"], "seed": 1, "log": [1]}}',
            "[1, 2, 3]",
            '"just a string"',
            "not json at all",
            '{"cmd": "act", "seat": "s0"}',
        ]
    )
    typed = hs.builds(
        lambda cmd, fields: json.dumps({"cmd": cmd, **fields}),
        hs.sampled_from(CMDS) | json_values,
        hs.dictionaries(hs.sampled_from(FIELDS), json_values, max_size=4),
    )
    foreign = hs.builds(
        lambda seat, action: json.dumps({"cmd": "act", "seat": seat, "action": action}),
        hs.sampled_from(["s0", "s1", "s2", "p1", "solo"]),
        hs.sampled_from(FOREIGN),
    )
    return raw | typed | foreign


def _snapshot(session: Session) -> str | None:
    if session.state is None:
        return None
    return session.game.id + canonical(session.game.dump(session.state))


def _check_reply(resp: dict) -> None:
    assert isinstance(resp, dict) and isinstance(resp.get("ok"), bool), resp
    json.loads(encode(resp))  # always one valid JSON line, surrogates or not
    if not resp["ok"]:
        err = resp["error"]
        assert isinstance(err["code"], str) and err["code"] and isinstance(err["message"], str)
        assert err["code"] != "internal", resp
        if err["code"] not in ("bad_request", "bad_json", "unknown_command"):
            assert not UNFILLED.search(err["message"]), resp


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game_id=hs.sampled_from(available()), data=hs.data())
def test_hostile_lines_never_kill_and_a_refusal_changes_nothing(game_id, data):
    session = Session()
    game = get_game(game_id)
    n = game.seat_range(game.parse_options({}))[0]
    start = {"cmd": "new", "game": game_id, "seats": [f"s{i}" for i in range(n)], "seed": 3}
    assert session.handle_line(json.dumps(start))["ok"]
    for _ in range(12):
        line = data.draw(hostile_line())
        before = _snapshot(session)
        resp = session.handle_line(line)
        _check_reply(resp)
        if not resp["ok"]:
            assert _snapshot(session) == before, (line[:200], resp)


def test_every_line_gets_exactly_one_reply_through_the_byte_stream():
    lines = [
        b"",
        b"   ",
        b'{"cmd": "games"}',
        b"\xff\xfe not utf-8",
        b'{"cmd": "new", "game": "city_of_fury", "seats": ["me"], "seed": 1}',
        b'{"cmd": "legal", "seat": "me", "pad": "' + b"x" * (MAX_LINE - 100) + b'"}',  # just under the limit
        b'{"cmd": "legal", "seat": "me", "pad": "' + b"x" * (MAX_LINE + 10) + b'"}',  # over it
        b'{"cmd": "legal", "seat": "me", "locale": "\\ud800"}',
        b'{"cmd": "legal", "seat": "\\ud800"}',
        b"[" * 200_000,
        b'{"cmd": "dump"}',
    ]
    out = io.BytesIO()
    serve(io.BytesIO(b"\n".join(lines) + b"\n"), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == len(lines)
    codes = [r["error"]["code"] if not r["ok"] else "ok" for r in replies]
    assert codes == [
        "empty_line",
        "empty_line",
        "ok",
        "bad_encoding",
        "ok",
        "ok",
        "too_large",
        "ok",
        "unknown_seat",
        "too_deep",
        "ok",
    ]
    assert "\\ud800" in out.getvalue().decode("ascii", "replace")  # the surrogate came back escaped


def test_the_process_survives_a_hostile_batch():
    batch = [
        b"",
        b'{"cmd": "new", "game": "automobile", "seats": ["a", "b", "c"], "seed": 1e999}',
        b'{"cmd": "new", "game": "automobile", "seats": ["a", "b", "c"], "seed": 2}',
        b"{" * 50_000,
        b'{"cmd": "act", "seat": "a", "action": {"kind": "choose_skill", "skill": "kick"}}',
        b'{"cmd": "legal", "seat": "a", "labels": true, "locale": 5}',
        b'{"cmd": "render", "path": "/tmp", "seat": null}',
        b"\x80\x81",
        b"x" * (2 * MAX_LINE),
        b'{"cmd": "outcome"}',
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "engine"], input=b"\n".join(batch) + b"\n", capture_output=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(replies) == len(batch)
    assert replies[-1] == {"ok": True, "outcome": None}
    assert b"Traceback" not in proc.stderr


def test_full_automobile_games_through_the_driver_show_no_other_seats_hand():
    """Issue 13 item 4, driver side: ``act`` answers with what the acting seat may see."""
    game = get_game("automobile")
    for seed, seats in ((1, ["a", "b", "c"]), (2, ["a", "b", "c", "d", "e"])):
        session = Session()
        assert session.handle_line(json.dumps({"cmd": "new", "game": "automobile", "seats": seats, "seed": seed}))["ok"]
        private_seen = flag_checked = 0
        for _ in range(3000):
            state = session.state
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            action = game.ai_action(state, seat).model_dump(mode="json")
            req = {"cmd": "act", "seat": seat, "action": action, "text": True}
            resp = session.handle_line(json.dumps(req))
            assert resp["ok"], resp
            assert len(resp["log"]) == len(resp["events"])
            for e in resp["events"]:
                assert e.get("to") is None or seat in e["to"], (seat, e)
                private_seen += e.get("to") is not None
            everything = game.apply(state, seat, action)[1]
            hidden = [e for e in everything if e.to is not None and seat not in e.to]
            assert len(resp["events"]) == len(everything) - len(hidden)
            if hidden and not flag_checked:  # the documented flag shows everything
                other = Session()
                assert other.handle_line(json.dumps({"cmd": "load", "state": game.dump(state)}))["ok"]
                full = other.handle_line(json.dumps({**req, "all_events": True}))
                assert full["events"] == game.dump_events(everything) and len(full["log"]) == len(everything)
                flag_checked = 1
            for other in seats:
                view = session.handle_line(json.dumps({"cmd": "view", "seat": other}))["view"]
                assert view["hand"] == list(session.state.players[other].hand)
                for third in seats:
                    if third != other:
                        assert str(list(session.state.players[third].hand)) not in json.dumps(view.get("hands", ""))
            public = session.handle_line(json.dumps({"cmd": "view", "seat": None}))["view"]
            assert "hand" not in public
        assert game.outcome(session.state) is not None
        assert private_seen > 0  # the seat's own private events do reach it
        assert flag_checked  # and other seats' did occur (and were held back)

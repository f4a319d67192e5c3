"""The headless JSON-lines driver behind ``python -m engine``.

One request per line on stdin, exactly one response per line on stdout (see
docs/driver.md), whatever the line holds.  It sits at the edge like
``bot.py``: the engine stays pure, and only the ``render`` request (and
``selfplay --render``) reaches into ``render/``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ValidationError

from engine import GameError, SeatLabel, available, canonical, get_game
from engine.base import BaseState, Game
from engine.i18n import t
from engine.locales import CODES, DEFAULT, match

#: the longest request line read (bytes, newline excluded); longer ones are refused unread
MAX_LINE = 1 << 20
#: how deeply a request may nest objects and lists
MAX_DEPTH = 40
#: the longest string field echoed back in a message
ECHO = 60


class Refused(Exception):
    """A request the driver refuses before it reaches a game (stable ``code``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _bad(message: str) -> Refused:
    return Refused("bad_request", message)


def _no_constant(name: str) -> Any:
    raise Refused("bad_number", f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused("bad_number", f"{text[:ECHO]} is too large")
    return value


def _depth_ok(obj: Any) -> bool:
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def parse_request(line: str) -> dict[str, Any]:
    """The request object of one line, or :class:`Refused`."""
    if not line.strip():
        raise Refused("empty_line", "an empty line is not a request")
    try:
        req = json.loads(line, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise Refused("too_deep", f"a request nests at most {MAX_DEPTH} levels") from None
    except Refused:
        raise
    except ValueError as exc:
        raise Refused("bad_json", f"not JSON: {str(exc)[:200]}") from None
    if not isinstance(req, dict):
        raise _bad("a request is a JSON object")
    if not _depth_ok(req):
        raise Refused("too_deep", f"a request nests at most {MAX_DEPTH} levels")
    return req


def _str(req: dict[str, Any], key: str, *, optional: bool = False, limit: int = 200) -> Any:
    value = req.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _bad(f"{key} must be a string" + (" (or null)" if optional else ""))
    if len(value) > limit:
        raise _bad(f"{key} is longer than {limit} characters")
    return value


def _locale(req: dict[str, Any]) -> str:
    loc = req.get("locale", DEFAULT)
    if loc is None:
        return DEFAULT
    if not isinstance(loc, str):
        raise _bad(f"locale must be a string ({' or '.join(CODES)})")
    return loc if match(loc) else DEFAULT


def _flag(req: dict[str, Any], key: str) -> bool:
    value = req.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(f"{key} must be true or false")
    return value


def _int(req: dict[str, Any], key: str, default: int) -> int:
    value = req.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{key} must be a whole number")
    if not -(2**63) <= value < 2**64:
        raise _bad(f"{key} must fit in 64 bits")
    return value


def _labels(req: dict[str, Any]) -> dict[str, SeatLabel] | None:
    raw = req.get("seat_labels")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _bad("seat_labels takes {seat: {name, colour}}")
    try:
        return {str(k): SeatLabel.model_validate(v) for k, v in raw.items()}
    except ValidationError as exc:
        raise _bad(f"seat_labels: {exc.errors()[0].get('msg', '')}") from None


def _json(obj: Any) -> Any:
    return obj.model_dump(mode="json") if isinstance(obj, BaseModel) else obj


class Session:
    """One driver conversation: the current game and state.  A refused request
    leaves both exactly as they were."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.state: BaseState | None = None
        self.commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "games": self.games,
            "new": self.new,
            "legal": self.legal,
            "act": self.act,
            "view": self.view,
            "dump": self.dump,
            "load": self.load,
            "rig": self.rig,
            "rigs": self.rigs,
            "render": self.render,
            "schema": self.schema,
            "replay": self.replay,
            "outcome": self.outcome,
        }

    # -- plumbing ------------------------------------------------------
    def handle_line(self, line: str) -> dict[str, Any]:
        """The response to one request line; never raises."""
        locale = DEFAULT
        try:
            req = parse_request(line)
            locale = _locale(req)
            cmd = req.get("cmd")
            fn = self.commands.get(cmd) if isinstance(cmd, str) else None
            if fn is None:
                shown = json.dumps(cmd)[:ECHO] if isinstance(cmd, (str, int, float, bool)) or cmd is None else "?"
                raise Refused("unknown_command", f"unknown cmd {shown}; one of {', '.join(sorted(self.commands))}")
            return {"ok": True, **fn(req)}
        except GameError as exc:
            return {"ok": False, "error": exc.to_json(locale)}
        except Refused as exc:
            return _err(exc.code, exc.message)
        except RecursionError:
            return _err("too_deep", f"a request nests at most {MAX_DEPTH} levels")
        except Exception as exc:  # a bug: say so, keep serving, log the traceback
            traceback.print_exc(file=sys.stderr)
            return _err("internal", f"internal error ({type(exc).__name__}); the state is unchanged")

    def _need(self) -> tuple[Game, BaseState]:
        if self.game is None or self.state is None:
            raise GameError("no_game", "core.error.no_game")
        return self.game, self.state

    # -- commands ------------------------------------------------------
    def games(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"games": available()}

    def new(self, req: dict[str, Any]) -> dict[str, Any]:
        game = get_game(_str(req, "game"))
        seats = req.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise _bad("seats must be a list of strings")
        options = req.get("options") or {}
        if not isinstance(options, dict):
            raise _bad("options must be an object")
        rig = req.get("rig")
        if rig is not None and (not isinstance(rig, dict) or not all(isinstance(v, list) for v in rig.values())):
            raise _bad("rig takes {name: [values]}")
        state = game.new(seats, options, _int(req, "seed", 0), rig=rig)
        self.game, self.state = game, state
        return {"state": game.dump(state), "to_act": game.to_act(state)}

    def legal(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        seat = _str(req, "seat")
        actions = game.legal_actions(state, seat)
        out: dict[str, Any] = {"actions": [a.model_dump(mode="json") for a in actions]}
        if _flag(req, "labels"):
            labels = _labels(req)
            out["labels"] = [game.action_label(state, a, _locale(req), labels) for a in actions]
        return out

    def act(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        seat = _str(req, "seat")
        if "action" not in req:
            raise _bad("act needs an action")
        everything = _flag(req, "all_events")
        text = _flag(req, "text")
        labels = _labels(req)
        new, events = game.apply(state, seat, req["action"])
        shown = events if everything else game.visible_events(events, seat)
        resp: dict[str, Any] = {"events": game.dump_events(shown), "to_act": game.to_act(new)}
        if text:
            resp["log"] = [game.event_text(e, _locale(req), labels) for e in shown]
        out = game.outcome(new)
        if out is not None:
            resp["outcome"] = out.model_dump(mode="json")
        self.state = new
        return resp

    def view(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        seat = _str(req, "seat", optional=True)
        return {"view": _json(game.view(state, seat, _labels(req)))}

    def dump(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        return {"state": game.dump(state)}

    def load(self, req: dict[str, Any]) -> dict[str, Any]:
        data = req.get("state")
        if not isinstance(data, dict):
            raise _bad("state must be an object (a dumped state)")
        gid = data.get("game")
        if not isinstance(gid, str):
            raise GameError("bad_state", "core.error.bad_state", detail="game: missing or not a string")
        game = get_game(gid)
        state = game.load(data)
        self.game, self.state = game, state
        return {"to_act": game.to_act(state)}

    def rig(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        forced: Any = {_str(req, "name"): req.get("values")} if "name" in req else req.get("rig")
        if not isinstance(forced, dict) or not all(isinstance(v, list) for v in forced.values()):
            raise _bad("rig takes name + values (a list), or rig: {name: [values]}")
        for name, values in forced.items():
            state = game.rig(state, name, values)
        self.state = state
        return {"rig": state.rng.rig}

    def rigs(self, req: dict[str, Any]) -> dict[str, Any]:
        game = get_game(_str(req, "game")) if "game" in req else self._need()[0]
        specs = game.rigs()
        return {"rigs": None if specs is None else {k: v.model_dump(mode="json") for k, v in specs.items()}}

    def render(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        seat = _str(req, "seat", optional=True)
        path = Path(_str(req, "path", limit=1024))
        if path.suffix.lower() != ".png":
            raise Refused("bad_path", "path must name a .png file")
        if not path.parent.is_dir():
            raise Refused("bad_path", "the folder of path does not exist")
        if path.exists() and not path.is_file():
            raise Refused("bad_path", "path is not a file")
        from render import render as draw  # the driver is an edge adapter; the engine never imports render

        png = draw(game.id, game.view(state, seat, _labels(req)), _locale(req))
        try:
            path.write_bytes(png)
        except OSError as exc:
            raise Refused("bad_path", f"cannot write there ({exc.strerror or type(exc).__name__})") from None
        return {"path": str(path), "bytes": len(png)}

    def schema(self, req: dict[str, Any]) -> dict[str, Any]:
        game = get_game(_str(req, "game")) if "game" in req else self._need()[0]
        return {"actions": game.action_schema(), "state": game.state_schema()}

    def replay(self, req: dict[str, Any]) -> dict[str, Any]:
        export = req.get("export")
        if not isinstance(export, dict):
            raise _bad("export must be a /game export object")
        game, state = replay_export(export)
        self.game, self.state = game, state
        return {"state": game.dump(state), "to_act": game.to_act(state)}

    def outcome(self, req: dict[str, Any]) -> dict[str, Any]:
        game, state = self._need()
        out = game.outcome(state)
        return {"outcome": None if out is None else out.model_dump(mode="json")}


def replay_export(export: dict[str, Any]) -> tuple[Game, BaseState]:
    """Replay a ``/game export`` file: {game, seats, options, seed, log: [{seat, action}]}."""
    if not isinstance(export.get("game"), str):
        raise _bad("export.game must be a string")
    game = get_game(export["game"])
    seats, log, seed = export.get("seats"), export.get("log"), export.get("seed")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise _bad("export.seats must be a list of strings")
    if not isinstance(log, list) or not all(isinstance(e, dict) and isinstance(e.get("seat"), str) for e in log):
        raise _bad("export.log must be a list of {seat, action}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad("export.seed must be a whole number")
    options = export.get("options") or {}
    if not isinstance(options, dict):
        raise _bad("export.options must be an object")
    return game, game.replay(seats, options, seed, [(e["seat"], e.get("action")) for e in log])


def _err(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def encode(resp: dict[str, Any]) -> bytes:
    """One response line as UTF-8 (lone surrogates, echoed from a request, escaped)."""
    text = json.dumps(resp, ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(resp, ensure_ascii=True).encode("ascii") + b"\n"


def read_lines(inp: IO[bytes]) -> Any:
    """Request lines (str), or a :class:`Refused` for one that is too long or not UTF-8."""
    while True:
        raw = inp.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the line unread
                raw = inp.readline(MAX_LINE)
            yield Refused("too_large", f"a request line holds at most {MAX_LINE} bytes")
            continue
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            yield Refused("bad_encoding", "a request line is UTF-8 text")


def serve(inp: IO[bytes], out: IO[bytes]) -> None:
    session = Session()
    for line in read_lines(inp):
        resp = _err(line.code, line.message) if isinstance(line, Refused) else session.handle_line(line)
        out.write(encode(resp))
        out.flush()


# ------------------------------------------------------------------ selfplay
def play_one(
    game: Game,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    on_step: Callable[[BaseState, list[Any]], None] | None = None,
    max_steps: int = 20000,
    level: str | None = None,
) -> BaseState:
    state = game.new(seats, options or {}, seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return state
        if not game.to_act(state):
            raise RuntimeError(f"{game.id}: nobody to act but no outcome at step {state.step}")
        state, events = game.ai_step(state, level)
        if on_step:
            on_step(state, events)
    raise RuntimeError(f"{game.id}: no result after {max_steps} steps (seed {seed})")


def selfplay_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m engine selfplay", description="Play complete games with the seat-filler AI."
    )
    ap.add_argument("game", choices=available())
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=1, help="number of games (seeds seed, seed+1, ...)")
    ap.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default: the game's minimum, at least 2 where allowed)",
    )
    ap.add_argument("--options", default="{}", help="game options as JSON")
    ap.add_argument("--level", default=None, help="AI level of every seat (default: the game's first)")
    ap.add_argument("--render", metavar="DIR", help="write one PNG per step (first game only)")
    ap.add_argument("--locale", default=DEFAULT)
    args = ap.parse_args(argv)
    try:
        return _selfplay(args)
    except GameError as exc:  # bad --players / --options: one line in the chosen language, no traceback
        print(exc.message(args.locale), file=sys.stderr)
        return 2


def _selfplay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    n = args.players if args.players is not None else max(game.min_seats, min(2, game.max_seats))
    seats = [f"p{i + 1}" for i in range(n)]
    try:
        options = json.loads(args.options)
    except ValueError as exc:
        raise GameError("bad_options", "core.error.bad_options", detail=str(exc)) from None
    game.new(seats, options, args.seed)  # the seat count and the options, checked before anything is played
    started = time.perf_counter()
    wins: dict[str, int] = {}
    for k in range(args.games):
        seed = args.seed + k
        hook = None
        if args.render and k == 0:
            from render import render as draw

            outdir = Path(args.render)
            outdir.mkdir(parents=True, exist_ok=True)

            def hook(st: BaseState, events: list[Any], _d: Path = outdir, seed: int = seed) -> None:
                (_d / f"{game.id}-{seed}-{st.step:04d}.png").write_bytes(
                    draw(game.id, game.view(st, None), args.locale)
                )

        final = play_one(game, seats, seed, options, hook, level=args.level)
        out = game.outcome(final)
        assert out is not None
        for w in out.winners:
            wins[w] = wins.get(w, 0) + 1
        print(
            f"seed {seed}: winners {out.winners or '-'} after {final.step} steps — {out.reason.text(args.locale)}"
            f" | {game.summary(final).text(args.locale)}"
        )
    dt = time.perf_counter() - started
    print(
        t(
            "core.selfplay.done",
            args.locale,
            games=args.games,
            game=game.id,
            seats=n,
            secs=f"{dt:.2f}",
            rate=f"{args.games / dt:.1f}",
            wins=json.dumps(wins),
        )
    )
    return 0


def replay_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m engine replay", description="Replay a /game export file and print the final state."
    )
    ap.add_argument("file")
    args = ap.parse_args(argv)
    export = json.loads(Path(args.file).read_text(encoding="utf-8"))
    game, state = replay_export(export)
    print(canonical(game.dump(state)))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "selfplay":
        return selfplay_main(argv[1:])
    if argv and argv[0] == "replay":
        return replay_main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print(
            "usage: python -m engine            (JSON lines on stdin/stdout, see docs/driver.md)\n"
            "       python -m engine selfplay GAME --seed N [--games K] [--players P] [--level L] [--render DIR]\n"
            "       python -m engine replay EXPORT.json"
        )
        return 0
    serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0

"""The headless JSON-lines driver behind ``python -m engine``.

One request per line on stdin, one response per line on stdout (see
docs/driver.md).  It sits at the edge like ``bot.py``: the engine stays pure,
and only the ``render`` request (and ``selfplay --render``) reaches into
``render/``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine import GameError, available, canonical, get_game
from engine.base import BaseState, Game


class Session:
    """One driver conversation: the current game and state."""

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
            "render": self.render,
            "schema": self.schema,
            "replay": self.replay,
            "outcome": self.outcome,
        }

    # -- plumbing ------------------------------------------------------
    def handle_line(self, line: str) -> dict[str, Any]:
        try:
            req = json.loads(line)
        except ValueError as exc:
            return _err("bad_json", f"not JSON: {exc}")
        if not isinstance(req, dict):
            return _err("bad_request", "a request is a JSON object")
        cmd = req.get("cmd")
        fn = self.commands.get(cmd) if isinstance(cmd, str) else None
        if fn is None:
            return _err("unknown_command", f"unknown cmd {cmd!r}; one of {sorted(self.commands)}")
        try:
            return {"ok": True, **fn(req)}
        except GameError as exc:
            return {"ok": False, "error": exc.to_json(req.get("locale") or "en")}
        except (KeyError, TypeError, ValueError) as exc:
            return _err("bad_request", f"{type(exc).__name__}: {exc}")

    def _need(self) -> tuple[Game, BaseState]:
        if self.game is None or self.state is None:
            raise GameError("no_game", "core.error.no_game")
        return self.game, self.state

    # -- commands ------------------------------------------------------
    def games(self, req):
        return {"games": available()}

    def new(self, req):
        game = get_game(str(req["game"]))
        seats = req.get("seats")
        if not isinstance(seats, list):
            raise TypeError("seats must be a list of strings")
        rig = req.get("rig")
        if rig is not None and (not isinstance(rig, dict) or not all(isinstance(v, list) for v in rig.values())):
            raise TypeError("rig takes {name: [values]}")
        try:
            self.state = game.new(seats, req.get("options") or {}, int(req.get("seed", 0)), rig=rig)
        except ValueError as exc:  # a rigged value that cannot happen (not a card of that deck, off the die)
            raise GameError("bad_rig", "core.error.bad_rig", detail=str(exc)) from None
        self.game = game
        return {"state": game.dump(self.state), "to_act": game.to_act(self.state)}

    def legal(self, req):
        game, state = self._need()
        seat = str(req["seat"])
        actions = game.legal_actions(state, seat)
        out = {"actions": [a.model_dump(mode="json") for a in actions]}
        if req.get("labels"):
            out["labels"] = [game.action_label(state, a, req.get("locale")) for a in actions]
        return out

    def act(self, req):
        game, state = self._need()
        seat = str(req["seat"])
        self.state, events = game.apply(state, seat, req["action"])
        out = game.outcome(self.state)
        resp = {"events": game.dump_events(events), "to_act": game.to_act(self.state)}
        if req.get("text"):
            resp["log"] = [game.event_text(e, req.get("locale")) for e in events]
        if out is not None:
            resp["outcome"] = out.model_dump(mode="json")
        return resp

    def view(self, req):
        game, state = self._need()
        seat = req.get("seat")
        return {"view": game.view(state, None if seat is None else str(seat))}

    def dump(self, req):
        game, state = self._need()
        return {"state": game.dump(state)}

    def load(self, req):
        data = req["state"]
        if not isinstance(data, dict):
            raise TypeError("state must be an object")
        game = get_game(str(data.get("game")))
        self.state = game.load(data)
        self.game = game
        return {"to_act": game.to_act(self.state)}

    def rig(self, req):
        game, state = self._need()
        forced = req.get("values")
        if "name" in req:
            forced = {str(req["name"]): req.get("values")}
        else:
            forced = req.get("rig")
        if not isinstance(forced, dict) or not all(isinstance(v, list) for v in forced.values()):
            raise TypeError("rig takes name + values (a list), or rig: {name: [values]}")
        for name, values in forced.items():
            state = game.rig(state, name, values)
        self.state = state
        return {"rig": state.rng.rig}

    def render(self, req):
        game, state = self._need()
        from render import render as draw  # the driver is an edge adapter; the engine never imports render

        seat = req.get("seat")
        png = draw(game.id, game.view(state, None if seat is None else str(seat)), req.get("locale") or "en")
        path = Path(str(req["path"]))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return {"path": str(path), "bytes": len(png)}

    def schema(self, req):
        game = get_game(str(req["game"])) if "game" in req else self._need()[0]
        return {"actions": game.action_schema(), "state": game.state_schema()}

    def replay(self, req):
        export = req["export"]
        game, state = replay_export(export)
        self.game, self.state = game, state
        return {"state": game.dump(state), "to_act": game.to_act(state)}

    def outcome(self, req):
        game, state = self._need()
        out = game.outcome(state)
        return {"outcome": None if out is None else out.model_dump(mode="json")}


def replay_export(export: dict[str, Any]) -> tuple[Game, BaseState]:
    """Replay a ``/game export`` file: {game, seats, options, seed, log: [{seat, action}]}."""
    game = get_game(str(export["game"]))
    log = [(str(e["seat"]), e["action"]) for e in export["log"]]
    return game, game.replay(export["seats"], export.get("options") or {}, int(export["seed"]), log)


def _err(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def serve(inp: TextIO, out: TextIO) -> None:
    session = Session()
    for line in inp:
        if not line.strip():
            continue
        resp = session.handle_line(line)
        out.write(json.dumps(resp, ensure_ascii=False) + "\n")
        out.flush()


# ------------------------------------------------------------------ selfplay
def play_one(
    game: Game,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    on_step: Callable[[BaseState, list], None] | None = None,
    max_steps: int = 20000,
) -> BaseState:
    state = game.new(seats, options or {}, seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return state
        if not game.to_act(state):
            raise RuntimeError(f"{game.id}: nobody to act but no outcome at step {state.step}")
        state, events = game.ai_step(state)
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
    ap.add_argument("--render", metavar="DIR", help="write one PNG per step (first game only)")
    ap.add_argument("--locale", default="en")
    args = ap.parse_args(argv)
    game = get_game(args.game)
    n = args.players or max(game.min_seats, min(2, game.max_seats))
    seats = [f"p{i + 1}" for i in range(n)]
    options = json.loads(args.options)
    started = time.perf_counter()
    wins: dict[str, int] = {}
    for k in range(args.games):
        seed = args.seed + k
        hook = None
        if args.render and k == 0:
            from render import render as draw

            outdir = Path(args.render)
            outdir.mkdir(parents=True, exist_ok=True)

            def hook(st, events, _d=outdir, seed=seed):
                (_d / f"{game.id}-{seed}-{st.step:04d}.png").write_bytes(
                    draw(game.id, game.view(st, None), args.locale)
                )

        final = play_one(game, seats, seed, options, hook)
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
        f"{args.games} game(s) of {game.id} with {n} seat(s) in {dt:.2f}s ({args.games / dt:.1f} games/s); wins: {wins}"
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
            "       python -m engine selfplay GAME --seed N [--games K] [--players P] [--render DIR]\n"
            "       python -m engine replay EXPORT.json"
        )
        return 0
    serve(sys.stdin, sys.stdout)
    return 0

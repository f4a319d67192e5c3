"""Mutated states: the harness behind tests/test_mutated_states.py and bench/mutate.py.

A *base state* is one a game reaches in seeded play (random and AI moves, several seat
counts and options).  A *mutation* changes its JSON the way a forged export, a bad row or a
careless ``load`` would: a number made negative or huge, an id swapped for one that does
not exist (or for another id of the same state), a list entry dropped or duplicated, a seat
renamed, the pending decision or the phase changed, a field taken from another state of the
same game, ``schema_version`` bumped, a value of the wrong type.

:func:`check` then holds the contract to it: ``Game.load`` either refuses with ``GameError``
(code ``bad_state`` or ``newer_schema``, a message without unfilled placeholders) or accepts;
an accepted state must survive every contract call (``legal_actions`` for every seat,
``to_act``, ``outcome``, ``view`` for every seat and the public, ``render``, ``apply`` of every
legal action, ``ai_action`` at every level, and the texts the table shows) raising nothing but ``GameError``.
"""

from __future__ import annotations

import copy
import json
import random
import re
import signal
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine import GameError, available, get_game
from engine.locales import CODES

#: (seats, options) per game: the set-ups base states come from (unknown games: min and max seats)
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "armor_clash": [
        (1, {}),
        (2, {"mode": "simple"}),
        (2, {"scenario": "duel"}),
        (3, {"scenario": "skirmish", "repeated_hits": True, "ammo_rack": True}),
        (4, {"scenario": "c3_village", "mode": "simple", "ricochet_stun": True}),
    ],
    "automobile": [(3, {}), (4, {}), (5, {})],
    "city_of_fury": [(1, {}), (1, {"hero": "brawler"})],
    "thunder_road": [
        (2, {}),
        (3, {"big_rig": True}),
        (4, {"final_five": True, "on_fire": True}),
        (5, {"start_face": "a"}),
    ],
}
#: refusal codes ``load`` may give
REFUSALS = frozenset({"bad_state", "newer_schema"})
#: seconds one mutated state may take through every call before it counts as hung
TIME_LIMIT = 20


def configs(game_id: str) -> list[tuple[int, dict[str, Any]]]:
    if game_id in CONFIGS:
        return CONFIGS[game_id]
    game = get_game(game_id)
    return [(game.min_seats, {}), (game.max_seats, {})]


@cache
def base_states(game_id: str, seed: int = 0, per_config: int = 6, max_steps: int = 400) -> tuple[dict[str, Any], ...]:
    """JSON dumps of states reached in seeded play: for every set-up, a random game and an
    AI game, snapshots along the way (the start and the last state included)."""
    game = get_game(game_id)
    out: list[dict[str, Any]] = []
    for ci, (n, options) in enumerate(configs(game_id)):
        lo, hi = game.seat_range(options)
        n = min(max(n, lo), hi)
        for use_ai in (False, True):
            rnd = random.Random(f"{game_id}:{seed}:{ci}:{use_ai}")
            state = game.new([f"p{i + 1}" for i in range(n)], options, rnd.randrange(2**31))
            states = [state]
            for _ in range(max_steps):
                if game.outcome(state) is not None:
                    break
                seat = rnd.choice(game.to_act(state))
                legal = game.legal_actions(state, seat)
                action = game.ai_action(state, seat) if use_ai and rnd.random() < 0.7 else rnd.choice(legal)
                state, _ = game.apply(state, seat, action)
                states.append(state)
            picks = {0, len(states) - 1} | {rnd.randrange(len(states)) for _ in range(per_config - 2)}
            out.extend(game.dump(states[i]) for i in sorted(picks))
    return tuple(out)


# ====================================================================== mutations
Path = tuple[str | int, ...]

_PHASE_WORDS = ("pending", "phase", "current", "stage", "step", "turn", "round", "result", "winner", "order", "reroll")


def _nodes(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _nodes(v, (*path, i))


def _get(data: Any, path: Path) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: Path, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _name(path: Path) -> str:
    return ".".join(str(p) for p in path) or "<root>"


def _strings(data: Any) -> list[str]:
    return sorted({v for _, v in _nodes(data) if isinstance(v, str)} | {k for k in _keys(data)})


def _keys(data: Any) -> Iterator[str]:
    for _, v in _nodes(data):
        if isinstance(v, dict):
            yield from v


def _pick(rnd: random.Random, d: Any, ok: Any) -> tuple[Path, Any] | None:
    """A random node ``(path, value)`` of ``d`` for which ``ok(path, value)`` holds (None: none does)."""
    nodes = [(p, v) for p, v in _nodes(d) if ok(p, v)]
    return rnd.choice(nodes) if nodes else None


def _mut_number(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    picked = _pick(rnd, d, lambda p, v: p and type(v) is int and p[0] != "rng")
    if picked is None:
        return None
    p, v = picked
    new = rnd.choice([-1, -5, 0, v + 1, v - 1, v * 2 + 7, 99, 10**6, 2**31, -(2**31), 2**63 + 5, -(10**12)])
    _set(d, p, new)
    return f"number {_name(p)}: {v} -> {new}"


def _mut_string(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    picked = _pick(rnd, d, lambda p, v: p and isinstance(v, str) and p not in (("game",),))
    if picked is None:
        return None
    p, v = picked
    pool = _strings(d)
    new = rnd.choice(["zz", "", "nonexistent_id", "x" * 80, rnd.choice(pool), rnd.choice(pool), rnd.choice(_seats(d))])
    _set(d, p, new)
    return f"string {_name(p)}: {v!r} -> {new!r}"


def _seats(d: dict[str, Any]) -> list[str]:
    seats = d.get("seats")
    ok = [s for s in seats if isinstance(s, str)] if isinstance(seats, list) else []
    return ok or ["p1"]


def _mut_seat(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    seats = d.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    i = rnd.randrange(len(seats))
    old = seats[i]
    how = rnd.randrange(4)
    if how == 0:
        seats[i] = "zz"
    elif how == 1 and len(seats) > 1:
        seats[i] = seats[(i + 1) % len(seats)]
    elif how == 2:
        seats.append("zz")
        return "seat added 'zz'"
    else:
        seats.pop(i)
        return f"seat {old!r} dropped"
    return f"seat {old!r} -> {seats[i]!r}"


def _mut_list(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    picked = _pick(rnd, d, lambda p, v: p and isinstance(v, list))
    if picked is None:
        return None
    p, v = picked
    how = rnd.randrange(5)
    if not v or how == 4:
        pool = [x for _, x in _nodes(d) if isinstance(x, (int, str)) and not isinstance(x, bool)]
        extra = copy.deepcopy(rnd.choice(v)) if v and rnd.random() < 0.5 else rnd.choice(pool)
        v.append(extra)
        return f"list {_name(p)}: appended {extra!r}"
    i = rnd.randrange(len(v))
    if how == 0:
        v.pop(i)
        return f"list {_name(p)}: dropped [{i}]"
    if how == 1:
        v.insert(i, copy.deepcopy(v[i]))
        return f"list {_name(p)}: duplicated [{i}]"
    if how == 2:
        v.clear()
        return f"list {_name(p)}: emptied"
    rnd.shuffle(v)
    return f"list {_name(p)}: shuffled"


def _mut_dict(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    picked = _pick(rnd, d, lambda p, v: p and isinstance(v, dict) and v and p[0] != "rng")
    if picked is None:
        return None
    p, v = picked
    k = rnd.choice(list(v))
    how = rnd.randrange(3)
    if how == 0:
        del v[k]
        return f"dict {_name(p)}: dropped {k!r}"
    new = rnd.choice(["zz", *_seats(d)])
    if how == 1 and new not in v:
        v[new] = v.pop(k)
        return f"dict {_name(p)}: key {k!r} -> {new!r}"
    v[new] = copy.deepcopy(v[k])
    return f"dict {_name(p)}: {new!r} = copy of {k!r}"


def _mut_type(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    nodes = [p for p, _ in _nodes(d) if p]
    p = rnd.choice(nodes)
    new = rnd.choice([None, [], {}, "x", 1, True, 1.5, -1, [1], {"a": 1}])
    _set(d, p, new)
    return f"type {_name(p)} -> {new!r}"


def _mut_bool(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    picked = _pick(rnd, d, lambda p, v: p and isinstance(v, bool))
    if picked is None:
        return None
    p, v = picked
    _set(d, p, not v)
    return f"bool {_name(p)} -> {not v}"


def _mut_schema(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    v = d.get("schema_version")
    if type(v) is not int:
        return None
    new = rnd.choice([v + 1, v - 1, 0, -1, 99])
    d["schema_version"] = new
    return f"schema_version {v} -> {new}"


def _mut_phase(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    """A field about whose turn it is or what is pending: from another state, None, or mutated."""
    nodes = [
        (p, v)
        for p, v in _nodes(d)
        if p and isinstance(p[-1], str) and any(w in p[-1].lower() for w in _PHASE_WORDS) and p != ("step",)
    ]
    if not nodes:
        return None
    p, v = rnd.choice(nodes)
    donors = [o for o in others if _has(o, p)]
    how = rnd.randrange(3)
    if how == 0 and donors:
        new = copy.deepcopy(_get(rnd.choice(donors), p))
        _set(d, p, new)
        return f"phase {_name(p)} from another state: {json.dumps(new)[:80]}"
    if how == 1:
        _set(d, p, None)
        return f"phase {_name(p)} -> None"
    sub = [(q, x) for q, x in _nodes(v, p) if not isinstance(x, (dict, list))]
    if not sub:
        _set(d, p, None)
        return f"phase {_name(p)} -> None"
    q, x = rnd.choice(sub)
    if type(x) is int:
        new = rnd.choice([x + 1, x - 1, -1, 99])
    elif isinstance(x, str):
        new = rnd.choice(["zz", *_seats(d), *_strings(v)])
    else:
        new = rnd.choice([None, True, False, 0, "zz"])
    _set(d, q, new)
    return f"phase {_name(q)}: {x!r} -> {new!r}"


def _has(data: Any, path: Path) -> bool:
    try:
        _get(data, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _mut_splice(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    """A top-level field (or one entry of a top-level list) taken from another state of the game."""
    if not others:
        return None
    o = rnd.choice(others)
    keys = [k for k in d if k not in ("game", "schema_version") and k in o and o[k] != d[k]]
    if not keys:
        return None
    k = rnd.choice(keys)
    if isinstance(d[k], list) and isinstance(o[k], list) and d[k] and o[k] and rnd.random() < 0.6:
        i = rnd.randrange(len(d[k]))
        d[k][i] = copy.deepcopy(rnd.choice(o[k]))
        return f"splice {k}[{i}] from another state"
    d[k] = copy.deepcopy(o[k])
    return f"splice {k} from another state"


def _mut_swap(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    """Two values of one type swapped (two units' positions, two cards, two seats' counters)."""
    leaves = [(p, v) for p, v in _nodes(d) if p and p[0] not in ("rng", "seed") and isinstance(v, (int, str))]
    if len(leaves) < 2:
        return None
    p, v = rnd.choice(leaves)
    same = [(q, w) for q, w in leaves if type(w) is type(v) and w != v]
    if not same:
        return None
    q, w = rnd.choice(same)
    _set(d, p, w)
    _set(d, q, v)
    return f"swap {_name(p)}={v!r} with {_name(q)}={w!r}"


def _mut_move(rnd: random.Random, d: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    """An entry moved from one list to another (a card from the deck to a hand, a unit's id into an order)."""
    lists = [(p, v) for p, v in _nodes(d) if p and p[0] != "rng" and isinstance(v, list)]
    full = [(p, v) for p, v in lists if v]
    if not full or len(lists) < 2:
        return None
    p, v = rnd.choice(full)
    targets = [(q, w) for q, w in lists if q[: len(p)] != p]  # (not into the list itself or its entries)
    if not targets:
        return None
    q, w = rnd.choice(targets)
    x = v.pop(rnd.randrange(len(v)))
    w.insert(rnd.randrange(len(w) + 1), x)
    return f"move {json.dumps(x)[:40]} from {_name(p)} to {_name(q)}"


MUTATIONS = (
    (_mut_number, 5),
    (_mut_string, 4),
    (_mut_seat, 1),
    (_mut_list, 4),
    (_mut_dict, 2),
    (_mut_type, 2),
    (_mut_bool, 2),
    (_mut_schema, 1),
    (_mut_phase, 4),
    (_mut_splice, 3),
    (_mut_swap, 3),
    (_mut_move, 2),
)


def mutate(rnd: random.Random, data: dict[str, Any], others: list[dict[str, Any]], n: int = 1) -> tuple[Any, list[str]]:
    """A mutated deep copy of ``data`` (``n`` mutations) and what was changed."""
    d = copy.deepcopy(data)
    done: list[str] = []
    fns = [f for f, _ in MUTATIONS]
    weights = [w for _, w in MUTATIONS]
    for _ in range(50):
        if len(done) >= n:
            break
        what = rnd.choices(fns, weights)[0](rnd, d, others)
        if what is not None:
            done.append(what)
    return d, done


# ====================================================================== checks
@dataclass
class Result:
    verdict: str  # "refused", "accepted" or "crashed"
    detail: str = ""  # the refusal message or the crash (call, exception, where)
    mutations: list[str] = field(default_factory=list)

    @property
    def signature(self) -> str:
        """The crash without the values (to group crashes of one cause)."""
        return self.detail.split(" | ")[0]


class _Hung(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hung(f"no answer within {TIME_LIMIT} s")


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "/engine/" in f.filename or "/render/" in f.filename] or frames
    f = mine[-1]
    return f"{f.filename.split('/')[-2]}/{f.filename.split('/')[-1]}:{f.lineno} {f.name}"


_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _message_ok(exc: GameError) -> bool:
    if exc.code == "bad_state" and not str(exc.params.get("detail", "")).strip():
        return False  # a refusal names the problem
    for locale in CODES:
        text = exc.message(locale)
        if not text or _PLACEHOLDER.search(text) or exc.key in text:
            return False
    return True


def exercise(game: Any, state: Any) -> None:
    """Every contract call on ``state``; raises whatever the game raises other than GameError."""
    from render import render

    def call(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except GameError:
            return None

    seats = list(state.seats)
    for seat in seats:
        call(game.legal_actions, state, seat)
        call(game.private_summary, state, seat)
    to_act = call(game.to_act, state) or []
    call(game.outcome, state)
    call(game.summary, state)
    views = [call(game.view, state, seat) for seat in [None, *seats]]
    for v in views[:1] + [x for x, s in zip(views[1:], seats, strict=True) if s in to_act][:1]:
        if v is not None:
            render(game.id, v, "en")
    for seat in to_act:
        legal = call(game.legal_actions, state, seat) or []
        call(game.prompt, state, seat)
        for action in legal:
            call(game.action_label, state, action, "en")
            applied = call(game.apply, state, seat, action)
            if applied is not None:
                for event in applied[1]:
                    game.event_text(event, "en")
                after = applied[0]  # and one step on: whoever acts next can ask for their choices
                for nxt in call(game.to_act, after) or []:
                    call(game.legal_actions, after, nxt)
                call(game.view, after, None)
        if legal:
            for level in game.ai_levels:
                call(game.ai_action, state, seat, level)


def check(game_id: str, data: Any, mutations: list[str] | None = None) -> Result:
    """Load ``data`` and, if accepted, put the state through every contract call."""
    game = get_game(game_id)
    muts = list(mutations or [])
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    stage = "load"
    try:
        try:
            state = game.load(copy.deepcopy(data))
        except GameError as exc:
            if exc.code not in REFUSALS:
                return Result("crashed", f"load: refused with code {exc.code!r} | {exc}", muts)
            if not _message_ok(exc):
                return Result("crashed", f"load: message with unfilled parts | {exc.message()}", muts)
            return Result("refused", exc.message(), muts)
        stage = "calls"
        exercise(game, state)
        return Result("accepted", "", muts)
    except (Exception, RecursionError) as exc:
        where = _where(exc)
        return Result("crashed", f"{stage}: {type(exc).__name__} at {where} | {str(exc)[:160]}", muts)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(game_id: str, n: int, seed: int = 0) -> list[Result]:
    """``n`` mutated states of ``game_id`` (1-3 mutations each), checked."""
    bases = list(base_states(game_id))
    rnd = random.Random(f"mutate:{game_id}:{seed}")
    out: list[Result] = []
    while len(out) < n:
        i = rnd.randrange(len(bases))
        data, muts = mutate(rnd, bases[i], bases[:i] + bases[i + 1 :], n=rnd.choice((1, 1, 1, 2, 3, 4)))
        if data == bases[i]:
            continue
        out.append(check(game_id, data, muts))
    return out


__all__ = ["CONFIGS", "Result", "available", "base_states", "check", "exercise", "mutate", "run"]

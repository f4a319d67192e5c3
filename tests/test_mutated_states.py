"""Mutated states (issue 13 item 2): ``load`` refuses an impossible state with a stable code
and a message naming the problem, and every contract call on a state it accepts raises
nothing but ``GameError``.  The states come from seeded play of every registered game; the
mutations from tests/mutation.py (bench/mutate.py runs 1,200 per game)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from mutation import base_states, check, mutate

from engine import GameError, available, get_game

GAMES = available()


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=300, deadline=None, database=None)
@given(seed=hs.integers(0, 2**32), which=hs.integers(0, 10**6), n=hs.integers(1, 3))
def test_a_mutated_state_is_refused_or_survives_every_call(game_id, seed, which, n):
    bases = base_states(game_id)
    i = which % len(bases)
    data, muts = mutate(random.Random(seed), bases[i], [b for j, b in enumerate(bases) if j != i], n)
    result = check(game_id, data, muts)
    assert result.verdict != "crashed", f"{game_id}: {'; '.join(muts)} -> {result.detail}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_base_state_loads_and_survives_every_call(game_id):
    bases = base_states(game_id)
    assert len(bases) >= 8
    for data in bases:
        assert check(game_id, data).verdict == "accepted"


@pytest.mark.parametrize("game_id", GAMES)
def test_refusals_name_the_field(game_id):
    game = get_game(game_id)
    data = dict(base_states(game_id)[0])
    for field, value, code, words in (
        ("schema_version", game.schema_version + 1, "newer_schema", str(game.schema_version + 1)),
        ("seats", ["zz"] * (game.max_seats + 1), "bad_state", "seats"),
        ("rng", {"state": 1, "rig": {"no_such_draw": [1]}}, "bad_state", "no_such_draw"),
    ):
        with pytest.raises(GameError) as exc:
            game.load({**data, field: value})
        assert exc.value.code == code
        assert words in exc.value.message("en"), exc.value.message("en")


def _reached(game_id, seats, found, seeds=range(40)):
    """The first state of seeded random play for which ``found(state)`` holds."""
    game = get_game(game_id)
    for seed in seeds:
        rnd = random.Random(seed)
        state = game.new(seats, {}, seed)
        for _ in range(800):
            if found(state):
                return game.dump(state)
            if game.outcome(state) is not None:
                break
            seat = rnd.choice(game.to_act(state))
            state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    raise AssertionError(f"{game_id}: no such state in play")


def _set(data, path, value):
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def _unit_with(what):
    def found(state):
        return any(getattr(u, what) is not None for u in state.units)

    return found


def _first_unit_with(data, what):
    return next(i for i, u in enumerate(data["units"]) if u[what] is not None)


# (game, seats, the state to find, how to break it, words the refusal must contain): states
# bench/mutate.py found accepted (the first, third and fifth then broke a later call)
CASES = [
    (
        "armor_clash",
        ["p1", "p2"],
        _unit_with("move_plan"),
        lambda d: _set(d, ["units", _first_unit_with(d, "move_plan"), "move_plan", "dir"], 10**6),
        "move_plan.dir",
    ),
    (
        "armor_clash",
        ["p1"],
        _unit_with("card"),
        lambda d: _set(d, ["units", _first_unit_with(d, "card"), "card", "cur_dirs"], [3, 3]),
        "card",
    ),
    (
        "thunder_road",
        ["p1", "p2", "p3"],
        lambda s: s.reroll is not None,
        lambda d: _set(d, ["reroll", "snapshot", "round"], d["round"] + 1),
        "reroll.snapshot",
    ),
    ("thunder_road", ["p1", "p2"], lambda s: True, lambda d: _set(d, ["next_id"], 0), "next_id"),
    (
        "automobile",
        ["p1", "p2", "p3"],
        lambda s: s.phase == 2 and s.pending is None,
        lambda d: _set(d, ["selection_order"], []),
        "selection_order",
    ),
    (
        "automobile",
        ["p1", "p2", "p3"],
        lambda s: bool(s.revealed),
        lambda d: _set(d, ["revealed", sorted(d["revealed"])[0]], [17]),
        "demand cards",
    ),
    ("city_of_fury", ["p1"], lambda s: True, lambda d: _set(d, ["pending", "index"], -(2**31)), "pending"),
]


@pytest.mark.parametrize(("game_id", "seats", "found", "breaks", "words"), CASES, ids=[c[-1] for c in CASES])
def test_mutated_states_once_accepted_are_refused_naming_the_field(game_id, seats, found, breaks, words):
    game = get_game(game_id)
    data = _reached(game_id, seats, found)
    game.load(data)  # as reached in play: accepted
    breaks(data)
    with pytest.raises(GameError) as exc:
        game.load(data)
    assert exc.value.code == "bad_state"
    assert words in exc.value.message("en"), exc.value.message("en")

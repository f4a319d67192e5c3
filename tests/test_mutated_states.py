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
@settings(max_examples=120, deadline=None, database=None)
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

"""The base contract, for every registered game: ``apply`` is pure, an action
from ``legal_actions`` is accepted without computing them again, and the
generic checks hold (issue 10 item 4, issue 13 items 2-3)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from engine import GameError, available, canonical, get_game

GAMES = available()


def _seats(game, n):
    return [f"s{i}" for i in range(n)]


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=4, deadline=None, database=None)
@given(seed=hs.integers(0, 2**31), big=hs.booleans())
def test_apply_never_changes_its_input_and_accepts_objects_and_dicts_alike(game_id, seed, big):
    game = get_game(game_id)
    lo, hi = game.seat_range(game.parse_options({}))
    n = hi if big else lo
    state = game.new(_seats(game, n), {}, seed)
    rnd = random.Random(seed)
    for step in range(120):
        if game.outcome(state) is not None:
            break
        seat = rnd.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        assert legal, (game_id, step)
        action = rnd.choice(legal)
        before = canonical(game.dump(state))
        new, events = game.apply(state, seat, action)
        assert canonical(game.dump(state)) == before, f"{game_id}: apply changed its input at step {step}"
        assert new is not state and new.step == state.step + 1
        # the same action as JSON (a log entry, a driver request) leads to the same state
        again, events2 = game.apply(state, seat, action.model_dump(mode="json"))
        assert canonical(game.dump(again)) == canonical(game.dump(new))
        assert game.dump_events(events) == game.dump_events(events2)
        assert canonical(game.dump(state)) == before
        if step % 25 == 0:
            game.validate(new)
        state = new


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_from_legal_actions_is_accepted_without_recomputing_them(game_id, monkeypatch):
    game = type(get_game(game_id))()
    calls = []
    real = game._legal

    def counting(state, seat):
        calls.append(seat)
        return real(state, seat)

    monkeypatch.setattr(game, "_legal", counting)
    state = game.new(_seats(game, game.min_seats), {}, 3)
    for _ in range(30):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        calls.clear()
        legal = game.legal_actions(state, seat)
        assert calls == [seat]
        state, _ = game.apply(state, seat, legal[-1])
        assert calls == [seat], f"{game_id}: apply computed the legal actions again"


@pytest.mark.parametrize("game_id", GAMES)
def test_generic_refusals(game_id):
    game = get_game(game_id)
    state = game.new(_seats(game, game.min_seats), {}, 1)
    with pytest.raises(GameError) as exc:
        game.legal_actions(state, "nobody")
    assert exc.value.code == "unknown_seat" and "nobody" in exc.value.message("en")
    for bad in (None, 5, "x", [], {"kind": "no_such_kind"}, {"kind": ["deep"] * 3}):
        before = canonical(game.dump(state))
        with pytest.raises(GameError):
            game.apply(state, game.to_act(state)[0], bad)
        assert canonical(game.dump(state)) == before
    data = game.dump(state)
    with pytest.raises(GameError) as exc:
        game.load({**data, "schema_version": game.schema_version + 1})
    assert exc.value.code == "newer_schema"
    for seats in ([], ["a", "a"], [f"x{i}" for i in range(game.max_seats + 1)], [""]):
        with pytest.raises(GameError) as exc:
            game.load({**data, "seats": seats})
        assert exc.value.code == "bad_state"
    with pytest.raises(GameError):
        game.new(_seats(game, game.min_seats), {}, True)
    with pytest.raises(GameError):
        game.ai_action(state, game.to_act(state)[0], "no_such_level")

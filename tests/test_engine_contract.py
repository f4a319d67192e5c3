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


# ---------------------------------------------------------------- the base alone, on a tiny card game
from typing import Annotated, Any, Literal  # noqa: E402

from engine import PER_SEAT, BaseState, Event, Game, Model, Outcome, SeatId, SeatLabel, View  # noqa: E402


class _HandState(BaseState):
    game: Literal["hands"] = "hands"
    hands: dict[str, list[int]]
    turn: int = 0


class _Play(Model):
    kind: Literal["play"] = "play"
    card: int


class _Played(Event):
    kind: Literal["played"] = "played"
    seat: SeatId
    card: int


class _Drew(Event):
    kind: Literal["drew"] = "drew"
    card: int


class _HandView(View):
    hands: Annotated[dict[str, list[int]], PER_SEAT]
    counts: dict[str, int]


class _Hands(Game[_HandState]):
    id = "hands"
    min_seats = max_seats = 2
    State = _HandState
    Action = _Play
    Event = Annotated[_Played | _Drew, __import__("pydantic").Field(discriminator="kind")]
    View = _HandView

    def _new(self, seats, options, seed, rng):
        deck = rng.shuffle("deck", list(range(10)))
        return _HandState(
            schema_version=1, seats=seats, seed=seed, rng=rng, hands={seats[0]: deck[:3], seats[1]: deck[3:6]}
        )

    def _to_act(self, state):
        return [] if self._outcome(state) else [state.seats[state.turn % 2]]

    def _outcome(self, state):
        empty = [s for s in state.seats if not state.hands[s]]
        return Outcome(winners=empty[:1], reason={"key": "core.summary.step"}) if empty else None

    def _legal(self, state, seat):
        return [_Play(card=c) for c in state.hands[seat]]

    def _apply(self, state, seat, action) -> list[Any]:
        state.hands[seat].remove(action.card)
        state.turn += 1
        return [_Played(seat=seat, card=action.card), _Drew(card=action.card, to=[seat])]

    def _view(self, state, seat):
        return {"hands": state.hands, "counts": {s: len(h) for s, h in state.hands.items()}}


def test_the_base_strips_other_seats_hands_and_names_seats_by_label():
    game = _Hands()
    state = game.new(["ann", "bob"], {}, 4)
    public, ann, bob = game.view(state), game.view(state, "ann"), game.view(state, "bob")
    assert public.hands == {} and public.counts == {"ann": 3, "bob": 3}
    assert ann.hands == {"ann": state.hands["ann"]} and bob.hands == {"bob": state.hands["bob"]}
    assert "rng" not in public.model_dump() and "seed" not in public.model_dump()
    labels = {"ann": SeatLabel(name="Ann Lee", colour="#ff0000")}
    assert game.view(state, None, labels).labels["ann"].name == "Ann Lee" and public.label("bob") == "bob"
    new, events = game.apply(state, "ann", game.legal_actions(state, "ann")[0])
    assert [e.kind for e in game.visible_events(events, "bob")] == ["played"]
    assert [e.kind for e in game.visible_events(events, "ann")] == ["played", "drew"]
    assert [e.kind for e in game.visible_events(events, None)] == ["played"]
    assert game.event_text(events[0], "en", labels).startswith("hands.event.played")  # no catalog: key + params
    assert '"Ann Lee"' in game.event_text(events[0], "en", labels)  # the SeatId field shows the label


def test_the_base_refuses_a_view_with_secrets_and_overridden_contract_methods():
    with pytest.raises(TypeError):

        class _Leaky(_Hands):
            class View(_HandView):
                rng: int = 0

    for name in ("apply", "view", "event_text", "action_label", "ai_action", "to_act", "outcome", "summary"):
        # every public method is the base's (there is no wrapper for a game overriding one)
        with pytest.raises(TypeError, match=f"_Rude.{name}: implement the hook"):
            type("_Rude", (_Hands,), {name: lambda self, *args: None})

    class _Blind(_Hands):
        View = None  # a game without a view model cannot be made

    with pytest.raises(TypeError, match="declare its View"):
        _Blind()


def test_a_rigged_value_impossible_at_the_draw_refuses_the_action_and_changes_nothing():
    from engine import get_game

    game = get_game("thunder_road")
    # an ON FIRE! damage token is a declared value, but without the on_fire option none is in the pile
    state = game.rig(game.new(["a", "b"], {}, 1), "damage", ["on_fire"])
    refused = None
    for _ in range(300):
        seat = game.to_act(state)[0]
        before = canonical(game.dump(state))
        try:
            state, _ = game.apply(state, seat, game.ai_action(state, seat))
        except GameError as exc:
            refused = exc
            break
    assert refused is not None and refused.code == "bad_rig", "no damage token was ever drawn"
    assert canonical(game.dump(state)) == before
    cleared = game.rig(state, "damage", [])
    assert "damage" not in cleared.rng.rig
    game.apply(cleared, seat, game.legal_actions(cleared, seat)[0])  # and play goes on

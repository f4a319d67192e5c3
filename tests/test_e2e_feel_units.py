"""Issue 12, the platform pieces below the Discord layer: choices as chains
(runs and compound decisions), forced single choices taken by the service,
the log summarised one line per actor, seat labels."""

from __future__ import annotations

import nimgame
import pytest

from cogs.present.ui import log_lines, relabel, seat_labels
from engine import get_game, register, unregister
from store import GameRow, Seat
from tables import TableService
from tables.rules.choices import MAX_CHOICES, choices
from tables.rules.preview import step_ends_chain


@pytest.fixture
def nim():
    game = register(nimgame.GAME)
    yield game
    unregister("nim")


def _row(game_id: str, users: dict[str, int | None]) -> GameRow:
    seats = [Seat(s, u) for s, u in users.items()]
    return GameRow(1, 1, 1, game_id, "active", 101, seats, {}, 1, None, 1, 0.0, 0.0)


def _walk(game, state, seat, chain):
    for n, i in enumerate(chain):
        before = state
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[i])
        if n < len(chain) - 1:
            assert not step_ends_chain(game, before, state, seat), "a chain never runs past a roll or a reveal"
    return state


@pytest.mark.parametrize("game_id,seats", [("thunder_road", 4), ("automobile", 3)])
def test_choices_are_distinct_chains_that_never_look_past_hidden_information(game_id, seats):
    game = get_game(game_id)
    state = game.new([f"p{i + 1}" for i in range(seats)], {}, 11)
    kinds = set()
    for _ in range(70):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        offered = choices(game, state, seat)
        assert 0 < len(offered) <= max(MAX_CHOICES, len(game.legal_actions(state, seat)))
        assert offered == choices(game, state, seat), "the same state gives the same list"
        kinds |= {c.kind for c in offered}
        if offered[0].kind != "single":
            ends = [_walk(game, state, seat, c.chain).model_dump_json() for c in offered]
            assert len(set(ends)) == len(ends), "two choices never lead to the same result"
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    assert "run" in kinds or "compound" in kinds, kinds


def test_an_automobile_build_is_one_pick_of_model_and_count():
    game = get_game("automobile")
    state = game.new(["p1", "p2", "p3"], {}, 5)
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        if state.pending is not None and state.pending.kind == "build_class" and state.pending.origin == "action":
            offered = choices(game, state, seat)
            assert any(len(c.chain) >= 2 for c in offered), "model and count in one pick"
            return
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    pytest.skip("no build decision in this seeded game")


def test_a_decision_with_one_legal_choice_is_taken_and_logged_as_automatic(nim, tmp_path):
    game = nim
    state = game.new(["p1", "p2"], {"heaps": [1, 1, 2]}, 1)
    service = TableService(store=None)  # run_ai touches no store
    row = _row("nim", {"p1": 101, "p2": 102})
    state, _ = game.apply(state, "p1", game.legal_actions(state, "p1")[2])  # take 1 from heap 3 -> [1, 1, 1]
    after, entries, _ = service.run_ai(row, game, state)
    assert entries == [], "three legal moves: a real choice, nothing taken"
    state, _ = game.apply(state, "p2", game.legal_actions(state, "p2")[0])  # -> [0, 1, 1]
    state, _ = game.apply(state, "p1", game.legal_actions(state, "p1")[0])  # -> [0, 0, 1]
    assert len(game.legal_actions(state, "p2")) == 1
    after, entries, events = service.run_ai(row, game, state)
    assert len(entries) == 1 and entries[0].auto and entries[0].user_id == 102, "taken for its owner"
    assert game.outcome(after) is not None
    service.auto_forced = False
    assert service.run_ai(row, game, state)[1] == []


def test_the_log_is_one_line_per_actor_with_repeats_counted(nim):
    game = nim
    row = _row("nim", {"p1": 101, "p2": None})
    labels = seat_labels(row, {101: "Alice"}, "en")
    assert labels["p1"].name == "Alice" and labels["p2"].name.startswith("AI 1")  # "AI 1 (easy)": Nim has levels
    assert labels["p1"].colour != labels["p2"].colour
    state = game.new(["p1", "p2"], {"heaps": [3, 3, 3]}, 1)
    evs = []
    for _ in range(3):
        state, e = (
            game.apply(state, "p2", game.legal_actions(state, "p2")[0])
            if "p2" in game.to_act(state)
            else (game.apply(state, "p1", game.legal_actions(state, "p1")[0]))
        )
        evs += e
    same = [evs[0]] * 3
    lines = log_lines(row, game, [("p2", same, "ai"), ("p2", same[:1], "ai"), ("p1", evs[1:2], "player")], "en", labels)
    assert len(lines) == 2, lines
    assert "×4" in lines[0] and "AI 1" in lines[0] and "p2" not in lines[0]
    assert "Alice" in lines[1]
    assert relabel("p1 hits p2; p12 stays", labels) == f"Alice hits {labels['p2'].name}; p12 stays"

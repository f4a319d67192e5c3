"""Every choice is told apart by its label alone (issue 20 item 3): across seeded AI
games of all four games, the labels of every offered message are unique and fit a
component's label; a choice that destroys the seat's own piece comes last and says
so first."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.i18n import t
from tables.rules.choices import LABEL_LIMIT, Choice, _Label, _unique, choices, describe, destinations, numbering

GAMES = [
    ("thunder_road", 3, 0, "en"),
    ("thunder_road", 4, 2, "zh"),
    ("city_of_fury", 1, 1, "zh"),
    ("automobile", 3, 0, "en"),
    ("automobile", 4, 3, "zh"),
    ("armor_clash", 2, 1, "en"),
]


def _final(game, state, seat, choice: Choice):
    st = state
    for i in choice.chain:
        st, _ = game.apply(st, seat, game.legal_actions(st, seat)[i])
    return st


@pytest.mark.parametrize(("game_id", "seats", "seed", "locale"), GAMES)
def test_offered_labels_are_unique_fit_and_self_destroying_choices_come_last(game_id, seats, seed, locale):
    game = get_game(game_id)
    state = game.new([f"p{i + 1}" for i in range(seats)], {}, seed)
    messages = harmful = 0
    while game.outcome(state) is None and state.step < 100:
        for seat in game.to_act(state):
            offered = choices(game, state, seat)
            if not offered:
                continue
            numbers, _ = numbering(destinations(game, state, seat, offered))
            labels = [label for label, _ in describe(game, state, seat, offered, locale, None, numbers)]
            messages += 1
            assert len(set(labels)) == len(labels), (state.step, [x for x in labels if labels.count(x) > 1])
            assert all(0 < len(x) <= LABEL_LIMIT for x in labels), [x for x in labels if len(x) > LABEL_LIMIT]
            harms = [game.self_harm(state, _final(game, state, seat, c), seat) for c in offered]
            assert harms == [c.harm for c in offered]
            first_harm = next((k for k, h in enumerate(harms) if h), len(harms))
            assert all(harms[first_harm:]), "a self-destroying choice comes after every other"
            for k in range(first_harm, len(harms)):
                harmful += 1
                warning = "⚠ " + t(str(harms[k]), locale)
                if numbers[k] is None:
                    assert labels[k].startswith(warning), labels[k]
                else:  # the number and the place first (as on the board), then the warning
                    head = labels[k].split(" · ")
                    assert head[0] == str(numbers[k]) and warning in " · ".join(head[:3]), labels[k]
        state, _ = game.ai_step(state, None)
    assert messages > 20
    if game_id == "thunder_road":
        assert harmful, "the seeded games offer moves that lose one's own car"


def test_look_alike_chains_keep_the_step_that_differs():
    parts = [f"Step {i} of a long chain of things to do" for i in range(5)]
    a = _Label("", parts, " → ".join(parts), None, parts)
    b_parts = parts[:2] + ["Something else entirely"] + parts[3:]
    b = _Label("", b_parts, " → ".join(b_parts), None, b_parts)
    la, lb = _unique([a, b], LABEL_LIMIT, "en")
    assert la != lb and len(la) <= LABEL_LIMIT and len(lb) <= LABEL_LIMIT
    assert "Something else" in lb and "…" in la, (la, lb)


def test_identical_words_are_numbered_apart_as_a_last_resort():
    same = ["Pass"]
    labels = _unique([_Label("", same, "Pass", None, same), _Label("", same, "Pass", None, same)], LABEL_LIMIT, "en")
    assert labels == ["Pass (1)", "Pass (2)"]

"""Small texts a new player reads (issue 29 item 11): an Armor Clash victory says whose
(not a bare "victory"; the platform names the winners when a game's reason does not, so the
stored outcome of old exports stays what it was), a finished battle's line never waits for "0 crews", and
a record in a leaderboard has its unit ("6 rounds", not "6"); English and Chinese."""

from __future__ import annotations

import re

import pytest

from engine import get_game
from engine.base import SeatLabel
from engine.i18n import t
from engine.locales import CODES
from tables.people.standings import record_value
from tables.seeing.board import msg_text, outcome_text

LABELS = {"p1": SeatLabel(name="Alice"), "p2": SeatLabel(name="Bob")}


def _played_out(options: dict, seed: int):
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], options, seed)
    while game.outcome(state) is None:
        state, _ = game.ai_step(state, None)
    return game, state


@pytest.mark.parametrize("locale", list(CODES))
@pytest.mark.parametrize("options", [{}, {"scenario": "duel"}])
def test_a_victory_says_whose_and_what_and_a_finished_battle_waits_for_nobody(options, locale):
    game, state = _played_out(options, 1)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners
    said = outcome_text(outcome, locale, LABELS)
    bare = t("armor_clash.outcome.victory", locale)
    assert said != bare, said
    assert not re.search(r"\bp\d\b|\{", said), said
    assert all(LABELS[s].name in said for s in outcome.winners), said  # whose victory, by name
    summary = msg_text(game.summary(state), locale, LABELS)
    assert "0 crews" not in summary and "等待 0" not in summary, summary
    assert t("armor_clash.summary.turn", locale, turn=3, waiting=2) != t(
        "armor_clash.summary.turn", locale, turn=3, waiting=0
    )


@pytest.mark.parametrize("locale", list(CODES))
def test_a_record_cell_says_its_unit(locale):
    for game_id, value in (("thunder_road", 6.0), ("city_of_fury", 4), ("automobile", 2130.0)):
        cell = record_value(game_id, value, locale)
        assert cell not in (str(int(value)), f"{value:g}") and re.search(r"\d", cell), (game_id, cell)
    assert record_value("thunder_road", None, locale) == "-"
    assert "round" in record_value("thunder_road", 6, "en") and "$" in record_value("automobile", 2130, "en")

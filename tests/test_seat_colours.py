"""A seat's colour is never close to another colour with a meaning on the same board
(issue 20 item 4): the CIE76 colour difference between every seat colour a table
hands out and every meaningful colour of its game's board is at least
render.common.MIN_DELTA_E (25), and the table's texts and images use the same colours."""

from __future__ import annotations

import pytest

from cogs.present.ui import seat_labels, seat_tag
from engine import available, get_game
from render import board_colours
from render.common import MIN_DELTA_E, SEAT_PALETTE, delta_e
from store import GameRow, Seat
from tables.seeing.colours import seat_colours


def test_delta_e_measures_what_the_eye_sees():
    assert delta_e("#ffffff", "#ffffff") == pytest.approx(0, abs=0.5)
    assert delta_e("#E74C3C", "#ff4f3a") < MIN_DELTA_E  # Armor Clash's red seat and its boss: one colour
    assert delta_e("#F1C40F", "#d4b040") < MIN_DELTA_E  # Automobile's yellow seat and its High row
    assert delta_e("#000000", "#ffffff") > 90


@pytest.mark.parametrize("game_id", available())
def test_no_seat_colour_is_close_to_a_colour_with_a_meaning_on_the_board(game_id):
    game = get_game(game_id)
    meaningful = board_colours(game_id)
    assert meaningful, f"{game_id}'s renderer names the colours with a meaning on its board"
    most = max(game.max_seats, game.seat_range({"big_rig": True})[1] if game_id == "thunder_road" else 0)
    colours = [c for c, _ in seat_colours(game_id, most)]
    assert len(set(colours)) == len(colours), "every seat its own colour"
    for seat, colour in enumerate(colours, start=1):
        for what, other in meaningful.items():
            assert delta_e(colour, other) >= MIN_DELTA_E, (game_id, seat, colour, what, other, delta_e(colour, other))


def test_the_named_clashes_are_gone():
    assert seat_colours("armor_clash", 1)[0][0] != "#E74C3C", "player 1 is not the boss's red"
    assert "#F1C40F" not in [c for c, _ in seat_colours("automobile", 5)], "no seat wears the High row's yellow"


@pytest.mark.parametrize("game_id", ["armor_clash", "automobile"])
def test_a_tables_labels_and_text_squares_use_those_colours(game_id):
    n = get_game(game_id).max_seats
    row = GameRow(
        1, 1, 1, game_id, "active", 101, [Seat(f"p{i + 1}", 100 + i) for i in range(n)], {}, 1, None, 1, 0.0, 0.0
    )
    labels = seat_labels(row, {100 + i: f"N{i}" for i in range(n)}, "en")
    expected = seat_colours(game_id, n)
    squares = dict(SEAT_PALETTE)
    for i in range(n):
        colour = labels[f"p{i + 1}"].colour
        assert colour == expected[i][0]
        assert seat_tag(row, labels, f"p{i + 1}").startswith(squares[colour] + " ")

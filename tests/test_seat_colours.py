"""Seat colours a colour-blind player tells apart (issue 33 item 2; issue 20 item 4 for
normal vision): for every game and every seat count it seats (2..its most, Thunder Road's
fifth crew included), any two seats' colours differ by at least
render.common.MIN_SEAT_DELTA (CAM02-UCS ΔE, 20), and every seat's colour differs from every
colour with a meaning on the game's board by at least MIN_MEANING_DELTA (12), in normal
vision and under simulated protanopia, deuteranopia and tritanopia (colorspacious, through
tests/vision.py).  The table's labels, texts and images use those colours."""

from __future__ import annotations

import pytest
from vision import VISIONS, closest, delta

from cogs.present.ui import seat_labels, seat_tag
from engine import available, get_game
from render import board_colours, seat_palette
from render.common import MIN_MEANING_DELTA, MIN_SEAT_DELTA
from store import GameRow, Seat
from tables.seeing.colours import seat_colours


def most_seats(game_id: str) -> int:
    game = get_game(game_id)
    return max(game.max_seats, game.seat_range({"big_rig": True})[1] if game_id == "thunder_road" else 0)


def test_the_measure_sees_what_colour_blind_players_see():
    """Red and green of the old palette: far apart in normal vision, close under deuteranopia."""
    assert delta("#ffffff", "#ffffff") == pytest.approx(0, abs=1e-6)
    assert delta("#E74C3C", "#2ECC71") > 30
    assert delta("#E74C3C", "#2ECC71", "deuteranomaly") < delta("#E74C3C", "#2ECC71") / 2
    assert delta("#000000", "#ffffff", "tritanomaly") > 90


def test_the_old_palette_fails_the_stated_minimum():
    """The palette before issue 33 (8.8 under deuteranopia): the check would have caught it."""
    old = ["#3498DB", "#2ECC71", "#9B59B6", "#ECF0F1", "#A0522D"]  # Thunder Road's five seats then
    found = closest(old)
    assert found is not None and found[0] < MIN_SEAT_DELTA and found[1] == "deuteranomaly", found


@pytest.mark.parametrize("game_id", available())
def test_every_seat_count_keeps_its_seats_apart_in_every_vision(game_id):
    game = get_game(game_id)
    for n in range(max(2, game.min_seats), most_seats(game_id) + 1):
        colours = [c for c, _ in seat_colours(game_id, n)]
        assert len(set(colours)) == n, (game_id, n, "every seat its own colour")
        found = closest(colours)
        assert found is not None and found[0] >= MIN_SEAT_DELTA, (game_id, n, found)


@pytest.mark.parametrize("game_id", available())
def test_no_seat_colour_is_close_to_a_colour_with_a_meaning_on_the_board(game_id):
    meaningful = board_colours(game_id)
    assert meaningful, f"{game_id}'s renderer names the colours with a meaning on its board"
    colours = [c for c, _ in seat_colours(game_id, most_seats(game_id))]
    for colour in colours:
        for what, other in meaningful.items():
            worst = min((delta(colour, other, v), v) for v in VISIONS)
            assert worst[0] >= MIN_MEANING_DELTA, (game_id, colour, what, other, worst)


@pytest.mark.parametrize("game_id", ["armor_clash", "automobile", "thunder_road"])
def test_a_tables_labels_and_text_squares_use_those_colours(game_id):
    n = most_seats(game_id)
    row = GameRow(
        1, 1, 1, game_id, "active", 101, [Seat(f"p{i + 1}", 100 + i) for i in range(n)], {}, 1, None, 1, 0.0, 0.0
    )
    labels = seat_labels(row, {100 + i: f"N{i}" for i in range(n)}, "en")
    expected = seat_colours(game_id, n)
    squares = dict(seat_palette(game_id))
    for i in range(n):
        colour = labels[f"p{i + 1}"].colour
        assert colour == expected[i][0]
        assert seat_tag(row, labels, f"p{i + 1}").startswith(squares[colour] + " ")

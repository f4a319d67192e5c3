"""Colour is never the only signal (issue 33 item 2): every seat's pieces carry its symbol
(engine.base.SEAT_SYMBOLS, by seat order: the table's SeatLabel, else View.symbol) on the
board and beside its name in the board's legend (dashboards, player table, cards), and the
companion's player list shows the same symbol in the seat's colour."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer
from webtables import open_two_player

from engine import get_game
from engine.base import SEAT_SYMBOLS, SeatLabel
from render import render, seat_colours
from render.common import recorded_symbols
from tables import TableService
from web import Limits, make_app

#: (game, seats, options, AI steps played before the board is drawn: every seat has pieces out)
BOARDS = [
    ("thunder_road", 5, {"big_rig": True}, 12),
    ("automobile", 5, {}, 30),
    ("armor_clash", 4, {}, 6),
]


@pytest.mark.parametrize("game_id,n,options,steps", BOARDS)
def test_every_seats_pieces_and_legend_carry_its_symbol(game_id, n, options, steps):
    game = get_game(game_id)
    seats = [f"p{i + 1}" for i in range(n)]
    state = game.new(seats, options, 3)
    for _ in range(steps):
        state, _ = game.ai_step(state)
    colours = [c for c, _ in seat_colours(game_id, n)]
    labels = {s: SeatLabel(name=f"Player {i + 1}", colour=colours[i]) for i, s in enumerate(seats)}
    view = game.view(state, None, labels)
    with recorded_symbols() as drawn:
        render(game_id, view, "en")
    # Automobile: a player's pieces are the factories on the models it owns (not every one has some yet)
    pieces = {sp.owner for sp in view.spaces if sp.factories} if game_id == "automobile" else set(seats)
    assert len(pieces) >= 2
    for i, seat in enumerate(seats):
        mine = [fill for symbol, fill in drawn if symbol == SEAT_SYMBOLS[i]]
        want = 2 if seat in pieces else 1  # its legend line, and its pieces
        assert len(mine) >= want, (game_id, seat, "its pieces and its legend line carry its symbol", drawn)
        assert colours[i] in mine, (game_id, seat, "its symbol in its own colour somewhere", mine)
    assert {s for s, _ in drawn} == set(SEAT_SYMBOLS[:n]), "no symbol of a seat that is not at the table"


def test_a_label_names_its_symbol_and_a_view_falls_back_to_seat_order():
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], {}, 1)
    assert game.view(state, None).symbol("p2") == SEAT_SYMBOLS[1]
    labelled = game.view(state, None, {"p2": SeatLabel(name="B", colour="#123456", symbol="★")})
    assert labelled.symbol("p2") == "★" and labelled.symbol("p1") == SEAT_SYMBOLS[0]


async def test_the_companions_player_list_shows_each_seats_symbol_in_its_colour(store):
    service = TableService(store)
    gid = await open_two_player(service, "automobile")
    row = await service.row(gid)
    client = TestClient(TestServer(make_app(service, limits=Limits(rate=100, burst=100))))
    await client.start_server()
    try:
        page = await (await client.get(f"/t/{gid}")).text()
    finally:
        await client.close()
    colours = [c for c, _ in seat_colours("automobile", len(row.seats))]
    marks = re.findall(r'<svg class="dot"[^>]*data-symbol="([^"]+)"[^>]*><polygon [^>]*fill="([^"]+)"', page)
    assert marks == [(SEAT_SYMBOLS[i], colours[i]) for i in range(len(row.seats))], marks

"""Image descriptions (issue 33 item 1), built by tables/seeing/describe.py from the view the
image draws: the public board's words never name another seat's secret (Automobile's demand
cards, Armor Clash's orders, Thunder Road's face-down hazards), a seat's own view names its own;
every description fits Discord's 1,024 characters by priority, never cut mid-word, never a
lone "…", also for a full table with long names and a long log; a fifth game is described
from its view's fields without a platform edit."""

from __future__ import annotations

import random
import re

import nimgame
import pytest
from conftest import Clock, make_store
from webtables import HOST, move, open_two_player

from engine import get_game, register, unregister
from engine.base import SeatLabel
from engine.thunder_road.models import Hazard
from tables import TableService, TurnRefused
from tables.seeing.describe import LIMIT, MORE, cut, describe_table, fit, view_lines


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield TableService(s, clock=clock)
    await s.close()


async def words(service, gid, viewer, state, locale="en", **kw) -> str:
    """The description of ``viewer``'s board (None: the public one) as it would be with ``state``."""
    loaded = await service.load(gid)
    b = await service.board(loaded.row, viewer, locale, state=(loaded.game, state), **kw)
    assert b.describe is not None
    return b.describe()


# ------------------------------------------------------------ hidden information
async def test_the_public_description_names_no_demand_card_and_a_seat_hears_its_own(service):
    gid = await open_two_player(service, "automobile")
    loaded = await move(service, gid, 4)
    game, st = loaded.game, loaded.state
    seat = loaded.row.seat_of(HOST)
    other = game.copy_state(st)
    other.players[seat].hand = [c + 1 for c in st.players[seat].hand] or [7]  # another hand
    public = await words(service, gid, None, st)
    assert public == await words(service, gid, None, other), "the public board's words do not depend on a hand"
    mine, mine_other = await words(service, gid, HOST, st), await words(service, gid, HOST, other)
    assert mine != mine_other and f"Your demand cards: {', '.join(map(str, other.players[seat].hand))}" in mine_other
    assert "Your demand cards" not in public


async def test_the_public_description_names_no_secret_order_and_the_seat_hears_its_own(service):
    gid = await open_two_player(service, "armor_clash")
    for _ in range(20):  # p1 locks its orders in; p2 has not chosen yet
        loaded = await service.load(gid)
        if "p1" not in loaded.game.to_act(loaded.state):
            break
        await move(service, gid, 1)
    game, st = loaded.game, loaded.state
    assert "p1" in st.orders and "p2" in game.to_act(st)
    other = game.copy_state(st)
    what = "reload" if st.orders["p1"].what != "reload" else "pass"
    other.orders["p1"] = st.orders["p1"].model_copy(update={"what": what, "target": None, "cells": None})
    public = await words(service, gid, None, st)
    assert public == await words(service, gid, None, other), "nobody hears another crew's order"
    mine, mine_other = await words(service, gid, HOST, st), await words(service, gid, HOST, other)
    assert "Your order:" in mine and mine != mine_other
    assert "Your order:" not in public and "Orders locked in: Player 1" in public


async def test_the_description_names_no_face_down_hazard(service):
    gid = await open_two_player(service, "thunder_road")
    loaded = await move(service, gid, 3)
    game, st = loaded.game, loaded.state
    where, token = next((k, h) for k, h in st.hazards.items() if not h.up)
    other = game.copy_state(st)
    other.hazards = dict(st.hazards)
    other.hazards[where] = Hazard(type="mine" if token.type != "mine" else "oil", up=False)
    for viewer in (None, HOST):  # nobody, not even a seat, knows a face-down token
        assert await words(service, gid, viewer, st) == await words(service, gid, viewer, other)
    shown = game.copy_state(st)
    shown.hazards = dict(st.hazards)
    shown.hazards[where] = Hazard(type="mine", up=True)
    assert "Mine " in await words(service, gid, None, shown), "a face-up token is said"


async def test_a_finished_game_is_said_once_without_a_doubled_stop_or_an_empty_winner(service):
    gid = await open_two_player(service, "city_of_fury")
    for _ in range(400):  # the seat filler plays the hero to the end
        if (await service.row(gid)).status != "active":
            break
        try:
            await move(service, gid, 1)
        except TurnRefused:  # (it has just finished)
            break
    b = await service.board(gid, None, "en")
    said = b.describe()
    assert b.outcome is not None and said.split("\n")[1] == f"Game over: {b.outcome}", said
    assert ".." not in said and ": -" not in said, said
    if b.winners:
        assert any(w in said for w in b.winners)


# ------------------------------------------------------------ the limit
async def test_a_full_table_with_long_names_and_a_long_log_fits_the_limit_in_both_languages(service):
    host, game, options = 500, "thunder_road", {"big_rig": True, "final_five": True}  # five crews
    _, most = get_game(game).seat_range(options)
    lob = await service.open_table(
        guild_id=1,
        channel_id=99,
        game_id=game,
        host_id=host,
        options=options,
        ai=most - 1,
        seed=3,
        locale="en",
        table={},
    )
    if lob.started is None:
        lob = await service.lobby(lob.row.id, host, "start")
    gid = lob.started.row.id
    loaded = await move(service, gid, 80)
    assert len(loaded.row.seats) == most
    long = {s.seat: SeatLabel(name=("Ünïcödé Wörd " * 8)[:100], colour="#123456") for s in loaded.row.seats}
    for locale in ("en", "zh"):
        b = await service.board(gid, None, locale, labels=long, log_entries=30)
        said = b.describe()
        assert 200 < len(said) <= LIMIT, len(said)
        assert said.startswith(b.title) and not said.endswith(" " + MORE) and MORE + MORE not in said
        assert not re.search(r"(^|\n)\s*…\s*($|\n)", said), "never a lone ellipsis"
        full = b.describe(full=True, limit=None)
        assert len(full) > LIMIT and full.startswith(said.split("\n")[0])
        assert len(b.describe(full=True, limit=1900, markdown=True)) <= 1900


def test_fit_keeps_the_most_needed_whole_and_cuts_only_at_a_word():
    rng = random.Random(7)
    vocab = ["car", "Tiger", "hazard", "C12", "damage", "英雄", "生命", "—", "Ünïcödé", "x" * 30]
    for _ in range(300):
        parts = [(rng.randrange(6), " ".join(rng.choice(vocab) for _ in range(rng.randrange(1, 60)))) for _ in range(8)]
        limit = rng.randrange(40, 1100)
        said = fit(parts, limit)
        assert len(said) <= limit
        lines = said.split("\n")
        wholes = {text for _, text in parts}
        for line in lines:
            if line in wholes:
                continue
            assert line.endswith(MORE) and len(line) > len(MORE), line
            head = line[: -len(MORE)]
            source = next(text for _, text in parts if text.startswith(head))
            rest = source[len(head) :]
            assert rest[:1].isspace() or re.match(r"[\u3400-\u9fff]", (head[-1:] or "") + rest[:1]), (head, rest[:5])
        best = min(p for p, _ in parts)
        first = next(text for p, text in parts if p == best)
        assert first in lines or any(line.endswith(MORE) and first.startswith(line[:-1]) for line in lines)


def test_cut_never_leaves_a_lone_ellipsis_or_half_a_word():
    assert cut("Tiger Wittmann moves", 12) == "Tiger…"
    assert cut("Wittmann", 5) == ""  # no word fits: nothing, never "Witt…" or "…"
    assert cut("英雄移动到第一格", 5) == "英雄移动…"
    assert cut("short", 10) == "short"


def test_a_table_of_rows_is_described_row_by_row_within_the_limit():
    heads = ["#", "Player", "Played", "Wins"]
    rows = [[i + 1, f"Player number {i}", 30, 12] for i in range(200)]
    said = describe_table("Leaderboard — Thunder Road", heads, rows, "en")
    assert said.startswith("Leaderboard — Thunder Road\n# 1, Player Player number 0, Played 30, Wins 12")
    assert len(said) <= LIMIT and "Player number 199" not in said
    assert describe_table("Standings", heads, [], "zh").endswith("暂无记录。")


def test_a_fifth_game_is_described_from_its_view_without_a_platform_edit():
    game = register(nimgame.GAME)
    try:
        state = game.new(["a", "b"], {"heaps": [3, 4, 5]}, 1)
        lines = view_lines("nim", game.view(state), "en")
        assert "heaps: 3, 4, 5." in lines, lines
        assert view_lines(
            "thunder_road", get_game("thunder_road").view(get_game("thunder_road").new(["a", "b"], {}, 1)), "en"
        )
    finally:
        unregister("nim")

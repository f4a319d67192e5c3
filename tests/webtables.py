"""Tables for the web companion's tests (and bench/web.py): real tables made through
the table service, played by the seat-filler AI."""

from __future__ import annotations

import random

from engine import get_game
from tables import TableService

HOST, BOB = 1001, 1002


def ai_pick(game, state, seat, legal):
    return game.ai_action(state, seat)


async def open_two_player(service: TableService, game: str = "automobile", *, guild_id: int = 1, seed: int = 5):
    """A running table of ``game`` with two members (HOST in p1, BOB in p2), and AI seats when it needs more."""
    lob = await service.open_table(
        guild_id=guild_id,
        channel_id=random.randrange(1, 1 << 40),
        game_id=game,
        host_id=HOST,
        options={},
        ai=0,
        seed=seed,
        locale="en",
        table={},
    )
    if lob.started is not None:  # a solo game starts at once
        return lob.started.row.id
    joined = await service.lobby(lob.row.id, BOB, "join")
    if joined.started is not None:  # full: started
        return joined.started.row.id
    lo, _ = get_game(game).seat_range(lob.row.options)
    for _ in range(lo - 2):  # AI seats up to the game's minimum
        await service.lobby(lob.row.id, HOST, "ai")
    started = await service.lobby(lob.row.id, HOST, "start")
    assert started.started is not None
    return started.started.row.id


async def move(service: TableService, gid: int, n: int = 1):
    """``n`` decisions by whoever is to act (the AI's choice for them)."""
    for _ in range(n):
        loaded = await service.load(gid)
        acting = loaded.game.to_act(loaded.state)
        if not acting:
            return loaded
        seat = acting[0]
        await service.act(gid, loaded.row.user_of(seat), ai_pick, seat=seat)
    return await service.load(gid)


def signin_form(page: str, resp) -> tuple[dict[str, str], dict[str, str]]:
    """What a browser posts from the sign-in page ``page`` (the answer ``resp`` set its form
    cookie): the form's fields and the cookie, for ``post("/signin", data=..., cookies=...)``."""
    import html
    import re

    found = {k: re.search(rf'name="{k}" value="([^"]*)"', page) for k in ("token", "form")}
    fields = {k: html.unescape(m[1]) if m else "" for k, m in found.items()}
    return fields, {"tg_form": resp.cookies["tg_form"].value} if "tg_form" in resp.cookies else {}

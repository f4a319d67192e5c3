"""The companion's standings pages over HTTP, on both backends: the leaderboard opens on
a game the server has results of (issue 29.11), not on the first game by name."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store

from engine.i18n import t
from store import ResultRow, Seat
from tables import TableService
from web import Limits, make_app


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield TableService(s, clock=clock)
    await s.close()


async def finish(service: TableService, game: str, guild_id: int, winner: int, channel: int) -> None:
    """One finished table of ``game`` on the server, won by ``winner``."""
    store = service.store
    row = await store.create_game(
        guild_id=guild_id,
        channel_id=channel,
        game=game,
        host_id=winner,
        options={},
        seed=1,
        seats=[Seat("p1", winner)],
        status="active",
        state_json="{}",
    )
    await store.update_game(
        row.id, row.version, status="finished", to_act=[], results=[ResultRow("p1", winner, 1, True)]
    )


async def test_the_leaderboard_opens_on_a_game_with_results(service):
    c = TestClient(TestServer(make_app(service, limits=Limits(rate=1000, burst=1000))))
    await c.start_server()
    try:
        title = lambda game: t("core.board.title", "en", game=t(f"{game}.name", "en"))  # noqa: E731
        # nothing anywhere yet: the first game, saying so
        empty = await (await c.get("/g/1/leaderboard?lang=en")).text()
        assert title("armor_clash") in empty and t("web.none_yet", "en") in empty
        # results of two games, none of the first by name: it opens on the most played one
        await finish(service, "city_of_fury", 1, 5, 10)
        await finish(service, "thunder_road", 1, 6, 11)
        await finish(service, "thunder_road", 1, 7, 12)
        await finish(service, "armor_clash", 2, 8, 13)  # another server's results count there only
        page = await (await c.get("/g/1/leaderboard?lang=en")).text()
        assert title("thunder_road") in page, page
        assert t("web.none_yet", "en") not in page
        assert page.count("<tr>") == 3  # the header and its two players
        # the other games stay one tab away, and an asked-for game is shown as asked
        asked = await (await c.get("/g/1/leaderboard?game=armor_clash&lang=en")).text()
        assert title("armor_clash") in asked and t("web.none_yet", "en") in asked
        other = await (await c.get("/g/2/leaderboard?lang=en")).text()
        assert title("armor_clash") in other and t("web.none_yet", "en") not in other
    finally:
        await c.close()

"""The web companion on a phone (issue 29 item 7), in a real headless Chromium at a
400 x 800 viewport: every page of every game fits the screen's width (no sideways
scrolling of the page, every table inside the screen), and each board starts at a
scale where its smallest text reads on a phone (:data:`PHONE_TEXT_PX` CSS pixels;
the renderers draw no text smaller than ``render.common.MIN_TEXT_PX``), pannable
inside a stage no wider than the screen.  ``TG_SHOTS=<dir>`` keeps a screenshot of
each page."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from browserkit import LoopServer, chromium, loaded_src, needs_chromium, wait
from webtables import BOB, HOST, move, open_two_player

from engine import available
from render.common import MIN_TEXT_PX
from store import ChangeSet, GameChange, RatingChange, ResultRow, Seat, SqliteStore
from tables import TableService, due_times
from tables.leagues.rounds import LeagueService
from web import Limits, make_app

#: the smallest text a phone reader reads without zooming, in CSS pixels
PHONE_TEXT_PX = 12.0
WIDTH, HEIGHT = 400, 800
GAMES = sorted(available())
pytestmark = needs_chromium
NAMES = {HOST: "Bartholomew Featherstonehaugh", BOB: "小明同学的名字很长"}


async def names(guild_id, members):
    return {m: NAMES.get(m, f"Maximiliana {m}") for m in members}


class Server(LoopServer):
    def __init__(self, path):
        super().__init__()
        self.store = SqliteStore(path, due=due_times)
        self.service = TableService(self.store)
        self.run(self.store.open())
        self.tables = {g: self.run(self.setup(g)) for g in GAMES}
        self.campaign = self.run(self.results())
        self.run(self.league())
        self.serve(make_app(self.service, names=names, limits=Limits(rate=500, burst=500)))

    async def setup(self, game: str) -> int:
        gid = await open_two_player(self.service, game)
        await move(self.service, gid, 4)
        return gid

    async def results(self) -> int:
        """Finished tables of every game (one in a campaign): leaderboards with every column."""
        store = self.store
        camp = await store.create_campaign(guild_id=1, game=GAMES[0], name="Autumn", points=[3, 1], created_by=HOST)
        for i, game in enumerate(GAMES):
            for n, winner in enumerate([HOST, BOB, 4001, 4002]):
                row = await store.create_game(
                    guild_id=1,
                    channel_id=random.randrange(1, 1 << 40),
                    game=game,
                    host_id=winner,
                    options={},
                    seed=1,
                    seats=[Seat("p1", winner)],
                    status="active",
                    state_json="{}",
                    campaign_id=camp.id if game == GAMES[0] else None,
                )
                await store.commit(
                    ChangeSet(
                        game=GameChange(
                            row.id,
                            row.version,
                            status="finished",
                            to_act=[],
                            results=[ResultRow("p1", winner, 1, True, score=12345.5, record=100 + i + n)],
                        ),
                        ratings=[RatingChange(1, game, winner, 0, -12.345 - n, 8.333, 1)],
                    )
                )
        return camp.id

    async def league(self) -> None:
        leagues = LeagueService(self.service)
        lg = await leagues.create(
            guild_id=1, channel_id=5, game="armor_clash", name="A rather long league name", format="pods",
            created_by=HOST, rounds=2, seats=2, options={"scenario": "duel"},
        )  # fmt: skip
        for uid in (HOST, BOB, 4001, 4002):
            await leagues.signup(lg.id, uid)
        await leagues.start(lg.id)
        await leagues.advance(lg.id)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("phone") / "phone.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def phone():
    mobile = {"deviceMetrics": {"width": WIDTH, "height": HEIGHT, "pixelRatio": 2.0, "touch": True}}
    yield from chromium("--hide-scrollbars", mobile=mobile)


def shot(driver, name: str) -> None:
    where = os.environ.get("TG_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(where) / f"{name}.png"))


FITS = """
var w = arguments[0], bad = [];  // the phone's width (a page wider than it zooms out: innerWidth grows)
if (window.innerWidth > w) bad.push('the page is zoomed out to ' + window.innerWidth + ' px');
if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
document.querySelectorAll('table, .stage, .card, header, main, .slider, .zoom').forEach(function (el) {
  var r = el.getBoundingClientRect();
  if (r.left < -0.5 || r.right > w + 0.5) bad.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
});
return [w, bad];
"""

READABLE = """
var img = document.getElementById(arguments[0]), stage = img.parentNode;
var shown = img.getBoundingClientRect().width, s = stage.getBoundingClientRect();
return [shown / img.naturalWidth, s.left, s.right, s.height, document.documentElement.clientWidth, window.innerHeight];
"""


def readable(driver, image: str) -> bool:
    return driver.execute_script(READABLE, image)[0] * MIN_TEXT_PX >= PHONE_TEXT_PX


def pages(server) -> list[tuple[str, str, str | None]]:
    """(name, path, the board image's id or None) of every page there is."""
    out: list[tuple[str, str, str | None]] = [("home", "/", None), ("me", "/me", None)]
    for game, gid in server.tables.items():
        out += [(f"table-{game}", f"/t/{gid}", "board"), (f"history-{game}", f"/t/{gid}/history?at=2", "frame")]
        out.append((f"leaderboard-{game}", f"/g/1/leaderboard?game={game}", None))
    out += [("leagues", "/g/1/leagues", None), ("campaign", f"/c/{server.campaign}", None)]
    out += [("signin", "/signin/abc", None), ("zh-table", f"/t/{server.tables[GAMES[0]]}?lang=zh", "board")]
    return out


def test_every_page_fits_a_phone_and_boards_start_readable(server, phone):
    from selenium.common.exceptions import TimeoutException

    problems = []
    for name, path, image in pages(server):
        phone.get(server.url + path)
        if image is not None:
            loaded_src(phone, image)
            # the page sets the board's starting scale once its image has loaded: wait for it
            try:
                wait(phone, lambda d, image=image: readable(d, image), timeout=5)
            except TimeoutException:
                pass  # measured and reported below
        width, bad = phone.execute_script(FITS, WIDTH)
        problems += [f"{name}: {b}" for b in bad]
        if image is not None:
            scale, left, right, height, w, h = phone.execute_script(READABLE, image)
            if scale * MIN_TEXT_PX < PHONE_TEXT_PX:
                problems.append(
                    f"{name}: the board starts at {scale:.2f} of its size: text {scale * MIN_TEXT_PX:.1f} px"
                )
            if height > h:
                problems.append(f"{name}: the board's stage is taller than the screen ({height:.0f} > {h})")
        shot(phone, f"phone-{name}")
    assert not problems, "\n".join(problems)


def test_a_signed_in_players_pages_fit_a_phone(server, phone):
    """The member's own pages: their tables, and each table with their hand and choices."""
    sid, _, _ = server.run(
        server.service.web_sessions.redeem_link(server.run(server.service.web_sessions.link_token(HOST)))
    )
    phone.get(server.url + "/")
    phone.add_cookie({"name": "tg_session", "value": sid, "path": "/"})
    problems = []
    for name, path in [("me-signed-in", "/me")] + [(f"mine-{g}", f"/t/{gid}") for g, gid in server.tables.items()]:
        phone.get(server.url + path)
        if path != "/me":
            loaded_src(phone, "board")
            assert "/mine.png" in loaded_src(phone, "board"), "signed in: the seat's own view"
        problems += [f"{name}: {b}" for b in phone.execute_script(FITS, WIDTH)[1]]
        shot(phone, f"phone-{name}")
    phone.delete_all_cookies()
    assert not problems, "\n".join(problems)


def test_a_phone_pans_the_board_and_zooms_out_to_see_it_whole(server, phone):
    from selenium.webdriver.common.by import By

    phone.get(f"{server.url}/t/{server.tables['thunder_road']}")
    loaded_src(phone, "board")
    start = phone.execute_script(READABLE, "board")[0]
    before = phone.find_element(By.ID, "board").get_attribute("style")
    stage = phone.find_element(By.CSS_SELECTOR, ".stage")
    stage.send_keys("\ue014")  # the arrow right pans a zoomed board
    wait(phone, lambda d: d.find_element(By.ID, "board").get_attribute("style") != before)
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    scale, left, right, *_ = phone.execute_script(READABLE, "board")
    assert scale < start and right - left <= WIDTH  # the whole board, as small as the screen makes it

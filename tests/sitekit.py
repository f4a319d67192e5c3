"""Every page of the web companion, served for the browser tests (tests/test_web_phone.py,
tests/test_web_access.py, bench/access.py), and the accessibility engine run on a page: a table of each game two moves in, finished
tables of each game (one in a campaign) for the leaderboards, a league with a round played,
long and CJK member names; :func:`pages` lists each page's address."""

from __future__ import annotations

import random

from browserkit import LoopServer, loaded_src
from webtables import BOB, HOST, move, open_two_player

from engine import available
from store import ChangeSet, GameChange, RatingChange, ResultRow, Seat, SqliteStore
from tables import TableService, due_times
from tables.leagues.rounds import LeagueService
from web import Limits, make_app

GAMES = sorted(available())
NAMES = {HOST: "Bartholomew Featherstonehaugh", BOB: "小明同学的名字很长"}


async def names(guild_id, members):
    return {m: NAMES.get(m, f"Maximiliana {m}") for m in members}


class Site(LoopServer):
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


def pages(server) -> list[tuple[str, str, str | None]]:
    """(name, path, the board image's id or None) of every page there is."""
    out: list[tuple[str, str, str | None]] = [("home", "/", None), ("me", "/me", None)]
    for game, gid in server.tables.items():
        out += [(f"table-{game}", f"/t/{gid}", "board"), (f"history-{game}", f"/t/{gid}/history?at=2", "frame")]
        out.append((f"leaderboard-{game}", f"/g/1/leaderboard?game={game}", None))
    out += [("leagues", "/g/1/leagues", None), ("campaign", f"/c/{server.campaign}", None)]
    out += [("signin", "/signin/abc", None), ("zh-table", f"/t/{server.tables[GAMES[0]]}?lang=zh", "board")]
    out += [("de-table", f"/t/{server.tables[GAMES[-1]]}?lang=de", "board")]
    return out


#: the impacts that fail a page (axe's four: minor, moderate, serious, critical)
FAILING = ("serious", "critical")


def axe_violations(driver) -> list[str]:
    """The serious and critical violations axe-core finds on the page now, one line each."""
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    result = axe.run()
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v.get("impact") in FAILING
    ]


def signed_in(server, driver) -> None:
    sid, _, _ = server.run(
        server.service.web_sessions.redeem_link(server.run(server.service.web_sessions.link_token(HOST)))
    )
    driver.get(server.url + "/")
    driver.add_cookie({"name": "tg_session", "value": sid, "path": "/"})


def every_page(server) -> list[tuple[str, str, str | None, bool]]:
    """(name, path, image id, signed in) of every page, a signed-in member's own included."""
    out = [(name, path, image, False) for name, path, image in pages(server)]
    out.append(("me-signed-in", "/me", None, True))
    out += [(f"mine-{g}", f"/t/{gid}", "board", True) for g, gid in server.tables.items()]
    return out


def page_violations(server, driver) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, path, image, member in every_page(server):
        if member and not driver.get_cookie("tg_session"):
            signed_in(server, driver)
        elif not member and driver.get_cookie("tg_session"):
            driver.delete_all_cookies()
        driver.get(server.url + path)
        if image is not None:
            loaded_src(driver, image)
        bad = axe_violations(driver)
        if bad:
            found[name] = bad
    driver.delete_all_cookies()
    return found

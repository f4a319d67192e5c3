"""The companion's images say in words what Discord's descriptions say (issue 33 item 1): the
table page's board image has the board's description as its ``alt`` (the public view for
anyone, a seat's own view for its signed-in member), the text board is a link away on the
page, and a replay frame's ``alt`` (page and JSON) is the frame's description.  HTML checks
through aiohttp's test client: no browser is needed to read an attribute."""

from __future__ import annotations

from html.parser import HTMLParser

from test_web import client_for, service  # noqa: F401 -- the fixture
from webtables import HOST, move, open_two_player, signin_form

from tables.people.web_sessions import WebSessions


class Page(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.alts: dict[str, str] = {}
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.items: list[str] = []
        self._in_textboard = False
        self._li = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img" and a.get("id"):
            self.alts[a["id"]] = a.get("alt") or ""
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "ul" and a.get("class") == "textboard":
            self._in_textboard = True
        self._li = tag == "li" and self._in_textboard

    def handle_endtag(self, tag):
        if tag == "ul":
            self._in_textboard = False
        if tag == "li":
            self._li = False

    def handle_data(self, data):
        if self._li:
            self.items.append(data)


async def test_the_board_image_alt_is_its_description_and_the_text_board_is_one_link_away(service):  # noqa: F811
    gid = await open_two_player(service, "automobile")
    await move(service, gid, 5)
    c = await client_for(service)
    try:
        public = await service.board(gid, None, "en")
        page = Page(await (await c.get(f"/t/{gid}")).text())
        assert page.alts["board"] == public.describe()
        assert page.alts["board"].startswith("Automobile — table #") and "Players:" in page.alts["board"]
        assert "#textboard" in page.links and "textboard" in page.ids
        assert page.items == public.describe(full=True, limit=None).split("\n")
        assert not any("Your demand cards" in x for x in page.items)
        # a signed-in seat: its own view's image, its own words
        sessions = WebSessions(service.store, clock=service.clock)
        shown = await c.get(f"/signin/{await sessions.link_token(HOST, gid)}")
        fields, cookie = signin_form(await shown.text(), shown)
        resp = await c.post("/signin", data=fields, cookies=cookie, allow_redirects=False)
        jar = {"tg_session": resp.cookies["tg_session"].value}
        mine = Page(await (await c.get(f"/t/{gid}", cookies=jar)).text())
        own = await service.board(gid, HOST, "en")
        assert mine.alts["board"] == own.describe() and "Your demand cards" in mine.alts["board"]
        # in Chinese for a Chinese page
        zh = Page(await (await c.get(f"/t/{gid}?lang=zh")).text())
        assert zh.alts["board"] == (await service.board(gid, None, "zh")).describe() and "玩家：" in zh.alts["board"]
        # a replay frame: the page's image and the slider's JSON carry the frame's words
        frame = await service.frame(public_row := (await service.load(gid)).row, 2, "en")
        assert public_row.id == gid
        history = Page(await (await c.get(f"/t/{gid}/history?at=2&lang=en")).text())
        assert history.alts["frame"] == frame.describe() and "after step 2 of" in history.alts["frame"]
        data = await (await c.get(f"/t/{gid}/frames/2?lang=en")).json()
        assert data["alt"] == frame.describe()
    finally:
        await c.close()

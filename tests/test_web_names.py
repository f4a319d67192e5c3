"""Display names on the web companion, whichever process serves it (issue 29 item 1), and
``/privacy forget`` reaching the companion's caches and the browsers' (issue 28 item 6).

"The bot" and "the companion" are two table services on one database (on both backends):
the companion's process-local caches start empty and it has no Discord cache, as with
``python -m web`` (tests/test_e2e_web_names.py runs that very process).
"""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import BOB, HOST, move, open_two_player

from tables import TableService, TurnRefused
from web import Limits, make_app

HOSTESS, BOBBY = "Hostess ★", "Bobby <b>"


@pytest.fixture
async def two(store_backend, tmp_path):
    """(the bot's table service, the companion's) on one fresh database."""
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield TableService(s, clock=clock), TableService(s, clock=clock)
    await s.close()


async def client_for(service: TableService, **kw) -> TestClient:
    c = TestClient(TestServer(make_app(service, base_url="https://games.example", **kw)))
    await c.start_server()
    return c


async def play_out(service: TableService, gid: int) -> None:
    for _ in range(2000):
        if (await service.row(gid)).status != "active":
            return
        try:
            await move(service, gid, 1)
        except TurnRefused:  # it ended with that move (move() loads it again)
            return
    raise AssertionError(f"table {gid} still running")


async def drawn(service: TableService, gid: int, names: dict[int, str] | None) -> bytes:
    row = await service.row(gid)

    async def source(_row):
        return names or {}

    b = await service.board(row, None, "en", names=source)
    assert b.image is not None
    return await b.image()


async def test_a_separate_companion_shows_the_names_the_bot_learnt_until_a_forget(two):
    bot, web = two
    gid = await open_two_player(bot, "automobile")
    await bot.names.note_name(1, HOST, HOSTESS)  # what the bot's interactions carried
    await bot.names.note_name(1, BOB, BOBBY)
    c = await client_for(web, limits=Limits(rate=1000, burst=1000, row_seconds=0))
    try:
        page = await (await c.get(f"/t/{gid}")).text()
        assert "Hostess ★" in page and "Bobby &lt;b&gt;" in page and "<b>" not in page.split("</head>")[1]
        assert "Player 1" not in page and "Player 2" not in page
        preview = re.search(r'property="og:description" content="([^"]*)"', page)[1]
        assert "Hostess" in preview or "Bobby" in preview, preview  # the link preview names who is to act

        await play_out(bot, gid)
        page = await (await c.get(f"/t/{gid}")).text()
        assert "Hostess ★" in page and "Bobby &lt;b&gt;" in page
        image = await c.get(f"/t/{gid}/board.png")
        named = await image.read()
        assert named == await drawn(bot, gid, {HOST: HOSTESS, BOB: BOBBY})  # drawn with the names
        assert named != await drawn(bot, gid, None)
        assert image.headers["Cache-Control"] == "public, no-cache"
        tag = image.headers["ETag"]
        assert (await c.get(f"/t/{gid}/board.png", headers={"If-None-Match": tag})).status == 304
        frame = await (await c.get(f"/t/{gid}/frames/3")).json()
        old_frame = await c.get(frame["image"])
        assert "immutable" not in old_frame.headers["Cache-Control"]
        ranking = await (await c.get("/g/1/leaderboard?game=automobile")).text()
        assert "Hostess ★" in ranking and "Bobby &lt;b&gt;" in ranking and "member" not in ranking

        # Bob forgets himself through the bot: the companion's same URLs no longer name him
        await bot.people.forget(BOB)
        assert await bot.store.member_names(1, [BOB, HOST]) == {HOST: HOSTESS}
        page = await (await c.get(f"/t/{gid}")).text()
        assert "Bobby" not in page and "Hostess ★" in page
        again = await c.get(f"/t/{gid}/board.png", headers={"If-None-Match": tag})
        assert again.status == 200 and again.headers["ETag"] != tag, "the image a browser holds is stale"
        assert await again.read() == await drawn(bot, gid, {HOST: HOSTESS})
        frame_again = await c.get(frame["image"], headers={"If-None-Match": old_frame.headers["ETag"]})
        assert frame_again.status == 200 and await frame_again.read() != await old_frame.read()
        ranking = await (await c.get("/g/1/leaderboard?game=automobile")).text()
        assert "Bobby" not in ranking and "Hostess ★" in ranking
    finally:
        await c.close()


async def test_inside_the_bot_a_forget_clears_what_the_companion_cached(two):
    bot, _ = two
    gid = await open_two_player(bot, "automobile")
    await bot.names.note_name(1, HOST, HOSTESS)
    await bot.names.note_name(1, BOB, BOBBY)
    await play_out(bot, gid)
    c = await client_for(bot, limits=Limits(rate=1000, burst=1000))  # rows trusted for 1 s, as deployed
    try:
        assert "Bobby &lt;b&gt;" in await (await c.get(f"/t/{gid}")).text()
        history = await (await c.get(f"/t/{gid}/history")).text()
        assert "Bobby &lt;b&gt;" in history
        await bot.people.forget(BOB)
        assert "Bobby" not in await (await c.get(f"/t/{gid}")).text()
        assert "Bobby" not in await (await c.get(f"/t/{gid}/history")).text()
    finally:
        await c.close()


async def test_a_click_refreshes_a_stored_name_and_stores_none_of_a_member_nothing_shows(two):
    """A click (``create=False``) of a member no board showed writes no row (a stray or
    refused click changes nothing stored); once a board showed them, a click's new name
    reaches every process."""
    bot, web = two
    stranger = 4242
    assert not await bot.names.note_name(1, stranger, "Eve", create=False)
    assert not await bot.names.note_name(1, stranger, "Eve", create=False)
    assert await web.names.names_of(1, [stranger]) == {}
    await bot.names.fill_names(1, {stranger: "Eve"})  # a board showed them
    assert await web.names.names_of(1, [stranger]) == {stranger: "Eve"}
    assert await bot.names.note_name(1, stranger, "Evelyn", create=False)  # renamed, seen on a click
    assert await web.names.names_of(1, [stranger]) == {stranger: "Evelyn"}
    assert not await web.names.note_name(1, stranger, "Evelyn", create=False)  # the same name: no write


async def test_a_name_is_written_once_and_a_rename_reaches_the_companion(two):
    bot, web = two
    gid = await open_two_player(bot, "automobile")
    calls = []
    real = bot.store.set_member_name

    async def counted(*args, **kw):
        calls.append(args)
        return await real(*args, **kw)

    bot.store.set_member_name = counted  # type: ignore[method-assign]
    for _ in range(5):  # every click carries the name: one write
        await bot.names.note_name(1, HOST, HOSTESS)
    assert len(calls) == 1
    assert not await web.names.note_name(1, HOST, HOSTESS)  # another process: the same name changes no row
    await bot.names.note_name(None, HOST, "Global Host")  # outside any server: a name of its own
    assert await web.names.names_of(1, [HOST]) == {HOST: HOSTESS} and await web.names.names_of(None, [HOST]) == {
        HOST: "Global Host"
    }
    c = await client_for(web, limits=Limits(rate=1000, burst=1000, row_seconds=0))
    try:
        assert HOSTESS in await (await c.get(f"/t/{gid}")).text()
        await bot.names.note_name(1, HOST, "Renamed")
        page = await (await c.get(f"/t/{gid}")).text()
        assert "Renamed" in page and HOSTESS not in page
    finally:
        await c.close()
    # a name is stored as a line of text: control characters (a NUL PostgreSQL refuses) go
    await bot.names.note_name(1, BOB, "Bo\x00b\n")
    assert await web.names.names_of(1, [BOB]) == {BOB: "Bob"}
    with pytest.raises(TurnRefused):  # seated at a running table: nothing is forgotten, names stay
        await bot.people.forget(BOB)
    assert await web.names.names_of(1, [BOB]) == {BOB: "Bob"}


async def test_a_private_step_leaves_the_public_images_tag_as_it_was(two):
    """The public image's ETag follows what it shows (issue 28 item 11): a crew's step of a
    secret order moves the table's version but not the public view, so browsers keep theirs."""
    bot, web = two
    gid = await open_two_player(bot, "armor_clash")
    await bot.names.note_name(1, HOST, HOSTESS)
    c = await client_for(web, limits=Limits(rate=1000, burst=1000, row_seconds=0))
    try:
        first = await c.get(f"/t/{gid}/board.png")
        tag = first.headers["ETag"]
        loaded = await bot.load(gid)
        pick = next(a for a in loaded.game.legal_actions(loaded.state, "p1") if a.kind == "choose" and a.what == "move")
        await bot.act(gid, HOST, lambda *_: pick, seat="p1")
        assert (await bot.row(gid)).version > loaded.row.version
        again = await c.get(f"/t/{gid}/board.png", headers={"If-None-Match": tag})
        assert again.status == 304 and again.headers["ETag"] == tag
        await bot.names.note_name(1, HOST, "Renamed")  # a rename is a new image
        assert (await c.get(f"/t/{gid}/board.png", headers={"If-None-Match": tag})).status == 200
    finally:
        await c.close()


async def test_a_separate_companion_names_campaign_rows(two):
    from store import ChangeSet, GameChange, ResultRow, Seat

    bot, web = two
    store = bot.store
    camp = await store.create_campaign(guild_id=1, game="automobile", name="Autumn", points=[3, 1], created_by=HOST)
    for winner in (HOST, BOB):
        row = await store.create_game(
            guild_id=1,
            channel_id=winner,
            game="automobile",
            host_id=winner,
            options={},
            seed=1,
            seats=[Seat("p1", winner)],
            status="active",
            state_json="{}",
            campaign_id=camp.id,
        )
        change = GameChange(
            row.id, row.version, status="finished", to_act=[], results=[ResultRow("p1", winner, 1, True)]
        )
        await store.commit(ChangeSet(game=change))
    await bot.names.note_name(1, HOST, HOSTESS)
    await bot.names.note_name(1, BOB, BOBBY)
    c = await client_for(web, limits=Limits(rate=1000, burst=1000))
    try:
        page = await (await c.get(f"/c/{camp.id}")).text()
        assert "Hostess ★" in page and "Bobby &lt;b&gt;" in page and "…" not in page
        await bot.people.forget(BOB)
        page = await (await c.get(f"/c/{camp.id}")).text()
        assert "Bobby" not in page and "Hostess ★" in page
    finally:
        await c.close()


async def test_a_forget_in_another_process_is_written_again_by_the_next_interaction(two, monkeypatch):
    from tables.people import names

    bot, other = two  # two bot processes: a member forgotten through one, then seen by the other
    assert await bot.names.note_name(1, HOST, HOSTESS)
    await other.people.forget(HOST)
    assert await bot.names.names_of(1, [HOST]) == {}
    assert not await bot.names.note_name(1, HOST, HOSTESS)  # trusted for a while: no write on every click
    monkeypatch.setattr(names, "KNOWN_SECONDS", 0.0)  # that while has passed
    assert await bot.names.note_name(1, HOST, HOSTESS)
    assert await other.names.names_of(1, [HOST]) == {HOST: HOSTESS}

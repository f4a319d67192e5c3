"""Issue 32 items 4 and 5 through the stand-in: the bot installed to a member's own account
as well as to a server.  /mygames, /notify and /game catchup work from a direct message and
from a server the bot is not in, answering privately; a member with tables in three servers
sees all three; every other command stays the server's (and is refused, privately, where the
bot is not); the synced commands declare where they may run (integration_types, contexts),
checked against Discord's OpenAPI description; /notify calendar gives the feed's URL
privately, a new one retires the old, and /privacy forget removes it."""

from __future__ import annotations

import json
import re

import aiohttp
import icalendar
import pytest
from fakediscord import spec_path
from test_e2e_web import BASE, local, with_web

OTHER_GUILDS = (555_000_000_000_000_001, 555_000_000_000_000_002)
ANYWHERE = ("mygames", "notify", "game")


def synced(fd) -> dict[str, dict]:
    return {c["name"]: c for cmds in fd.commands.values() for c in cmds.values()}


async def solo_table(service, guild_id: int, user_id: int) -> int:
    """A running City of Fury table (solo: it starts at once) in a server of its own."""
    lob = await service.open_table(
        guild_id=guild_id,
        channel_id=guild_id + 7,
        game_id="city_of_fury",
        host_id=user_id,
        options={},
        ai=0,
        seed=1,
        locale="en",
        table={},
    )
    assert lob.started is not None
    return lob.started.row.id


def test_the_spec_knows_where_a_command_may_run():
    """What the synced payload declares is Discord's: integration_types 0/1, contexts 0/1/2."""
    path = spec_path()
    if not path.exists():
        pytest.skip(f"no OpenAPI description at {path}")
    spec = json.loads(path.read_text())
    schemas = spec["components"]["schemas"]
    body = schemas["ApplicationCommandCreateRequest"]["properties"]
    assert "integration_types" in body and "contexts" in body
    assert {v["const"] for v in schemas["ApplicationIntegrationType"]["oneOf"]} == {0, 1}
    assert {v["const"] for v in schemas["InteractionContextType"]["oneOf"]} == {0, 1, 2}


async def test_the_synced_tree_says_where_each_command_may_run(table):
    await table.start()
    cmds = synced(table.fd)
    for name in ANYWHERE:
        assert sorted(cmds[name]["integration_types"]) == [0, 1], name
        assert sorted(cmds[name]["contexts"]) == [0, 1, 2], name
    for name, cmd in cmds.items():
        if name not in ANYWHERE:
            assert cmd["integration_types"] == [0], f"/{name} posts in servers: the server installs it"
    assert not table.fd.violations, table.fd.violations


async def test_mygames_from_a_dm_and_a_server_without_the_bot_lists_every_server(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    here, _ = await table.open_table(alice, "thunder_road", [bob])
    service = table.bot.services.tables
    there = [await solo_table(service, g, alice.id) for g in OTHER_GUILDS]
    for origin in ("dm", OTHER_GUILDS[0]):
        ex = await table.fd.slash(alice, "mygames", origin=origin, install="user")
        reply = await table.wait_ephemeral(ex)
        assert reply.ephemeral
        for gid, guild in zip([here, *there], [table.fd.guild_id, *OTHER_GUILDS]):
            assert f"#{gid}" in reply.content and f"/channels/{guild}/" in reply.content, reply.content
        assert "Tabletop Test Guild" in reply.content, "the server the bot knows is named"
    # the server install works from the bot's DM too; bob sees only his own table
    ex = await table.fd.slash(bob, "mygames", origin="dm", install="guild")
    reply = await table.wait_ephemeral(ex)
    assert f"#{here}" in reply.content and all(f"#{gid}" not in reply.content for gid in there)
    assert not table.fd.violations, table.fd.violations


async def test_catchup_from_anywhere_and_server_commands_refused_where_the_bot_is_not(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    service = table.bot.services.tables
    gid = await solo_table(service, OTHER_GUILDS[1], alice.id)
    await table.play_ai(gid, steps=3)
    for origin in ("dm", OTHER_GUILDS[0]):
        ex = await table.fd.slash(alice, "game catchup", origin=origin, install="user")
        msg = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and not m.loading), None), 30, "it")
        assert msg.ephemeral and (msg.attachments or msg.content), msg
        assert "no running table" not in msg.content
    # by its number, which autocomplete offers from every server
    choices = await table.fd.autocomplete(alice, "game catchup", {"table": ""}, focused="table")
    assert [c["value"] for c in choices] == [gid] and f"#{gid}" in choices[0]["name"]
    ex = await table.fd.slash(alice, "game catchup", {"table": gid}, origin="dm", install="user")
    msg = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and not m.loading), None), 30, "it")
    assert msg.ephemeral
    # a member with no table is told so, privately
    carol = table.fd.add_user(103, "carol")
    ex = await table.fd.slash(carol, "game catchup", origin="dm", install="user")
    assert "no running table" in (await table.wait_ephemeral(ex)).content
    # /game new where only the member installed the bot: refused privately, nothing made
    before = table.sql("SELECT COUNT(*) FROM games")
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"}, origin=OTHER_GUILDS[0], install="user")
    refusal = await table.wait_ephemeral(ex)
    assert refusal.ephemeral and "not in this server" in refusal.content
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"}, origin="dm", install="user")
    assert (await table.wait_ephemeral(ex)).ephemeral
    assert table.sql("SELECT COUNT(*) FROM games") == before
    # Discord itself offers no server command outside the server install
    with pytest.raises(PermissionError):
        await table.fd.slash(alice, "rules", {"game": "city_of_fury"}, origin="dm", install="user")
    assert not table.fd.violations, table.fd.violations


async def test_notify_calendar_gives_a_private_url_that_rotates_and_forget_removes(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    with_web(table)
    bot = await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob], timer=60)
    row = await bot.services.tables.row(gid)
    waiting = table.fd.users[row.user_of(row.to_act[0])]
    ex = await table.fd.slash(waiting, "notify calendar", origin="dm", install="user")
    reply = await table.wait_ephemeral(ex)
    assert reply.ephemeral
    url = re.search(rf"{BASE}(/cal/[\w\-]+\.ics\?lang=en)", reply.content)[1]
    ex = await table.fd.slash(waiting, "notify calendar", origin="dm", install="user")
    assert "already have" in (await table.wait_ephemeral(ex)).content and url not in ex.messages[-1].content
    async with aiohttp.ClientSession() as http:
        async with http.get(local(bot) + url) as r:
            assert r.status == 200
            cal = icalendar.Calendar.from_ical(await r.read())
        uids = [str(e["uid"]) for e in cal.walk("VEVENT")]
        assert uids == [f"table-{gid}@web.example"]
        # a new URL (in Chinese for a zh member); the old one answers 404
        ex = await table.fd.slash(waiting, "notify calendar", {"replace": True}, locale="zh-CN")
        reply = await table.wait_ephemeral(ex)
        new = re.search(rf"{BASE}(/cal/[\w\-]+\.ics\?lang=zh)", reply.content)[1]
        assert "日历" in reply.content
        async with http.get(local(bot) + url) as r:
            assert r.status == 404
        async with http.get(local(bot) + new) as r:
            assert r.status == 200 and "你的时间" in (await r.read()).decode()
        # after the table, /privacy forget removes the feed
        await table.play_ai(gid)
        ex = await table.fd.slash(waiting, "privacy forget")
        await table.wait_ephemeral(ex)
        async with http.get(local(bot) + new) as r:
            assert r.status == 404
    assert not table.fd.violations, table.fd.violations

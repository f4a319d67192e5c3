"""Discord and the web companion show a viewer the same table: both are built from
one :func:`tables.seeing.board.board` (the real bot against the stand-in, the companion in
the bot's process).  For the same viewer: the same choices with the same labels,
the same player to act, the same banks; hidden information stays on the server."""

from __future__ import annotations

import html
import re

import aiohttp

from cogs.present.board_posts import Boards
from engine.i18n import t
from tables.seeing.board import clip
from tests.test_e2e_web import local, redeem, with_web


async def signed_in(table, bot, http: aiohttp.ClientSession, user) -> dict[str, str]:
    """The member's web session cookie (their single-use link from /game web)."""
    reply = await table.wait_ephemeral(await table.fd.slash(user, "game web"))
    token = re.search(r"/signin/([\w.\-]+)", reply.content)[1]
    status, _, sid = await redeem(http, local(bot), token)
    assert status == 303 and sid
    return {"tg_session": sid}


async def page(bot, http: aiohttp.ClientSession, gid: int, cookies: dict[str, str] | None = None) -> str:
    async with http.get(f"{local(bot)}/t/{gid}", cookies=cookies or {}) as r:
        assert r.status == 200
        return await r.text()


def web_choices(text: str) -> list[str]:
    """The choices a table page lists for its viewer, spelled as Discord labels them: the
    page shows a choice's number once, in bold, where a button label starts "N · "."""
    found = re.search(r'<ul id="choices">(.*?)</ul>', text, re.S)
    items = re.findall(r"<li>(.*?)</li>", found[1], re.S) if found else []
    out = []
    for x in items:
        numbered = re.match(r"^<b>(\d+)</b> (.*)$", x, re.S)
        if numbered:
            assert not numbered[2].startswith(f"{numbered[1]} · "), f"the number is shown twice: {x}"
            x = f"{numbered[1]} · {numbered[2]}"
        out.append(html.unescape(x))
    return out


def discord_choices(message) -> list[str]:
    """The choices a Discord message offers: its action buttons' labels, else its selects' options."""
    labels = [b["label"] for b in message.buttons if b.get("custom_id", "").startswith("tg:a:")]
    for cid in message.custom_ids:
        if cid.startswith("tg:s:"):
            labels += [o["label"] for o in message.component(cid)["options"]]
    return labels


def web_turn(text: str) -> str:
    found = re.search(r'<p class="turn" id="turn">(.*?)</p>', text, re.S)
    return html.unescape(found[1]) if found else ""


def web_banks(text: str) -> list[str]:
    found = re.search(r"<h2>[^<]*</h2><ul>((?:<li>[^<]*</li>)+)</ul></div>", text)
    return [html.unescape(x).split(":")[0] for x in re.findall(r"<li>([^<]*)</li>", found[1])] if found else []


async def test_the_board_the_panel_and_the_page_offer_the_same_choices_to_the_same_viewer(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    with_web(table)
    bot = await table.start()
    gid, msg = await table.open_table(host, "thunder_road", [bob], clock="fast")
    seats = table.seat_user(gid)
    row = await bot.services.tables.row(gid)
    game_board = await Boards(bot, bot.services).board(row, None, "en")  # with the members' names
    seat = game_board.to_act[0]
    who = game_board.label(seat)
    player = host if seats[seat] == host.id else bob

    # Discord: the public board offers the seat's choices (it alone is to act) and pings it once,
    # unless it is the host's, who pressed Start (tables/seeing/pings.py: never the member who acted)
    on_discord = discord_choices(msg)
    assert on_discord, "the public board carries the choices"
    assert msg.pinged == ([] if player is host else [player.id])
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        mine = await page(bot, http, gid, await signed_in(table, bot, http, player))
        public = await page(bot, http, gid)
    on_web = web_choices(mine)
    limit = 80 if msg.buttons and any(b.get("custom_id", "").startswith("tg:a:") for b in msg.buttons) else 100
    assert on_discord == [clip(x, limit) for x in on_web], "the same choices, in the same order, with the same labels"
    assert web_choices(public) == [], "a page without a seat offers nothing"
    # whose turn: the same player, by the same name
    assert who in web_turn(public) and who in web_turn(mine)
    assert f"<@{player.id}>" in msg.text
    # the banks: the same seats, by the same names, on both
    names = [game_board.label(s) for s in game_board.to_act] + [
        p.name for p in game_board.players if not p.waiting and not p.ai
    ]
    banks = web_banks(public)
    assert sorted(banks) == sorted(names)
    title = t("asyncplay.bank_title", "en")
    assert f"**{title}**" in msg.text
    bank_part = msg.text.split(f"**{title}**")[-1]
    for name in names:
        assert f"**{name}**" in bank_part


async def test_secret_orders_the_panel_and_the_page_agree_and_others_see_no_step(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    with_web(table)
    bot = await table.start()
    gid, msg = await table.open_table(host, "armor_clash", [bob])
    seats = table.seat_user(gid)
    panel_button = next(c for c in msg.custom_ids if c.startswith(f"tg:p:{gid}:"))
    ex = await table.fd.click(host, msg, panel_button)
    panel = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        mine = await page(bot, http, gid, await signed_in(table, bot, http, host))
        public = await page(bot, http, gid)
        # the host takes the first step of an order that has several (the step is the host's secret)
        table_row = await bot.services.tables.row(gid)
        own = await Boards(bot, bot.services).board(table_row, host.id, "en")
        assert own.prompt and own.prompt.split("\n")[0] in panel.text, "the panel asks what the page says"
        assert discord_choices(panel) == [clip(x, 80) for x in web_choices(mine)]
        assert web_choices(public) == []
        host_seat = next(s for s, u in seats.items() if u == host.id)
        public_board = await Boards(bot, bot.services).board(table_row, None, "en")
        secret = public_board.player(host_seat).prompt
        assert secret == own.player(host_seat).prompt, "everyone, the crew itself included, reads the same public line"
        assert own.prompt not in public, "the crew's own step is not on the public page"

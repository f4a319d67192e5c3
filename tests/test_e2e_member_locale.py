"""Issue 20 item 4: a member's language is remembered from any interaction and
used for what the bot sends them unasked (hidden cards by DM, follower DMs),
also after a restart.  Through the stand-in with the real discord.py client."""

from __future__ import annotations

import asyncio
import json

from engine.i18n import t


async def _dms(table, user, n=1):
    for _ in range(200):
        channel = table.fd.dm_channel(user)
        if channel is not None and len(table.fd.messages(channel)) >= n:
            return table.fd.messages(channel)
        await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} got no direct message")


async def test_a_zh_member_gets_chinese_demand_card_dms_at_an_english_table(table):
    host = table.fd.add_user(300, "tycoon")  # English host: the table's public language is English
    wei = table.fd.add_user(301, "wei", locale="zh-CN")
    other = table.fd.add_user(302, "otto")
    await table.start()
    gid, board = await table.open_table(host, "automobile", [wei, other])
    assert t("core.ui.board_title", "en", game=t("automobile.name", "en"), id=gid) in board.text
    zh = "\n".join(m.text for m in await _dms(table, wei))
    head = t("discord.private.head", "zh", where="").split("{")[0][:8]
    assert head in zh and "Only for you" not in zh, zh
    en = "\n".join(m.text for m in await _dms(table, host))
    assert "Only for you" in en, "an English member still reads English"
    (prefs,) = table.sql("SELECT prefs_json FROM user_prefs WHERE user_id=?", wei.id)[0]
    assert json.loads(prefs)["locale"] == "zh", "kept in the member's preferences"


async def test_a_follower_hears_in_their_own_language_after_a_restart(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    mei = table.fd.add_user(103, "mei", locale="zh-CN")
    ex = await table.fd.slash(mei, "game follow", {"mode": "turn"})
    await ex.wait_response()
    await table.restart()  # nothing kept in memory: the language comes from the database
    await table.play_ai(gid, steps=1)
    assert await table.bot.get_cog("Following").tick(table.clock()) == 1
    (msg,) = table.fd.messages(table.fd.dm_channel(mei))
    game_zh = t("thunder_road.name", "zh")
    assert game_zh in msg.content and f"第 {gid} 桌" in msg.content, msg.content

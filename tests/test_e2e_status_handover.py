"""Issue 20 item 7: ``/game status`` after the end shows the channel's latest
finished table (result, final board, where to see how it went); a hand-over
names the seat by the player who held it and pings the one who gets it."""

from __future__ import annotations

from engine.i18n import t


async def test_status_after_the_end_shows_the_finished_table_privately(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    await table.play_ai(gid)
    assert table.row(gid)["status"] == "finished"
    before = len(table.fd.messages())
    ex = await table.fd.slash(alice, "game status")
    msg = await ex.wait(
        lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 20, "the finished table"
    )
    assert msg.ephemeral and msg.png(), "the final board, privately"
    text = msg.text
    assert f"#{gid}" in text and t("core.ui.game_over", "en") in text and t("core.ui.winners", "en") in text, text
    assert f"/game replay table:{gid}" in text and f"/game export table:{gid}" in text and "/game log" in text
    assert "There is no table" not in text
    assert not msg.custom_ids, "a finished table's board has no buttons"
    assert len([m for m in table.fd.messages() if not m.ephemeral]) <= before, "nothing posted in the channel"
    ex = await table.fd.slash(bob, "game status")  # in the reader's language
    msg = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 20, "zh")
    # ... with the command as a Chinese member's Discord names it (/游戏 回放 牌桌:), not /game replay table:
    replay = f"/{t('discord.cmd.game', 'zh')} {t('discord.cmd.game.replay', 'zh')} {t('discord.opt.table', 'zh')}:{gid}"
    assert "已经结束" in msg.text and replay in msg.text and "/game" not in msg.text, msg.text
    assert not table.fd.violations


async def test_status_with_no_table_ever_says_so(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "game status")
    assert (await table.wait_ephemeral(ex)).content == t("core.ui.no_game", "en")


async def test_a_hand_over_names_the_seat_by_its_previous_player_and_pings_the_new_one(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    dave = table.fd.add_user(104, "dave")
    await table.start()
    gid, _ = await table.open_table(host, "thunder_road", [bob, carol])
    assert table.seat_user(gid)["p2"] == 102
    ex = await table.fd.slash(host, "game handover", {"seat": "p2", "member": dave})
    board = await table.wait_board(ex)
    assert table.seat_user(gid)["p2"] == 104
    line = next(x for x in board.text.splitlines() if "now belongs to" in x)
    assert "**Bob**'s seat" in line and "<@104>" in line, line
    assert "Dave**'s seat" not in line
    assert 104 in board.pinged

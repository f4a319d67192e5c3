"""Which language a member sees (issue 29 item 10; docs/rulings.md, "Public language"):
public messages in the table's (else the server's) language, private ones (ephemeral
panels and their buttons, private replies, direct messages) in the member's own.
Through the stand-in with the real discord.py client."""

from __future__ import annotations

import re

from test_e2e_help import _help
from test_e2e_league import reply, signup_post
from test_e2e_live_panels import open_panel
from test_e2e_outbox import _settled

from engine import get_game
from engine.i18n import t

CJK = re.compile(r"[\u4e00-\u9fff]")


async def test_a_games_own_commands_have_chinese_names(table):
    wei = table.fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    synced = next(g for cmds in table.fd.commands.values() for g in cmds.values() if g["name"] == "auto")
    assert synced.get("name_localizations", {}).get("zh-CN") == t("automobile.cmd.group", "zh") == "汽车"
    hand = next(o for o in synced["options"] if o["name"] == "hand")
    assert hand.get("name_localizations", {}).get("zh-CN") == "手牌"
    body = "\n".join(f["value"] for f in (await _help(table, wei))["fields"])
    assert "`/汽车 手牌`" in body and "/auto hand" not in body, "zh /help lists the command as Discord shows it"
    # and a zh member types it by its Chinese name (no table here: told so, in Chinese)
    ex = await table.fd.slash(wei, "汽车 手牌")
    assert (await table.wait_ephemeral(ex)).content == t("core.ui.no_game", "zh")


async def test_league_standings_are_posted_in_the_servers_language_not_the_callers(table):
    fd = table.fd
    wei = fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    ex = await fd.slash(fd.owner, "league new", {"game": "armor_clash", "name": "Cup", "format": "swiss"})
    await reply(fd, ex)
    await signup_post(fd)
    ex = await fd.slash(wei, "league standings", {"name": "Cup"})
    answer = await ex.wait_message(lambda m: m.ephemeral)
    assert answer.content == t("core.done.posted", "zh"), "the caller's own answer: their language"
    public = await ex.wait_message(lambda m: not m.ephemeral and m.attachments)
    assert "standings" in public.content and not CJK.search(public.content), public.content


async def test_a_chinese_member_at_an_english_table_decides_in_chinese_privately(table):
    host = table.fd.add_user(101, "host")
    wei = table.fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(host, "armor_clash", [wei])
    assert not CJK.search(board.text), "the public board: the table's language"
    both = f"{t('core.ui.take_turn', 'en')} / {t('core.ui.take_turn', 'zh')}"
    labels = [b.get("label") or "" for b in board.buttons]
    assert not any(CJK.search(x) for x in labels if x != both), f"and its buttons: {labels}"
    panel = await open_panel(table, wei, board, gid)
    assert panel.ephemeral and CJK.search(panel.content), panel.content
    labels = [b.get("label") or "" for b in panel.buttons]
    assert labels and all(CJK.search(x) for x in labels if x), f"their own buttons, privately: {labels}"
    # the English host's panel at the same table stays English
    mine = await open_panel(table, host, board, gid)
    assert not CJK.search(mine.content) and not any(CJK.search(b.get("label") or "") for b in mine.buttons)


async def test_leaderboard_and_campaign_posts_are_in_the_servers_language_not_the_callers(table):
    wei = table.fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    # a campaign announced and its standings shown by a zh member: public, so in English
    ex = await table.fd.slash(wei, "campaign new", {"game": "city_of_fury", "name": "Spring"})
    created = await ex.wait_message(lambda m: not m.ephemeral and "Spring" in m.content)
    assert "campaign" in created.content and not CJK.search(created.content), created.content
    ex = await table.fd.slash(wei, "campaign standings", {"name": "Spring"})
    standings = await ex.wait_message(lambda m: not m.ephemeral and m.embeds)
    assert "campaign" in standings.embed["title"] and not CJK.search(standings.text), standings.text
    assert (await ex.wait_message(lambda m: m.ephemeral)).content == t("core.done.posted", "zh")
    # a leaderboard (a solo table resigned: one result) asked for by the zh member
    ex = await table.fd.slash(wei, "game new", {"game": "city_of_fury"})
    await table.wait_board(ex)
    ex = await table.fd.slash(wei, "game resign")
    await ex.wait_idle(quiet=0.2, timeout=20)
    ex = await table.fd.slash(wei, "leaderboard", {"game": "city_of_fury"})
    board = await ex.wait_message(lambda m: not m.ephemeral and m.embeds)
    assert board.embed["title"] == t("core.board.title", "en", game=t("city_of_fury.name", "en")), board.embed
    # the server chose Chinese: the same posts are Chinese for everyone
    admin = table.fd.add_user(103, "admin", manage_guild=True)
    await (await table.fd.slash(admin, "settings language", {"language": "zh"})).wait_response()
    ex = await table.fd.slash(admin, "leaderboard", {"game": "city_of_fury"})
    board = await ex.wait_message(lambda m: not m.ephemeral and m.embeds)
    assert board.embed["title"] == t("core.board.title", "zh", game=t("city_of_fury.name", "zh")), board.embed


async def test_a_member_whose_language_is_not_the_tables_may_decide_privately_in_theirs(table):
    """A turn-based board shows the acting seat's choices openly, in the table's language;
    when that member reads another language the board also offers them their choices
    privately (the panel), in theirs; a member of the table's language gets no such button."""
    host = table.fd.add_user(101, "host")
    wei = table.fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [wei])
    users = table.seat_user(gid)
    game = get_game("thunder_road")
    both = f"{t('core.ui.take_turn', 'en')} / {t('core.ui.take_turn', 'zh')}"
    for _ in range(400):  # the AI's choices through the board until wei is to act alone
        seat = game.to_act(table.state(gid))[0]
        if users[seat] == wei.id:
            break
        assert not any(b.get("label") == both for b in board.buttons), "the host reads the table's language"
        version = table.row(gid)["version"]
        ex = await table.choose(host, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)))
        board = await table.next_board(ex, gid, version)
    await _settled(table)
    board = table.board_of(table.fd.messages()) or board
    assert not CJK.search(board.text), "the shared board stays in the table's language"
    button = next(b for b in board.buttons if b.get("label") == both)
    ex = await table.fd.click(wei, board, button["custom_id"])
    panel = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")
    assert CJK.search(panel.content) and all(CJK.search(b["label"]) for b in panel.buttons if b.get("label"))
    version = table.row(gid)["version"]
    idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
    ex = await table.choose(wei, panel, gid, idx)
    await ex.wait(lambda e: table.row(gid)["version"] > version, 20, "the decision taken")

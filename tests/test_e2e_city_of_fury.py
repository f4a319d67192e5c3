"""City of Fury played end to end: real discord.py client, local Discord stand-in,
real SQLite file, every request checked against Discord's OpenAPI description."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from engine import get_game

GAME = get_game("city_of_fury")


async def open_solo(table, user, locale=None):
    ex = await table.fd.slash(user, "game new", {"game": "city_of_fury"}, locale=locale)
    ack = await ex.wait_ack()
    assert ack.type == 5 and ex.ack_seconds < 3
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    return gid, board


async def play_turn(table, user, board, gid):
    seat = "p1"
    idx = table.ai_index(gid, seat)
    version = table.row(gid)["version"]
    ex = await table.choose(user, board, gid, idx)
    await ex.wait_ack()
    return await table.next_board(ex, gid, version)


async def test_full_game_through_slash_command_and_buttons(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    assert board.png().startswith(b"\x89PNG")
    assert 101 in board.mentions, "the player to act is named"
    assert board.pinged == [], "and not pinged: they opened the table a moment ago (issue 29.6)"
    assert table.row(gid)["status"] == "active"
    for _ in range(400):
        if table.row(gid)["status"] != "active":
            break
        before = table.row(gid)["version"]
        board = await play_turn(table, alice, board, gid)
        assert table.row(gid)["version"] == before + 1
    row = table.row(gid)
    assert row["status"] == "finished"
    outcome = GAME.outcome(table.state(gid))
    assert outcome is not None
    assert "Game over" in board.text and not board.custom_ids, "the final board has no buttons"
    # the log in the database replays to the saved state bit for bit
    log = table.sql("SELECT seat, action_json FROM actions WHERE game_id=? ORDER BY id", gid)
    seed = table.sql("SELECT seed FROM games WHERE id=?", gid)[0][0]
    import json

    replayed = GAME.replay(["p1"], {}, seed, [(s, json.loads(a)) for s, a in log])
    assert replayed.model_dump_json() == row["state_json"]
    assert not table.fd.violations


async def test_non_player_and_illegal_and_stale_clicks_change_nothing(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await open_solo(table, alice)
    v0 = table.row(gid)["version"]
    cid = board.custom_ids[0]

    ex = await table.fd.click(bob, board, cid)
    msg = await table.wait_ephemeral(ex)
    assert "你没有在牌桌" in msg.content and "Alice" in msg.content  # a non-player, in their language, told who plays
    assert table.row(gid)["version"] == v0

    ex = await table.fd.slash(alice, "play", {"action": f"{gid}:{v0}:999"})  # no such choice
    msg = await table.wait_ephemeral(ex)
    assert "not one of your moves" in msg.content and table.row(gid)["version"] == v0

    ex = await table.fd.slash(alice, "game status")  # a second copy of the board, with buttons
    repost = await table.wait_board(ex)
    assert repost.custom_ids == board.custom_ids
    board2 = await play_turn(table, alice, board, gid)
    assert cid not in board.custom_ids, "the clicked board no longer offers the old choices"
    v1 = table.row(gid)["version"]
    ex = await table.fd.click(alice, repost, cid)  # a button from the previous turn
    msg = await table.wait_ephemeral(ex)
    assert "out of date" in msg.content
    assert table.row(gid)["version"] == v1
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0] == 1
    assert board2.custom_ids


async def test_two_clicks_at_once_apply_exactly_once(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    v0 = table.row(gid)["version"]
    idx = table.ai_index(gid, "p1")
    cid, values = table.custom_id_for(board, gid, v0, idx)
    click = (
        (lambda: table.fd.click(alice, board, cid))
        if values is None
        else (lambda: table.fd.select(alice, board, cid, values))
    )
    a, b = await asyncio.gather(click(), click())

    def settled(e):
        return (
            table.board_of(e.followups)
            or any(m.ephemeral for m in e.followups)  # noqa: E731
            or (e.edits and e.original.attachments and table.row(gid)["version"] != v0)
        )

    await asyncio.gather(a.wait(settled, 20, "a reply"), b.wait(settled, 20, "a reply"))
    assert table.row(gid)["version"] == v0 + 1
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0] == 1
    told = [e for e in (a, b) if any(m.ephemeral and "out of date" in m.content for m in e.messages)]
    assert len(told) == 1, "one click draws the next board, the other is told the table moved on"
    winner = b if told[0] is a else a
    assert winner.edits or table.board_of(winner.followups)


async def test_restart_in_the_middle_keeps_buttons_working(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    board = await play_turn(table, alice, board, gid)
    v = table.row(gid)["version"]
    await table.restart()  # a new process on the same database file
    board = await play_turn(table, alice, board, gid)  # a button sent by the old bot
    assert table.row(gid)["version"] == v + 1


async def test_chinese_locale_for_messages_and_board(table):
    li = table.fd.add_user(201, "li", locale="zh-CN")
    await table.start()
    ex = await table.fd.slash(li, "game new", {"game": "city_of_fury"}, locale="zh-CN")
    board = await table.wait_board(ex)
    assert "狂怒之城" in board.text
    img = Image.open(io.BytesIO(board.png()))
    assert img.format == "PNG" and img.width > 200
    ex = await table.fd.slash(li, "game new", {"game": "city_of_fury"}, locale="zh-CN")
    msg = await table.wait_ephemeral(ex)
    assert "本频道已有牌桌" in msg.content


async def test_corrupt_state_is_quarantined_and_reported(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    table.sql("UPDATE games SET state_json='{\"broken\": true}' WHERE id=?", gid)
    table.sql("SELECT 1")  # (connection per call; the UPDATE above committed on close)
    import sqlite3

    con = sqlite3.connect(table.db)
    con.execute("UPDATE games SET state_json='{\"broken\": true}' WHERE id=?", (gid,))
    con.commit()
    con.close()
    ex = await table.fd.click(alice, board, board.custom_ids[0])
    msg = await table.wait_ephemeral(ex)
    assert "could not be read" in msg.content
    assert table.row(gid)["status"] == "quarantined"
    assert table.sql("SELECT game_id FROM quarantine") == [(gid,)]
    # the channel is free again
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    assert await table.wait_board(ex)


async def test_play_command_autocomplete_and_rules(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    choices = await table.fd.autocomplete(alice, "play", {"action": ""}, focused="action")
    state = table.state(gid)
    legal = GAME.legal_actions(state, "p1")
    assert [c["name"] for c in choices] == [GAME.action_label(state, a, "en")[:100] for a in legal][:25]
    idx = table.ai_index(gid, "p1")
    ex = await table.fd.slash(alice, "play", {"action": choices[idx]["value"]})
    await table.wait_board(ex)
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0] == 1
    ex = await table.fd.slash(alice, "play", {"action": "rubbish"})
    assert "suggested" in (await table.wait_ephemeral(ex)).content

    ex = await table.fd.slash(alice, "rules", {"game": "city_of_fury"})
    msg = await ex.wait_response()
    assert msg.ephemeral and msg.embed["description"]
    topics = await table.fd.autocomplete(alice, "rules", {"game": "city_of_fury", "topic": ""}, focused="topic")
    assert topics
    ex = await table.fd.slash(alice, "rules", {"game": "city_of_fury", "topic": topics[0]["value"]}, locale="zh-CN")
    assert (await ex.wait_response()).embeds


async def test_log_and_abandon_permissions(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    mod = table.fd.add_user(103, "mod", manage_guild=True)
    await table.start()
    gid, board = await open_solo(table, alice)
    await play_turn(table, alice, board, gid)
    ex = await table.fd.slash(alice, "game log")
    msg = await table.wait_ephemeral(ex)
    assert "Alice" in msg.content and "p1" not in msg.content and "page 1/1" in msg.content
    ex = await table.fd.slash(bob, "game abandon")
    assert "Only the host" in (await table.wait_ephemeral(ex)).content
    assert table.row(gid)["status"] == "active"
    ex = await table.fd.slash(mod, "game abandon")
    await ex.wait(lambda e: any("abandoned" in m.content for m in e.messages + e.posted), 20, "the announcement")
    assert table.row(gid)["status"] == "abandoned"


async def test_play_chains_several_decisions_in_one_line(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_solo(table, alice)
    v = table.row(gid)["version"]
    first = await table.fd.autocomplete(alice, "play", {"action": ""}, focused="action")
    kick = next(c for c in first if c["name"].startswith("Kick"))
    second = await table.fd.autocomplete(alice, "play", {"action": kick["value"]}, focused="action")
    assert second and all(c["name"].startswith(kick["name"] + " → ") for c in second)
    assert all(c["value"].startswith(kick["value"] + ".") for c in second)
    ex = await table.fd.slash(alice, "play", {"action": second[0]["value"]})
    await table.wait_board(ex)
    assert table.row(gid)["version"] == v + 1, "one save for the whole chain"
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0] == 2
    # a chain planned on an older version is refused as a whole
    ex = await table.fd.slash(alice, "play", {"action": second[0]["value"]})
    assert "out of date" in (await table.wait_ephemeral(ex)).content
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0] == 2

"""Issue 12: a table that plays like a polished Discord game bot, seen through
the Discord stand-in with the real discord.py client: one Components V2
message per turn, real names and seat colours, one public language per table,
pings that say who/what/where, hidden cards pushed to their owners, choices
that are chains of single steps, superseded and abandoned boards without
buttons, errors in the reader's language."""

from __future__ import annotations

import asyncio

from engine import get_game
from engine.i18n import t
from engine.locales import language
from tables.rules.choices import choices

V2 = 1 << 15


def _board_parts(msg):
    """(container, media gallery items, text displays) of a V2 board message."""
    assert msg.flags & V2, "a board is a Components V2 message"
    assert not msg.content and not msg.embeds, "V2: no content or embeds"
    (box,) = [c for c in msg.components if c["type"] == 17]
    gallery = [c for c in box["components"] if c["type"] == 12]
    texts = [c["content"] for c in box["components"] if c["type"] == 10]
    return box, gallery, texts


async def test_thunder_road_board_is_one_v2_message_with_names_colours_and_a_clear_ping(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    box, gallery, texts = _board_parts(board)
    att = board.attachments[0]
    assert gallery and gallery[0]["items"][0]["media"]["url"] == att["url"], "the image sits in the container"
    text = board.text
    assert "Alice" in text or "Bob" in text, text
    assert "p1" not in text and "p2" not in text, "seat ids stay inside the engine"
    game = get_game("thunder_road")
    state = table.state(gid)
    seat = game.to_act(state)[0]
    uid = table.seat_user(gid)[seat]
    # only the player to act is pinged, and not the host who has just pressed Start (issue 29.6)
    assert board.pinged == ([uid] if uid != alice.id else [])
    ping = next(x for x in texts if f"<@{uid}>" in x)
    assert f"your turn in Thunder Road: Vendetta #{gid}" in ping, ping
    assert box.get("accent_color") is not None, "the container shows the acting seat's colour"
    assert not table.fd.violations


async def test_public_language_is_fixed_when_the_table_opens(table):
    alice = table.fd.add_user(101, "alice")  # host, English
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    title_en = t("core.ui.board_title", "en", game=t("thunder_road.name", "en"), id=gid)
    seen = []
    for _ in range(12):  # both players click; every public board stays in the table's language
        row = table.row(gid)
        if row["status"] != "active":
            break
        game = get_game("thunder_road")
        seat = game.to_act(table.state(gid))[0]
        user = table.fd.users[table.seat_user(gid)[seat]]
        v = row["version"]
        ex = await table.choose(user, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), v)
        board = await table.next_board(ex, gid, v)
        seen.append(user.id)
        assert title_en in board.text, board.text
    assert 102 in seen, "the zh player clicked too"
    ex = await table.fd.slash(bob, "game status")
    note = await table.wait_ephemeral(ex)
    assert t("discord.table.language", "zh", lang=language("en").name) in note.content, note.content


async def test_automobile_cards_dealt_reach_each_owner_privately_at_once(table):
    users = [table.fd.add_user(300 + i, f"tycoon{i}") for i in range(3)]
    await table.start()
    gid, board = await table.open_table(users[0], "automobile", users[1:])
    seat_of = {u: s for s, u in table.seat_user(gid).items()}
    for _ in range(200):  # the DMs follow the board
        if all(table.fd.dm_channel(u) and table.fd.messages(table.fd.dm_channel(u)) for u in users):
            break
        await asyncio.sleep(0.05)
    state = table.state(gid)
    for user in users:
        channel = table.fd.dm_channel(user)
        assert channel is not None, f"{user.name} got a direct message"
        texts = "\n".join(m.text for m in table.fd.messages(channel))
        hand = ", ".join(map(str, state.players[seat_of[user.id]].hand))
        assert "Only for you" in texts and f"Your demand cards: {hand}" in texts, texts
        for other in users:
            theirs = ", ".join(map(str, state.players[seat_of[other.id]].hand))
            if other is not user and theirs != hand:
                assert f"Your demand cards: {theirs}" not in texts, "nobody sees another's hand"
    public = "\n".join(m.text for m in table.fd.messages())
    assert "Only for you" not in public and "Your demand cards" not in public, "never in the channel"


async def test_closed_dms_fall_back_to_my_view(table):
    users = [table.fd.add_user(300 + i, f"tycoon{i}") for i in range(3)]
    await table.start()
    table.fd.fail_requests("POST", r"^/users/@me/channels$", status=403, code=50007, message="Cannot send messages")
    gid, board = await table.open_table(users[0], "automobile", users[1:])
    assert f"tg:v:{gid}" in board.custom_ids, "the board keeps the My view button"
    assert table.row(gid)["status"] == "active"


async def test_a_thunder_road_move_is_one_click_saved_as_a_chain_of_steps(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    game = get_game("thunder_road")
    for _ in range(60):
        state = table.state(gid)
        seat = game.to_act(state)[0]
        offered = choices(game, state, seat)
        user = table.fd.users[table.seat_user(gid)[seat]]
        v = table.row(gid)["version"]
        run = next((i for i, c in enumerate(offered) if c.kind == "run" and len(c.chain) > 1), None)
        if run is not None:
            before = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
            ex = await table.choose(user, board, gid, run, v)
            board = await table.next_board(ex, gid, v)
            after = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
            assert after - before >= len(offered[run].chain), "every single step is in the log"
            assert table.row(gid)["version"] == v + 1, "one click, one saved change"
            return
        ex = await table.choose(user, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), v)
        board = await table.next_board(ex, gid, v)
    raise AssertionError("no multi-step move was offered")


async def test_abandoned_board_loses_its_buttons_and_empty_leaderboard_is_private(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "leaderboard", {"game": "city_of_fury"})
    reply = await ex.wait_response()
    assert reply.ephemeral and "No finished games" in reply.content and not reply.attachments
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    assert board.custom_ids
    ex = await table.fd.slash(alice, "game abandon")
    await table.wait_ephemeral(ex)
    await ex.wait_idle(quiet=0.2, timeout=10)
    assert not board.custom_ids, "the abandoned table's board lost its buttons"
    assert board.png(), "and kept its picture"
    _, gallery, _ = _board_parts(board)
    assert gallery[0]["items"][0]["media"]["url"] == board.attachments[0]["url"], "still showing its own image"
    assert not table.fd.violations


async def test_an_invalid_option_lists_the_valid_keys_in_the_readers_language(table):
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    for options in ("colour=red", "big_rig"):
        ex = await table.fd.slash(bob, "game new", {"game": "thunder_road", "options": options})
        msg = await table.wait_ephemeral(ex)
        assert msg.ephemeral and "big_rig" in msg.content and "`true` | `false`" in msg.content, msg.content
        assert "Extra inputs" not in msg.content and "该选项对" in msg.content
    assert not table.sql("SELECT id FROM games")

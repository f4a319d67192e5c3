"""Time banks, vacations, followers, ratings and privacy through the real discord.py
client and the Discord stand-in, with time controlled by the test."""

from __future__ import annotations

import json
import re

DAY_MIN = 24 * 60


def bank_field(board):
    """The board's time-bank text display (Components V2), without its title line."""
    from fakediscord import walk_components

    for c in walk_components(board.components):
        if c.get("type") == 10 and (c.get("content") or "").startswith("**Time bank**"):
            return c["content"].split("\n", 1)[1] if "\n" in c["content"] else ""
    return None


async def two_player_table(table, clock="fast"):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", joiners=[bob], clock=clock)
    return alice, bob, gid, board


async def test_the_board_shows_each_bank_as_a_live_timestamp_and_a_run_out_bank_is_announced(table):
    alice, bob, gid, board = await two_player_table(table)
    start = table.clock()
    value = bank_field(board)
    assert value is not None, "a table with a clock profile shows its banks"
    stamps = [int(x) for x in re.findall(r"<t:(\d+):R>", value)]
    assert stamps == [int(start + 86400)], value  # the waiting seat: when its bank runs out
    assert "in the bank" in value  # the other seat: what it holds, not running
    table.clock.advance(DAY_MIN - 1)
    assert (await table.tick())["timeouts"] == 0
    table.clock.advance(2)
    assert (await table.tick())["timeouts"] == 1
    note = [m for m in table.fd.messages() if "time bank ran out" in m.text]
    assert note and note[-1].png()
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=? AND user_id IS NULL", gid)[0][0] >= 1


async def test_a_vacation_pauses_the_bank_and_shows_when_it_ends(table):
    alice, bob, gid, board = await two_player_table(table)
    waiting = table.sql("SELECT user_id, expire_at FROM turn_clocks WHERE game_id=?", gid)
    ((uid, expire),) = waiting
    user = table.fd.users[uid]
    ex = await table.fd.slash(user, "remind away", {"days": 2})
    reply = await ex.wait_response()
    assert reply.ephemeral and "away until" in reply.content and "<t:" in reply.content
    assert table.sql("SELECT expire_at FROM turn_clocks WHERE game_id=?", gid)[0][0] == expire + 2 * 86400
    ex = await table.fd.slash(user, "game status")
    shown = bank_field(await table.wait_board(ex))
    assert "away until" in shown and f"<t:{int(expire + 2 * 86400)}:R>" in shown, shown
    table.clock.advance(DAY_MIN + 5)
    assert (await table.tick())["timeouts"] == 0, "nobody is timed out while away"
    ex = await table.fd.slash(user, "remind back")
    assert "Welcome back" in (await ex.wait_response()).content
    # away the whole time: the bank did not run at all, and runs from now
    assert table.sql("SELECT expire_at FROM turn_clocks WHERE game_id=?", gid)[0][0] == table.clock() + 86400
    assert (await table.tick())["timeouts"] == 0
    table.clock.advance(DAY_MIN + 1)
    assert (await table.tick())["timeouts"] == 1
    ex = await table.fd.slash(user, "remind away", {"days": 30}, unchecked=True)
    assert (await ex.wait_response()).ephemeral


async def test_mine_lists_the_waiting_table_with_its_deadline(table):
    alice, bob, gid, board = await two_player_table(table)
    uid = table.sql("SELECT user_id FROM turn_clocks WHERE game_id=?", gid)[0][0]
    ex = await table.fd.slash(table.fd.users[uid], "game mine")
    text = (await table.wait_ephemeral(ex)).content
    assert f"#{gid}" in text and f"<t:{int(table.clock() + 86400)}:R>" in text


async def test_a_follower_gets_the_public_board_once_per_turn_in_a_private_message(table):
    alice, bob, gid, board = await two_player_table(table, clock="off")
    carol = table.fd.add_user(103, "carol")
    ex = await table.fd.slash(carol, "game follow", {"mode": "turn"})
    assert "You follow table" in (await ex.wait_response()).content
    following = table.bot.get_cog("Following")
    assert await following.tick(table.clock()) == 0
    await table.play_ai(gid, steps=1)
    assert await following.tick(table.clock()) == 1
    dm = table.fd.dm_channel(carol)
    assert dm is not None
    (msg,) = table.fd.messages(dm)
    assert f"#{gid}" in msg.content and msg.png()
    assert await following.tick(table.clock()) == 0, "each turn is told once"
    ex = await table.fd.slash(bob, "game followers", {"open": False})
    assert "host" in (await ex.wait_response()).content.lower()
    ex = await table.fd.slash(alice, "game followers", {"open": False})
    assert "closed to followers" in (await ex.wait_response()).content
    ex = await table.fd.slash(carol, "game follow")
    assert "closed to followers" in (await ex.wait_response()).content


async def test_ratings_show_in_the_leaderboard_and_privacy_forget_removes_them(table):
    alice, bob, gid, board = await two_player_table(table, clock="off")
    ex = await table.fd.slash(alice, "privacy forget")
    assert "still sit at" in (await ex.wait_response()).content
    await table.play_ai(gid)
    assert table.row(gid)["status"] == "finished"
    assert {r[0] for r in table.sql("SELECT user_id FROM ratings")} == {101, 102}
    ex = await table.fd.slash(alice, "leaderboard", {"game": "thunder_road"})
    msg = await table.wait_board(ex)
    assert "OpenSkill" in msg.embed["description"]
    ex = await table.fd.slash(alice, "privacy show")
    shown = (await ex.wait_response()).content
    assert "results: 1" in shown and "ratings: 1" in shown
    ex = await table.fd.slash(alice, "privacy forget")
    assert "Done" in (await ex.wait_response()).content
    assert {r[0] for r in table.sql("SELECT user_id FROM ratings")} == {102}
    assert table.sql("SELECT COUNT(*) FROM actions WHERE user_id=101") == [(0,)]
    ex = await table.fd.slash(bob, "privacy forget", {"member": alice})
    assert "Manage Server" in (await ex.wait_response()).content


async def test_the_server_default_clock_and_the_vote_policy(table):
    alice = table.fd.add_user(101, "alice", manage_guild=True)
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    ex = await table.fd.slash(alice, "settings clock", {"profile": "blitz", "policy": "vote"})
    assert "blitz" in (await ex.wait_response()).content
    ex = await table.fd.slash(alice, "settings show")
    assert "blitz" in (await ex.wait_response()).content and "vote" in ex.original.content
    gid, board = await table.open_table(alice, "thunder_road", joiners=[bob, carol])
    stamps = re.findall(r"<t:(\d+):R>", bank_field(board) or "")
    assert stamps == [str(int(table.clock() + 3600))]
    waiting = table.sql("SELECT user_id FROM turn_clocks WHERE game_id=?", gid)[0][0]
    table.clock.advance(61)
    n = len(table.fd.messages())
    assert (await table.tick())["timeouts"] == 1
    asks = [m for m in table.fd.messages()[n:] if "hand the seat to the AI" in m.content]
    assert len(asks) == 1 and set(asks[0].pinged) >= {u for u in (101, 102, 103) if u != waiting}
    named = {101: "alice", 102: "bob", 103: "carol"}[waiting]
    assert f"time bank for {named} ran out" in asks[0].content.lower(), "the seat is named by its player"
    assert not re.search(r"\bp\d\b", asks[0].content), "a seat id never reaches a player"
    assert any(c.startswith("tg:vote:") for c in asks[0].custom_ids)
    assert (await table.tick())["timeouts"] == 0, "asked once"
    voters = [table.fd.users[u] for u in (101, 102, 103) if u != waiting]
    yes = next(c for c in asks[0].custom_ids if c.endswith(":yes"))
    await (await table.fd.click(voters[0], asks[0], yes)).wait_response()
    ex = await table.fd.click(voters[1], asks[0], yes)
    await table.wait_board(ex)  # the passing ballot posts the board with the AI's move
    seat = table.sql("SELECT seat FROM seats WHERE game_id=? AND user_id IS NULL", gid)
    assert seat, "the seat went to the AI"


async def test_a_bank_survives_a_restart_in_between(table):
    alice, bob, gid, board = await two_player_table(table)
    table.clock.advance(10 * 60)
    await table.restart()  # nothing was running: the bank is in the database
    table.clock.advance(14 * 60 - 1)
    assert (await table.tick())["timeouts"] == 0
    table.clock.advance(2)
    assert (await table.tick())["timeouts"] == 1


async def test_a_follower_never_hears_a_secret_order(table):
    from engine import get_game

    crews = [table.fd.add_user(500 + i, f"crew{i}") for i in range(2)]
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, board = await table.open_table(crews[0], "armor_clash", crews[1:])
    ex = await table.fd.slash(carol, "game follow")
    await ex.wait_response()
    await table.play_ai(gid, steps=2)  # p1 gives its whole order, secretly
    game = get_game("armor_clash")
    events = [
        e
        for (raw,) in table.sql("SELECT events_json FROM actions WHERE game_id=?", gid)
        for e in game.load_events(json.loads(raw))
    ]
    from cogs.present.ui import relabel, seat_labels

    row = await table.bot.services.tables.row(gid)
    labels = seat_labels(row, {500: "Crew0", 501: "Crew1"}, "en")  # a follower reads the players' names
    secret = [relabel(game.event_text(e, "en", labels), labels) for e in events if e.to]
    public = [relabel(game.event_text(e, "en", labels), labels) for e in game.visible_events(events, None)]
    assert secret and public, "the order was given privately and its commitment announced"
    assert await table.bot.get_cog("Following").tick(table.clock()) == 1
    (msg,) = table.fd.messages(table.fd.dm_channel(carol))
    assert all(line not in msg.content for line in secret)
    assert all(line in msg.content for line in public)
    state = table.state(gid)
    # the public board, drawn with the players' names and seat colours
    assert msg.png() == await table.bot.services.tables.render(game, state, None, "en", labels)

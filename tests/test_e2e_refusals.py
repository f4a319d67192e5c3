"""Issue 20 item 2: a click that cannot be taken says why, privately and in the
clicker's language: not your turn (and whose it is), not seated, the table moved
on (and what happened since), finished.  Through the stand-in with the real
discord.py client."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t


async def _two_player_table(table, bob_locale="en-US"):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale=bob_locale)
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    return alice, bob, gid, board


def _waiting(table, gid):
    game = get_game("thunder_road")
    seat = game.to_act(table.state(gid))[0]
    uid = table.seat_user(gid)[seat]
    return seat, table.fd.users[uid]


async def test_a_seated_player_clicking_out_of_turn_is_told_whose_turn_it_is(table):
    alice, bob, gid, board = await _two_player_table(table)
    seat, waiting = _waiting(table, gid)
    other = bob if waiting is alice else alice
    v = table.row(gid)["version"]
    ex = await table.choose(other, board, gid, 0, v)
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral
    assert "It is not your turn" in msg.content and waiting.name.title() in msg.content, msg.content
    assert "out of date" not in msg.content and "p1" not in msg.content and "p2" not in msg.content
    assert table.row(gid)["version"] == v, "nothing changed"
    assert not table.fd.violations


async def test_not_your_turn_is_said_in_the_clickers_language(table):
    alice, bob, gid, board = await _two_player_table(table, bob_locale="zh-CN")
    seat, waiting = _waiting(table, gid)
    if waiting is bob:  # bob must be the one clicking out of turn
        await table.play_ai(gid, until=lambda tb: _waiting(tb, gid)[1] is alice)
        ex = await table.fd.slash(alice, "game status")
        board = await table.wait_board(ex)
    v = table.row(gid)["version"]
    ex = await table.choose(bob, board, gid, 0, v)
    msg = await table.wait_ephemeral(ex)
    assert "现在不是你的回合" in msg.content and "Alice" in msg.content, msg.content
    assert table.row(gid)["version"] == v


async def test_a_member_without_a_seat_is_told_so_and_who_is_to_decide(table):
    alice, bob, gid, board = await _two_player_table(table)
    carol = table.fd.add_user(103, "carol")
    seat, waiting = _waiting(table, gid)
    v = table.row(gid)["version"]
    ex = await table.choose(carol, board, gid, 0, v)
    msg = await table.wait_ephemeral(ex)
    assert "You have no seat" in msg.content and waiting.name.title() in msg.content, msg.content
    assert "/game follow" in msg.content
    assert table.row(gid)["version"] == v


async def test_a_click_after_the_table_moved_on_says_what_happened_since(table):
    alice, bob, gid, board = await _two_player_table(table)
    copy = await table.wait_board(await table.fd.slash(alice, "game status"))  # a second copy of the board
    v0 = table.row(gid)["version"]
    seat, first = _waiting(table, gid)
    ex = await table.choose(first, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), v0)
    await table.next_board(ex, gid, v0)
    assert table.row(gid)["version"] != v0
    old = next(c for c in copy.custom_ids if c.startswith(f"tg:a:{gid}:{v0}:") or c.startswith(f"tg:s:{gid}:{v0}:"))
    second = bob if first is alice else alice
    if old.startswith("tg:s:"):
        ex = await table.fd.select(second, copy, old, [copy.component(old)["options"][0]["value"]])
    else:
        ex = await table.fd.click(second, copy, old)
    msg = await table.wait_ephemeral(ex)
    assert "moved on" in msg.content and "Since then:" in msg.content, msg.content
    assert first.name.title() in msg.content, "what happened since names who did it"
    assert "p1" not in msg.content and "p2" not in msg.content
    assert not table.fd.violations


async def test_a_click_on_a_finished_table_says_it_has_finished(table):
    alice, bob, gid, board = await _two_player_table(table)
    seat, waiting = _waiting(table, gid)
    v = table.row(gid)["version"]
    await table.play_ai(gid)  # the game is played to its end elsewhere (the AI, timers)
    assert table.row(gid)["status"] == "finished"
    ex = await table.choose(waiting, board, gid, 0, v)
    msg = await table.wait_ephemeral(ex)
    assert msg.content == t("play.refuse.finished", "en", id=gid), msg.content
    assert table.row(gid)["status"] == "finished"
    assert not table.fd.violations

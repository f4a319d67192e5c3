"""Issue 20 item 11: "since your turn": a private catch-up of what the other
players did since a member's last decision, what touched them first, and the
board after that decision and now; from the board's button or /game catchup."""

from __future__ import annotations

import re

from engine import get_game
from tables.seeing.catchup import touches

SEAT_ID = re.compile(r"(?<![\w@#<])p\d(?![\w>])")


def _turn_of(table, gid):
    game = get_game("thunder_road")
    return game.to_act(table.state(gid))[0]


async def test_the_turn_coming_back_brings_a_private_catch_up(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob, carol])
    first = _turn_of(table, gid)
    seen: list[str] = []

    def came_back(t):
        seat = _turn_of(t, gid)
        if not seen or seen[-1] != seat:
            seen.append(seat)
        return len(seen) > 3 and seat == first

    await table.play_ai(gid, until=came_back)
    uid = table.seat_user(gid)[first]
    user = table.fd.users[uid]
    ex = await table.fd.slash(user, "game status")  # the board with the ping and its buttons
    board = await table.wait_board(ex)
    assert f"tg:c:{gid}" in board.custom_ids, "the board offers 'Since your turn'"
    ex = await table.fd.click(user, board, f"tg:c:{gid}")
    msg = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 30, "catchup")
    assert msg.ephemeral and "Since your last decision" in msg.content, msg.content
    assert len(msg.attachments) == 2, "the board after the member's last decision, and now"
    log = table.sql("SELECT user_id FROM actions WHERE game_id=? ORDER BY id", gid)
    last = max(i for i, (u,) in enumerate(log) if u == uid)
    acted = {u for (u,) in log[last + 1 :] if u not in (None, uid)}
    assert acted and all(table.fd.users[u].name.title() in msg.content for u in acted), msg.content
    assert not SEAT_ID.search(msg.content), msg.content
    # /game catchup says the same on demand; in Chinese for a zh reader
    ex = await table.fd.slash(user, "game catchup")
    again = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 30, "cmd")
    assert again.content == msg.content
    assert not table.fd.violations


async def test_the_catch_up_is_what_the_member_may_see_and_names_what_hit_them_first(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    await table.play_ai(gid, steps=40)
    service = table.bot.services.tables
    loaded = await service.load(gid)
    for seat, uid in table.seat_user(gid).items():
        c = await service.catchup(loaded.row, loaded.game, loaded.state, uid)
        log = table.sql("SELECT user_id FROM actions WHERE game_id=? ORDER BY id", gid)
        last = max(i for i, (u,) in enumerate(log) if u == uid)
        tail = [u for (u,) in log[last + 1 :]]
        while tail and tail[0] == uid:  # forced steps right after are still the member's own
            tail.pop(0)
        assert c.turns == len(tail) and c.before is not None
        for step in c.steps:
            assert all(e.to is None or seat in e.to for e in step.events), "nothing hidden from the member"
        if c.first_hit is not None:
            assert c.first_hit[0].seat != seat and touches(c.first_hit[1], seat)

"""Exactly one live board per table (issue 20.5), through the stand-in with the real
bot: when a new board is posted the older ones lose their buttons (through the
outbox, so a Discord outage between the post and the retirement is finished by the
scheduler), a /game status repost becomes the one live board, and a turn pings its
player once."""

from __future__ import annotations

import asyncio
import time

from test_e2e_outbox import _hand_off, _settled, _virtual_time

from engine import get_game

BOARD_KINDS = ("a", "s", "p", "v", "c")


def live_boards(table, gid: int) -> list:
    """Public messages of table ``gid`` that still carry its buttons."""
    return [
        m
        for m in table.fd.messages()
        if not m.ephemeral
        and any(c.split(":")[1:3] in ([k, str(gid)] for k in BOARD_KINDS) for c in m.custom_ids if c.startswith("tg:"))
    ]


async def play_and_count(table, gid: int, board, decisions: int) -> tuple[int, int]:
    """Play ``decisions`` decisions through the components the bot sent (the AI's choices);
    returns (the most live boards seen after a decision, the most pings one player got
    between two of their decisions)."""
    game = get_game(table.row(gid)["game"])
    users = table.seat_user(gid)
    panels: dict[int, object] = {}
    seen_upto: dict[int, int] = {}
    most_live = most_pings = 0
    start = len(table.fd.messages())
    for _ in range(decisions):
        if table.row(gid)["status"] != "active":
            break
        state = table.state(gid)
        seat = next(s for s in game.to_act(state) if users[s] is not None)
        user = table.fd.users[users[seat]]
        version = table.row(gid)["version"]
        idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
        mark = len(table.fd.messages())  # this turn's pings came before its decision
        target = board
        mine = panels.get(user.id)
        if table.live_panel(mine, gid, version):
            target = mine
        elif panel := [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]:
            ex = await table.fd.click(user, board, panel[0])
            target = await ex.wait(
                lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "a panel"
            )
            panels[user.id] = target
        ex = await table.choose(user, target, gid, idx, version)
        await ex.wait(
            lambda e, v=version: table.row(gid)["version"] != v and bool(e.edits or e.followups or e.posted),
            30,
            "reply",
        )
        await ex.wait_idle(quiet=0.1, timeout=30)
        await _settled(table)
        board = table.new_board(ex) or board
        if table.row(gid)["status"] == "active":
            most_live = max(most_live, len(live_boards(table, gid)))
        channel = table.fd.messages()[:mark]
        pings = sum(1 for m in channel[seen_upto.get(user.id, start) :] if not m.ephemeral and user.id in m.pinged)
        most_pings = max(most_pings, pings)
        seen_upto[user.id] = mark
    return most_live, most_pings


async def test_automobile_each_decision_leaves_one_live_board_and_pings_once(table):
    users = [table.fd.add_user(101 + i, f"player{i}") for i in range(3)]
    await table.start()
    gid, board = await table.open_table(users[0], "automobile", users[1:])
    most_live, most_pings = await play_and_count(table, gid, board, 30)
    assert most_live == 1, "exactly one board of the table keeps its buttons"
    assert most_pings == 1, "a turn pings its player once"


async def test_a_status_repost_is_the_one_live_board_and_pings_nobody(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    await _settled(table)
    ex = await table.fd.slash(bob, "game status")
    repost = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "")
    await ex.wait_idle(quiet=0.1, timeout=20)
    assert [m.id for m in live_boards(table, gid)] == [repost.id], "the repost is the live board, the first retired"
    assert repost.pinged == [], "showing the board again pings nobody"
    assert board.attachments, "the retired board keeps its picture"


async def test_an_outage_between_the_post_and_the_retirement_is_finished_by_the_outbox(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    assert [m.id for m in live_boards(table, gid)] == [board.id]
    # Discord takes the new board, then fails every edit for 60 s: the old board cannot lose its buttons yet
    end = table.fd.outage(60, method="PATCH", path_regex=r"^/channels/\d+/messages/\d+$")
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    new = await table.wait_board(ex)
    await ex.wait_idle(quiet=0.1)
    assert table.row(gid)["version"] == version + 1
    assert table.sql("SELECT COUNT(*) FROM outbox") == [(1,)], "the retirement is still owed"
    for _ in range(40):  # the scheduler's passes, 5 s apart, until after the outage
        table.clock.now += 5
        await table.deliver()
        if table.clock.now > end + 130:
            break
    await asyncio.sleep(0)
    assert [m.id for m in live_boards(table, gid)] == [new.id], "one live board once Discord takes edits again"
    assert board.attachments, "the old board keeps its picture"
    pings = [u for m in table.fd.messages() if m.created_at > clicked for u in m.pinged]
    assert sorted(pings) == sorted(nxt), "the repost gave back the same message: nobody pinged twice"
    await _settled(table)

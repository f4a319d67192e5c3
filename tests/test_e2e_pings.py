"""Pings (issue 29 item 6), through the stand-in with the real bot: one per turn, to the
seats newly to act, never to the member who just acted.  Every message the bot created
after the member's action is counted (its mentions, as its ``allowed_mentions`` let them
notify: FakeMessage.pinged), for each case seen in play."""

from __future__ import annotations

import time

from test_e2e_league import reply, signup_post, until
from test_e2e_live_panels import click_label, open_panel
from test_e2e_outbox import _settled

from engine import get_game


def pings_since(table, mark: float) -> list[int]:
    """Every member notified by a message the bot created after ``mark`` (in any channel)."""
    return [u for m in table.fd.all_messages if m.created_at > mark and not m.deleted for u in m.pinged]


async def _quiet(table, ex) -> None:
    await ex.wait_idle(quiet=0.15, timeout=30)
    await _settled(table)


async def test_a_solo_player_is_not_pinged_by_the_first_board_of_their_own_game_new(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    mark = time.monotonic()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    await _quiet(table, ex)
    assert board.mentions == [] or alice.id not in board.pinged
    assert pings_since(table, mark) == [], "the member who just opened the table is looking at it"


async def test_starting_a_table_pings_the_others_to_act_and_not_the_host_who_started_it(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "armor_clash"})
    lobby = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "")
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    await (await table.fd.click(bob, lobby, f"tg:l:{gid}:join")).wait_response()
    mark = time.monotonic()
    ex = await table.fd.click(host, lobby, f"tg:l:{gid}:start")
    await table.wait_board(ex)
    await _quiet(table, ex)
    assert pings_since(table, mark) == [bob.id], "every crew is to act: bob once, the host who started none"


async def test_armor_clash_undo_pings_no_crew(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "armor_clash", [bob])
    await _settled(table)
    panel = await open_panel(table, host, board, gid)
    version = table.row(gid)["version"]
    await click_label(table, host, panel, "Pass / observe")  # the host's crew gives its order
    assert table.row(gid)["version"] > version
    await _settled(table)
    mark = time.monotonic()
    ex = await table.fd.slash(host, "game undo")
    undone = await table.wait_board(ex)
    await _quiet(table, ex)
    assert "took back" in undone.text
    assert pings_since(table, mark) == [], "bob was waiting already; the host asked for the undo"


async def test_game_undo_does_not_ping_the_undoer(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    game = get_game("thunder_road")
    users = table.seat_user(gid)
    seat = game.to_act(table.state(gid))[0]
    mover = table.fd.users[users[seat]]
    version = table.row(gid)["version"]
    ex = await table.choose(mover, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)))
    await table.next_board(ex, gid, version)
    await _quiet(table, ex)
    mark = time.monotonic()
    ex = await table.fd.slash(mover, "game undo")
    await ex.wait_idle(quiet=0.2, timeout=30)
    await _settled(table)
    assert mover.id not in pings_since(table, mark), "the undoer is the member who just acted"


async def test_game_resign_does_not_ping_the_resigner(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob, carol])
    await _settled(table)
    game = get_game("thunder_road")
    users = table.seat_user(gid)
    waiting = {users[s] for s in game.to_act(table.state(gid))}
    resigner = next(u for u in (alice, bob, carol) if u.id not in waiting)
    mark = time.monotonic()
    ex = await table.fd.slash(resigner, "game resign")
    await ex.wait(lambda e: any("resigned" in m.text for m in e.messages + e.posted), 20, "the announcement")
    await _quiet(table, ex)
    pinged = pings_since(table, mark)
    assert resigner.id not in pinged, "the resigner just acted"
    assert not set(pinged) & waiting, "the seats to act were pinged when their turn came"


async def test_a_move_from_a_panel_an_old_button_opened_does_not_ping_the_mover(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "armor_clash", [bob])
    game = get_game("armor_clash")
    users = table.seat_user(gid)
    host_again = 0
    for _ in range(6):  # turns, until the host has been called again after their own last order
        await _settled(table)
        state = table.state(gid)
        if table.row(gid)["status"] != "active" or host.id not in [users[s] for s in game.to_act(state)]:
            break
        # the host opens a panel; bob gives his order (the board moves on); the host gives the
        # last order from the panel opened before
        panel = await open_panel(table, host, board, gid)
        if bob.id in [users[s] for s in game.to_act(state)]:
            before = table.row(gid)["version"]
            await click_label(table, bob, await open_panel(table, bob, board, gid), "Pass / observe")
            await table.moved_and_shown(gid, before)
        mark = time.monotonic()
        version = table.row(gid)["version"]
        ex = await click_label(table, host, panel, "Pass / observe")  # the turn resolves
        await table.moved_and_shown(gid, version)  # committed and its board shown, not only quiet
        await _quiet(table, ex)
        next_turn = [users[s] for s in game.to_act(table.state(gid))]
        pinged = pings_since(table, mark)
        assert host.id not in pinged, "the mover is looking at their panel"
        assert pinged == [u for u in next_turn if u != host.id] or table.row(gid)["status"] != "active"
        host_again += host.id in next_turn
        board = table.board_of(table.fd.messages()) or board
        if host_again:
            break
    assert host_again, "the host was called again after giving the last order (else nothing was tested)"


async def test_a_league_table_opens_with_one_ping_per_player(table):
    fd = table.fd
    boss = fd.owner
    players = [fd.add_user(5001 + i, f"player{i}") for i in range(2)]
    await table.start()
    ex = await fd.slash(boss, "league new", {"game": "armor_clash", "name": "Cup", "format": "swiss", "rounds": 1})
    await reply(fd, ex)
    signup = await signup_post(fd)
    for p in players:
        await reply(fd, await fd.click(p, signup, "tg:lg:1:join"))
    mark = time.monotonic()
    ex = await fd.slash(boss, "league start", {"name": "Cup"})
    await reply(fd, ex)
    await until(lambda: table.sql("SELECT COUNT(*) FROM games")[0][0] == 1 and table.deliver is not None)
    gid = table.sql("SELECT id FROM games")[0][0]
    await until(lambda: any(m.attachments for m in fd.messages(table.row(gid)["channel_id"])))
    await ex.wait_idle(quiet=0.3, timeout=30)
    pinged = pings_since(table, mark)
    assert sorted(pinged) == sorted(p.id for p in players), f"one ping per player: {pinged}"


async def test_a_board_the_outbox_posts_after_an_outage_does_not_ping_the_member_who_moved(table):
    """The last crew's order resolves the turn during a Discord outage: the board the
    outbox posts afterwards pings the other crew once, and not the mover (who gives
    orders again in the new turn)."""
    from test_e2e_outbox import _virtual_time

    _virtual_time(table)
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "armor_clash", [bob])
    game = get_game("armor_clash")
    users = table.seat_user(gid)
    for _ in range(6):  # turns, until the host is called again after giving the last order
        await _settled(table)
        state = table.state(gid)
        if table.row(gid)["status"] != "active" or host.id not in [users[s] for s in game.to_act(state)]:
            break
        panel = await open_panel(table, host, board, gid)
        if bob.id in [users[s] for s in game.to_act(state)]:
            before = table.row(gid)["version"]
            await click_label(table, bob, await open_panel(table, bob, board, gid), "Pass / observe")
            await table.moved_and_shown(gid, before)
        end = table.fd.outage(60)  # every channel post fails for 60 s
        mark = time.monotonic()
        version = table.row(gid)["version"]
        ex = await click_label(table, host, panel, "Pass / observe")  # resolves the turn: its board fails
        await until(lambda v=version: table.row(gid)["version"] > v)  # committed (its board still owed)
        await ex.wait_idle(quiet=0.1, timeout=30)
        for _ in range(40):  # the scheduler's passes until the outbox has posted it
            table.clock.now += 5
            await table.deliver()
            if table.clock.now > end + 130:
                break
        await _settled(table)
        next_turn = [users[s] for s in game.to_act(table.state(gid))]
        pinged = pings_since(table, mark)
        if table.row(gid)["status"] == "active" and host.id in next_turn:
            assert host.id not in pinged, "the mover is not pinged by the board posted for their move"
            assert pinged == [u for u in next_turn if u != host.id], pinged
            return
        board = table.board_of(table.fd.messages()) or board
    raise AssertionError("the host was never called again after giving the last order")

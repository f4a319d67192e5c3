"""The lobby: Join / Leave / Add AI / Start / Cancel, for a multi-player game."""

from __future__ import annotations

from engine import get_game


def _thread_id(thread) -> int:
    return int(thread["id"]) if isinstance(thread, dict) else int(thread)


async def open_lobby(table, host, game="thunder_road", **opts):
    ex = await table.fd.slash(host, "game new", {"game": game, **opts})
    lobby = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 5, "lobby")
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    return gid, lobby


async def click_and_settle(table, user, msg, cid):
    ex = await table.fd.click(user, msg, cid)
    await ex.wait_response()
    return ex


async def test_join_leave_ai_start(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, lobby = await open_lobby(table, host)
    assert table.row(gid)["status"] == "lobby" and "(lobby)" in lobby.text
    assert "Press Join to take a seat" in lobby.text
    await click_and_settle(table, bob, lobby, f"tg:l:{gid}:join")
    assert table.seat_user(gid) == {"p1": 101, "p2": 102}
    assert "<@102>" in lobby.text, "the lobby message shows the new seat"
    ex = await click_and_settle(table, bob, lobby, f"tg:l:{gid}:join")
    assert "已经入座" in (await table.wait_ephemeral(ex)).content  # in bob's language
    ex = await click_and_settle(table, bob, lobby, f"tg:l:{gid}:start")
    assert "房主" in (await table.wait_ephemeral(ex)).content  # only the host starts
    ex = await table.fd.select(carol, lobby, f"tg:la:{gid}", ["easy"])  # Add AI, at a level
    await ex.wait_response()
    assert "Only the host" in (await table.wait_ephemeral(ex)).content
    await click_and_settle(table, bob, lobby, f"tg:l:{gid}:leave")
    assert table.seat_user(gid) == {"p1": 101}
    await click_and_settle(table, carol, lobby, f"tg:l:{gid}:join")
    await (await table.fd.select(host, lobby, f"tg:la:{gid}", ["easy"])).wait_response()
    assert table.seat_user(gid) == {"p1": 101, "p2": 103, "p3": None}
    ex = await table.fd.click(host, lobby, f"tg:l:{gid}:start")
    board = await table.wait_board(ex)
    assert table.row(gid)["status"] == "active"
    assert not lobby.custom_ids, "the lobby loses its buttons once the game starts"
    # the lobby's words follow its state: nobody is asked to join a running game
    assert "Press Join" not in lobby.text and "The game is on with 3 players" in lobby.text
    to_act = {table.seat_user(gid)[s] for s in get_game("thunder_road").to_act(table.state(gid))} - {None}
    # the seats to act are pinged, but the host: they pressed Start and are looking at it (issue 29.6)
    assert board.png() and set(board.pinged) == to_act - {101} and 101 not in board.pinged
    assert not table.fd.violations


async def test_cancel_frees_the_channel_and_full_table_refuses(table):
    host = table.fd.add_user(101, "host")
    others = [table.fd.add_user(200 + i, f"u{i}") for i in range(5)]
    await table.start()
    gid, lobby = await open_lobby(table, host, game="automobile")
    for u in others[:4]:
        await click_and_settle(table, u, lobby, f"tg:l:{gid}:join")
    ex = await click_and_settle(table, others[4], lobby, f"tg:l:{gid}:join")
    assert "full" in (await table.wait_ephemeral(ex)).content
    ex = await click_and_settle(table, others[0], lobby, f"tg:l:{gid}:cancel")
    assert "Only the host" in (await table.wait_ephemeral(ex)).content
    await click_and_settle(table, host, lobby, f"tg:l:{gid}:cancel")
    assert table.row(gid)["status"] == "abandoned"
    gid2, _ = await open_lobby(table, host, game="thunder_road", ai=2)
    assert gid2 != gid and table.seat_user(gid2) == {"p1": 101, "p2": None, "p3": None}


async def test_bad_options_and_ai_count_are_refused_privately(table):
    host = table.fd.add_user(101, "host")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "city_of_fury", "options": "hero=nobody"})
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral and "not valid" in msg.content
    ex = await table.fd.slash(host, "game new", {"game": "thunder_road", "ai": 9}, unchecked=True)
    assert (
        "between 0 and" in (await table.wait_ephemeral(ex)).content
        or "from 0 to" in (await table.wait_ephemeral(ex)).content
    )
    assert table.sql("SELECT COUNT(*) FROM games")[0][0] == 0


async def test_thread_option_opens_the_table_in_a_thread(table):
    host = table.fd.add_user(101, "host")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "city_of_fury", "thread": True})
    await ex.wait(
        lambda e: table.fd.threads and table.fd.messages(_thread_id(table.fd.threads[-1])), 20, "the thread's board"
    )
    assert table.fd.threads, "a thread was created"
    thread_id = _thread_id(table.fd.threads[-1])
    assert table.sql("SELECT channel_id FROM games")[0][0] == thread_id
    msgs = table.fd.messages(thread_id)
    assert msgs and msgs[-1].png()


async def test_lobby_shows_options_by_their_labels_in_the_tables_language_defaults_left_out(table):
    host = table.fd.add_user(101, "host")
    await table.start()
    gid, lobby = await open_lobby(table, host, options="start_face=b on_fire=true big_rig=false")
    assert "Start tile: Runway to Ruin" in lobby.text and "ON FIRE! tokens and fire die" in lobby.text
    assert "big_rig" not in lobby.text and "Big Rig" not in lobby.text, "a default is left out"
    assert "=" not in lobby.text and "False" not in lobby.text
    # Armor Clash stores its complete options: only what differs from the defaults is shown
    await click_and_settle(table, host, lobby, f"tg:l:{gid}:cancel")
    gid2, lobby2 = await open_lobby(table, host, game="armor_clash")
    assert "crews=" not in lobby2.text and "links" not in lobby2.text and "Options" not in lobby2.text
    assert not table.fd.violations


async def test_lobby_says_when_every_seat_is_taken(table):
    host = table.fd.add_user(101, "host")
    await table.start()
    gid, lobby = await open_lobby(table, host, game="automobile")
    for i in range(4):
        await click_and_settle(table, table.fd.add_user(200 + i, f"u{i}"), lobby, f"tg:l:{gid}:join")
    assert "Every seat is taken (5 players)" in lobby.text and "Press Join" not in lobby.text

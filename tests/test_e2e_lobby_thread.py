"""Issue 20 item 10: the lobby offers "Play in a thread" (the host moves the waiting
table into a thread on its lobby message), and a server setting makes a thread the
default (``/settings threads``: the table opens in one, its lobby offers no second).
Through the stand-in with the real discord.py client."""

from __future__ import annotations

from engine.i18n import t


async def _lobby(table, host, game="thunder_road"):
    ex = await table.fd.slash(host, "game new", {"game": game})
    lobby = await ex.wait(
        lambda e: next((m for m in e.messages + e.posted if not m.ephemeral and m.custom_ids), None), 20, "the lobby"
    )
    return table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0], lobby


async def test_the_host_moves_a_waiting_table_into_its_own_thread(table):
    fd = table.fd
    host, bob, carol = fd.add_user(101, "host"), fd.add_user(102, "bob"), fd.add_user(103, "carol")
    await table.start()
    gid, lobby = await _lobby(table, host)
    channel = table.row(gid)["channel_id"]
    assert f"tg:l:{gid}:thread" in lobby.custom_ids
    assert t("lobby.thread.button", "en") in str(lobby.data.get("components"))
    # another member may not move it: told why, privately; nothing changes
    ex = await fd.click(bob, lobby, f"tg:l:{gid}:thread")
    assert t("core.ui.host_only", "en") in (await table.wait_ephemeral(ex)).content
    assert table.row(gid)["channel_id"] == channel and not fd.threads
    # the host moves it
    await (await fd.click(host, lobby, f"tg:l:{gid}:thread")).wait_idle(quiet=0.2, timeout=20)
    (thread,) = fd.threads
    tid = int(thread["id"])
    assert table.row(gid)["channel_id"] == tid and table.row(gid)["status"] == "lobby"
    assert not lobby.custom_ids and f"<#{tid}>" in lobby.text, "the old lobby points to the thread, without buttons"
    moved = [m for m in fd.messages(tid) if m.custom_ids]
    assert len(moved) == 1
    new_lobby = moved[0]
    assert f"tg:l:{gid}:join" in new_lobby.custom_ids and f"tg:l:{gid}:thread" not in new_lobby.custom_ids
    # play goes on there: a member joins, the host starts, the board is posted in the thread
    await (await fd.click(carol, new_lobby, f"tg:l:{gid}:join")).wait_response()
    board = await table.wait_board(await fd.click(host, new_lobby, f"tg:l:{gid}:start"))
    assert board.channel_id == tid and table.row(gid)["status"] == "active"
    # /game status in the thread finds it; in the channel there is none now
    ex = await fd.slash(host, "game status", channel=tid)
    assert await table.wait_board(ex)
    assert not fd.violations


async def test_the_servers_thread_default_opens_the_table_in_one(table):
    fd = table.fd
    admin = fd.add_user(100, "admin", manage_guild=True)
    host = fd.add_user(101, "host")
    await table.start()
    ex = await fd.slash(admin, "settings threads", {"game": "thunder_road", "enabled": True})
    await table.wait_ephemeral(ex)
    gid, lobby = await _lobby(table, host)
    (thread,) = fd.threads
    assert lobby.channel_id == int(thread["id"]) == table.row(gid)["channel_id"]
    assert f"tg:l:{gid}:thread" not in lobby.custom_ids, "already in a thread: no second move"
    # a forged click of the button anyway: refused (it is not on that message), nothing changes
    ex = await fd.click(host, lobby, f"tg:l:{gid}:thread", force=True)
    assert "Nothing was changed" in (await table.wait_ephemeral(ex)).content
    assert len(fd.threads) == 1 and table.row(gid)["channel_id"] == int(thread["id"])


async def test_a_table_already_in_its_thread_is_not_moved_again(table):
    """The table service refuses a second move (a click racing the first, a forged one
    that passed Discord): nothing changes."""
    from tables import TurnRefused

    fd = table.fd
    host = fd.add_user(101, "host")
    await table.start()
    gid, lobby = await _lobby(table, host)
    await (await fd.click(host, lobby, f"tg:l:{gid}:thread")).wait_idle(quiet=0.2, timeout=20)
    row = table.row(gid)
    try:
        await table.bot.services.tables.to_thread(gid, host.id, 12345)
    except TurnRefused as exc:
        assert exc.text("zh") == t("lobby.thread.already", "zh")
    else:
        raise AssertionError("moved twice")
    assert table.row(gid) == row


async def test_the_store_moves_a_table_to_another_channel_on_both_backends(store):
    from store import Seat, VersionConflict

    row = await store.create_game(
        guild_id=1, channel_id=10, game="thunder_road", host_id=7, options={}, seed=1, seats=[Seat("p1", 7)]
    )
    version = await store.update_game(row.id, row.version, channel_id=11, table={"thread": True})
    moved = await store.get_game(row.id)
    assert (moved.channel_id, moved.version, moved.table) == (11, version, {"thread": True})
    assert (await store.active_game(11)).id == row.id and await store.active_game(10) is None
    try:  # compare-and-swap: a move on an old version changes nothing
        await store.update_game(row.id, row.version, channel_id=12)
    except VersionConflict:
        pass
    else:
        raise AssertionError("moved on a stale version")
    assert (await store.get_game(row.id)).channel_id == 11

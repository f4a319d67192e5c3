"""The outbox seen through Discord (issue 19 items 4 and 5): a committed change's
board and pings reach the channel exactly once, whatever Discord does meanwhile --
an outage of 502s, a reply lost after Discord served the post, a restart in the
middle -- and the player is told the truth about their move.

Time is the test's: the stand-in runs on ``table.clock`` (``fd.use_clock``), so a
60 s outage and discord.py's own waits between retries pass without real waiting."""

from __future__ import annotations

import asyncio
import time

from test_e2e_service import _advance_to, _after

from engine import get_game
from engine.i18n import t
from tables.rules.choices import choices

TR = get_game("thunder_road")
SAVED = t("discord.table.saved_pending", "en")


def _virtual_time(table) -> None:
    def advance(seconds: float) -> None:
        table.clock.now += seconds

    table.fd.use_clock(table.clock, advance)


async def _hand_off(table):
    """A two-player Thunder Road table at a decision that passes the turn on:
    (table id, board, user to click, choice index, version, the next players' ids)."""
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    board, seat, idx = await _advance_to(table, gid, board, same_seat=False)
    await _settled(table)
    user = table.fd.users[table.seat_user(gid)[seat]]
    state = table.state(gid)
    nxt = {table.seat_user(gid)[s] for s in TR.to_act(_after(state, seat, choices(TR, state, seat)[idx].chain))}
    return gid, board, user, idx, table.row(gid)["version"], {u for u in nxt if u}


async def _settled(table) -> None:
    """Wait until every board shown so far is confirmed (the outbox is empty)."""
    for _ in range(400):
        if table.sql("SELECT COUNT(*) FROM outbox") == [(0,)]:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"undelivered: {table.sql('SELECT * FROM outbox')}")


def _boards_of(table, gid: int, version: int) -> list:
    """Channel messages that are the board of ``gid`` at ``version`` (its buttons name it)."""
    marks = (f"tg:a:{gid}:{version}:", f"tg:s:{gid}:{version}:")
    return [
        m
        for m in table.fd.messages()
        if m.attachments and any(c.startswith(marks) for c in m.custom_ids + _first_ids(m))
    ]


def _first_ids(message) -> list[str]:
    """The custom ids a message was created with (a later board retires its buttons)."""
    first = message.versions[0] if message.versions else message.data
    from fakediscord import walk_components

    return [c["custom_id"] for c in walk_components(first.get("components") or []) if c.get("custom_id")]


def _pings_since(table, clicked: float) -> list[int]:
    return [u for m in table.fd.messages() if m.created_at > clicked for u in m.pinged]


async def test_a_60s_outage_shows_the_board_once_after_it_ends_and_pings_nobody_twice(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    end = table.fd.outage(60)  # every channel post answers 502 for 60 s (discord.py retries each 5 times)
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    note = await ex.wait(lambda e: next((m for m in e.followups if SAVED in m.content), None), 20, "the note")
    assert note.ephemeral and "nothing was changed" not in note.content
    assert table.row(gid)["version"] == version + 1, "the move is saved"
    assert table.fd.slept, "discord.py's own retries waited on the test's clock"
    delivered_at = None
    for _ in range(40):  # the scheduler's passes, 5 s apart, until two minutes after the outage
        table.clock.now += 5
        counts = await table.deliver()
        if counts["delivered"]:
            assert delivered_at is None, "delivered once"
            delivered_at = table.clock.now
        if table.clock.now > end + 120:
            break
    assert delivered_at is not None and delivered_at >= end, "posted once the outage was over"
    assert delivered_at - end <= 125, "within the backoff's longest wait"
    assert len(_boards_of(table, gid, version + 1)) == 1, "the board is shown exactly once"
    pings = _pings_since(table, clicked)
    assert sorted(pings) == sorted(nxt), f"each next player pinged once: {pings}"
    await _settled(table)


async def test_a_reply_lost_after_discord_posted_the_board_gives_one_board(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    # Discord posts the board, then the gateway in front of it answers 502: discord.py retries
    # the same request (same nonce) and is given the message it already made
    table.fd.fail_requests("POST", r"^/channels/\d+/messages$", status=502, code=0, message="Bad Gateway", lost=True)
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    await table.wait_board(ex)
    await ex.wait_idle(quiet=0.1)
    assert table.fd.nonce_repeats == 1, "the retry was answered with the first message"
    assert len(_boards_of(table, gid, version + 1)) == 1
    assert sorted(_pings_since(table, clicked)) == sorted(nxt)
    assert not [m for m in ex.followups if SAVED in m.content], "the board was shown: nothing to excuse"
    await _settled(table)


async def test_a_dropped_connection_after_the_post_gives_one_board_through_the_outbox(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    # Discord posts the board and the connection closes before the answer: the bot cannot know
    table.fd.fail_requests("POST", r"^/channels/\d+/messages$", status=502, lost="drop")
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    await ex.wait(lambda e: any(SAVED in m.content for m in e.followups), 20, "the note")
    assert len(_boards_of(table, gid, version + 1)) == 1, "Discord did post it"
    table.clock.now += 6
    assert (await table.deliver())["delivered"] == 1, "the outbox confirms it"
    assert table.fd.nonce_repeats == 0, "the board in the channel was found: not posted again (issue 28 item 13)"
    assert len(_boards_of(table, gid, version + 1)) == 1
    assert sorted(_pings_since(table, clicked)) == sorted(nxt), "nobody pinged twice"
    await _settled(table)


async def test_a_restart_in_the_middle_of_an_outage_still_delivers_the_board(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    end = table.fd.outage(60)
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    await ex.wait(lambda e: any(SAVED in m.content for m in e.followups), 20, "the note")
    await table.restart()  # a new process: it finds the undelivered board in the database
    while table.clock.now < end + 130:
        table.clock.now += 10
        await table.deliver()
    assert len(_boards_of(table, gid, version + 1)) == 1
    assert sorted(_pings_since(table, clicked)) == sorted(nxt)
    await _settled(table)


async def test_a_timer_move_during_an_outage_is_shown_after_it_with_its_note(table):
    _virtual_time(table)
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, _board = await table.open_table(host, "thunder_road", [bob], timer=5, remind=0)
    version = table.row(gid)["version"]
    waiting = table.seat_user(gid)[TR.to_act(table.state(gid))[0]]
    table.clock.advance(6)  # the turn timer ran out
    end = table.fd.outage(60)
    counts = await table.tick()
    assert counts["timeouts"] == 1 and table.row(gid)["version"] > version, "the timer's move is saved"
    assert not [m for m in table.fd.messages() if "Time ran out" in m.text]
    while table.clock.now < end + 130:
        table.clock.now += 10
        await table.deliver()
    shown = [m for m in table.fd.messages() if "Time ran out" in m.text]
    assert len(shown) == 1 and shown[0].attachments and waiting in shown[0].mentions


async def test_a_superseded_board_is_not_posted(table):
    _virtual_time(table)
    gid, board, user, idx, version, _ = await _hand_off(table)
    table.fd.outage(60)
    ex = await table.choose(user, board, gid, idx, version)
    await ex.wait(lambda e: any(SAVED in m.content for m in e.followups), 20, "the note")
    await table.play_ai(gid, steps=3)  # later moves, saved while Discord is down (their boards fail too)
    newest = table.row(gid)["version"]
    assert newest > version + 1
    table.clock.now += 200
    assert (await table.deliver())["delivered"] == 1
    assert _boards_of(table, gid, version + 1) == [], "the superseded board is never posted"
    assert len(_boards_of(table, gid, newest)) == 1, "only the table's newest"


# ----------------------------------------------------------- item 4: the truth
async def test_a_store_failing_after_the_commit_tells_the_player_the_move_counts(table, monkeypatch):
    """The move is committed, then the database stops answering (PostgreSQL dropping
    between COMMIT and drawing the board): "your move counts", never "nothing was
    changed"; the board goes out once the store is back."""
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    store = table.bot.services.store
    real = store.outbox

    async def gone(*args, **kw):
        from store import StoreError

        raise StoreError("the database stopped answering")

    monkeypatch.setattr(store, "outbox", gone)
    ex = await table.choose(user, board, gid, idx, version)
    note = await ex.wait(lambda e: next((m for m in e.followups if m.ephemeral), None), 20, "a private answer")
    assert SAVED in note.content and t("core.ui.internal", "en") not in note.content
    assert table.row(gid)["version"] == version + 1
    assert _boards_of(table, gid, version + 1) == []
    monkeypatch.setattr(store, "outbox", real)
    table.clock.now += table.bot.services.tables.lease  # the lease of the failed attempt runs out
    assert (await table.deliver())["delivered"] == 1
    assert len(_boards_of(table, gid, version + 1)) == 1


async def test_a_commit_whose_answer_is_lost_is_told_as_unknown_and_the_board_shows_the_truth(table):
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    table.bot.services.store.inject_crash("committed")  # COMMIT lands; its answer does not
    ex = await table.choose(user, board, gid, idx, version)
    note = await ex.wait(lambda e: next((m for m in e.followups if m.ephemeral), None), 20, "a private answer")
    assert note.content == t("discord.table.commit_unknown", "en")
    assert table.row(gid)["version"] == version + 1, "it did land"
    table.clock.now += table.bot.services.tables.lease
    assert (await table.deliver())["delivered"] == 1
    shown = _boards_of(table, gid, version + 1)
    assert len(shown) == 1 and sorted(shown[0].pinged) == sorted(nxt), "the board shows the truth"


async def test_a_lobby_join_whose_lobby_edit_fails_is_told_done_and_the_lobby_shown_anew(table):
    _virtual_time(table)
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "thunder_road"})
    lobby = await ex.wait(
        lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "lobby"
    )
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    done = t("discord.lobby.done_reposted", "en")
    for user, status, code in ((bob, 500, 0), (carol, 404, 10008)):
        # Discord fails the lobby edit (500), or the lobby message was deleted (404)
        table.fd.fail_requests("PATCH", r"^/webhooks/\d+/[^/]+/messages/@original$", status, code, "failed", times=5)
        ex = await table.fd.click(user, lobby, f"tg:l:{gid}:join")
        note = await ex.wait(lambda e: next((m for m in e.followups if m.ephemeral), None), 20, "a private answer")
        assert note.content == done, note.content
        assert user.id in table.seat_user(gid).values(), "seated"
        mention = f"<@{user.id}>"
        lobby = await table.fd.wait_message(
            table.fd.channel_id, lambda m, mention=mention: mention in m.text and f"tg:l:{gid}:join" in m.custom_ids
        )
    assert len(table.seat_user(gid)) == 3


async def test_two_bots_on_one_postgresql_database_post_each_board_once(table, pg_database):
    """Two bot processes (two real discord.py clients, two connection pools) on one
    database: every board the outbox owes is claimed by one of them and posted once."""
    from bot import Config, create_bot

    _virtual_time(table)
    host = table.fd.add_user(101, "host")
    bots = []
    for _ in range(2):
        config = Config(token="t", database=pg_database, sync="auto", scheduler=False)
        bot = create_bot(config, clock=table.clock, guild_ready_timeout=0.05)
        bot.services.flood = None
        await table.fd.start(bot)
        bots.append(bot)
    a, b = bots
    channels = [table.fd.add_channel(f"t{i}") for i in range(6)]
    tables = []
    for channel in channels:  # solo tables that start at once: each owes its first board
        opened = await a.services.tables.open_table(
            guild_id=table.fd.guild_id,
            channel_id=channel,
            game_id="city_of_fury",
            host_id=host.id,
            options={},
            ai=0,
            seed=5,
            locale="en",
            table={},
        )
        assert opened.started is not None
        tables.append(opened.row.id)
    table.clock.now += a.services.tables.lease  # process a never showed them (it "died")
    counts = await asyncio.gather(a.get_cog("Outbox").tick(table.clock()), b.get_cog("Outbox").tick(table.clock()))
    assert sum(c["delivered"] for c in counts) == len(tables), counts
    for channel in channels:
        boards = [m for m in table.fd.messages(channel) if m.attachments]
        assert len(boards) == 1 and host.id in boards[0].pinged, f"channel {channel}: {boards}"
    counts = await asyncio.gather(a.get_cog("Outbox").tick(table.clock()), b.get_cog("Outbox").tick(table.clock()))
    assert sum(c["delivered"] for c in counts) == 0
    for bot in bots:
        await table.fd.stop(bot)


# ------------------------------------------- issue 28 item 13: after the nonce window
async def test_a_post_whose_answer_was_lost_is_not_posted_again_after_the_nonce_window(table):
    """Discord posted the board and the connection closed before its answer; the next
    try comes after Discord forgot the nonce (an outage over 5 minutes, a process down
    that long): the board already in the channel is the delivery, nothing is posted twice."""
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    table.fd.fail_requests("POST", r"^/channels/\d+/messages$", status=502, lost="drop")
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    await ex.wait(lambda e: any(SAVED in m.content for m in e.followups), 20, "the note")
    assert len(_boards_of(table, gid, version + 1)) == 1, "Discord did post it"
    table.clock.now += table.fd.nonce_window + 60  # Discord no longer knows the nonce
    assert (await table.deliver())["delivered"] == 1
    assert table.fd.nonce_repeats == 0
    assert len(_boards_of(table, gid, version + 1)) == 1, "no second board"
    assert sorted(_pings_since(table, clicked)) == sorted(nxt), "nobody pinged twice"
    await _settled(table)


async def test_a_board_posted_whose_older_boards_were_not_retired_is_finished_without_a_repost(table):
    """The board was posted (Discord said so), then retiring the older boards failed and the
    bot was down past the nonce window: the retry finishes the retirement, posts nothing."""
    _virtual_time(table)
    gid, board, user, idx, version, nxt = await _hand_off(table)
    end = table.fd.outage(600, "GET", r"^/channels/\d+/messages$", status=503)  # reading the channel fails
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    await table.wait_board(ex)
    assert len(_boards_of(table, gid, version + 1)) == 1
    for _ in range(400):  # the outbox remembers the message (and keeps the row: older boards are still live)
        if table.sql("SELECT message_id IS NOT NULL FROM outbox WHERE game_id=?", gid) == [(1,)]:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"not remembered: {table.sql('SELECT * FROM outbox')}")
    await table.restart()
    table.clock.now = max(table.clock.now, end) + table.fd.nonce_window + 60
    assert (await table.deliver())["delivered"] == 1
    assert table.fd.nonce_repeats == 0
    assert len(_boards_of(table, gid, version + 1)) == 1, "no second board"
    assert sorted(_pings_since(table, clicked)) == sorted(nxt), "nobody pinged twice"
    live = [m for m in table.fd.messages() if m.custom_ids and any(c.startswith(f"tg:a:{gid}:") for c in m.custom_ids)]
    assert len(live) == 1, "one live board: the older one was retired"
    await _settled(table)

"""A vote opened while Discord is down is still asked (issue 28 item 12), through the
stand-in with the real bot: a time bank's expiry vote and an undo vote opened during a
120 s outage (Discord refusing every message post, longer than discord.py's own
retries) reach the channel once Discord is back, exactly once, pinging whom they ask
once -- and so the vote can be answered instead of blocking a new one.

Time is the test's: the stand-in runs on ``table.clock``, so the outage and
discord.py's waits between retries pass without real waiting."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t

ALL_POSTS = r"^/(channels/\d+/messages|webhooks/\d+/[^/]+)$"


def _virtual_time(table) -> None:
    def advance(seconds: float) -> None:
        table.clock.now += seconds

    table.fd.use_clock(table.clock, advance)


async def _deliver_until(table, end: float) -> None:
    """The outbox's passes, 10 s apart, until two minutes after ``end``."""
    while table.clock.now < end + 130:
        table.clock.now += 10
        await table.deliver()


def _asking(table, vid: int) -> list:
    return [m for m in table.fd.messages() if any(c.startswith(f"tg:vote:{vid}:") for c in m.custom_ids)]


async def test_an_expiry_vote_opened_during_an_outage_is_asked_once_after_it(table):
    _virtual_time(table)
    alice = table.fd.add_user(101, "alice", manage_guild=True)
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    ex = await table.fd.slash(alice, "settings clock", {"profile": "blitz", "policy": "vote"})
    await ex.wait_response()
    gid, _board = await table.open_table(alice, "thunder_road", joiners=[bob, carol])
    waiting = table.sql("SELECT user_id FROM turn_clocks WHERE game_id=?", gid)[0][0]
    table.clock.advance(61)
    end = table.fd.outage(120, status=503)
    assert (await table.tick())["timeouts"] == 1
    [(vid,)] = table.sql("SELECT id FROM votes WHERE game_id=? AND status='open'", gid)
    assert _asking(table, vid) == [], "Discord was down: not posted yet"
    await _deliver_until(table, end)
    asks = _asking(table, vid)
    assert len(asks) == 1, "asked exactly once after the outage"
    voters = {u for u in (101, 102, 103) if u != waiting}
    assert set(asks[0].pinged) == {waiting, *voters}, "whom it asks, in its one message"
    assert table.sql("SELECT COUNT(*) FROM outbox_messages") == [(0,)]
    # the vote can be answered: it passes and the seat goes to the AI
    yes = next(c for c in asks[0].custom_ids if c.endswith(":yes"))
    for uid in voters:
        ex = await table.fd.click(table.fd.users[uid], asks[0], yes)
        await ex.wait_response()
    for _ in range(3):
        await _deliver_until(table, table.clock.now)
        if table.sql("SELECT seat FROM seats WHERE game_id=? AND user_id IS NULL", gid):
            break
    assert table.sql("SELECT status FROM votes WHERE id=?", vid) == [("passed",)]
    assert not table.fd.violations


async def test_an_undo_vote_opened_during_an_outage_is_asked_once_after_it(table):
    _virtual_time(table)
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob])
    users = table.seat_user(gid)
    first = get_game("thunder_road").to_act(table.state(gid))[0]

    def acted(tb):
        return tb.sql("SELECT COUNT(*) FROM actions WHERE game_id=? AND seat!=?", gid, first)[0][0] > 0

    await table.play_ai(gid, until=acted)
    mover = table.fd.users[users[first]]
    other = alice if mover.id == bob.id else bob
    end = table.fd.outage(120, path_regex=ALL_POSTS, status=503)  # channel posts and followups
    ex = await table.fd.slash(mover, "game undo")
    await ex.wait(lambda e: table.sql("SELECT COUNT(*) FROM votes WHERE game_id=?", gid) == [(1,)], 20, "a vote")
    [(vid,)] = table.sql("SELECT id FROM votes WHERE game_id=?", gid)
    await ex.wait_idle(quiet=0.1, timeout=20)
    assert _asking(table, vid) == [], "Discord was down: not posted yet"
    await _deliver_until(table, end)
    asks = _asking(table, vid)
    assert len(asks) == 1, "asked exactly once after the outage"
    assert asks[0].pinged == [other.id], "the member asked is pinged once"
    assert t("play.vote.undo", "en", user=f"<@{mover.id}>", voters=f"<@{other.id}>") in asks[0].content
    assert table.sql("SELECT COUNT(*) FROM outbox_messages") == [(0,)]
    ex = await table.fd.click(other, asks[0], next(c for c in asks[0].custom_ids if c.endswith(":yes")))
    await table.wait_board(ex)
    assert table.sql("SELECT status FROM votes WHERE id=?", vid) == [("passed",)]


async def test_hands_dealt_during_an_outage_reach_every_player_once_after_it(table):
    """An Automobile table started while Discord refuses direct messages (opening a DM
    channel answers 503 for 120 s): each player gets their hand once Discord is back."""
    _virtual_time(table)
    players = [table.fd.add_user(300 + i, name) for i, name in enumerate(("tycoon", "wei", "otto"))]
    await table.start()
    end = table.fd.outage(120, path_regex=r"^/users/@me/channels$", status=503)
    gid, _board = await table.open_table(players[0], "automobile", players[1:])
    assert [table.fd.dm_channel(p) for p in players] == [None, None, None], "Discord was down: no DM yet"
    await _deliver_until(table, end)
    for p in players:
        channel = table.fd.dm_channel(p)
        assert channel is not None, f"{p.name} got no hand"
        got = table.fd.messages(channel)
        assert len(got) == 1, f"{p.name}: exactly one DM, not {len(got)}"
        assert f"/t/{gid}" in got[0].content or str(gid) in got[0].content
    assert table.sql("SELECT COUNT(*) FROM outbox_messages") == [(0,)]
    await _deliver_until(table, table.clock.now)
    assert all(len(table.fd.messages(table.fd.dm_channel(p))) == 1 for p in players), "and never again"

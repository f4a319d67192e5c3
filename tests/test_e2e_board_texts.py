"""Small texts a new player reads on a board (issue 29 item 11), through the stand-in:
a board that is no longer the table's current one (a newer board posted, the table
abandoned) no longer says whose turn it is."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t


def _turn_words(locale: str = "en") -> str:
    """The words "your turn in" of a board's turn line (in ``locale``)."""
    return t("discord.ping.your_turn", locale, user="", where="", what="").strip(" ,:")


async def test_a_retired_or_abandoned_board_no_longer_says_your_turn(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, first = await table.open_table(alice, "thunder_road", [bob])
    words = _turn_words()
    assert words and words in table.fd.message(first.id).text, table.fd.message(first.id).text
    # /game status posts the board again: the first one is retired
    ex = await table.fd.slash(bob, "game status")
    await ex.wait(lambda e: bool(e.posted) or any(m.attachments for m in e.messages), 20, "the board again")
    await table.fd.wait_message(predicate=lambda m: m.id == first.id and not m.custom_ids, timeout=20)
    retired = table.fd.message(first.id)
    assert words not in retired.text and "<@" not in retired.text, retired.text
    assert retired.attachments or "board.png" in str(retired.components), "the picture stays"
    current = [m for m in table.fd.messages() if not m.ephemeral and m.custom_ids and m.id != first.id]
    assert current and words in current[-1].text, "the current board says whose turn it is"
    # the table is abandoned: no board of it says anyone's turn
    mod = table.fd.add_user(103, "mod", manage_guild=True)
    ex = await table.fd.slash(mod, "game abandon")
    await ex.wait(lambda e: any("abandoned" in m.content for m in e.messages + e.posted), 20, "the announcement")
    assert table.row(gid)["status"] == "abandoned"
    await table.fd.wait_message(predicate=lambda m: m.id == current[-1].id and not m.custom_ids, timeout=20)
    stale = [m.text for m in table.fd.messages() if not m.ephemeral and words in m.text]
    assert not stale, stale
    assert not table.fd.violations


async def _give_orders(table, user, board, gid, seat):
    """``user`` opens their crew's panel from ``board`` and gives its whole order (the AI's
    picks); returns the panel as it reads after the last pick."""
    game = get_game("armor_clash")
    ex = await table.fd.click(user, board, next(c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")))
    panel = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")
    turn = table.state(gid).turn
    while seat in game.to_act(table.state(gid)) and table.state(gid).turn == turn:
        version = table.row(gid)["version"]
        ex = await table.choose(user, panel, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), version)
        await ex.wait(lambda e: e.edits or e.followups, 20, "the pick's reply")
        await ex.wait_idle(quiet=0.2, timeout=20)
    if table.state(gid).turn == turn:  # locked in, the others still choosing: the panel says so
        committed = t("core.ui.committed", "en")
        await ex.wait(lambda e: committed in table.fd.message(panel.id).text, 20, "the locked-in panel")
    return table.fd.message(panel.id)


async def test_a_locked_in_crews_panel_has_a_way_on_once_the_turn_resolves(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, "armor_clash", [bob])
    seats = {u: s for s, u in table.seat_user(gid).items()}
    locked = await _give_orders(table, alice, board, gid, seats[101])
    assert t("core.ui.committed", "en") in locked.text, locked.text
    button = next(b for b in locked.buttons if b["label"] == t("discord.panel.next", "en"))
    turn = table.state(gid).turn
    await _give_orders(table, bob, board, gid, seats[102])  # the last crew: the turn resolves
    assert table.state(gid).turn == turn + 1
    ex = await table.fd.click(alice, locked, button["custom_id"])
    if table.row(gid)["status"] == "finished":  # the turn's fire ended the battle (the table's seed): she is told so
        said = (await table.wait_ephemeral(ex)).content
        assert said == t("play.refuse.finished", "en", id=gid), said
    elif seats[101] in _to_act(table, gid):  # her next orders
        panel = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "next")
        assert table.live_panel(panel, gid, table.row(gid)["version"]), panel.text
    else:  # the new turn starts with Bob's decision alone: she is told so, and whose it is
        said = (await table.wait_ephemeral(ex)).content
        assert "Bob" in said and "not your turn" in said, said
    assert not table.fd.violations


async def test_a_done_reply_says_what_was_done_not_a_bare_ok(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob])
    seat = next(s for s, u in table.seat_user(gid).items() if u is not None and s in _to_act(table, gid))
    user = alice if table.seat_user(gid)[seat] == 101 else bob
    locale = "en" if user is alice else "zh"
    version = table.row(gid)["version"]
    choices = await table.fd.autocomplete(user, "play", {"action": ""}, focused="action")
    ex = await table.fd.slash(user, "play", {"action": choices[0]["value"]})
    reply = (await table.wait_ephemeral(ex)).content
    assert reply == t("discord.panel.done", locale) and reply != t("core.ui.ok", locale), reply
    assert table.row(gid)["version"] != version
    ex = await table.fd.slash(bob, "game resign")
    reply = (await table.wait_ephemeral(ex)).content
    assert reply == t("core.done.resigned", "zh") and reply != t("core.ui.ok", "zh"), reply
    assert table.seat_user(gid)[next(s for s, u in table.seat_user(gid).items() if u is None)] is None


def _to_act(table, gid):
    return get_game(table.row(gid)["game"]).to_act(table.state(gid))

"""Small texts a new player reads on a board (issue 29 item 11), through the stand-in:
a board that is no longer the table's current one (a newer board posted, the table
abandoned) no longer says whose turn it is."""

from __future__ import annotations

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

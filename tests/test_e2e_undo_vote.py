"""A decided undo vote is told (issue 29 item 4), through the stand-in with the real bot:
a passed vote's board says what was taken back and at whose request (and who agreed),
and the vote message keeps its question and closes with its outcome (passed, failed,
expired), its buttons gone."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t


async def _vote_on_a_table(table):
    """Two players at Thunder Road; the first has moved and the other acted since, and
    the first asks to take their move back: (table id, mover, other, vote message)."""
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
    ex = await table.fd.slash(mover, "game undo")
    vote = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "vote")
    await ex.wait_idle(quiet=0.1, timeout=20)
    return gid, mover, other, vote


def _button(vote, suffix: str) -> str:
    return next(c for c in vote.custom_ids if c.endswith(suffix))


async def test_a_passed_undo_vote_says_what_was_taken_back_and_closes_its_message(table):
    gid, mover, other, vote = await _vote_on_a_table(table)
    question = vote.content
    version = table.row(gid)["version"]
    ex = await table.fd.click(other, vote, _button(vote, ":yes"))
    board = await table.wait_board(ex)
    await ex.wait_idle(quiet=0.1, timeout=20)
    assert table.row(gid)["version"] > version and table.sql("SELECT COUNT(*) FROM reverts")[0][0] > 0
    # the board says it: taken back, at the mover's request, who agreed, how much
    steps = table.sql("SELECT COUNT(*) FROM reverts")[0][0]
    said = t("play.vote.undone", "en", user=f"<@{mover.id}>", agreed=f"<@{other.id}>", steps=steps)
    assert said in board.text, board.text
    # the vote message keeps its question and closes with the outcome, without buttons
    assert vote.content.startswith(question) and t("play.vote.closed_passed", "en") in vote.content
    assert vote.custom_ids == []
    # and the log keeps it, where it happened, for everyone at the table
    ex = await table.fd.slash(other, "game log")
    log = (await table.wait_ephemeral(ex)).content
    line = next((x for x in log.splitlines() if x.startswith("↩")), "")
    assert "Taken back at" in line and mover.name in line.lower() and f"({steps} steps)" in line, log
    assert log.splitlines()[-1] == line, "the undo is the last thing that happened"
    assert not table.fd.violations


async def test_a_refused_undo_vote_closes_its_message_as_failed(table):
    gid, mover, other, vote = await _vote_on_a_table(table)
    version = table.row(gid)["version"]
    ex = await table.fd.click(other, vote, _button(vote, ":no"))
    await ex.wait_idle(quiet=0.1, timeout=20)
    assert table.row(gid)["version"] == version
    closed = t("play.vote.closed_refused", "en", user=f"<@{other.id}>")
    assert closed in vote.content and vote.custom_ids == []


async def test_an_undo_vote_that_no_longer_applies_closes_its_message_as_expired(table):
    gid, mover, other, vote = await _vote_on_a_table(table)
    # the mover decides again: the vote asks about a decision that is no longer their last
    game = get_game("thunder_road")
    users = table.seat_user(gid)
    await table.play_ai(gid, until=lambda tb: users[game.to_act(tb.state(gid))[0]] != mover.id)
    await table.play_ai(gid, until=lambda tb: users[game.to_act(tb.state(gid))[0]] == mover.id)
    await table.bot.services.tables.act(gid, mover.id, lambda g, st, s, legal: g.ai_action(st, s))
    ex = await table.fd.click(other, vote, _button(vote, ":yes"))
    await ex.wait_idle(quiet=0.1, timeout=20)
    assert t("play.vote.closed_expired", "en") in vote.content and vote.custom_ids == []

"""The table service seen through Discord: a saved move is never reported as
lost, a bad table is set aside with a clear message, export and replay find
the channel's last finished table."""

from __future__ import annotations

import json
import sqlite3
import time

from engine import get_game
from tables.rules.choices import choices

TR = get_game("thunder_road")
SAVED = "Your move counts"


def _after(state, seat, chain):
    for i in chain:
        state, _ = TR.apply(state, seat, TR.legal_actions(state, seat)[i])
    return state


def _step(table, gid, same_seat: bool):
    """The board choice (tables/rules/choices.py) beginning with the AI's decision at
    ``gid`` if it keeps (or passes) the turn as asked, else None."""
    state = table.state(gid)
    seat = TR.to_act(state)[0]
    idx = table.choice_for(gid, seat, TR.legal_actions(state, seat).index(TR.ai_action(state, seat)))
    after = _after(state, seat, choices(TR, state, seat)[idx].chain)
    keeps = TR.to_act(after) == [seat]
    return (seat, idx) if keeps == same_seat else None


async def _advance_to(table, gid, board, same_seat: bool):
    """Play buttons until the next decision keeps (or passes) the turn; returns (board, seat, index)."""
    for _ in range(200):
        found = _step(table, gid, same_seat)
        if found:
            return board, found[0], found[1]
        seat = TR.to_act(table.state(gid))[0]
        user = table.fd.users[table.seat_user(gid)[seat]]
        version = table.row(gid)["version"]
        ex = await table.choose(user, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), version)
        board = await table.next_board(ex, gid, version)
    raise AssertionError("no such decision")


async def test_a_saved_move_whose_board_edit_fails_is_reported_as_saved_and_reposted(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    board, seat, idx = await _advance_to(table, gid, board, same_seat=True)
    user = table.fd.users[table.seat_user(gid)[seat]]
    version = table.row(gid)["version"]
    before = len(table.fd.messages())
    # the board is edited in place for the same player's next step: Discord refuses the edit
    table.fd.fail_requests("PATCH", r"^/webhooks/\d+/[^/]+/messages/@original$")
    ex = await table.choose(user, board, gid, idx, version)
    note = await ex.wait(
        lambda e: next((m for m in e.followups if m.ephemeral and SAVED in m.content), None), 20, "note"
    )
    assert note.ephemeral and "Something went wrong" not in note.content
    assert table.row(gid)["version"] == version + 1, "the move was saved once"
    assert table.fd.injected, "the edit really failed"
    posted = await table.fd.wait_message(
        table.fd.channel_id,
        lambda m: (
            m.attachments
            and any(f"tg:a:{gid}:{version + 1}:" in c or f"tg:s:{gid}:{version + 1}:" in c for c in m.custom_ids)
        ),
    )
    assert len(table.fd.messages()) > before and posted.png()


async def test_a_saved_hand_off_whose_board_post_fails_still_pings_the_next_player(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    board, seat, idx = await _advance_to(table, gid, board, same_seat=False)
    user = table.fd.users[table.seat_user(gid)[seat]]
    version = table.row(gid)["version"]
    state = table.state(gid)
    nxt = [table.seat_user(gid)[s] for s in TR.to_act(_after(state, seat, choices(TR, state, seat)[idx].chain))]
    # the new board goes out to the channel: Discord answers 503 once
    table.fd.fail_requests("POST", r"^/channels/\d+/messages$", status=503, code=0, message="503: Service Unavailable")
    clicked = time.monotonic()
    ex = await table.choose(user, board, gid, idx, version)
    note = await ex.wait(
        lambda e: next((m for m in e.followups if m.ephemeral and SAVED in m.content), None), 20, "the note"
    )
    assert "posted in the channel as soon as" in note.content and "nothing was changed" not in note.content
    assert table.row(gid)["version"] == version + 1
    assert not [m for m in table.fd.messages() if m.attachments and m.pinged and m.created_at > clicked]
    table.clock.advance(1)  # the outbox's first wait is 5 s
    assert (await table.deliver())["delivered"] == 1
    posted = await table.fd.wait_message(
        table.fd.channel_id, lambda m: bool(m.attachments and m.pinged), after=clicked, timeout=20
    )
    assert set(posted.pinged) == {u for u in nxt if u}, "the next player is still pinged"
    assert (await table.deliver())["delivered"] == 0, "delivered once"


async def test_a_table_whose_state_cannot_be_loaded_is_set_aside_with_a_clear_message(table, caplog):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games")[0][0]
    # a stored state the engine cannot read (e.g. written by a newer version)
    with sqlite3.connect(table.db) as con:
        con.execute("UPDATE games SET state_json=? WHERE id=?", (json.dumps({"nonsense": [1, 2]}), gid))
    version = table.row(gid)["version"]
    ex = await table.choose(alice, board, gid, 0, version)
    msg = await table.wait_ephemeral(ex)
    assert f"Table #{gid} could not be read" in msg.content
    assert table.row(gid)["status"] == "quarantined"
    assert table.sql("SELECT game_id FROM quarantine") == [(gid,)]
    assert f"table {gid} quarantined" in caplog.text, "a log line names the table"
    assert (await table.tick()) == {"reminders": 0, "timeouts": 0, "failed": 0, "lobbies_expired": 0}
    # the channel is free for a new table
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    await table.wait_board(ex)


async def test_export_and_replay_without_a_number_use_this_channels_last_finished_table(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "game export")
    assert "no table" in (await table.wait_ephemeral(ex)).content.lower()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    await table.wait_board(ex)
    first = table.sql("SELECT id FROM games")[0][0]
    await table.play_ai(first, steps=5)
    ex = await table.fd.slash(alice, "game export")
    assert "still running" in (await table.wait_ephemeral(ex)).content
    await table.play_ai(first)
    assert table.row(first)["status"] == "finished"
    ex = await table.fd.slash(alice, "game log")
    assert f"Table #{first} — log page 1/" in (await table.wait_ephemeral(ex)).content, "the finished table's log"
    # a new table runs in the channel now: export and replay still find the finished one
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    await table.wait_board(ex)
    ex = await table.fd.slash(alice, "game export")
    msg = await table.wait_ephemeral(ex)
    data = json.loads(msg.file(0))
    assert data["table"] == first and data["log"]
    ex = await table.fd.slash(alice, "game replay", {"turn": 2})
    shot = await table.wait_ephemeral(ex)
    assert f"#{first}" in shot.embed["title"] and "turn 2/" in shot.embed["title"] and shot.png()

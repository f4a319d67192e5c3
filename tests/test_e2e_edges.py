"""Privacy and limits through the real bot against the Discord stand-in (issue 19, items
3 and 7): `/privacy forget` after `/game resign`, `/privacy show` then and an admin's view;
`/settings limits`, a refusal naming the limit, privately; an idle lobby expiring."""

from __future__ import annotations

import json


async def reply(ex) -> str:
    return (await ex.wait_response()).content


async def test_forget_after_resign_and_what_privacy_show_then_counts(table):
    alice = table.fd.add_user(101_000_000_000_000_001, "alice")
    bob = table.fd.add_user(101_000_000_000_000_002, "bob")
    admin = table.fd.add_user(101_000_000_000_000_003, "admin", manage_guild=True)
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", joiners=[bob])
    await table.play_ai(gid, steps=6)
    ex = await table.fd.slash(alice, "remind quiet", {"start": 22, "end": 7, "utc_offset": 8})
    await ex.wait_response()
    ex = await table.fd.slash(alice, "privacy forget")
    text = await reply(ex)
    assert f"#{gid}" in text and "resign" in text and ex.ephemeral
    # an admin's view: this server's data, none of alice's personal settings
    ex = await table.fd.slash(admin, "privacy show", {"member": alice})
    text = await reply(ex)
    assert "on this server" in text and "tables sat at: 1" in text and ex.ephemeral
    assert "utc_offset" not in text and "quiet" not in text and "22" not in text and "+08:00" not in text
    ex = await table.fd.slash(alice, "privacy show")
    assert "+08:00" in await reply(ex)  # her own view shows her settings

    ex = await table.fd.slash(alice, "game resign", channel=table.row(gid)["channel_id"])
    await ex.wait_idle(quiet=0.2, timeout=20)
    assert table.row(gid)["status"] == "active"  # bob plays on against the AI
    ex = await table.fd.slash(alice, "privacy forget")
    assert "Done" in await reply(ex)
    ex = await table.fd.slash(alice, "privacy show")
    shown = await reply(ex)
    for line in (
        "results",
        "ratings",
        "tables sat at",
        "actions in their logs",
        "tables hosted",
        "votes",
        "tables followed",
    ):
        assert f"{line}: 0" in shown, (line, shown)
    assert "settings: -" in shown
    uid = alice.id
    assert table.sql("SELECT COUNT(*) FROM actions WHERE user_id=?", uid) == [(0,)]
    assert table.sql("SELECT COUNT(*) FROM games WHERE host_id=?", uid) == [(0,)]
    assert table.sql("SELECT host_id FROM games WHERE id=?", gid)[0][0] < 0  # a pseudonym
    await table.play_ai(gid)  # the table ends: nothing of alice comes back
    assert table.row(gid)["status"] == "finished"
    ex = await table.fd.slash(alice, "privacy show")
    assert "actions in their logs: 0" in await reply(ex)
    ex = await table.fd.slash(bob, "game export", channel=table.row(gid)["channel_id"])
    msg = await ex.wait(lambda e: next((m for m in e.messages if m.attachments), None), 20, "the export")
    exported = json.loads(table.fd.attachment(msg.attachments[0]))
    assert exported["table"] == gid and len(exported["log"]) > 6 and str(uid) not in json.dumps(exported)
    assert not table.fd.violations


async def test_limits_refuse_privately_naming_the_limit_and_an_idle_lobby_expires(table):
    admin = table.fd.add_user(102_000_000_000_000_001, "admin", manage_guild=True)
    alice = table.fd.add_user(102_000_000_000_000_002, "alice", locale="zh-CN")
    bob = table.fd.add_user(102_000_000_000_000_003, "bob")
    await table.start()
    ex = await table.fd.slash(admin, "settings limits", {"lobbies_member": 1, "lobby_idle_hours": 2})
    text = await reply(ex)
    assert "1 per member" in text and "after 2 h" in text and ex.ephemeral
    ex = await table.fd.slash(admin, "settings limits")
    assert "5 per member, 30 in all" in await reply(ex)  # the others kept their defaults

    ex = await table.fd.slash(alice, "game new", {"game": "thunder_road"})
    lobby = await ex.wait(
        lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "lobby"
    )
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    other = table.fd.add_channel("other")
    ex = await table.fd.slash(alice, "game new", {"game": "thunder_road"}, channel=other)
    refusal = await table.wait_ephemeral(ex)
    assert "1 个等待玩家的大厅" in refusal.content  # names the limit, in her language, to her alone
    assert [m for m in table.fd.messages(other)] == []  # nothing public
    assert table.sql("SELECT COUNT(*) FROM games") == [(1,)]

    table.clock.advance(2 * 60 + 1)
    counts = await table.tick()
    assert counts["lobbies_expired"] == 1 and table.row(gid)["status"] == "abandoned"
    expired = table.fd.message(lobby.id)
    assert "expired" in expired.content.lower() or "过期" in expired.content
    assert not expired.custom_ids, "the expired lobby loses its buttons"
    ex = await table.fd.slash(bob, "game new", {"game": "thunder_road"})  # the channel is free again
    await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "lobby")
    assert table.sql("SELECT status FROM games ORDER BY id") == [("abandoned",), ("lobby",)]
    assert not table.fd.violations

"""Issue 32 item 2: /notify settings opens the member's notification policy as a private
Components V2 panel in their language; a select changes one thing, persisted at once."""

from __future__ import annotations


async def _panel(table, ex):
    return await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")


async def test_the_panel_changes_a_way_and_the_time_zone_and_keeps_them(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "notify settings", origin="dm", install="user")
    msg = await _panel(table, ex)
    assert msg.ephemeral and msg.data["flags"] & 32768, "a Components V2 panel"
    assert "tg:n:all:e_turn" in msg.custom_ids and "tg:n:all:zone" in msg.custom_ids
    ex = await table.fd.select(alice, msg, "tg:n:all:e_turn", ["dm"])
    await ex.wait_ack()
    service = table.bot.services.tables
    await ex.wait(lambda e: e.callback is not None and e.callback.type == 7, 10, "the panel updated")
    policy = await service.notify_settings(alice.id)
    assert policy.way("turn") == "dm"
    ex = await table.fd.select(alice, msg, "tg:n:all:zone", ["Asia/Shanghai"])
    await ex.wait(lambda e: e.callback is not None and e.callback.type == 7, 10, "the panel updated")
    policy = await service.notify_settings(alice.id)
    assert policy.tz == "Asia/Shanghai" and policy.way("turn") == "dm"
    # a forged value changes nothing and is refused privately
    ex = await table.fd.select(alice, msg, "tg:n:all:zone", ["Mars/Olympus"], force=True)
    refusal = await table.wait_ephemeral(ex)
    assert refusal.ephemeral
    assert (await service.notify_settings(alice.id)).tz == "Asia/Shanghai"
    # in Chinese for a zh member
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    msg = await _panel(table, await table.fd.slash(bob, "notify settings"))
    assert "机器人如何联系你" in str(msg.data["components"])
    assert not table.fd.violations, table.fd.violations

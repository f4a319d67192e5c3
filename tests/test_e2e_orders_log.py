"""Standing orders through the stand-in (issue 31 items 1 and 3): ``/game log`` says
"(standing order: ...)" on the steps a member's order took, to that member only (the
others read the member's decision), and an order that switches itself off tells its
owner why in a private message owed by the commit that switched it off."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t
from tables import escape
from tables.core import standing

GAME = get_game("automobile")
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


async def _three(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, _ = await table.open_table(alice, "automobile", [bob, carol])
    return alice, bob, carol, gid


async def _step(table, gid) -> None:
    """One decision: a delayed standing-order step that fell due, else the AI's choice for whoever is to act."""
    service = table.bot.services.tables
    if await service.orders_due(gid) is not None:
        return
    state = table.state(gid)
    seat = GAME.to_act(state)[0]
    await service.act(gid, table.seat_user(gid)[seat], AI, seat=seat)


async def test_the_log_names_a_members_own_standing_order_to_that_member_only(table):
    alice, bob, carol, gid = await _three(table)
    service = table.bot.services.tables
    for user in (alice, bob, carol):  # the game's seed is drawn: whoever's order moves first is looked at
        await service.arm_order(gid, user.id, "sell_distributors")
    label = t("automobile.order.sell_distributors", "en")
    for _ in range(400):
        found = table.sql("SELECT user_id FROM actions WHERE game_id=? AND source LIKE 'order:%'", gid)
        if found:
            break
        assert table.row(gid)["status"] == "active", "the game ended before any order took a step"
        await _step(table, gid)
    else:
        raise AssertionError("the order never took a step")
    owners = {uid for (uid,) in found}
    for user in (alice, bob, carol):
        ex = await table.fd.slash(user, "game log")
        lines = (await table.wait_ephemeral(ex)).content.splitlines()
        said = [x for x in lines if "standing order" in x]
        # each reads "(standing order: ...)" on their own steps only, never on another member's
        assert all(f"**{user.name}**".lower() in x.lower() for x in said), (user.name, said)
        assert bool(said) == (user.id in owners) and all(f"(standing order: {label[:12]}" in x for x in said)
    assert not table.fd.violations


async def test_an_order_that_switches_itself_off_tells_its_owner_privately(table):
    alice, bob, carol, gid = await _three(table)
    service = table.bot.services.tables
    service.kernel.order_delay = lambda: 0.0  # its hidden timing: due at once, taken by the due step
    await service.arm_order(gid, bob.id, "exec_pass")
    for _ in range(600):
        (orders,) = table.sql("SELECT orders_json FROM games WHERE id=?", gid)[0]
        if any(n.user == bob.id for n in standing.parse(orders).notices):
            break
        await _step(table, gid)
    else:
        raise AssertionError("the order never switched off")
    assert await service.my_orders(gid, bob.id) == []
    await table.bot.get_cog("Outbox").tick(table.clock() + 120)  # the owed message, as any process sends it
    dm = table.fd.dm_channel(bob)
    assert dm is not None
    texts = [m.content for m in table.fd.messages(dm)]
    label = t("automobile.order.exec_pass", "en")
    said = escape(t("core.order.switched_off", "en", label=label, reason=""), 500).strip()
    assert any(said in x for x in texts), texts  # and why (its round ended, or the game's reason)
    for other in (alice, carol):
        channel = table.fd.dm_channel(other)
        assert channel is None or not any("standing order" in m.content for m in table.fd.messages(channel))
    assert not table.fd.violations

"""Standing orders of a member who leaves the seat, through the stand-in (issue 31): ``/game
resign`` removes the member's armed orders in its commit and the private message that commit
owes reaches the member, who no longer sits at the table, saying why; the others hear nothing."""

from __future__ import annotations

import asyncio

from engine.i18n import t
from tables import escape


async def _dm_saying(table, user, text: str) -> list[str]:
    """The member's direct messages once one says ``text`` (the DM follows the board)."""
    for _ in range(400):
        channel = table.fd.dm_channel(user)
        texts = [m.content for m in table.fd.messages(channel)] if channel else []
        if any(text in x for x in texts):
            return texts
        await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} was never told: {text!r}")


async def test_a_member_who_resigns_is_told_privately_that_their_orders_went_with_the_seat(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, _ = await table.open_table(alice, "automobile", [bob, carol])
    service = table.bot.services.tables
    armed = None
    for choice in await service.order_choices(gid, bob.id, "en"):
        await service.arm_order(gid, bob.id, choice.kind, choice.params)
        if any(o.kind == choice.kind for o in await service.my_orders(gid, bob.id)):
            armed = choice
            break
    assert armed is not None, "bob armed an order that stays armed"
    ex = await table.fd.slash(bob, "game resign")
    assert (await table.wait_ephemeral(ex)).content == t("core.done.resigned", "en")
    assert await service.my_orders(gid, bob.id) == []
    said = escape(t("core.order.switched_off", "en", label=armed.label, reason=t("standing.unseated.resigned")), 500)
    texts = await _dm_saying(table, bob, said)
    assert all("standing order" not in x for x in texts if said not in x)
    for other in (alice, carol):
        channel = table.fd.dm_channel(other)
        assert channel is None or not any("standing order" in m.content for m in table.fd.messages(channel))
    assert not table.fd.violations

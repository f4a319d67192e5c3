"""Issue 31 item 3: a seated member arms, sees and switches off standing orders from
``/game orders`` and from the private panel's "Standing orders" button, also while
another seat is to act; everything is private (ephemeral replies, edited in place);
bad input (a forged value or custom_id, not seated, an order gone meanwhile) gets a
private message in the member's language and changes nothing.  Driven through the
real discord.py client against the stand-in (tests/fakediscord.py)."""

from __future__ import annotations

import copy

from engine import get_game
from engine.i18n import t

GAME = "automobile"
PASS = t("automobile.order.exec_pass", "en")


def orders_panel(ex):
    """The orders panel an interaction sent or redrew (an ephemeral message with the head)."""
    heads = (
        t("orders.panel.head", "en", game="", id="").split("**")[1],
        t("orders.panel.head", "zh", game="", id="").split("**")[1],
    )
    found = [m for m in ex.messages if m.ephemeral and not m.loading and any(h in m.content for h in heads)]
    if ex.original is not None and ex.original.ephemeral and any(h in ex.original.content for h in heads):
        found.append(ex.original)
    return found[-1] if found else None


def option(msg, cid: str, label: str) -> str:
    comp = msg.component(cid)
    assert comp is not None, (cid, msg.custom_ids)
    return next(o["value"] for o in comp["options"] if label in o["label"])


async def armed(table, gid: int, uid: int) -> list[str]:
    return [o.kind for o in await table.bot.services.tables.my_orders(gid, uid)]


def public(table) -> list[tuple[int, str]]:
    """Every public message of the channel, as (id, everything it says)."""
    return [(m.id, m.text) for m in table.fd.messages()]


def waiting_member(table, gid: int) -> int:
    """A member with a seat who is not to act now."""
    to_act = get_game(GAME).to_act(table.state(gid))
    return next(u for s, u in table.seat_user(gid).items() if s not in to_act and u is not None)


async def test_a_member_arms_sees_and_switches_off_an_order_privately_while_another_seat_is_to_act(table):
    users = [table.fd.add_user(101 + i, n) for i, n in enumerate(("alice", "bob", "carol"))]
    await table.start()
    gid, board = await table.open_table(users[0], GAME, users[1:])
    await (await table.fd.slash(users[0], "game status")).wait_idle(quiet=0.2)
    uid = waiting_member(table, gid)
    user = table.fd.users[uid]
    before, version = public(table), table.row(gid)["version"]

    ex = await table.fd.slash(user, "game orders")
    panel = await ex.wait(orders_panel, 20, "the orders panel")
    assert panel.ephemeral and t("orders.panel.none_armed", "en") in panel.content, panel.content
    assert f"tg:oa:{gid}" in panel.custom_ids and f"tg:od:{gid}" not in panel.custom_ids

    ex = await table.fd.select(user, panel, f"tg:oa:{gid}", [option(panel, f"tg:oa:{gid}", PASS)])
    await ex.wait(lambda e: t("orders.armed", "en", order=PASS) in panel.content, 20, "the panel redrawn")
    assert await armed(table, gid, uid) == ["exec_pass"]
    assert PASS in panel.content and f"tg:od:{gid}" in panel.custom_ids
    # private: nothing public said or changed (the table's version is a step the others see)
    await ex.wait_idle(quiet=0.2)
    assert public(table) == before and table.row(gid)["version"] == version
    assert all(PASS not in text for _, text in public(table))

    # another member sees only their own orders
    other = next(u for u in users if u.id != uid)
    ex = await table.fd.slash(other, "game orders")
    theirs = await ex.wait(orders_panel, 20, "the other member's panel")
    assert t("orders.panel.none_armed", "en") in theirs.content and PASS not in theirs.content.split("\n")[2]

    ex = await table.fd.select(user, panel, f"tg:od:{gid}", ["exec_pass"])
    await ex.wait(lambda e: t("orders.disarmed", "en", order=PASS) in panel.content, 20, "switched off")
    assert await armed(table, gid, uid) == []
    assert public(table) == before
    assert not table.fd.violations


async def test_the_private_panel_offers_standing_orders_in_the_members_language(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    wei = table.fd.add_user(103, "wei", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, GAME, [bob, wei])
    seat = next(s for s, u in table.seat_user(gid).items() if u == wei.id)
    await (await table.fd.slash(wei, "game orders")).wait_idle(quiet=0.2)  # the bot notes wei's language
    game = get_game(GAME)
    await table.play_ai(gid, until=lambda tb: seat in game.to_act(tb.state(gid)))
    ex = await table.fd.slash(wei, "game status")
    board = await table.wait_board(ex)
    panel_ids = [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]
    assert panel_ids, board.custom_ids  # a member reading another language decides privately
    ex = await table.fd.click(wei, board, panel_ids[0])
    mine = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")
    assert f"tg:o:{gid}" in mine.custom_ids
    button = next(b for b in mine.buttons if b.get("custom_id") == f"tg:o:{gid}")
    assert button["label"] == t("orders.button", "zh")
    ex = await table.fd.click(wei, mine, f"tg:o:{gid}")
    panel = await ex.wait(orders_panel, 20, "the orders panel")
    assert panel.ephemeral and t("orders.panel.none_armed", "zh") in panel.content, panel.content
    label = t("automobile.order.exec_pass", "zh")
    ex = await table.fd.select(wei, panel, f"tg:oa:{gid}", [option(panel, f"tg:oa:{gid}", label)])
    await ex.wait(lambda e: t("orders.armed", "zh", order=label) in panel.content, 20, "armed, in Chinese")
    assert await armed(table, gid, wei.id) == ["exec_pass"]
    assert not table.fd.violations


async def test_bad_input_is_answered_privately_and_changes_nothing(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    dave = table.fd.add_user(104, "dave", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, GAME, [bob, carol])
    uid = waiting_member(table, gid)
    user = table.fd.users[uid]

    # not seated: told so, privately, in Chinese
    ex = await table.fd.slash(dave, "game orders")
    msg = await table.wait_ephemeral(ex)
    head = t("play.refuse.not_seated", "zh", id=gid, who="")
    assert msg.ephemeral and msg.content.startswith(head[: head.index("（")]), msg.content
    assert await armed(table, gid, dave.id) == []

    ex = await table.fd.slash(user, "game orders")
    panel = await ex.wait(orders_panel, 20, "the orders panel")
    # a forged value: nothing armed, the member told why, the panel as it is now
    ex = await table.fd.select(user, panel, f"tg:oa:{gid}", ["exec_pass#forged"], force=True)
    await ex.wait(lambda e: t("orders.stale", "en") in panel.content, 20, "a stale pick answered")
    assert await armed(table, gid, uid) == []
    # switching off an order that is not armed (it switched itself off meanwhile, or forged)
    snap = copy.deepcopy(panel.data)
    snap["components"] = [
        {
            "type": 1,
            "components": [{"type": 3, "custom_id": f"tg:od:{gid}", "options": [{"label": "x", "value": "exec_pass"}]}],
        }
    ]
    ex = await table.fd.select(user, snap, f"tg:od:{gid}", ["exec_pass"], force=True)
    await ex.wait(lambda e: any(t("orders.not_armed", "en") in m.content for m in [*e.messages, panel]), 20, "told")
    assert await armed(table, gid, uid) == []
    # someone else's panel: dave (no seat) picks on a forged copy
    ex = await table.fd.select(dave, snap, f"tg:od:{gid}", ["exec_pass"], force=True)
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral and any("\u4e00" <= ch <= "\u9fff" for ch in msg.content), msg.content
    # a forged orders select on the public board: answered privately, the board left as it was
    forged = copy.deepcopy(board.data)
    forged["components"] = [
        {"type": 1, "components": [{"type": 3, "custom_id": f"tg:oa:{gid}", "options": [{"label": "x", "value": "x"}]}]}
    ]
    ex = await table.fd.select(user, forged, f"tg:oa:{gid}", ["x"], force=True)
    msg = await ex.wait(orders_panel, 20, "a private answer")
    assert msg.ephemeral and t("orders.stale", "en") in msg.content and not ex.edits
    assert await armed(table, gid, uid) == []
    # a table of another channel: refused before anything is asked
    other = table.fd.add_channel("elsewhere")
    ex = await table.fd.slash(user, "game orders", channel=other)
    msg = await table.wait_ephemeral(ex)
    assert msg.content == t("orders.no_table", "en")
    assert not table.fd.violations


async def test_an_order_that_switches_itself_off_tells_its_owner_privately_why(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    wei = table.fd.add_user(103, "wei", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, GAME, [bob, wei])
    game = get_game(GAME)
    ex = await table.fd.slash(wei, "game orders")
    panel = await ex.wait(orders_panel, 20, "the orders panel")
    label = t("automobile.order.exec_pass", "zh")
    ex = await table.fd.select(wei, panel, f"tg:oa:{gid}", [option(panel, f"tg:oa:{gid}", label)])
    await ex.wait(lambda e: t("orders.armed", "zh", order=label) in panel.content, 20, "armed")
    armed_in = table.state(gid).round
    # the table plays on (every seat's choices the AI's); the pass is for its round only
    seat = next(s for s, u in table.seat_user(gid).items() if u == wei.id)

    def lapsed(tb) -> bool:
        state = tb.state(gid)
        return state.round > armed_in and seat in game.to_act(state)

    await table.play_ai(gid, until=lapsed)
    assert await armed(table, gid, wei.id) == []  # switched itself off when its round ended
    # the change was made through the service, not a click: nobody pushed its private message, so the
    # outbox sends it once the lease of the process that made it has run out
    table.clock.advance(5)
    await table.deliver()
    dm = table.fd.dm_channel(wei)
    assert dm is not None
    said = "\n".join(m.content for m in table.fd.messages(dm))
    assert t("core.order.scope_ended", "zh") in said, said
    # and nobody else heard of it
    for other in (alice, bob):
        channel = table.fd.dm_channel(other)
        others = "\n".join(m.content for m in table.fd.messages(channel)) if channel else ""
        assert label not in others and t("core.order.scope_ended", "en") not in others
    assert all(label not in text for _, text in public(table))
    assert not table.fd.violations


async def test_orders_are_reached_from_anywhere_and_the_panel_works_there(table):
    """A member in several slow games arms from a DM: /game orders opens their most urgent
    table's orders (or the table named), and the panel's menus work where it was opened."""
    users = [table.fd.add_user(101 + i, n) for i, n in enumerate(("alice", "bob", "carol"))]
    await table.start()
    gid, board = await table.open_table(users[0], GAME, users[1:])
    uid = waiting_member(table, gid)
    user = table.fd.users[uid]
    ex = await table.fd.slash(user, "game orders", origin="dm")
    panel = await ex.wait(orders_panel, 20, "the orders panel, in a DM")
    assert panel.ephemeral and f"#{gid}" in panel.content
    ex = await table.fd.select(user, panel, f"tg:oa:{gid}", [option(panel, f"tg:oa:{gid}", PASS)], origin="dm")
    await ex.wait(lambda e: t("orders.armed", "en", order=PASS) in panel.content, 20, "armed from a DM")
    assert await armed(table, gid, uid) == ["exec_pass"]
    ex = await table.fd.slash(user, "game orders", {"table": gid}, origin="dm")
    again = await ex.wait(orders_panel, 20, "the table named")
    assert PASS in again.content
    # a table the member has no seat at, named from elsewhere: not even its existence is told
    dave = table.fd.add_user(104, "dave")
    ex = await table.fd.slash(dave, "game orders", {"table": gid}, origin="dm")
    msg = await table.wait_ephemeral(ex)
    assert msg.content == t("core.ui.no_such_table", "en", id=gid)
    ex = await table.fd.slash(dave, "game orders", origin="dm")
    msg = await table.wait_ephemeral(ex)
    assert msg.content == t("orders.none_running", "en")
    assert await armed(table, gid, uid) == ["exec_pass"]
    assert not table.fd.violations


async def test_a_crew_arms_orders_from_its_secret_orders_panel_and_after_locking_in(table):
    """Armor Clash: every crew decides in its private panel; the panel, and the panel that says
    the crew has locked in while the other still chooses, both open the crew's orders."""
    fd = table.fd
    users = [fd.add_user(600 + i, f"crew{i}") for i in range(2)]
    await table.start()
    gid, board = await table.open_table(users[0], "armor_clash", users[1:], options="scenario=duel")
    game = get_game("armor_clash")
    seat = game.to_act(table.state(gid))[0]
    user = fd.users[table.seat_user(gid)[seat]]
    ex = await fd.slash(user, "game status")
    shown = await table.wait_board(ex)
    ex = await fd.click(user, shown, next(c for c in shown.custom_ids if c.startswith(f"tg:p:{gid}:")))
    panel = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")
    assert f"tg:o:{gid}" in panel.custom_ids, panel.custom_ids
    turn = table.state(gid).turn
    for _ in range(20):  # the crew's order, step by step, until it is locked in
        version = table.row(gid)["version"]
        idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
        ex = await table.choose(user, panel, gid, idx, version)
        await ex.wait(lambda e: e.edits or e.followups, 20, "the pick's reply")
        await ex.wait_idle(quiet=0.2, timeout=20)
        state = table.state(gid)
        if seat not in game.to_act(state) or state.turn != turn:
            break
    state = table.state(gid)
    assert state.turn == turn and seat not in game.to_act(state), "locked in, the other crew still choosing"
    assert t("core.ui.committed", "en") in panel.content
    assert f"tg:o:{gid}" in panel.custom_ids, panel.custom_ids  # orders while the other crew chooses
    ex = await fd.click(user, panel, f"tg:o:{gid}")
    orders = await ex.wait(orders_panel, 20, "the crew's orders")
    assert orders.ephemeral and f"tg:oa:{gid}" in orders.custom_ids
    assert not fd.violations


async def test_an_order_switched_off_by_another_members_click_is_told_to_its_owner_at_once(table):
    """The click that ends the order's round (another member's) sends the owner's private
    message with that change, not later by the outbox."""
    users = [table.fd.add_user(101 + i, n) for i, n in enumerate(("alice", "bob", "carol"))]
    await table.start()
    gid, board = await table.open_table(users[0], GAME, users[1:])
    game = get_game(GAME)
    owner = users[2]
    ex = await table.fd.slash(owner, "game orders")
    panel = await ex.wait(orders_panel, 20, "the orders panel")
    ex = await table.fd.select(owner, panel, f"tg:oa:{gid}", [option(panel, f"tg:oa:{gid}", PASS)])
    await ex.wait(lambda e: t("orders.armed", "en", order=PASS) in panel.content, 20, "armed")
    armed_in = table.state(gid).round

    def next_click_ends_it(tb) -> bool:
        """The next decision is another member's, and the AI's choice there ends the round
        (the order's scope: it switches itself off in that commit)."""
        state = tb.state(gid)
        actor = game.to_act(state)[0]
        if tb.seat_user(gid)[actor] == owner.id:
            return False
        after, _ = game.apply(state, actor, game.ai_action(state, actor))
        return after.round > armed_in

    await table.play_ai(gid, until=next_click_ends_it)
    assert await armed(table, gid, owner.id) == ["exec_pass"]
    actor = game.to_act(table.state(gid))[0]
    clicker = table.fd.users[table.seat_user(gid)[actor]]
    ex = await table.fd.slash(clicker, "game status")
    shown = await table.wait_board(ex)
    await ex.wait_idle(quiet=0.1)
    idx = table.choice_for(gid, actor, table.ai_index(gid, actor))
    click = await table.choose(clicker, shown, gid, idx)
    reason = t("core.order.scope_ended", "en")

    def told(_e):
        dm = table.fd.dm_channel(owner)
        return dm is not None and any(reason in m.content for m in table.fd.messages(dm))

    await click.wait(told, 30, "the owner's private message")  # no outbox pass: sent with the click
    assert await armed(table, gid, owner.id) == []
    dm = table.fd.dm_channel(clicker)
    assert dm is None or all(reason not in m.content for m in table.fd.messages(dm))
    assert all(PASS not in text for _, text in public(table))
    assert not table.fd.violations

"""Private panels stay live (issue 20.1), through the stand-in with the real bot: a
crew's panel carries its own choice token (tables/rules/panels.py), so another crew's
orders never make it "out of date"; only a change to what this crew may choose
does, and then the panel is redrawn in place with its choices as they are now."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t
from tables.rules.choices import choices, describe
from tables.rules.panels import TOKEN_BASE, offer_token

OUT_OF_DATE = "out of date"


async def open_panel(table, user, board, gid):
    panel_button = next(c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:"))
    ex = await table.fd.click(user, board, panel_button)
    return await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel")


async def click_label(table, user, panel, label: str):
    button = next(b for b in panel.buttons if b["label"] == label)
    ex = await table.fd.click(user, panel, button["custom_id"])
    await ex.wait(lambda e: bool(e.edits) or any(m.ephemeral for m in e.followups), 20, "the panel's answer")
    await ex.wait_idle(quiet=0.1, timeout=20)
    return ex


def token_of(panel) -> int:
    return int(next(c for c in panel.custom_ids if c.startswith("tg:a:")).split(":")[3])


def test_a_seats_token_ignores_other_seats_orders_and_follows_its_own():
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], {}, 7)

    def token(st, seat):
        offered = choices(game, st, seat)
        return offer_token(game, st, seat, offered, describe(game, st, seat, offered, "en"))

    before = token(state, "p1")
    assert before >= TOKEN_BASE
    after_p2 = state
    for step in choices(game, state, "p2")[0].chain:  # p2 takes a step of its order
        after_p2, _ = game.apply(after_p2, "p2", game.legal_actions(after_p2, "p2")[step])
    assert token(after_p2, "p1") == before, "another crew's step leaves p1's panel live"
    after_p1 = state
    for step in choices(game, state, "p1")[0].chain:  # p1's own step changes what it may choose
        after_p1, _ = game.apply(after_p1, "p1", game.legal_actions(after_p1, "p1")[step])
    assert "p1" in game.to_act(after_p1) and token(after_p1, "p1") != before


async def test_another_crews_orders_leave_a_panel_live_and_only_its_own_change_redraws_it(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "armor_clash", [bob])
    seats = table.seat_user(gid)
    host_seat = next(s for s, u in seats.items() if u == host.id)
    first = await open_panel(table, host, board, gid)
    second = await open_panel(table, host, board, gid)  # the same decision, opened twice
    assert token_of(first) == token_of(second) >= TOKEN_BASE, "a panel carries its crew's token, not the version"

    # bob's crew gives its whole order: the table's version moves on
    version = table.row(gid)["version"]
    bobs = await open_panel(table, bob, board, gid)
    await click_label(table, bob, bobs, "Pass / observe")
    assert table.row(gid)["version"] > version
    assert host_seat in get_game("armor_clash").to_act(table.state(gid))

    # the host's first panel still works: its click is taken, the panel edited in place
    version = table.row(gid)["version"]
    ex = await click_label(table, host, first, "Move")
    assert table.row(gid)["version"] == version + 1, "the click counted"
    assert not [m for m in ex.messages if m.ephemeral and OUT_OF_DATE in (m.content or "")]
    assert ex.edits and first.custom_ids and token_of(first) != token_of(second)

    # the second panel was drawn before the host's own step: redrawn in place, nothing done
    version = table.row(gid)["version"]
    state = table.state(gid)
    ex = await click_label(table, host, second, "Pass / observe")
    assert table.row(gid)["version"] == version and table.state(gid) == state, "nothing was changed"
    assert not [m for m in ex.messages if m.ephemeral and OUT_OF_DATE in (m.content or "")]
    assert not ex.followups, "no new message: the panel itself says it"
    assert t("play.panel.changed", "en") in second.content
    assert token_of(second) == token_of(first), "it now offers what the first one offers"

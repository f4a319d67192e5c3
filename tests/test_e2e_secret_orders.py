"""Secret simultaneous orders (Armor Clash duel and boss games) reveal nothing
before they resolve: after every private pick, the public board anyone can
call up with ``/game status`` is the same message as before it (text, image,
buttons, whom it pings) until the crew locks in, and then it says only who
has locked in and who is still choosing.  No public text, reminder included,
says what a crew ordered or which step of its order it is on."""

from __future__ import annotations

import re

import pytest

from engine import get_game
from engine.i18n import DATA, keys, t

PROMPTS = {k: t(k, "en") for k in keys("en", "armor_clash") if k.startswith("armor_clash.prompt.")}
#: the fixed part of each prompt (up to its first parameter): what the public must never read
PROMPT_PARTS = [re.split(r"\{", text)[0].strip() for text in PROMPTS.values()]
PROMPT_PARTS = [p for p in PROMPT_PARTS if len(p) >= 10]


def public(msg) -> tuple:
    """What everyone sees of a public board: its texts, its image, its buttons, whom it notified."""
    return (msg.text, msg.png(), tuple(msg.custom_ids), tuple(sorted(msg.pinged)))


def assert_no_prompt(text: str) -> None:
    leaked = [p for p in PROMPT_PARTS if p in text]
    assert not leaked, f"a crew's order step is public: {leaked} in {text!r}"


@pytest.mark.parametrize("scenario", ["duel", "boss"])
async def test_secret_orders_reveal_nothing_before_they_resolve(table, scenario):
    fd = table.fd
    assert PROMPT_PARTS and (DATA / "armor_clash").exists()
    users = [fd.add_user(600 + i, f"crew{i}") for i in range(2)]
    watcher = fd.add_user(690, "watcher")
    await table.start()
    gid, board = await table.open_table(users[0], "armor_clash", users[1:], options=f"scenario={scenario}", remind=30)
    game = get_game("armor_clash")
    seat_user = table.seat_user(gid)
    picks = snapshots = 0

    async def status():
        """The public board as anyone calls it up (a new public message, pinging those to act)."""
        nonlocal snapshots
        ex = await fd.slash(watcher, "game status")
        msg = await table.wait_board(ex)
        await ex.wait_idle(quiet=0.05)
        snapshots += 1
        assert_no_prompt(msg.text)
        return msg

    for _turn in range(2):
        state = table.state(gid)
        if game.outcome(state) is not None:
            break
        turn = state.turn
        for seat in list(game.to_act(state)):
            user = fd.users[seat_user[seat]]
            shown = await status()
            before = public(shown)
            ex = await fd.click(user, shown, next(c for c in shown.custom_ids if c.startswith(f"tg:p:{gid}:")))
            panel = await ex.wait(
                lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "the panel"
            )
            assert not [m for m in ex.messages if not m.ephemeral], "opening a panel posts nothing public"
            reminded = False
            while True:
                version = table.row(gid)["version"]
                public_before = {m.id: len(m.versions) for m in fd.messages()}
                idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
                ex = await table.choose(user, panel, gid, idx, version)
                await ex.wait(lambda e: e.edits or e.followups, 20, "the pick's reply")
                await ex.wait_idle(quiet=0.2, timeout=20)
                picks += 1
                now = table.state(gid)
                if now.turn != turn or game.outcome(now) is not None:
                    break  # the last order resolved the turn: now it may all be shown
                new = [m for m in fd.messages() if m.id not in public_before]
                edited = [m for m in fd.messages() if len(m.versions) > public_before.get(m.id, len(m.versions))]
                assert not new, f"a private pick posted in public: {[m.text for m in new]}"
                if seat in game.to_act(now):
                    # a step of the order, not the end of it: nothing public changed
                    assert not edited, f"a private pick redrew a public message: {[m.text for m in edited]}"
                    assert public(await status()) == before, "the public board changed after a private pick"
                    if not reminded:  # a reminder while the crew is mid-order says nothing of it either
                        table.clock.advance(45)
                        await table.tick()
                        reminded = True
                        for m in fd.messages()[-2:]:
                            assert_no_prompt(m.text)
                    continue
                # locked in: the public board now says so, and nothing more
                after = await status()
                assert t("discord.board.locked_in", "en", who="").strip() in after.text, after.text
                assert after.png() == shown.png(), "the picture shows no order before the turn resolves"
                for m in edited:
                    assert_no_prompt(m.text)
                break
            state = table.state(gid)
            if state.turn != turn or game.outcome(state) is not None:
                break
    assert picks >= 4 and snapshots >= 4, (picks, snapshots)
    for m in fd.messages():  # every public message, every version of it
        assert_no_prompt(m.text)
        for old in m.versions:
            assert_no_prompt(str(old))
    assert not fd.violations


@pytest.mark.parametrize("what,steps", [("pass", 1), ("hull", 2), ("move", 3)])
async def test_game_log_shows_one_line_per_secret_order_whatever_its_kind(table, what, steps):
    """``/game log``: a crew's order is one line for everyone else (its private steps are not
    counted), for a watcher and for the rival crew alike; the crew itself sees its own steps."""
    fd = table.fd
    users = [fd.add_user(620 + i, f"crew{i}") for i in range(2)]
    watcher = fd.add_user(691, "watcher")
    await table.start()
    gid, _board = await table.open_table(users[0], "armor_clash", users[1:], options="scenario=duel")
    service = table.bot.services.tables
    seat = next(s for s, u in table.seat_user(gid).items() if u == users[0].id)
    rival = next(u for s, u in table.seat_user(gid).items() if u not in (None, users[0].id))
    taken = 0
    while True:
        loaded = await service.load(gid)
        if seat not in loaded.game.to_act(loaded.state):
            break
        legal = loaded.game.legal_actions(loaded.state, seat)
        pick = next(a for a in legal if a.kind == "choose" and a.what == what) if not taken else legal[0]
        pick = pick if pick.kind != "back" else legal[1]
        await service.act(gid, users[0].id, lambda *_, pick=pick: pick, seat=seat)
        taken += 1
    assert taken == steps

    async def log_of(user) -> list[str]:
        ex = await fd.slash(user, "game log")
        lines = (await table.wait_ephemeral(ex)).content.splitlines()[1:]
        return [x for x in lines if x.split(":")[0].lower().endswith("crew0**")]

    assert len(await log_of(watcher)) == 1, "anyone: one line for the order, whatever its kind"
    assert len(await log_of(fd.users[rival])) == 1, "the rival crew: the same"
    assert len(await log_of(users[0])) == steps, "the crew reads each of its own steps"
    assert not fd.violations

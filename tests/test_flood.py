"""Flooding: a member acting much faster than a person plays (more than 5
actions in 2 s) is told privately to slow down and changes nothing until they
do; everyone else is served as usual.  Commands, buttons and selects all pass
the same check (cogs/kit/flood.py); the counting is tables/people/flood.py."""

from __future__ import annotations

import copy

import pytest

from engine.i18n import t
from tables.people.flood import FloodGate


class Ticks:
    """A monotonic clock under the test's control."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------ the gate
def test_more_than_five_in_two_seconds_is_refused_until_the_member_slows_down():
    clock = Ticks()
    gate = FloodGate(limit=5, window=2.0, clock=clock)
    assert [gate.admit(1) for _ in range(5)] == [True] * 5
    assert not gate.admit(1), "the sixth action within 2 s"
    assert gate.admit(2), "another member is not slowed"
    assert gate.retry_after(1) == pytest.approx(2.0)
    clock.now += 1.0
    assert not gate.admit(1), "still hammering: still refused (refused attempts count too)"
    clock.now += 2.0
    assert gate.admit(1), "after a pause of a whole window the member is served again"
    assert gate.retry_after(2) == 0.0


def test_a_steady_human_pace_is_never_refused():
    clock = Ticks()
    gate = FloodGate(clock=clock)
    for _ in range(200):  # one action every 0.45 s: faster than anyone thinks about a move
        assert gate.admit(7)
        clock.now += 0.45


def test_quiet_members_are_forgotten():
    clock = Ticks()
    gate = FloodGate(clock=clock, sweep_every=10)
    for member in range(9):
        gate.admit(member)
    clock.now += 5
    gate.admit(100)  # the tenth call sweeps
    assert len(gate) == 1


def test_nonsense_limits_are_refused():
    with pytest.raises(ValueError):
        FloodGate(limit=0)
    with pytest.raises(ValueError):
        FloodGate(window=0)


# --------------------------------------------------------------- through Discord
SLOW = t("discord.flood.slow_down", "en", seconds=2).split(":")[0]
SLOW_ZH = t("discord.flood.slow_down", "zh", seconds=2).split("：")[0]


async def _reply(table, ex) -> str:
    return (await table.wait_ephemeral(ex)).content


async def test_a_flooding_member_is_told_privately_and_changes_nothing_others_play_on(table):
    table.flood = True
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    clock = Ticks()
    table.bot.services.flood.clock = clock  # frozen: everything below happens "at once"
    other = table.fd.add_channel("second")

    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})  # 1
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    for _ in range(4):  # 2..5: reading is fine
        assert SLOW not in await _reply(table, await table.fd.slash(alice, "game mine"))
    v0 = table.row(gid)["version"]
    actions = table.sql("SELECT COUNT(*) FROM actions")[0][0]

    # the sixth action within the window, a legal move: refused, privately, nothing changes
    idx = table.ai_index(gid, "p1")
    ex = await table.choose(alice, board, gid, idx, v0)
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral and msg.content == t("discord.flood.slow_down", "en", seconds=2)
    assert not msg.pinged
    # a command and a select are held by the same check
    msg = await table.wait_ephemeral(await table.fd.slash(alice, "game status"))
    assert msg.ephemeral and SLOW in msg.content
    snap = copy.deepcopy(board.data)
    cid = f"tg:s:{gid}:{v0}:0"
    snap["components"] = [
        {"type": 1, "components": [{"type": 3, "custom_id": cid, "options": [{"label": "x", "value": "0"}]}]}
    ]
    msg = await table.wait_ephemeral(await table.fd.select(alice, snap, cid, ["0"], force=True))
    assert SLOW in msg.content
    assert table.row(gid)["version"] == v0 and table.sql("SELECT COUNT(*) FROM actions")[0][0] == actions
    # typing (autocomplete) is not acting: still answered
    assert await table.fd.autocomplete(alice, "play", {"action": ""}, focused="action")

    # everyone else is served as usual, in their own language
    ex = await table.fd.slash(bob, "game new", {"game": "city_of_fury"}, channel=other)
    assert (await table.wait_board(ex)).png()
    assert SLOW_ZH not in (await table.wait_ephemeral(ex)).content

    # once alice pauses for the window, her move goes through
    clock.now += 2.0
    ex = await table.choose(alice, board, gid, idx, v0)
    await table.next_board(ex, gid, v0)
    assert table.row(gid)["version"] > v0
    assert not table.fd.violations


async def test_the_slow_down_message_is_in_the_members_language(table):
    table.flood = True
    li = table.fd.add_user(103, "li", locale="zh-CN")
    await table.start()
    table.bot.services.flood.clock = Ticks()
    for _ in range(5):
        await (await table.fd.slash(li, "game mine")).wait_response()
    text = await _reply(table, await table.fd.slash(li, "game mine"))
    assert text == t("discord.flood.slow_down", "zh", seconds=2)

"""Issue 20 item 10: ``/game log`` shows one line per decision (a chain of single steps
is one line; its steps stay in the stored log and the export), through the stand-in."""

from __future__ import annotations

import re

from engine import get_game
from tables import log_entry
from tables.rules.choices import choices
from tables.rules.decisions import decisions, page

GAME = get_game("thunder_road")


def _groups(table, gid: int) -> list[tuple[int, str]]:
    """(version, seat) of each decision, from the raw rows (consecutive rows of one
    commit and seat taken one way: by the member, by the AI, or by the platform, a
    forced single choice after the member's step being a line of its own)."""
    out: list[tuple] = []
    sql = "SELECT version, seat, user_id, taken_by FROM actions WHERE game_id=? ORDER BY id"
    for version, seat, uid, by in table.sql(sql, gid):
        key = (version, seat, by or ("ai" if uid is None else "player"))
        if not out or out[-1] != key:
            out.append(key)
    return out


async def test_a_chain_is_one_line_of_the_log(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob])
    service = table.bot.services.tables
    chains = 0
    for _ in range(80):
        state = table.state(gid)
        seat = GAME.to_act(state)[0]
        offered = choices(GAME, state, seat)
        long = [i for i, c in enumerate(offered) if len(c.chain) >= 3]
        if long:
            chains += 1
            k = long[0]
        else:
            k = table.choice_for(gid, seat, table.ai_index(gid, seat))
        await service.act(gid, table.seat_user(gid)[seat], None, choice=k)
        if chains >= 4 and len(_groups(table, gid)) > 15:
            break
    rows = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
    groups = _groups(table, gid)
    assert chains >= 4 and len(groups) < rows, (chains, len(groups), rows)
    pages = -(-len(groups) // 15)
    ex = await table.fd.slash(alice, "game log")
    text = (await table.wait_ephemeral(ex)).content
    head, *lines = text.splitlines()
    assert f"page 1/{pages}" in head
    assert len(lines) == 15 and all(re.match(r"^\S+ \*\*(Alice|Bob)\*\*: ", line, re.I) for line in lines), lines
    # the oldest page: the rest of the decisions
    ex = await table.fd.slash(bob, "game log", {"page": pages})
    head, *lines = (await table.wait_ephemeral(ex)).content.splitlines()
    assert f"page {pages}/{pages}" in head and len(lines) == len(groups) - 15 * (pages - 1)
    assert not table.fd.violations


def test_decisions_group_consecutive_steps_of_one_commit_seat_and_taker():
    import random

    st = GAME.new(["p1", "p2"], {}, 5)
    rows = []
    rng = random.Random(1)
    version = 1
    while len(rows) < 40 and GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        action = GAME.ai_action(st, seat)
        st, evs = GAME.apply(st, seat, action)
        forced = rng.random() < 0.2
        row = log_entry(GAME, seat, None if seat == "p2" else 7, action, evs, auto=forced and seat == "p1")
        row.version = version
        rows.append(row)
        if rng.random() < 0.5:
            version += 1
    groups = decisions(rows)
    assert [a for d in groups for a in d.steps] == rows, "every step, in order, once"
    for d in groups:
        assert {(a.version, a.seat) for a in d.steps} == {(d.version, d.seat)}
        assert {a.by for a in d.steps} == {d.by}
        assert d.by == "ai" if d.seat == "p2" else d.by in ("player", "auto")
    for a, b in zip(groups, groups[1:]):
        assert (a.version, a.seat, a.by) != (b.version, b.seat, b.by), "consecutive groups differ"
    assert sum(len(page(groups, n, 7)) for n in range(1, 1 + -(-len(groups) // 7))) == len(groups)
    assert page(groups, 1, 7) == groups[-7:] and page(groups, 99, 7) == []

"""Platform decisions (docs/rulings.md, "Platform decisions (all games)") and the code agree
(issue 14 item 6): every decision names the tests that check it, each named test exists, and the
tests below check the decisions no other test covered on its own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import render.city_of_fury
from engine import get_game
from store.base import RatingRow, StatRow
from tables.people.standings import rank, rank_by_rating, wilson_lower
from tables.rules.panels import is_token

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ decisions without a test of their own
def test_leaderboard_ranks_by_the_wilson_lower_bound_then_wins_and_each_game_keeps_its_record():
    def row(user, wins, played):
        return StatRow(game="city_of_fury", user_id=user, played=played, wins=wins, best_low=None, best_high=None)

    lucky, steady, new, twin = row(1, 1, 1), row(2, 60, 80), row(3, 0, 0), row(4, 120, 160)
    assert 0 == wilson_lower(0, 0) < wilson_lower(1, 1) < wilson_lower(60, 80) < wilson_lower(120, 160)
    # raw win rate would put 1 of 1 (100%) first; the lower bound puts 60 of 80 above it, and at the same
    # rate the longer record (narrower interval) first; nobody played ranks last
    assert [r.user_id for r in rank([lucky, new, steady, twin])] == [4, 2, 1, 3]
    same_bound = [row(5, 3, 4), row(6, 3, 4)]
    assert [r.user_id for r in rank(same_bound)] == [5, 6]  # equal bound and wins: stable by user
    # rated players first by the cautious estimate (mu - 3 sigma), the unrated after them as above
    rated = {
        1: RatingRow(guild_id=1, game="city_of_fury", user_id=1, mu=30.0, sigma=2.0, played=5),  # 24
        3: RatingRow(guild_id=1, game="city_of_fury", user_id=3, mu=28.0, sigma=1.0, played=9),  # 25
    }
    assert [r.user_id for r in rank_by_rating([lucky, new, steady, twin], rated)] == [3, 1, 4, 2]
    # records: City of Fury fewest rounds to clear, Automobile biggest fortune, Thunder Road earliest win
    assert get_game("city_of_fury").record_lower_is_better and get_game("thunder_road").record_lower_is_better
    assert not get_game("automobile").record_lower_is_better
    cof = get_game("city_of_fury")
    s = cof.new(["solo"], {}, 0)
    assert cof.record(s, "solo") is None  # no record before the boss is beaten
    s.result, s.round = "win", 17
    assert cof.record(s, "solo") == 17.0
    auto = get_game("automobile")
    a = auto.new(["a", "b", "c"], {}, 1)
    a.finished, a.scores = True, {"a": 3100, "b": 2500, "c": 900}
    assert [auto.record(a, seat) for seat in "abc"] == [3100.0, 2500.0, 900.0]


async def test_a_broken_renderer_still_completes_the_turn_with_a_fallback_board(table, monkeypatch):
    calls = []

    def broken(view, locale):
        calls.append(locale)
        raise RuntimeError("renderer broke")

    monkeypatch.setattr(render.city_of_fury, "draw", broken)
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    assert calls, "the game's renderer was asked first"
    assert board.png().startswith(b"\x89PNG") and board.custom_ids, "a fallback board with the buttons"
    version = table.row(gid)["version"]
    ex = await table.choose(alice, board, gid, table.ai_index(gid, "p1"))
    await ex.wait_ack()
    after = await table.next_board(ex, gid, version)
    assert table.row(gid)["version"] == version + 1, "the turn completed"
    assert after.png().startswith(b"\x89PNG") and len(calls) >= 2
    assert not table.fd.violations


async def test_a_stale_click_is_refused_and_the_clicker_gets_a_fresh_private_panel(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    repost = await table.wait_board(await table.fd.slash(alice, "game status"))  # a second copy
    v0 = table.row(gid)["version"]
    ex = await table.choose(alice, board, gid, table.ai_index(gid, "p1"))
    await ex.wait_ack()
    await table.next_board(ex, gid, v0)
    v1 = table.row(gid)["version"]
    old = next(c for c in repost.custom_ids if c.startswith(f"tg:a:{gid}:{v0}:"))
    ex = await table.fd.click(alice, repost, old)

    def panel(e):
        return next((m for m in e.messages if m.ephemeral and m.custom_ids), None)

    fresh = await ex.wait(panel, 20, "a fresh private panel")
    assert any("out of date" in m.content for m in ex.messages if m.ephemeral)
    # a private panel carries the seat's choice token (tables/rules/panels.py), not the table's version
    tokens = [int(c.split(":")[3]) for c in fresh.custom_ids if c.startswith(f"tg:a:{gid}:")]
    assert tokens and all(is_token(x) for x in tokens)
    assert table.row(gid)["version"] == v1
    assert not table.fd.violations


async def test_the_same_players_next_step_redraws_the_board_and_a_passed_turn_posts_a_new_one(table):
    alice, bob = table.fd.add_user(101, "alice"), table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    game = get_game("thunder_road")
    users = table.seat_user(gid)
    same = passed = 0
    for _ in range(300):
        if table.row(gid)["status"] != "active" or (same and passed >= 2):
            break
        state = table.state(gid)
        seat = game.to_act(state)[0]
        version = table.row(gid)["version"]
        public_before = len(table.fd.messages(board.channel_id))
        ex = await table.choose(table.fd.users[users[seat]], board, gid, table.ai_index(gid, seat), version)
        await ex.wait_ack()
        new = await table.next_board(ex, gid, version)
        after = table.state(gid)
        if game.to_act(after) == [seat] and not game.outcome(after):
            # the next step of the same turn: the clicked message, redrawn, no new message, no ping
            assert new.id == board.id and table.board_of(ex.followups) is None
            assert len(table.fd.messages(board.channel_id)) == public_before
            same += 1
        elif game.outcome(after) is None:
            nxt = game.to_act(after)[0]
            # the turn passed on: a new message that pings whoever decides next
            assert new.id != board.id and users[nxt] in new.pinged
            passed += 1
        board = new
    assert same and passed >= 2, (same, passed)
    assert not table.fd.violations


# ------------------------------------------------------------------ the docs name the tests
def our_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def decisions() -> list[list[str]]:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    a = text.index("## Platform decisions (all games)")
    part = text[a : text.index("\n## ", a + 1)]
    rows = [line for line in part.splitlines() if line.startswith("| ")]
    header, rows = rows[0], [r for r in rows[1:] if not set(r) <= set("| -")]
    assert [c.strip() for c in header.strip("|").split("|")] == ["topic", "decision", "why", "tests"]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows]


def test_every_platform_decision_names_existing_tests():
    tests = our_tests()
    rows = decisions()
    assert len(rows) >= 29
    for topic, _decision, _why, named_text in rows:
        named = re.findall(r"`(test_[a-z0-9_]+)`", named_text)
        assert named, f"platform decision {topic!r} names no test"
        missing = [t for t in named if t not in tests]
        assert not missing, f"platform decision {topic!r}: no such test {missing}"


def test_the_play_chain_decision_no_longer_claims_a_known_gap():
    chains = next(r for r in decisions() if r[0] == "/play chains")
    assert "Known gap" not in chains[2] and "xfail" not in chains[2]
    assert "test_play_previews_stop_at_every_reveal_of_every_hazard_type" in chains[3]

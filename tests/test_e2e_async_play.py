"""Tables that run for days: reminders, timers, undo, history, stats, campaigns,
settings, through the real discord.py client and the Discord stand-in, with time
controlled by the tests (no sleeping)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from engine import canonical, get_game

COF = get_game("city_of_fury")
ROOT = Path(__file__).resolve().parent.parent


async def open_cof(table, user, **opts):
    ex = await table.fd.slash(user, "game new", {"game": "city_of_fury", **opts})
    board = await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    return gid, board


def pings(table, after: int = 0):
    return [m for m in table.fd.messages()[after:] if m.pinged and "waiting for you" in m.content]


async def test_reminder_due_while_the_bot_was_down_fires_after_restart(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, _ = await open_cof(table, alice, remind=60)
    assert (await table.tick())["reminders"] == 0  # not due yet
    await table.fd.stop(table.bot)
    table.clock.advance(150)  # 2.5 h pass while the bot is down
    await table.start()
    n = len(table.fd.messages())
    assert (await table.tick())["reminders"] == 1
    msgs = pings(table, n)
    assert len(msgs) == 1 and msgs[0].pinged == [101] and f"#{gid}" in msgs[0].content
    assert (await table.tick())["reminders"] == 0  # at most once per interval
    table.clock.advance(61)
    assert (await table.tick())["reminders"] == 1


async def test_no_reminder_in_quiet_hours(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "remind quiet", {"start": 6, "end": 12, "utc_offset": 1})
    assert "6:00" in (await ex.wait_response()).content
    await open_cof(table, alice, remind=30)
    table.clock.advance(45)  # 08:45 UTC = 09:45 local: asleep by choice
    assert (await table.tick())["reminders"] == 0
    table.clock.advance(180)  # 12:45 local
    assert (await table.tick())["reminders"] == 1
    ex = await table.fd.slash(alice, "remind always")
    await ex.wait_response()
    assert table.sql("SELECT prefs_json FROM user_prefs WHERE user_id=101")[0][0].find("quiet") == -1


async def test_turn_timer_hands_the_decision_to_the_ai(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_cof(table, alice, timer=30)
    v = table.row(gid)["version"]
    table.clock.advance(20)
    assert (await table.tick())["timeouts"] == 0
    table.clock.advance(11)
    assert (await table.tick())["timeouts"] == 1
    assert table.row(gid)["version"] == v + 1
    seat, user = table.sql("SELECT seat, user_id FROM actions WHERE game_id=?", gid)[0]
    assert seat == "p1" and user is None, "the timer acted for the seat, not as the user"
    note = [m for m in table.fd.messages() if "Time ran out" in m.text]
    assert note and note[-1].png() and 101 in note[-1].pinged
    assert (await table.tick())["timeouts"] == 0, "the new decision has a fresh clock"


async def test_a_last_moment_click_beats_the_timer_which_then_does_nothing(table):
    """The scheduler found the timer ran out; before it acts, the player clicks.
    The timer must not take the player's next decision (it used to, every time)."""
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_cof(table, alice, timer=30)
    v = table.row(gid)["version"]
    table.clock.advance(31)
    scheduler = table.bot.get_cog("Scheduler")
    due = await table.bot.services.tables.due(table.clock())
    assert [d.kind for d in due] == ["timeout"]
    ex = await table.choose(alice, board, gid, table.ai_index(gid, "p1"), v)
    await table.next_board(ex, gid, v)
    assert table.row(gid)["version"] == v + 1
    assert await scheduler.expire(due[0]) == 0, "the timer was for a decision already taken"
    assert table.row(gid)["version"] == v + 1
    assert table.sql("SELECT COUNT(*) FROM actions WHERE game_id=? AND user_id IS NULL", gid) == [(0,)]
    assert not [m for m in table.fd.messages() if "Time ran out" in m.content]


async def test_free_undo_of_a_move_without_dice(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, board = await open_cof(table, alice)
    before = table.row(gid)["state_json"]
    state = table.state(gid)
    legal = COF.legal_actions(state, "p1")
    choose = next(i for i, a in enumerate(legal) if a.kind == "choose_skill")
    after, _ = COF.apply(state, "p1", legal[choose])
    assert after.rng == state.rng, "choosing a skill rolls nothing"
    v = table.row(gid)["version"]
    ex = await table.choose(alice, board, gid, choose)
    await table.next_board(ex, gid, v)
    ex = await table.fd.slash(alice, "game undo")
    board = await table.wait_board(ex)
    assert "took back" in board.text
    assert json.loads(table.row(gid)["state_json"]) == json.loads(before)
    assert table.sql("SELECT COUNT(*) FROM reverts")[0][0] == 1
    assert table.sql("SELECT COUNT(*) FROM actions")[0][0] == 1, "the log stays append-only"
    ex = await table.fd.slash(alice, "game undo")
    assert "no move to take back" in (await table.wait_ephemeral(ex)).content


async def test_undo_vetoed_by_another_player(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob])
    users = table.seat_user(gid)
    first = get_game("thunder_road").to_act(table.state(gid))[0]

    # the first player plays until the other one has acted once
    def acted(t):
        return t.sql("SELECT COUNT(*) FROM actions WHERE game_id=? AND seat!=?", gid, first)[0][0] > 0

    await table.play_ai(gid, until=acted)
    v = table.row(gid)["version"]
    mover = table.fd.users[users[first]]
    other = table.fd.users[users["p2" if first == "p1" else "p1"]]
    ex = await table.fd.slash(mover, "game undo")
    vote = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 5, "vote")
    assert other.id in vote.pinged
    no = next(c for c in vote.custom_ids if c.endswith(":no"))
    ex = await table.fd.click(mover, vote, no)
    assert "not yours" in (await table.wait_ephemeral(ex)).content
    ex = await table.fd.click(other, vote, no)
    await ex.wait(lambda e: any("refused" in m.content for m in e.followups), 20, "the refusal")
    assert table.row(gid)["version"] == v and table.sql("SELECT COUNT(*) FROM reverts")[0][0] == 0


async def test_export_replays_to_the_identical_state_and_replay_renders_any_turn(table, tmp_path):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, _ = await open_cof(table, alice)
    ex = await table.fd.slash(alice, "game export")
    assert "still running" in (await table.wait_ephemeral(ex)).content
    await table.play_ai(gid)
    assert table.row(gid)["status"] == "finished"
    ex = await table.fd.slash(alice, "game export", {"table": gid})
    msg = await table.wait_ephemeral(ex)
    export = msg.file(0)
    path = tmp_path / "export.json"
    path.write_bytes(export)
    proc = subprocess.run(  # noqa: ASYNC221 - a short child process in a test
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == canonical(json.loads(table.row(gid)["state_json"]))
    ex = await table.fd.slash(alice, "game replay", {"table": gid, "turn": 3})
    shot = await table.wait_ephemeral(ex)
    assert "turn 3/" in shot.embed["title"] and shot.png()
    # stats and leaderboard now know the result
    ex = await table.fd.slash(alice, "stats me")
    stats = await table.wait_ephemeral(ex)
    assert "1 played" in stats.embed["description"] and stats.png()
    ex = await table.fd.slash(alice, "stats server")
    server = await table.wait_ephemeral(ex)
    assert "1 result by 1 player" in server.embed["description"] and server.png()
    ex = await table.fd.slash(alice, "leaderboard", {"game": "city_of_fury"})
    board = await table.wait_board(ex)
    assert board.png()


async def test_game_mine_lists_waiting_tables_with_links(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    other = table.fd.add_channel("second")
    gid1, _ = await open_cof(table, alice)
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"}, channel=other)
    await table.wait_board(ex)
    ex = await table.fd.slash(alice, "game mine")
    text = (await table.wait_ephemeral(ex)).content
    assert text.count("your turn") == 2
    assert f"/channels/{table.fd.guild_id}/{table.fd.channel_id}" in text and f"/{other}" in text


async def test_campaign_points_table(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    ex = await table.fd.slash(alice, "campaign new", {"game": "city_of_fury", "name": "Spring", "points": "10,4"})
    await ex.wait(lambda e: any("Spring" in m.content for m in e.messages + e.posted), 20, "the announcement")
    ex = await table.fd.slash(alice, "campaign new", {"game": "city_of_fury", "name": "Spring", "points": "x"})
    assert "whole numbers" in (await table.wait_ephemeral(ex)).content
    gid, _ = await open_cof(table, alice, campaign="Spring")
    await table.play_ai(gid)
    won = COF.outcome(table.state(gid)).winners == ["p1"]
    await table.restart()  # standings survive restarts
    ex = await table.fd.slash(alice, "campaign standings", {"name": "Spring"})
    msg = await ex.wait_message(lambda m: m.embeds)
    assert f"{10 if won else 4} pts" in msg.embed["description"]


async def test_server_settings_are_for_admins_and_take_effect(table):
    alice = table.fd.add_user(101, "alice")
    admin = table.fd.add_user(103, "admin", manage_guild=True)
    await table.start()
    ex = await table.fd.slash(alice, "settings language", {"language": "zh"}, unchecked=True)
    assert "Manage Server" in (await ex.wait_response()).content
    other = table.fd.add_channel("games")
    ex = await table.fd.slash(admin, "settings channel", {"channel": other, "allowed": True})
    await ex.wait_response()
    ex = await table.fd.slash(admin, "settings language", {"language": "zh"})
    await ex.wait_response()
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    assert "not played in this channel" in (await table.wait_ephemeral(ex)).content
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"}, channel=other)
    board = await table.wait_board(ex)
    assert "狂怒之城" in board.text, "public messages follow the server language"
    ex = await table.fd.slash(admin, "settings options", {"game": "city_of_fury", "options": "nonsense=1"})
    assert (await ex.wait_response()).ephemeral
    assert "nonsense" not in table.sql("SELECT settings_json FROM guild_settings")[0][0]


async def test_resign_ends_a_solo_table_as_a_loss(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    gid, _ = await open_cof(table, alice)
    ex = await table.fd.slash(alice, "game resign")
    await ex.wait(lambda e: any("resigned" in m.content for m in e.messages + e.posted), 20, "the announcement")
    assert table.row(gid)["status"] == "finished"
    assert table.sql("SELECT user_id, won FROM results WHERE game_id=?", gid) == [(101, 0)]
    ex = await table.fd.slash(alice, "game new", {"game": "city_of_fury"})
    assert await table.wait_board(ex), "the channel is free again"


def _to_act(table, gid) -> list[str]:
    return get_game(table.row(gid)["game"]).to_act(table.state(gid))


async def test_a_present_players_seat_is_never_taken_by_another_player(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    dave = table.fd.add_user(104, "dave")
    await table.start()
    gid, _ = await table.open_table(host, "thunder_road", [bob, carol])
    assert table.seat_user(gid) == {"p1": 101, "p2": 102, "p3": 103}
    # bob (not the host) cannot even open a vote on carol's seat while she keeps nobody waiting
    ex = await table.fd.slash(bob, "game handover", {"seat": "p3", "member": dave})
    assert "That seat is Carol's" in (await table.wait_ephemeral(ex)).content
    # nor on the host's seat, which is the one the old rule let him take with his own vote
    ex = await table.fd.slash(bob, "game handover", {"seat": "p1", "member": dave})
    assert "That seat is Host's" in (await table.wait_ephemeral(ex)).content
    assert table.sql("SELECT COUNT(*) FROM votes")[0][0] == 0
    # carol's turn comes and she keeps the table waiting past its reminder interval (12 h)
    await table.play_ai(gid, until=lambda t: "p3" in _to_act(t, gid))
    table.clock.advance(12 * 60 + 1)
    ex = await table.fd.slash(bob, "game handover", {"seat": "p3", "member": dave})
    vote = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 5, "vote")
    assert {101, 102, 103} <= set(vote.pinged), "the voters and the seat's owner are pinged"
    yes = next(c for c in vote.custom_ids if c.endswith(":yes"))
    no = next(c for c in vote.custom_ids if c.endswith(":no"))
    ex = await table.fd.click(dave, vote, yes)
    assert "not yours" in (await table.wait_ephemeral(ex)).content
    ex = await table.fd.click(bob, vote, yes)
    assert "1/2" in (await table.wait_ephemeral(ex)).content, "one other player alone is never enough"
    # the owner is back in time and refuses: the vote ends, the seat stays hers
    ex = await table.fd.click(carol, vote, no)
    await ex.wait(lambda e: any("refused" in m.content for m in e.followups), 5, "the refusal")
    assert table.seat_user(gid)["p3"] == 103
    assert table.sql("SELECT status FROM votes")[0][0] == "refused"
    assert not table.fd.message(vote.id).custom_ids, "a closed vote keeps no buttons"


async def test_an_idle_seat_goes_by_majority_vote_and_the_host_hands_over_at_once(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    dave = table.fd.add_user(104, "dave")
    await table.start()
    gid, _ = await table.open_table(host, "thunder_road", [bob, carol])
    await table.play_ai(gid, until=lambda t: "p3" in _to_act(t, gid))
    table.clock.advance(12 * 60 + 1)
    ex = await table.fd.slash(bob, "game handover", {"seat": "p3", "member": dave})
    vote = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 5, "vote")
    yes = next(c for c in vote.custom_ids if c.endswith(":yes"))
    ex = await table.fd.click(bob, vote, yes)
    assert "1/2" in (await table.wait_ephemeral(ex)).content
    assert table.seat_user(gid)["p3"] == 103
    ex = await table.fd.click(host, vote, yes)
    await table.wait_board(ex)
    assert table.seat_user(gid)["p3"] == 104
    assert table.sql("SELECT status FROM votes")[0][0] == "passed"
    # the host hands dave's seat to the AI at once; the AI then plays it whenever it is to act
    ex = await table.fd.slash(host, "game handover", {"seat": "p3"})
    board = await table.wait_board(ex)
    assert table.seat_user(gid)["p3"] is None and "AI" in board.text
    await table.play_ai(gid, until=lambda t: t.sql("SELECT COUNT(*) FROM actions WHERE seat='p3'")[0][0] > 0)
    assert table.sql("SELECT COUNT(*) FROM actions WHERE seat='p3' AND user_id IS NOT NULL")[0][0] == 0


async def test_log_pages_through_the_whole_history_in_the_readers_language(table):
    alice = table.fd.add_user(101, "alice")
    li = table.fd.add_user(102, "li", locale="zh-CN")
    await table.start()
    gid, _ = await open_cof(table, alice)
    await table.play_ai(gid, steps=40)
    n = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
    pages = -(-n // 15)
    ex = await table.fd.slash(alice, "game log", {"page": pages})
    last = (await table.wait_ephemeral(ex)).content
    assert f"page {pages}/{pages}" in last
    ex = await table.fd.slash(li, "game log")
    zh = (await table.wait_ephemeral(ex)).content
    assert f"第 1/{pages} 页" in zh


async def test_slash_commands_are_translated(table):
    li = table.fd.add_user(102, "li", locale="zh-CN")
    await table.start()
    synced = {c["name"]: c for cmds in table.fd.commands.values() for c in cmds.values()}
    assert synced["game"]["name_localizations"]["zh-CN"] == "游戏"
    assert synced["rules"]["description_localizations"]["zh-CN"] == "阅读游戏规则"
    ex = await table.fd.slash(li, "游戏 新建", {"game": "city_of_fury"}, locale="zh-CN")
    board = await table.wait_board(ex)
    assert "狂怒之城" in board.text


async def test_a_channel_the_bot_cannot_post_in_does_not_stop_the_scheduler(table):
    import discord

    alice = table.fd.add_user(101, "alice")
    await table.start()
    await open_cof(table, alice, remind=30)
    table.clock.advance(40)
    full = table.fd.bot_permissions
    table.fd.bot_permissions = discord.Permissions(view_channel=True)  # lost Send Messages
    counts = await table.tick()
    assert counts["failed"] == 1 and counts["reminders"] == 0
    table.fd.bot_permissions = full
    assert (await table.tick())["reminders"] == 1, "the reminder is still due once posting works again"


async def test_armor_clash_story_campaign_carries_crews_between_tables(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    ex = await table.fd.slash(alice, "campaign new", {"game": "armor_clash", "name": "East", "story": "mode=hard"})
    assert (
        "War Thunder" in (await table.wait_ephemeral(ex)).content
        or "战争雷霆" in (await table.wait_ephemeral(ex)).content
    )
    ex = await table.fd.slash(alice, "campaign new", {"game": "armor_clash", "name": "East", "story": "mode=simple"})
    await ex.wait(lambda e: any("East" in m.content for m in e.messages + e.posted), 20, "the announcement")
    for n in range(2):
        # the second table is bob's, and alice joins it: she keeps her seat name (and crew)
        gid, _ = await table.open_table(bob if n else alice, "armor_clash", [alice] if n else [], campaign="East")
        seats = table.seat_user(gid)
        assert seats["p1"] == 101 and (not n or seats["p2"] == 102)
        state = table.state(gid)
        assert state.options.mode == "simple" and state.options.scenario.startswith("c")
        await table.play_ai(gid)
        assert table.row(gid)["status"] == "finished"
        story = json.loads(table.sql("SELECT progress_json FROM campaigns")[0][0])["story"]
        assert "p1" in story["crews"] and len(story["history"]) == n + 1
        assert story["crews"]["p1"]["battles"] == n + 1 or story["crews"]["p1"]["generation"] > 1
    ex = await table.fd.slash(alice, "campaign standings", {"name": "East"})
    msg = await ex.wait_message(lambda m: m.embeds)
    assert any(f["name"] == "Story" for f in msg.embed.get("fields", []))


async def test_two_ballots_at_once_are_both_counted(table):
    users = [table.fd.add_user(101 + i, f"u{i}") for i in range(4)]
    await table.start()
    gid, _ = await table.open_table(users[0], "thunder_road", users[1:])
    # p4 keeps the table waiting past its reminder interval; p2 proposes handing p4 to the AI:
    # p1, p2, p3 vote, 2 of 3 decide
    await table.play_ai(gid, until=lambda t: "p4" in _to_act(t, gid))
    table.clock.advance(12 * 60 + 1)
    ex = await table.fd.slash(users[1], "game handover", {"seat": "p4"})
    vote = await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "vote")
    yes = next(c for c in vote.custom_ids if c.endswith(":yes"))
    a, b = await asyncio.gather(table.fd.click(users[0], vote, yes), table.fd.click(users[2], vote, yes))
    await asyncio.gather(a.wait_response(), b.wait_response())
    await (a if len(a.followups) >= len(b.followups) else b).wait(
        lambda e: table.seat_user(gid)["p4"] is None, 20, "the hand-over"
    )
    vid = table.sql("SELECT id FROM votes")[0][0]
    assert sorted(json.loads(table.sql("SELECT yes_json FROM votes WHERE id=?", vid)[0][0])) == [101, 103]
    assert table.sql("SELECT status FROM votes")[0][0] == "passed"

"""A member who forgets themselves mid-season (issue 28 item 7), through the stand-in
(every request checked against Discord's OpenAPI description): the forget withdraws
them from the league (no more pairings, no podium), and no pseudonym ever reaches
Discord, as a mention or in ``allowed_mentions``; each table still gets one thread."""

from __future__ import annotations

from conftest import Table
from test_e2e_league import current_tables, league_state, league_status, reply, signup_post, tick, until


async def four_signed_up(table: Table, first_id: int, stem: str, *, rounds: int, round_hours: int) -> list:
    """Four members signed up to a Swiss Armor Clash duel league "Cup" the server owner made."""
    fd = table.fd
    players = [fd.add_user(first_id + i, f"{stem}{i}") for i in range(4)]
    await table.start()
    config = {"game": "armor_clash", "name": "Cup", "format": "swiss", "rounds": rounds, "round_hours": round_hours}
    await reply(fd, await fd.slash(fd.owner, "league new", {**config, "options": "scenario=duel"}))
    signup = await signup_post(fd)
    for p in players:
        assert "signed up" in await reply(fd, await fd.click(p, signup, "tg:lg:1:join"))
    return players


async def test_a_member_who_forgets_themselves_withdraws_and_is_never_mentioned(table: Table):
    fd = table.fd
    boss = fd.owner
    players = await four_signed_up(table, 7101, "racer", rounds=3, round_hours=1)
    ex = await fd.slash(boss, "league start", {"name": "Cup"})
    await reply(fd, ex)
    await until(lambda: league_state(table)["round"] == 1 and all(tb["game_id"] for tb in current_tables(table)))
    await ex.wait_idle(quiet=0.3, timeout=30)

    # round 1: one table ends; one of its members forgets themselves before round 2
    done, running = current_tables(table)
    await table.play_ai(done["game_id"])
    leaver = done["seats"][0]
    ex = await fd.slash(fd.users[leaver], "privacy forget")
    assert "Done" in await reply(fd, ex)
    st = league_state(table)
    assert str(leaver) not in st["players"]
    (anon,) = [int(u) for u, p in st["players"].items() if int(u) < 0]
    assert st["players"][str(anon)]["dropped"] == 1  # withdrawn, in the forget's own transaction

    table.clock.advance(61)  # the deadline: round 1 ends, round 2 is paired without them
    for _ in range(3):  # several passes: nothing is opened twice
        await tick(table)
    st = league_state(table)
    assert st["round"] == 2
    second = st["rounds"][1]
    assert all(anon not in tb["seats"] for tb in second["tables"]) and anon not in second["byes"]
    assert len(second["tables"]) == 1 and len(second["byes"]) == 1  # three players left
    threads = [c for c in fd.channels.values() if c.get("type") == 11]
    assert len(threads) == 3  # one per table opened, never a new empty one per pass

    for _ in range(2):  # the season runs to its end without them
        table.clock.advance(61)
        await tick(table)
    assert league_status(table) == "finished"
    podium = league_state(table)["podium"]["1"]
    assert anon not in podium and leaver not in podium
    ex = await fd.slash(players[1], "league standings", {"name": "Cup"})
    await until(lambda: any(m.attachments for m in ex.messages))
    ex = await fd.slash(players[1], "league status", {"name": "Cup"})
    await reply(fd, ex)

    texts = [m.text for m in fd.messages()] + [m.text for c in fd.channels for m in fd.messages(c)]
    assert not [x for x in texts if "<@-" in x], "a pseudonym was sent as a mention"
    assert not [x for x in texts if str(anon) in x], "a pseudonym was sent to Discord"
    assert not fd.violations, fd.violations


async def test_a_table_thread_whose_ping_discord_refuses_is_still_the_tables_only_thread(table: Table):
    """Discord refusing the ping in a new table thread (as it refused a pseudonym's) left the
    thread empty and unrecorded, and every later pass opened another (13 in 2 hours)."""
    fd = table.fd
    boss = fd.owner
    await four_signed_up(table, 7201, "driver", rounds=2, round_hours=2)
    # the first message posted in a thread (a table's ping) is refused as invalid
    fd.fail_requests("POST", rf"^/channels/(?!{fd.channel_id}/)\d+/messages$", 400, 50035, "Invalid Form Body")
    ex = await fd.slash(boss, "league start", {"name": "Cup"})
    await reply(fd, ex)
    await until(lambda: league_state(table)["round"] == 1 and all(tb["game_id"] for tb in current_tables(table)))
    for _ in range(11):  # passes every ten minutes until just before the deadline
        table.clock.advance(10)
        await tick(table)
    threads = [c for c in fd.channels.values() if c.get("type") == 11]
    assert len(threads) == 2 and {int(c["id"]) for c in threads} == {tb["channel_id"] for tb in current_tables(table)}

"""A league round's deadline through the table service, on every store backend
(tables/leagues/deadline.py; docs/rulings.md "Leagues: the deadline"): who never
moved forfeits, a table nobody moved at is a double forfeit, ratings move only for
members who played (issue 29 item 3); a deadline that loses the race with a move
is decided again, by this pass or the next, never left open (issue 28 item 8)."""

from __future__ import annotations

import re

from conftest import Clock, make_store
from test_web import client_for

from tables import TableService
from tables.leagues.rounds import LeagueService

GUILD = 1


async def _season(leagues: LeagueService, players: list[int], name: str = "Cup"):
    lg = await leagues.create(
        guild_id=GUILD, channel_id=5, game="armor_clash", name=name, format="swiss", created_by=9,
        rounds=2, round_hours=1, options={"scenario": "duel"},
    )  # fmt: skip
    for uid in players:
        await leagues.signup(lg.id, uid)
    await leagues.start(lg.id)
    await leagues.advance(lg.id)
    row = await leagues.get(lg.id)
    for n, k, _ in leagues.unopened(row):
        assert await leagues.claim_open(lg.id, n, k)
        await leagues.open_table(lg.id, n, k, 8000 + k, locale="en", seed=k + 1)
    return lg.id, (await leagues.get(lg.id)).state["rounds"][0]["tables"]


async def move(tables: TableService, gid: int, uid: int) -> bool:
    """``uid`` makes one move at table ``gid`` when it is theirs to make."""
    loaded = await tables.load(gid)
    seat = loaded.row.seat_of(uid)
    if seat is None or seat not in loaded.game.to_act(loaded.state):
        return False
    await tables.act(gid, uid, lambda g, st, s, legal: g.ai_action(st, s))
    return True


async def moved_by_both(tables: TableService, gid: int, seats: list[int]) -> None:
    """Both members move at least once (the table still running)."""
    done: set[int] = set()
    for _ in range(200):
        for uid in seats:
            if await move(tables, gid, uid):
                done.add(uid)
        if done == set(seats):
            break
    assert done == set(seats)
    assert (await tables.load(gid)).row.status == "active"


async def test_absent_members_forfeit_and_only_games_played_are_rated(store):
    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lid, first = await _season(leagues, [21, 22, 23, 24, 25, 26])
    played, half, nobody = first
    await moved_by_both(tables, played["game_id"], played["seats"])
    mover, absent = half["seats"]
    assert await move(tables, half["game_id"], mover)  # the other never moves
    clock.advance(3601)
    events = await leagues.advance(lid)
    assert [e.kind for e in events][:2] == ["deadline", "table_ended"]
    tb = (await leagues.get(lid)).state["rounds"][0]["tables"]

    # both moved: the AI plays the table out, the places count, both ratings move
    assert (await store.get_game(played["game_id"])).status == "finished"
    assert sorted(map(int, tb[0]["places"])) == sorted(played["seats"]) and tb[0]["forfeit"] == []
    # one never moved: they forfeit, the other wins by forfeit; nothing is played on
    assert (await store.get_game(half["game_id"])).status == "abandoned"
    assert tb[1]["absent"] == [absent] and tb[1]["forfeit"] == [absent] and tb[1]["places"] == {str(mover): 1}
    # nobody moved: a double forfeit
    assert tb[2]["places"] == {} and sorted(tb[2]["forfeit"]) == sorted(nobody["seats"])
    rated = sorted(r.user_id for r in await store.ratings(GUILD))
    assert rated == sorted(played["seats"])  # only a game played moves a rating

    rows = {r.user_id: r for r in (await leagues.standings(lid)).rows}
    assert rows[mover].points == 1 and rows[mover].wins == 1 and rows[mover].rating_change == 0
    assert rows[absent].points == 0 and rows[absent].absent == 1 and rows[absent].rating_change == 0
    assert all(rows[u].points == 0 and rows[u].absent == 1 and rows[u].wins == 0 for u in nobody["seats"])
    assert sum(rows[u].points for u in played["seats"]) == 1  # a win (or two halves of a draw)
    assert all(rows[u].absent == 0 and rows[u].rating_change != 0 for u in played["seats"])

    # the web companion's league page shows the absences too
    c = await client_for(tables)
    try:
        page = await (await c.get(f"/g/{GUILD}/leagues")).text()
    finally:
        await c.close()
    assert "<th>Absent</th>" in page
    cells = [re.findall(r"<td>(.*?)</td>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", page)]
    absences = {int(re.sub(r"\D", "", r[1])): int(r[-1]) for r in cells if r}
    assert absences == {u: rows[u].absent for u in rows} and absences[absent] == 1


async def test_a_deadline_racing_a_move_in_another_process_is_decided_not_left_open(store_backend, tmp_path):
    clock = Clock()
    a = await make_store(store_backend, tmp_path, clock=clock)
    b = await make_store(store_backend, tmp_path, clock=clock)  # a second bot process
    try:
        ta, tb_ = TableService(a, clock=clock), TableService(b, clock=clock)
        leagues = LeagueService(ta)
        lid, first = await _season(leagues, [31, 32])
        (table,) = first
        gid = table["game_id"]
        await moved_by_both(ta, gid, table["seats"])
        races = [0]
        plain = ta.off_loop

        async def racing(fn, *args):
            """While this process plays the table out, a member's move lands from the other one."""
            if races[0] > 0:
                races[0] -= 1
                loaded = await tb_.load(gid)
                seat = loaded.game.to_act(loaded.state)[0]
                await tb_.act(gid, loaded.row.user_of(seat), lambda g, st, s, legal: g.ai_action(st, s))
            return await plain(fn, *args)

        ta.off_loop = racing  # type: ignore[method-assign]
        # the first pass loses every try to moves landing meanwhile: the table stays open...
        races[0] = 3
        clock.advance(3601)
        await leagues.advance(lid)
        row = await leagues.get(lid)
        assert row.state["round"] == 1 and row.state["rounds"][0]["tables"][0]["status"] == "open"
        assert (await a.get_game(gid)).status == "active"
        # ...and the next pass (a minute later, or from the other process) decides it
        clock.advance(60)
        events = await LeagueService(tb_).advance(lid)
        assert "deadline" in [e.kind for e in events]
        row = await leagues.get(lid)
        assert row.state["rounds"][0]["tables"][0]["status"] == "ended" and row.state["round"] == 2
        assert (await a.get_game(gid)).status == "finished"

        # a pass that loses once decides again at once on the fresh table
        second = row.state["rounds"][1]["tables"]
        for n, k, _ in leagues.unopened(row):
            assert await leagues.claim_open(lid, n, k)
            await leagues.open_table(lid, n, k, 9000 + k, locale="en", seed=7)
        gid = (await leagues.get(lid)).state["rounds"][1]["tables"][0]["game_id"]
        await moved_by_both(ta, gid, second[0]["seats"])
        races[0] = 1
        clock.advance(3601)
        await leagues.advance(lid)
        assert races[0] == 0 and (await a.get_game(gid)).status == "finished"
        assert (await leagues.get(lid)).status == "finished"
    finally:
        await a.close()
        await b.close()


async def test_members_held_up_by_an_absent_one_share_the_win_by_forfeit(store):
    """Pods: the first seat never moves, so the others' turns never come: they are not
    absent, and the AI does not play a game none of them played (no places, no rating)."""
    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lg = await leagues.create(
        guild_id=GUILD, channel_id=5, game="thunder_road", name="Pods", format="pods", seats=3, created_by=9,
        rounds=1, round_hours=1,
    )  # fmt: skip
    for uid in (41, 42, 43):
        await leagues.signup(lg.id, uid)
    await leagues.start(lg.id)
    await leagues.advance(lg.id)
    row = await leagues.get(lg.id)
    ((n, k, tb),) = leagues.unopened(row)
    assert await leagues.claim_open(lg.id, n, k)
    await leagues.open_table(lg.id, n, k, 8100, locale="en", seed=3)
    gid = (await leagues.get(lg.id)).state["rounds"][0]["tables"][0]["game_id"]
    loaded = await tables.load(gid)
    (first,) = [loaded.row.user_of(s) for s in loaded.game.to_act(loaded.state)]
    clock.advance(3601)
    await leagues.advance(lg.id)
    (tb,) = (await leagues.get(lg.id)).state["rounds"][0]["tables"]
    others = [u for u in tb["seats"] if u != first]
    assert tb["absent"] == [first] and tb["forfeit"] == [first]
    assert tb["places"] == {str(u): 1 for u in others}  # a shared win, not the AI's game
    assert (await store.get_game(gid)).status == "abandoned" and await store.ratings(GUILD) == []
    rows = {r.user_id: r for r in (await leagues.standings(lg.id)).rows}
    assert rows[first].points == 0 and rows[first].absent == 1
    assert all(rows[u].points == 1.5 and rows[u].absent == 0 for u in others)  # (2 + 1) / 2 each


async def test_a_member_dropped_mid_round_forfeits_a_table_decided_unplayed(store):
    """A dropped member's seat went to the AI: when the table then ends by forfeit at the
    deadline, the withdrawn member forfeits too (they never share its win)."""
    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lid, (table,) = await _season(leagues, [51, 52])
    quitter, stayer = table["seats"]
    await leagues.drop(lid, quitter)  # their seat goes to the AI; the other never moves
    clock.advance(3601)
    await leagues.advance(lid)
    (tb,) = (await leagues.get(lid)).state["rounds"][0]["tables"]
    assert tb["absent"] == [stayer] and tb["places"] == {} and sorted(tb["forfeit"]) == sorted([quitter, stayer])
    rows = {r.user_id: r for r in (await leagues.standings(lid)).rows}
    assert rows[quitter].points == 0 and rows[quitter].absent == 1 and rows[quitter].dropped

"""`/privacy forget` and the rows others change by compare-and-swap (issue 28 item 7):
a league, campaign or vote change decided on the row as it was before the forget
must fail and be decided again, never write the member's id back; and the forget
withdraws the member from every league in its own transaction.  Both store backends."""

from __future__ import annotations

import pytest
from tablekit import open_vote
from test_privacy import BOB, CAROL, HOST, member_ids_everywhere, three_at_a_table

from store import CampaignChange, ChangeSet, VersionConflict, VoteChange
from tables import TableService
from tables.leagues.rounds import LeagueService


def season_state(*members: int) -> dict:
    return {
        "roster": list(members),
        "players": {str(u): {"joined": 1, "dropped": None, "division": 1} for u in members},
        "aliases": {},
        "rating_start": {},
        "round": 1,
        "rounds": [{"n": 1, "byes": [], "tables": [{"seats": list(members[:2]), "status": "ended",
                                                   "places": {str(members[0]): 1, str(members[1]): 2}}]}],
    }  # fmt: skip


async def test_a_change_decided_before_a_forget_cannot_write_the_member_back(store):
    service = TableService(store)
    running = await store.create_league(
        guild_id=1, channel_id=5, game="armor_clash", name="a", format="swiss", config={"rounds": 3},
        state=season_state(HOST, BOB, CAROL), created_by=BOB,
    )  # fmt: skip
    await store.update_league(running.id, running.version, status="running")
    signup = await store.create_league(
        guild_id=1, channel_id=6, game="armor_clash", name="b", format="swiss", config={},
        state={"roster": [BOB, HOST], "players": {str(BOB): {}, str(HOST): {}}, "round": 0, "rounds": []},
        created_by=BOB,
    )  # fmt: skip
    camp = await store.create_campaign(
        guild_id=1, game="thunder_road", name="Cup", points=[3, 1], created_by=BOB,
        progress={"members": {str(HOST): "p1", str(BOB): "p2"}},
    )  # fmt: skip
    gid = await three_at_a_table(store, service)
    row = await store.get_game(gid)
    await open_vote(
        store, game_id=gid, kind="handover", payload={"seat": "p2", "to": CAROL, "owner": BOB},
        base_version=row.version, voters=[HOST, CAROL], created_by=BOB,
    )  # fmt: skip
    await service.resign(gid, HOST)  # no longer seated: the forget may go ahead

    # what other processes read just before the forget
    league_before = await store.league(running.id)
    camp_before = await store.campaign_by_id(camp.id)
    (vote_before,) = await store.open_votes(gid)
    await service.forget(HOST)
    assert await member_ids_everywhere(store, HOST) == []

    # ...and the changes they decided on it: refused, so they decide again on the fresh rows
    with pytest.raises(VersionConflict):
        await store.update_league(running.id, league_before.version, state=league_before.state)
    with pytest.raises(VersionConflict):
        await store.commit(ChangeSet(campaigns=[CampaignChange(camp.id, camp_before.version, camp_before.progress)]))
    with pytest.raises(VersionConflict):
        await store.commit(ChangeSet(votes=[VoteChange(vote_before.id, vote_before.version, yes=[HOST])]))
    assert await member_ids_everywhere(store, HOST) == []

    # the forget withdrew the member: dropped from the running season (their record stays,
    # under the pseudonym), off the roster of the one still in sign-up
    st = (await store.league(running.id)).state
    (anon,) = [int(u) for u in st["players"] if int(u) < 0]
    assert st["players"][str(anon)]["dropped"] == 1 and st["rounds"][0]["tables"][0]["places"][str(anon)] == 1
    assert (await store.league(signup.id)).state["players"] == {str(BOB): {}}
    assert (await store.league(signup.id)).state["roster"] == [BOB]
    # a league change through the service, racing nothing now, keeps the forget
    leagues = LeagueService(service)
    await leagues.signup(signup.id, CAROL)
    assert await member_ids_everywhere(store, HOST) == []
    rows = (await leagues.standings(running.id)).rows
    assert [r.user_id for r in rows if r.dropped] == [anon]


def test_a_member_forgotten_before_forgets_withdrew_is_never_paired():
    """A season whose member was forgotten by an earlier release (their pseudonym still an
    undropped player) pairs the others only."""
    from store import LeagueRow
    from tables.leagues.rounds import pair_round

    state = season_state(HOST, BOB, CAROL)
    state["players"] = {("-77" if u == str(HOST) else u): p for u, p in state["players"].items()}
    row = LeagueRow(
        id=1, guild_id=1, channel_id=5, game="armor_clash", name="a", format="swiss", status="running",
        config={"rounds": 3}, state=state, created_by=BOB, created_at=0.0, updated_at=0.0, version=1,
    )  # fmt: skip
    rnd = pair_round(row, 2, {}, 0.0)
    assert [tb["seats"] for tb in rnd["tables"]] in ([[BOB, CAROL]], [[CAROL, BOB]]) and rnd["byes"] == []


async def test_round_robin_keeps_its_schedule_when_a_member_withdraws(store):
    """A withdrawal (here: a forget) by the rules of round robin: the schedule stands, the
    withdrawn member's opponents get a bye each round, and nobody meets anyone twice."""
    from conftest import Clock

    clock = Clock()
    service = TableService(store, clock=clock)
    leagues = LeagueService(service)
    lg = await leagues.create(
        guild_id=1, channel_id=5, game="armor_clash", name="RR", format="round_robin", created_by=BOB,
        round_hours=1, options={"scenario": "duel"},
    )  # fmt: skip
    players = [HOST, BOB, CAROL, 310_000_000_000_000_010]
    for uid in players:
        await leagues.signup(lg.id, uid)
    await leagues.start(lg.id)
    await leagues.advance(lg.id)
    for _ in range(3):
        row = await leagues.get(lg.id)
        for n, k, _ in leagues.unopened(row):
            assert await leagues.claim_open(lg.id, n, k)
            await leagues.open_table(lg.id, n, k, 9100 + 10 * n + k, locale="en", seed=k + 1)
        if int(row.state["round"]) == 1:  # HOST leaves their table to the AI and forgets themselves
            fresh = (await leagues.get(lg.id)).state["rounds"][0]["tables"]
            (gid,) = [tb["game_id"] for tb in fresh if HOST in tb["seats"]]
            await service.resign(gid, HOST)
            await service.forget(HOST)
        clock.advance(3601)
        await leagues.advance(lg.id)
    row = await leagues.get(lg.id)
    assert row.status == "finished" and len(row.state["rounds"]) == 3
    met = [frozenset(tb["seats"]) for r in row.state["rounds"] for tb in r["tables"]]
    assert len(met) == len(set(met))  # no rematch
    anon = next(int(u) for u in row.state["players"] if int(u) < 0)
    later = row.state["rounds"][1:]
    assert all(anon not in tb["seats"] for r in later for tb in r["tables"])
    assert all(len(r["tables"]) == 1 and len(r["byes"]) == 1 for r in later)  # their opponent: a bye

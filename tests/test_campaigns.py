"""Campaigns (tables/play/campaigns.py, and the kernel's commit of a finished campaign
table) on every store backend."""

from __future__ import annotations

from tablekit import AI, BOB, HOST, all_or_nothing, new_table, play_until

from engine import get_game
from tables import TableService


async def test_a_finished_game_its_results_and_campaign_progress_are_one_change(store):
    """Armor Clash story campaign: the last action, the result rows and the
    campaign's story land together or not at all."""
    service = TableService(store)
    camp = await service.create_campaign(
        guild_id=1, game_id="armor_clash", name="East", points=[3, 1], created_by=HOST, story={"mode": "simple"}
    )
    row = await new_table(store, "armor_clash", seats=[("p1", HOST)], campaign_id=camp.id)
    started = (await service.lobby(row.id, HOST, "start")).started
    assert started.row.seats[0].seat == "p1" and started.state.options.scenario.startswith("c")
    game = get_game("armor_clash")

    def finishes(ld):
        seat = game.to_act(ld.state)[0]
        after, _ = game.apply(ld.state, seat, game.ai_action(ld.state, seat))
        after, _, _ = service.run_ai(ld.row, game, after)
        return game.outcome(after) is not None

    loaded = await play_until(service, row.id, finishes)
    seat = game.to_act(loaded.state)[0]

    async def after(res):
        assert res.finished
        fresh = await store.get_game(row.id)
        assert fresh.status == "finished" and fresh.outcome is not None
        story = (await store.campaign_by_id(camp.id)).progress["story"]
        assert len(story["history"]) == 1 and "p1" in story["crews"]
        assert [r.played for r in await store.stats(1)] == [1]

    await all_or_nothing(
        store,
        row.id,
        "finish+results+campaign",
        ["actions", "results", "campaigns", "commit"],
        lambda: service.act(row.id, HOST, AI, seat=seat, expected_version=loaded.row.version),
        after,
    )


async def test_a_campaign_lobby_starts_with_its_seats_options_and_progress_in_one_change(store):
    service = TableService(store)
    camp = await service.create_campaign(
        guild_id=1, game_id="armor_clash", name="West", points=[3, 1], created_by=HOST, story={"mode": "simple"}
    )
    row = await new_table(store, "armor_clash", seats=[("p1", BOB), ("p2", HOST)], campaign_id=camp.id)

    async def after(res):
        fresh = await store.get_game(row.id)
        members = (await store.campaign_by_id(camp.id)).progress["members"]
        assert fresh.status == "active" and members == {str(BOB): "p1", str(HOST): "p2"}
        assert fresh.options.get("scenario", "").startswith("c")

    # start is the host's (HOST sits at p2 here)
    await all_or_nothing(
        store,
        row.id,
        "lobby start+campaign",
        ["seats", "campaigns", "commit"],
        lambda: service.lobby(row.id, HOST, "start"),
        after,
    )

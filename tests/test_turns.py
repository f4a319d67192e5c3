"""Turns (tables/play/turns.py) on every store backend: a timer never takes a decision
after a last-moment click, a forged chain past a reveal is refused whole, and the
/play previews a chain is built from never look past hidden information."""

from __future__ import annotations

import asyncio

import pytest
from tablekit import AI, CRASH_TRIES, HOST, new_table, snapshot

from engine import get_game
from store import Seat
from tables import TableService, TurnRefused, preview


async def test_the_timer_never_takes_the_decision_after_a_last_moment_click(store):
    """The scheduler saw the table at version v; the player answers first.  The
    timer must then do nothing, however the two interleave (also when the
    same player is to act again)."""
    tried = wrong = 0
    for attempt in range(30):
        service = TableService(store)
        row = await new_table(store)
        await service.lobby(row.id, HOST, "start")
        loaded = await service.load(row.id)
        seat = loaded.game.to_act(loaded.state)[0]
        uid = loaded.row.user_of(seat)
        seen = loaded.row.version  # what the scheduler pass read
        click = service.act(row.id, uid, AI, expected_version=seen)
        timer = service.timeout(row.id, seen)
        first, second = (click, timer) if attempt % 2 == 0 else (timer, click)
        outcomes = await asyncio.gather(first, second, return_exceptions=True)
        tried += 1
        applied = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, TurnRefused)]
        log = await store.actions(row.id, limit=10_000)
        humans = [a for a in log if a.seat == seat and a.user_id is not None]
        timed = [a for a in log if a.seat == seat and a.user_id is None]
        # exactly one of the two decided the one decision they both saw
        if len(applied) != 1 or len(refused) != 1 or refused[0].code != "stale" or len(humans) + len(timed) != 1:
            wrong += 1
    CRASH_TRIES["timer-vs-click"] = [tried, wrong]
    print(f"timer-vs-click races: tried={tried} wrong_decisions={wrong}")
    assert tried == 30 and wrong == 0


async def test_a_timer_after_the_click_is_refused_as_stale(store):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    loaded = await service.load(row.id)
    seat = loaded.game.to_act(loaded.state)[0]
    await service.act(row.id, loaded.row.user_of(seat), AI)
    with pytest.raises(TurnRefused) as err:
        await service.timeout(row.id, loaded.row.version)
    assert err.value.code == "stale"
    # the timer for the decision now pending works
    fresh = await store.get_game(row.id)
    result, seats = await service.timeout(row.id, fresh.version)
    assert seats and result.row.version == fresh.version + 1


async def test_a_forged_chain_past_a_reveal_is_refused_whole(store):
    service = TableService(store)
    game = get_game("thunder_road")
    for seed in range(40):
        row = await store.create_game(
            guild_id=1,
            channel_id=1000 + seed,
            game="thunder_road",
            host_id=HOST,
            options={},
            seed=seed,
            seats=[Seat("p1", HOST), Seat("p2", None)],
        )
        await service.lobby(row.id, HOST, "start")
        for _ in range(400):
            if (await store.get_game(row.id)).status != "active":
                break
            state = (await service.load(row.id)).state
            action = game.ai_action(state, "p1")
            after, _ = game.apply(state, "p1", action)
            if game.hidden_revealed(state, after) and after.rng == state.rng and "p1" in game.to_act(after):
                before = await snapshot(store, row.id)
                chain = [lambda g, st, s, lg, a=action: a, lambda g, st, s, lg: lg[0]]
                with pytest.raises(TurnRefused) as err:
                    await service.act(row.id, HOST, chain)
                assert err.value.code == "chain_broken"
                assert await snapshot(store, row.id) == before
                return
            await service.act(row.id, HOST, AI)
    raise AssertionError("no reveal step with the turn going on")


HAZARDS = {"wreck", "mine", "road", "mud", "oil", "fire"}


def hazard_steps(seeds=range(12)):
    """(state, seat, legal index, token key) for every step of seeded races (fire
    included) that enters a space with a face-down hazard token, without a die roll."""
    game = get_game("thunder_road")
    for seed in seeds:
        state = game.new(["a", "b"], {"on_fire": True}, seed)
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            action = game.ai_action(state, seat)
            idx = game.legal_actions(state, seat).index(action)
            after, _ = game.apply(state, seat, action)
            touched = [
                k for k, h in state.hazards.items() if not h.up and (k not in after.hazards or after.hazards[k].up)
            ]
            if touched and after.rng == state.rng:
                yield state, seat, idx, touched[0]
            state = after


def test_play_previews_stop_at_every_reveal_of_every_hazard_type():
    """At every step onto a face-down token, with the token set to each hazard
    type in turn: when the step reveals it (``hidden_revealed``) or rolls, the
    /play preview ends there and offers nothing further."""
    game = get_game("thunder_road")
    walked = dict.fromkeys(HAZARDS, 0)
    stopped = 0
    for state, seat, idx, k in hazard_steps():
        for kind in HAZARDS:
            probe = state.model_copy(deep=True)
            probe.hazards[k] = probe.hazards[k].model_copy(update={"type": kind})  # tokens are frozen
            after, _ = game.apply(probe, seat, game.legal_actions(probe, seat)[idx])
            walked[kind] += 1
            if after.rng != probe.rng or game.hidden_revealed(probe, after):
                shown = preview(game, probe, seat, [idx], "en")
                assert shown.complete and shown.options == [], f"the preview looked past a face-down {kind}"
                stopped += 1
    assert min(walked.values()) >= 5, f"hazard types walked: {walked}"
    assert stopped >= 30


def test_play_previews_never_depend_on_what_a_face_down_token_is():
    """Issue 13 item 4: the preview of a step onto a face-down token is the same whatever the token is."""
    game = get_game("thunder_road")
    for state, seat, idx, k in hazard_steps(range(6)):
        shown = {}
        for kind in sorted(HAZARDS):
            probe = state.model_copy(deep=True)
            probe.hazards[k] = probe.hazards[k].model_copy(update={"type": kind})  # tokens are frozen
            shown[kind] = preview(game, probe, seat, [idx], "en")
        assert len({repr(v) for v in shown.values()}) == 1, f"the preview tells the token apart: {shown}"

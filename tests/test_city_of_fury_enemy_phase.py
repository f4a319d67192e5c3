"""The record of the last enemy phase (issue 12 item 7: the board shows what the
enemies just did): the state keeps it, the view carries it, and it says exactly
what the enemy phase's events say."""

from __future__ import annotations

import pytest

from engine import GameError
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.city_of_fury.content import enemies

SEAT = "p1"


def _phases(seed: int, hero: str = "vigilante"):
    """(state before, state after, events) of every action that ran an enemy phase."""
    s = GAME.new([SEAT], {"hero": hero}, seed)
    while GAME.outcome(s) is None:
        before = s
        s, ev = GAME.ai_step(s)
        if any(isinstance(e, m.SkillsRaised) for e in ev):  # the end of the hero's turn: the enemy phase
            yield before, s, ev
        else:
            assert s.last_enemy_phase == before.last_enemy_phase  # kept until the next phase


@pytest.mark.parametrize("seed,hero", [(3, "vigilante"), (4, "brawler"), (11, "vigilante")])
def test_the_view_carries_exactly_what_the_enemy_phase_events_say(seed, hero):
    seen = 0
    for before, after, ev in _phases(seed, hero):
        seen += 1
        ph = GAME.view(after, None).last_enemy_phase
        assert ph == after.last_enemy_phase and ph is not None
        assert ph.round == before.round and list(ph.screen) == before.screen
        assert ph.hero_hp == before.hero_hp and ph.hero_slot == before.street.index("hero")
        turns = [e for e in ev if isinstance(e, m.EnemyTurn)]
        assert [(t.enemy, t.side, t.row) for t in ph.turns] == [(e.enemy, e.side, e.row) for e in turns]
        street = list(before.street)
        for rec, turn in zip(ph.turns, turns):
            assert rec.slot == street.index(rec.enemy)
            assert [st.action for st in rec.steps] == turn.actions[: len(rec.steps)]
            # the events of this enemy's turn, between its EnemyTurn and the next one
            i = ev.index(turn)
            j = next((k for k in range(i + 1, len(ev)) if isinstance(ev[k], m.EnemyTurn)), len(ev))
            acts = (m.EnemyMoved, m.HeroPushed, m.EnemyHitHero, m.EnemySkipped)
            own = [e for e in ev[i + 1 : j] if isinstance(e, acts)]
            assert len(own) == len(rec.steps)
            for st, e in zip(rec.steps, own):
                assert st.done == (not isinstance(e, m.EnemySkipped))
                if isinstance(e, m.EnemySkipped):
                    assert e.action == st.action and st.src is None and st.hp is None
                elif isinstance(e, m.EnemyHitHero):
                    assert (st.hp, st.action, st.src) == (e.hp, e.how, None)
                else:
                    assert (st.src, st.dst, st.swapped) == (e.src, e.dst, e.swapped)
                    street[e.src], street[e.dst] = street[e.dst], street[e.src]
        if after.result == "loss":  # the phase ends at the hit that brought the hero down
            assert ph.turns[-1].steps[-1].hp == 0
        else:
            assert all(len(t.steps) == len(getattr(enemies()[t.enemy], t.row)) for t in ph.turns)
    assert seen >= 5


def test_a_phase_with_nobody_on_the_street_is_recorded_empty():
    empty = [after for _, after, ev in _phases(3) if not any(isinstance(e, m.EnemyTurn) for e in ev)]
    assert empty and all(s.last_enemy_phase is not None and s.last_enemy_phase.turns == () for s in empty)


def test_skipped_actions_and_every_kind_of_action_are_recorded():
    kinds: set[tuple[str, bool]] = set()
    for seed in range(6):
        for _, after, _ in _phases(seed):
            assert after.last_enemy_phase is not None
            for turn in after.last_enemy_phase.turns:
                kinds |= {(st.action.split("_")[0], st.done) for st in turn.steps}
    for kind in ("move", "jump", "attack", "shoot", "push"):
        assert (kind, True) in kinds, kind
    assert ("move", False) in kinds and ("attack", False) in kinds


def test_a_schema_1_state_loads_without_a_record_and_records_the_next_phase():
    before, after, _ = next(_phases(3))
    old = GAME.dump(before) | {"schema_version": 1}
    old.pop("last_enemy_phase")
    s = GAME.load(old)
    assert s.schema_version == 2 and s.last_enemy_phase is None
    assert GAME.view(s, None).last_enemy_phase is None
    while s.last_enemy_phase is None:
        s, _ = GAME.ai_step(s)
    assert s.last_enemy_phase == after.last_enemy_phase
    assert GAME.load(GAME.dump(s)) == s  # the record round-trips


def _forged(change) -> GameError:
    _, after, _ = next(_phases(3))
    data = GAME.dump(after)
    change(data["last_enemy_phase"])
    with pytest.raises(GameError) as exc:
        GAME.load(data)
    assert exc.value.code == "bad_state" and "last_enemy_phase" in exc.value.params["detail"], exc.value.params
    return exc.value


@pytest.mark.parametrize(
    "change",
    [
        lambda p: p.update(round=99),
        lambda p: p["screen"].pop(),
        lambda p: p["screen"].__setitem__(0, "nobody"),
        lambda p: p.update(hero_slot=7),
        lambda p: p.update(hero_hp=0),
        lambda p: p["turns"][0].update(enemy="nobody"),
        lambda p: p["turns"][0].update(slot=-1),
        lambda p: p["turns"][0].update(row=p["turns"][0]["side"]),
        lambda p: p["turns"][0]["steps"][0].update(action="heal"),
        lambda p: p["turns"][0]["steps"].extend(p["turns"][0]["steps"] * 4),
        lambda p: p["turns"][0]["steps"][0].update(src=0, dst=9),
        lambda p: p["turns"][0]["steps"][0].update(swapped="nobody"),
        lambda p: p["turns"][0]["steps"][0].update(hp=50),
        lambda p: p["turns"].append(p["turns"][0]),
    ],
)
def test_a_forged_record_is_refused(change):
    _forged(change)

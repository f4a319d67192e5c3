"""Issue 12 item 6: an Automobile build is one select of the legal (model, count)
combinations when there are at most 25 (the model names its price class), else
the model, then the count; "Back" stays a choice of its own.  Real positions of
seeded AI games; the choices are the platform's (tables/rules/choices.py)."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.automobile import rules as R
from engine.automobile.models import Act, BuildClass, BuildCount, BuildSpace, Cancel
from tables.rules.choices import MAX_CHOICES, choices, describe

GAME = get_game("automobile")


def _combos(state, seat) -> int:
    """Every way to finish the build (a space and a count, or a parts factory), from the rules."""
    pend = state.pending
    cap = R.build_cap(state, pend)
    n = 0
    for cls in R.CLASSES:
        for i in R.build_spaces(state, seat, cls, cap):
            n += len(R.build_counts(state, seat, i, cap)) + int(R.can_parts(state, seat, i))
    return n


def _builds(seeds=range(1, 6), seats=3):
    """States where a seat has just chosen to build (phase 3), from seeded AI games."""
    for seed in seeds:
        st = GAME.new([f"p{i + 1}" for i in range(seats)], {}, seed)
        while GAME.outcome(st) is None:
            seat = GAME.to_act(st)[0]
            if st.pending is None and st.phase == R.PHASE_ACTIONS and Act(what="build") in GAME.legal_actions(st, seat):
                yield seat, GAME.apply(st, seat, Act(what="build"))[0]
            st, _ = GAME.ai_step(st)


def _walk(state, seat, chain):
    events = []
    for i in chain:
        state, ev = GAME.apply(state, seat, GAME.legal_actions(state, seat)[i])
        events += ev
    return state, [e.kind for e in events]


def test_a_build_with_at_most_25_combinations_is_one_pick_beside_back():
    seen = 0
    for seat, st in _builds():
        if _combos(st, seat) > MAX_CHOICES - 1:
            continue
        offered = choices(GAME, st, seat)
        legal = GAME.legal_actions(st, seat)
        backs = [c for c in offered if legal[c.chain[0]] == Cancel()]
        assert len(backs) == 1 and backs[0].chain == (legal.index(Cancel()),), "Back is a choice of its own"
        picks = [c for c in offered if c not in backs]
        assert len(picks) == _combos(st, seat), "one choice per (model, count) combination"
        for c in picks:
            after, kinds = _walk(st, seat, c.chain)
            done = after.pending is None or not after.pending.kind.startswith("build")
            assert done and kinds[0] in ("build", "parts"), "one pick builds and ends the action"
            assert isinstance(legal[c.chain[0]], BuildSpace)
        labels = [label for label, _ in describe(GAME, st, seat, offered, "en")]
        assert len(set(labels)) == len(labels) and all(len(x) <= 100 for x in labels)
        seen += 1
    assert seen >= 5, seen


def test_a_build_with_more_combinations_is_the_model_then_the_count():
    seen = 0
    for seat, st in _builds(seeds=range(1, 3), seats=5):
        if _combos(st, seat) <= MAX_CHOICES - 1:
            continue
        offered = choices(GAME, st, seat)
        legal = GAME.legal_actions(st, seat)
        assert all(len(c.chain) == 1 for c in offered)
        if any(isinstance(a, BuildClass) for a in legal):
            continue  # more model spaces than one select holds: the class comes first
        assert {type(a) for a in legal} == {BuildSpace, Cancel}, "the model first (its class with it)"
        space = next(a for a in legal if isinstance(a, BuildSpace))
        mid = GAME.apply(st, seat, space)[0]
        assert mid.pending.kind == "build_count"
        then = choices(GAME, mid, seat)
        assert any(isinstance(GAME.legal_actions(mid, seat)[c.chain[0]], BuildCount) for c in then)
        for c in then:
            after, kinds = _walk(mid, seat, c.chain)
            assert after.pending is None or not after.pending.kind.startswith("build"), kinds
        seen += 1
    assert seen >= 2, seen


def test_a_class_chosen_first_as_logged_before_still_replays():
    for seat, st in _builds(seeds=[3]):
        legal = GAME.legal_actions(st, seat)
        cls = R.C.board()[next(a for a in legal if isinstance(a, BuildSpace)).space]["cls"]
        assert BuildClass(cls=cls) not in legal
        after, _ = GAME.apply(st, seat, BuildClass(cls=cls))  # as stored logs have it
        assert after.pending.kind == "build_space" and after.pending.cls == cls
        assert all(isinstance(a, (BuildSpace, Cancel)) for a in GAME.legal_actions(after, seat))
        return
    pytest.fail("no build in seed 3")

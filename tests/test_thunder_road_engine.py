"""Thunder Road: Vendetta -- engine mechanics behind the speed work: the fast state copy,
the direct legality check and the purity of ``apply``."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from engine import canonical
from engine.thunder_road import GAME
from engine.thunder_road import models as M

OPTS = [({}, 2), ({"on_fire": True}, 3), ({"big_rig": True}, 4), ({"big_rig": True, "final_five": True}, 5)]


def states(n_games: int = 4, steps: int = 250):
    for g in range(n_games):
        opts, n = OPTS[g % len(OPTS)]
        st = GAME.new([f"s{i}" for i in range(n)], opts, 100 + g)
        rnd = random.Random(g)
        for _ in range(steps):
            if GAME.outcome(st) is not None:
                break
            yield st
            s = GAME.to_act(st)[0]
            st, _ = GAME.apply(st, s, rnd.choice(GAME.legal_actions(st, s)))


def test_clone_knows_every_mutable_field_of_the_models():
    """A field added to a model without teaching ``clone`` about it fails here."""

    def mutable(model: type[BaseModel]) -> set[str]:
        out = set()
        for name, f in model.model_fields.items():
            ann = str(f.annotation)
            if any(w in ann for w in ("list", "dict", "Options", "Rng", "Pending", "RerollQuestion")):
                out.add(name)
        return out

    assert mutable(M.Vehicle) == M.CLONED_FIELDS["Vehicle"]
    assert mutable(M.Crew) == M.CLONED_FIELDS["Crew"]
    assert mutable(M.TRState) == M.CLONED_FIELDS["TRState"]
    assert M.Hazard.model_config.get("frozen") is True  # shared between copies


def test_clone_equals_a_round_trip_and_shares_nothing_mutable():
    for st in states(2, 120):
        c = M.clone(st)
        assert canonical(c) == canonical(st) and c == st
        for v, w in zip(st.vehicles, c.vehicles, strict=True):
            assert v is not w and v.damage is not w.damage and (v.pos is None or v.pos is not w.pos)
        for a, b in zip(st.crews, c.crews, strict=True):
            assert a is not b and a.dice is not b.dice and a.used is not b.used
        assert c.hazards is not st.hazards and c.rng is not st.rng and c.rng.rig is not st.rng.rig
        assert c.pending is None or c.pending is not st.pending


def test_apply_never_changes_its_input_state():
    rnd = random.Random(3)
    for st in states(4, 200):
        before = canonical(st)
        s = GAME.to_act(st)[0]
        GAME.apply(st, s, rnd.choice(GAME.legal_actions(st, s)))
        assert canonical(st) == before


def _variants(a):
    """Actions close to ``a`` that may or may not be legal."""
    d = a.model_dump()
    out = [d]
    if a.kind == "step":
        out += [{**d, "dir": x, "then": t} for x in ("nw", "n", "ne") for t in (None, "nw", "n", "ne")]
    elif a.kind == "enter":
        out += [{**d, "col": c, "then": t} for c in (-1, 0, 3, 6, 7) for t in (None, "n")]
    elif a.kind == "air_space":
        out += [{**d, "col": c} for c in range(-1, 8)]
    elif a.kind == "assign":
        out += [{**d, "die": x} for x in (0, 1, 6)]
    return out


def test_direct_legality_check_agrees_with_the_legal_list():
    """``apply`` checks an action without listing every legal action; it accepts exactly the
    listed ones (a step's or entry's mark is only a label and is ignored)."""
    seen = set()
    for st in states(4, 250):
        for s in st.seats:
            legal = GAME.legal_actions(st, s) if s in GAME.to_act(st) else []
            plain = [x.model_dump(exclude={"mark"}) for x in legal]
            for a in legal[:6]:
                for v in _variants(a):
                    act = GAME.parse_action(v)
                    want = act.model_dump(exclude={"mark"}) in plain if act.kind in ("step", "enter") else act in legal
                    assert GAME._is_legal(st, s, act) == want, (s, v)
                    seen.add((act.kind, want))
    assert {("step", True), ("step", False), ("enter", True), ("enter", False)} <= seen


@pytest.mark.parametrize("kind", ["step", "enter"])
def test_illegal_step_is_refused_with_the_games_error(kind):
    for st in states(4, 250):
        p = st.pending
        if st.reroll is None and p is not None and p.stage == kind:
            bad = {"kind": "step", "dir": "n", "then": "n"} if kind == "step" else {"kind": "enter", "col": 9}
            legal = [x.model_dump(exclude={"mark"}) for x in GAME.legal_actions(st, p.seat)]
            if {**bad, "mark": ""} in legal or GAME.parse_action(bad).model_dump(exclude={"mark"}) in legal:
                continue
            with pytest.raises(Exception) as e:
                GAME.apply(st, p.seat, bad)
            assert getattr(e.value, "code", None) == "illegal"
            return
    pytest.fail("no such stage reached")

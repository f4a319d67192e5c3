"""Thunder Road: Vendetta -- impossible states are refused on load, naming the first
problem; rig names and values are checked (issue 13)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from engine.errors import GameError
from engine.thunder_road import GAME

ROOT = Path(__file__).resolve().parent.parent


def reachable(n_games=12, every=7):
    for g in range(n_games):
        k = g % 4
        opts = [{}, {"on_fire": True}, {"big_rig": True}, {"big_rig": True, "final_five": True}][k]
        n = [2, 3, 4, 5][k]
        st = GAME.new([f"s{i}" for i in range(n)], opts, g)
        rnd = random.Random(g)
        while GAME.outcome(st) is None:
            if st.step % every == 0:
                yield st
            s = GAME.to_act(st)[0]
            legal = GAME.legal_actions(st, s)
            st, _ = GAME.apply(st, s, rnd.choice(legal) if g % 2 else GAME.ai_action(st, s))
        yield st


def test_every_reachable_state_loads():
    n = 0
    for st in reachable():
        back = GAME.load(json.loads(json.dumps(GAME.dump(st))))
        assert back == st
        n += 1
    assert n > 200


def mid_game():
    st = GAME.new(["a", "b", "c"], {}, 5)
    for _ in range(40):
        st, _ = GAME.ai_step(st)
    return GAME.dump(st)


def _road_vehicle(d):
    return next(v for v in d["vehicles"] if v["where"] == "road")


MUTATIONS = {
    "one crew per seat": lambda d: d.update(seats=["a", "b", "zz"]),
    "5 seats": lambda d: d.update(seats=d["seats"] + ["x", "y"]),
    "crew": lambda d: d["crews"][0].update(crew="pink"),
    "die": lambda d: (
        d["crews"][0].update(dice=[9] + d["crews"][0]["dice"][1:])
        if d["crews"][0]["dice"]
        else d["crews"][0].update(used=[9] + d["crews"][0]["used"][1:])
    ),
    "movement dice": lambda d: d["crews"][1].update(dice=d["crews"][1]["dice"] + [1]),
    "turns": lambda d: d["crews"][0].update(turns=7),
    "owner": lambda d: d["vehicles"][0].update(owner="zz"),
    "crews.json": lambda d: d["vehicles"][0].update(capacity=9),
    "damage token": lambda d: d["vehicles"][0].update(damage=["banana"]),
    "slots": lambda d: d["vehicles"][0].update(damage=["dent", "dent", "dent"]),
    "off the table": lambda d: _road_vehicle(d).update(pos=[9, 4]),
    "position": lambda d: _road_vehicle(d).update(where="start"),
    "one space": lambda d: [v.update(where="road", pos=list(_road_vehicle(d)["pos"])) for v in d["vehicles"][:2]],
    "wrecks_left": lambda d: d.update(wrecks_left=d["wrecks_left"] + 1),
    "unknown face": lambda d: d["tiles"].__setitem__(1, "7x"),
    "stack": lambda d: d["deck"].append(d["tiles"][2]),
    "hazard space": lambda d: d["hazards"].update({"3,3": d["hazards"].pop(next(iter(d["hazards"])))}),
    "unknown token": lambda d: d["hazard_pile"].append("lava"),
    "supply": lambda d: d["hazard_pile"].append("mine"),
    "damage tokens": lambda d: d["damage_pile"].pop(),
    "road_die": lambda d: d.update(road_die=5),
    "starter": lambda d: d.update(starter="zz"),
    "nobody can act": lambda d: d.update(pending=None),
    "pending.seat": lambda d: d["pending"].update(seat="b" if d["pending"]["seat"] != "b" else "c"),
    "pending.car": lambda d: d["pending"].update(car="zz:small", stage="step"),
    "winners": lambda d: d.update(winners=["zz"], end_reason="finish", pending=None),
    "end_reason": lambda d: d.update(end_reason="finish"),
    "out_order": lambda d: d.update(out_order=[["a"]]),
}


@pytest.mark.parametrize("problem", list(MUTATIONS))
def test_impossible_state_is_refused_naming_the_problem(problem):
    d = mid_game()
    GAME.load(d)  # the unmutated state is fine
    MUTATIONS[problem](d)
    with pytest.raises(GameError) as e:
        GAME.load(d)
    assert e.value.code == "bad_state"
    assert problem in e.value.params["detail"], e.value.params["detail"]
    assert problem.split()[0] in e.value.message("en")


def test_wrong_game_or_newer_schema_is_refused():
    d = mid_game()
    for change, code in (({"game": "automobile"}, "bad_state"), ({"schema_version": 99}, "newer_schema")):
        with pytest.raises(GameError) as e:
            GAME.load({**d, **change})
        assert e.value.code == code


def rng_names_in_code() -> set[str]:
    names = set()
    for f in ("rules.py", "game.py"):
        tree = ast.parse((ROOT / "engine" / "thunder_road" / f).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("choice", "shuffle", "randint", "roll")
                and (
                    (isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "rng")
                    or (isinstance(node.func.value, ast.Name) and node.func.value.id == "rng")
                )
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names.add(node.args[0].value)
    return names


def test_rig_declares_every_draw_the_rules_make_and_docs_list_them():
    assert set(GAME.rigs()) == rng_names_in_code()
    doc = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    for name in GAME.rigs():
        assert f"`{name}`" in doc


def test_rig_checks_names_and_values():
    st = GAME.new(["a", "b"], {}, 1)
    with pytest.raises(GameError) as e:
        GAME.rig(st, "dice", [3])
    assert e.value.code == "unknown_rig"
    with pytest.raises(GameError) as e:
        GAME.rig(st, "direction", ["up"])
    assert e.value.code == "bad_rig" and "up" in e.value.message("en")
    with pytest.raises(GameError):
        GAME.new(["a", "b"], {}, 1, rig={"slam": ["sideways"]})
    with pytest.raises(GameError):
        GAME.rig(st, "move", [7])
    ok = GAME.rig(st, "direction", ["nw", "s"])
    assert ok.rng.rig == {"direction": ["nw", "s"]} and st.rng.rig == {}

"""City of Fury as the reference game of the engine contract: hooks only, typed
events and views, validate, rigs (issue 10 items 1-2, issue 13 items 2-3)."""

from __future__ import annotations

import string
import types
import typing

import pytest
from pydantic import BaseModel, ValidationError

from engine import Event, Game, GameError, SeatLabel
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.city_of_fury.content import content
from engine.locales import CODES

SEAT = "solo"
PUBLIC = sorted(
    n for n, v in vars(Game).items() if isinstance(v, (types.FunctionType, staticmethod)) and not n.startswith("_")
)


def test_the_game_overrides_no_public_method_only_hooks():
    own = set(vars(type(GAME)))
    assert not own & set(PUBLIC), own & set(PUBLIC)
    for hook in ("_new", "_legal", "_apply", "_view", "_to_act", "_outcome", "_validate", "_rigs", "_ai_action"):
        assert hook in own, hook


def test_one_model_per_event_kind_in_a_discriminated_union():
    members = typing.get_args(typing.get_args(m.AnyEvent)[0])
    kinds = []
    for cls in members:
        assert issubclass(cls, Event)
        kind = cls.model_fields["kind"]
        assert typing.get_origin(kind.annotation) is typing.Literal
        kinds.append(kind.default)
        assert "params" not in cls.model_fields
    assert len(kinds) == len(set(kinds)) == 18


def _play(seed: int, steps: int = 400):
    s = GAME.new([SEAT], {}, seed)
    states, events = [s], []
    for _ in range(steps):
        if GAME.outcome(s) is not None:
            break
        s, ev = GAME.ai_step(s)
        states.append(s)
        events += ev
    return states, events


def test_every_event_text_fills_its_placeholders_in_both_languages():
    seen = set()
    for seed in range(3):
        _, events = _play(seed)
        for e in events:
            seen.add(e.kind)
            for loc in CODES:
                text = GAME.event_text(e, loc, {SEAT: SeatLabel(name="Ada")})
                assert text and "city_of_fury." not in text
                assert not [f for _, f, _, _ in string.Formatter().parse(text) if f], text
    assert len(seen) >= 14


def test_view_is_typed_and_renders_from_the_model_only():
    s = GAME.new([SEAT], {}, 3)
    v = GAME.view(s)
    assert isinstance(v, m.CofView) and isinstance(v, BaseModel)
    assert set(m.CofView.model_fields) >= {"game", "viewer", "step", "seats", "to_act", "labels"}
    assert "rng" not in m.CofView.model_fields and "seed" not in m.CofView.model_fields
    assert GAME.view(s, SEAT).viewer == SEAT
    with pytest.raises(GameError) as exc:
        GAME.view(s, "nobody")
    assert exc.value.code == "unknown_seat" and "nobody" in exc.value.message("en")


def test_every_state_of_real_play_validates_and_round_trips():
    for seed in range(4):
        states, _ = _play(seed)
        for s in states[:: max(1, len(states) // 25)] + states[-1:]:
            GAME.validate(s)
            assert GAME.load(GAME.dump(s)) == s


def _bad(mutate) -> GameError:
    data = GAME.dump(_play(5, 7)[0][-1])
    mutate(data)
    with pytest.raises(GameError) as exc:
        GAME.load(data)
    return exc.value


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d.update(hero_hp=-5), "hero_hp"),
        (lambda d: d.update(hero_hp=99), "hero_hp"),
        (lambda d: d.update(hero="nobody"), "hero"),
        (lambda d: d["screen"].__setitem__(0, "no_such_card"), "screen"),
        (lambda d: d.update(seats=["zz", "yy"]), "seats"),
        (lambda d: d.update(seats=[]), "seats"),
        (lambda d: d["levels"].update(punch=9), "levels"),
        (lambda d: d.update(round=0), "round"),
        (lambda d: d.update(pending=None), "pending"),
        (lambda d: d.update(result="win"), "result"),
        (lambda d: d.update(street=["hero", "hero", None, None, None]), "street"),
        (lambda d: d["rng"]["rig"].update(dice=[1]), "rng.rig"),
        (lambda d: d.update(game="thunder_road"), "game"),
    ],
)
def test_load_refuses_impossible_states_naming_the_first_problem(mutate, field):
    err = _bad(mutate)
    assert err.code == "bad_state"
    assert err.params["detail"].startswith(field), err.params


def test_enemy_hp_out_of_range_or_missing_is_refused():
    def hp(d):
        e = next(iter(d["enemy_hp"]))
        d["enemy_hp"][e] = 0

    assert _bad(hp).params["detail"].startswith("enemy_hp")

    def gone(d):
        d["enemy_hp"].pop(next(iter(d["enemy_hp"])))

    assert _bad(gone).params["detail"].startswith("enemy_hp")


def test_schema_versions_newer_refused_older_without_migration_refused():
    data = GAME.dump(GAME.new([SEAT], {}, 1))
    with pytest.raises(GameError) as exc:
        GAME.load({**data, "schema_version": 99})
    assert exc.value.code == "newer_schema" and "99" in exc.value.message("en") and "99" in exc.value.message("zh")
    with pytest.raises(GameError) as exc:
        GAME.load({**data, "schema_version": 0})
    assert exc.value.code == "bad_state" and "schema_version" in exc.value.params["detail"]
    with pytest.raises(GameError):
        GAME.load({**data, "schema_version": "1"})
    with pytest.raises(GameError):
        GAME.load("[" * 5000)  # nesting past the parser's limit is a bad state, not a crash


def test_rig_names_and_values_are_checked():
    rigs = GAME.rigs()
    assert set(rigs) == {"deck.enemies"}
    minions = [e.id for e in content().minions]
    assert sorted(rigs["deck.enemies"].values) == sorted(minions)
    s = GAME.new([SEAT], {}, 1, rig={"deck.enemies": [minions[5], minions[4]]})
    assert s.screen[0] == minions[5] and s.screen[1] == minions[4]
    for name, values, code in (
        ("dice", [1], "unknown_rig"),
        ("deck.enemies", ["boss_man"], "bad_rig"),
        ("deck.enemies", [minions[0], minions[0]], "bad_rig"),
        ("deck.enemies", [[1]], "bad_rig"),
        ("deck.enemies", "abc", "bad_rig"),
    ):
        with pytest.raises(GameError) as exc:
            GAME.rig(s, name, values)
        assert exc.value.code == code, (name, values)
        with pytest.raises(GameError) as exc:
            GAME.new([SEAT], {}, 1, rig={name: values})
        assert exc.value.code == code
    cleared = GAME.rig(GAME.rig(s, "deck.enemies", minions[:1]), "deck.enemies", [])
    assert cleared.rng.rig == {}


def test_ai_levels():
    s = GAME.new([SEAT], {}, 1)
    assert GAME.ai_levels == ("easy",)
    a = GAME.ai_action(s, SEAT, "easy")
    assert a in GAME.legal_actions(s, SEAT)
    with pytest.raises(GameError) as exc:
        GAME.ai_action(s, SEAT, "grandmaster")
    assert exc.value.code == "bad_ai_level"


def test_legal_actions_for_an_unknown_seat_is_an_error():
    s = GAME.new([SEAT], {}, 1)
    with pytest.raises(GameError) as exc:
        GAME.legal_actions(s, "zz")
    assert exc.value.code == "unknown_seat"
    assert exc.value.message("en") == "There is no seat zz at this table."
    assert "zz" in exc.value.message("zh")


def test_the_fast_copy_equals_a_json_round_trip_and_shares_nothing_mutable():
    states, _ = _play(2, 60)
    s = GAME.rig(states[-1], "deck.enemies", [content().minions[0].id])
    copy = GAME.copy_state(s)
    assert copy == type(s).model_validate_json(s.model_dump_json()) and copy is not s
    assert s.last_enemy_phase is not None
    for name, value in s.__dict__.items():
        if getattr(value, "model_config", {}).get("frozen"):  # immutable (the enemy phase's record): shared
            with pytest.raises(ValidationError):
                value.round = 99
            continue
        if isinstance(value, (list, dict)) or hasattr(value, "model_dump"):
            assert copy.__dict__[name] is not value, name
    assert copy.rng.rig["deck.enemies"] is not s.rng.rig["deck.enemies"]
    copy.street.reverse()
    copy.levels["punch"] = 4
    copy.rng.rig["deck.enemies"].append("x")
    assert GAME.dump(s) == GAME.dump(states[-1]) | {"rng": GAME.dump(s)["rng"]}
    assert s.rng.rig["deck.enemies"] == [content().minions[0].id]

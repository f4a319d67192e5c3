"""City of Fury: serialisation round trips, replay determinism, AI, and property tests."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from engine import SeatLabel, canonical, get_game
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.city_of_fury.content import MAX_LEVEL, MIN_LEVEL, SLOTS, content, enemies, heroes
from engine.locales import CODES

SEAT = "player-1"
ALL_CARDS = sorted([e.id for e in content().minions] + [content().boss.id])
EVENTS = TypeAdapter(m.AnyEvent)


def check_invariants(s: m.State) -> None:
    assert len(s.street) == SLOTS and len(s.screen) == SLOTS
    assert s.street.count(m.HERO) == 1  # one hero, and a list slot holds one character
    on_street = [x for x in s.street if x is not None and x != m.HERO]
    assert len(on_street) == len(set(on_street)) == len(s.enemy_hp) and set(on_street) == set(s.enemy_hp)
    assert 0 <= s.hero_hp <= heroes()[s.hero].max_hp
    for e, hp in s.enemy_hp.items():
        assert 1 <= hp <= enemies()[e].max_hp
    assert all(MIN_LEVEL <= lv <= MAX_LEVEL for lv in s.levels.values()) and len(s.levels) == 4
    # every card is somewhere exactly once
    places = s.screen + on_street + s.to_scroll + s.gone + ([content().boss.id] if s.result == "win" else [])
    assert sorted(places) == ALL_CARDS
    assert (s.result is None) == (s.pending is not None)
    if s.result == "loss":
        assert s.hero_hp == 0
    if s.result is None:
        assert s.hero_hp > 0
        if s.pending.kind == "choose_skill":
            assert s.to_scroll == []  # every defeat of the last round has been scrolled


def test_registered_under_its_id():
    assert get_game("city_of_fury") is GAME


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    hero=st.sampled_from(["vigilante", "brawler"]),
    picks=st.lists(st.integers(0, 1000), min_size=1, max_size=250),
)
def test_random_legal_play_never_raises_and_keeps_invariants(seed, hero, picks):
    s = GAME.new([SEAT], {"hero": hero}, seed)
    check_invariants(s)
    for pick in picks:
        legal = GAME.legal_actions(s, SEAT)
        if not legal:
            assert GAME.outcome(s) is not None
            break
        assert len(legal) <= 25
        action = legal[pick % len(legal)]
        s, events = GAME.apply(s, SEAT, action)
        check_invariants(s)
        for e in events:
            assert GAME.event_text(e, "en") and GAME.event_text(e, "zh")
            assert "city_of_fury." not in GAME.event_text(e, "en")


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    hero=st.sampled_from(["vigilante", "brawler"]),
    picks=st.lists(st.integers(0, 1000), min_size=50, max_size=400),
)
def test_mixed_ai_and_random_play_reaches_deep_states_and_keeps_invariants(seed, hero, picks):
    """Two AI moves for one random one: games get to the scrolls and the boss, not just early deaths."""
    s = GAME.new([SEAT], {"hero": hero}, seed)
    for pick in picks:
        legal = GAME.legal_actions(s, SEAT)
        if not legal:
            break
        action = legal[pick % len(legal)] if pick % 3 == 0 else GAME.ai_action(s, SEAT)
        before = canonical(s)
        s2, events = GAME.apply(s, SEAT, action)
        assert canonical(s) == before  # apply never mutates its input
        s = s2
        check_invariants(s)
        for e in events:
            for loc in CODES:
                line = GAME.event_text(e, loc)
                assert line and "city_of_fury." not in line and "{" not in line


def test_in_a_whole_game_the_boss_enters_on_the_fifth_scroll():
    for seed in range(20):
        s, log, events = play_ai(seed)
        if s.result == "win":
            break
    assert s.result == "win"
    kinds = [e.kind for e in events]
    boss_entry = next(i for i, e in enumerate(events) if e.kind == "enemy_entered" and e.enemy == "boss_man")
    assert kinds[:boss_entry].count("scrolled") == 5
    assert events[boss_entry - 1].kind == "scrolled" and events[boss_entry - 1].left_card == "boss_man"
    assert kinds[-1] == "game_won"


def play_ai(seed: int, hero: str = "vigilante", limit: int = 2000):
    s = GAME.new([SEAT], {"hero": hero}, seed)
    log = []
    events = []
    while GAME.outcome(s) is None and len(log) < limit:
        a = GAME.ai_action(s, SEAT)
        assert a in GAME.legal_actions(s, SEAT)
        log.append((SEAT, a.model_dump(mode="json")))
        s, ev = GAME.apply(s, SEAT, a)
        events += ev
    return s, log, events


def test_ai_finishes_games_and_replay_reproduces_them_bit_for_bit():
    for seed, hero in ((1, "vigilante"), (2, "brawler")):
        s, log, events = play_ai(seed, hero)
        assert GAME.outcome(s) is not None
        again = GAME.replay([SEAT], {"hero": hero}, seed, log)
        assert canonical(again) == canonical(s)
        # the AI is deterministic for a given state
        s2, log2, _ = play_ai(seed, hero)
        assert log2 == log


def test_state_action_event_json_round_trip():
    s, log, events = play_ai(3, limit=40)
    text = json.dumps(GAME.dump(s))
    back = GAME.load(text)
    assert back == s and canonical(back) == canonical(s)
    assert GAME.load(json.loads(text)) == s
    for _, a in log:
        parsed = GAME.parse_action(json.loads(json.dumps(a)))
        assert parsed.model_dump(mode="json") == a
    kinds = set()
    for e in events:
        data = json.loads(json.dumps(e.model_dump(mode="json")))
        assert EVENTS.validate_python(data) == e
        kinds.add(e.kind)
    assert {"skill_chosen", "enemy_turn", "skills_raised", "round_started"} <= kinds
    # a mid-turn state (pending step) round-trips too
    mid = GAME.apply(GAME.new([SEAT], {}, 4), SEAT, {"kind": "choose_skill", "skill": "kick"})[0]
    assert GAME.load(GAME.dump(mid)) == mid and mid.pending.kind == "step"


def test_view_hides_the_rng_and_carries_what_the_board_needs():
    s = GAME.new([SEAT], {}, 6)
    v = GAME.view(s, None)
    assert isinstance(v, m.CofView)
    data = v.model_dump(mode="json")
    assert "rng" not in data and "seed" not in data
    assert v.street == s.street and v.hero_card.max_hp == 6
    assert set(v.cards) == set(ALL_CARDS) and v.to_act == [SEAT] and v.viewer is None
    assert v.cards[content().boss.id].boss and v.boss == content().boss.id
    assert v.label(SEAT) == SEAT  # no labels given: the seat id
    named = GAME.view(s, SEAT, {SEAT: SeatLabel(name="Ada", colour="#3d8bfd")})
    assert named.label(SEAT) == "Ada" and named.viewer == SEAT
    json.dumps(data)


def test_bad_saved_state_is_refused():
    s = GAME.dump(GAME.new([SEAT], {}, 6))
    s["street"] = "nonsense"
    try:
        GAME.load(s)
    except Exception as exc:  # noqa: BLE001
        assert getattr(exc, "code", None) == "bad_state"
    else:
        raise AssertionError("a corrupt state must not load")


def test_ai_wins_games():
    results = [play_ai(seed)[0].result for seed in range(4)]
    assert "win" in results


def test_labels_prompts_and_summaries_exist_in_both_languages():
    s = GAME.new([SEAT], {}, 7)
    seen = set()
    for _ in range(200):
        if GAME.outcome(s) is not None:
            break
        for loc in CODES:
            assert "city_of_fury." not in GAME.prompt(s, SEAT).text(loc)
            assert "city_of_fury." not in GAME.summary(s).text(loc)
            for a in GAME.legal_actions(s, SEAT):
                label = GAME.action_label(s, a, loc)
                assert label and "city_of_fury." not in label and len(label) <= 80
                seen.add(a.kind)
        s, _ = GAME.apply(s, SEAT, GAME.ai_action(s, SEAT))
    assert "city_of_fury." not in GAME.summary(s).text("zh")
    assert {"choose_skill", "skip", "raise"} <= seen
    assert GAME.outcome(s).reason.text("zh") != GAME.outcome(s).reason.text("en")


def test_catalogs_have_the_same_keys_in_en_and_zh():
    from engine.i18n import keys

    en, zh = keys("en", "city_of_fury"), keys("zh", "city_of_fury")
    assert en == zh
    for card in ALL_CARDS:
        assert f"city_of_fury.card.{card}.name" in en and f"city_of_fury.card.{card}.street" in en
    for h in heroes():
        assert f"city_of_fury.card.{h}.name" in en


def test_every_event_kind_and_variant_has_text_in_both_languages():
    samples = [
        m.RoundStarted(round=3),
        m.SkillChosen(skill="kick", level=2, actions=["move", "move", "attack"]),
        m.HeroMoved(direction="left", src=2, dst=1),
        m.HeroMoved(direction="right", src=1, dst=2, swapped="rash"),
        m.HeroHit(how="attack", target="rash", hp=1),
        m.HeroHit(how="shoot", target="boss_man", hp=0),
        m.EnemyDefeated(enemy="glitch"),
        m.HeroHealed(hp=5),
        m.StepSkipped(action="heal", forced=True),
        m.StepSkipped(action="move", forced=False),
        m.SkillReset(skill="dodge"),
        m.SkillsRaised(skills=["punch", "kick"], levels=[3, 2]),
        m.SkillsRaised(skills=["dodge"], levels=[2]),
        m.EnemyTurn(enemy="baton", side="right", row="left", actions=["move_left", "push_left", "attack"]),
        m.EnemyMoved(enemy="knuckles", how="move", src=3, dst=2),
        m.EnemyMoved(enemy="rash", how="jump", src=3, dst=2),
        m.EnemyMoved(enemy="rash", how="jump", src=3, dst=2, swapped="hero"),
        m.EnemyHitHero(enemy="krupp", how="shoot", hp=4),
        m.EnemyHitHero(enemy="tin_can", how="attack", hp=3),
        m.HeroPushed(enemy="baton", src=2, dst=1),
        m.HeroPushed(enemy="baton", src=2, dst=1, swapped="glitch"),
        m.EnemySkipped(enemy="glitch", action="jump_right"),
        m.Scrolled(defeated="rash", left_card="krupp", entered="krupp"),
        m.Scrolled(defeated="rash", left_card="krupp", entered="krupp", slid=["hero"]),
        m.Scrolled(defeated="rash", left_card="glitch", entered=None),
        m.Scrolled(defeated="rash", left_card="glitch", entered=None, slid=["knuckles"]),
        m.EnemyEntered(enemy="boss_man", slot=4, hp=6),
        m.GameWon(round=12),
        m.GameLost(round=9),
    ]
    kinds = {e.kind for e in samples}
    assert kinds == {a.model_fields["kind"].default for a in m.AnyEvent.__origin__.__args__}
    texts = set()
    for e in samples:
        for loc in CODES:
            line = GAME.event_text(e, loc)
            assert line and "city_of_fury." not in line and "{" not in line, (e, loc, line)
            texts.add(line)
    assert len(texts) == len(CODES) * len(samples)  # every variant reads differently


def test_ai_does_not_loop_a_round_back_to_where_it_started():
    # a stand-off: the hero (2 HP) can only heal what the boss shoots off each round
    s = GAME.new([SEAT], {}, 1)
    s.street = [None, None, m.HERO, "krupp", "boss_man"]
    s.enemy_hp = {"krupp": 2, "boss_man": 6}
    s.hero_hp = 2
    s.levels = {"punch": 4, "kick": 4, "shoot": 4, "dodge": 2}
    s.screen = ["rash", "glitch", "knuckles", "baton", "tin_can"]
    s.beaten = ["rash", "glitch", "knuckles", "baton", "tin_can"]
    s = GAME.load(GAME.dump(s))
    start = (s.street, s.enemy_hp, s.hero_hp, s.levels)
    # the loop exists: dodge (move skipped, heal) then the enemy phase restores the position exactly
    loop, _ = GAME.apply(s, SEAT, {"kind": "choose_skill", "skill": "dodge"})
    loop, _ = GAME.apply(loop, SEAT, {"kind": "skip"})
    loop, _ = GAME.apply(loop, SEAT, {"kind": "heal"})
    # (dodge is the only skill below level 4, so it alone was raised, and the enemies acted)
    assert loop.pending.kind == "choose_skill" and loop.round == s.round + 1
    assert (loop.street, loop.enemy_hp, loop.hero_hp, loop.levels) == start
    # the AI takes any other way out
    r = s
    while r.round == s.round and GAME.outcome(r) is None:
        r, _ = GAME.apply(r, SEAT, GAME.ai_action(r, SEAT))
    assert GAME.outcome(r) is not None or (r.street, r.enemy_hp, r.hero_hp, r.levels) != start

"""Automobile property tests: random legal play, money flows, hidden demand cards, rendering."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine import GameError, canonical
from engine.automobile import GAME
from engine.automobile.models import MONEY_KINDS
from engine.locales import CODES
from render.automobile import draw

SEATS = ["ann", "bo", "cy", "di", "ed"]


def _random_game(seed: int, n: int, check_step=None):
    rnd = random.Random(seed)
    st = GAME.new(SEATS[:n], seed=seed)
    steps = 0
    while GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        legal = GAME.legal_actions(st, seat)
        assert 0 < len(legal) <= 25, (st.phase, st.pending, len(legal))
        action = rnd.choice(legal) if rnd.random() < 0.8 else GAME.ai_action(st, seat)
        new, events = GAME.apply(st, seat, action)
        if check_step:
            check_step(st, new, events)
        st = new
        steps += 1
        assert steps < 3000
    return st


def _money_flows(old, new, events):
    for seat in old.seats:
        delta = new.players[seat].money - old.players[seat].money
        assert delta == sum(e.delta for e in events if e.seat == seat), (seat, [e.kind for e in events])
        assert new.players[seat].money >= 0
    for e in events:
        if e.delta:
            assert e.kind in MONEY_KINDS
        if e.kind in ("loan", "emergency_loan"):
            assert e.delta == 500
    total_loans = sum(p.loans for p in new.players.values())
    assert all(0 <= p.loans <= 2 for p in new.players.values()) or new.finished
    assert total_loans >= 0


def _no_leak(old, new, events):
    for e in events:
        if e.kind == "demand_drawn":
            assert e.to == [e.seat] and e.cards == new.players[e.seat].hand
        elif e.kind != "demand_revealed":
            assert e.to is None and not hasattr(e, "cards") and not hasattr(e, "hands")


@settings(max_examples=8, deadline=None)
@given(seed=st_.integers(0, 10_000), n=st_.integers(3, 5))
def test_random_legal_play_never_raises_and_money_moves_only_through_rule_flows(seed, n):
    def check(old, new, events):
        _money_flows(old, new, events)
        _no_leak(old, new, events)

    st = _random_game(seed, n, check)
    out = GAME.outcome(st)
    assert out is not None and set(out.scores) == set(SEATS[:n])
    for seat in SEATS[:n]:
        p = st.players[seat]
        assert out.scores[seat] == p.money - p.arrears and p.loans == 0


def _swap_hand(st, seat):
    """The same state except that ``seat`` holds other cards (from the bag)."""
    other = st.model_copy(deep=True)
    hand = other.players[seat].hand
    if not hand:
        return None
    for k, card in enumerate(hand):
        for j, b in enumerate(other.bag):
            if b != card:
                hand[k], other.bag[j] = b, card
                break
    other.players[seat].hand = sorted(hand, reverse=True)
    return other if other.players[seat].hand != st.players[seat].hand else None


@settings(max_examples=4, deadline=None)
@given(seed=st_.integers(0, 10_000), n=st_.integers(3, 5))
def test_a_seats_demand_cards_never_reach_another_seat_or_the_public(seed, n):
    seats = SEATS[:n]

    def check(old, new, events):
        if new.step % 3 or new.finished:
            return
        for holder in seats:
            twin = _swap_hand(new, holder)
            if twin is None:
                continue
            for viewer in [None, *[s for s in seats if s != holder]]:
                assert GAME.view(twin, viewer) == GAME.view(new, viewer)
            actor = GAME.to_act(new)[0]
            if actor != holder:
                assert GAME.legal_actions(twin, actor) == GAME.legal_actions(new, actor)
                assert GAME.prompt(twin, actor) == GAME.prompt(new, actor)
            assert GAME.summary(twin) == GAME.summary(new)
        # the own view does show the hand
        for s in seats:
            assert GAME.view(new, s).hand == new.players[s].hand

    _random_game(seed, n, check)


def test_errors_name_no_cards():
    st = GAME.new(SEATS[:3], seed=9)
    hands = {s: st.players[s].hand for s in SEATS[:3]}
    actor = GAME.to_act(st)[0]
    for seat in SEATS[:3]:
        for action in ({"kind": "pick", "character": "ford"}, {"kind": "act", "what": "rd"}, {"kind": "zzz"}):
            try:
                GAME.apply(st, seat, action)
            except GameError as err:
                assert not err.params or "hand" not in str(err.params)
                text = err.message("en") + err.message("zh")
                assert "hand" not in text.lower()
            else:
                assert seat == actor
    assert hands == {s: st.players[s].hand for s in SEATS[:3]}


def test_json_round_trip_mid_game_and_replay_determinism():
    rnd = random.Random(5)
    st = GAME.new(SEATS[:4], seed=77)
    log = []
    for _ in range(120):
        seat = GAME.to_act(st)[0]
        action = rnd.choice(GAME.legal_actions(st, seat))
        log.append((seat, action.model_dump(mode="json")))
        st, _ = GAME.apply(st, seat, action)
        assert canonical(GAME.load(GAME.dump(st))) == canonical(st)
        assert canonical(GAME.load(st.model_dump_json())) == canonical(st)
    again = GAME.replay(SEATS[:4], None, 77, log)
    assert canonical(again) == canonical(st)


def test_render_public_and_private_views_in_both_languages():
    st = GAME.new(SEATS[:5], seed=12)
    while not (st.round == 2 and st.phase == 5) and GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat))
    public = GAME.view(st, None)
    dumped = public.model_dump()
    assert "hand" not in dumped and "bag" not in dumped and "rng" not in dumped and "seed" not in dumped
    for view in (public, GAME.view(st, "ann")):
        for loc in CODES:
            png = draw(view, loc)
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    # the renderer works from the view alone: an end-of-game view draws too
    while GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat))
    assert draw(GAME.view(st, None), "zh")[:4] == b"\x89PNG"


def test_every_label_prompt_and_log_line_is_translated():
    st = GAME.new(SEATS[:4], seed=31)
    rnd = random.Random(31)
    while GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        legal = GAME.legal_actions(st, seat)
        for loc in CODES:
            for a in legal:
                label = GAME.action_label(st, a, loc)
                assert label and "automobile." not in label and "{" not in label, label
            for msg in (GAME.prompt(st, seat), GAME.summary(st)):
                text = msg.text(loc)
                assert "automobile." not in text and "{" not in text, text
        action = rnd.choice(legal) if rnd.random() < 0.5 else GAME.ai_action(st, seat)
        st, events = GAME.apply(st, seat, action)
        for e in events:
            for loc in CODES:
                line = GAME.event_text(e, loc)
                assert "automobile." not in line and "{" not in line, line
    assert "automobile." not in GAME.outcome(st).reason.text("zh")


def test_public_and_other_seat_images_do_not_depend_on_a_hidden_hand():
    st = GAME.new(SEATS[:3], seed=21)
    while not (st.round == 2 and st.phase == 3) and GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat))
    twin = _swap_hand(st, "ann")
    assert twin is not None and twin.players["ann"].hand != st.players["ann"].hand
    for viewer in (None, "bo", "cy"):
        assert draw(GAME.view(twin, viewer), "zh") == draw(GAME.view(st, viewer), "zh")
    assert draw(GAME.view(twin, "ann"), "en") != draw(GAME.view(st, "ann"), "en")  # her own image shows them

"""Undo is only free when nothing hidden came to light: the games' own reveal checks."""

from engine import get_game


def play_until(game, state, pred, limit=3000):
    for _ in range(limit):
        if game.outcome(state) is not None:
            return None, None
        seat = game.to_act(state)[0]
        before = state
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        if pred(before, state):
            return before, state
    return None, None


def test_thunder_road_flipping_a_hazard_is_a_reveal():
    game = get_game("thunder_road")
    for seed in range(20):
        state = game.new(["a", "b"], {}, seed)
        before, after = play_until(
            game,
            state,
            lambda b, a: any(h.up and not b.hazards.get(k, h).up for k, h in a.hazards.items() if k in b.hazards),
        )
        if before is not None:
            assert game.hidden_revealed(before, after)
            assert not game.hidden_revealed(after, after)
            return
    raise AssertionError("no hazard was flipped in 20 seeded races")


def test_automobile_phase_7_reveal_is_a_reveal():
    game = get_game("automobile")
    state = game.new(["a", "b", "c"], {}, 4)
    before, after = play_until(game, state, lambda b, a: a.revealed_round != b.revealed_round)
    assert before is not None, "demand is revealed every round"
    assert game.hidden_revealed(before, after) and not game.hidden_revealed(after, after)

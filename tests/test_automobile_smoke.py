"""Automobile: whole AI games run to the end; JSON round trip; replay determinism."""

from engine import canonical, get_game
from engine.automobile import GAME


def _play(seats, seed, limit=2000):
    st = GAME.new(seats, seed=seed)
    log = []
    while GAME.outcome(st) is None and len(log) < limit:
        seat = GAME.to_act(st)[0]
        action = GAME.ai_action(st, seat)
        log.append((seat, action.model_dump(mode="json")))
        st, _ = GAME.apply(st, seat, action)
    return st, log


def test_registered():
    assert get_game("automobile") is GAME


def test_ai_game_finishes_with_scores_and_round_trips():
    st, log = _play(["a", "b", "c"], seed=3)
    out = GAME.outcome(st)
    assert out is not None and st.round == 4 and st.finished
    assert set(out.scores) == {"a", "b", "c"}
    assert out.winners and all(out.scores[w] == max(out.scores.values()) for w in out.winners)
    again = GAME.load(GAME.dump(st))
    assert canonical(again) == canonical(st)
    replayed = GAME.replay(["a", "b", "c"], None, 3, log)
    assert canonical(replayed) == canonical(st)

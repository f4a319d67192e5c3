"""Armor Clash: whole games through the public API, JSON round trip, replay determinism."""

from engine import canonical, get_game
from engine.armor_clash import GAME


def play(seats, options, seed, limit=3000):
    s = GAME.new(seats, options, seed)
    log = []
    for _ in range(limit):
        if GAME.outcome(s) is not None:
            break
        seat = GAME.to_act(s)[0]
        a = GAME.ai_action(s, seat)
        log.append((seat, a.model_dump(mode="json")))
        s, _ = GAME.apply(s, seat, a)
    return s, log


def test_registered():
    assert get_game("armor_clash") is GAME


def test_boss_game_finishes_and_round_trips():
    for mode in ("simple", "normal"):
        s, log = play(["a", "b"], {"mode": mode}, 5)
        assert GAME.outcome(s) is not None
        again = GAME.load(GAME.dump(s))
        assert canonical(again) == canonical(s)
        replayed = GAME.replay(["a", "b"], {"mode": mode}, 5, log)
        assert canonical(replayed) == canonical(s)

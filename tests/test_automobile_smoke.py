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


def test_ai_plays_an_economy_builds_produces_sells_and_stays_solvent():
    for seed, seats in ((11, ["a", "b", "c"]), (12, ["a", "b", "c", "d", "e"])):
        st = GAME.new(seats, seed=seed)
        built, made, sold = set(), {s: 0 for s in seats}, {s: 0 for s in seats}
        while GAME.outcome(st) is None:
            seat = GAME.to_act(st)[0]
            st, events = GAME.apply(st, seat, GAME.ai_action(st, seat))
            for e in events:
                if e.kind == "build":
                    built.add(e.seat)
                elif e.kind == "produce":
                    made[e.seat] += e.n
                elif e.kind in ("demand_sale", "howard_sale", "dist_sale"):
                    sold[e.seat] += getattr(e, "n", 1)
        assert built == set(seats)
        assert all(made[s] > 0 and sold[s] >= 0.9 * made[s] for s in seats), (made, sold)
        assert not any(p.bankrupt or p.arrears for p in st.players.values())
        assert max(st.scores.values()) > 2000

"""The table service's turn path without Discord: placings, undo by replay, AI seats."""

from __future__ import annotations

from engine import Outcome, get_game
from engine.base import Msg
from store import Seat
from tables import TableService, TurnRefused, placings


class Fake:
    """A finished game stand-in for placings(): only outcome() and record() are used."""

    def __init__(self, outcome):
        self._o = outcome

    def outcome(self, state):
        return self._o

    def record(self, state, seat):
        return None


def row_with(seats):
    from store import GameRow

    return GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        game="x",
        status="finished",
        host_id=1,
        seats=[Seat(s, u) for s, u in seats],
        options={},
        seed=0,
        state_json=None,
        version=1,
        created_at=0,
        updated_at=0,
    )


def test_placings_winners_scores_and_nobody_won():
    row = row_with([("p1", 1), ("p2", 2), ("p3", 3), ("p4", None)])
    won = Outcome(winners=["p2"], scores={"p1": 10, "p2": 30, "p3": 20, "p4": 50}, reason=Msg(key="x"))
    places = {r.seat: (r.place, r.won, r.score) for r in placings(row, Fake(won), None)}
    # the AI seat p4 (50) takes 2nd place but records no result
    assert places == {"p2": (1, True, 30), "p1": (4, False, 10), "p3": (3, False, 20)}
    lost = Outcome(winners=[], reason=Msg(key="x"))
    assert {r.place for r in placings(row, Fake(lost), None)} == {2}, "nobody takes 1st in a lost table"


async def test_undo_replays_the_log_and_refuses_when_nothing_is_left(store):
    game = get_game("city_of_fury")
    state = game.new(["p1"], {}, 9)
    row = await store.create_game(
        guild_id=1,
        channel_id=1,
        game="city_of_fury",
        host_id=7,
        options={},
        seed=9,
        seats=[Seat("p1", 7)],
        status="active",
        state_json=state.model_dump_json(),
    )
    pipe = TableService(store)
    first = await pipe.act(row.id, 7, lambda g, st, s, legal: legal[0])
    assert first.state.step == 1
    undone = await pipe.undo(row.id, 7)
    assert undone.done is not None and undone.done.state.model_dump_json() == state.model_dump_json()
    try:
        await pipe.undo(row.id, 7)
    except TurnRefused as exc:
        assert exc.code == "nothing_to_undo"
    else:
        raise AssertionError("a second undo has nothing to take back")


async def test_ai_seats_are_played_inside_the_same_save(store):
    game = get_game("thunder_road")
    row = await store.create_game(
        guild_id=1,
        channel_id=1,
        game="thunder_road",
        host_id=7,
        options={},
        seed=3,
        seats=[Seat("p1", 7), Seat("p2", None)],
    )
    pipe = TableService(store)
    started = (await pipe.lobby(row.id, 7, "start")).started
    to_act = game.to_act(started.state)
    assert all(started.row.user_of(s) is not None for s in to_act), "after start only humans are waited for"
    fresh = await store.get_game(row.id)
    assert fresh.to_act == to_act and fresh.status == "active"

"""Views (tables/play/views.py) on every store backend: what a seat is offered, the
numbers on its buttons and the board's marks agree and are computed once per
table version; the time-bank lines of a table with a clock profile."""

from __future__ import annotations

from tablekit import AI, HOST, new_table

from store import Seat
from tables import TableService
from tables.rules import clocks


async def test_the_offer_its_numbers_and_the_boards_marks_agree_once_per_version(store):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    loaded = await service.load(row.id)
    row, game, state = loaded.row, loaded.game, loaded.state
    seat = game.to_act(state)[0]
    offered = await service.choices(row, game, state, seat)
    assert offered and await service.choices(row, game, state, seat) is offered  # once per version
    numbers, marks = await service.numbered(row, game, state, seat)
    buttons, board_marks = await service.board_offer(row, game, state, seat, "en")
    assert board_marks == marks and [i for i, _, _ in buttons] == list(range(len(offered)))
    assert await service.offer(row, game, state, seat, "en") == buttons
    for (_, label, _), number in zip(buttons, numbers, strict=True):
        if number is not None:
            assert label.startswith(str(number)), (label, number)
    assert set(marks.values()) == {n for n in numbers if n is not None}
    png = await service.render(game, state, seat, "en", marks=marks)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"

    moved = (await service.act(row.id, row.user_of(seat), AI, seat=seat)).row
    fresh = await service.load(row.id)
    if seat in fresh.game.to_act(fresh.state):
        assert await service.choices(moved, fresh.game, fresh.state, seat) is not offered  # a new version


async def test_bank_lines_give_each_seat_its_deadline_or_what_its_bank_holds(store):
    service = TableService(store)
    plain = await new_table(store)
    assert await service.bank_lines(plain) == []  # no clock profile: no banks
    row = await store.create_game(
        guild_id=1, channel_id=6060, game="thunder_road", host_id=HOST, options={}, seed=2,
        seats=[Seat("p1", HOST), Seat("p2", 8)], table={"reminder": 0, "turn_timer": 0, "clock": clocks.new_clock("fast")},
    )  # fmt: skip
    await service.lobby(row.id, HOST, "start")
    row = await store.get_game(row.id)
    now = service.clock()
    lines = await service.bank_lines(row, now)
    assert [(seat, user) for seat, user, *_ in lines] == [("p1", HOST), ("p2", 8)]
    for seat, _, value, waiting, away in lines:
        assert waiting == (seat in row.to_act) and away is None
        if waiting:
            assert value > now  # when its bank runs out
        else:
            assert 0 < value <= clocks.DAY  # seconds in the bank

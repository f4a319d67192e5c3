"""History (tables/play/history.py) on every store backend: the table ``/game log``
shows, a finished table's export (never a running one's: its seed predicts every
roll) and its state at any turn."""

from __future__ import annotations

import pytest
from tablekit import AI, BOB, HOST, new_table

from engine import get_game
from tables import TableService, TurnRefused


async def test_a_table_is_exported_and_replayed_only_once_it_is_over(store):
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    for _ in range(6):
        loaded = await service.load(row.id)
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(row.id, loaded.row.user_of(seat), AI, seat=seat)
    with pytest.raises(TurnRefused) as err:
        await service.finished_table(1, row.channel_id, None)
    assert err.value.code == "running"
    with pytest.raises(TurnRefused) as err:
        await service.finished_table(1, row.channel_id, row.id)
    assert err.value.code == "running"
    running = await service.log_table(row.channel_id)
    assert running.row.id == row.id and running.row.status == "active"

    with pytest.raises(TurnRefused) as err:
        await service.abandon(row.channel_id, BOB)  # the host's (or an admin's) to end
    assert err.value.code == "host_only"
    await service.abandon(row.channel_id, HOST)
    done = await service.finished_table(1, row.channel_id, None)
    assert done.id == row.id and done.status == "abandoned"
    with pytest.raises(TurnRefused) as err:
        await service.finished_table(2, row.channel_id, row.id)  # another server's table
    assert err.value.code == "no_such_table"
    assert (await service.log_table(row.channel_id)).row.id == row.id  # the channel's latest ended table

    data = await service.export_data(done)
    assert data["table"] == row.id and data["seed"] == done.seed and data["game"] == "thunder_road"
    game = get_game("thunder_road")
    replayed = game.replay(
        data["seats"], data["options"], data["seed"], [(a["seat"], a["action"]) for a in data["log"]]
    )
    assert replayed.model_dump_json() == game.load(done.state_json).model_dump_json()

    total = len(data["log"])
    _, state, n, count = await service.replay_state(done, 2)
    assert (n, count) == (2, total)
    prefix = game.replay(
        data["seats"], data["options"], data["seed"], [(a["seat"], a["action"]) for a in data["log"][:2]]
    )
    assert state.model_dump_json() == prefix.model_dump_json()
    _, _, n, _ = await service.replay_state(done, 10_000)
    assert n == total

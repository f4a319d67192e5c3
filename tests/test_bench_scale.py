"""bench/scale.py's race-loss rule (issue 30 item 7): a worker that read a table while it was
active and lost the race to another process that ended it is not an error; a "finished" refusal
for the version the worker read, and every other refusal code, still is."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from tablekit import AI, HOST, new_table

from tables import TableService, TurnRefused

SCALE = Path(__file__).resolve().parent.parent / "bench" / "scale.py"


def load_scale():
    spec = importlib.util.spec_from_file_location("bench_scale", SCALE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_a_table_another_process_ended_is_a_race_loss_and_nothing_else_is(store):
    scale = load_scale()
    service = TableService(store)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    read = await store.get_game(row.id)  # what a worker read: the table is active
    for _ in range(5000):  # another process plays the table to its end
        loaded = await service.load(row.id)
        seat = loaded.game.to_act(loaded.state)[0]
        if (await service.act(row.id, loaded.row.user_of(seat), AI, seat=seat)).row.status != "active":
            break
    ended = await store.get_game(row.id)
    assert ended.status == "finished" and ended.version > read.version
    seat = read.seats[0].seat

    with pytest.raises(TurnRefused) as lost:  # the worker acts on what it read
        await service.act(row.id, read.user_of(seat), AI, expected_version=read.version)
    assert lost.value.code == "finished"
    assert scale.race_loss(lost.value, read.version)

    # the same refusal for the version the worker read as active would be the store's fault
    assert not scale.race_loss(lost.value, ended.version)
    assert not scale.race_loss(lost.value, None)
    for code in ("not_seated", "illegal", "invalid", "finished"):
        assert not scale.race_loss(TurnRefused(code, "play.refuse.finished"), read.version)
    for code in scale.RACE_LOSSES:
        assert scale.race_loss(TurnRefused(code, "play.refuse.stale"), read.version)

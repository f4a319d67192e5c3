"""bench/async_days.py (issue 31 item 6): the simulated community keeps its members' nights in
their own time zones, plays whole games through the table service in both modes, arms the
typical orders through the facade's verbs, and every table's export replays to its state."""

from __future__ import annotations

import importlib.util
import random
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

BENCH = Path(__file__).resolve().parent.parent / "bench" / "async_days.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_async_days", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_member_answers_only_while_awake_in_their_own_time_zone():
    bench = load_bench()
    zone = ZoneInfo("Asia/Shanghai")
    member = bench.Member(uid=1, zone=zone, bed=23.0, wake=7.0, rng=random.Random(3))
    member.away_until_day = 10**6  # never away in this test
    for hour in range(24):
        ping = datetime(2026, 3, 3, hour, 30, tzinfo=zone).timestamp()
        for _ in range(20):
            answered = datetime.fromtimestamp(member.answer_at(ping), zone)
            assert not (answered.hour >= 23 or answered.hour < 7), (hour, answered)
            assert answered.timestamp() > ping
    night = datetime(2026, 3, 3, 2, 0, tzinfo=zone).timestamp()
    assert datetime.fromtimestamp(member.answer_at(night), zone).hour >= 7  # after waking up


def test_away_days_hold_every_answer_until_the_member_is_back():
    bench = load_bench()
    member = bench.Member(uid=1, zone=ZoneInfo("Europe/London"), bed=23.0, wake=7.0, rng=random.Random(5))
    start = bench.EPOCH + 2 * bench.DAY
    member.away, member.away_until_day = [(start, start + 1.5 * bench.DAY)], 10**6
    assert member.answer_at(start + bench.HOUR) >= start + 1.5 * bench.DAY


async def test_both_modes_play_every_table_to_its_end_and_replay_equal():
    bench = load_bench()
    off, _ = await bench.play(["armor_clash"], 7, 1, 4, False)
    on, _ = await bench.play(["armor_clash"], 7, 1, 4, True)
    for town in (off, on):
        assert town.same == (1, 1) and town.errors == 0
        assert all(p.end is not None and p.end > p.start and p.waits > 0 and p.pings > 0 for p in town.tables.values())
    assert off.armed == 0 and on.armed > 0  # the typical orders, armed through the facade's verbs
    assert on.order_steps > 0 and off.order_steps == 0  # and they took steps (the log says so)

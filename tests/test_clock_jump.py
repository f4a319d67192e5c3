"""A background pass trusts the wall clock only as far as the time that really passed
explains it (tables.rules.clocks.WallClock); a jump either way makes the scheduler's pass
expire nothing: no AI move, no time bank run out, no vote opened."""

from __future__ import annotations

import logging

import pytest

from tables.rules.clocks import WallClock

T0 = 1_800_000_000.0
DAY = 86400.0


def passes(guard: WallClock, steps: list[tuple[float, float]]) -> list[float | None]:
    """(wall, steady) per pass -> what the guard said of each."""
    return [guard.jump(w, s) for w, s in steps]


def test_a_clock_moving_with_the_time_that_passed_is_trusted():
    guard = WallClock(tolerance=60)
    steps = [(T0 + 60 * i, 1000 + 60 * i) for i in range(5)]
    steps.append((T0 + 60 * 5 + 400, 1000 + 60 * 5 + 400))  # a long pass: explained by the steady clock
    steps.append((T0 + 60 * 6 + 400 + 30, 1000 + 60 * 6 + 400))  # a small step of the clock (NTP): tolerated
    assert passes(guard, steps) == [None] * 7


def test_three_days_ahead_for_one_pass_is_skipped_and_the_next_pass_runs():
    guard = WallClock(tolerance=60)
    assert guard.jump(T0, 0) is None
    drift = guard.jump(T0 + 3 * DAY + 60, 60)
    assert drift == pytest.approx(3 * DAY)
    assert guard.jump(T0 + 120, 120) is None, "the clock came back: trusted again at once"


@pytest.mark.parametrize("jump", [-3600.0, -61.0, 61.0 + 60, 2 * DAY])
def test_a_jump_either_way_beyond_the_tolerance_is_reported(jump):
    guard = WallClock(tolerance=60)
    guard.jump(T0, 0)
    drift = guard.jump(T0 + 60 + jump, 60)
    assert drift == pytest.approx(jump) and (drift > 0) == (jump > 0)


def test_a_corrected_clock_is_trusted_once_it_kept_its_new_time_for_the_settle_time():
    guard = WallClock(tolerance=60, settle=600)
    guard.jump(T0, 0)
    jumped = T0 + 2 * 3600  # set two hours ahead, and it stays there
    said = passes(guard, [(jumped + 60 * i, 60 * i) for i in range(1, 12)])
    assert all(d == pytest.approx(2 * 3600) for d in said[:10]), said  # 60..600 s: still watched
    assert said[10] is None, "kept for 600 s of real time: the new time is the truth"
    assert guard.jump(jumped + 60 * 12, 60 * 12) is None


def test_a_second_jump_while_watching_starts_the_watch_again():
    guard = WallClock(tolerance=60, settle=600)
    guard.jump(T0, 0)
    assert guard.jump(T0 + DAY, 60) is not None
    assert guard.jump(T0 + 2 * DAY, 400) is not None  # moved again: not the time it was watching
    assert guard.jump(T0 + 2 * DAY + 500, 900) is not None  # only 500 s at the new time
    assert guard.jump(T0 + 2 * DAY + 700, 1100) is None


# ------------------------------------------------ the scheduler with a controlled clock
class Steady:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


async def _bank_table(table, policy="ai"):
    alice = table.fd.add_user(101, "alice", manage_guild=True)
    bob = table.fd.add_user(102, "bob")
    await table.start()
    if policy != "ai":
        ex = await table.fd.slash(alice, "settings clock", {"profile": "fast", "policy": policy})
        await ex.wait_response()
    gid, _ = await table.open_table(alice, "thunder_road", joiners=[bob], clock="fast")  # a 1-day bank
    scheduler = table.bot.get_cog("Scheduler")
    steady = Steady()
    scheduler.steady = steady
    assert await scheduler.run_pass() == {"reminders": 0, "timeouts": 0, "failed": 0, "lobbies_expired": 0}
    return gid, scheduler, steady


@pytest.mark.parametrize("policy", ["ai", "vote"])
async def test_a_pass_with_the_clock_three_days_ahead_expires_nothing(table, caplog, policy):
    gid, scheduler, steady = await _bank_table(table, policy)
    start, version, posted = table.clock(), table.row(gid)["version"], len(table.fd.messages())
    table.clock.now, steady.now = start + 3 * DAY + 60, steady.now + 60
    with caplog.at_level(logging.WARNING, logger="tabletop.scheduler"):
        assert await scheduler.run_pass() is None
    assert table.row(gid)["version"] == version, "no AI move, no bank run out"
    assert table.sql("SELECT COUNT(*) FROM votes")[0][0] == 0, "no vote opened"
    assert len(table.fd.messages()) == posted, "nothing announced"
    said = [r.getMessage() for r in caplog.records if r.name == "tabletop.scheduler"]
    assert len(said) == 1 and "moved forward by 259200 s" in said[0], said
    # the clock comes back: the next pass runs, and nothing is due at the true time
    table.clock.now, steady.now = start + 120, steady.now + 60
    assert await scheduler.run_pass() == {"reminders": 0, "timeouts": 0, "failed": 0, "lobbies_expired": 0}
    assert table.row(gid)["version"] == version
    # a day that really passes still runs the bank out
    table.clock.now, steady.now = start + DAY + 120, steady.now + DAY
    assert (await scheduler.run_pass())["timeouts"] == 1


async def test_a_pass_after_the_clock_went_back_expires_nothing(table, caplog):
    gid, scheduler, steady = await _bank_table(table)
    start = table.clock()
    table.clock.now, steady.now = start + DAY + 60, steady.now + DAY + 60  # a day passed: the bank is out
    table.clock.now -= 2 * 3600  # ... but the clock was just set two hours back
    with caplog.at_level(logging.WARNING, logger="tabletop.scheduler"):
        assert await scheduler.run_pass() is None
    assert any("moved back by 7200 s" in r.getMessage() for r in caplog.records)
    version = table.row(gid)["version"]
    table.clock.now, steady.now = table.clock.now + 60, steady.now + 60
    assert await scheduler.run_pass() is None, "still at the unexplained time"
    assert table.row(gid)["version"] == version

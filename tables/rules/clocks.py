"""Time banks (clock profiles) and vacations: Discord-free, computed from stored times.

A table with a clock profile keeps in ``GameRow.table["clock"]``::

    {"profile": "relaxed", "start": s, "increment": s, "cap": s, "policy": "ai",
     "at": t, "banks": {seat: seconds left at t}}

Every change to the table settles the banks (:func:`settle`): each seat that was
waiting loses the time it waited since ``at`` (minus the time its member was
away), each seat that handed its turn on gains the increment, up to the cap; ``at``
becomes now.  So a bank runs only while its seat must act, every waiting seat at
once in simultaneous turns, and nothing depends on a running task: the store's
due times (``turn_clocks.expire_at``) and the board's ``<t:...:R>`` come from
the same stored numbers (:func:`runs_out_at`); :func:`due_times` is the rule the
store applies to keep them (whoever opens the store passes it: ``open_store(url, due=due_times)``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

DAY = 86400.0
HOUR = 3600.0


@dataclass(frozen=True)
class Profile:
    name: str
    start: float  # seconds in every bank when the game starts
    increment: float  # added when a seat hands its turn on
    cap: float  # a bank never holds more


#: the clock profiles a table may choose at /game new (and a server default in /settings)
PROFILES: dict[str, Profile | None] = {
    "off": None,
    "relaxed": Profile("relaxed", 3 * DAY, 1 * DAY, 5 * DAY),
    "fast": Profile("fast", 1 * DAY, 12 * HOUR, 2 * DAY),
    "blitz": Profile("blitz", 1 * HOUR, 10 * 60, 2 * HOUR),
}

#: what happens when a bank runs out: the seat-filler AI takes the decision, the
#: game's default action (e.g. a pass), or the other players may vote the seat to the AI
POLICIES = ("ai", "default", "vote")

#: vacation days a member may take per calendar year (UTC)
AWAY_DAYS_PER_YEAR = 21


def new_clock(profile: str, policy: str = "ai") -> dict[str, Any] | None:
    """The table's clock settings for ``profile`` (None: no time bank)."""
    p = PROFILES.get(profile)
    if p is None:
        return None
    return {
        "profile": p.name,
        "start": p.start,
        "increment": p.increment,
        "cap": p.cap,
        "policy": policy if policy in POLICIES else "ai",
    }


def of(table: dict[str, Any]) -> dict[str, Any] | None:
    clock = table.get("clock")
    return clock if isinstance(clock, dict) and clock.get("profile") else None


def handed_on(seat: str, acted: Sequence[str], to_act_after: Sequence[str]) -> bool:
    """Did ``seat`` end its turn in a change whose log entries were made by the
    seats ``acted`` (in order)?  Yes when it acted and then either waits no more
    or somebody else acted after it (the turn went round)."""
    if seat not in acted:
        return False
    last = max(i for i, s in enumerate(acted) if s == seat)
    return seat not in to_act_after or any(s != seat for s in acted[last + 1 :])


def settle(
    clock: dict[str, Any],
    *,
    seats: Sequence[str],
    waiting_before: Sequence[str],
    acted: Sequence[str],
    to_act_after: Sequence[str],
    away: dict[str, list[tuple[float, float]]],
    now: float,
) -> dict[str, Any]:
    """The clock after one change of the table at ``now`` (see the module docstring).
    A clock without banks yet (the game starts now) fills every bank."""
    out = dict(clock)
    banks = dict(clock.get("banks") or {})
    if not banks:
        banks = {s: float(clock["start"]) for s in seats}
    else:
        at = float(clock.get("at") or now)
        for seat in waiting_before:
            if seat in banks:
                banks[seat] = max(0.0, banks[seat] - running_seconds(at, now, away.get(seat, [])))
        for seat in seats:
            banks.setdefault(seat, float(clock["start"]))
            if seat in waiting_before and handed_on(seat, acted, to_act_after):
                banks[seat] = min(float(clock["cap"]), banks[seat] + float(clock["increment"]))
    out["banks"] = banks
    out["at"] = now
    return out


def left(clock: dict[str, Any], seat: str, now: float, *, waiting: bool, away: Sequence[tuple[float, float]] = ()):
    """Seconds left in ``seat``'s bank at ``now`` (it runs only while the seat waits)."""
    banks = clock.get("banks") or {}
    if seat not in banks:
        return float(clock.get("start") or 0)
    bank = float(banks[seat])
    if not waiting:
        return bank
    return max(0.0, bank - running_seconds(float(clock.get("at") or now), now, away))


def runs_out(clock: dict[str, Any], seat: str, away: Sequence[tuple[float, float]] = ()) -> float | None:
    """When a waiting seat's bank runs out (epoch seconds), pauses for vacations included."""
    banks = clock.get("banks") or {}
    if seat not in banks:
        return None
    return runs_out_at(float(clock.get("at") or 0), float(banks[seat]), away)


def discord_time(at: float, style: str = "R") -> str:
    """A Discord timestamp (``<t:...:R>``): every reader's client shows it live, so it never goes stale."""
    return f"<t:{int(at)}:{style}>"


# ------------------------------------------------------------------ vacations
def away_now(prefs: dict[str, Any], now: float) -> tuple[float, float] | None:
    """The member's vacation covering ``now``, if any."""
    for a, b in away_periods(prefs):
        if a <= now < b:
            return a, b
    return None


def days_used(prefs: dict[str, Any], year: int) -> float:
    """Vacation days taken (or booked) in calendar ``year`` (UTC)."""
    start = datetime(year, 1, 1, tzinfo=UTC).timestamp()
    end = datetime(year + 1, 1, 1, tzinfo=UTC).timestamp()
    total = 0.0
    for a, b in away_periods(prefs):
        total += max(0.0, min(b, end) - max(a, start))
    return total / DAY


def go_away(prefs: dict[str, Any], now: float, days: float, allowance: float = AWAY_DAYS_PER_YEAR):
    """(new prefs, None) with a vacation of ``days`` from now (extending one under
    way), or (None, days still allowed this year) when it exceeds the allowance."""
    periods = [p for p in away_periods(prefs) if p[1] > now - 400 * DAY]  # keep a year of history
    current = away_now(prefs, now)
    start = current[0] if current else now
    end = (current[1] if current else now) + days * DAY
    proposed = [p for p in periods if p != current] + [(start, end)]
    year = datetime.fromtimestamp(now, UTC).year
    trial = {**prefs, "away": [list(p) for p in proposed]}
    if days_used(trial, year) > allowance + 1e-9 or (
        datetime.fromtimestamp(end, UTC).year > year and days_used(trial, year + 1) > allowance + 1e-9
    ):
        return None, max(0.0, allowance - days_used(prefs, year))
    return trial, None


def come_back(prefs: dict[str, Any], now: float) -> dict[str, Any] | None:
    """Prefs with the current vacation ended now (and booked future ones dropped); None when not away."""
    current = away_now(prefs, now)
    if current is None:
        return None
    periods = [p for p in away_periods(prefs) if p[1] <= now] + [(current[0], now)]
    return {**prefs, "away": [list(p) for p in periods if p[1] > p[0]]}


def away_of(prefs_by_user: dict[int, dict[str, Any]], seats: dict[str, int | None]):
    """seat -> vacation periods of its member."""
    return {s: away_periods(prefs_by_user.get(u) or {}) for s, u in seats.items() if u is not None}


# ------------------------------------------------------------------ the wall clock
def steady_clock() -> float:
    """Seconds that really passed (a suspend of the machine included, where the OS
    counts it: CLOCK_BOOTTIME), unaffected by changes to the wall clock."""
    return time.clock_gettime(time.CLOCK_BOOTTIME) if hasattr(time, "CLOCK_BOOTTIME") else time.monotonic()


@dataclass
class WallClock:
    """Does a background pass trust the wall clock?  Every due time is a wall-clock
    time, so a clock set days ahead would expire every timer at once.  Each pass
    reports (wall, steady); the wall clock is explained when it moved like the steady
    clock since the last trusted pass, give or take ``tolerance`` seconds.  A jump
    either way is not: :meth:`jump` returns it (the pass does nothing).  The wall
    clock's new time is trusted once it kept it for ``settle`` seconds (a corrected
    clock), or at once when it comes back to the old one (a blip)."""

    tolerance: float = 60.0
    settle: float = 600.0
    trusted: tuple[float, float] | None = None  # (wall, steady) of the last trusted pass
    candidate: tuple[float, float] | None = None  # the first pass at an unexplained new time

    def jump(self, wall: float, steady: float) -> float | None:
        """None when this pass may trust ``wall``; else the seconds the wall clock
        moved beyond what the steady clock explains (positive: forward)."""
        here = (wall, steady)
        if self.trusted is None:
            self.trusted = here
            return None
        drift = (wall - self.trusted[0]) - (steady - self.trusted[1])
        if abs(drift) <= self.tolerance:
            self.trusted, self.candidate = here, None
            return None
        new = self.candidate
        if new is None or abs((wall - new[0]) - (steady - new[1])) > self.tolerance:
            self.candidate = here  # a (new) unexplained time: watch whether the clock keeps it
        elif steady - new[1] >= self.settle:
            self.trusted, self.candidate = here, None
            return None
        return drift


# ------------------------------------------------------------- due times
# The policy of when a waiting seat is pinged and when its time runs out.  The store
# keeps each waiting seat's due times in indexed columns (``turn_clocks``) so a
# scheduler pass reads only what is due (``Store.due_tables``); it recomputes them in
# the transaction of every change that moves them, with :func:`due_times` (registered
# below), from the stored table, its server's settings and its members' preferences.

#: the platform defaults of a waiting seat's two clocks, in minutes (0 = never): a
#: table's own setting (``GameRow.table``) beats its server's, which beats these.
DEFAULT_CLOCKS: dict[str, float] = {"reminder": 720, "turn_timer": 0}


def clock_minutes(key: str, table: dict[str, Any], guild: dict[str, Any]) -> float:
    """The minutes of clock ``key`` ("reminder", "turn_timer") for a table."""
    value = table.get(key, guild.get(key, DEFAULT_CLOCKS[key]))
    try:
        return max(0.0, float(value or 0))
    except (TypeError, ValueError):
        return 0.0


def away_periods(prefs: dict[str, Any]) -> list[tuple[float, float]]:
    """A member's vacations ([start, end] in epoch seconds), sorted."""
    out = []
    for p in prefs.get("away") or []:
        try:
            start, end = float(p[0]), float(p[1])
        except (TypeError, ValueError, IndexError):
            continue
        if end > start:
            out.append((start, end))
    return sorted(out)


def running_seconds(start: float, end: float, away: Sequence[tuple[float, float]] = ()) -> float:
    """Seconds of [start, end] outside every vacation period (the time a bank ran)."""
    if end <= start:
        return 0.0
    total = end - start
    cursor = start
    for a, b in sorted(away):
        a, b = max(a, cursor), min(b, end)
        if b > a:
            total -= b - a
            cursor = b
    return max(0.0, total)


def runs_out_at(start: float, seconds: float, away: Sequence[tuple[float, float]] = ()) -> float:
    """When a clock of ``seconds`` that starts running at ``start`` runs out, paused
    during the vacation periods ``away``."""
    t, left = start, max(0.0, seconds)
    for a, b in sorted(away):
        if b <= t:
            continue
        a = max(a, t)
        if t + left <= a:
            break
        left -= a - t
        t = b
    return t + left


def seat_clocks(
    *,
    status: str,
    to_act: Sequence[str],
    seats: Sequence[tuple[str, int | None]],
    table: dict[str, Any],
    guild: dict[str, Any],
    since: float | None,
    last_reminder_at: float | None,
    away: dict[int, list[tuple[float, float]]] | None = None,
) -> list[tuple[str, int, float, float | None, float | None]]:
    """(seat, user, waiting since, next reminder due, turn timer / bank runs out) for
    every human seat a running table waits for; the same rule the scheduler applies.
    A table with a clock profile runs out when the seat's bank does; vacations
    (``away``: member -> periods) pause both the bank or timer and the reminders."""
    if status != "active" or since is None:
        return []
    remind, timer = clock_minutes("reminder", table, guild), clock_minutes("turn_timer", table, guild)
    clock = table.get("clock") if isinstance(table.get("clock"), dict) else None
    banks = clock.get("banks") if clock else None
    users = dict(seats)
    out = []
    for seat in to_act:
        uid = users.get(seat)
        if uid is None:
            continue
        periods = (away or {}).get(uid, [])
        remind_at = None
        if remind:
            remind_at = since + remind * 60
            if last_reminder_at is not None:
                remind_at = max(remind_at, last_reminder_at + remind * 60)
            for a, b in periods:  # no pings while away: the next one is due when they are back
                if a <= remind_at < b:
                    remind_at = b
        if clock is not None and isinstance(banks, dict) and seat in banks:
            expire_at: float | None = runs_out_at(float(clock.get("at") or since), float(banks[seat]), periods)
        else:
            expire_at = runs_out_at(since, timer * 60, periods) if timer else None
        out.append((seat, uid, since, remind_at, expire_at))
    return out


def due_times(
    *, prefs: dict[int, dict[str, Any]], **table: Any
) -> list[tuple[str, int, float, float | None, float | None]]:
    """:func:`seat_clocks` from the members' stored preferences (what the store hands its policy)."""
    return seat_clocks(away={u: away_periods(p) for u, p in prefs.items()}, **table)

"""How often and when the bot reaches each member, over three simulated days (issue 32 item 6).

    python bench/notify.py [--members 50] [--tables 20] [--days 3] [--seed 1] [--step 600]

The real bot (discord.py against the local Discord stand-in, tests/fakediscord.py) on a
controlled clock (the bot's, the table service's and the store's: nothing sleeps) runs
``--tables`` Thunder Road tables of four members drawn from ``--members`` members, each
with a turn timer of 8 hours, for ``--days`` days.  Every ``--step`` seconds of simulated
time: the members whose answer is due take their decision through the table service
(``TableService.act``, the seat-filler AI's choice), then the outbox (the boards and their
pings) and the scheduler (reminders, timers, clock alerts, digests) each do one pass.
Each member lives in their own IANA time zone with quiet hours 23-7 (set through the
facade's ``set_quiet_hours``), sleeps through them, and answers a turn after a lognormal
delay (median 40 minutes, at most 7 hours); one member in three takes their turns in the
daily digest (``set_notify(..., "turn", "digest")``, ``set_digest_hour(..., 8)``).

Every message the bot posted is attributed to the simulated time of the pass that
posted it and to the members it notifies (a mention that pings them, or a direct
message).  Prints exactly one line::

    notify members=<n> turns=<n> pings_per_turn=<max> digest_dms_per_day=<max> quiet_violations=<n> clock_alerts_per_turn=<max>

* ``turns``: the members' turns (a wait of one member at one table, from the change that
  gave them the decision to their own step or the timer's);
* ``pings_per_turn``: the most pings one member got in one turn (board mentions and
  reminders; the final board of a game is not a turn's);
* ``digest_dms_per_day``: the most digests one member got on one local day;
* ``quiet_violations``: messages that pinged or DMed a member in their quiet hours;
* ``clock_alerts_per_turn``: the most "75 %" alerts one member got in one turn (its
  ``# alerts`` line says how many turns lasted past 75 % of the timer and got exactly one).
Targets: pings_per_turn <= 1, digest_dms_per_day <= 1, quiet_violations 0, and every
turn that lasts past 75 % of its timer gets exactly one 75 % alert.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

from engine import get_game  # noqa: E402
from engine.i18n import t  # noqa: E402
from store import Seat  # noqa: E402

GAME = "thunder_road"
SEATS = 4
TIMER_MINUTES = 8 * 60
QUIET = (23, 7)
DIGEST_HOUR = 8
ZONES = (
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Asia/Kolkata",
)
START = datetime(2027, 3, 26, 12, tzinfo=UTC).timestamp()  # over Europe's change to summer time (28 March)
DEBUG = False
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


def quiet_at(zone: str, now: float) -> bool:
    h = datetime.fromtimestamp(now, ZoneInfo(zone)).hour
    return h >= QUIET[0] or h < QUIET[1]


def awake_after(zone: str, now: float) -> float:
    """The first moment at or after ``now`` outside the member's quiet hours (their waking)."""
    while quiet_at(zone, now):
        now += 300
    return now


class Sim:
    def __init__(self, table: Table, rng: random.Random, members: int, tables: int) -> None:
        self.table, self.rng = table, rng
        self.service = table.bot.services.tables
        self.members = [100_000 + i for i in range(members)]
        self.zone = {u: ZONES[i % len(ZONES)] for i, u in enumerate(self.members)}
        self.digest = {u for i, u in enumerate(self.members) if i % 3 == 2}
        self.n_tables = tables
        self.games: list[int] = []
        self.channel: dict[int, int] = {}
        #: (table, member) -> the number of their turn now, and when it started
        self.since: dict[tuple[int, int, int], float] = {}
        self.answer_at: dict[tuple[int, int, int], float] = {}
        self.current: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.pings: Counter[tuple[int, int, int]] = Counter()
        self.alerts: Counter[tuple[int, int, int]] = Counter()
        self.digests: Counter[tuple[int, str]] = Counter()
        self.long_turns: set[tuple[int, int, int]] = set()
        self.violations = 0
        self.turns = 0
        self.seen: set[int] = set()

    async def setup(self) -> None:
        fd = self.table.fd
        for u in self.members:
            fd.add_user(u, f"m{u}")
            await self.service.set_quiet_hours(u, self.zone[u], *QUIET)
            if u in self.digest:
                await self.service.set_notify(u, "turn", "digest")
                await self.service.set_digest_hour(u, DIGEST_HOUR)
        store = self.service.store
        for i in range(self.n_tables):
            cid = fd.add_channel(f"table-{i}")
            seated = self.rng.sample(self.members, SEATS)
            row = await store.create_game(
                guild_id=fd.guild_id,
                channel_id=cid,
                game=GAME,
                host_id=seated[0],
                options={},
                seed=1000 + i,
                seats=[Seat(f"p{n + 1}", u) for n, u in enumerate(seated)],
                table={"turn_timer": TIMER_MINUTES},
            )
            await self.service.lobby(row.id, seated[0], "start")
            self.games.append(row.id)
            self.channel[row.id] = cid
        self.dm_text = {t("notify.digest.title", "en", n=0).split(":")[0]}

    def waiting(self, gid: int) -> set[int]:
        t_ = self.table
        if t_.row(gid)["status"] != "active":
            return set()
        users = t_.seat_user(gid)
        return {users[s] for s in get_game(GAME).to_act(t_.state(gid)) if users.get(s)}

    def turn_of(self, gid: int, u: int) -> tuple[int, int, int]:
        """(table, member, n): the member's n-th decision at the table (the steps taken for
        their seats so far, by them or a timer)."""
        n = self.table.sql(
            "SELECT COUNT(*) FROM actions a JOIN seats s ON s.game_id=a.game_id AND s.seat=a.seat"
            " WHERE a.game_id=? AND s.user_id=?",
            gid,
            u,
        )[0][0]
        return (gid, u, int(n))

    def note_waits(self, now: float) -> None:
        """Every member waited on now: a new turn starts its clock and its answer; one that
        has waited 75 % of the timer is a long turn."""
        self.current = {}
        for gid in self.games:
            for u in self.waiting(gid):
                key = self.turn_of(gid, u)
                self.current[(gid, u)] = key
                if key not in self.since:
                    self.since[key] = now
                    self.turns += 1
                    delay = min(7 * 3600.0, 60 * math.exp(self.rng.gauss(math.log(40), 1.0)))
                    self.answer_at[key] = awake_after(self.zone[u], now + delay)
                elif now - self.since[key] >= 0.75 * TIMER_MINUTES * 60:
                    self.long_turns.add(key)

    async def step(self, now: float) -> None:
        game = get_game(GAME)
        for gid in self.games:
            for u in sorted(self.waiting(gid)):
                key = self.turn_of(gid, u)
                if self.answer_at.get(key, math.inf) <= now and not quiet_at(self.zone[u], now):
                    users = self.table.seat_user(gid)
                    for seat in [s for s, v in users.items() if v == u and s in game.to_act(self.table.state(gid))]:
                        try:
                            await self.service.act(gid, u, AI, seat=seat)
                        except Exception:  # noqa: BLE001 -- a timer took it meanwhile, or the table ended
                            pass
            await self.table.deliver()
        self.count(now)
        self.note_waits(now)
        await self.table.tick()
        await self.table.deliver()
        self.count(now)
        self.note_waits(now)

    def count(self, now: float) -> None:
        fd = self.table.fd
        by_channel = {c: g for g, c in self.channel.items()}
        for m in fd.all_messages:
            if m.id in self.seen or m.ephemeral:
                continue
            self.seen.add(m.id)
            cid = int(m.channel_id)
            if cid in by_channel:
                gid = by_channel[cid]
                final = self.table.row(gid)["status"] != "active" and m.attachments
                for u in set(m.pinged):
                    if quiet_at(self.zone.get(u, "UTC"), now):
                        self.violations += 1
                    key = self.turn_of(gid, u)
                    if "75" in m.text or "¾" in m.text or self.alert_text(m.text):
                        self.alerts[key] += 1
                    elif not final:
                        self.pings[key] += 1
                        if DEBUG:
                            print(f"# t={(now - START) / 3600:.2f}h ping {key}: {m.text[-100:]!r}")
                continue
            owner = next((u for u in self.members if fd.dm_channel(u) == cid), None)
            if owner is None:
                continue
            if quiet_at(self.zone[owner], now):
                self.violations += 1
            if any(x in m.text for x in self.dm_text):
                day = datetime.fromtimestamp(now, ZoneInfo(self.zone[owner])).date().isoformat()
                self.digests[(owner, day)] += 1

    @staticmethod
    def alert_text(text: str) -> bool:
        return False


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, default=50)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--days", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--step", type=float, default=600.0, help="seconds of simulated time between passes")
    ap.add_argument("--debug", action="store_true")
    args = ap.parse_args()
    global DEBUG
    DEBUG = args.debug
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fd:
            table = Table(fd, Path(tmp) / "notify.db")
            table.clock.now = START
            await table.start()
            sim = Sim(table, random.Random(args.seed), args.members, args.tables)
            await sim.setup()
            await table.deliver()
            sim.count(START)
            sim.note_waits(START)
            end = START + args.days * 86400
            while table.clock.now < end:
                table.clock.now += args.step
                await sim.step(table.clock.now)
            await fd.stop(table.bot)
    long = [k for k in sim.long_turns]
    once = sum(1 for k in long if sim.alerts[k] == 1)
    print(
        f"notify members={len(sim.members)} turns={sim.turns} pings_per_turn={max(sim.pings.values(), default=0)}"
        f" digest_dms_per_day={max(sim.digests.values(), default=0)} quiet_violations={sim.violations}"
        f" clock_alerts_per_turn={max(sim.alerts.values(), default=0)}"
    )
    print(f"# alerts: {once} of {len(long)} turns past 75 % of the timer got exactly one 75 % alert")


if __name__ == "__main__":
    asyncio.run(main())

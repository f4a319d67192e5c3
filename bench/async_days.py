"""A community playing slow games over calendar time, with and without standing orders.

    python bench/async_days.py [--games thunder_road,automobile,armor_clash] [--seed N] [--tables N] [--members N]
                               [--option GAME.KEY=VALUE ...]

A simulated community of members plays full games of every multiplayer game through the
table service (``TableService``: open, join, start, act; a temporary SQLite store) on a
controlled clock (the service's and the store's: nothing sleeps).  Each member:

* answers a ping after a random delay with a realistic spread (lognormal, median 40
  minutes, one in ten over 3 hours, at most 18 hours), a few minutes while they are
  still online after a sitting;
* sleeps at night in their own time zone (``zoneinfo``: bedtime and waking time of
  their own), and answers what came in the night after waking up;
* now and then goes away for a day or two (one day in twenty);
* at a check-in takes every decision they have at each table where they are to act,
  one after another while the table keeps asking them (the seat-filler AI's choices,
  a few seconds to a minute each), and with orders on arms, at each table they look
  at, the orders a typical player arms that are not armed (the first time, and again
  when one has switched itself off), through the facade's verbs (``order_choices``,
  ``arm_order``, ``my_orders``).

Both modes play the same tables (seats, seeds, members, start times); the only
difference is the armed orders.  No turn timers run (a table waits for its players).
Prints exactly one line per game and mode::

    async game=<id> seats=<n> orders=<on|off> waits=<n> days=<f> pings_per_player=<f>

* ``waits``: the times a table waited on a person: a member came to a table where their
  seat was to act and none of their armed orders would take the decision (the decisions
  they take one after another in that sitting are one wait; a ping whose decision an
  order took, or takes, is none; coming to arm again an order that switched itself off
  is one), summed over the game's tables;
* ``days``: calendar days from a table's start to its end, the mean over its tables;
* ``pings_per_player``: the turn pings of the game's boards (tables/seeing/pings.py,
  the final board's included) per human seat.

Then a ``#`` line saying whether every table's export replays to its stored state, and
one with the run's totals.  Seeded and reproducible (the same ``--seed``, the same lines).
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import importlib
import json
import math
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from engine.orders import ArmedOrder, Fire  # noqa: E402
from store import open_store  # noqa: E402
from tables import TableService, TurnRefused, board_pings, due_times  # noqa: E402
from tables.core.standing import DELAY  # noqa: E402  (the span of a hidden-timing order's delay)

GAMES = ("thunder_road", "automobile", "armor_clash")
#: players per table (a full table of the size the games are usually played at)
SEATS = {"thunder_road": 4, "automobile": 3, "armor_clash": 2}
#: where the community's members live
ZONES = (
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Asia/Kolkata",
)
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
#: the first table starts on this day (a Monday, 09:00 UTC)
EPOCH = datetime(2026, 3, 2, 9, 0, tzinfo=UTC).timestamp()
#: a table still running after this long is given up (a bug, not a slow community)
GIVE_UP = 400 * DAY
FIRST_USER = 5000
#: the queue's entry for a scheduler pass (a member's is their id)
SCHEDULER = 0


def lognormal(rng: random.Random, median: float, sigma: float, low: float, high: float) -> float:
    return min(high, max(low, rng.lognormvariate(math.log(median), sigma)))


@dataclass
class Member:
    uid: int
    zone: ZoneInfo
    bed: float  # local time of day (hours) they go to sleep (may pass midnight: 24.5)
    wake: float  # local time of day (hours) they wake up
    rng: random.Random
    away: list[tuple[float, float]] = field(default_factory=list)  # (from, until), in order
    away_until_day: int = 0  # days after EPOCH the away list covers
    online_until: float = 0.0
    due: float | None = None  # their next check-in
    pending: set[int] = field(default_factory=set)  # tables waiting on them

    # ------------------------------------------------------------ when they can answer
    def asleep_until(self, t: float) -> float | None:
        """When they wake up, if they are asleep at ``t``."""
        local = datetime.fromtimestamp(t, self.zone)
        hour = local.hour + local.minute / 60 + local.second / 3600
        bed = self.bed % 24
        asleep = (bed <= hour or hour < self.wake) if bed > self.wake else (bed <= hour < self.wake)
        if not asleep:
            return None
        day = local.date() if hour < self.wake else local.date() + timedelta(days=1)
        woke = datetime(day.year, day.month, day.day, tzinfo=self.zone) + timedelta(hours=self.wake)
        return woke.timestamp()

    def away_at(self, t: float) -> float | None:
        """When they are back, if they are away at ``t``."""
        while self.away_until_day * DAY + EPOCH <= t + 3 * DAY:  # plan the days ahead: a day or two, one in twenty
            start = EPOCH + self.away_until_day * DAY
            if self.rng.random() < 0.05:
                begin = start + self.rng.uniform(0, DAY)
                self.away.append((begin, begin + self.rng.uniform(1, 2) * DAY))
            self.away_until_day += 1
        for begin, until in self.away:
            if begin <= t < until:
                return until
        return None

    def answer_at(self, now: float) -> float:
        """When a ping at ``now`` is answered."""
        if now < self.online_until:
            return now + lognormal(self.rng, 3 * MINUTE, 0.6, 30.0, 20 * MINUTE)
        t = now + lognormal(self.rng, 40 * MINUTE, 1.3, MINUTE, 18 * HOUR)
        while True:  # asleep or away when it would come: after waking / coming back, and a while
            back = self.away_at(t) or self.asleep_until(t)
            if back is None:
                return t
            t = back + lognormal(self.rng, 25 * MINUTE, 0.9, MINUTE, 4 * HOUR)


@dataclass
class Played:
    gid: str
    table: int
    users: dict[str, int]  # seat -> member
    start: float = 0.0
    end: float | None = None
    waits: int = 0
    pings: int = 0


def community(seed: int, n: int) -> list[Member]:
    rng = random.Random(f"community {seed}")
    out = []
    for i in range(n):
        out.append(
            Member(
                uid=FIRST_USER + i,
                zone=ZoneInfo(rng.choice(ZONES)),
                bed=rng.uniform(22.0, 25.0),
                wake=rng.uniform(6.0, 8.5),
                rng=random.Random(f"member {seed} {i}"),
            )
        )
    return out


def ai_pick(game, state, seat, legal):
    return game.ai_action(state, seat)


class Town:
    """One mode's run: the community, its tables, the clock and the queue of check-ins."""

    def __init__(self, service: TableService, members: list[Member], orders: bool, seed: int) -> None:
        self.service = service
        self.members = {m.uid: m for m in members}
        self.orders = orders
        self.now = EPOCH
        self.queue: list[tuple[float, int, int]] = []
        self.seq = 0
        self.tables: dict[int, Played] = {}
        self.errors = 0
        self.armed = 0
        self.order_steps = 0  # steps the log says a standing order took
        self.same = (0, 0)  # (tables whose export replays to the stored state, tables)
        self.rng = random.Random(f"delays {seed}")
        if orders:
            service.kernel.order_delay = self.delay

    def clock(self) -> float:
        return self.now

    # ------------------------------------------------------------ the tables
    async def open(self, gid: str, users: list[int], seed: int, channel: int, options: dict | None = None) -> None:
        host = users[0]
        lobby = await self.service.open_table(
            guild_id=None,
            channel_id=channel,
            game_id=gid,
            host_id=host,
            options=dict(options or {}),
            ai=0,
            seed=seed,
            locale="en",
            table={},
        )
        table = lobby.row.id
        for uid in users[1:]:
            await self.service.lobby(table, uid, "join")
        started = await self.service.lobby(table, host, "start")
        assert started.started is not None
        row = started.started.row
        self.tables[table] = Played(gid, table, {s.seat: s.user_id for s in row.seats if s.user_id is not None})
        self.tables[table].start = self.now
        self.changed(started.started, by=None)

    def changed(self, result, by: int | None) -> None:
        """After a change of a table: count its pings, note who it waits on now."""
        played = self.tables[result.row.id]
        to_act = result.game.to_act(result.state)
        played.pings += len(board_pings(result, to_act))
        if result.finished or result.row.status != "active":
            played.end = self.now
            return
        for seat in to_act:
            uid = played.users.get(seat)
            if uid is None or uid == by:
                continue  # an AI seat; the member taking decisions there goes on at once
            self.ping(self.members[uid], played.table)

    def ping(self, member: Member, table: int) -> None:
        member.pending.add(table)
        at = member.answer_at(self.now)
        if member.due is None or at < member.due:
            member.due = at
            self.seq += 1
            heapq.heappush(self.queue, (at, self.seq, member.uid))

    # ------------------------------------------------------------ a member's check-in
    async def check_in(self, member: Member) -> None:
        member.due = None
        tables, member.pending = sorted(member.pending), set()
        for table in tables:
            await self.sit(member, table)
        member.online_until = self.now + lognormal(member.rng, 8 * MINUTE, 0.6, MINUTE, HOUR)

    async def sit(self, member: Member, table: int) -> None:
        """What ``member`` does at ``table`` when they come: if their seat is to act and none of
        their orders takes it, the table waited for them (one wait); they arm what they arm
        (again, if one switched itself off), then take every decision left to them, one
        after another, leaving to an order what it takes; then arm again."""
        played = self.tables[table]
        seat = next(s for s, u in played.users.items() if u == member.uid)
        if played.end is None:
            loaded = await self.service.load(table)
            if seat in loaded.game.to_act(loaded.state) and not await self.order_takes_it(member, table, loaded, seat):
                played.waits += 1  # the table waited for this member to come
        if self.orders and played.end is None:
            await self.arm(member, table)
        while played.end is None:
            loaded = await self.service.load(table)
            if seat not in loaded.game.to_act(loaded.state):
                break  # nothing (more) to decide: a standing order took it meanwhile, or the turn passed on
            if await self.order_takes_it(member, table, loaded, seat):
                # they armed an order for this decision (its step waits its hidden delay): they leave it
                # to the order, and look again later (a private message tells them if it switched off)
                self.later(member, table)
                break
            self.now += lognormal(member.rng, 30.0, 0.8, 3.0, 5 * MINUTE)
            try:
                result = await self.service.act(table, member.uid, ai_pick, seat=seat)
            except TurnRefused as exc:
                self.errors += 1
                print(f"# table {table} refused {member.uid}'s decision: {exc.code}", file=sys.stderr)
                return
            self.changed(result, by=member.uid)
        if self.orders and played.end is None:
            await self.arm(member, table)

    async def order_takes_it(self, member: Member, table: int, loaded, seat: str) -> bool:
        """Whether one of the member's armed orders takes this decision (the engine's answer for
        it now: Fire); they know what they armed, as a player does."""
        if not self.orders:
            return False
        game, state = loaded.game, loaded.state
        for shown in await self.service.my_orders(table, member.uid):
            order = ArmedOrder(
                kind=shown.kind,
                seat=seat,
                scope=shown.scope,
                marker=game.order_marker(state, shown.scope),
                uses=shown.uses,
                params=shown.params,
            )
            if isinstance(game.order_step(state, seat, order), Fire):
                return True
        return False

    def later(self, member: Member, table: int) -> None:
        """Look at ``table`` again once an order's hidden delay is surely over (awake, not away)."""
        member.pending.add(table)
        at = member.answer_at(self.now + DELAY[1])
        if member.due is None or at < member.due:
            member.due = at
            self.seq += 1
            heapq.heappush(self.queue, (at, self.seq, member.uid))

    async def arm(self, member: Member, table: int) -> None:
        """Arm what a typical player arms (the game's ``typical_orders``) that is offered and
        not armed: the first time, and again after one switched itself off or ran out."""
        played = self.tables[table]
        typical = typical_of(played.gid)
        if typical is None:
            return
        seat = next(s for s, u in played.users.items() if u == member.uid)
        loaded = await self.service.load(table)
        wanted = typical(loaded.state, seat)
        if not wanted:
            return
        armed = {o.kind for o in await self.service.my_orders(table, member.uid)}
        offered = {(o.kind, key(o.params)) for o in await self.service.order_choices(table, member.uid, "en")}
        for order in wanted:
            if played.end is not None:
                break  # the order armed before took its step at once, and it ended the game
            if order.kind in armed or (order.kind, key(order.params)) not in offered:
                continue
            try:
                done = await self.service.arm_order(table, member.uid, order.kind, dict(order.params))
                self.armed += 1
                if done.turn is not None:  # it took its step at once: a turn like any other
                    self.changed(done.turn, by=member.uid)
            except TurnRefused as exc:
                self.errors += 1
                print(f"# table {table} refused {member.uid}'s order {order.kind}: {exc.code}", file=sys.stderr)

    # ------------------------------------------------------------ the scheduler
    def delay(self) -> float:
        """The random delay of a standing order's step whose timing is hidden (the kernel's
        ``order_delay``: the same span, seeded, so a run is reproducible); the scheduler's
        pass is queued for when it falls due."""
        lo, hi = DELAY
        d = self.rng.uniform(lo, hi)
        self.seq += 1
        heapq.heappush(self.queue, (self.now + d + 1.0, self.seq, SCHEDULER))
        return d

    async def scheduler_pass(self) -> None:
        """What the scheduler does when a delayed standing-order step falls due."""
        for due in await self.service.due(self.now):
            if due.kind == "order" and due.row.id in self.tables:
                result = await self.service.orders_due(due.row.id)
                if result is not None:
                    self.changed(result, by=None)

    # ------------------------------------------------------------ the days go by
    async def run(self) -> None:
        while self.queue and any(p.end is None for p in self.tables.values()):
            at, _, uid = heapq.heappop(self.queue)
            if uid == SCHEDULER:
                self.now = max(self.now, at)
                await self.scheduler_pass()
                continue
            member = self.members[uid]
            if member.due != at:
                continue  # moved earlier by a later ping
            if at - EPOCH > GIVE_UP:
                raise SystemExit(f"a table still ran after {GIVE_UP / DAY:.0f} days")
            self.now = max(self.now, at)
            await self.check_in(member)
        stuck = [p.table for p in self.tables.values() if p.end is None]
        if stuck:
            raise SystemExit(f"tables {stuck} wait on nobody and never ended")

    async def replays_equal(self) -> tuple[int, int]:
        """(tables whose export replays to the stored state, tables)."""
        same = 0
        for table in self.tables:
            row = await self.service.row(table)
            assert row is not None
            export = await self.service.export_data(row)
            game = get_game(export["game"])
            state = game.replay(
                export["seats"], export["options"], export["seed"], [(e["seat"], e["action"]) for e in export["log"]]
            )
            same += game.dump(state) == game.dump(game.load(row.state_json or ""))
            self.order_steps += sum(1 for e in export["log"] if str(e.get("by", "")).startswith("order"))
        return same, len(self.tables)


def typical_of(gid: str):
    """The game's ``typical_orders(state, seat)`` (engine/<game>/orders.py: what a typical
    player arms), or None for a game without orders."""
    try:
        module = importlib.import_module(f"engine.{gid}.orders")
    except ModuleNotFoundError:
        return None
    return getattr(module, "typical_orders", None)


def key(params) -> str:
    return json.dumps(params or {}, sort_keys=True, default=str)


async def play(
    games: list[str], seed: int, tables: int, members: int, orders: bool, options: dict[str, dict] | None = None
) -> tuple[Town, float]:
    t0 = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        town_box: list[Town] = []
        store = open_store(os.path.join(tmp, "async.db"), clock=lambda: town_box[0].now, due=due_times)
        service = TableService(store, clock=lambda: town_box[0].now)
        town = Town(service, community(seed, members), orders, seed)
        town_box.append(town)
        await store.open()
        try:
            rng = random.Random(f"tables {seed}")
            channel = 100
            starts = []
            for gid in games:
                for _ in range(tables):
                    users = rng.sample(sorted(town.members), SEATS[gid])
                    starts.append((EPOCH + rng.uniform(0, DAY), gid, users, rng.randrange(2**31), channel))
                    channel += 1
            for at, gid, users, game_seed, ch in sorted(starts):  # the hosts start them through the first day
                town.now = at
                await town.open(gid, users, game_seed, ch, (options or {}).get(gid))
            await town.run()
            town.same = await town.replays_equal()
        finally:
            await store.close()
    return town, time.process_time() - t0


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", type=int, default=6, help="tables of each game per mode")
    ap.add_argument("--members", type=int, default=10, help="members in the community")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="GAME.KEY=VALUE",
        help="a table option of a game, e.g. armor_clash.scenario=duel (repeatable)",
    )
    args = ap.parse_args()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for gid in games:
        if gid not in SEATS:
            raise SystemExit(f"unknown or single-player game {gid!r} (one of {', '.join(SEATS)})")
    options: dict[str, dict] = {}
    for given in args.option:
        name, _, value = given.partition("=")
        gid, _, key = name.partition(".")
        if not key or gid not in SEATS:
            raise SystemExit(f"--option {given!r}: expected GAME.KEY=VALUE for one of {', '.join(SEATS)}")
        options.setdefault(gid, {})[key] = value
    if args.members < max(SEATS[g] for g in games):
        raise SystemExit("--members must seat the largest table")
    same = total = errors = steps = armed = 0
    cpu = 0.0
    for mode in ("off", "on"):
        town, used = await play(games, args.seed, args.tables, args.members, mode == "on", options)
        cpu += used
        s, n = town.same
        same, total, errors = same + s, total + n, errors + town.errors
        steps, armed = steps + town.order_steps, armed + town.armed
        for gid in games:
            mine = [p for p in town.tables.values() if p.gid == gid]
            waits = sum(p.waits for p in mine)
            days = sum((p.end or 0.0) - p.start for p in mine) / len(mine) / DAY
            pings = sum(p.pings for p in mine) / sum(len(p.users) for p in mine)
            print(
                f"async game={gid} seats={SEATS[gid]} orders={mode} waits={waits} days={days:.2f} "
                f"pings_per_player={pings:.2f}",
                flush=True,
            )
    print(f"# replays: {same}/{total} tables' exports replay to their stored state", flush=True)
    print(
        f"# seed={args.seed} tables={args.tables} per game and mode, members={args.members}, refusals={errors}, "
        f"orders armed={armed}, steps the orders took={steps}, "
        f"CPU {cpu:.1f} s, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    if same != total or errors:
        raise SystemExit(1)


if __name__ == "__main__":
    asyncio.run(main())

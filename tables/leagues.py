"""Leagues: seasons of tables the bot pairs, opens, referees and scores itself.

Discord-free (``cogs/league.py`` is the thin Discord side).  A league row
(store.LeagueRow) holds its settings (``config``) and its running model
(``state``); every change is ONE compare-and-swap update of that row
(:meth:`Store.update_league`), and each step of a round that talks to the
world (open a table, decide the tables at the deadline, the season-end post)
is claimed once across processes (:meth:`Store.claim_league_step`), so two
bot processes on one PostgreSQL never open a table twice.

Formats (docs/rulings.md "Leagues" has the rules and the reasons):

* ``swiss`` (two-seat games), ``round_robin`` (two-seat games), ``pods``
  (tables of N, redrawn each round by standing): pairings in tables/pairing.py;
* ``series``: the existing ``/campaign`` (a name with a points table, tables
  opened by hand; the Armor Clash story runs as one) — created through
  :meth:`TableService.create_campaign`, not stored here.

State (JSON)::

    {"roster": [uid, ...],                       # sign-up order
     "players": {"<uid>": {"joined": r, "dropped": r|None, "division": d}},
     "aliases": {"<old uid>": new uid},          # replacements: the new member keeps the record
     "rating_start": {"<uid>": conservative rating at the season's start},
     "round": n,                                 # the round running (0: not started)
     "rounds": [{"n": 1, "started_at": t, "deadline": t, "ended_at": t|None,
                 "byes": [uid], "tables": [{"div": d, "seats": [uid, ...], "game_id": id|None,
                 "channel_id": id|None, "status": "pending|open|ended", "absent": [uid],
                 "places": {"<uid>": place}}]}],
     "podium": {...}}                            # at the season's end
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import available, get_game
from engine.errors import GameError
from store import ChannelBusy, LeagueRow, ResultRow, Seat, Store, VersionConflict

from . import pairing, ratings
from .common import TurnRefused, TurnResult
from .lobby import with_clock
from .service import TableService

log = logging.getLogger("tabletop.leagues")

FORMATS = ("swiss", "round_robin", "pods", "series")
TWO_SEAT = ("swiss", "round_robin")
#: a claimed step whose process died is claimable again after this long
STEP_LEASE = 600.0
MAX_ROUNDS = 30
MAX_PLAYERS = 256
HOUR = 3600.0


@dataclass
class StandingRow:
    user_id: int
    division: int
    rank: int = 0
    points: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    absent: int = 0  # tables the member was absent from at the deadline
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    head_to_head: float = 0.0
    rating_start: float = 0.0
    rating_now: float = 0.0
    dropped: bool = False

    @property
    def rating_change(self) -> float:
        return self.rating_now - self.rating_start


@dataclass
class Standings:
    """A league's table of standings, Discord-free (the cog's image and embed and
    the web companion's league page are drawn from it)."""

    league: LeagueRow
    rows: list[StandingRow]
    round: int
    rounds: int
    tie_breaks: tuple[str, ...]

    def division(self, d: int) -> list[StandingRow]:
        return [r for r in self.rows if r.division == d]

    @property
    def divisions(self) -> list[int]:
        return sorted({r.division for r in self.rows}) or [1]


@dataclass
class RoundEvent:
    """Something the Discord side announces: ``kind`` round_started, deadline,
    table_ended, season_ended; with the round and what it concerns."""

    kind: str
    league: LeagueRow
    round: int
    tables: list[dict[str, Any]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    absent: list[int] = field(default_factory=list)
    results: list[TurnResult] = field(default_factory=list)


def default_points(seats: int) -> list[float]:
    """Points per place at a table of ``seats``: ``seats - 1`` for a win down to 0."""
    return [float(seats - 1 - i) for i in range(seats)]


def table_points(places: dict[int, int], points: Sequence[float] | None = None) -> dict[int, float]:
    """Each player's points at one table: places sorted; players sharing a place
    share the points of the positions they span (a two-seat draw: 0.5 each)."""
    n = len(places)
    pts = list(points) if points else default_points(n)
    pts += [0.0] * (n - len(pts))
    order = sorted(places.items(), key=lambda kv: kv[1])
    out: dict[int, float] = {}
    i = 0
    while i < n:
        j = i
        while j < n and order[j][1] == order[i][1]:
            j += 1
        share = sum(pts[i:j]) / (j - i)
        for k in range(i, j):
            out[order[k][0]] = share
        i = j
    return out


def bye_points(fmt: str, seats: int) -> float:
    """A bye scores a win in Swiss and round robin, the mean of a table's points in pods."""
    pts = default_points(seats)
    return pts[0] if fmt in TWO_SEAT else sum(pts) / len(pts)


def compute_standings(
    league: LeagueRow, rating_now: dict[int, float] | None = None, *, include_running: bool = False
) -> list[StandingRow]:
    """The standings from the league's recorded tables (pure): points, then the
    tie-breaks (Swiss: Buchholz, then Sonneborn-Berger; otherwise head-to-head
    among the tied, then wins), then the current rating, then the member id."""
    cfg, st = league.config, league.state
    fmt = league.format
    seats = int(cfg.get("seats", 2))
    points_cfg = cfg.get("points")
    rating_now = rating_now or {}
    start = {int(k): float(v) for k, v in st.get("rating_start", {}).items()}
    players = st.get("players", {})
    rows = {
        int(u): StandingRow(
            user_id=int(u),
            division=int(p.get("division", 1)),
            dropped=p.get("dropped") is not None,
            rating_start=start.get(int(u), ratings.conservative(*ratings.initial())),
        )
        for u, p in players.items()
    }
    games: list[dict[int, float]] = []  # each ended table: player -> points there
    placed: list[dict[int, int]] = []
    for rnd in st.get("rounds", []):
        for b in rnd.get("byes", []):
            if b in rows:
                rows[b].byes += 1
                rows[b].points += bye_points(fmt, seats)
        for tb in rnd.get("tables", []):
            if tb.get("status") != "ended" or not tb.get("places"):
                continue
            places = {int(u): int(p) for u, p in tb["places"].items() if int(u) in rows}
            if not places:
                continue
            got = table_points(places, points_cfg)
            games.append(got)
            placed.append(places)
            best = min(places.values())
            for u, p in got.items():
                rows[u].points += p
                rows[u].played += 1
                rows[u].wins += int(places[u] == best and list(places.values()).count(best) == 1)
            for u in tb.get("absent", []):
                if u in rows:
                    rows[u].absent += 1
    for u, row in rows.items():
        row.rating_now = rating_now.get(u, row.rating_start)
    if fmt == "swiss":
        for got in games:
            for u in got:
                for v in got:
                    if v == u:
                        continue
                    rows[u].buchholz += rows[v].points
                    rows[u].sonneborn_berger += rows[v].points * got[u]
        tie = ("buchholz", "sonneborn_berger")
    else:
        groups: dict[float, list[int]] = {}
        for u, r in rows.items():
            groups.setdefault(round(r.points, 6), []).append(u)
        for members in groups.values():
            if len(members) < 2:
                continue
            tied = set(members)
            for places in placed:
                here = [u for u in places if u in tied]
                for u in here:
                    for v in here:
                        if v != u:
                            rows[u].head_to_head += (
                                1.0 if places[u] < places[v] else 0.5 if places[u] == places[v] else 0.0
                            )
        tie = ("head_to_head", "wins")
    ordered = sorted(
        rows.values(),
        key=lambda r: (r.dropped, -r.points, *(-getattr(r, k) for k in tie), -r.rating_now, r.user_id),
    )
    by_div: dict[int, int] = {}
    for r in ordered:
        by_div[r.division] = by_div.get(r.division, 0) + 1
        r.rank = by_div[r.division]
    return sorted(ordered, key=lambda r: (r.division, r.rank))


TIE_BREAKS = {"swiss": ("buchholz", "sonneborn_berger")}
OTHER_TIE_BREAKS = ("head_to_head",)  # then wins, then rating


async def standings(store: Store, league_id: int) -> Standings | None:
    """A league's standings, Discord-free: what the bot's image and the web
    companion's league page show (None: no such league)."""
    league = await store.league(league_id)
    if league is None:
        return None
    users = [int(u) for u in league.state.get("players", {})]
    rated = await store.ratings(league.guild_id, league.game, users) if users else []
    now = {r.user_id: ratings.conservative(r.mu, r.sigma) for r in rated}
    rows = compute_standings(league, now)
    tie = TIE_BREAKS.get(league.format, OTHER_TIE_BREAKS)
    return Standings(league, rows, int(league.state.get("round", 0)), int(league.config.get("rounds") or 0), tie)


def pair_round(row: LeagueRow, n: int, rated: dict[int, float], now: float) -> dict[str, Any]:
    """Round ``n``'s tables (pure, deterministic): per division, the pairing of
    the format over the standings so far (ties broken by rating)."""
    cfg, st = row.config, row.state
    standing = compute_standings(row, rated)
    active = {
        int(u) for u, p in st.get("players", {}).items() if p.get("dropped") is None and int(p.get("joined", 0)) <= n
    }
    met: set[tuple[int, int]] = set()
    byes: dict[int, int] = {}
    firsts: dict[int, int] = {}
    for rnd in st.get("rounds", []):
        for b in rnd.get("byes", []):
            byes[b] = byes.get(b, 0) + 1
        for tb in rnd.get("tables", []):
            seats = tb["seats"]
            if seats:
                firsts[seats[0]] = firsts.get(seats[0], 0) + 1
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    met.add(pairing.met_key(a, b))
    tables: list[dict[str, Any]] = []
    all_byes: list[int] = []
    for d in sorted({r.division for r in standing}):
        order = [r.user_id for r in standing if r.division == d and r.user_id in active]
        if row.format == "swiss":
            got = pairing.swiss(order, met, byes, firsts)
        elif row.format == "round_robin":
            seeded = sorted(order, key=lambda u: (-float(st.get("rating_start", {}).get(str(u), 0.0)), u))
            got = pairing.round_robin(seeded, n - 1)
        else:
            got = pairing.pods(order, int(cfg["seats"]), int(cfg.get("min_seats", 2)), byes, firsts)
        all_byes += got.byes
        for seats in got.tables:
            tables.append({"div": d, "seats": list(seats), "game_id": None, "channel_id": None, "status": "pending"})
    return {
        "n": n,
        "started_at": now,
        "deadline": now + float(cfg.get("round_hours", 72)) * HOUR,
        "ended_at": None,
        "byes": all_byes,
        "tables": tables,
    }


def _now_round(st: dict[str, Any]) -> dict[str, Any] | None:
    n = int(st.get("round", 0))
    rounds = st.get("rounds", [])
    return rounds[n - 1] if 0 < n <= len(rounds) else None


class LeagueService:
    """Every league change, each one compare-and-swap on the league row."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store: Store = tables.store

    @property
    def clock(self):
        return self.tables.clock

    # ------------------------------------------------------------ reading
    async def get(self, league_id: int) -> LeagueRow:
        row = await self.store.league(league_id)
        if row is None:
            raise TurnRefused("no_league", "league.no_league", name=str(league_id))
        return row

    async def named(self, guild_id: int, name: str) -> LeagueRow:
        row = await self.store.league_named(guild_id, name)
        if row is None:
            raise TurnRefused("no_league", "league.no_league", name=name)
        return row

    async def ratings_of(self, league: LeagueRow, users: Sequence[int]) -> dict[int, float]:
        rows = await self.store.ratings(league.guild_id, league.game, list(users))
        return {r.user_id: ratings.conservative(r.mu, r.sigma) for r in rows}

    async def standings(self, league_id: int) -> Standings:
        """The league's standings (see :func:`standings`)."""
        got = await standings(self.store, league_id)
        if got is None:
            raise TurnRefused("no_league", "league.no_league", name=str(league_id))
        return got

    # ------------------------------------------------------------ writing
    async def _change(self, league_id: int, decide, *, attempts: int = 8) -> LeagueRow:
        """Read, decide, compare-and-swap; decide again on fresh data when another
        process changed the league in between.  ``decide(row)`` returns
        ``(status, state)`` or raises TurnRefused."""
        for _ in range(attempts):
            row = await self.get(league_id)
            status, state = decide(row)
            try:
                version = await self.store.update_league(row.id, row.version, status=status, state=state)
            except VersionConflict:
                continue
            return replace(
                row, status=status or row.status, state=state if state is not None else row.state, version=version
            )
        raise TurnRefused("stale", "core.ui.stale")

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        format: str,
        created_by: int,
        rounds: int | None = None,
        seats: int | None = None,
        round_hours: float = 72.0,
        signup_hours: float | None = None,
        clock: str = "off",
        options: dict[str, Any] | None = None,
        divisions: int = 1,
        promote: int = 1,
        forum_id: int | None = None,
        roles: bool = False,
        previous: int | None = None,
        players: dict[str, Any] | None = None,
    ) -> LeagueRow:
        """A new league in sign-up (validated; nothing stored on a refusal)."""
        if format not in FORMATS or format == "series":
            raise TurnRefused("bad_format", "league.bad_format", format=format)
        if game not in available():
            raise TurnRefused("unknown_game", "core.error.bad_options", detail=game)
        g = get_game(game)
        try:
            opts = g.parse_options(options or {}).model_dump(mode="json")
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        lo, hi = g.seat_range(opts)
        if format in TWO_SEAT:
            seats = 2
            if not lo <= 2 <= hi:
                raise TurnRefused("bad_format", "league.two_seat_only", format=format)
        else:
            seats = int(seats or hi)
            if not (max(lo, 2) <= seats <= hi):
                raise TurnRefused("bad_seats", "league.bad_seats", lo=max(lo, 2), hi=hi)
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=1, hi=MAX_ROUNDS)
        if not 1 <= divisions <= 8 or not 0 <= promote <= 8:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=1, hi=8)
        if not 1 / 60 <= round_hours <= 24 * 60:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=1, hi=24 * 60)
        try:
            with_clock({"clock": clock})
        except TurnRefused:
            raise
        name = name.strip()
        if not name or len(name) > 60:
            raise TurnRefused("bad_name", "league.bad_name")
        now = self.clock()
        config = {
            "format": format,
            "rounds": rounds,
            "seats": seats,
            "min_seats": max(lo, 2) if format == "pods" else 2,
            "round_hours": float(round_hours),
            "signup_until": now + signup_hours * HOUR if signup_hours else None,
            "clock": clock,
            "options": opts,
            "divisions": divisions,
            "promote": promote,
            "forum_id": forum_id,
            "roles": roles,
            "previous": previous,
        }
        state = {"roster": [], "players": players or {}, "aliases": {}, "rating_start": {}, "round": 0, "rounds": []}
        if players:
            state["roster"] = [int(u) for u in players]
        try:
            return await self.store.create_league(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                name=name,
                format=format,
                config=config,
                state=state,
                created_by=created_by,
            )
        except ChannelBusy:
            raise TurnRefused("exists", "league.exists", name=name) from None

    def _may_join_late(self, row: LeagueRow) -> None:
        if row.status == "signup":
            return
        if row.status != "running":
            raise TurnRefused("closed", "league.signup_closed")
        if row.format == "round_robin":
            raise TurnRefused("closed", "league.late_round_robin")
        rounds = int(row.config.get("rounds") or 0)
        if int(row.state.get("round", 0)) >= rounds:
            raise TurnRefused("closed", "league.signup_closed")

    async def signup(self, league_id: int, user_id: int, *, admin: bool = False) -> LeagueRow:
        """A member signs up (or an admin adds one).  Late sign-ups (after the start):
        Swiss and pods, until the last round has started; they join from the next
        round, with no points for the rounds they missed; round robin: none."""

        def decide(row: LeagueRow):
            self._may_join_late(row)
            st = dict(row.state)
            players = dict(st.get("players", {}))
            if str(user_id) in players and players[str(user_id)].get("dropped") is None:
                raise TurnRefused("already", "league.already_signed")
            if len([p for p in players.values() if p.get("dropped") is None]) >= MAX_PLAYERS:
                raise TurnRefused("full", "league.full", n=MAX_PLAYERS)
            joined = int(st.get("round", 0)) + (1 if row.status == "running" else 0)
            # a late or new member starts in the lowest division (seeded divisions are drawn at the start)
            lowest = row.status == "running" or bool(row.config.get("previous"))
            division = int(row.config.get("divisions", 1)) if lowest else 1
            players[str(user_id)] = {"joined": joined, "dropped": None, "division": division}
            st["players"] = players
            st["roster"] = [u for u in st.get("roster", []) if u != user_id] + [user_id]
            return None, st

        return await self._change(league_id, decide)

    async def withdraw(self, league_id: int, user_id: int) -> tuple[LeagueRow, list[int]]:
        """A member leaves (before the start: off the roster; after: dropped)."""
        return await self.drop(league_id, user_id)

    async def drop(self, league_id: int, user_id: int) -> tuple[LeagueRow, list[int]]:
        """Drop a player: no more pairings; at a table still running their seat goes
        to the AI (the table plays on).  Returns the tables handed over."""

        def decide(row: LeagueRow):
            if row.status not in ("signup", "running"):
                raise TurnRefused("closed", "league.closed")
            st = dict(row.state)
            players = dict(st.get("players", {}))
            p = players.get(str(user_id))
            if p is None or p.get("dropped") is not None:
                raise TurnRefused("not_in", "league.not_signed")
            if row.status == "signup":
                players.pop(str(user_id))
                st["roster"] = [u for u in st.get("roster", []) if u != user_id]
            else:
                players[str(user_id)] = {**p, "dropped": int(st.get("round", 0))}
            st["players"] = players
            return None, st

        row = await self._change(league_id, decide)
        handed = []
        for gid in self._open_games_of(row, user_id):
            try:
                await self.tables.resign(gid, user_id)
                handed.append(gid)
            except TurnRefused as exc:
                log.info("league %s: seat of %s at table %s not handed over: %s", league_id, user_id, gid, exc.code)
        return row, handed

    async def replace_player(self, league_id: int, old: int, new: int) -> tuple[LeagueRow, list[int]]:
        """``new`` takes ``old``'s place: their record so far, their seat at a running
        table and every later pairing."""

        def decide(row: LeagueRow):
            if row.status not in ("signup", "running"):
                raise TurnRefused("closed", "league.closed")
            st = dict(row.state)
            players = dict(st.get("players", {}))
            p = players.get(str(old))
            if p is None or p.get("dropped") is not None:
                raise TurnRefused("not_in", "league.not_signed")
            if str(new) in players and players[str(new)].get("dropped") is None:
                raise TurnRefused("already", "league.already_signed")
            players.pop(str(old))
            players[str(new)] = dict(p)
            st["players"] = players
            st["roster"] = [new if u == old else u for u in st.get("roster", [])]
            st["aliases"] = {**st.get("aliases", {}), str(old): new}
            st["rating_start"] = {k: v for k, v in st.get("rating_start", {}).items() if k != str(old)}
            if str(old) in row.state.get("rating_start", {}):
                st["rating_start"][str(new)] = row.state["rating_start"][str(old)]
            rounds = []
            for rnd in st.get("rounds", []):
                rnd = dict(rnd)
                rnd["byes"] = [new if u == old else u for u in rnd.get("byes", [])]
                tables = []
                for tb in rnd.get("tables", []):
                    tb = dict(tb)
                    tb["seats"] = [new if u == old else u for u in tb["seats"]]
                    tb["absent"] = [new if u == old else u for u in tb.get("absent", [])]
                    if tb.get("places"):
                        tb["places"] = {(str(new) if k == str(old) else k): v for k, v in tb["places"].items()}
                    tables.append(tb)
                rnd["tables"] = tables
                rounds.append(rnd)
            st["rounds"] = rounds
            return None, st

        before = await self.get(league_id)
        games = self._open_games_of(before, old)
        row = await self._change(league_id, decide)
        moved = []
        for gid in games:
            try:
                async with self.store.lock(gid):
                    loaded = await self.tables.load(gid)
                    seat = loaded.row.seat_of(old)
                    if seat is not None:
                        await self.tables.seats.hand_over(loaded, seat, new)
                        moved.append(gid)
            except TurnRefused as exc:
                log.info("league %s: seat of %s at table %s not moved: %s", league_id, old, gid, exc.code)
        return row, moved

    @staticmethod
    def _open_games_of(row: LeagueRow, user_id: int) -> list[int]:
        rnd = _now_round(row.state)
        if rnd is None:
            return []
        return [
            int(tb["game_id"])
            for tb in rnd.get("tables", [])
            if tb.get("game_id") and tb.get("status") == "open" and user_id in tb["seats"]
        ]

    async def start(self, league_id: int) -> LeagueRow:
        """Close the sign-up and start the season (the first round is paired by
        :meth:`advance`).  Divisions by rating unless carried from the last season."""
        players_now: list[int] = []

        def decide(row: LeagueRow):
            if row.status != "signup":
                raise TurnRefused("closed", "league.already_started")
            st = dict(row.state)
            players = {k: dict(v) for k, v in st.get("players", {}).items()}
            roster = [u for u in st.get("roster", []) if str(u) in players]
            cfg = row.config
            need = 2 if row.format in TWO_SEAT else int(cfg.get("min_seats", 2))
            if len(roster) < need:
                raise TurnRefused("too_few", "league.too_few", n=need)
            divisions = max(1, min(int(cfg.get("divisions", 1)), len(roster) // need))
            if not cfg.get("previous"):
                seeded = sorted(roster, key=lambda u: (-rated.get(u, 0.0), roster.index(u)))
                size = math.ceil(len(seeded) / divisions)
                for i, u in enumerate(seeded):
                    players[str(u)]["division"] = 1 + i // size
            st["players"] = players
            st["rating_start"] = {str(u): rated.get(u, ratings.conservative(*ratings.initial())) for u in roster}
            st["round"] = 0
            players_now[:] = roster
            return "running", st

        first = await self.get(league_id)
        rated = await self.ratings_of(first, [int(u) for u in first.state.get("players", {})])
        row = await self._change(league_id, decide)
        if not row.config.get("rounds"):
            n = max(math.ceil(len(players_now) / max(1, int(row.config.get("divisions", 1)))), 2)
            rounds = n - 1 + n % 2 if row.format == "round_robin" else max(1, math.ceil(math.log2(n)))
            await self.store.update_league(row.id, row.version, config={**row.config, "rounds": rounds})
            row = await self.get(league_id)
        return row

    async def cancel(self, league_id: int) -> LeagueRow:
        def decide(row: LeagueRow):
            if row.status not in ("signup", "running"):
                raise TurnRefused("closed", "league.closed")
            return "cancelled", None

        return await self._change(league_id, decide)

    # ------------------------------------------------------------ rounds
    def _pair(self, row: LeagueRow, n: int, rated: dict[int, float]) -> dict[str, Any]:
        return pair_round(row, n, rated, self.clock())

    async def advance(self, league_id: int, now: float | None = None) -> list[RoundEvent]:
        """One scheduler pass over a league: start it when its sign-up window
        closed; mark ended tables; decide the tables still running at the
        deadline (each step claimed once); close the round and pair the next
        when every table has ended; end the season after the last round."""
        now = self.clock() if now is None else now
        events: list[RoundEvent] = []
        row = await self.get(league_id)
        if row.status == "signup":
            until = row.config.get("signup_until")
            if until is None or now < float(until):
                return events
            try:
                row = await self.start(league_id)
            except TurnRefused as exc:
                if exc.code == "too_few":
                    await self.cancel(league_id)
                    events.append(RoundEvent("cancelled", await self.get(league_id), 0))
                    return events
                raise
        for _ in range(MAX_ROUNDS + 2):
            if row.status != "running":
                break
            rnd = _now_round(row.state)
            if rnd is None or rnd.get("ended_at") is not None:
                n = int(row.state.get("round", 0))
                if n >= int(row.config.get("rounds") or 0):
                    events += await self._end_season(row, now)
                    break
                row, ev = await self._start_round(row, n + 1)
                if ev is not None:
                    events.append(ev)
                continue
            row, ended = await self._mark_ended(row)
            events += ended
            rnd = _now_round(row.state)
            assert rnd is not None
            waiting = [tb for tb in rnd["tables"] if tb.get("status") != "ended"]
            late = now >= float(rnd["deadline"])
            if waiting and any(tb.get("game_id") is None for tb in waiting) and not late:
                break  # tables still to open (the Discord side does that, then calls again)
            if waiting and late:
                events += await self._deadline(row, int(rnd["n"]), now)
                row, ended = await self._mark_ended(await self.get(league_id))
                events += ended
                rnd = _now_round(row.state)
                assert rnd is not None
                waiting = [tb for tb in rnd["tables"] if tb.get("status") != "ended"]
            if waiting:
                break
            row = await self._close_round(row, int(rnd["n"]), now)
        return events

    async def _start_round(self, row: LeagueRow, n: int) -> tuple[LeagueRow, RoundEvent | None]:
        rated = await self.ratings_of(row, [int(u) for u in row.state.get("players", {})])
        made: list[dict[str, Any]] = []

        def decide(fresh: LeagueRow):
            if fresh.status != "running" or int(fresh.state.get("round", 0)) != n - 1:
                return None, fresh.state  # another process paired it: write nothing new
            rnd = self._pair(fresh, n, rated)
            made[:] = [rnd]
            st = dict(fresh.state)
            st["rounds"] = list(st.get("rounds", [])) + [rnd]
            st["round"] = n
            return None, st

        new = await self._change(row.id, decide)
        if not made:
            return new, None
        rnd = made[0]
        return new, RoundEvent("round_started", new, n, tables=rnd["tables"], byes=rnd["byes"])

    async def _mark_ended(self, row: LeagueRow) -> tuple[LeagueRow, list[RoundEvent]]:
        """Record the places of the current round's tables that have ended."""
        rnd = _now_round(row.state)
        if rnd is None:
            return row, []
        open_ids = [int(tb["game_id"]) for tb in rnd["tables"] if tb.get("status") == "open" and tb.get("game_id")]
        if not open_ids:
            return row, []
        ended: dict[int, str] = {}
        for gid in open_ids:
            g = await self.store.get_game(gid)
            if g is None or g.status in ("finished", "abandoned"):
                ended[gid] = g.status if g else "abandoned"
        if not ended:
            return row, []
        results = await self.store.results_of_games(list(ended))
        n = int(rnd["n"])
        done: list[dict[str, Any]] = []

        def decide(fresh: LeagueRow):
            st = dict(fresh.state)
            rounds = list(st["rounds"])
            cur = dict(rounds[n - 1])
            tables = []
            done.clear()
            for tb in cur["tables"]:
                tb = dict(tb)
                if tb.get("status") == "open" and tb.get("game_id") in ended:
                    tb["status"] = "ended"
                    tb["places"] = _places(tb["seats"], results.get(tb["game_id"], []), fresh.state)
                    done.append(tb)
                tables.append(tb)
            cur["tables"] = tables
            rounds[n - 1] = cur
            st["rounds"] = rounds
            return None, st

        new = await self._change(row.id, decide)
        return new, [RoundEvent("table_ended", new, n, tables=list(done))] if done else []

    async def _deadline(self, row: LeagueRow, n: int, now: float) -> list[RoundEvent]:
        """The round's deadline passed: every table still running is played out to
        its end by the seat-filler AI from where it stands (docs/rulings.md
        "Leagues"); the members it was waiting on who never moved at it are recorded as absent."""
        if not await self.store.claim_league_step(row.id, n, "deadline", now, STEP_LEASE):
            return []
        rnd = _now_round(row.state)
        assert rnd is not None
        absent: dict[int, list[int]] = {}
        results: list[TurnResult] = []
        for tb in rnd["tables"]:
            if tb.get("status") != "open" or not tb.get("game_id"):
                continue
            gid = int(tb["game_id"])
            try:
                got = await self.play_out(gid)
            except TurnRefused as exc:
                log.warning("league %s: table %s not played out at the deadline: %s", row.id, gid, exc.code)
                continue
            if got is not None:
                result, waited = got
                absent[gid] = waited
                results.append(result)

        void = [k for k, tb in enumerate(rnd["tables"]) if tb.get("game_id") is None]
        if absent or void:

            def decide(fresh: LeagueRow):
                st = dict(fresh.state)
                rounds = list(st["rounds"])
                cur = dict(rounds[n - 1])
                # a table that could not be opened by the deadline (its channel gone, Discord
                # refusing) is void: it ends without places, nobody scores there
                cur["tables"] = [
                    {**tb, "absent": absent[tb["game_id"]]}
                    if tb.get("game_id") in absent
                    else {**tb, "status": "ended", "void": True, "places": {}}
                    if tb.get("game_id") is None
                    else tb
                    for tb in cur["tables"]
                ]
                rounds[n - 1] = cur
                st["rounds"] = rounds
                return None, st

            row = await self._change(row.id, decide)
        await self.store.finish_league_step(row.id, n, "deadline", now)
        return [
            RoundEvent(
                "deadline",
                row,
                n,
                absent=sorted({u for us in absent.values() for u in us}),
                results=results,
            )
        ]

    async def play_out(self, game_id: int) -> tuple[TurnResult, list[int]] | None:
        """Finish a running table now: the seat-filler AI plays every seat from
        where the table stands (the members keep their seats in the result).
        One commit.  Returns the result and the absent members (the table was waiting
        on them and they had not moved at it)."""
        t = self.tables
        async with self.store.lock(game_id):
            loaded = await t.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            # absent: a member the table is waiting on who has not moved at it all round
            # (a member who played but is slow to answer now is late, not absent)
            acted = {a.user_id for a in await self.store.actions(game_id, limit=100_000)}
            waited = [u for s in game.to_act(state) if (u := row.user_of(s)) is not None and u not in acted]
            ai_row = replace(row, seats=[replace(s, user_id=None) for s in row.seats])
            entries: list[Any] = []
            events: list[Any] = []
            for _ in range(50):
                if game.outcome(state) is not None:
                    break
                before = len(entries)
                state, more, evs = await t.off_loop(functools.partial(t.run_ai, forced=False), ai_row, game, state)
                entries += more
                events += evs
                if len(entries) == before:
                    break
            if game.outcome(state) is None:
                raise TurnRefused("action_failed", "discord.table.action_failed", id=game_id)
            waiting_before = list(row.to_act)
            row.version = await t.kernel.save_turn(row, game, state, entries)
            return TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before, entries), waited

    async def _close_round(self, row: LeagueRow, n: int, now: float) -> LeagueRow:
        def decide(fresh: LeagueRow):
            st = dict(fresh.state)
            rounds = list(st["rounds"])
            if int(st.get("round", 0)) != n or rounds[n - 1].get("ended_at") is not None:
                return None, st
            rounds[n - 1] = {**rounds[n - 1], "ended_at": now}
            st["rounds"] = rounds
            return None, st

        return await self._change(row.id, decide)

    async def _end_season(self, row: LeagueRow, now: float) -> list[RoundEvent]:
        standing = await self.standings(row.id)
        podium = {str(d): [r.user_id for r in standing.division(d) if not r.dropped][:3] for d in standing.divisions}

        def decide(fresh: LeagueRow):
            if fresh.status != "running":
                return None, fresh.state
            return "finished", {**fresh.state, "podium": podium, "ended_at": now}

        new = await self._change(row.id, decide)
        if not await self.store.claim_league_step(row.id, 0, "season_end", now, STEP_LEASE):
            return []
        return [RoundEvent("season_ended", new, int(new.state.get("round", 0)))]

    async def season_posted(self, league_id: int) -> None:
        await self.store.finish_league_step(league_id, 0, "season_end", self.clock())

    # ------------------------------------------------------------ tables
    def unopened(self, row: LeagueRow) -> list[tuple[int, int, dict[str, Any]]]:
        """(round, index, table) of the current round's tables not opened yet."""
        rnd = _now_round(row.state)
        if rnd is None or row.status != "running":
            return []
        return [
            (int(rnd["n"]), k, tb)
            for k, tb in enumerate(rnd["tables"])
            if tb.get("game_id") is None and tb.get("status") == "pending"
        ]

    async def claim_open(self, league_id: int, n: int, k: int) -> bool:
        return await self.store.claim_league_step(league_id, n, f"open:{k}", self.clock(), STEP_LEASE)

    async def open_table(
        self, league_id: int, n: int, k: int, channel_id: int, *, locale: str | None, seed: int
    ) -> TurnResult | None:
        """Open table ``k`` of round ``n`` in ``channel_id`` with its paired members
        seated and start it; record it on the league.  None when it was opened already."""
        row = await self.get(league_id)
        rnd = row.state["rounds"][n - 1]
        tb = rnd["tables"][k]
        if tb.get("game_id") is not None:
            return None
        cfg = row.config
        seats = [Seat(f"p{i + 1}", uid) for i, uid in enumerate(tb["seats"])]
        table = with_clock(
            {
                "turn_timer": 0,
                "reminder": 720,
                "clock": cfg.get("clock") or "off",
                "clock_policy": "ai",
                "league": {"id": row.id, "round": n, "table": k},
            }
        )
        try:
            game_row = await self.store.create_game(
                guild_id=row.guild_id,
                channel_id=channel_id,
                game=row.game,
                host_id=row.created_by,
                options=dict(cfg.get("options") or {}),
                seed=seed,
                seats=seats,
                locale=locale,
                table=table,
            )
        except ChannelBusy:
            raise TurnRefused("channel_busy", "core.ui.channel_busy") from None
        async with self.store.lock(game_row.id):
            started = await self.tables.lobbies.start(game_row)
        lost: list[bool] = []

        def decide(fresh: LeagueRow):
            st = dict(fresh.state)
            rounds = list(st["rounds"])
            cur = dict(rounds[n - 1])
            tables = list(cur["tables"])
            lost.clear()
            if tables[k].get("game_id") is not None:
                lost.append(True)
                return None, st
            tables[k] = {**tables[k], "game_id": game_row.id, "channel_id": channel_id, "status": "open"}
            cur["tables"] = tables
            rounds[n - 1] = cur
            st["rounds"] = rounds
            return None, st

        await self._change(league_id, decide)
        if lost:  # another process recorded its own table first: this one is not the league's
            await self.tables.kernel.update_game(game_row.id, started.row.version, status="abandoned")
            return None
        await self.store.finish_league_step(league_id, n, f"open:{k}", self.clock())
        return started

    # ------------------------------------------------------------ seasons
    async def next_season(self, league_id: int, name: str, created_by: int) -> LeagueRow:
        """A new season of a finished league, in sign-up, with the same settings and
        its players carried over: with divisions, the top ``promote`` of each
        division go up one and the bottom ``promote`` go down one."""
        old = await self.get(league_id)
        if old.status != "finished":
            raise TurnRefused("not_finished", "league.not_finished")
        standing = await self.standings(league_id)
        cfg = old.config
        promote = int(cfg.get("promote", 1))
        divisions = standing.divisions
        players: dict[str, Any] = {}
        for d in divisions:
            rows = [r for r in standing.division(d) if not r.dropped]
            for i, r in enumerate(rows):
                nd = d
                if d > divisions[0] and i < promote:
                    nd = d - 1
                elif d < divisions[-1] and i >= len(rows) - promote:
                    nd = d + 1
                players[str(r.user_id)] = {"joined": 0, "dropped": None, "division": nd}
        return await self.create(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            game=old.game,
            name=name,
            format=old.format,
            created_by=created_by,
            rounds=cfg.get("rounds"),
            seats=cfg.get("seats"),
            round_hours=float(cfg.get("round_hours", 72)),
            clock=cfg.get("clock") or "off",
            options=cfg.get("options"),
            divisions=int(cfg.get("divisions", 1)),
            promote=promote,
            forum_id=cfg.get("forum_id"),
            roles=bool(cfg.get("roles")),
            previous=old.id,
            players=players,
        )


def _places(seats: Sequence[int], results: Sequence[ResultRow], state: dict[str, Any]) -> dict[str, int]:
    """Each paired member's place at a table from its recorded results (a member
    with no result row, e.g. one whose seat was handed away, places last)."""
    aliases = {int(k): int(v) for k, v in state.get("aliases", {}).items()}
    got: dict[int, int] = {}
    for r in results:
        uid = aliases.get(r.user_id, r.user_id)
        if uid in seats:
            got[uid] = int(r.place)
    last = max(got.values(), default=0) + 1
    return {str(u): got.get(u, last) for u in seats}

"""League rules, pure: the formats and their limits, points per place, the
standings (with each format's tie-breaks) and the pairing of a round.
:mod:`tables.leagues.rounds` runs the seasons; docs/rulings.md "Leagues" has the reasons."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from store import LeagueRow, ResultRow
from store.ports import LeagueStore
from store.privacy import on_forget_json
from tables.core.common import TurnResult
from tables.leagues import pairing
from tables.rules import ratings

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
    #: tables ended by forfeit at the deadline: {"row": GameRow, "absent": [uid], "winners": [uid]}
    forfeits: list[dict[str, Any]] = field(default_factory=list)


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
            if tb.get("status") != "ended":
                continue
            # a forfeit scores 0 and counts as an absence (a table recorded before forfeits
            # were: its members absent at the deadline)
            lost = [int(u) for u in tb.get("forfeit", tb.get("absent", [])) if int(u) in rows]
            if "forfeit" in tb:
                for u in lost:
                    rows[u].played += 1
            for u in lost:
                rows[u].absent += 1
            places = {int(u): int(p) for u, p in (tb.get("places") or {}).items() if int(u) in rows}
            if not places:
                continue
            # who played take the table's top places; each forfeit the points of a last place, 0
            got = table_points(places, points_cfg or default_points(len(places) + len(tb.get("forfeit", []))))
            games.append({**got, **{u: 0.0 for u in lost if "forfeit" in tb}})
            placed.append(places)
            best = min(places.values())
            for u, p in got.items():
                rows[u].points += p
                rows[u].played += 1
                rows[u].wins += int(places[u] == best and list(places.values()).count(best) == 1)
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


async def standings(store: LeagueStore, league_id: int) -> Standings | None:
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
    # a pseudonym (a member forgotten before forgets withdrew them) is never paired
    active = {
        int(u)
        for u, p in st.get("players", {}).items()
        if p.get("dropped") is None and int(p.get("joined", 0)) <= n and int(u) > 0
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
            # the season's schedule stands: a member who withdrew (dropped, forgotten) keeps
            # their place in it and whoever was to meet them has a bye (a win by forfeit), so
            # nobody meets anyone twice
            start = st.get("rating_start", {})
            field_ = [
                r.user_id for r in standing if r.division == d and (r.user_id in active or str(r.user_id) in start)
            ]
            seeded = sorted(field_, key=lambda u: (-float(start.get(str(u), 0.0)), u))
            drawn = pairing.round_robin(seeded, n - 1)
            kept = [s for s in drawn.tables if all(u in active for u in s)]
            freed = [u for s in drawn.tables if s not in kept for u in s if u in active]
            got = pairing.Pairing(kept, [u for u in drawn.byes if u in active] + freed)
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


def forgotten_withdraws(state: Any, anon_id: int) -> Any:
    """A member who forgot themselves (``/privacy forget``: their pseudonym is now in the
    league's state) withdraws, in the forget's own transaction: before the first round
    they leave the roster; after it they are dropped (no more pairings, no podium; their
    record so far stays, under the pseudonym).  A finished season is left as it ended."""
    if not isinstance(state, dict) or "podium" in state:
        return state
    players = state.get("players")
    if not isinstance(players, dict) or not isinstance(players.get(str(anon_id)), dict):
        return state
    st = dict(state)
    if not st.get("rounds"):
        st["players"] = {k: v for k, v in players.items() if k != str(anon_id)}
        st["roster"] = [u for u in st.get("roster", []) if u != anon_id]
    elif players[str(anon_id)].get("dropped") is None:
        st["players"] = {**players, str(anon_id): {**players[str(anon_id)], "dropped": int(st.get("round", 0))}}
    return st


on_forget_json("leagues", "state_json", forgotten_withdraws)


def now_round(st: dict[str, Any]) -> dict[str, Any] | None:
    n = int(st.get("round", 0))
    rounds = st.get("rounds", [])
    return rounds[n - 1] if 0 < n <= len(rounds) else None


def table_places(
    seats: Sequence[int], results: Sequence[ResultRow], state: dict[str, Any], outcome: dict[str, Any] | None = None
) -> tuple[dict[str, int], list[int]]:
    """(place of each paired member who played, the members who forfeit) of an ended
    table.  With results: a member without a result row forfeits (absent at the
    deadline, or withdrawn: their seat went to the AI).  Without (a table ended
    unplayed at the deadline, tables/leagues/deadline.py): the members its outcome
    names as winners by forfeit share first place and every other paired member
    forfeits (absent, or withdrawn); an outcome naming none (a table abandoned)
    places everyone equal."""
    aliases = {int(k): int(v) for k, v in state.get("aliases", {}).items()}
    got: dict[int, int] = {}
    for r in results:
        uid = aliases.get(r.user_id, r.user_id)
        if uid in seats:
            got[uid] = int(r.place)
    if got:
        return {str(u): p for u, p in got.items()}, [u for u in seats if u not in got]
    won = (outcome or {}).get("won_by_forfeit")
    if not isinstance(won, list):
        return {str(u): 1 for u in seats}, []
    winners = {aliases.get(int(u), int(u)) for u in won}
    return {str(u): 1 for u in seats if u in winners}, [u for u in seats if u not in winners]

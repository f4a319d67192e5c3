"""A league season's setup: creating it, the roster (sign-up, withdraw, drop,
replace a player), starting, cancelling and the next season.  Each change is one
compare-and-swap on the league row (:meth:`LeagueSetup._change`).  The rounds:
:mod:`tables.leagues.rounds`."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine import available, get_game
from engine.errors import GameError
from store import ChannelBusy, LeagueRow, LimitReached, VersionConflict
from store.ports import LeagueStepStore, LeagueStore
from tables.core.common import TurnRefused, limit_refused
from tables.leagues.needs import LeagueTables
from tables.leagues.rules import FORMATS, HOUR, MAX_PLAYERS, MAX_ROUNDS, TWO_SEAT, Standings, now_round, standings
from tables.play.lobby import with_clock
from tables.rules import limits, ratings

log = logging.getLogger("tabletop.leagues")


class LeagueSetup:
    """A league's reading and its setup; :class:`tables.leagues.rounds.LeagueService` adds the rounds."""

    def __init__(self, tables: LeagueTables) -> None:
        self.tables = tables
        self.store: LeagueStore = tables.store
        self.steps: LeagueStepStore = tables.store

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

    async def of_guild(self, guild_id: int | None) -> list[LeagueRow]:
        """The server's leagues (none outside a server)."""
        return await self.store.leagues(guild_id) if guild_id is not None else []

    async def active(self) -> list[LeagueRow]:
        """Every league in sign-up or running (the scheduler's pass)."""
        return await self.store.leagues(statuses=["signup", "running"])

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
                caps=limits.caps(await self.tables.limits(guild_id), "leagues"),
            )
        except ChannelBusy:
            raise TurnRefused("exists", "league.exists", name=name) from None
        except LimitReached as exc:
            raise limit_refused(exc) from None

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

    async def note_signup_post(self, league_id: int, message_id: int) -> None:
        """Where the sign-up post is (it is kept up to date with who has signed up)."""
        await self._change(league_id, lambda row: (None, {**row.state, "signup_post": message_id}))

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
                    if "forfeit" in tb:
                        tb["forfeit"] = [new if u == old else u for u in tb["forfeit"]]
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
        rnd = now_round(row.state)
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

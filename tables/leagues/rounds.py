"""Leagues: seasons of tables the bot pairs, opens, referees and scores itself.

Discord-free (``cogs/league/commands.py`` is the thin Discord side).  A league row
(store.LeagueRow) holds its settings (``config``) and its running model
(``state``); every change is ONE compare-and-swap update of that row
(:meth:`Store.update_league`), and each step of a round that talks to the
world (open a table, decide the tables at the deadline, the season-end post)
is claimed once across processes (:meth:`Store.claim_league_step`), so two
bot processes on one PostgreSQL never open a table twice.

Three modules: this one runs the rounds (:class:`LeagueService`, the name callers
use); tables/leagues/setup.py creates a season and keeps its roster; and
tables/leagues/rules.py holds the pure rules (points, standings, pairing a round).

Formats (docs/rulings.md "Leagues" has the rules and the reasons):

* ``swiss`` (two-seat games), ``round_robin`` (two-seat games), ``pods``
  (tables of N, redrawn each round by standing): pairings in tables/leagues/pairing.py;
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
                 "places": {"<uid>": place}, "forfeit": [uid]}]}],  # forfeit: scored 0 (absent, withdrawn)
     "podium": {...}}                            # at the season's end
"""

from __future__ import annotations

import logging
from typing import Any

from store import ChannelBusy, LeagueRow, Seat
from tables.core.common import TurnRefused, TurnResult
from tables.leagues.deadline import LeagueDeadline
from tables.leagues.rules import (
    FORMATS,
    HOUR,
    MAX_PLAYERS,
    MAX_ROUNDS,
    STEP_LEASE,
    TWO_SEAT,
    RoundEvent,
    StandingRow,
    Standings,
    bye_points,
    compute_standings,
    default_points,
    now_round,
    pair_round,
    standings,
    table_places,
    table_points,
)
from tables.play.lobby import with_clock

log = logging.getLogger("tabletop.leagues")

__all__ = [
    "FORMATS",
    "HOUR",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "STEP_LEASE",
    "TWO_SEAT",
    "LeagueService",
    "RoundEvent",
    "StandingRow",
    "Standings",
    "bye_points",
    "compute_standings",
    "default_points",
    "pair_round",
    "standings",
    "table_points",
]


class LeagueService(LeagueDeadline):
    """Every league change, each one compare-and-swap on the league row: the setup
    (tables/leagues/setup.py), the deadline (tables/leagues/deadline.py) and the rounds (here)."""

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
            rnd = now_round(row.state)
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
            rnd = now_round(row.state)
            assert rnd is not None
            waiting = [tb for tb in rnd["tables"] if tb.get("status") != "ended"]
            late = now >= float(rnd["deadline"])
            if waiting and any(tb.get("game_id") is None for tb in waiting) and not late:
                break  # tables still to open (the Discord side does that, then calls again)
            if waiting and late:
                events += await self._deadline(row, int(rnd["n"]), now)
                row, ended = await self._mark_ended(await self.get(league_id))
                events += ended
                rnd = now_round(row.state)
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
        rnd = now_round(row.state)
        if rnd is None:
            return row, []
        open_ids = [int(tb["game_id"]) for tb in rnd["tables"] if tb.get("status") == "open" and tb.get("game_id")]
        if not open_ids:
            return row, []
        ended: dict[int, dict[str, Any] | None] = {}  # table -> its outcome
        for gid in open_ids:
            g = await self.store.get_game(gid)
            if g is None or g.status in ("finished", "abandoned"):
                ended[gid] = g.outcome if g else None
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
                    tb["places"], tb["forfeit"] = table_places(
                        tb["seats"], results.get(tb["game_id"], []), fresh.state, ended[tb["game_id"]]
                    )
                    done.append(tb)
                tables.append(tb)
            cur["tables"] = tables
            rounds[n - 1] = cur
            st["rounds"] = rounds
            return None, st

        new = await self._change(row.id, decide)
        return new, [RoundEvent("table_ended", new, n, tables=list(done))] if done else []

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
        podium = {
            str(d): [r.user_id for r in standing.division(d) if not r.dropped and r.user_id > 0][:3]
            for d in standing.divisions
        }

        def decide(fresh: LeagueRow):
            if fresh.status != "running":
                return None, fresh.state
            return "finished", {**fresh.state, "podium": podium, "ended_at": now}

        new = await self._change(row.id, decide)
        if not await self.steps.claim_league_step(row.id, 0, "season_end", now, STEP_LEASE):
            return []
        return [RoundEvent("season_ended", new, int(new.state.get("round", 0)))]

    async def season_posted(self, league_id: int) -> None:
        await self.steps.finish_league_step(league_id, 0, "season_end", self.clock())

    # ------------------------------------------------------------ tables
    def unopened(self, row: LeagueRow) -> list[tuple[int, int, dict[str, Any]]]:
        """(round, index, table) of the current round's tables not opened yet."""
        rnd = now_round(row.state)
        if rnd is None or row.status != "running":
            return []
        return [
            (int(rnd["n"]), k, tb)
            for k, tb in enumerate(rnd["tables"])
            if tb.get("game_id") is None and tb.get("status") == "pending"
        ]

    async def claim_open(self, league_id: int, n: int, k: int) -> bool:
        return await self.steps.claim_league_step(league_id, n, f"open:{k}", self.clock(), STEP_LEASE)

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
        await self.steps.finish_league_step(league_id, n, f"open:{k}", self.clock())
        started.told = list(
            tb["seats"]
        )  # the table's opening post pinged its players: its first board pings none again
        return started

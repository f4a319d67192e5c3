"""A league round's deadline: the tables still running are decided (docs/rulings.md
"Leagues: the deadline").  :class:`tables.leagues.rounds.LeagueService` runs the rounds.

The rule, as tournament directors apply it to a round's unfinished games:

* **absent**: a member the table waited on who never moved at it;
* every member absent: a **double forfeit** (the table ends; nobody scores, no rating moves);
* the members not absent never moved either (their turn never came: the absent held the
  table up): they **win by forfeit**, sharing the win when several (no rating moves: no
  game was played);
* otherwise (two or more not absent, one of them moved): the seat-filler AI **plays the
  table out** from where it stands (the autopilot's ``league`` policy, tables/core/autopilot.py), the absent members' seats as its own (they
  forfeit); the others keep their places, and ratings move only for the members who
  moved at the table.

A member who forfeits scores 0 at that table and is counted under the absences in
the standings (tables/leagues/rules.py).

Each table is decided by one claimed step (``deadline:<k>``), marked done only once its
table has ended and the league recorded it: a decision that loses the race with a move
(the table's compare-and-swap) is decided again on the fresh table, and a step left
undone is claimed again by the next pass (every pass after the deadline re-checks the
tables still open).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from store import ChangeSet, GameChange, GameRow, LeagueRow, VersionConflict
from tables.core.autopilot import LeaguePlayOut
from tables.core.common import TurnRefused, TurnResult
from tables.leagues.rules import STEP_LEASE, RoundEvent, now_round
from tables.leagues.setup import LeagueSetup

log = logging.getLogger("tabletop.leagues")

#: tries at deciding one table when moves keep landing under the decision
ATTEMPTS = 3
FORFEIT_REASON = "league.forfeit_reason"
DOUBLE_FORFEIT_REASON = "league.double_forfeit_reason"


@dataclass
class Decided:
    """A table decided at the deadline: ``result`` the play-out's (None: a forfeit),
    ``absent`` the members who never moved, ``forfeit_row`` the table ended by forfeit."""

    absent: list[int]
    result: TurnResult | None = None
    forfeit_row: GameRow | None = None
    winners: list[int] = field(default_factory=list)


class LeagueDeadline(LeagueSetup):
    """The deadline of a round (see the module docstring)."""

    async def _deadline(self, row: LeagueRow, n: int, now: float) -> list[RoundEvent]:
        rnd = now_round(row.state)
        assert rnd is not None
        absent: dict[int, list[int]] = {}
        results: list[TurnResult] = []
        forfeits: list[dict[str, Any]] = []
        done: list[str] = []
        for k, tb in enumerate(rnd["tables"]):
            if tb.get("status") != "open" or not tb.get("game_id"):
                continue
            step = f"deadline:{k}"
            if not await self.steps.claim_league_step(row.id, n, step, now, STEP_LEASE):
                continue  # another process decides it now
            gid = int(tb["game_id"])
            try:
                got = await self.decide_table(gid)
            except TurnRefused as exc:  # not decided: the next pass tries again
                log.warning("league %s: table %s not decided at the deadline: %s", row.id, gid, exc.code)
                await self.steps.release_league_step(row.id, n, step)
                continue
            done.append(step)
            if got is None:
                continue  # it ended by itself meanwhile (recorded as any ended table)
            absent[gid] = got.absent
            if got.result is not None:
                results.append(got.result)
            if got.forfeit_row is not None:
                forfeits.append({"row": got.forfeit_row, "absent": got.absent, "winners": got.winners})

        void = [k for k, tb in enumerate(rnd["tables"]) if tb.get("game_id") is None and tb.get("status") != "ended"]
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
        for step in done:  # done only now: the table ended and the league recorded it
            await self.steps.finish_league_step(row.id, n, step, now)
        if not (absent or void):
            return []
        return [
            RoundEvent(
                "deadline",
                row,
                n,
                absent=sorted({u for us in absent.values() for u in us}),
                results=results,
                forfeits=forfeits,
            )
        ]

    async def decide_table(self, game_id: int) -> Decided | None:
        """Decide a running table now by the deadline's rule; None when it had ended
        already.  A move landing under the decision makes it decide again on the fresh
        table (raises TurnRefused when that keeps happening)."""
        for attempt in range(ATTEMPTS):
            try:
                return await self._decide_once(game_id)
            except TurnRefused as exc:
                if exc.code != "stale" or attempt == ATTEMPTS - 1:
                    raise
        return None  # not reached

    async def _decide_once(self, game_id: int) -> Decided | None:
        t = self.tables
        async with self.store.lock(game_id):
            loaded = await t.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if row.status != "active" or game.outcome(state) is not None:
                return None
            acts = await self.store.actions(game_id, limit=100_000)
            moved = {a.user_id for a in acts if a.user_id is not None}
            reached = {a.seat for a in acts} | set(game.to_act(state))
            members = [(s.seat, s.user_id) for s in row.seats if s.user_id is not None]
            absent = [u for s, u in members if u not in moved and s in reached]
            present = [(s, u) for s, u in members if u not in absent]
            if len(present) < 2 or not any(u in moved for _, u in present):
                return await self._forfeit(row, absent, present)
            # the absent members' seats are the AI's (they forfeit: no result, no rating);
            # the autopilot plays the table out: standing orders first, then the AI every seat
            kept = replace(row, seats=[replace(s, user_id=None) if s.user_id in absent else s for s in row.seats])
            kernel = t.kernel
            policies = [*await kernel.standing_orders(kept, at_once=True), LeaguePlayOut()]
            state, entries, events = await t.off_loop(kernel.autopilot, kept, game, state, policies)
            if game.outcome(state) is None:
                raise TurnRefused("action_failed", "discord.table.action_failed", id=game_id)
            waiting_before = list(row.to_act)
            kept.version = await t.kernel.save_turn(
                kept, game, state, entries, seats=kept.seats, rated_users=sorted(moved), unseated="league"
            )
            result = TurnResult(kept, game, state, events, [e.seat for e in entries], waiting_before, entries)
            return Decided(absent, result=result)

    async def _forfeit(self, row: GameRow, absent: list[int], present: list[tuple[str, int]]) -> Decided:
        """End the table without playing on: the absent forfeit, the members present win."""
        reason = FORFEIT_REASON if present else DOUBLE_FORFEIT_REASON
        outcome = {
            "winners": [s for s, _ in present],
            "scores": {},
            "reason": {"key": reason, "params": {}},
            "forfeit": list(absent),
            "won_by_forfeit": [u for _, u in present],
        }
        try:
            done = await self.tables.kernel.write(
                ChangeSet(game=GameChange(row.id, row.version, status="abandoned", outcome=outcome, to_act=[]))
            )
        except VersionConflict:
            raise TurnRefused("stale", "core.ui.stale") from None
        ended = replace(row, status="abandoned", outcome=outcome, to_act=[], version=done.version or row.version)
        return Decided(absent, forfeit_row=ended, winners=[u for _, u in present])

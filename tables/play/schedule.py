"""The scheduler's side of a table: which tables are due a timeout or a
reminder, booking a reminder, the votes a time bank's "vote" policy opens, and
members' vacations (``/away``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store import GameRow
from store.ports import ScheduleStore
from tables.core import standing
from tables.core.common import Due, TurnRefused, VoteOpened
from tables.core.kernel import Kernel
from tables.play.seats import Seats
from tables.rules import clocks
from tables.rules.clocks import away_periods, runs_out_at
from tables.rules.settings import in_quiet_hours


class Schedule:
    """What the scheduler asks of the tables, and vacations."""

    def __init__(self, kernel: Kernel, seats: Seats) -> None:
        self.k = kernel
        self.store: ScheduleStore = kernel.backend
        self.seats = seats

    async def due(self, now: float) -> list[Due]:
        """Work for one scheduler pass: every running table with a standing order's
        delayed step due, whose turn timer ran out (that beats a reminder) or whose waiting members are due a reminder
        (members in their quiet hours are left for a later pass).  The store reads
        only the tables with a seat due at ``now`` (indexed due times)."""
        out: list[Due] = []
        for row in await self.store.due_tables(now):
            when = standing.due(standing.book(row))
            if when is not None and when <= now:  # a standing order's delayed step (tables/play/orders.py)
                out.append(Due(row, "order", []))
            humans = [(seat, uid) for seat in row.to_act if (uid := row.user_of(seat)) is not None]
            if not humans:
                continue
            settings = await self.k.settings.server_settings(row.guild_id)
            prefs = {uid: await self.k.settings.user(uid) for _, uid in humans}
            present = [(s, u) for s, u in humans if clocks.away_now(prefs[u], now) is None]
            timer = float(row.table.get("turn_timer", settings["turn_timer"]) or 0)
            remind = float(row.table.get("reminder", settings["reminder"]) or 0)
            started = row.turn_started_at or row.updated_at
            clock = clocks.of(row.table)
            if clock is not None and clock.get("banks"):  # a clock profile takes the turn timer's place
                expired = [
                    (s, u)
                    for s, u in present
                    if (end := clocks.runs_out(clock, s, away_periods(prefs[u]))) is not None and now >= end
                ]
                if expired:
                    policy = str(clock.get("policy") or "ai")
                    if policy == "vote" and not await self.present_voters(row, expired[0][1], now):
                        policy = "ai"  # nobody else here to vote: the AI moves
                    out.append(Due(row, "timeout", expired, policy=policy))
                    continue
            elif timer:
                expired = [
                    (s, u) for s, u in present if now >= runs_out_at(started, timer * 60, away_periods(prefs[u]))
                ]
                if expired:
                    out.append(Due(row, "timeout", expired))
                    continue
            if (
                remind
                and now >= started + remind * 60
                and (row.last_reminder_at is None or now >= row.last_reminder_at + remind * 60)
            ):
                awake = [uid for _, uid in present if not in_quiet_hours(prefs[uid], now)]
                if awake:
                    out.append(Due(row, "remind", humans, awake))
        return out

    async def claim_reminder(self, row: GameRow, now: float) -> bool:
        """Book the reminder for the decision ``row`` shows; False when the
        table moved on or somebody (another pass or process) reminded already."""
        return await self.store.mark_reminded(row.id, now, expected_version=row.version, previous=row.last_reminder_at)

    async def release_reminder(self, row: GameRow, now: float) -> None:
        """Undo :meth:`claim_reminder` when the reminder could not be sent (it stays due)."""
        await self.store.mark_reminded(row.id, row.last_reminder_at, expected_version=row.version, previous=now)

    async def expiry_votes(self, game_id: int, expected_version: int, seats: Sequence[str]) -> list[VoteOpened]:
        """Time-bank policy "vote": a seat whose bank ran out may be voted to the AI at
        once by the other humans (a majority of them; the owner may still move, or
        refuse).  One vote per seat and decision: none is opened twice."""
        async with self.store.lock(game_id):
            loaded = await self.k.load(game_id)
            row = loaded.row
            if row.version != expected_version:
                raise TurnRefused("stale", "core.ui.stale")
            open_for = {v.payload.get("seat") for v in await self.store.open_votes(row.id) if v.kind == "handover"}
            out = []
            now = self.k.clock()
            for seat in seats:
                owner = row.user_of(seat)
                voters = await self.present_voters(row, owner, now)
                if owner is None or seat in open_for or not voters:
                    continue
                needed = len(voters) // 2 + 1
                payload = {"seat": seat, "to": None, "owner": owner, "expired": True}
                try:
                    vote = await self.seats.open_vote(
                        row, "handover", payload, voters, needed, owner, decision=f"seat:{seat}"
                    )
                except TurnRefused as exc:
                    if exc.code == "vote_exists":  # another process (or pass) opened it first
                        continue
                    raise
                out.append(VoteOpened(vote, voters, needed, owner))
            return out

    async def present_voters(self, row: GameRow, owner: int | None, now: float) -> list[int]:
        """The other humans at the table who are not away (they can answer a vote)."""
        return [u for u in row.humans if u != owner and clocks.away_now(await self.k.settings.user(u), now) is None]

    async def go_away(self, user_id: int, days: float) -> tuple[float, float]:
        """A vacation of ``days`` from now (extending one under way): the member's
        banks and pings pause at every table.  Returns (start, end); refused when it
        exceeds the yearly allowance."""
        if not 0 < days <= clocks.AWAY_DAYS_PER_YEAR:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=1, hi=clocks.AWAY_DAYS_PER_YEAR)
        now = self.k.clock()

        def change(prefs: dict[str, Any]) -> dict[str, Any]:
            new, allowed = clocks.go_away(prefs, now, days)
            if new is None:
                raise TurnRefused("away_allowance", "asyncplay.away_allowance", days=allowed)
            return new

        new = await self.k.settings.update_user(user_id, change)  # the store re-times the member's seats
        current = clocks.away_now(new, now)
        assert current is not None
        return current

    async def come_back(self, user_id: int) -> None:
        """End the member's vacation now (the unused days return to the allowance)."""
        now = self.k.clock()

        def change(prefs: dict[str, Any]) -> dict[str, Any]:
            new = clocks.come_back(prefs, now)
            if new is None:
                raise TurnRefused("not_away", "asyncplay.not_away")
            return new

        await self.k.settings.update_user(user_id, change)

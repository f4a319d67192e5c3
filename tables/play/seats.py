"""Seats: take back a move (free, or after the players it affects agree), hand
a seat to another member or the AI (at once, or by a vote), resign."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine import GameError
from engine.base import BaseState, Game
from store import ChangeSet, GameChange, GameRow, NewVote, ResultRow, VersionConflict, Vote, VoteTaken
from store.ports import SeatStore
from tables.core import standing
from tables.core.common import HandoverResult, Loaded, Raced, TurnRefused, TurnResult, UndoResult, VoteOpened
from tables.core.kernel import Kernel
from tables.core.snapshots import SnapshotUnusable, snapshot_key
from tables.rules import clocks, undo_rule

#: how long a seat must have waited before other players may vote it away,
#: when the table reminds nobody (minutes)
IDLE_DEFAULT_MINUTES = 720


class Seats:
    """Undo, hand-over and resignation; the votes they open are answered in tables/play/votes.py."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: SeatStore = kernel.backend

    async def undo_plan(self, loaded: Loaded, user_id: int) -> tuple[BaseState, list[int], bool, list[int]]:
        """(state before ``user_id``'s last action, log ids to take back, free?, the other
        members whose decisions the undo removes): free when no die was rolled, nothing
        hidden revealed and no other human acted since.
        The state is rebuilt from the nearest snapshot before that action (a cache that
        must lead to the stored state), else from the seed."""
        row, game, state = loaded.row, loaded.game, loaded.state
        for key in (snapshot_key(game), None):
            src = await self.store.replay_source(row.id, key, user_id=user_id)
            if src.version != row.version:
                # the log is newer (or older) than the state we hold: another process moved
                # in between; decide again on fresh data rather than blame the snapshots
                raise Raced()
            if src.cut is None:
                raise TurnRefused("nothing_to_undo", "core.ui.nothing_to_undo")
            tail = src.actions[src.cut :]
            try:
                before = await self.k.rebuild(row, game, src, src.cut)
                check = await self.k.off_loop(game.apply_all, before, [(e.seat, e.action) for e in tail])
            except (SnapshotUnusable, GameError) as exc:
                if src.snapshot is None:
                    raise TurnRefused("undo_impossible", "core.ui.undo_impossible") from None
                await self.k.bad_snapshot(row, src, exc)
                continue
            if check.model_dump_json() == state.model_dump_json():
                break
            if src.snapshot is None:
                raise TurnRefused("undo_impossible", "core.ui.undo_impossible")
            await self.k.bad_snapshot(row, src, "it does not lead to the stored state")
        standing.taken_back(row, user_id, tail)  # written only if the undo is
        others = any(e.user_id not in (None, user_id) and e.by != "auto" for e in tail)
        free = not others and before.rng == state.rng and not game.hidden_revealed(before, state)
        return before, [e.id for e in tail], free, undo_rule.removed_players(tail, user_id)

    async def undo(self, game_id: int, user_id: int) -> UndoResult:
        """Take back ``user_id``'s last action by replaying the log without it;
        when a die was rolled, something hidden revealed or another human acted
        since, the players whose decisions it removes must agree first (a vote is
        opened; tables/rules/undo_rule.py)."""
        async with self.store.lock(game_id):
            for _ in range(5):
                loaded = await self.k.load(game_id)
                row, game = loaded.row, loaded.game
                seat = row.seat_of(user_id)
                if seat is None:
                    raise TurnRefused("not_seated", "core.ui.not_seated")
                try:
                    before, revert, free, removed = await self.undo_plan(loaded, user_id)
                except Raced:
                    continue  # another process moved between our two reads: look again
                break
            else:
                raise TurnRefused("stale", "core.ui.stale")
            voters = undo_rule.asked(removed, row.humans, user_id)
            if free or not voters:  # nobody to ask: the only human at the table decides
                notes = [{"note": "undone", "user": user_id}]
                waiting = list(row.to_act)
                row.version = await self.k.save_turn(row, game, before, [], revert=revert, by_user=user_id, notes=notes)
                return UndoResult(done=TurnResult(row, game, before, [], [], waiting, notes=notes, by=user_id))
            payload = {"user": user_id, "action": revert[0]}  # the decision asked about
            vote = await self.open_vote(row, "undo", payload, voters, len(voters), user_id, decision=f"undo:{seat}")
            return UndoResult(vote=VoteOpened(vote, voters, len(voters)))

    async def open_vote(
        self,
        row: GameRow,
        kind: str,
        payload: dict[str, Any],
        voters: list[int],
        needed: int,
        by: int,
        *,
        decision: str | None = None,
    ) -> Vote:
        """Open a vote on the decision at ``row.version``; at most one per ``decision``
        (a compare-and-swap in the database, across processes): refused when it exists."""
        new = NewVote(row.id, kind, {**payload, "needed": needed}, row.version, voters, by, decision)
        try:
            done = await self.k.write(ChangeSet(new_votes=[new]))
        except VoteTaken:
            raise TurnRefused("vote_exists", "asyncplay.vote_exists") from None
        vote = await self.store.get_vote(done.vote_ids[0])
        assert vote is not None
        return vote

    def idle_minutes(self, row: GameRow, settings: dict[str, Any]) -> float:
        """How long a seat must have waited before others may vote it away: the
        table's reminder interval (else the server's, else 12 hours)."""
        remind = float(row.table.get("reminder", settings.get("reminder")) or 0)
        return remind or IDLE_DEFAULT_MINUTES

    async def handover(
        self,
        game_id: int,
        user_id: int,
        seat: str,
        to: int | None,
        *,
        admin: bool = False,
        now: float | None = None,
    ) -> HandoverResult:
        """Give ``seat`` to member ``to`` (None: the AI).

        Seat safety: the host, a server admin, or the seat's owner hands it over
        at once.  Anyone else seated may open a vote: on an AI seat, a majority
        of the human players decides; on a human's seat, only after that seat
        has been waiting for its decision longer than the table's reminder
        interval, and then a majority of the *other* humans (at least two when
        there are three or more humans); the owner is pinged and may refuse."""
        now = self.k.clock() if now is None else now
        async with self.store.lock(game_id):
            loaded = await self.k.load(game_id)
            row = loaded.row
            if seat not in [s.seat for s in row.seats]:
                raise TurnRefused("unknown_seat", "core.error.unknown_seat", seat=seat)
            if to is not None and row.seat_of(to) not in (None, seat):
                raise TurnRefused("already_seated", "core.ui.already_seated")
            owner = row.user_of(seat)
            if user_id == row.host_id or admin or (owner is not None and user_id == owner):
                note = {"note": "handover", "seat": seat, "to": to, "previous": owner}
                return HandoverResult(done=await self.hand_over(loaded, seat, to, notes=[note], by=user_id))
            if row.seat_of(user_id) is None:
                raise TurnRefused("host_only", "core.ui.host_only")
            if owner is None:
                voters = list(row.humans)
                needed = len(voters) // 2 + 1
            else:
                if clocks.away_now(await self.k.settings.user(owner), now) is not None:
                    # never voted off while away
                    raise _seat_named(TurnRefused("owner_away", "asyncplay.owner_away"), row, seat)
                settings = await self.k.settings.server_settings(row.guild_id)
                idle = self.idle_minutes(row, settings)
                waited = now - (row.turn_started_at or row.updated_at)
                if seat not in row.to_act or waited < idle * 60:
                    refused = TurnRefused("seat_not_idle", "discord.table.seat_not_idle", hours=round(idle / 60, 1))
                    raise _seat_named(refused, row, seat)
                voters = [u for u in row.humans if u != owner]
                needed = max(len(voters) // 2 + 1, 2 if len(row.humans) >= 3 else 1)
            vote = await self.open_vote(
                row,
                "handover",
                {"seat": seat, "to": to, "owner": owner},
                voters,
                needed,
                user_id,
                decision=f"seat:{seat}",
            )
            return HandoverResult(vote=VoteOpened(vote, voters, needed, owner))

    def _handover_state(self, row: GameRow, game: Game, state: BaseState, seat: str, to: int | None):
        seats = [replace(s, user_id=to) if s.seat == seat else s for s in row.seats]
        moved = replace(row, seats=seats)
        return seats, moved

    async def hand_over(
        self,
        loaded: Loaded,
        seat: str,
        to: int | None,
        votes=(),
        notes: Sequence[dict[str, Any]] = (),
        by: int | None = None,
        unseated: str | None = None,
    ) -> TurnResult:
        """The seat changes hands and, when it went to the AI and is to act, the
        AI plays at once: one commit (``by``: the member who asked).  The former
        member's standing orders go in that commit, and they are told privately why
        (``unseated``: "resigned", "vote"; else by who holds the seat now)."""
        row, game, state = loaded.row, loaded.game, loaded.state
        waiting = list(row.to_act) if row.status == "active" else []
        seats, moved = self._handover_state(row, game, state, seat, to)
        state, entries, events = await self.k.advance_ai(moved, game, state)
        moved.version = await self.k.save_turn(
            moved, game, state, entries, seats=seats, votes=votes, notes=notes, unseated=unseated
        )
        return TurnResult(moved, game, state, events, [e.seat for e in entries], waiting, entries, list(notes), by=by)

    async def resign(self, game_id: int, user_id: int) -> TurnResult:
        """The user leaves: their seat goes to the AI; with no human left the
        table ends and the resigner is recorded as beaten.  One call, one commit."""
        async with self.store.lock(game_id):
            loaded = await self.k.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            seat = row.seat_of(user_id)
            if seat is None:
                raise TurnRefused("not_seated", "core.ui.not_seated")
            note = {"note": "resigned", "user": user_id}
            if [u for u in row.humans if u != user_id]:
                return await self.hand_over(loaded, seat, None, notes=[note], by=user_id, unseated="resigned")
            outcome = {
                "winners": [],
                "scores": {},
                "reason": {"key": "core.ui.resigned_outcome", "params": {"seat": seat}},
            }
            results = [ResultRow(seat=seat, user_id=user_id, place=len(row.seats) + 1, won=False)]
            notes = [{**note, "closed": True}]
            change = GameChange(row.id, row.version, status="finished", outcome=outcome, to_act=[], results=results)
            try:
                done = await self.k.write(ChangeSet(game=change, owed=self.k.owed(notes, "notice")))
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            assert done.version is not None
            row.version = done.version
            row.status = "finished"
            return TurnResult(row, game, state, [], [], notes=notes, kind="notice", by=user_id)


def _seat_named(exc: TurnRefused, row: GameRow, seat: str) -> TurnRefused:
    """A refusal about ``seat``: shown with its player's display name (tables/play/refusals.py), never its id."""
    exc.row = row
    exc.named = {"seat": [seat]}
    return exc

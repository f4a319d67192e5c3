"""Votes: one member's ballot on an open vote (an undo or a hand-over); the
ballot that decides it carries the undo or hand-over in the same commit."""

from __future__ import annotations

from typing import Any

from store import ChangeSet, VersionConflict, Vote, VoteChange
from store.ports import SeatStore
from tables.core.common import BallotResult, Loaded, Raced, TurnRefused, TurnResult, storable
from tables.core.kernel import Kernel
from tables.play.seats import Seats
from tables.rules import undo_rule


class Votes:
    """Ballots; a passed vote carries out its undo or hand-over through :class:`~tables.play.seats.Seats`."""

    def __init__(self, kernel: Kernel, seats: Seats) -> None:
        self.k = kernel
        self.store: SeatStore = kernel.backend
        self.seats = seats

    async def vote(self, vote_id: int) -> Vote | None:
        """A vote by id (None for an id no vote can have: a forged button)."""
        return await self.store.get_vote(vote_id) if storable(vote_id) else None

    async def ballot(self, vote_id: int, user_id: int, yes: bool) -> BallotResult:
        """One member's answer to a vote.  The ballot, and when it decides the
        vote the undo or hand-over it carries, are one commit on the vote's and
        the table's versions.  A ballot that lost the race to another ballot
        is counted again on the fresh vote (both count)."""
        for _ in range(10):
            vote = await self.store.get_vote(vote_id) if storable(vote_id) else None
            if vote is None or vote.status != "open":
                raise TurnRefused("vote_closed", "core.ui.vote_closed")
            try:
                return await self._ballot(vote, user_id, yes)
            except Raced:
                continue
        raise TurnRefused("stale", "core.ui.stale")

    async def _ballot(self, vote: Vote, user_id: int, yes: bool) -> BallotResult:
        if vote.kind == "undo" and "action" in vote.payload:
            return await self._undo_ballot(vote, user_id, yes)
        owner = vote.payload.get("owner") if vote.kind == "handover" else None
        if user_id not in vote.voters and user_id != owner:
            raise TurnRefused("not_a_voter", "core.ui.not_a_voter")
        async with self.store.lock(vote.game_id):
            try:
                row = await self.k.row(vote.game_id)
            except TurnRefused:
                row = None
            if row is None or row.version != vote.base_version or row.status != "active":
                await self.close_vote(vote, "expired")
                return BallotResult("expired", vote, reason="moved_on")
            needed = int(vote.payload.get("needed") or (len(vote.voters) // 2 + 1))
            if owner is not None and user_id == owner:
                # the owner answers for their own seat: a yes hands it over, a no ends the vote
                ayes, nays, passed, failed = list(vote.yes), list(vote.no), yes, not yes
            else:
                ayes = sorted((set(vote.yes) | {user_id}) if yes else (set(vote.yes) - {user_id}))
                nays = sorted((set(vote.no) - {user_id}) if yes else (set(vote.no) | {user_id}))
                failed = len(vote.voters) - len(nays) < needed  # cannot pass any more
                passed = not failed and len(ayes) >= needed
            if not passed:
                status = "refused" if failed else None
                try:
                    await self.k.write(
                        ChangeSet(votes=[VoteChange(vote.id, vote.version, yes=ayes, no=nays, status=status)])
                    )
                except VersionConflict:
                    raise Raced() from None
                return BallotResult("refused" if failed else "counted", vote, len(ayes), needed)
            closing = [VoteChange(vote.id, vote.version, yes=ayes, no=nays, status="passed")]
            game, state = await self.k.open_state(row)
            loaded = Loaded(row, game, state)
            try:
                if vote.kind == "undo":
                    who = int(vote.payload["user"])
                    before, revert, _, _ = await self.seats.undo_plan(loaded, who)
                    notes = [undone_note(who, revert, ayes)]
                    to_act_before = list(row.to_act)
                    row.version = await self.k.save_turn(
                        row, game, before, [], revert=revert, by_user=who, votes=closing, notes=notes
                    )
                    result = TurnResult(row, game, before, [], [], to_act_before, notes=notes, by=user_id)
                else:
                    seat, to = vote.payload["seat"], vote.payload.get("to")
                    note = {"note": "handover", "seat": seat, "to": to, "previous": vote.payload.get("owner")}
                    result = await self.seats.hand_over(
                        loaded, seat, to, votes=closing, notes=[note], by=user_id, unseated="vote"
                    )
            except TurnRefused as exc:
                await self._raced_if_moved(vote, exc)
                raise
            return BallotResult("passed", vote, len(ayes), needed, result)

    async def _undo_ballot(self, vote: Vote, user_id: int, yes: bool) -> BallotResult:
        """A ballot on an undo vote (tables/rules/undo_rule.py): it survives the table moving
        on; who is asked is worked out again from the log now (a move made since is one
        more decision it removes, so its player is asked too)."""
        mover = int(vote.payload["user"])
        async with self.store.lock(vote.game_id):
            try:
                row = await self.k.row(vote.game_id)
            except TurnRefused:
                row = None
            if row is None or row.status != "active" or row.state_json is None:
                await self.close_vote(vote, "expired")
                return BallotResult("expired", vote, reason="ended")
            game, state = await self.k.open_state(row)
            loaded = Loaded(row, game, state)
            try:
                before, revert, _, removed = await self.seats.undo_plan(loaded, mover)
            except TurnRefused as exc:
                if exc.code != "nothing_to_undo":
                    raise
                revert, removed = [], []
            if not undo_rule.applies(vote.payload, revert):
                await self.close_vote(vote, "expired")
                later = bool(revert) and revert[0] > int(vote.payload["action"])
                return BallotResult("expired", vote, reason="decided_again" if later else "gone")
            asked = undo_rule.asked(removed, row.humans, mover)
            if user_id not in asked:
                raise TurnRefused("not_a_voter", "core.ui.not_a_voter")
            ayes = sorted((set(vote.yes) | {user_id}) if yes else (set(vote.yes) - {user_id}))
            nays = sorted((set(vote.no) - {user_id}) if yes else (set(vote.no) | {user_id}))
            passed, failed = undo_rule.tally(asked, ayes, nays)
            waiting = [u for u in asked if u not in ayes]
            counted = len([u for u in asked if u in ayes])
            if not passed:
                try:
                    await self.k.write(
                        ChangeSet(
                            votes=[
                                VoteChange(
                                    vote.id, vote.version, yes=ayes, no=nays, status="refused" if failed else None
                                )
                            ]
                        )
                    )
                except VersionConflict:
                    raise Raced() from None
                status = "refused" if failed else "counted"
                return BallotResult(status, vote, counted, len(asked), waiting=waiting)
            closing = [VoteChange(vote.id, vote.version, yes=ayes, no=nays, status="passed")]
            notes = [undone_note(mover, revert, [u for u in asked if u in ayes])]
            to_act_before = list(row.to_act)
            try:
                row.version = await self.k.save_turn(
                    row, game, before, [], revert=revert, by_user=mover, votes=closing, notes=notes
                )
            except TurnRefused as exc:
                await self._raced_if_moved(vote, exc)
                raise
            result = TurnResult(row, game, before, [], [], to_act_before, notes=notes, by=user_id)
            return BallotResult("passed", vote, counted, len(asked), result)

    async def _raced_if_moved(self, vote: Vote, exc: TurnRefused) -> None:
        """A passing ballot's change found the table moved ("stale"): when another ballot
        changed the vote meanwhile, decide again on fresh data (:class:`Raced`)."""
        if exc.code == "stale":
            fresh = await self.store.get_vote(vote.id)
            if fresh is not None and fresh.version != vote.version:
                raise Raced() from None

    async def close_vote(self, vote: Vote, status: str) -> None:
        try:
            await self.k.write(ChangeSet(votes=[VoteChange(vote.id, vote.version, status=status)]))
        except VersionConflict:
            pass  # somebody else closed it first


def undone_note(mover: int, revert: list[int], agreed: list[int]) -> dict[str, Any]:
    """The notice a passed undo vote owes the channel with its board: whose move was
    taken back (at their request), how many steps went with it, and who agreed."""
    return {"note": "undone", "user": mover, "steps": len(revert), "agreed": sorted(agreed)}

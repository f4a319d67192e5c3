"""Turns: a seat's action (or a chain of them, or an offered choice) and the
turn timer or time bank running out.  Each is decided here and committed by the
kernel in one change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import BaseState, Game
from store.ports import SeatStore
from tables.core.autopilot import TimerDefault
from tables.core.common import FINISHED, Picker, TurnRefused, TurnResult
from tables.core.kernel import Kernel
from tables.play import refusals
from tables.play.views import Views
from tables.rules import clocks, panels


class Turns:
    """A seat's decisions and the clock's; :class:`~tables.play.views.Views` says what a seat is offered."""

    def __init__(self, kernel: Kernel, views: Views) -> None:
        self.k = kernel
        self.store: SeatStore = kernel.backend
        self.views = views

    async def act(
        self,
        game_id: int,
        user_id: int | None,
        pick: Picker | Sequence[Picker],
        *,
        expected_version: int | None = None,
        seat: str | None = None,
        choice: int | None = None,
        place: tuple[int | None, int | None] | None = None,
    ) -> TurnResult:
        """Apply the action ``pick`` chooses for ``user_id``'s seat (or ``seat``
        for a system actor, ``user_id=None``).  A list of pickers applies several
        decisions of that seat in a row (``/play`` chains), saved together: all
        of them or none; a chain never runs past a roll or a reveal.  ``choice``
        (instead of ``pick``): the index of one of :meth:`choices` for this state,
        a chain of single steps offered as one choice on the board.  ``place``: the (server,
        channel) of the click, refused when not the table's (checked on the one read of its row)."""
        picks = list(pick) if isinstance(pick, (list, tuple)) else [pick]
        async with self.store.lock(game_id):
            with self.k.stage("load"):
                loaded = await self.k.loaded(await self.k.row(game_id), ("active", *FINISHED), place)
            row, game, state = loaded.row, loaded.game, loaded.state
            if row.status != "active":
                raise refusals.finished(row)
            if seat is None:
                seat = row.seat_of(user_id) if user_id is not None else None
                if seat is None:
                    raise refusals.not_seated(row, game, state)
            if expected_version is not None and row.version != expected_version:
                if not panels.is_token(expected_version):
                    raise await refusals.moved_on(self.store, row, game, state, seat, expected_version)
                # a private panel: live while what this seat may choose is unchanged (tables/rules/panels.py)
                if (
                    seat in game.to_act(state)
                    and await self.views.panel_token(row, game, state, seat) != expected_version
                ):
                    raise TurnRefused("stale", "play.panel.changed")
            waiting_before = game.to_act(state)
            if seat not in waiting_before:
                raise refusals.not_your_turn(row, game, state)
            if choice is not None:
                offered = await self.views.choices(row, game, state, seat)
                if not 0 <= choice < len(offered):
                    raise TurnRefused("stale", "core.ui.stale")
                picks = [pick_index(i) for i in offered[choice].chain]
            with self.k.stage("apply"):
                # the engine and the seat-filler AI run off the event loop, so a long AI turn
                # at one table never delays another interaction's 3-second acknowledgement
                orders = await self.k.standing_orders(row)
                try:
                    state, entries, events = await self.k.off_loop(
                        self.k.advance, row, game, state, seat, user_id, picks, orders
                    )
                except TurnRefused:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise await self.k.action_failed(row, seat, exc) from None
            with self.k.stage("save"):
                row.version = await self.k.save_turn(row, game, state, entries)
            row.state_json = None  # the caller has ``state``; avoid keeping two copies
            return TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before, entries, by=user_id)

    async def timeout(
        self,
        game_id: int,
        expected_version: int,
        seats: Sequence[str] | None = None,
        policy: str = "default",
    ) -> tuple[TurnResult, list[tuple[str, int]]]:
        """The turn timer (or the time bank) of the decision at ``expected_version``
        ran out: for every human seat waiting (only ``seats``, when given), the
        game's default action (policy "default": the seat-filler AI's choice unless
        the game says otherwise) or the seat-filler AI's own choice (policy "ai"),
        taken by the autopilot (:class:`~tables.core.autopilot.TimerDefault`) with every
        step nobody clicked that follows, in one commit.  A member away (vacation) is
        never timed out.  Refused as stale when anything happened at the table since."""
        async with self.store.lock(game_id):
            loaded = await self.k.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if row.version != expected_version:
                raise TurnRefused("stale", "core.ui.stale")
            now = self.k.clock()
            waiting = [
                (s, u)
                for s in game.to_act(state)
                if (u := row.user_of(s)) is not None
                and (seats is None or s in seats)
                and clocks.away_now(await self.k.settings.user(u), now) is None
            ]
            if not waiting:
                raise TurnRefused("not_your_turn", "core.error.not_your_turn")
            waiting_before = game.to_act(state)
            timer = TimerDefault([s for s, _ in waiting], "ai" if policy == "ai" else "default")
            orders = await self.k.standing_orders(row, at_once=[s for s, _ in waiting])
            policies = self.k.policies(orders=orders, then=[timer])
            try:
                state, entries, events = await self.k.off_loop(self.k.autopilot, row, game, state, policies)
            except Exception as exc:  # noqa: BLE001
                raise await self.k.action_failed(row, waiting[0][0], exc) from None
            notes = [
                {
                    "note": "timeout",
                    "seats": [[s, u] for s, u in waiting],
                    "policy": policy,
                    "bank": clocks.of(row.table) is not None,
                }
            ]
            row.version = await self.k.save_turn(row, game, state, entries, notes=notes)
            result = TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before, entries, notes)
            return result, waiting


def pick_index(i: int) -> Picker:
    def pick(game: Game, state: BaseState, seat: str, legal: list[Any]) -> Any:
        if not 0 <= i < len(legal):
            raise TurnRefused("stale", "core.ui.stale")
        return legal[i]

    return pick

"""The one turn pipeline every game uses.

``Pipeline.act`` = load -> authorise -> apply (+ seat-filler AI for AI seats)
-> persist (compare-and-swap) -> render off the event loop -> reply.  The
Discord-facing callers (buttons, selects, /play, timers) only decide *which*
legal action was picked; nothing here knows a particular game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engine import GameError, get_game
from engine.base import BaseState, Event, Game
from engine.i18n import t
from render import render
from render.generic import draw as render_fallback
from store import ActionRow, CampaignChange, ChangeSet, CorruptRow, GameRow, ResultRow, Seat, Store, VersionConflict

log = logging.getLogger("tabletop.pipeline")

Picker = Callable[[Game, BaseState, str, list[Any]], Any]


class TurnRefused(Exception):
    """A player-facing refusal: ``key``/``params`` are a catalog message."""

    def __init__(self, code: str, key: str, **params: Any):
        self.code, self.key, self.params = code, key, params
        super().__init__(code)

    def text(self, locale: str) -> str:
        return t(self.key, locale, **self.params)

    @classmethod
    def from_game_error(cls, exc: GameError) -> TurnRefused:
        return cls(exc.code, exc.key, **exc.params)


@dataclass
class TurnResult:
    row: GameRow
    game: Game
    state: BaseState
    events: list[Event]
    actors: list[str] = field(default_factory=list)
    waiting_before: list[str] = field(default_factory=list)  # to_act before this action

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None


@dataclass
class Loaded:
    row: GameRow
    game: Game
    state: BaseState


class Pipeline:
    def __init__(self, store: Store, executor=None, max_ai_steps: int = 2000):
        self.store = store
        self.executor = executor
        self.max_ai_steps = max_ai_steps
        #: when a dict, each stage's wall time (seconds) is appended under its name (bench/)
        self.timings: dict[str, list[float]] | None = None

    @contextmanager
    def stage(self, name: str):
        if self.timings is None:
            yield
            return
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings.setdefault(name, []).append(time.perf_counter() - start)

    # ------------------------------------------------------------ load
    async def load(
        self, game_id: int | None = None, *, channel_id: int | None = None, statuses: Sequence[str] = ("active",)
    ) -> Loaded:
        try:
            row = await (self.store.get_game(game_id) if game_id is not None else self.store.active_game(channel_id))
        except CorruptRow as exc:
            await self.store.quarantine(exc.game_id, exc.reason)
            log.error("quarantined game %s: %s", exc.game_id, exc.reason)
            raise TurnRefused("corrupt", "core.ui.corrupt", id=exc.game_id) from None
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if row.status not in statuses:
            raise TurnRefused("not_running", "core.ui.not_running", id=row.id)
        game = get_game(row.game)
        if row.state_json is None:
            raise TurnRefused("not_started", "core.ui.not_started", id=row.id)
        try:
            state = game.load(row.state_json)
        except GameError as exc:
            await self.store.quarantine(row.id, f"unreadable state: {exc}")
            log.error("quarantined game %s: %s", row.id, exc)
            raise TurnRefused("corrupt", "core.ui.corrupt", id=row.id) from None
        return Loaded(row, game, state)

    # ------------------------------------------------------------- act
    async def act(
        self,
        game_id: int,
        user_id: int | None,
        pick: Picker | Sequence[Picker],
        *,
        expected_version: int | None = None,
        seat: str | None = None,
    ) -> TurnResult:
        """Apply the action ``pick`` chooses for ``user_id``'s seat (or ``seat``
        for a system actor such as a timer, ``user_id=None``).  A list of pickers
        applies several decisions of that seat in a row (power users' /play
        chains), saved together: all of them or none."""
        picks = list(pick) if isinstance(pick, (list, tuple)) else [pick]
        async with self.store.lock(game_id):
            with self.stage("load"):
                loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if expected_version is not None and row.version != expected_version:
                raise TurnRefused("stale", "core.ui.stale")
            if seat is None:
                seat = row.seat_of(user_id) if user_id is not None else None
                if seat is None:
                    raise TurnRefused("not_seated", "core.ui.not_seated")
            waiting_before = game.to_act(state)
            with self.stage("apply"):
                # the engine and the seat-filler AI run off the event loop, so a long AI turn
                # at one table never delays another interaction's 3-second acknowledgement
                state, entries, events = await self.off_loop(self._advance, row, game, state, seat, user_id, picks)
            with self.stage("save"):
                version = await self.save(row, game, state, entries)
            row.version = version
            row.state_json = None  # the caller has ``state``; avoid keeping two copies
            return TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before)

    def _advance(
        self, row: GameRow, game: Game, state: BaseState, seat: str, user_id: int | None, picks: Sequence[Picker]
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Apply the picked actions (and the AI seats after each): pure, synchronous."""
        entries: list[ActionRow] = []
        events: list[Event] = []
        for n, chooser in enumerate(picks):
            if seat not in game.to_act(state) or game.outcome(state) is not None:
                if n == 0:
                    raise TurnRefused("not_your_turn", "core.error.not_your_turn")
                raise TurnRefused("chain_broken", "core.ui.chain_broken", step=n + 1)
            legal = game.legal_actions(state, seat)
            try:
                action = chooser(game, state, seat, legal)
                state, evs = game.apply(state, seat, action)
            except GameError as exc:
                raise TurnRefused.from_game_error(exc) from None
            entries.append(log_entry(game, seat, user_id, action, evs))
            events += evs
            state, ai_entries, ai_events = self.run_ai(row, game, state)
            entries += ai_entries
            events += ai_events
        return state, entries, events

    async def off_loop(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def save(
        self,
        row: GameRow,
        game: Game,
        state: BaseState,
        entries: Sequence[ActionRow],
        *,
        status: str | None = None,
        revert: Sequence[int] = (),
        by_user: int | None = None,
    ) -> int:
        """Compare-and-swap the new state, its log entries, who acts next and,
        when the game just ended, the results for the leaderboards."""
        outcome = game.outcome(state)
        if outcome is not None:
            status = "finished"
        try:
            version = await self.store.update_game(
                row.id,
                row.version,
                state_json=state.model_dump_json(),
                actions=entries,
                status=status,
                outcome=outcome.model_dump(mode="json") if outcome else None,
                to_act=[] if outcome else game.to_act(state),
                results=placings(row, game, state) if outcome else (),
                revert=revert,
                by_user=by_user,
            )
        except VersionConflict:
            raise TurnRefused("stale", "core.ui.stale") from None
        if status:
            row.status = status
        if outcome is not None and row.campaign_id is not None:
            async with self.store.lock(("campaign", row.campaign_id)):
                await self._record_campaign(row, game, state)
        return version

    async def _record_campaign(self, row: GameRow, game: Game, state: BaseState) -> None:
        """Fold a finished table into its story campaign's progress (story modes)."""
        campaign = await self.store.campaign_by_id(row.campaign_id)
        if campaign is not None:
            progress = dict(campaign.progress or {})
            try:
                story = game.campaign_progress(progress.get("story"), state)
            except GameError:
                log.exception("campaign %s: result of table %s not recorded", campaign.id, row.id)
                story = None
            if story is not None:
                progress["story"] = story
                await self.store.commit(ChangeSet(campaigns=[CampaignChange(campaign.id, campaign.version, progress)]))

    def run_ai(self, row: GameRow, game: Game, state: BaseState) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Let the seat-filler AI play every AI seat that is to act."""
        entries: list[ActionRow] = []
        events: list[Event] = []
        for _ in range(self.max_ai_steps):
            if game.outcome(state) is not None:
                break
            ai = [s for s in game.to_act(state) if row.user_of(s) is None]
            if not ai:
                break
            seat = ai[0]
            action = game.ai_action(state, seat)
            state, evs = game.apply(state, seat, action)
            entries.append(log_entry(game, seat, None, action, evs))
            events += evs
        return state, entries, events

    # ----------------------------------------------------------- start
    async def start(self, row: GameRow) -> TurnResult:
        """Turn a lobby into a running game (seats as they are now)."""
        game = get_game(row.game)
        try:
            state = game.new([s.seat for s in row.seats], row.options, row.seed)
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        state, entries, events = await self.off_loop(self.run_ai, row, game, state)
        row.version = await self.save(row, game, state, entries, status="active")
        return TurnResult(row, game, state, events, [e.seat for e in entries])

    # ------------------------------------------------------------ undo
    async def undo(
        self, game_id: int, user_id: int, *, consent: bool = False, base_version: int | None = None
    ) -> tuple[str, TurnResult | None]:
        """Take back ``user_id``'s last action by replaying the log without it.

        Returns ``("done", result)``; or ``("needs_consent", None)`` when a die
        was rolled, hidden information revealed or another human acted since
        (then every other human player must agree: call again with consent)."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if base_version is not None and row.version != base_version:
                raise TurnRefused("stale", "core.ui.stale")
            log_rows = await self.store.actions(game_id, limit=1_000_000)
            mine = [i for i, e in enumerate(log_rows) if e.user_id == user_id]
            if not mine:
                raise TurnRefused("nothing_to_undo", "core.ui.nothing_to_undo")
            cut = mine[-1]
            seats = [s.seat for s in row.seats]
            try:
                before = await self.off_loop(
                    game.replay, seats, row.options, row.seed, [(e.seat, e.action) for e in log_rows[:cut]]
                )
                check = await self.off_loop(game.apply_all, before, [(e.seat, e.action) for e in log_rows[cut:]])
            except GameError:
                raise TurnRefused("undo_impossible", "core.ui.undo_impossible") from None
            if check.model_dump_json() != state.model_dump_json():
                raise TurnRefused("undo_impossible", "core.ui.undo_impossible")
            tail = log_rows[cut:]
            others = any(e.user_id not in (None, user_id) for e in tail)
            free = not others and before.rng == state.rng and not game.hidden_revealed(before, state)
            if not free and not consent:
                return "needs_consent", None
            row.version = await self.save(row, game, before, [], revert=[e.id for e in tail], by_user=user_id)
            return "done", TurnResult(row, game, before, [], [])

    # ------------------------------------------------------ hand-over
    async def handover(
        self, game_id: int, seat: str, user_id: int | None, *, base_version: int | None = None
    ) -> TurnResult:
        """Give ``seat`` to another member (or to the AI when ``user_id`` is None);
        an AI seat that is to act plays at once."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if base_version is not None and row.version != base_version:
                raise TurnRefused("stale", "core.ui.stale")
            if seat not in [s.seat for s in row.seats]:
                raise TurnRefused("unknown_seat", "core.error.unknown_seat", seat=seat)
            if user_id is not None and row.seat_of(user_id) not in (None, seat):
                raise TurnRefused("already_seated", "core.ui.already_seated")
            seats = [Seat(s.seat, user_id if s.seat == seat else s.user_id) for s in row.seats]
            try:
                row.version = await self.store.update_game(row.id, row.version, seats=seats)
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            row.seats = seats
            state, entries, events = await self.off_loop(self.run_ai, row, game, state)
            if entries:
                row.version = await self.save(row, game, state, entries)
            return TurnResult(row, game, state, events, [e.seat for e in entries])

    async def resign(self, game_id: int, user_id: int) -> TurnResult:
        """The user leaves: their seat goes to the AI; with no human left the
        table ends and the resigner is recorded as beaten."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row = loaded.row
        seat = row.seat_of(user_id)
        if seat is None:
            raise TurnRefused("not_seated", "core.ui.not_seated")
        if [u for u in row.humans if u != user_id]:
            return await self.handover(game_id, seat, None)
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            outcome = {
                "winners": [],
                "scores": {},
                "reason": {"key": "core.ui.resigned_outcome", "params": {"seat": seat}},
            }
            results = [ResultRow(seat=seat, user_id=user_id, place=len(row.seats) + 1, won=False)]
            try:
                row.version = await self.store.update_game(
                    row.id, row.version, status="finished", outcome=outcome, to_act=[], results=results
                )
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            row.status = "finished"
            return TurnResult(row, game, state, [], [])

    # ---------------------------------------------------------- render
    async def render(self, game: Game, state: BaseState, seat: str | None, locale: str) -> bytes:
        with self.stage("render"):
            view = game.view(state, seat)
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self.executor, render, game.id, view, locale)
            except Exception:  # a broken picture must not lose the turn: draw the fallback board
                log.exception("renderer for %s failed; using the fallback image", game.id)
                lines = [game.summary(state).text(locale)] + [
                    f"{s}: {game.prompt(state, s).text(locale)}" for s in game.to_act(state)
                ]
                return await loop.run_in_executor(
                    self.executor, render_fallback, view, locale, t(f"discord.game.{game.id}", locale), lines
                )


__all__ = ["Loaded", "Pipeline", "TurnRefused", "TurnResult", "placings"]


def log_entry(game: Game, seat: str, user_id: int | None, action: Any, events: Sequence[Event]) -> ActionRow:
    """One row of the action log: who acted, the action and what it caused (all JSON)."""
    return ActionRow(
        seat=seat,
        user_id=user_id,
        action=game.parse_action(action).model_dump(mode="json"),
        events=game.dump_events(events),
    )


def placings(row: GameRow, game: Game, state: BaseState) -> list[ResultRow]:
    """Places for the human seats of a finished game: winners 1st, the rest from
    2nd by score (highest first) when the game scores, else all 2nd."""
    out = game.outcome(state)
    assert out is not None
    ranked: dict[str, int] = {s: 1 for s in out.winners}
    others = [s.seat for s in row.seats if s.seat not in ranked]
    scores = out.scores
    # a table nobody won (a lost solo or co-operative game) ranks everyone behind a winner
    if scores:
        values = sorted({scores.get(s, float("-inf")) for s in others}, reverse=True)
        for seat in others:
            ranked[seat] = 2 + values.index(scores.get(seat, float("-inf")))
    else:
        for seat in others:
            ranked[seat] = 2
    return [
        ResultRow(
            seat=s.seat,
            user_id=s.user_id,
            place=ranked[s.seat],
            won=s.seat in out.winners,
            score=scores.get(s.seat),
            record=game.record(state, s.seat),
        )
        for s in row.seats
        if s.user_id is not None
    ]

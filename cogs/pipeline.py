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
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine import GameError, get_game
from engine.base import BaseState, Event, Game
from engine.i18n import t
from render import render
from render.generic import draw as render_fallback
from store import ActionRow, CorruptRow, GameRow, Store, VersionConflict
from store.base import dumps

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
    def from_game_error(cls, exc: GameError) -> "TurnRefused":
        return cls(exc.code, exc.key, **exc.params)


@dataclass
class TurnResult:
    row: GameRow
    game: Game
    state: BaseState
    events: list[Event]
    actors: list[str] = field(default_factory=list)

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
    async def load(self, game_id: int | None = None, *, channel_id: int | None = None,
                   statuses: Sequence[str] = ("active",)) -> Loaded:
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
    async def act(self, game_id: int, user_id: int | None, pick: Picker, *, expected_version: int | None = None,
                  seat: str | None = None) -> TurnResult:
        """Apply the action ``pick`` chooses for ``user_id``'s seat (or ``seat``
        for a system actor such as a timer, ``user_id=None``)."""
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
            if seat not in game.to_act(state):
                raise TurnRefused("not_your_turn", "core.error.not_your_turn")
            with self.stage("apply"):
                legal = game.legal_actions(state, seat)
                try:
                    action = pick(game, state, seat, legal)
                    state, events = game.apply(state, seat, action)
                except GameError as exc:
                    raise TurnRefused.from_game_error(exc) from None
                entries = [ActionRow(seat=seat, user_id=user_id, action=game.parse_action(action).model_dump(mode="json"),
                                     events=game.dump_events(events))]
                state, ai_entries, ai_events = self.run_ai(row, game, state)
                entries += ai_entries
                events = events + ai_events
                outcome = game.outcome(state)
            with self.stage("save"):
                try:
                    version = await self.store.update_game(
                        row.id, row.version, state_json=state.model_dump_json(), actions=entries,
                        status="finished" if outcome else None,
                        outcome=outcome.model_dump(mode="json") if outcome else None)
                except VersionConflict:
                    raise TurnRefused("stale", "core.ui.stale") from None
            row.version = version
            row.state_json = None  # the caller has ``state``; avoid keeping two copies
            if outcome:
                row.status = "finished"
            return TurnResult(row, game, state, events, [e.seat for e in entries])

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
            entries.append(ActionRow(seat=seat, user_id=None, action=game.parse_action(action).model_dump(mode="json"),
                                     events=game.dump_events(evs)))
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
        state, entries, events = self.run_ai(row, game, state)
        outcome = game.outcome(state)
        try:
            version = await self.store.update_game(
                row.id, row.version, status="finished" if outcome else "active", state_json=state.model_dump_json(),
                actions=entries, outcome=outcome.model_dump(mode="json") if outcome else None)
        except VersionConflict:
            raise TurnRefused("stale", "core.ui.stale") from None
        row.version, row.status = version, ("finished" if outcome else "active")
        return TurnResult(row, game, state, events, [e.seat for e in entries])

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
                    f"{s}: {game.prompt(state, s).text(locale)}" for s in game.to_act(state)]
                return await loop.run_in_executor(self.executor, render_fallback, view, locale,
                                                  t(f"discord.game.{game.id}", locale), lines)


def outcome_dict(game: Game, state: BaseState) -> dict[str, Any] | None:
    out = game.outcome(state)
    return None if out is None else out.model_dump(mode="json")


__all__ = ["Loaded", "Pipeline", "TurnRefused", "TurnResult", "dumps", "outcome_dict"]

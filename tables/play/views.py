"""What a seat sees of a table: the choices it is offered (numbered, with the
places they mark on the board), the board image and the time banks.  Read-only;
each computed once per table version."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from engine.base import BaseState, Game, SeatLabels
from engine.i18n import t
from engine.locales import DEFAULT
from render import render
from render.generic import draw as render_fallback
from store import GameRow
from tables.core.kernel import Kernel
from tables.rules import clocks, panels
from tables.rules.choices import Choice, choices, describe, destinations, numbering

log = logging.getLogger("tabletop.tables")


class Views:
    """What a seat sees, computed off the event loop once per table version."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self._choices: dict[tuple[int, int, str], list[Choice]] = {}
        self._marks: dict[tuple[int, int, str], tuple[list[int | None], dict[str, int]]] = {}
        #: labels of logged steps already read, for log lines (tables/seeing/logtext.py)
        self.step_labels: dict[tuple, str] = {}

    async def choices(self, row: GameRow, game: Game, state: BaseState, seat: str) -> list[Choice]:
        """What ``seat`` is offered now (see :mod:`tables.rules.choices`), computed off
        the event loop once per table version."""
        return await once_per_version(
            self._choices, (row.id, row.version, seat), lambda: self.k.off_loop(choices, game, state, seat)
        )

    async def panel_token(self, row: GameRow, game: Game, state: BaseState, seat: str) -> int:
        """The choice token a private panel of ``seat`` carries now (:mod:`tables.rules.panels`)."""
        offered = await self.choices(row, game, state, seat)
        described = await self.k.off_loop(describe, game, state, seat, offered, DEFAULT)
        return panels.offer_token(game, state, seat, offered, described)

    async def numbered(
        self, row: GameRow, game: Game, state: BaseState, seat: str
    ) -> tuple[list[int | None], dict[str, int]]:
        """Each offered choice's number and the board's ``{location: number}``
        (:func:`tables.rules.choices.numbering` of the places the choices mark), once
        per table version."""

        async def compute() -> tuple[list[int | None], dict[str, int]]:
            offered = await self.choices(row, game, state, seat)
            return numbering(await self.k.off_loop(destinations, game, state, seat, offered))

        return await once_per_version(self._marks, (row.id, row.version, seat), compute)

    async def offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> list[tuple[int, str, str]]:
        """(choice index, label, group) of what ``seat`` is offered now, for its
        buttons; a choice that marks a place on the board starts with its number."""
        offered, _ = await self.board_offer(row, game, state, seat, locale, labels)
        return offered

    async def board_offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> tuple[list[tuple[int, str, str]], dict[str, int]]:
        """What ``seat`` is offered (as :meth:`offer`) and the marks the same
        choices put on the board image (pass them to :meth:`render`)."""
        offered = await self.choices(row, game, state, seat)
        numbers, marks = await self.numbered(row, game, state, seat)
        described = await self.k.off_loop(describe, game, state, seat, offered, locale, labels, numbers)
        return [(i, label, group) for i, (label, group) in enumerate(described)], marks

    async def render(
        self,
        game: Game,
        state: BaseState,
        seat: str | None,
        locale: str,
        labels: SeatLabels | None = None,
        marks: Mapping[str, int] | None = None,
    ) -> bytes:
        """The board image; ``marks``: the offered choices' numbered places
        (:meth:`board_offer`), drawn on the board."""
        with self.k.stage("render"):
            view = game.view(state, seat, labels)
            if marks and "marks" in type(view).model_fields:
                view = view.model_copy(update={"marks": dict(marks)})
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self.k.executor, render, game.id, view, locale)
            except Exception:  # a broken picture must not lose the turn: draw the fallback board
                log.exception("renderer for %s failed; using the fallback image", game.id)
                lines = [game.summary(state).text(locale)] + [
                    f"{s}: {game.prompt(state, s).text(locale)}" for s in game.to_act(state)
                ]
                return await loop.run_in_executor(
                    self.k.executor, render_fallback, view, locale, t(f"{game.id}.name", locale), lines
                )

    async def bank_lines(
        self, row: GameRow, now: float | None = None
    ) -> list[tuple[str, int | None, float, bool, float | None]]:
        """(seat, member, when its bank runs out or seconds left, waiting?, away until)
        per seat of a table with a clock profile: waiting seats get the time their bank
        runs out (for a Discord timestamp; a vacation's pause included), the others
        what their bank holds."""
        clock = clocks.of(row.table)
        if clock is None or not clock.get("banks"):
            return []
        now = self.k.clock() if now is None else now
        away = await self.k.away(row)
        out: list[tuple[str, int | None, float, bool, float | None]] = []
        for s in row.seats:
            periods = away.get(s.seat, [])
            until = next((b for a, b in periods if a <= now < b), None)
            waiting = s.seat in row.to_act and row.status == "active"
            if waiting:
                end = clocks.runs_out(clock, s.seat, periods)
                out.append((s.seat, s.user_id, end if end is not None else now, True, until))
            else:
                out.append((s.seat, s.user_id, clocks.left(clock, s.seat, now, waiting=False), False, until))
        return out


T = TypeVar("T")


async def once_per_version(cache: dict[Any, T], key: Any, compute: Callable[[], Awaitable[T]]) -> T:
    """``cache[key]``, computed once (keys carry the table version, so a saved change
    makes new ones; the cache is emptied when it holds more than 512)."""
    found = cache.get(key)
    if found is None:
        found = await compute()
        if len(cache) > 512:
            cache.clear()
        cache[key] = found
    return found

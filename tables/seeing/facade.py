"""The facade's seeing verbs: what a viewer sees (tables/seeing/verbs.py, which reads
down through tables/seeing/reads.py).  One of the verb classes :class:`TableService`
is made of (tables/core/facade.py says how)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.base import BaseState, Game, SeatLabel
from store import ActionRow, GameRow
from tables.seeing.board import Board, Frame
from tables.seeing.catchup import Catchup
from tables.seeing.live import TableWatch
from tables.seeing.verbs import Seeing


class SeeingVerbs:
    """The seeing rooms' verbs (the service makes :attr:`seeing` and :attr:`watch`)."""

    seeing: Seeing
    watch: TableWatch

    # ---------------------------------------------------------- boards (tables/seeing/verbs.py)
    async def board(self, table: GameRow | int, viewer: int | None, locale: str, **how: Any) -> Board:
        return await self.seeing.board(table, viewer, locale, **how)

    async def frame(self, row: GameRow, position: int, locale: str, **how: Any) -> Frame:
        return await self.seeing.frame(row, position, locale, **how)

    async def public(self, row: GameRow) -> bool:
        return await self.seeing.public(row)

    async def catchup(self, row: GameRow, game: Game, state: BaseState, user_id: int) -> Catchup:
        return await self.seeing.catchup(row, game, state, user_id)

    async def log_words(
        self,
        row: GameRow,
        game: Game,
        lines: Mapping[int, Sequence[ActionRow]],
        viewer: str | None,
        locale: str,
        labels: Mapping[str, SeatLabel],
    ) -> dict[int, str]:
        return await self.seeing.log_words(row, game, lines, viewer, locale, labels)

    # ---------------------------------------------------------- live pages (tables/seeing/live.py)
    async def watch_tables(self) -> None:
        await self.watch.watch_tables()

    async def stop_watching(self) -> None:
        await self.watch.stop_watching()

    def watch_table(self, game_id: int, version: int) -> asyncio.Queue[int]:
        return self.watch.watch_table(game_id, version)

    def unwatch_table(self, game_id: int, q: asyncio.Queue[int]) -> None:
        self.watch.unwatch_table(game_id, q)

    def on_table_change(self, listener: Callable[[int, int], None]) -> None:
        self.watch.on_table_change(listener)

"""The facade's kernel verbs: what callers ask of the kernel (tables/core/kernel.py).

:class:`TableService` (tables/service.py) is made of one verb class per layer: this one,
tables/play/facade.py, tables/seeing/facade.py and tables/people/facade.py.  Each verb
hands its call to the room of its layer that owns it, by the room's own name and
signature (tests/test_table_service.py); the service makes the rooms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import BaseState, Event, Game
from store import ActionRow, GameRow, Owed
from tables.core.common import Loaded
from tables.core.kernel import Kernel


class KernelVerbs:
    """The kernel's verbs (the service sets :attr:`kernel`)."""

    kernel: Kernel

    # ---------------------------------------------------------- kernel
    async def row(self, game_id: int | None = None, *, channel_id: int | None = None) -> GameRow | None:
        return await self.kernel.row(game_id, channel_id=channel_id)

    async def open_state(self, row: GameRow) -> tuple[Game, BaseState]:
        return await self.kernel.open_state(row)

    async def load(
        self, game_id: int | None = None, *, channel_id: int | None = None, statuses: Sequence[str] = ("active",)
    ) -> Loaded:
        return await self.kernel.load(game_id, channel_id=channel_id, statuses=statuses)

    def owed(
        self, notes: Sequence[dict[str, Any]] = (), kind: str = "board", dms: Sequence[tuple[int, str]] = ()
    ) -> Owed:
        return self.kernel.owed(notes, kind, dms)

    def run_ai(
        self, row: GameRow, game: Game, state: BaseState, *, forced: bool = True
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        return self.kernel.run_ai(row, game, state, forced=forced)

    async def off_loop(self, fn, *args):
        return await self.kernel.off_loop(fn, *args)

    async def check(self) -> None:
        await self.kernel.check()

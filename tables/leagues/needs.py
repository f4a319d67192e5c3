"""What a league needs of the tables it runs (issue 30 item 3): the narrow interface
the league rooms are handed instead of the facade above them.  The facade
(tables/service.py :class:`TableService`) satisfies it structurally; a league never
imports the facade (tests/test_architecture.py: the layers import downwards)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from store.ports import LeagueStepStore, LeagueStore
from tables.core.common import Loaded, TurnResult
from tables.core.kernel import Kernel
from tables.play.lobby import Lobby
from tables.play.seats import Seats


class LeagueStores(LeagueStore, LeagueStepStore, Protocol):
    """The store's roles a league uses: its own rows and steps (and, through them, the
    tables it opened: their lock, rows and logs)."""


class LeagueTables(Protocol):
    """The tables a league opens, decides and resigns from: the kernel (the deadline's
    one commit), the lobby (a round's tables start), the seats (a replaced player's hand-over)."""

    kernel: Kernel
    lobbies: Lobby
    seats: Seats

    @property
    def store(self) -> LeagueStores: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    async def load(
        self, game_id: int | None = None, *, channel_id: int | None = None, statuses: Sequence[str] = ("active",)
    ) -> Loaded: ...

    async def off_loop(self, fn: Any, *args: Any) -> Any: ...

    async def limits(self, guild_id: int | None) -> dict[str, int]: ...

    async def resign(self, game_id: int, user_id: int) -> TurnResult: ...

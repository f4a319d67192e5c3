"""The calls several roles share, each declared here once, in a small protocol of its own;
the roles (store/ports/play.py, store/ports/community.py) inherit the ones they make."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from ..rows import (
    ActionRow,
    Campaign,
    Caps,
    GameRow,
    RatingRow,
    ReplaySource,
    Seat,
)


class Locking(Protocol):
    """The per-key lock of one process (the lobby, seats, the scheduler and leagues serialise their own races with it)."""

    def lock(self, key: Hashable) -> AbstractAsyncContextManager[None]:
        """Per-key lock inside this process (saves racing ourselves); the
        compare-and-swap in :meth:`commit` is what keeps other processes right."""


class TableById(Protocol):
    """One table by id."""

    async def get_game(self, game_id: int) -> GameRow | None:
        """Raises :class:`CorruptRow` when the row cannot be read."""


class LatestTable(Protocol):
    """A channel's latest table of some statuses."""

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        """The channel's most recent table (highest id) with one of ``statuses``."""


class TableCreation(Protocol):
    """Open a table (a lobby, or a league's table)."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        locale: str | None = None,
        status: str = "lobby",
        state_json: str | None = None,
        table: dict[str, Any] | None = None,
        campaign_id: int | None = None,
        caps: Caps | None = None,
    ) -> GameRow:
        """A new table with its seats, in one transaction.  Raises
        :class:`ChannelBusy` when the channel already has a lobby or running
        table (enforced by the database, so also across processes), and
        :class:`LimitReached` when ``caps`` are given and the host (lobbies they host)
        or the server (its lobbies) already has that many lobbies, counted in the
        same transaction."""


class ActionLog(Protocol):
    """A table's effective log."""

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        """The effective log (taken-back actions left out), oldest first."""


class ActionCount(Protocol):
    """How long a table's log is."""

    async def count_actions(self, game_id: int) -> int: ...


class Replay(Protocol):
    """What rebuilding a state needs (snapshots are a cache: see store/base.py)."""

    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        """From one read snapshot: the latest snapshot stored under ``key`` that
        serves the request, and the effective actions after it.

        ``turn``: to rebuild the state after the first ``turn`` actions (the
        actions stop there).  ``user_id``: to take back that member's last
        decision (a step the platform took for them, a forced single choice, is none):
        the snapshot lies before it, the actions run to the end of the
        log and ``cut`` indexes that action (``None``: the member has none).
        Neither: the whole log.  ``key=None`` uses no snapshot."""


class RatingReads(Protocol):
    """Ratings of a server's members."""

    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]: ...


class CampaignByName(Protocol):
    """A server's campaign by name."""

    async def campaign(self, guild_id: int, name: str) -> Campaign | None: ...


class CampaignById(Protocol):
    """A campaign by id."""

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None: ...


class Health(Protocol):
    """Is the database still writable."""

    async def check(self) -> None:
        """Raise :class:`StoreUnavailable` when the database this store opened can no
        longer be written (called before every commit by the backend, and by the
        scheduler's periodic pass so a lost database is noticed while nobody plays)."""


class SessionsEnd(Protocol):
    """End every web sign-in of a member."""

    async def web_tokens_end(self, user_id: int) -> int:
        """Remove every link and session of a member; how many there were."""

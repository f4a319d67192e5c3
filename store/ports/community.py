"""The roles of the features around tables: members (follows, privacy, settings, display
names, web sign-ins), campaigns, leagues."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..rows import (
    ACTIVE_STATUSES,
    Campaign,
    Caps,
    FollowRow,
    GameRow,
    LeagueRow,
    ResultRow,
    StatRow,
)
from .shared import (
    ActionLog,
    CampaignById,
    CampaignByName,
    LatestTable,
    Locking,
    RatingReads,
    SessionsEnd,
    TableById,
    TableCreation,
)


@runtime_checkable
class PeopleStore(LatestTable, Protocol):
    """tables/people/mine.py: /mine and follows."""

    async def games_of_user(
        self, user_id: int, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE_STATUSES
    ) -> list[GameRow]: ...

    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        """Start (or change) following a table."""

    async def unfollow(self, game_id: int, user_id: int) -> bool: ...

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        """Follows whose table moved on since they last heard: "turn" ones at once,
        "digest" ones when ``digest_seconds`` passed since the last digest."""

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        """Claim one delivery: True only while the follow is still at ``previous``."""

    async def followers_closed(self, game_id: int) -> bool: ...

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        """Close (or reopen) a table to followers; closing ends every follow of it."""


@runtime_checkable
class PrivacyStore(SessionsEnd, Protocol):
    """tables/people/privacy.py: what the bot keeps about a member, and forgetting it (both walk store/privacy.py's ``PERSONAL_DATA``)."""

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """What is kept about a member, counted per kind (:func:`personal_footprint`):
        with ``guild_id`` only that server's data and no personal settings."""

    async def forget_user(self, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
        """In one transaction (:func:`forget_personal`): refused with :class:`StillSeated`
        while the member sits at a lobby or running table (of ``guild_id``'s server), else
        every place that keeps their id is cleared, in running and finished tables alike:
        results, ratings, follows, limits' events (and, unless ``guild_id`` limits it to one
        server, their preferences) deleted; ``anon_id`` put in their place in seats, host,
        action logs, reverts, votes and campaign rosters (replays and exports keep working:
        they use seats, not members).  Returns counts."""


@runtime_checkable
class CampaignStore(RatingReads, CampaignByName, CampaignById, Protocol):
    """tables/play/campaigns.py, tables/people/community.py, standings.py: campaigns, their standings, stats and ratings."""

    async def create_campaign(
        self,
        *,
        guild_id: int,
        game: str,
        name: str,
        points: list[int],
        created_by: int,
        progress: dict[str, Any] | None = None,
        caps: Caps | None = None,
    ) -> Campaign:
        """Raises :class:`ChannelBusy` when the server has a campaign of that name, and
        :class:`LimitReached` when ``caps`` are given and the creator or the server
        already has that many open campaigns (counted in the same transaction)."""

    async def campaigns(self, guild_id: int) -> list[Campaign]: ...

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]: ...

    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]: ...


@runtime_checkable
class LeagueStore(Locking, TableById, TableCreation, ActionLog, RatingReads, Protocol):
    """tables/leagues/setup.py, rounds.py, rules.py: leagues, their steps, their tables and results."""

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        format: str,
        config: dict[str, Any],
        state: dict[str, Any],
        created_by: int,
        caps: Caps | None = None,
    ) -> LeagueRow:
        """Raises :class:`ChannelBusy` when the server has a league of that name."""

    async def league(self, league_id: int) -> LeagueRow | None: ...

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None: ...

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        """A server's leagues (every server's with ``guild_id`` None), oldest first."""

    async def update_league(
        self,
        league_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        state: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
    ) -> int:
        """One change to a league, only while it is at ``expected_version`` (else
        :class:`VersionConflict`); returns the new version."""

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        """The recorded placings of these tables (finished ones only), by table."""


@runtime_checkable
class LeagueStepStore(Protocol):
    """tables/leagues/rounds.py and deadline.py: a league pass's steps, each claimed once across
    processes for a lease, done only when its effect is, given back when it could not be."""

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        """Claim one step of a league round (open a table, decide at the deadline, ...):
        True for exactly one caller across processes, unless the claim is older than
        ``lease`` seconds and was never marked done (its process died: claimable again)."""

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None: ...

    async def release_league_step(self, league_id: int, round: int, step: str) -> None:
        """Give back a claimed step whose effect did not happen (claimable again at once)."""


@runtime_checkable
class SettingsStore(Protocol):
    """tables/rules/settings.py and tables/people/members.py: server settings and member preferences (read-modify-write in
    one transaction, the row locked: two admins changing different settings at once both keep theirs)."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Replace a server's settings by ``change(current)``, where ``current`` is read
        in the same write transaction with the row locked (also against other processes);
        returns what was written.  ``change`` may raise: then nothing is written."""

    async def user_prefs(self, user_id: int) -> dict[str, Any]: ...

    async def update_user_prefs(
        self, user_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Like :meth:`update_guild_settings`, for a member's preferences (and re-times
        the member's waiting seats: a vacation moves their due times)."""

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None: ...


@runtime_checkable
class WebSessionStore(SessionsEnd, Protocol):
    """tables/people/web_sessions.py: the web companion's sign-in links and sessions, by token hash."""

    async def meta_default(self, key: str, value: str) -> str:
        """The stored value of ``key``, storing ``value`` first when there is none
        (two processes racing both get the one value that was stored)."""

    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None: ...

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        """Remove a token and return its (member, table) when it had not expired: each
        token is taken once, even by two processes at the same moment."""

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None: ...

    async def web_tokens_purge(self, now: float) -> int: ...


@runtime_checkable
class CalendarStore(Protocol):
    """tables/people/calendar.py: each member's calendar feed, found by its secret's hash."""

    async def calendar_feed_put(self, user_id: int, token_hash: str, now: float, *, replace: bool) -> bool:
        """Store the member's feed secret (its hash); with ``replace`` over the one they had
        (which then opens nothing), else only when they had none.  Whether it was stored."""

    async def calendar_feed_member(self, token_hash: str) -> int | None:
        """The member whose feed secret has this hash (None: no such feed)."""


@runtime_checkable
class NotifyStore(Protocol):
    """tables/people/notify.py: notifications sent once (a clock alert, a day's digest), claimed
    by their key across processes, and when a member last acted at a table."""

    async def notify_claim(self, key: str, user_id: int, now: float) -> bool:
        """Claim sending ``key`` (to ``user_id``): True for the one caller that inserted it first."""

    async def notify_release(self, key: str) -> None:
        """Give a claim back (sending failed: it may be sent later)."""

    async def notify_claimed(self, key: str) -> bool:
        """Whether ``key`` was claimed (sent, or being sent)."""

    async def last_acted(self, game_id: int, user_id: int) -> float | None:
        """When the member last took a step at the table (None: never)."""


@runtime_checkable
class NameStore(Protocol):
    """tables/people/names.py: members' display names per server (guild id 0: outside any server), read by every
    process (the web companion's pages)."""

    async def member_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored display names of these members on that server (missing ones left out)."""

    async def set_member_name(self, guild_id: int, user_id: int, name: str, now: float, *, create: bool = True) -> bool:
        """Store a member's display name on a server; whether a row changed (an unchanged
        name writes nothing; ``create=False``: only a name already stored is refreshed)."""

"""The facade's people verbs: members' tables, follows and privacy, standings and
campaigns, display names, server settings, the companion's sign-in links.  One of the
verb classes :class:`TableService` is made of (tables/core/facade.py says how)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from store import Campaign, GameRow, RatingRow, StatRow
from tables.core.kernel import Kernel
from tables.people import standings
from tables.people.calendar import Calendar, Deadline
from tables.people.community import Community
from tables.people.mine import People
from tables.people.names import MemberNames
from tables.people.notify import Notify, Reach
from tables.people.privacy import ForgetHook
from tables.people.web_sessions import LINK_SECONDS, WebSessions
from tables.rules.notify import NotifyPolicy


class PeopleVerbs:
    """The people rooms' verbs (the service makes the rooms)."""

    kernel: Kernel
    people: People
    community: Community
    names: MemberNames
    web_sessions: WebSessions
    calendar: Calendar
    notify: Notify

    # ---------------------------------------------------------- people
    async def mine(self, user_id: int, guild_id: int | None) -> list[tuple[GameRow, str | None, float | None]]:
        return await self.people.mine(user_id, guild_id)

    async def follow(self, channel_id: int, user_id: int, mode: str = "turn") -> GameRow:
        return await self.people.follow(channel_id, user_id, mode)

    async def unfollow(self, user_id: int, channel_id: int | None = None, game_id: int | None = None) -> int:
        return await self.people.unfollow(user_id, channel_id, game_id)

    async def close_to_followers(self, channel_id: int, user_id: int, closed: bool, *, admin: bool = False) -> GameRow:
        return await self.people.close_to_followers(channel_id, user_id, closed, admin=admin)

    async def follow_updates(self, now: float, digest_seconds: float = 86400.0):
        return await self.people.follow_updates(now, digest_seconds)

    async def follow_sent(self, game_id: int, user_id: int, version: int, previous: int, now: float) -> bool:
        return await self.people.follow_sent(game_id, user_id, version, previous, now)

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        return await self.people.footprint(user_id, guild_id)

    async def forget(self, user_id: int, guild_id: int | None = None) -> dict[str, int]:
        return await self.people.forget(user_id, guild_id)

    # ------------------------------------------- people: standings, names, settings, the companion
    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[standings.Ranked]:
        return await self.community.leaderboard(guild_id, game, limit)

    async def opening_game(self, guild_id: int) -> str:
        return await self.community.opening_game(guild_id)

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        return await self.community.campaign_by_id(campaign_id)

    async def server_campaigns(self, guild_id: int | None) -> list[Campaign]:
        return await self.community.server_campaigns(guild_id)

    async def campaign_standings(self, campaign: Campaign | int) -> list[tuple[int, int, int, int]]:
        return await self.community.campaign_standings(campaign)

    async def note_name(self, guild_id: int | None, user_id: int, name: str | None, *, create: bool = True) -> bool:
        return await self.names.note_name(guild_id, user_id, name, create=create)

    async def fill_names(self, guild_id: int | None, found: Mapping[int, str]) -> None:
        await self.names.fill_names(guild_id, found)

    async def server_settings(self, guild_id: int | None) -> dict[str, Any]:
        return await self.kernel.settings.server_settings(guild_id)

    async def link_token(self, user_id: int, game_id: int | None = None, seconds: float = LINK_SECONDS) -> str:
        return await self.web_sessions.link_token(user_id, game_id, seconds)

    def on_forget(self, hook: ForgetHook) -> None:
        self.people.privacy.on_forget(hook)

    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        return await self.community.stats(guild_id, game=game, user_id=user_id)

    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]:
        return await self.community.ratings(guild_id, game, user_ids)

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        return await self.community.campaign(guild_id, name)

    async def names_of(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]:
        return await self.names.names_of(guild_id, members)

    async def redeem_link(self, token: str) -> tuple[str, int, int | None] | None:
        return await self.web_sessions.redeem_link(token)

    async def session_member(self, sid: str | None) -> int | None:
        return await self.web_sessions.session_member(sid)

    async def sign_out(self, sid: str) -> None:
        await self.web_sessions.sign_out(sid)

    # ------------------------------------------- people: the calendar feed
    async def calendar_secret(self, user_id: int, *, replace: bool = False) -> str | None:
        return await self.calendar.calendar_secret(user_id, replace=replace)

    async def calendar_member(self, secret: str) -> int | None:
        return await self.calendar.calendar_member(secret)

    async def calendar_deadlines(self, user_id: int) -> list[Deadline]:
        return await self.calendar.calendar_deadlines(user_id)

    # ------------------------------------------- people: the notification policy
    async def notify_settings(self, user_id: int) -> NotifyPolicy:
        return await self.notify.notify_settings(user_id)

    async def set_notify(
        self, user_id: int, event: str, way: str, game: str | None = None, table: int | None = None
    ) -> NotifyPolicy:
        return await self.notify.set_notify(user_id, event, way, game, table)

    async def set_quiet_hours(self, user_id: int, tz: str, start: int | None, end: int | None) -> NotifyPolicy:
        return await self.notify.set_quiet_hours(user_id, tz, start, end)

    async def set_digest_hour(self, user_id: int, hour: int) -> NotifyPolicy:
        return await self.notify.set_digest_hour(user_id, hour)

    async def reach(
        self, event: str, users: Iterable[int], row: GameRow | None = None, now: float | None = None
    ) -> Reach:
        return await self.notify.reach(event, users, row, now)

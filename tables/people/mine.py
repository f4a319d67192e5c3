"""People: a member's own tables (``/mine``), following a table, and privacy
(what is kept about a member, and forgetting them)."""

from __future__ import annotations

from typing import Any

from store import GameRow, StillSeated
from store.ports import PeopleStore
from tables.core.common import FINISHED, TurnRefused
from tables.core.kernel import Kernel
from tables.people.privacy import Privacy
from tables.people.web_sessions import end_sessions
from tables.rules import clocks
from tables.rules.clocks import away_periods, runs_out_at


class People:
    """A member's tables, follows and privacy."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: PeopleStore = kernel.backend
        self.privacy = Privacy(kernel.backend)

    async def mine(self, user_id: int, guild_id: int | None) -> list[tuple[GameRow, str | None, float | None]]:
        """The member's lobby and running tables here, most urgent first: (row, seat,
        when their time runs out, if the table waits for them and keeps a clock).
        Tables waiting for them come first, the soonest deadline first; then the rest."""
        rows = await self.store.games_of_user(user_id, guild_id)
        out = []
        for row in rows:
            seat = row.seat_of(user_id)
            deadline = None
            if seat is not None and seat in row.to_act and row.status == "active":
                settings = await self.k.settings.server_settings(row.guild_id)
                away = away_periods(await self.k.settings.user(user_id))
                clock = clocks.of(row.table)
                timer = float(row.table.get("turn_timer", settings["turn_timer"]) or 0)
                if clock is not None and clock.get("banks"):
                    deadline = clocks.runs_out(clock, seat, away)
                elif timer:
                    deadline = runs_out_at(row.turn_started_at or row.updated_at, timer * 60, away)
            out.append((row, seat, deadline))

        def urgency(item):
            row, seat, deadline = item
            waiting = seat in row.to_act and row.status == "active"
            return (0 if waiting else 1 if row.status == "active" else 2, deadline or float("inf"), row.id)

        return sorted(out, key=urgency)

    async def follow(self, channel_id: int, user_id: int, mode: str = "turn") -> GameRow:
        """Follow the channel's running table ("turn": each turn's summary; "digest": daily)."""
        row = await self.k.row(channel_id=channel_id)
        if row is None or row.status != "active":
            raise TurnRefused("no_game", "core.ui.no_game")
        if mode not in ("turn", "digest"):
            raise TurnRefused("bad_mode", "asyncplay.follow_bad_mode")
        if await self.store.followers_closed(row.id):
            raise TurnRefused("closed", "asyncplay.follow_closed", id=row.id)
        await self.store.follow(row.id, user_id, mode, row.version)
        return row

    async def unfollow(self, user_id: int, channel_id: int | None = None, game_id: int | None = None) -> int:
        """Stop following this channel's table (or table ``game_id``); its id."""
        if game_id is None:
            row = await self.k.row(channel_id=channel_id)
            if row is None:
                row = await self.store.latest_game(channel_id, FINISHED) if channel_id is not None else None
            if row is None:
                raise TurnRefused("no_game", "core.ui.no_game")
            game_id = row.id
        if not await self.store.unfollow(game_id, user_id):
            raise TurnRefused("not_following", "asyncplay.not_following", id=game_id)
        return game_id

    async def close_to_followers(self, channel_id: int, user_id: int, closed: bool, *, admin: bool = False) -> GameRow:
        """The host (or an admin) closes the table to followers (ending every follow) or opens it."""
        row = await self.k.row(channel_id=channel_id)
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if user_id != row.host_id and not admin:
            raise TurnRefused("host_only", "core.ui.host_only")
        await self.store.set_followers_closed(row.id, closed)
        return row

    async def follow_updates(self, now: float, digest_seconds: float = 86400.0):
        """Deliveries due to followers: (follow, table row, game, public state). The caller
        sends each and then claims it with :meth:`follow_sent` (so each goes out once)."""
        out = []
        for f in await self.store.due_follows(now, digest_seconds):
            try:
                loaded = await self.k.load(f.game_id, statuses=("active", *FINISHED))
            except TurnRefused:
                continue
            out.append((f, loaded.row, loaded.game, loaded.state))
        return out

    async def follow_sent(self, game_id: int, user_id: int, version: int, previous: int, now: float) -> bool:
        return await self.store.mark_follow_sent(game_id, user_id, version, now, previous)

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """What is kept about the member (see tables/people/privacy.py); ``guild_id``: that server's only."""
        return await self.privacy.footprint(user_id, guild_id)

    async def forget(self, user_id: int, guild_id: int | None = None) -> dict[str, int]:
        """Forget the member at every table they sat at or hosted, running or finished
        (see tables/people/privacy.py); refused, naming the tables, while they still sit at a
        lobby or running table (resign first)."""
        try:
            counts = await self.privacy.forget(user_id, guild_id)
        except StillSeated as exc:
            ids = ", ".join(f"#{i}" for i in exc.game_ids)
            raise TurnRefused("still_seated", "asyncplay.forget_seated", ids=ids) from None
        counts["web_sessions"] = await end_sessions(self.privacy.store, user_id)  # signed in on the web: signed out
        return counts

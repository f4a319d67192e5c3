"""The lobby: opening a table, joining, leaving, AI seats, starting (the first
state and the AI seats' opening moves, one commit), cancelling and abandoning;
the server's limits on lobbies and threads, and expiring idle lobbies."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import GameError, available, get_game
from store import ChangeSet, ChannelBusy, GameChange, GameRow, LimitReached, Seat, VersionConflict
from store.ports import LobbyStore
from tables.core.common import LobbyResult, TurnRefused, TurnResult, limit_refused
from tables.core.kernel import Kernel, private_dms, written
from tables.play.campaigns import campaign_setup
from tables.rules import clocks, limits
from tables.rules.levels import TABLE_KEY, check_level, table_level
from tables.rules.text import quote


class Lobby:
    """A table before it starts, and its end by the host; every change through the kernel."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: LobbyStore = kernel.backend

    async def open_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        host_id: int,
        options: dict[str, Any],
        ai: int,
        seed: int,
        locale: str | None,
        table: dict[str, Any],
        campaign: str | None = None,
        ai_level: str | None = None,
    ) -> LobbyResult:
        """A new table with the host seated (and ``ai`` AI seats at ``ai_level``,
        which is also the table's level: see tables/rules/levels.py); a game that
        needs nobody else starts at once."""
        if game_id not in available():
            raise TurnRefused("unknown_game", "core.error.bad_options", detail=quote(game_id))
        game = get_game(game_id)
        camp = None
        if campaign:
            camp = await self.store.campaign(guild_id, campaign) if guild_id is not None else None
            if camp is None or camp.game != game_id:
                raise TurnRefused("no_campaign", "core.ui.no_campaign", name=quote(campaign))
        try:
            opts = game.parse_options(options).model_dump(mode="json")
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        try:
            level = check_level(game, ai_level)
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        if ai_level is not None:
            table = {**table, TABLE_KEY: level}
        lo, hi = game.seat_range(opts)
        if not 0 <= ai <= hi - 1:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=0, hi=hi - 1)
        seats = [Seat("p1", host_id)] + [Seat(f"p{i + 2}", None, level) for i in range(ai)]
        table = with_clock(table)
        waits = not (hi == 1 or len(seats) == hi)  # a lobby that waits for players counts against the caps
        caps = limits.caps(await self.limits(guild_id), "lobbies") if waits and guild_id is not None else None
        try:
            row = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_id,
                host_id=host_id,
                options=opts,
                seed=seed,
                seats=seats,
                locale=locale,
                table=table,
                campaign_id=camp.id if camp else None,
                caps=caps,
            )
        except ChannelBusy:
            raise TurnRefused("channel_busy", "core.ui.channel_busy") from None
        except LimitReached as exc:
            raise limit_refused(exc) from None
        if hi == 1 or len(seats) == hi:
            async with self.store.lock(row.id):
                return LobbyResult(row, await self.start(row, by=host_id))
        return LobbyResult(row)

    async def lobby(
        self, game_id: int, user_id: int, op: str, *, admin: bool = False, level: str | None = None
    ) -> LobbyResult:
        """join, leave, ai (add an AI seat at ``level``; None: the table's level), start, cancel."""
        async with self.store.lock(game_id):
            row = await self.k.row(game_id)
            if row is None or row.status != "lobby":
                raise TurnRefused("lobby_closed", "core.ui.lobby_closed")
            game = get_game(row.game)
            lo, hi = game.seat_range(row.options)
            is_host = user_id == row.host_id
            seats, status = list(row.seats), None
            if op == "join":
                if row.seat_of(user_id):
                    raise TurnRefused("already_seated", "core.ui.already_seated")
                if len(seats) >= hi:
                    raise TurnRefused("table_full", "core.ui.table_full")
                seats.append(Seat(free_seat(seats), user_id))
            elif op == "leave":
                if not row.seat_of(user_id):
                    raise TurnRefused("not_seated", "core.ui.not_seated")
                if is_host:
                    raise TurnRefused("host_cannot_leave", "core.ui.host_cannot_leave")
                seats = [s for s in seats if s.user_id != user_id]
            elif op == "ai":
                if not is_host:
                    raise TurnRefused("host_only", "core.ui.host_only")
                try:
                    chosen = check_level(game, level) if level is not None else table_level(row, game)
                except GameError as exc:
                    raise TurnRefused.from_game_error(exc) from None
                if len(seats) >= hi:
                    raise TurnRefused("table_full", "core.ui.table_full")
                seats.append(Seat(free_seat(seats), None, chosen))
            elif op == "cancel":
                if not (is_host or admin):
                    raise TurnRefused("host_only", "core.ui.host_only")
                status = "abandoned"
            elif op == "start":
                if not is_host:
                    raise TurnRefused("host_only", "core.ui.host_only")
                if len(seats) < lo:
                    raise TurnRefused("need_players", "core.ui.need_players", lo=lo)
                return LobbyResult(row, await self.start(row, by=user_id))
            else:
                raise TurnRefused("stale", "core.ui.stale")
            try:
                row.version = await self.k.update_game(row.id, row.version, seats=seats, status=status)
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            row.seats = seats
            if status:
                row.status = status
            return LobbyResult(row)

    async def start(self, row: GameRow, *, by: int | None = None) -> TurnResult:
        """Lobby -> running game in one commit: the campaign's seat names and
        story options, the first state, the AI seats' opening moves (``by``: the
        member who started it)."""
        game = get_game(row.game)
        decided: dict[str, Any] = {}

        async def build() -> ChangeSet:
            seats, options, setup = list(row.seats), dict(row.options), None
            camp = await self.k.campaign(row)
            if camp is not None:
                seats, options, setup = campaign_setup(row, game, camp)
            try:
                # stored complete (every default filled in), so a replay never depends on the
                # defaults of a later release: a lobby opened before a rules change starts on today's
                options = game.parse_options(options).model_dump(mode="json")
                state = game.new([s.seat for s in seats], options, row.seed)
            except GameError as exc:
                raise TurnRefused.from_game_error(exc) from None
            started = replace(row, seats=seats, options=options)
            state, entries, events = await self.k.advance_ai(started, game, state)
            decided.update(row=started, state=state, entries=entries, events=events)
            change = self.k.turn_change(started, game, state, entries, status="active", seats=seats, options=options)
            change = await self.k.banked(started, change)
            decided["change"] = change
            return ChangeSet(
                game=change,
                campaigns=await self.k.finish_campaign(started, game, state, setup),
                ratings=await self.k.rated(started, change),
                owed=self.k.owed(dms=private_dms(started, game, state, entries, start=True)),
            )

        version = await self.k.commit(row, build)
        started: GameRow = decided["row"]
        written(started, decided["change"])
        started.version = version or row.version
        started.status = "finished" if game.outcome(decided["state"]) is not None else "active"
        return TurnResult(
            started,
            game,
            decided["state"],
            decided["events"],
            [e.seat for e in decided["entries"]],
            [],
            decided["entries"],
            by=by,
        )

    async def limits(self, guild_id: int | None) -> dict[str, int]:
        """The server's limits (tables/rules/limits.py), over the defaults."""
        return limits.limits_of(await self.k.settings.server_settings(guild_id))

    async def check_can_open(self, guild_id: int | None, user_id: int) -> None:
        """Refused (naming the limit) when the member or the server is at its cap of
        waiting lobbies: asked before a thread is opened for a new table."""
        if guild_id is None:
            return
        try:
            limits.check_open(await self.limits(guild_id), "lobbies", await self.store.count_open(guild_id, user_id))
        except LimitReached as exc:
            raise limit_refused(exc) from None

    async def claim_thread(self, guild_id: int | None, user_id: int) -> float:
        """Count one thread the member is about to open (per hour, member and server
        caps); refused naming the limit.  Returns the claim's time (see :meth:`release_thread`)."""
        now = self.k.clock()
        caps = limits.caps(await self.limits(guild_id), "threads")
        try:
            await self.store.claim_rate("threads", guild_id, user_id, now, limits.THREAD_WINDOW, caps)
        except LimitReached as exc:
            raise limit_refused(exc) from None
        return now

    async def release_thread(self, user_id: int, at: float) -> None:
        """The thread could not be opened: it does not count."""
        await self.store.release_rate("threads", user_id, at)

    async def lobby_posted(self, game_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby (its expiry is shown there)."""
        await self.store.set_lobby_message(game_id, message_id)

    async def to_thread(self, game_id: int, user_id: int, channel_id: int | None, *, admin: bool = False) -> GameRow:
        """The lobby's "Play in a thread": the table moves into its own thread
        ``channel_id`` (the host, or an admin), and says so (``table["thread"]``: its
        lobby offers no second move).  ``channel_id`` None: only whether this member
        may move it now (asked before the thread is opened)."""
        async with self.store.lock(game_id):
            row = await self.k.row(game_id)
            if row is None or row.status != "lobby":
                raise TurnRefused("lobby_closed", "core.ui.lobby_closed")
            if user_id != row.host_id and not admin:
                raise TurnRefused("host_only", "core.ui.host_only")
            if row.table.get("thread"):
                raise TurnRefused("in_thread", "lobby.thread.already")
            if channel_id is None:
                return row
            table = {**row.table, "thread": True}
            row.version = await self.k.update_game(row.id, row.version, channel_id=channel_id, table=table)
            row.channel_id, row.table = channel_id, table
            return row

    async def expire_lobbies(self, now: float) -> list[tuple[GameRow, int | None]]:
        """End the lobbies idle longer than their server allows (tables/rules/limits.py)."""
        return await limits.expire_lobbies(self.store, now, self.limits, self.k.write)

    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        row = await self.k.row(channel_id=channel_id)
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if user_id != row.host_id and not admin:
            raise TurnRefused("host_only", "core.ui.host_only")
        async with self.store.lock(row.id):
            change = GameChange(row.id, row.version, status="abandoned", to_act=[])
            # a running table's channel is told (the outbox); a lobby's is its own message
            owed = self.k.owed([{"note": "abandoned", "user": user_id}], "notice") if row.status == "active" else None
            try:
                done = await self.k.write(ChangeSet(game=change, owed=owed))
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            assert done.version is not None
            row.version = done.version
        row.status = "abandoned"
        return row


def with_clock(table: dict[str, Any]) -> dict[str, Any]:
    """A new table's settings with its clock profile (``"clock"``: a profile name,
    ``"clock_policy"``: what happens when a bank runs out) made concrete; a clock
    profile takes the place of the turn timer."""
    table = dict(table)
    policy = str(table.pop("clock_policy", None) or "ai")
    name = table.get("clock")
    if isinstance(name, str):
        if name not in clocks.PROFILES:
            raise TurnRefused("bad_clock", "asyncplay.bad_clock", name=quote(name))
        made = clocks.new_clock(name, policy)
        if made is None:
            table.pop("clock")
        else:
            table["clock"] = made
            table["turn_timer"] = 0
    return table


def free_seat(seats: list[Seat]) -> str:
    taken = {s.seat for s in seats}
    n = 1
    while f"p{n}" in taken:
        n += 1
    return f"p{n}"

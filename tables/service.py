"""The table service: the one door for callers (cogs/, web/, bot.py, bench/).

:class:`TableService` keeps the public names it always had; each call goes to
the module that owns it, and only the kernel commits:

* tables/core/kernel.py -- load and validate a table, advance it (the seat-filler AI
  and forced choices), the one compare-and-swap commit and what it owes the channel;
* tables/play/lobby.py -- open, join, start, cancel, abandon; lobby and thread limits;
* tables/play/turns.py -- a seat's action, a turn timer or time bank running out;
* tables/play/seats.py -- undo, hand-over, resign; tables/play/votes.py -- ballots;
* tables/play/schedule.py -- due timeouts and reminders, vacations;
* tables/play/history.py -- the log's table, export, replay;
* tables/people/mine.py -- ``/mine``, follows, privacy; tables/play/campaigns.py -- campaigns;
* tables/play/views.py -- what a seat is offered, the board image, the time banks;
* tables/seeing/verbs.py -- what a viewer sees (tables/seeing/board.py, catchup.py), read down from :attr:`reads`;
* tables/play/delivery.py -- the outbox of boards and notices owed to channels.

The names others import from here (results, refusals, log entries) live in
tables/core/common.py and tables/play/delivery.py and are re-exported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.base import BaseState, Event, Game, SeatLabels
from store import ActionRow, Campaign, GameRow, OutboxRow, Owed, OwedMessage, Store, UndoRow, Vote
from tables.core.common import (
    BallotResult,
    Due,
    HandoverResult,
    KernelSetting,
    Loaded,
    LobbyResult,
    Picker,
    TurnResult,
    UndoResult,
    VoteOpened,
)
from tables.core.kernel import Kernel
from tables.people import standings
from tables.people.community import Community
from tables.people.mine import People
from tables.people.names import MemberNames
from tables.people.privacy import ForgetHook, Privacy
from tables.people.web_sessions import LINK_SECONDS, WebSessions
from tables.play.campaigns import Campaigns
from tables.play.delivery import Delivery, Outbox
from tables.play.history import History
from tables.play.lobby import Lobby
from tables.play.schedule import Schedule
from tables.play.seats import Seats
from tables.play.turns import Turns
from tables.play.views import Views
from tables.play.votes import Votes
from tables.rules.choices import Choice
from tables.rules.settings import Settings
from tables.seeing.board import Board, Frame
from tables.seeing.catchup import Catchup
from tables.seeing.live import TableWatch
from tables.seeing.reads import Reads
from tables.seeing.verbs import Seeing


class TableService:
    """Every call a caller makes on tables, each handed to the module that owns it."""

    def __init__(
        self,
        store: Store,
        executor=None,
        max_ai_steps: int = 2000,
        *,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.kernel = kernel = Kernel(store, executor, max_ai_steps, settings=settings, clock=clock)
        self.views = Views(kernel)
        self.lobbies = Lobby(kernel)
        self.campaigns = Campaigns(kernel, self.lobbies.limits)
        self.turns = Turns(kernel, self.views)
        self.seats = Seats(kernel)
        self.votes = Votes(kernel, self.seats)
        self.schedule = Schedule(kernel, self.seats)
        self.history = History(kernel)
        self.people = People(kernel)
        self.outbox = Outbox(kernel)
        self.community = Community(kernel)
        #: the web companion's sign-in links and sessions (tables/people/web_sessions.py)
        self.web_sessions = WebSessions(kernel.backend, clock=kernel.clock)
        #: the watcher of table changes behind the web companion's live pages (tables/seeing/live.py)
        self.watch = TableWatch(kernel.backend)
        #: members' display names, stored where every process reads them (tables/people/names.py)
        self.names = MemberNames(kernel.backend, kernel.clock)
        self.people.privacy.on_forget(self.names.forget)
        #: the rooms a board reads (tables/seeing/reads.py): the builder never calls back up through here
        self.reads = Reads(kernel, self.views, self.history)
        self.seeing = Seeing(self.reads)

    # ------------------------------------------- the kernel's settings, shared
    @property
    def store(self) -> Store:
        return self.kernel.backend

    @property
    def settings(self) -> Settings:
        return self.kernel.settings

    @property
    def clock(self) -> Callable[[], float]:
        return self.kernel.clock

    @property
    def executor(self) -> Any:
        return self.kernel.executor

    @property
    def privacy(self) -> Privacy:
        return self.people.privacy

    @property
    def owner(self) -> str:
        """This service's name in the outbox leases (one per process)."""
        return self.kernel.owner

    #: the kernel's settings, read and set here: the outbox lease (seconds), the AI's step cap,
    #: each stage's wall times when a dict (bench/), a forced single choice taken for a human
    #: seat (said in the log), a state cached every this many log positions (0: never)
    lease = KernelSetting[float]()
    max_ai_steps = KernelSetting[int]()
    timings = KernelSetting[dict[str, list[float]] | None]()
    auto_forced = KernelSetting[bool]()
    snapshot_every = KernelSetting[int]()

    def stage(self, name: str):
        return self.kernel.stage(name)

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

    # ---------------------------------------------------------- history
    async def log_table(self, channel_id: int) -> Loaded:
        return await self.history.log_table(channel_id)

    async def finished_table(self, guild_id: int | None, channel_id: int, game_id: int | None) -> GameRow:
        return await self.history.finished_table(guild_id, channel_id, game_id)

    async def export_data(self, row: GameRow) -> dict[str, Any]:
        return await self.history.export_data(row)

    async def replay_state(self, row: GameRow, turn: int | None) -> tuple[Game, BaseState, int, int]:
        return await self.history.replay_state(row, turn)

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        return await self.history.actions(game_id, limit=limit, offset=offset)

    async def count_actions(self, game_id: int) -> int:
        return await self.history.count_actions(game_id)

    async def undos(self, game_id: int) -> list[UndoRow]:
        return await self.history.undos(game_id)

    async def recent_actions(self, game_id: int, n: int = 50) -> list[ActionRow]:
        return await self.history.recent_actions(game_id, n)

    async def last_ended(self, channel_id: int) -> GameRow | None:
        return await self.history.last_ended(channel_id)

    # ---------------------------------------------------------- lobbies
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
        return await self.lobbies.open_table(
            guild_id=guild_id,
            channel_id=channel_id,
            game_id=game_id,
            host_id=host_id,
            options=options,
            ai=ai,
            seed=seed,
            locale=locale,
            table=table,
            campaign=campaign,
            ai_level=ai_level,
        )

    async def lobby(
        self, game_id: int, user_id: int, op: str, *, admin: bool = False, level: str | None = None
    ) -> LobbyResult:
        return await self.lobbies.lobby(game_id, user_id, op, admin=admin, level=level)

    async def limits(self, guild_id: int | None) -> dict[str, int]:
        return await self.lobbies.limits(guild_id)

    async def check_can_open(self, guild_id: int | None, user_id: int) -> None:
        return await self.lobbies.check_can_open(guild_id, user_id)

    async def claim_thread(self, guild_id: int | None, user_id: int) -> float:
        return await self.lobbies.claim_thread(guild_id, user_id)

    async def release_thread(self, user_id: int, at: float) -> None:
        return await self.lobbies.release_thread(user_id, at)

    async def lobby_posted(self, game_id: int, message_id: int) -> None:
        return await self.lobbies.lobby_posted(game_id, message_id)

    async def to_thread(self, game_id: int, user_id: int, channel_id: int | None, *, admin: bool = False) -> GameRow:
        return await self.lobbies.to_thread(game_id, user_id, channel_id, admin=admin)

    async def expire_lobbies(self, now: float) -> list[tuple[GameRow, int | None]]:
        return await self.lobbies.expire_lobbies(now)

    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        return await self.lobbies.abandon(channel_id, user_id, admin=admin)

    # ---------------------------------------------------------- campaigns
    async def create_campaign(
        self,
        *,
        guild_id: int,
        game_id: str,
        name: str,
        points: list[int],
        created_by: int,
        story: dict[str, Any],
    ) -> Campaign:
        return await self.campaigns.create_campaign(
            guild_id=guild_id, game_id=game_id, name=name, points=points, created_by=created_by, story=story
        )

    # ---------------------------------------------------------- turns
    async def act(
        self,
        game_id: int,
        user_id: int | None,
        pick: Picker | Sequence[Picker],
        *,
        expected_version: int | None = None,
        seat: str | None = None,
        choice: int | None = None,
        place: tuple[int | None, int | None] | None = None,
    ) -> TurnResult:
        return await self.turns.act(
            game_id, user_id, pick, expected_version=expected_version, seat=seat, choice=choice, place=place
        )

    async def timeout(
        self,
        game_id: int,
        expected_version: int,
        seats: Sequence[str] | None = None,
        policy: str = "default",
    ) -> tuple[TurnResult, list[tuple[str, int]]]:
        return await self.turns.timeout(game_id, expected_version, seats, policy)

    # ---------------------------------------------------------- seats
    async def undo(self, game_id: int, user_id: int) -> UndoResult:
        return await self.seats.undo(game_id, user_id)

    def idle_minutes(self, row: GameRow, settings: dict[str, Any]) -> float:
        return self.seats.idle_minutes(row, settings)

    async def handover(
        self,
        game_id: int,
        user_id: int,
        seat: str,
        to: int | None,
        *,
        admin: bool = False,
        now: float | None = None,
    ) -> HandoverResult:
        return await self.seats.handover(game_id, user_id, seat, to, admin=admin, now=now)

    async def resign(self, game_id: int, user_id: int) -> TurnResult:
        return await self.seats.resign(game_id, user_id)

    # ---------------------------------------------------------- votes
    async def ballot(self, vote_id: int, user_id: int, yes: bool) -> BallotResult:
        return await self.votes.ballot(vote_id, user_id, yes)

    async def vote(self, vote_id: int) -> Vote | None:
        return await self.votes.vote(vote_id)

    # ---------------------------------------------------------- schedule
    async def due(self, now: float) -> list[Due]:
        return await self.schedule.due(now)

    async def claim_reminder(self, row: GameRow, now: float) -> bool:
        return await self.schedule.claim_reminder(row, now)

    async def release_reminder(self, row: GameRow, now: float) -> None:
        return await self.schedule.release_reminder(row, now)

    async def expiry_votes(self, game_id: int, expected_version: int, seats: Sequence[str]) -> list[VoteOpened]:
        return await self.schedule.expiry_votes(game_id, expected_version, seats)

    async def go_away(self, user_id: int, days: float) -> tuple[float, float]:
        return await self.schedule.go_away(user_id, days)

    async def come_back(self, user_id: int) -> None:
        return await self.schedule.come_back(user_id)

    # ---------------------------------------------------------- views
    async def choices(self, row: GameRow, game: Game, state: BaseState, seat: str) -> list[Choice]:
        return await self.views.choices(row, game, state, seat)

    async def numbered(
        self, row: GameRow, game: Game, state: BaseState, seat: str
    ) -> tuple[list[int | None], dict[str, int]]:
        return await self.views.numbered(row, game, state, seat)

    async def panel_token(self, row: GameRow, game: Game, state: BaseState, seat: str) -> int:
        return await self.views.panel_token(row, game, state, seat)

    async def offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> list[tuple[int, str, str]]:
        return await self.views.offer(row, game, state, seat, locale, labels)

    async def board_offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> tuple[list[tuple[int, str, str]], dict[str, int]]:
        return await self.views.board_offer(row, game, state, seat, locale, labels)

    async def render(
        self,
        game: Game,
        state: BaseState,
        seat: str | None,
        locale: str,
        labels: SeatLabels | None = None,
        marks: Mapping[str, int] | None = None,
    ) -> bytes:
        return await self.views.render(game, state, seat, locale, labels, marks)

    async def bank_lines(
        self, row: GameRow, now: float | None = None
    ) -> list[tuple[str, int | None, float, bool, float | None]]:
        return await self.views.bank_lines(row, now)

    # ---------------------------------------------------------- boards (tables/seeing/verbs.py)
    async def board(self, table: GameRow | int, viewer: int | None, locale: str, **how: Any) -> Board:
        return await self.seeing.board(table, viewer, locale, **how)

    async def frame(self, row: GameRow, position: int, locale: str, **how: Any) -> Frame:
        return await self.seeing.frame(row, position, locale, **how)

    async def public(self, row: GameRow) -> bool:
        return await self.seeing.public(row)

    async def catchup(self, row: GameRow, game: Game, state: BaseState, user_id: int) -> Catchup:
        return await self.seeing.catchup(row, game, state, user_id)

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

    # ---------------------------------------------------------- outbox
    async def delivered(self, game_id: int, version: int) -> None:
        return await self.outbox.delivered(game_id, version)

    async def delivery_failed(self, game_id: int, version: int) -> None:
        return await self.outbox.delivery_failed(game_id, version)

    async def posted(self, game_id: int, version: int, message_id: int) -> None:
        return await self.outbox.posted(game_id, version, message_id)

    async def owed_now(self, game_id: int, version: int) -> OutboxRow | None:
        return await self.outbox.owed_now(game_id, version)

    async def still_owed(self, game_id: int, version: int) -> bool:
        return await self.outbox.still_owed(game_id, version)

    async def message_done(self, key: str) -> None:
        return await self.outbox.message_done(key)

    async def message_failed(self, key: str, attempts: int = 1) -> None:
        return await self.outbox.message_failed(key, attempts)

    async def due_messages(self, now: float) -> list[OwedMessage]:
        return await self.outbox.due_messages(now)

    async def claim_message(self, owed: OwedMessage, now: float) -> OwedMessage | None:
        return await self.outbox.claim_message(owed, now)

    async def due_deliveries(self, now: float) -> list[OutboxRow]:
        return await self.outbox.due_deliveries(now)

    async def claim_delivery(self, owed: OutboxRow, now: float) -> Delivery | None:
        return await self.outbox.claim_delivery(owed, now)

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
        return await self.settings.server_settings(guild_id)

    async def link_token(self, user_id: int, game_id: int | None = None, seconds: float = LINK_SECONDS) -> str:
        return await self.web_sessions.link_token(user_id, game_id, seconds)

    def on_forget(self, hook: ForgetHook) -> None:
        self.privacy.on_forget(hook)

"""The facade's play verbs: the rooms that change a table (lobby, turns, seats,
votes, timers, history, what a seat is offered, the outbox).  One of the verb classes
:class:`TableService` is made of (tables/core/facade.py says how)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import BaseState, Game, SeatLabels
from store import ActionRow, Campaign, GameRow, OutboxRow, OwedMessage, UndoRow, Vote
from tables.core.common import (
    BallotResult,
    Due,
    HandoverResult,
    Loaded,
    LobbyResult,
    Picker,
    TurnResult,
    UndoResult,
    VoteOpened,
)
from tables.play.campaigns import Campaigns
from tables.play.delivery import Delivery, Outbox
from tables.play.history import History
from tables.play.lobby import Lobby
from tables.play.orders import ArmedShown, ArmResult, OrderChoice, Orders
from tables.play.schedule import Schedule
from tables.play.seats import Seats
from tables.play.turns import Turns
from tables.play.views import Views
from tables.play.votes import Votes
from tables.rules.choices import Choice


class PlayVerbs:
    """The play rooms' verbs (the service makes the rooms)."""

    history: History
    lobbies: Lobby
    campaigns: Campaigns
    turns: Turns
    seats: Seats
    votes: Votes
    schedule: Schedule
    views: Views
    outbox: Outbox
    orders: Orders

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

    # ---------------------------------------------------------- standing orders
    async def order_choices(self, table_id: int, user_id: int, locale: str | None) -> list[OrderChoice]:
        return await self.orders.order_choices(table_id, user_id, locale)

    async def arm_order(self, table_id: int, user_id: int, kind: Any, params: Any = None) -> ArmResult:
        return await self.orders.arm_order(table_id, user_id, kind, params)

    async def disarm_order(self, table_id: int, user_id: int, kind: Any) -> list[ArmedShown]:
        return await self.orders.disarm_order(table_id, user_id, kind)

    async def my_orders(self, table_id: int, user_id: int) -> list[ArmedShown]:
        return await self.orders.my_orders(table_id, user_id)

    async def orders_due(self, table_id: int) -> TurnResult | None:
        return await self.orders.orders_due(table_id)

"""The table service: the only code that changes a table.

Every public coroutine here is one service call and writes at most one
:class:`~store.ChangeSet`, decided on the versions it read (compare-and-swap),
so a call lands whole or not at all and two processes can never both win.
The per-table in-process lock only spares this process from racing itself.

Flow of a turn (``act``): load -> authorise -> apply (+ seat-filler AI for AI
seats, off the event loop) -> one commit (state, log, who acts next and, when
the game ends, results and campaign progress).  Nothing here knows Discord or
a particular game.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

from engine import GameError, available, get_game
from engine.base import BaseState, Event, Game, SeatLabels
from engine.i18n import t
from render import render
from render.generic import draw as render_fallback
from store import (
    ActionRow,
    Campaign,
    CampaignChange,
    ChangeSet,
    ChannelBusy,
    CorruptRow,
    GameChange,
    GameRow,
    LimitReached,
    NewSnapshot,
    NewVote,
    OutboxRow,
    Owed,
    RatingChange,
    ReplaySource,
    ResultRow,
    Seat,
    StillSeated,
    Store,
    StoreUnavailable,
    VersionConflict,
    Vote,
    VoteChange,
    VoteTaken,
)
from store.base import away_periods, runs_out_at

from . import clocks, limits, ratings, refusals, undo_rule
from .choices import Choice, choices, describe, destinations, numbering
from .levels import TABLE_KEY, ai_move, check_level, table_level, timer_move
from .preview import step_ends_chain
from .privacy import Privacy
from .settings import Settings, in_quiet_hours
from .snapshots import SNAPSHOT_EVERY, SnapshotUnusable, snapshot_due, snapshot_key
from .snapshots import rebuild as rebuild_state
from .text import quote
from .web_sessions import end_sessions

log = logging.getLogger("tabletop.tables")

Picker = Callable[[Game, BaseState, str, list[Any]], Any]
FINISHED = ("finished", "abandoned")
#: how long a process that committed a change has to show it before the
#: scheduler of any process may deliver it instead (the outbox lease, seconds)
DELIVERY_LEASE = 60.0
#: the outbox's waits between tries of one delivery (seconds; the last repeats)
BACKOFF = (5.0, 10.0, 20.0, 40.0, 80.0, 120.0)
#: how long a delivery may stay unconfirmed before the scheduler gives it up (a day)
DELIVERY_GIVE_UP = 86400.0
#: how long a seat must have waited before other players may vote it away,
#: when the table reminds nobody (minutes)
IDLE_DEFAULT_MINUTES = 720


class TurnRefused(Exception):
    """A player-facing refusal: ``key``/``params`` are a catalog message; nothing was changed."""

    def __init__(self, code: str, key: str, **params: Any):
        self.code, self.key, self.params = code, key, params
        #: parameters that name seats (shown by display name: tables/refusals.py), the
        #: log steps a refusal refers to (what happened since), and the table concerned
        self.named: dict[str, list[str]] = {}
        self.steps: list[Step] = []
        self.row: GameRow | None = None
        super().__init__(code)

    def text(self, locale: str) -> str:
        return t(self.key, locale, **self.params)

    @classmethod
    def from_game_error(cls, exc: GameError) -> TurnRefused:
        return cls(exc.code, exc.key, **exc.params)


@dataclass
class Logged(ActionRow):
    """A log row as a service call made it: with its events as objects and
    whether the platform took it (a forced single choice) rather than a player."""

    evs: list[Event] = field(default_factory=list, compare=False, repr=False)
    auto: bool = False


@dataclass
class Step:
    """One action of a turn result, for the log: who, what it caused, how."""

    seat: str
    events: list[Event]
    by: str  # "player", "ai" (a seat of the AI) or "auto" (a forced single choice)


@dataclass
class TurnResult:
    row: GameRow
    game: Game
    state: BaseState
    events: list[Event]
    actors: list[str] = field(default_factory=list)
    waiting_before: list[str] = field(default_factory=list)  # to_act before this action
    entries: list[ActionRow] = field(default_factory=list)
    #: the notices the change owes the channel with its board (see store.Owed), e.g.
    #: {"note": "timeout", ...}; the Discord layer words them
    notes: list[dict[str, Any]] = field(default_factory=list)
    #: "board" (the table's board) or "notice" (only the notes: the table ended without one)
    kind: str = "board"

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def steps(self) -> list[Step]:
        """The actions this call saved, in order (empty: a board shown again)."""
        out = []
        for e in self.entries:
            evs = e.evs if isinstance(e, Logged) else self.game.load_events(e.events)
            by = "auto" if isinstance(e, Logged) and e.auto else "ai" if e.user_id is None else "player"
            out.append(Step(e.seat, list(evs), by))
        return out


@dataclass
class Loaded:
    row: GameRow
    game: Game
    state: BaseState


@dataclass
class LobbyResult:
    row: GameRow
    started: TurnResult | None = None  # set when the call started the game


@dataclass
class VoteOpened:
    vote: Vote
    voters: list[int]
    needed: int
    owner: int | None = None  # the member whose seat the vote is about (to be pinged)


@dataclass
class UndoResult:
    done: TurnResult | None = None
    vote: VoteOpened | None = None


@dataclass
class HandoverResult:
    done: TurnResult | None = None
    vote: VoteOpened | None = None


@dataclass
class BallotResult:
    status: str  # counted, passed, refused, expired
    vote: Vote
    yes: int = 0
    needed: int = 0
    result: TurnResult | None = None  # the undo or hand-over the passed vote made
    waiting: list[int] = field(default_factory=list)  # counted: who is still to agree
    reason: str = ""  # expired: ended, decided_again, gone (the decision was taken back) or moved_on


@dataclass
class Delivery:
    """A committed change the channel has not seen confirmed (the outbox row), with
    what showing it needs: the table at that version and the actions since the
    last board the channel saw."""

    owed: OutboxRow
    result: TurnResult

    @property
    def nonce(self) -> str:
        return delivery_nonce(self.owed.game_id, self.owed.version)


def delivery_nonce(game_id: int, version: int) -> str:
    """The message nonce of a table's board at ``version`` (Discord keeps at most 25
    characters and, with ``enforce_nonce``, answers a repeat with the first message)."""
    nonce = f"tg{game_id}.{version}"
    if len(nonce) > 25:
        import hashlib

        nonce = "tg" + hashlib.sha256(nonce.encode()).hexdigest()[:23]
    return nonce


def backoff(attempts: int) -> float:
    """Seconds to wait before the next try of a delivery tried ``attempts`` times."""
    return BACKOFF[min(max(attempts, 1), len(BACKOFF)) - 1]


@dataclass
class Due:
    """Scheduler work for one table: a turn timer ran out, or a reminder is due."""

    row: GameRow
    kind: str  # "timeout" or "remind"
    seats: list[tuple[str, int]]  # (seat, member) waiting (timeouts: those whose time ran out)
    users: list[int] = field(default_factory=list)  # reminders: the members awake now
    policy: str = "default"  # timeouts: "ai", "default" or "vote" (tables/clocks.py POLICIES)


class _Raced(Exception):
    """A commit lost only on a row other than the table (a campaign): decide again."""


class TableService:
    def __init__(
        self,
        store: Store,
        executor=None,
        max_ai_steps: int = 2000,
        *,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.store = store
        self.executor = executor
        self.max_ai_steps = max_ai_steps
        self.settings = settings or Settings(store, clock=clock)
        self.clock = clock
        #: when a dict, each stage's wall time (seconds) is appended under its name (bench/)
        self.timings: dict[str, list[float]] | None = None
        #: take a human seat's decision that has exactly one legal choice (said in the log)
        self.auto_forced = True
        self._choices: dict[tuple[int, int, str], list[Choice]] = {}
        self._marks: dict[tuple[int, int, str], tuple[list[int | None], dict[str, int]]] = {}
        #: cache the state every this many log positions (tables/snapshots.py); 0: never
        self.snapshot_every = SNAPSHOT_EVERY
        self.privacy = Privacy(store)
        #: this service's name in the outbox leases (one per process)
        self.owner = f"{os.getpid()}.{secrets.token_hex(6)}"
        self.lease = DELIVERY_LEASE

    @contextmanager
    def stage(self, name: str):
        if self.timings is None:
            yield
            return
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings.setdefault(name, []).append(time.perf_counter() - start)

    async def off_loop(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    # ============================================================ reading
    async def _quarantine(self, game_id: int, reason: str) -> TurnRefused:
        await self.store.quarantine(game_id, reason)
        log.error("table %s quarantined: %s", game_id, reason)
        return TurnRefused("corrupt", "core.ui.corrupt", id=game_id)

    async def row(self, game_id: int | None = None, *, channel_id: int | None = None) -> GameRow | None:
        """A table's row (by id, or the channel's lobby/running one); an
        unreadable row is quarantined and refused."""
        try:
            if game_id is not None:
                return await self.store.get_game(game_id) if _storable(game_id) else None
            assert channel_id is not None
            return await self.store.active_game(channel_id)
        except CorruptRow as exc:
            raise await self._quarantine(exc.game_id, exc.reason) from None

    async def open_state(self, row: GameRow) -> tuple[Game, BaseState]:
        """The game and its state of a stored row; a row the engine cannot load
        or that fails validation is quarantined (whatever the exception)."""
        try:
            game = get_game(row.game)
            state = game.load(row.state_json or "")
            problem = _validate(game, state)
            if not problem and (state.game != row.game or set(state.seats) != {s.seat for s in row.seats}):
                # the engine cannot know a table's seats: a state that names others is not this table's
                problem = f"the state's game and seats ({state.game}: {', '.join(state.seats)}) are not the table's"
        except Exception as exc:  # noqa: BLE001 -- any failure to load is a bad row
            raise await self._quarantine(row.id, f"unreadable state: {type(exc).__name__}: {exc}") from None
        if problem:
            raise await self._quarantine(row.id, f"invalid state: {problem}")
        return game, state

    async def load(
        self, game_id: int | None = None, *, channel_id: int | None = None, statuses: Sequence[str] = ("active",)
    ) -> Loaded:
        row = await self.row(game_id, channel_id=channel_id)
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if row.status not in statuses:
            raise TurnRefused("not_running", "core.ui.not_running", id=row.id)
        if row.state_json is None:
            raise TurnRefused("not_started", "core.ui.not_started", id=row.id)
        game, state = await self.open_state(row)
        return Loaded(row, game, state)

    async def log_table(self, channel_id: int) -> Loaded:
        """The table whose log ``/game log`` shows: the channel's running one,
        else its most recent finished (or abandoned) one."""
        try:
            return await self.load(channel_id=channel_id)
        except TurnRefused as exc:
            if exc.code != "no_game":
                raise
        try:
            row = await self.store.latest_game(channel_id, FINISHED)
        except CorruptRow as exc:
            raise await self._quarantine(exc.game_id, exc.reason) from None
        if row is None or row.state_json is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        game, state = await self.open_state(row)
        return Loaded(row, game, state)

    async def finished_table(self, guild_id: int | None, channel_id: int, game_id: int | None) -> GameRow:
        """A finished (or abandoned) table: the one named, else this channel's most recent."""
        if game_id is None:
            try:
                row = await self.store.latest_game(channel_id, FINISHED)
            except CorruptRow as exc:
                raise await self._quarantine(exc.game_id, exc.reason) from None
            if row is None:
                running = await self.row(channel_id=channel_id)
                if running is not None:
                    raise TurnRefused("running", "core.ui.export_when_finished", id=running.id)
                raise TurnRefused("no_game", "core.ui.no_game")
        else:
            try:
                row = await self.store.get_game(game_id) if _storable(game_id) else None
            except CorruptRow:
                row = None
            if row is None or row.guild_id != guild_id:
                raise TurnRefused("no_such_table", "core.ui.no_such_table", id=game_id)
        if row.status not in FINISHED:
            # the seed predicts every future roll and hidden card: never hand it out mid-game
            raise TurnRefused("running", "core.ui.export_when_finished", id=row.id)
        return row

    async def export_data(self, row: GameRow) -> dict[str, Any]:
        log_rows = await self.store.actions(row.id, limit=1_000_000)
        return {
            "format": "tabletop-gm/export@1",
            "table": row.id,
            "game": row.game,
            "seats": [s.seat for s in row.seats],
            "options": row.options,
            "seed": row.seed,
            "log": [{"seat": a.seat, "action": a.action} for a in log_rows],
            "outcome": row.outcome,
        }

    async def replay_state(self, row: GameRow, turn: int | None) -> tuple[Game, BaseState, int, int]:
        """(game, state after ``turn`` actions, that turn, number of actions) of a finished table:
        from the nearest snapshot (a cache), else from the seed."""
        game = get_game(row.game)
        want = None if turn is None else max(0, int(turn))
        state = None
        for key in (snapshot_key(game), None):
            src = await self.store.replay_source(row.id, key, turn=want)
            try:
                state = await self._rebuild(row, game, src)
            except (SnapshotUnusable, GameError) as exc:
                if src.snapshot is None:
                    raise TurnRefused("undo_impossible", "core.ui.undo_impossible") from None
                await self._bad_snapshot(row, src, exc)
                continue
            break
        assert state is not None
        n = src.total if want is None else min(want, src.total)
        return game, state, n, src.total

    async def _rebuild(self, row: GameRow, game: Game, src: ReplaySource, stop: int | None = None) -> BaseState:
        """The state after ``src.actions[:stop]`` (off the event loop); a replay that
        passed a long stretch without snapshots caches some on the way."""
        key = snapshot_key(game)
        state, fills = await self.off_loop(
            partial(
                rebuild_state,
                game,
                [s.seat for s in row.seats],
                row.options,
                row.seed,
                src,
                stop,
                key=key,
                every=self.snapshot_every,
            )
        )
        if fills:
            await self.store.fill_snapshots(row.id, row.version, fills)
        return state

    async def _bad_snapshot(self, row: GameRow, src: ReplaySource, why: object) -> None:
        """A cached state that cannot serve: drop the table's cache (the rebuild from
        the seed that follows fills it again) and say so in the log."""
        log.warning("table %s: snapshot at log position %s dropped: %s", row.id, src.start, why)
        await self.store.drop_snapshots(row.id)

    # ============================================================ writing
    async def _commit(self, row: GameRow, build: Callable[[], Awaitable[ChangeSet]]) -> int | None:
        """Commit what ``build`` decides; when only a campaign row moved on under
        us (another table of the campaign), decide again on fresh data."""
        for attempt in range(5):
            changes = await build()
            try:
                return (await self.store.commit(changes)).version
            except StoreUnavailable:  # the database file is gone (the store logged it): nothing was written
                raise TurnRefused("unavailable", "core.ui.store_unavailable") from None
            except VersionConflict:
                fresh = await self.store.get_game(row.id)
                if (
                    attempt < 4
                    and fresh is not None
                    and fresh.version == row.version
                    and (changes.campaigns or changes.ratings)
                ):
                    continue
                raise TurnRefused("stale", "core.ui.stale") from None
        raise TurnRefused("stale", "core.ui.stale")

    async def _campaign(self, row: GameRow) -> Campaign | None:
        return await self.store.campaign_by_id(row.campaign_id) if row.campaign_id is not None else None

    def _turn_change(
        self,
        row: GameRow,
        game: Game,
        state: BaseState,
        entries: Sequence[ActionRow],
        *,
        status: str | None = None,
        revert: Sequence[int] = (),
        by_user: int | None = None,
        seats: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        table: dict[str, Any] | None = None,
    ) -> GameChange:
        """The table's part of a turn: state, log, who acts next and, when the
        game just ended, its outcome and the placings for the leaderboards;
        ``table``: the table's settings with its settled time banks."""
        outcome = game.outcome(state)
        if outcome is not None:
            status = "finished"
        state_json = state.model_dump_json()
        return GameChange(
            row.id,
            row.version,
            state_json=state_json,
            actions=entries,
            status=status,
            outcome=outcome.model_dump(mode="json") if outcome else None,
            to_act=[] if outcome else game.to_act(state),
            results=placings(row, game, state) if outcome else (),
            revert=revert,
            by_user=by_user,
            seats=seats,
            options=options,
            table=table,
            snapshot=NewSnapshot(snapshot_key(game), state_json)
            if snapshot_due(game, state, entries, self.snapshot_every)
            else None,
        )

    # ======================================================= time banks
    async def _away(self, row: GameRow, now: float | None = None) -> dict[str, list[tuple[float, float]]]:
        """seat -> vacation periods of its member."""
        prefs = {u: await self.settings.user(u) for u in row.humans}
        return clocks.away_of(prefs, {s.seat: s.user_id for s in row.seats})

    async def _banked(self, row: GameRow, change: GameChange) -> GameChange:
        """``change`` with the table's time banks settled at now (clocks.settle): a
        table with a clock profile keeps its banks in its settings, written with the turn."""
        clock = clocks.of(row.table)
        if clock is None or change.status == "finished" or change.to_act is None:
            return change
        seats = [s.seat for s in (change.seats if change.seats is not None else row.seats)]
        settled = clocks.settle(
            clock,
            seats=seats,
            waiting_before=row.to_act if row.status == "active" else [],
            acted=[a.seat for a in change.actions],
            to_act_after=list(change.to_act),
            away=await self._away(row),
            now=self.clock(),
        )
        return replace(change, table={**row.table, "clock": settled})

    async def _rated(self, row: GameRow, change: GameChange) -> list[RatingChange]:
        """The rating changes of a finished table's results (tables/ratings.py)."""
        if not change.results or row.guild_id is None:
            return []
        current = await self.store.ratings(row.guild_id, row.game, [r.user_id for r in change.results])
        return ratings.rate(row.guild_id, row.game, change.results, current)

    async def _finish_campaign(
        self, row: GameRow, game: Game, state: BaseState, base: CampaignChange | None = None
    ) -> list[CampaignChange]:
        """A finished table's story progress for its campaign (read now, so a retry sees the latest)."""
        if game.outcome(state) is None or row.campaign_id is None:
            return [base] if base else []
        if base is not None:
            progress, cid, version = dict(base.progress), base.campaign_id, base.expected_version
        else:
            camp = await self._campaign(row)
            if camp is None:
                return []
            progress, cid, version = dict(camp.progress or {}), camp.id, camp.version
        try:
            story = game.campaign_progress(progress.get("story"), state)
        except GameError:
            log.exception("campaign %s: result of table %s not recorded", cid, row.id)
            story = None
        if story is None:
            return [base] if base else []
        progress["story"] = story
        return [CampaignChange(cid, version, progress)]

    def owed(self, notes: Sequence[dict[str, Any]] = (), kind: str = "board") -> Owed:
        """What a change owes its channel, delivered at once by this process (it holds
        the lease; the scheduler of any process takes over when it runs out)."""
        return Owed(kind, list(notes), self.owner, self.lease)

    async def _save_turn(
        self,
        row: GameRow,
        game: Game,
        state: BaseState,
        entries: Sequence[ActionRow],
        *,
        votes=(),
        notes: Sequence[dict[str, Any]] = (),
        **kw: Any,
    ) -> int:
        made: list[GameChange] = []

        async def build() -> ChangeSet:
            change = await self._banked(row, self._turn_change(row, game, state, entries, **kw))
            made[:] = [change]
            return ChangeSet(
                game=change,
                campaigns=await self._finish_campaign(row, game, state),
                votes=votes,
                ratings=await self._rated(row, change),
                owed=self.owed(notes),
            )

        version = await self._commit(row, build)
        assert version is not None
        _written(row, made[0])
        if game.outcome(state) is not None:
            row.status = "finished"
        elif kw.get("status"):
            row.status = kw["status"]
        return version

    # =============================================================== AI
    def run_ai(
        self, row: GameRow, game: Game, state: BaseState, *, forced: bool = True
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Let the seat-filler AI play every AI seat that is to act; with
        ``forced``, also take every human decision that has one legal choice."""
        entries: list[ActionRow] = []
        events: list[Event] = []
        for _ in range(self.max_ai_steps):
            if game.outcome(state) is not None:
                break
            acting = game.to_act(state)
            ai = [s for s in acting if row.user_of(s) is None]
            if ai:
                seat = ai[0]
                action = ai_move(game, row, state, seat)
                state, evs = game.apply(state, seat, action)
                entries.append(log_entry(game, seat, None, action, evs))
                events += evs
                continue
            take = self._forced(game, state, acting) if forced else None
            if take is None:
                break
            seat, action = take  # a decision with one legal choice is no decision: taken, and logged as such
            state, evs = game.apply(state, seat, action)
            entries.append(log_entry(game, seat, row.user_of(seat), action, evs, auto=True))
            events += evs
        return state, entries, events

    def _forced(self, game: Game, state: BaseState, acting: Sequence[str]) -> tuple[str, Any] | None:
        """(seat, its one legal action) of a human seat whose decision has exactly one choice."""
        if not self.auto_forced:
            return None
        for seat in acting:
            legal = game.legal_actions(state, seat)
            if len(legal) == 1:
                return seat, legal[0]
        return None

    async def _run_ai(self, row: GameRow, game: Game, state: BaseState):
        try:
            return await self.off_loop(self.run_ai, row, game, state)
        except Exception as exc:  # noqa: BLE001
            raise await self._action_failed(row, None, exc) from None

    async def _action_failed(self, row: GameRow, seat: str | None, exc: BaseException) -> TurnRefused:
        """An unexpected error while applying one action: refuse that action;
        quarantine the table only if its stored state is itself bad."""
        log.error("table %s: an action of seat %s failed", row.id, seat or "AI", exc_info=exc)
        await self.open_state(row)  # raises (quarantined) when the stored state is bad
        return TurnRefused("action_failed", "discord.table.action_failed", id=row.id)

    # ============================================================ lobby
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
        which is also the table's level: see tables/levels.py); a game that
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
        table = _with_clock(table)
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
                return LobbyResult(row, await self._start(row))
        return LobbyResult(row)

    async def lobby(
        self, game_id: int, user_id: int, op: str, *, admin: bool = False, level: str | None = None
    ) -> LobbyResult:
        """join, leave, ai (add an AI seat at ``level``; None: the table's level), start, cancel."""
        async with self.store.lock(game_id):
            row = await self.row(game_id)
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
                seats.append(Seat(_free_seat(seats), user_id))
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
                seats.append(Seat(_free_seat(seats), None, chosen))
            elif op == "cancel":
                if not (is_host or admin):
                    raise TurnRefused("host_only", "core.ui.host_only")
                status = "abandoned"
            elif op == "start":
                if not is_host:
                    raise TurnRefused("host_only", "core.ui.host_only")
                if len(seats) < lo:
                    raise TurnRefused("need_players", "core.ui.need_players", lo=lo)
                return LobbyResult(row, await self._start(row))
            else:
                raise TurnRefused("stale", "core.ui.stale")
            try:
                row.version = await self.store.update_game(row.id, row.version, seats=seats, status=status)
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            row.seats = seats
            if status:
                row.status = status
            return LobbyResult(row)

    async def _start(self, row: GameRow) -> TurnResult:
        """Lobby -> running game in one commit: the campaign's seat names and
        story options, the first state, the AI seats' opening moves."""
        game = get_game(row.game)
        decided: dict[str, Any] = {}

        async def build() -> ChangeSet:
            seats, options, setup = list(row.seats), dict(row.options), None
            camp = await self._campaign(row)
            if camp is not None:
                seats, options, setup = self._campaign_setup(row, game, camp)
            try:
                # stored complete (every default filled in), so a replay never depends on the
                # defaults of a later release: a lobby opened before a rules change starts on today's
                options = game.parse_options(options).model_dump(mode="json")
                state = game.new([s.seat for s in seats], options, row.seed)
            except GameError as exc:
                raise TurnRefused.from_game_error(exc) from None
            started = replace(row, seats=seats, options=options)
            state, entries, events = await self._run_ai(started, game, state)
            decided.update(row=started, state=state, entries=entries, events=events)
            change = self._turn_change(started, game, state, entries, status="active", seats=seats, options=options)
            change = await self._banked(started, change)
            decided["change"] = change
            return ChangeSet(
                game=change,
                campaigns=await self._finish_campaign(started, game, state, setup),
                ratings=await self._rated(started, change),
                owed=self.owed(),
            )

        version = await self._commit(row, build)
        started: GameRow = decided["row"]
        _written(started, decided["change"])
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
        )

    @staticmethod
    def _campaign_setup(row: GameRow, game: Game, camp: Campaign) -> tuple[list[Seat], dict[str, Any], CampaignChange]:
        """A campaign table: each member keeps one seat name across the campaign's
        tables (a story crew follows its player); a story mode sets the
        scenario's options from the campaign's progress."""
        progress = dict(camp.progress or {})
        members: dict[str, str] = dict(progress.get("members") or {})
        taken = set(members.values())
        n = 1
        for s in row.seats:
            if s.user_id is not None and str(s.user_id) not in members:
                while f"p{n}" in taken:
                    n += 1
                members[str(s.user_id)] = f"p{n}"
                taken.add(f"p{n}")
        seats, ai = [], 1
        for s in row.seats:
            if s.user_id is not None:
                seats.append(Seat(members[str(s.user_id)], s.user_id, s.ai_level))
            else:
                while f"ai{ai}" in taken:
                    ai += 1
                seats.append(Seat(f"ai{ai}", None, s.ai_level))
                taken.add(f"ai{ai}")
        try:
            extra = game.campaign_options(progress.get("story"), [s.seat for s in seats])
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        progress["members"] = members
        return seats, {**row.options, **(extra or {})}, CampaignChange(camp.id, camp.version, progress)

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
        """A new campaign (story modes start from ``story`` options); raises
        GameError for bad story options."""
        progress = {"members": {}, "story": get_game(game_id).campaign_init(story)}
        try:
            return await self.store.create_campaign(
                guild_id=guild_id,
                game=game_id,
                name=name,
                points=points,
                created_by=created_by,
                progress=progress,
                caps=limits.caps(await self.limits(guild_id), "campaigns"),
            )
        except ChannelBusy:
            raise TurnRefused("exists", "core.campaign.exists", name=quote(name)) from None
        except LimitReached as exc:
            raise limit_refused(exc) from None

    # ============================================================ limits
    async def limits(self, guild_id: int | None) -> dict[str, int]:
        """The server's limits (tables/limits.py), over the defaults."""
        return limits.limits_of(await self.settings.guild(guild_id))

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
        now = self.clock()
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

    async def expire_lobbies(self, now: float) -> list[tuple[GameRow, int | None]]:
        """End the lobbies idle longer than their server allows (tables/limits.py)."""
        return await limits.expire_lobbies(self.store, now, self.limits)

    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        row = await self.row(channel_id=channel_id)
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if user_id != row.host_id and not admin:
            raise TurnRefused("host_only", "core.ui.host_only")
        async with self.store.lock(row.id):
            change = GameChange(row.id, row.version, status="abandoned", to_act=[])
            # a running table's channel is told (the outbox); a lobby's is its own message
            owed = self.owed([{"note": "abandoned", "user": user_id}], "notice") if row.status == "active" else None
            try:
                done = await self.store.commit(ChangeSet(game=change, owed=owed))
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            assert done.version is not None
            row.version = done.version
        row.status = "abandoned"
        return row

    # ============================================================ turns
    async def act(
        self,
        game_id: int,
        user_id: int | None,
        pick: Picker | Sequence[Picker],
        *,
        expected_version: int | None = None,
        seat: str | None = None,
        choice: int | None = None,
    ) -> TurnResult:
        """Apply the action ``pick`` chooses for ``user_id``'s seat (or ``seat``
        for a system actor, ``user_id=None``).  A list of pickers applies several
        decisions of that seat in a row (``/play`` chains), saved together: all
        of them or none; a chain never runs past a roll or a reveal.  ``choice``
        (instead of ``pick``): the index of one of :meth:`choices` for this state,
        a chain of single steps offered as one choice on the board."""
        picks = list(pick) if isinstance(pick, (list, tuple)) else [pick]
        async with self.store.lock(game_id):
            with self.stage("load"):
                loaded = await self.load(game_id, statuses=("active", *FINISHED))
            row, game, state = loaded.row, loaded.game, loaded.state
            if row.status != "active":
                raise refusals.finished(row)
            if seat is None:
                seat = row.seat_of(user_id) if user_id is not None else None
                if seat is None:
                    raise refusals.not_seated(row, game, state)
            if expected_version is not None and row.version != expected_version:
                raise await refusals.moved_on(self.store, row, game, state, seat, expected_version)
            waiting_before = game.to_act(state)
            if seat not in waiting_before:
                raise refusals.not_your_turn(row, game, state)
            if choice is not None:
                offered = await self.choices(row, game, state, seat)
                if not 0 <= choice < len(offered):
                    raise TurnRefused("stale", "core.ui.stale")
                picks = [_pick_index(i) for i in offered[choice].chain]
            with self.stage("apply"):
                # the engine and the seat-filler AI run off the event loop, so a long AI turn
                # at one table never delays another interaction's 3-second acknowledgement
                try:
                    state, entries, events = await self.off_loop(self._advance, row, game, state, seat, user_id, picks)
                except TurnRefused:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise await self._action_failed(row, seat, exc) from None
            with self.stage("save"):
                row.version = await self._save_turn(row, game, state, entries)
            row.state_json = None  # the caller has ``state``; avoid keeping two copies
            return TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before, entries)

    def _advance(
        self, row: GameRow, game: Game, state: BaseState, seat: str, user_id: int | None, picks: Sequence[Picker]
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Apply the picked actions (and the AI seats after each): pure, synchronous."""
        entries: list[ActionRow] = []
        events: list[Event] = []
        ended = False
        for n, chooser in enumerate(picks):
            if ended or seat not in game.to_act(state) or game.outcome(state) is not None:
                if n == 0:
                    raise TurnRefused("not_your_turn", "core.error.not_your_turn")
                raise TurnRefused("chain_broken", "core.ui.chain_broken", step=n)
            legal = game.legal_actions(state, seat)
            before = state
            try:
                action = chooser(game, state, seat, legal)
                state, evs = game.apply(state, seat, action)
            except GameError as exc:
                raise TurnRefused.from_game_error(exc) from None
            ended = len(picks) > 1 and step_ends_chain(game, before, state, seat)
            entries.append(log_entry(game, seat, user_id, action, evs))
            events += evs
            # between the steps of one chain only the AI moves (the chain was decided without shortcuts)
            state, ai_entries, ai_events = self.run_ai(row, game, state, forced=n == len(picks) - 1)
            entries += ai_entries
            events += ai_events
        return state, entries, events

    async def timeout(
        self,
        game_id: int,
        expected_version: int,
        seats: Sequence[str] | None = None,
        policy: str = "default",
    ) -> tuple[TurnResult, list[tuple[str, int]]]:
        """The turn timer (or the time bank) of the decision at ``expected_version``
        ran out: for every human seat waiting (only ``seats``, when given), the
        game's default action (policy "default": the seat-filler AI's choice unless
        the game says otherwise) or the seat-filler AI's own choice (policy "ai"),
        in one commit.  A member away (vacation) is never timed out.  Refused as
        stale when anything happened at the table since."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            if row.version != expected_version:
                raise TurnRefused("stale", "core.ui.stale")
            now = self.clock()
            waiting = [
                (s, u)
                for s in game.to_act(state)
                if (u := row.user_of(s)) is not None
                and (seats is None or s in seats)
                and clocks.away_now(await self.settings.user(u), now) is None
            ]
            if not waiting:
                raise TurnRefused("not_your_turn", "core.error.not_your_turn")
            waiting_before = game.to_act(state)

            def advance():
                st, entries, events = state, [], []
                for s, _ in waiting:
                    if s not in game.to_act(st) or game.outcome(st) is not None:
                        continue
                    action = ai_move(game, row, st, s) if policy == "ai" else timer_move(game, row, st, s)
                    st, evs = game.apply(st, s, action)
                    entries.append(log_entry(game, s, None, action, evs))
                    events += evs
                    st, more, more_events = self.run_ai(row, game, st)
                    entries += more
                    events += more_events
                return st, entries, events

            try:
                state, entries, events = await self.off_loop(advance)
            except Exception as exc:  # noqa: BLE001
                raise await self._action_failed(row, waiting[0][0], exc) from None
            notes = [
                {
                    "note": "timeout",
                    "seats": [[s, u] for s, u in waiting],
                    "policy": policy,
                    "bank": clocks.of(row.table) is not None,
                }
            ]
            row.version = await self._save_turn(row, game, state, entries, notes=notes)
            result = TurnResult(row, game, state, events, [e.seat for e in entries], waiting_before, entries, notes)
            return result, waiting

    # ============================================================= undo
    async def _undo_plan(self, loaded: Loaded, user_id: int) -> tuple[BaseState, list[int], bool, list[int]]:
        """(state before ``user_id``'s last action, log ids to take back, free?, the other
        members whose decisions the undo removes): free when no die was rolled, nothing
        hidden revealed and no other human acted since.
        The state is rebuilt from the nearest snapshot before that action (a cache that
        must lead to the stored state), else from the seed."""
        row, game, state = loaded.row, loaded.game, loaded.state
        for key in (snapshot_key(game), None):
            src = await self.store.replay_source(row.id, key, user_id=user_id)
            if src.version != row.version:
                # the log is newer (or older) than the state we hold: another process moved
                # in between; decide again on fresh data rather than blame the snapshots
                raise _Raced()
            if src.cut is None:
                raise TurnRefused("nothing_to_undo", "core.ui.nothing_to_undo")
            tail = src.actions[src.cut :]
            try:
                before = await self._rebuild(row, game, src, src.cut)
                check = await self.off_loop(game.apply_all, before, [(e.seat, e.action) for e in tail])
            except (SnapshotUnusable, GameError) as exc:
                if src.snapshot is None:
                    raise TurnRefused("undo_impossible", "core.ui.undo_impossible") from None
                await self._bad_snapshot(row, src, exc)
                continue
            if check.model_dump_json() == state.model_dump_json():
                break
            if src.snapshot is None:
                raise TurnRefused("undo_impossible", "core.ui.undo_impossible")
            await self._bad_snapshot(row, src, "it does not lead to the stored state")
        others = any(e.user_id not in (None, user_id) for e in tail)
        free = not others and before.rng == state.rng and not game.hidden_revealed(before, state)
        return before, [e.id for e in tail], free, undo_rule.removed_players(tail, user_id)

    async def undo(self, game_id: int, user_id: int) -> UndoResult:
        """Take back ``user_id``'s last action by replaying the log without it;
        when a die was rolled, something hidden revealed or another human acted
        since, the players whose decisions it removes must agree first (a vote is
        opened; tables/undo_rule.py)."""
        async with self.store.lock(game_id):
            for _ in range(5):
                loaded = await self.load(game_id)
                row, game = loaded.row, loaded.game
                seat = row.seat_of(user_id)
                if seat is None:
                    raise TurnRefused("not_seated", "core.ui.not_seated")
                try:
                    before, revert, free, removed = await self._undo_plan(loaded, user_id)
                except _Raced:
                    continue  # another process moved between our two reads: look again
                break
            else:
                raise TurnRefused("stale", "core.ui.stale")
            voters = undo_rule.asked(removed, row.humans, user_id)
            if free or not voters:  # nobody to ask: the only human at the table decides
                notes = [{"note": "undone", "user": user_id}]
                row.version = await self._save_turn(row, game, before, [], revert=revert, by_user=user_id, notes=notes)
                return UndoResult(done=TurnResult(row, game, before, [], [], notes=notes))
            payload = {"user": user_id, "action": revert[0]}  # the decision asked about
            vote = await self._open_vote(row, "undo", payload, voters, len(voters), user_id, decision=f"undo:{seat}")
            return UndoResult(vote=VoteOpened(vote, voters, len(voters)))

    async def _open_vote(
        self,
        row: GameRow,
        kind: str,
        payload: dict[str, Any],
        voters: list[int],
        needed: int,
        by: int,
        *,
        decision: str | None = None,
    ) -> Vote:
        """Open a vote on the decision at ``row.version``; at most one per ``decision``
        (a compare-and-swap in the database, across processes): refused when it exists."""
        new = NewVote(row.id, kind, {**payload, "needed": needed}, row.version, voters, by, decision)
        try:
            done = await self.store.commit(ChangeSet(new_votes=[new]))
        except VoteTaken:
            raise TurnRefused("vote_exists", "asyncplay.vote_exists") from None
        vote = await self.store.get_vote(done.vote_ids[0])
        assert vote is not None
        return vote

    # ======================================================== hand-over
    def idle_minutes(self, row: GameRow, settings: dict[str, Any]) -> float:
        """How long a seat must have waited before others may vote it away: the
        table's reminder interval (else the server's, else 12 hours)."""
        remind = float(row.table.get("reminder", settings.get("reminder")) or 0)
        return remind or IDLE_DEFAULT_MINUTES

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
        """Give ``seat`` to member ``to`` (None: the AI).

        Seat safety: the host, a server admin, or the seat's owner hands it over
        at once.  Anyone else seated may open a vote: on an AI seat, a majority
        of the human players decides; on a human's seat, only after that seat
        has been waiting for its decision longer than the table's reminder
        interval, and then a majority of the *other* humans (at least two when
        there are three or more humans); the owner is pinged and may refuse."""
        now = self.clock() if now is None else now
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row = loaded.row
            if seat not in [s.seat for s in row.seats]:
                raise TurnRefused("unknown_seat", "core.error.unknown_seat", seat=seat)
            if to is not None and row.seat_of(to) not in (None, seat):
                raise TurnRefused("already_seated", "core.ui.already_seated")
            owner = row.user_of(seat)
            if user_id == row.host_id or admin or (owner is not None and user_id == owner):
                note = {"note": "handover", "seat": seat, "to": to, "previous": owner}
                return HandoverResult(done=await self._hand_over(loaded, seat, to, notes=[note]))
            if row.seat_of(user_id) is None:
                raise TurnRefused("host_only", "core.ui.host_only")
            if owner is None:
                voters = list(row.humans)
                needed = len(voters) // 2 + 1
            else:
                if clocks.away_now(await self.settings.user(owner), now) is not None:
                    raise TurnRefused("owner_away", "asyncplay.owner_away", seat=seat)  # never voted off while away
                settings = await self.settings.guild(row.guild_id)
                idle = self.idle_minutes(row, settings)
                waited = now - (row.turn_started_at or row.updated_at)
                if seat not in row.to_act or waited < idle * 60:
                    raise TurnRefused(
                        "seat_not_idle", "discord.table.seat_not_idle", seat=seat, hours=round(idle / 60, 1)
                    )
                voters = [u for u in row.humans if u != owner]
                needed = max(len(voters) // 2 + 1, 2 if len(row.humans) >= 3 else 1)
            vote = await self._open_vote(
                row,
                "handover",
                {"seat": seat, "to": to, "owner": owner},
                voters,
                needed,
                user_id,
                decision=f"seat:{seat}",
            )
            return HandoverResult(vote=VoteOpened(vote, voters, needed, owner))

    def _handover_state(self, row: GameRow, game: Game, state: BaseState, seat: str, to: int | None):
        seats = [replace(s, user_id=to) if s.seat == seat else s for s in row.seats]
        moved = replace(row, seats=seats)
        return seats, moved

    async def _hand_over(
        self, loaded: Loaded, seat: str, to: int | None, votes=(), notes: Sequence[dict[str, Any]] = ()
    ) -> TurnResult:
        """The seat changes hands and, when it went to the AI and is to act, the
        AI plays at once: one commit."""
        row, game, state = loaded.row, loaded.game, loaded.state
        seats, moved = self._handover_state(row, game, state, seat, to)
        state, entries, events = await self._run_ai(moved, game, state)
        moved.version = await self._save_turn(moved, game, state, entries, seats=seats, votes=votes, notes=notes)
        return TurnResult(moved, game, state, events, [e.seat for e in entries], [], entries, list(notes))

    async def resign(self, game_id: int, user_id: int) -> TurnResult:
        """The user leaves: their seat goes to the AI; with no human left the
        table ends and the resigner is recorded as beaten.  One call, one commit."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row, game, state = loaded.row, loaded.game, loaded.state
            seat = row.seat_of(user_id)
            if seat is None:
                raise TurnRefused("not_seated", "core.ui.not_seated")
            note = {"note": "resigned", "user": user_id}
            if [u for u in row.humans if u != user_id]:
                return await self._hand_over(loaded, seat, None, notes=[note])
            outcome = {
                "winners": [],
                "scores": {},
                "reason": {"key": "core.ui.resigned_outcome", "params": {"seat": seat}},
            }
            results = [ResultRow(seat=seat, user_id=user_id, place=len(row.seats) + 1, won=False)]
            notes = [{**note, "closed": True}]
            change = GameChange(row.id, row.version, status="finished", outcome=outcome, to_act=[], results=results)
            try:
                done = await self.store.commit(ChangeSet(game=change, owed=self.owed(notes, "notice")))
            except VersionConflict:
                raise TurnRefused("stale", "core.ui.stale") from None
            assert done.version is not None
            row.version = done.version
            row.status = "finished"
            return TurnResult(row, game, state, [], [], notes=notes, kind="notice")

    # ============================================================ votes
    async def ballot(self, vote_id: int, user_id: int, yes: bool) -> BallotResult:
        """One member's answer to a vote.  The ballot, and when it decides the
        vote the undo or hand-over it carries, are one commit on the vote's and
        the table's versions.  A ballot that lost the race to another ballot
        is counted again on the fresh vote (both count)."""
        for _ in range(10):
            vote = await self.store.get_vote(vote_id) if _storable(vote_id) else None
            if vote is None or vote.status != "open":
                raise TurnRefused("vote_closed", "core.ui.vote_closed")
            try:
                return await self._ballot(vote, user_id, yes)
            except _Raced:
                continue
        raise TurnRefused("stale", "core.ui.stale")

    async def _ballot(self, vote: Vote, user_id: int, yes: bool) -> BallotResult:
        if vote.kind == "undo" and "action" in vote.payload:
            return await self._undo_ballot(vote, user_id, yes)
        owner = vote.payload.get("owner") if vote.kind == "handover" else None
        if user_id not in vote.voters and user_id != owner:
            raise TurnRefused("not_a_voter", "core.ui.not_a_voter")
        async with self.store.lock(vote.game_id):
            try:
                row = await self.row(vote.game_id)
            except TurnRefused:
                row = None
            if row is None or row.version != vote.base_version or row.status != "active":
                await self._close_vote(vote, "expired")
                return BallotResult("expired", vote, reason="moved_on")
            needed = int(vote.payload.get("needed") or (len(vote.voters) // 2 + 1))
            if owner is not None and user_id == owner:
                # the owner answers for their own seat: a yes hands it over, a no ends the vote
                ayes, nays, passed, failed = list(vote.yes), list(vote.no), yes, not yes
            else:
                ayes = sorted((set(vote.yes) | {user_id}) if yes else (set(vote.yes) - {user_id}))
                nays = sorted((set(vote.no) - {user_id}) if yes else (set(vote.no) | {user_id}))
                failed = len(vote.voters) - len(nays) < needed  # cannot pass any more
                passed = not failed and len(ayes) >= needed
            if not passed:
                status = "refused" if failed else None
                try:
                    await self.store.commit(
                        ChangeSet(votes=[VoteChange(vote.id, vote.version, yes=ayes, no=nays, status=status)])
                    )
                except VersionConflict:
                    raise _Raced() from None
                return BallotResult("refused" if failed else "counted", vote, len(ayes), needed)
            closing = [VoteChange(vote.id, vote.version, yes=ayes, no=nays, status="passed")]
            game, state = await self.open_state(row)
            loaded = Loaded(row, game, state)
            try:
                if vote.kind == "undo":
                    who = int(vote.payload["user"])
                    before, revert, _, _ = await self._undo_plan(loaded, who)
                    notes = [{"note": "undone", "user": who}]
                    row.version = await self._save_turn(
                        row, game, before, [], revert=revert, by_user=who, votes=closing, notes=notes
                    )
                    result = TurnResult(row, game, before, [], [], notes=notes)
                else:
                    seat, to = vote.payload["seat"], vote.payload.get("to")
                    note = {"note": "handover", "seat": seat, "to": to, "previous": vote.payload.get("owner")}
                    result = await self._hand_over(loaded, seat, to, votes=closing, notes=[note])
            except TurnRefused as exc:
                if exc.code == "stale":
                    fresh = await self.store.get_vote(vote.id)
                    if fresh is not None and fresh.version != vote.version:
                        raise _Raced() from None
                raise
            return BallotResult("passed", vote, len(ayes), needed, result)

    async def _undo_ballot(self, vote: Vote, user_id: int, yes: bool) -> BallotResult:
        """A ballot on an undo vote (tables/undo_rule.py): it survives the table moving
        on; who is asked is worked out again from the log now (a move made since is one
        more decision it removes, so its player is asked too)."""
        mover = int(vote.payload["user"])
        async with self.store.lock(vote.game_id):
            try:
                row = await self.row(vote.game_id)
            except TurnRefused:
                row = None
            if row is None or row.status != "active" or row.state_json is None:
                await self._close_vote(vote, "expired")
                return BallotResult("expired", vote, reason="ended")
            game, state = await self.open_state(row)
            loaded = Loaded(row, game, state)
            try:
                before, revert, _, removed = await self._undo_plan(loaded, mover)
            except TurnRefused as exc:
                if exc.code != "nothing_to_undo":
                    raise
                revert, removed = [], []
            if not undo_rule.applies(vote.payload, revert):
                await self._close_vote(vote, "expired")
                later = bool(revert) and revert[0] > int(vote.payload["action"])
                return BallotResult("expired", vote, reason="decided_again" if later else "gone")
            asked = undo_rule.asked(removed, row.humans, mover)
            if user_id not in asked:
                raise TurnRefused("not_a_voter", "core.ui.not_a_voter")
            ayes = sorted((set(vote.yes) | {user_id}) if yes else (set(vote.yes) - {user_id}))
            nays = sorted((set(vote.no) - {user_id}) if yes else (set(vote.no) | {user_id}))
            passed, failed = undo_rule.tally(asked, ayes, nays)
            waiting = [u for u in asked if u not in ayes]
            counted = len([u for u in asked if u in ayes])
            if not passed:
                try:
                    await self.store.commit(
                        ChangeSet(
                            votes=[
                                VoteChange(
                                    vote.id, vote.version, yes=ayes, no=nays, status="refused" if failed else None
                                )
                            ]
                        )
                    )
                except VersionConflict:
                    raise _Raced() from None
                status = "refused" if failed else "counted"
                return BallotResult(status, vote, counted, len(asked), waiting=waiting)
            closing = [VoteChange(vote.id, vote.version, yes=ayes, no=nays, status="passed")]
            try:
                row.version = await self._save_turn(row, game, before, [], revert=revert, by_user=mover, votes=closing)
            except TurnRefused as exc:
                if exc.code == "stale":
                    fresh = await self.store.get_vote(vote.id)
                    if fresh is not None and fresh.version != vote.version:
                        raise _Raced() from None
                raise
            return BallotResult("passed", vote, counted, len(asked), TurnResult(row, game, before, [], []))

    async def _close_vote(self, vote: Vote, status: str) -> None:
        try:
            await self.store.commit(ChangeSet(votes=[VoteChange(vote.id, vote.version, status=status)]))
        except VersionConflict:
            pass  # somebody else closed it first

    # ======================================================== scheduler
    async def due(self, now: float) -> list[Due]:
        """Work for one scheduler pass: every running table whose turn timer ran
        out (that beats a reminder) or whose waiting members are due a reminder
        (members in their quiet hours are left for a later pass).  The store reads
        only the tables with a seat due at ``now`` (indexed due times)."""
        out: list[Due] = []
        for row in await self.store.due_tables(now):
            humans = [(seat, uid) for seat in row.to_act if (uid := row.user_of(seat)) is not None]
            if not humans:
                continue
            settings = await self.settings.guild(row.guild_id)
            prefs = {uid: await self.settings.user(uid) for _, uid in humans}
            present = [(s, u) for s, u in humans if clocks.away_now(prefs[u], now) is None]
            timer = float(row.table.get("turn_timer", settings["turn_timer"]) or 0)
            remind = float(row.table.get("reminder", settings["reminder"]) or 0)
            started = row.turn_started_at or row.updated_at
            clock = clocks.of(row.table)
            if clock is not None and clock.get("banks"):  # a clock profile takes the turn timer's place
                expired = [
                    (s, u)
                    for s, u in present
                    if (end := clocks.runs_out(clock, s, away_periods(prefs[u]))) is not None and now >= end
                ]
                if expired:
                    policy = str(clock.get("policy") or "ai")
                    if policy == "vote" and not await self._present_voters(row, expired[0][1], now):
                        policy = "ai"  # nobody else here to vote: the AI moves
                    out.append(Due(row, "timeout", expired, policy=policy))
                    continue
            elif timer:
                expired = [
                    (s, u) for s, u in present if now >= runs_out_at(started, timer * 60, away_periods(prefs[u]))
                ]
                if expired:
                    out.append(Due(row, "timeout", expired))
                    continue
            if (
                remind
                and now >= started + remind * 60
                and (row.last_reminder_at is None or now >= row.last_reminder_at + remind * 60)
            ):
                awake = [uid for _, uid in present if not in_quiet_hours(prefs[uid], now)]
                if awake:
                    out.append(Due(row, "remind", humans, awake))
        return out

    async def claim_reminder(self, row: GameRow, now: float) -> bool:
        """Book the reminder for the decision ``row`` shows; False when the
        table moved on or somebody (another pass or process) reminded already."""
        return await self.store.mark_reminded(row.id, now, expected_version=row.version, previous=row.last_reminder_at)

    async def release_reminder(self, row: GameRow, now: float) -> None:
        """Undo :meth:`claim_reminder` when the reminder could not be sent (it stays due)."""
        await self.store.mark_reminded(row.id, row.last_reminder_at, expected_version=row.version, previous=now)

    # ============================================ async play (issue 15)
    async def expiry_votes(self, game_id: int, expected_version: int, seats: Sequence[str]) -> list[VoteOpened]:
        """Time-bank policy "vote": a seat whose bank ran out may be voted to the AI at
        once by the other humans (a majority of them; the owner may still move, or
        refuse).  One vote per seat and decision: none is opened twice."""
        async with self.store.lock(game_id):
            loaded = await self.load(game_id)
            row = loaded.row
            if row.version != expected_version:
                raise TurnRefused("stale", "core.ui.stale")
            open_for = {v.payload.get("seat") for v in await self.store.open_votes(row.id) if v.kind == "handover"}
            out = []
            now = self.clock()
            for seat in seats:
                owner = row.user_of(seat)
                voters = await self._present_voters(row, owner, now)
                if owner is None or seat in open_for or not voters:
                    continue
                needed = len(voters) // 2 + 1
                payload = {"seat": seat, "to": None, "owner": owner, "expired": True}
                try:
                    vote = await self._open_vote(
                        row, "handover", payload, voters, needed, owner, decision=f"seat:{seat}"
                    )
                except TurnRefused as exc:
                    if exc.code == "vote_exists":  # another process (or pass) opened it first
                        continue
                    raise
                out.append(VoteOpened(vote, voters, needed, owner))
            return out

    async def _present_voters(self, row: GameRow, owner: int | None, now: float) -> list[int]:
        """The other humans at the table who are not away (they can answer a vote)."""
        return [u for u in row.humans if u != owner and clocks.away_now(await self.settings.user(u), now) is None]

    async def go_away(self, user_id: int, days: float) -> tuple[float, float]:
        """A vacation of ``days`` from now (extending one under way): the member's
        banks and pings pause at every table.  Returns (start, end); refused when it
        exceeds the yearly allowance."""
        if not 0 < days <= clocks.AWAY_DAYS_PER_YEAR:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=1, hi=clocks.AWAY_DAYS_PER_YEAR)
        now = self.clock()

        def change(prefs: dict[str, Any]) -> dict[str, Any]:
            new, allowed = clocks.go_away(prefs, now, days)
            if new is None:
                raise TurnRefused("away_allowance", "asyncplay.away_allowance", days=allowed)
            return new

        new = await self.settings.update_user(user_id, change)  # the store re-times the member's seats
        current = clocks.away_now(new, now)
        assert current is not None
        return current

    async def come_back(self, user_id: int) -> None:
        """End the member's vacation now (the unused days return to the allowance)."""
        now = self.clock()

        def change(prefs: dict[str, Any]) -> dict[str, Any]:
            new = clocks.come_back(prefs, now)
            if new is None:
                raise TurnRefused("not_away", "asyncplay.not_away")
            return new

        await self.settings.update_user(user_id, change)

    async def bank_lines(
        self, row: GameRow, now: float | None = None
    ) -> list[tuple[str, int | None, float, bool, float | None]]:
        """(seat, member, when its bank runs out or seconds left, waiting?, away until)
        per seat of a table with a clock profile: waiting seats get the time their bank
        runs out (for a Discord timestamp; a vacation's pause included), the others
        what their bank holds."""
        clock = clocks.of(row.table)
        if clock is None or not clock.get("banks"):
            return []
        now = self.clock() if now is None else now
        away = await self._away(row)
        out: list[tuple[str, int | None, float, bool, float | None]] = []
        for s in row.seats:
            periods = away.get(s.seat, [])
            until = next((b for a, b in periods if a <= now < b), None)
            waiting = s.seat in row.to_act and row.status == "active"
            if waiting:
                end = clocks.runs_out(clock, s.seat, periods)
                out.append((s.seat, s.user_id, end if end is not None else now, True, until))
            else:
                out.append((s.seat, s.user_id, clocks.left(clock, s.seat, now, waiting=False), False, until))
        return out

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
                settings = await self.settings.guild(row.guild_id)
                away = away_periods(await self.settings.user(user_id))
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
        row = await self.row(channel_id=channel_id)
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
            row = await self.row(channel_id=channel_id)
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
        row = await self.row(channel_id=channel_id)
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
                loaded = await self.load(f.game_id, statuses=("active", *FINISHED))
            except TurnRefused:
                continue
            out.append((f, loaded.row, loaded.game, loaded.state))
        return out

    async def follow_sent(self, game_id: int, user_id: int, version: int, previous: int, now: float) -> bool:
        return await self.store.mark_follow_sent(game_id, user_id, version, now, previous)

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """What is kept about the member (see tables/privacy.py); ``guild_id``: that server's only."""
        return await self.privacy.footprint(user_id, guild_id)

    async def forget(self, user_id: int, guild_id: int | None = None) -> dict[str, int]:
        """Forget the member at every table they sat at or hosted, running or finished
        (see tables/privacy.py); refused, naming the tables, while they still sit at a
        lobby or running table (resign first)."""
        try:
            counts = await self.privacy.forget(user_id, guild_id)
        except StillSeated as exc:
            ids = ", ".join(f"#{i}" for i in exc.game_ids)
            raise TurnRefused("still_seated", "asyncplay.forget_seated", ids=ids) from None
        counts["web_sessions"] = await end_sessions(self.store, user_id)  # signed in on the web: signed out
        return counts

    # ============================================================ outbox
    async def delivered(self, game_id: int, version: int) -> None:
        """Discord confirmed the board (or notice) of ``version``: the outbox forgets it."""
        await self.store.outbox_done(game_id, version)

    async def delivery_failed(self, game_id: int, version: int) -> None:
        """Showing ``version`` failed: the scheduler of any process tries again after the
        backoff (longer with each failed try of the same board)."""
        owed = await self.store.outbox(game_id)
        if owed is None or owed.version != version:
            return
        await self.store.outbox_retry(game_id, version, self.owner, self.clock() + backoff(owed.attempts))

    async def still_owed(self, game_id: int, version: int) -> bool:
        """Whether the board of ``version`` is still the table's newest undelivered one
        (False: a later change owes a newer board, or it was shown already)."""
        owed = await self.store.outbox(game_id)
        return owed is not None and owed.version == version

    async def due_deliveries(self, now: float) -> list[OutboxRow]:
        """Deliveries the scheduler may try now (backoff over, no live lease)."""
        return await self.store.due_outbox(now)

    async def claim_delivery(self, owed: OutboxRow, now: float) -> Delivery | None:
        """Take one delivery for this process (a compare-and-swap, so one process at a
        time) with what showing it needs; None when another process took it, or when
        the table moved on without it (a superseded board is never posted: it is
        dropped) or cannot be read any more."""
        if not await self.store.claim_outbox(owed, self.owner, now + self.lease, now):
            return None
        owed = replace(owed, attempts=owed.attempts + 1, lease_owner=self.owner)
        try:
            row = await self.row(owed.game_id)
        except TurnRefused:
            row = None
        if row is None or row.version != owed.version or now - owed.created_at > DELIVERY_GIVE_UP:
            if row is not None and row.version == owed.version:
                log.warning("table %s: board of version %s given up after a day", owed.game_id, owed.version)
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        try:
            game, state = await self.open_state(row) if row.state_json is not None else (get_game(row.game), None)
        except TurnRefused:
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        if state is None:
            await self.store.outbox_done(owed.game_id, owed.version)
            return None
        total = await self.store.count_actions(row.id)
        recent = await self.store.actions(row.id, limit=50, offset=max(0, total - 50))
        entries = [a for a in recent if a.version >= owed.since]
        events = [e for a in entries for e in game.load_events(a.events)]
        result = TurnResult(
            row, game, state, events, [a.seat for a in entries], [], list(entries), list(owed.notes), owed.kind
        )
        return Delivery(owed, result)

    # ============================================================ render
    async def choices(self, row: GameRow, game: Game, state: BaseState, seat: str) -> list[Choice]:
        """What ``seat`` is offered now (see :mod:`tables.choices`), computed off
        the event loop once per table version."""
        return await _once_per_version(
            self._choices, (row.id, row.version, seat), lambda: self.off_loop(choices, game, state, seat)
        )

    async def numbered(
        self, row: GameRow, game: Game, state: BaseState, seat: str
    ) -> tuple[list[int | None], dict[str, int]]:
        """Each offered choice's number and the board's ``{location: number}``
        (:func:`tables.choices.numbering` of the places the choices mark), once
        per table version."""

        async def compute() -> tuple[list[int | None], dict[str, int]]:
            offered = await self.choices(row, game, state, seat)
            return numbering(await self.off_loop(destinations, game, state, seat, offered))

        return await _once_per_version(self._marks, (row.id, row.version, seat), compute)

    async def offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> list[tuple[int, str, str]]:
        """(choice index, label, group) of what ``seat`` is offered now, for its
        buttons; a choice that marks a place on the board starts with its number."""
        offered, _ = await self.board_offer(row, game, state, seat, locale, labels)
        return offered

    async def board_offer(
        self, row: GameRow, game: Game, state: BaseState, seat: str, locale: str, labels: SeatLabels | None = None
    ) -> tuple[list[tuple[int, str, str]], dict[str, int]]:
        """What ``seat`` is offered (as :meth:`offer`) and the marks the same
        choices put on the board image (pass them to :meth:`render`)."""
        offered = await self.choices(row, game, state, seat)
        numbers, marks = await self.numbered(row, game, state, seat)
        described = await self.off_loop(describe, game, state, seat, offered, locale, labels, numbers)
        return [(i, label, group) for i, (label, group) in enumerate(described)], marks

    async def render(
        self,
        game: Game,
        state: BaseState,
        seat: str | None,
        locale: str,
        labels: SeatLabels | None = None,
        marks: Mapping[str, int] | None = None,
    ) -> bytes:
        """The board image; ``marks``: the offered choices' numbered places
        (:meth:`board_offer`), drawn on the board."""
        with self.stage("render"):
            view = game.view(state, seat, labels)
            if marks and "marks" in type(view).model_fields:
                view = view.model_copy(update={"marks": dict(marks)})
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self.executor, render, game.id, view, locale)
            except Exception:  # a broken picture must not lose the turn: draw the fallback board
                log.exception("renderer for %s failed; using the fallback image", game.id)
                lines = [game.summary(state).text(locale)] + [
                    f"{s}: {game.prompt(state, s).text(locale)}" for s in game.to_act(state)
                ]
                return await loop.run_in_executor(
                    self.executor, render_fallback, view, locale, t(f"discord.game.{game.id}", locale), lines
                )


T = TypeVar("T")


async def _once_per_version(cache: dict[Any, T], key: Any, compute: Callable[[], Awaitable[T]]) -> T:
    """``cache[key]``, computed once (keys carry the table version, so a saved change
    makes new ones; the cache is emptied when it holds more than 512)."""
    found = cache.get(key)
    if found is None:
        found = await compute()
        if len(cache) > 512:
            cache.clear()
        cache[key] = found
    return found


def limit_refused(exc: LimitReached) -> TurnRefused:
    """The private refusal that names the limit reached."""
    code, key, params = limits.refusal(exc)
    return TurnRefused(code, key, **params)


def _storable(row_id: int) -> bool:
    """Whether a row can have this id (a forged custom_id or option may carry any
    integer; the stores keep 64-bit ones)."""
    return -(2**63) <= row_id < 2**63


def _validate(game: Game, state: BaseState) -> str | None:
    """The game's own check of what a state means, when the engine offers one
    (``validate(state)``: raises, or returns the first problem)."""
    check = getattr(game, "validate", None)
    if check is None:
        return None
    problem = check(state)
    if problem is None or problem is True:
        return None
    if problem is False:
        return "validation failed"
    if isinstance(problem, (list, tuple)):
        return str(problem[0]) if problem else None
    return str(problem)


def _with_clock(table: dict[str, Any]) -> dict[str, Any]:
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


def _written(row: GameRow, change: GameChange) -> None:
    """Keep ``row`` in step with what ``change`` wrote (who waits now, the settled time banks)."""
    if change.to_act is not None:
        row.to_act = list(change.to_act)
    if change.table is not None:
        row.table = change.table


def _free_seat(seats: list[Seat]) -> str:
    taken = {s.seat for s in seats}
    n = 1
    while f"p{n}" in taken:
        n += 1
    return f"p{n}"


def log_entry(
    game: Game, seat: str, user_id: int | None, action: Any, events: Sequence[Event], *, auto: bool = False
) -> ActionRow:
    """One row of the action log: who acted, the action and what it caused (all JSON)."""
    return Logged(
        seat=seat,
        user_id=user_id,
        action=game.parse_action(action).model_dump(mode="json"),
        events=game.dump_events(events),
        evs=list(events),
        auto=auto,
    )


def _pick_index(i: int) -> Picker:
    def pick(game: Game, state: BaseState, seat: str, legal: list[Any]) -> Any:
        if not 0 <= i < len(legal):
            raise TurnRefused("stale", "core.ui.stale")
        return legal[i]

    return pick


def placings(row: GameRow, game: Game, state: BaseState) -> list[ResultRow]:
    """Places for the human seats of a finished game: winners 1st, the rest from
    2nd by score (highest first) when the game scores, else all 2nd."""
    out = game.outcome(state)
    assert out is not None
    ranked: dict[str, int] = {s: 1 for s in out.winners}
    others = [s.seat for s in row.seats if s.seat not in ranked]
    scores = out.scores
    # a table nobody won (a lost solo or co-operative game) ranks everyone behind a winner
    if scores:
        values = sorted({scores.get(s, float("-inf")) for s in others}, reverse=True)
        for seat in others:
            ranked[seat] = 2 + values.index(scores.get(seat, float("-inf")))
    else:
        for seat in others:
            ranked[seat] = 2
    return [
        ResultRow(
            seat=s.seat,
            user_id=s.user_id,
            place=ranked[s.seat],
            won=s.seat in out.winners,
            score=scores.get(s.seat),
            record=game.record(state, s.seat),
        )
        for s in row.seats
        if s.user_id is not None
    ]

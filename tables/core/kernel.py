"""The table kernel: the only code that commits a change to a table.

It loads and validates a table (an unreadable or invalid row is quarantined),
advances a game (the player's picks, then the autopilot: every step nobody clicked,
tables/core/autopilot.py) and commits one change in one
compare-and-swap (:meth:`Kernel.commit`): the state, the log, who acts next,
the time banks, and whatever the change owes -- the channel's board or notice
(the outbox), a snapshot, ratings and campaign progress when the game ends.
The feature modules (lobby, turns, seats, votes, schedule, history, people,
campaigns, delivery, views) decide a change and hand it to the kernel.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from typing import Any

from engine import GameError, get_game
from engine.base import BaseState, Event, Game
from store import (
    ActionRow,
    Campaign,
    CampaignChange,
    ChangeSet,
    Committed,
    CorruptRow,
    GameChange,
    GameRow,
    NewSnapshot,
    Owed,
    RatingChange,
    ReplaySource,
    Seat,
    Store,
    StoreUnavailable,
    VersionConflict,
)
from store.ports import KernelStore
from tables.core import standing
from tables.core.autopilot import ForcedChoice, Policy, SeatFiller, run
from tables.core.common import Loaded, Picker, TurnRefused, log_entry, placings, storable, validate
from tables.core.snapshots import SNAPSHOT_EVERY, snapshot_due, snapshot_key
from tables.core.snapshots import rebuild as rebuild_state
from tables.rules import clocks, ratings
from tables.rules.preview import step_ends_chain
from tables.rules.settings import Settings

log = logging.getLogger("tabletop.tables")

#: how long a process that committed a change has to show it before the
#: scheduler of any process may deliver it instead (the outbox lease, seconds)
DELIVERY_LEASE = 60.0


class Kernel:
    """Load, validate, advance and commit a table (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        executor=None,
        max_ai_steps: int = 2000,
        *,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ):
        #: the whole backend: the facade and each feature take their own narrow port of it (store/ports/)
        self.backend = store
        #: what the kernel itself calls
        self.store: KernelStore = store
        self.executor = executor
        self.max_ai_steps = max_ai_steps
        self.settings = settings or Settings(store, clock=clock)
        self.clock = clock
        #: when a dict, each stage's wall time (seconds) is appended under its name (bench/)
        self.timings: dict[str, list[float]] | None = None
        #: take a human seat's decision that has exactly one legal choice (said in the log)
        self.auto_forced = True
        #: policies consulted after the AI seats and forced choices (:meth:`standing_orders`), and
        #: the delay of a standing order's step whose timing is hidden (tables/core/standing.py)
        self.standing: Sequence[Policy] = ()
        self.order_delay: Callable[[], float] = standing.random_delay
        #: cache the state every this many log positions (tables/core/snapshots.py); 0: never
        self.snapshot_every = SNAPSHOT_EVERY
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
    async def check(self) -> None:
        """Raise StoreUnavailable when the database can no longer be written (the
        scheduler's periodic pass, so a lost database is noticed while nobody plays)."""
        await self.store.check()

    async def quarantine(self, game_id: int, reason: str) -> TurnRefused:
        await self.store.quarantine(game_id, reason)
        log.error("table %s quarantined: %s", game_id, reason)
        return TurnRefused("corrupt", "core.ui.corrupt", id=game_id)

    async def row(self, game_id: int | None = None, *, channel_id: int | None = None) -> GameRow | None:
        """A table's row (by id, or the channel's lobby/running one); an
        unreadable row is quarantined and refused."""
        try:
            if game_id is not None:
                return await self.store.get_game(game_id) if storable(game_id) else None
            assert channel_id is not None
            return await self.store.active_game(channel_id)
        except CorruptRow as exc:
            raise await self.quarantine(exc.game_id, exc.reason) from None

    async def open_state(self, row: GameRow) -> tuple[Game, BaseState]:
        """The game and its state of a stored row; a row the engine cannot load
        or that fails validation is quarantined (whatever the exception)."""
        try:
            game = get_game(row.game)
            state = game.load(row.state_json or "")
            problem = validate(game, state)
            if not problem and (state.game != row.game or set(state.seats) != {s.seat for s in row.seats}):
                # the engine cannot know a table's seats: a state that names others is not this table's
                problem = f"the state's game and seats ({state.game}: {', '.join(state.seats)}) are not the table's"
        except Exception as exc:  # noqa: BLE001 -- any failure to load is a bad row
            raise await self.quarantine(row.id, f"unreadable state: {type(exc).__name__}: {exc}") from None
        if problem:
            raise await self.quarantine(row.id, f"invalid state: {problem}")
        return game, state

    async def load(
        self, game_id: int | None = None, *, channel_id: int | None = None, statuses: Sequence[str] = ("active",)
    ) -> Loaded:
        return await self.loaded(await self.row(game_id, channel_id=channel_id), statuses)

    async def loaded(self, row: GameRow | None, statuses: Sequence[str], place: tuple | None = None) -> Loaded:
        """A row just read, with its state; ``place``: the (server, channel) a click came from,
        refused when not the table's (a forged or replayed click)."""
        if row is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        if place is not None and place != (row.guild_id, row.channel_id):
            raise TurnRefused("other_channel", "discord.forged.other_channel")
        if row.status not in statuses:
            raise TurnRefused("not_running", "core.ui.not_running", id=row.id)
        if row.state_json is None:
            raise TurnRefused("not_started", "core.ui.not_started", id=row.id)
        game, state = await self.open_state(row)
        return Loaded(row, game, state)

    async def rebuild(self, row: GameRow, game: Game, src: ReplaySource, stop: int | None = None) -> BaseState:
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

    async def bad_snapshot(self, row: GameRow, src: ReplaySource, why: object) -> None:
        """A cached state that cannot serve: drop the table's cache (the rebuild from
        the seed that follows fills it again) and say so in the log."""
        log.warning("table %s: snapshot at log position %s dropped: %s", row.id, src.start, why)
        await self.store.drop_snapshots(row.id)

    # ============================================================ writing
    async def commit(self, row: GameRow, build: Callable[[], Awaitable[ChangeSet]]) -> int | None:
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

    async def write(self, changes: ChangeSet) -> Committed:
        """Commit ``changes`` once, as they are (a vote, a ballot, a table ended
        without a turn): the caller decides what a lost compare-and-swap means
        (the store raises VersionConflict or VoteTaken; nothing was written).  What it
        owes Discord besides a board (a new vote's question) this process posts at once."""
        if changes.messenger is None and changes.new_votes:
            changes = replace(changes, messenger=self.owner)
        return await self.store.commit(changes)

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int:
        """A table's row without a turn (a lobby's seats or status), on its version
        (raises VersionConflict); the new version."""
        return await self.store.update_game(game_id, expected_version, **changes)

    async def campaign(self, row: GameRow) -> Campaign | None:
        return await self.store.campaign_by_id(row.campaign_id) if row.campaign_id is not None else None

    def turn_change(
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
        unseated: str | None = None,
    ) -> GameChange:
        """The table's part of a turn: state, log, who acts next and, when the
        game just ended, its outcome and the placings for the leaderboards;
        ``table``: the table's settings with its settled time banks; the armed orders
        as the turn leaves them, every one looked at (``unseated``: why a seat changed
        hands in it; tables/core/standing.py ``sweep``)."""
        standing.sweep(row, game, state, unseated=unseated, undo=bool(revert))
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
            orders=standing.pending(row, [] if outcome else game.to_act(state)),
            snapshot=NewSnapshot(snapshot_key(game), state_json)
            if snapshot_due(game, state, entries, self.snapshot_every)
            else None,
        )

    # ======================================================= time banks
    async def away(self, row: GameRow, now: float | None = None) -> dict[str, list[tuple[float, float]]]:
        """seat -> vacation periods of its member."""
        prefs = {u: await self.settings.user(u) for u in row.humans}
        return clocks.away_of(prefs, {s.seat: s.user_id for s in row.seats})

    async def banked(self, row: GameRow, change: GameChange) -> GameChange:
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
            away=await self.away(row),
            now=self.clock(),
        )
        return replace(change, table={**row.table, "clock": settled})

    async def rated(self, row: GameRow, change: GameChange, only: Sequence[int] | None = None) -> list[RatingChange]:
        """The rating changes of a finished table's results (tables/rules/ratings.py);
        ``only``: of these members' results alone."""
        results = [r for r in change.results if only is None or r.user_id in only]
        if not results or row.guild_id is None:
            return []
        current = await self.store.ratings(row.guild_id, row.game, [r.user_id for r in results])
        return ratings.rate(row.guild_id, row.game, results, current)

    async def finish_campaign(
        self, row: GameRow, game: Game, state: BaseState, base: CampaignChange | None = None
    ) -> list[CampaignChange]:
        """A finished table's story progress for its campaign (read now, so a retry sees the latest)."""
        if game.outcome(state) is None or row.campaign_id is None:
            return [base] if base else []
        if base is not None:
            progress, cid, version = dict(base.progress), base.campaign_id, base.expected_version
        else:
            camp = await self.campaign(row)
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

    def owed(
        self, notes: Sequence[dict[str, Any]] = (), kind: str = "board", dms: Sequence[tuple[int, str]] = ()
    ) -> Owed:
        """What a change owes its channel (and, ``dms``, its members privately: see
        :func:`private_dms`), delivered at once by this process (it holds the lease;
        the scheduler of any process takes over when it runs out)."""
        return Owed(kind, list(notes), self.owner, self.lease, list(dms))

    async def save_turn(
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
        """Commit one turn: the state after ``entries``, with everything it owes
        (time banks, campaign progress, ratings, the board owed to the channel,
        the ``votes`` it closes); ``kw`` go to :meth:`turn_change` (``rated_users``:
        only these members' ratings move, e.g. a league table decided at its deadline).
        The new version."""
        made: list[GameChange] = []
        only = kw.pop("rated_users", None)

        async def build() -> ChangeSet:
            change = await self.banked(row, self.turn_change(row, game, state, entries, **kw))
            made[:] = [change]
            return ChangeSet(
                game=change,
                campaigns=await self.finish_campaign(row, game, state),
                votes=votes,
                ratings=await self.rated(row, change, only),
                owed=self.owed(notes, dms=private_dms(row, game, state, entries)),
            )

        version = await self.commit(row, build)
        assert version is not None
        written(row, made[0])
        if game.outcome(state) is not None:
            row.status = "finished"
        elif kw.get("status"):
            row.status = kw["status"]
        return version

    # ========================================================= autopilot
    async def standing_orders(self, row: GameRow, at_once: Any = ()) -> Sequence[Policy]:
        """The policies the members of ``row`` left to act for them: their standing orders
        (tables/core/standing.py; ``at_once``: seats whose hidden-timing orders fire now, True:
        all), consulted after the AI seats and forced choices on every change."""
        return [*self.standing, *standing.policies(row, self.clock, self.order_delay, at_once)]

    def policies(
        self, *, forced: bool = True, orders: Sequence[Policy] = (), then: Sequence[Policy] = ()
    ) -> list[Policy]:
        """The autopilot's policies in priority order: the seat-filler AI, forced single
        choices (with ``forced``, when :attr:`auto_forced`), ``orders``, then a trigger's own."""
        auto: list[Policy] = [ForcedChoice()] if forced and self.auto_forced else []
        return [SeatFiller(), *auto, *orders, *then]

    def autopilot(
        self, row: GameRow, game: Game, state: BaseState, policies: Sequence[Policy]
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Every step ``policies`` take (tables/core/autopilot.py), at most :attr:`max_ai_steps`:
        pure, synchronous; the caller commits them with the change that caused them."""
        return run(row, game, state, policies, self.max_ai_steps)

    def run_ai(
        self, row: GameRow, game: Game, state: BaseState, *, forced: bool = True
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """The autopilot with the platform's own policies: every AI seat that is to act;
        with ``forced``, also every human decision that has one legal choice."""
        return self.autopilot(row, game, state, self.policies(forced=forced))

    async def advance_ai(self, row: GameRow, game: Game, state: BaseState):
        """The autopilot (AI seats, forced choices, standing orders) off the event loop;
        an engine failure refuses (see :meth:`action_failed`)."""
        policies = self.policies(orders=await self.standing_orders(row))
        try:
            return await self.off_loop(self.autopilot, row, game, state, policies)
        except Exception as exc:  # noqa: BLE001
            raise await self.action_failed(row, None, exc) from None

    async def action_failed(self, row: GameRow, seat: str | None, exc: BaseException) -> TurnRefused:
        """An unexpected error while applying one action: refuse that action;
        quarantine the table only if its stored state is itself bad."""
        log.error("table %s: an action of seat %s failed", row.id, seat or "AI", exc_info=exc)
        await self.open_state(row)  # raises (quarantined) when the stored state is bad
        return TurnRefused("action_failed", "discord.table.action_failed", id=row.id)

    def advance(
        self,
        row: GameRow,
        game: Game,
        state: BaseState,
        seat: str,
        user_id: int | None,
        picks: Sequence[Picker],
        orders: Sequence[Policy] = (),
    ) -> tuple[BaseState, list[ActionRow], list[Event]]:
        """Apply a member's picked actions, validated, and the autopilot after each
        (``orders``: the standing orders, after the last): pure, synchronous."""
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
            last = n == len(picks) - 1
            policies = self.policies(forced=last, orders=orders if last else ())
            state, ai_entries, ai_events = self.autopilot(row, game, state, policies)
            entries += ai_entries
            events += ai_events
        return state, entries, events


def written(row: GameRow, change: GameChange) -> None:
    """Keep ``row`` in step with what ``change`` wrote (who waits now, the settled time banks)."""
    if change.to_act is not None:
        row.to_act = list(change.to_act)
    if change.table is not None:
        row.table = change.table
    standing.written(row, change.orders)


def private_dms(
    row: GameRow, game: Game, state: BaseState, entries: Sequence[ActionRow], *, start: bool = False
) -> list[tuple[int, str]]:
    """(member, "dm" or "hand") for each member a change owes a private message: their
    seat's private events in ``entries``; ``start`` (the table starts): also what their
    seat holds ("hand")."""
    events = [e for a in entries for e in game.load_events(a.events)]
    out = []
    for seat in row.seats:
        if seat.user_id is None:
            continue
        hand = start and bool(game.private_view) and game.private_summary(state, seat.seat) is not None
        if hand or any(e.to is not None and seat.seat in e.to for e in events):
            out.append((seat.user_id, "hand" if hand else "dm"))
    told = {u for u, _ in out}  # an order that switched itself off: its owner is told privately
    return out + [(u, "dm") for u in standing.notified(row, row.version + 1) if u not in told]

"""History: the table ``/game log`` shows, a finished table to export or
replay, its export and its state at any turn (from the nearest snapshot)."""

from __future__ import annotations

from typing import Any

from engine import GameError, get_game
from engine.base import BaseState, Game
from store import ActionRow, CorruptRow, GameRow, UndoRow
from store.ports import HistoryStore
from tables.core.common import FINISHED, Loaded, TurnRefused, storable
from tables.core.kernel import Kernel
from tables.core.snapshots import SnapshotUnusable, snapshot_key
from tables.rules.decisions import taken_by


class History:
    """Reading a table that has ended (or the log of one that runs)."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: HistoryStore = kernel.backend

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        """A table's stored log, oldest first (``limit`` steps from ``offset``)."""
        return await self.store.actions(game_id, limit=limit, offset=offset)

    async def count_actions(self, game_id: int) -> int:
        """How many steps a table's (effective) log holds."""
        return await self.store.count_actions(game_id)

    async def undos(self, game_id: int) -> list[UndoRow]:
        """A table's undos, in log order (``/game log`` shows each where it happened)."""
        return await self.store.undos(game_id)

    async def recent_actions(self, game_id: int, n: int = 50) -> list[ActionRow]:
        """The last ``n`` steps of a table's log, oldest first."""
        total = await self.store.count_actions(game_id)
        return await self.store.actions(game_id, limit=n, offset=max(0, total - n))

    async def last_ended(self, channel_id: int) -> GameRow | None:
        """The channel's most recent finished (or abandoned) table, if any."""
        return await self.store.latest_game(channel_id, FINISHED)

    async def log_table(self, channel_id: int) -> Loaded:
        """The table whose log ``/game log`` shows: the channel's running one,
        else its most recent finished (or abandoned) one."""
        try:
            return await self.k.load(channel_id=channel_id)
        except TurnRefused as exc:
            if exc.code != "no_game":
                raise
        try:
            row = await self.store.latest_game(channel_id, FINISHED)
        except CorruptRow as exc:
            raise await self.k.quarantine(exc.game_id, exc.reason) from None
        if row is None or row.state_json is None:
            raise TurnRefused("no_game", "core.ui.no_game")
        game, state = await self.k.open_state(row)
        return Loaded(row, game, state)

    async def finished_table(self, guild_id: int | None, channel_id: int, game_id: int | None) -> GameRow:
        """A finished (or abandoned) table: the one named, else this channel's most recent."""
        if game_id is None:
            try:
                row = await self.store.latest_game(channel_id, FINISHED)
            except CorruptRow as exc:
                raise await self.k.quarantine(exc.game_id, exc.reason) from None
            if row is None:
                running = await self.k.row(channel_id=channel_id)
                if running is not None:
                    raise TurnRefused("running", "core.ui.export_when_finished", id=running.id)
                raise TurnRefused("no_game", "core.ui.no_game")
        else:
            try:
                row = await self.store.get_game(game_id) if storable(game_id) else None
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
            # every step, and who took it ("player", "ai", "auto": tables/rules/decisions.py)
            "log": [{"seat": a.seat, "action": a.action, "by": taken_by(a)} for a in log_rows],
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
                state = await self.k.rebuild(row, game, src)
            except (SnapshotUnusable, GameError) as exc:
                if src.snapshot is None:
                    raise TurnRefused("undo_impossible", "core.ui.undo_impossible") from None
                await self.k.bad_snapshot(row, src, exc)
                continue
            break
        assert state is not None
        n = src.total if want is None else min(want, src.total)
        return game, state, n, src.total

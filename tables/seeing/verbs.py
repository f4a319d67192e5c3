"""What a viewer sees, for the facade (issue 30 item 1): a board, a past frame, whether a
table is shown to anyone, a member's catch-up, each built from the rooms it reads
(:class:`tables.seeing.reads.Reads`), never from the facade that offers them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import BaseState, Game, SeatLabel
from store import ActionRow, GameRow
from tables.seeing import board as boards
from tables.seeing import logtext
from tables.seeing.board import Board, Frame
from tables.seeing.catchup import Catchup, catchup
from tables.seeing.reads import Reads


class Seeing:
    def __init__(self, reads: Reads) -> None:
        self.reads = reads

    async def board(self, table: GameRow | int, viewer: int | None, locale: str, **how: Any) -> Board:
        """What ``viewer`` sees of ``table`` now (:func:`tables.seeing.board.board`; ``how``: its options)."""
        return await boards.board(self.reads, table, viewer, locale, **how)

    async def frame(self, row: GameRow, position: int, locale: str, **how: Any) -> Frame:
        """A past position of the public replay (:func:`tables.seeing.board.frame`)."""
        return await boards.frame(self.reads, row, position, locale, **how)

    async def public(self, row: GameRow) -> bool:
        """Whether anyone with the link may see the table (:func:`tables.seeing.board.public`)."""
        return await boards.public(self.reads, row)

    async def catchup(self, row: GameRow, game: Game, state: BaseState, user_id: int) -> Catchup:
        """A member's "since your turn" (:func:`tables.seeing.catchup.catchup`)."""
        return await catchup(self.reads.history, row, game, state, user_id)

    async def log_words(
        self,
        row: GameRow,
        game: Game,
        lines: Mapping[int, Sequence[ActionRow]],
        viewer: str | None,
        locale: str,
        labels: Mapping[str, SeatLabel],
    ) -> dict[int, str]:
        """The words of each log line whose events say nothing to ``viewer``
        (:func:`tables.seeing.logtext.fill`): what was chosen, or that it is hidden."""
        return await logtext.fill(self.reads, row, game, lines, viewer, locale, labels)

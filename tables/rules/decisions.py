"""The action log by decision (issue 20 item 10): ``/game log`` shows one line per
decision, the export every step.

A decision is what one commit saved for one seat, taken one way: a player's choice
(a chain of single steps, tables/rules/choices.py, is one choice), an AI seat's move, or a
step the platform took because it had one legal choice.  Who took each step is stored
with it (``ActionRow.by``: "player", "ai" or "auto"); a row stored before that was
recorded says "" and is read as "ai" without a member, else "player"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from store import ActionRow

T = TypeVar("T")

#: who took a step
BY = ("player", "ai", "auto")


def taken_by(row: ActionRow) -> str:
    """ "player", "ai" or "auto" (a forced single choice) for one stored step."""
    by = getattr(row, "by", "") or ""
    if by in BY:
        return by
    return "ai" if row.user_id is None else "player"


@dataclass
class Decision:
    """Consecutive steps of one commit, one seat, taken one way."""

    seat: str
    by: str
    version: int
    steps: list[ActionRow] = field(default_factory=list)


def decisions(rows: Sequence[ActionRow]) -> list[Decision]:
    """``rows`` (in log order) grouped into decisions."""
    out: list[Decision] = []
    for row in rows:
        by = taken_by(row)
        last = out[-1] if out else None
        if last is not None and (last.version, last.seat, last.by) == (row.version, row.seat, by):
            last.steps.append(row)
        else:
            out.append(Decision(row.seat, by, row.version, [row]))
    return out


def page(groups: Sequence[T], number: int, per: int) -> list[T]:
    """Page ``number`` (1 = the most recent) of ``per`` decisions (or log entries), oldest first."""
    end = len(groups) - per * (number - 1)
    return list(groups[max(0, end - per) : max(0, end)])

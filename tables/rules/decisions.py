"""The action log by decision (issue 20 item 10): ``/game log`` shows one line per
decision, the export every step.

A decision is what one commit saved for one seat, taken one way: a player's choice
(a chain of single steps, tables/rules/choices.py, is one choice), an AI seat's move, or a
step the platform took because it had one legal choice.  Who took each step is stored
with it (``ActionRow.by``: "player", "ai", "auto", "timer" (the turn timer ran out),
"order" (the member's standing order; stored as "order:" and the order's kind and label,
tables/core/standing.py) or "league" (a league table played out at its deadline)); a row
stored before that was recorded says "" and is read as "ai" without a member, else
"player".  A step of a member's standing order reads as theirs ("player") to everyone
but that member while the table runs: its existence is the member's own business
(docs/rulings.md, "Standing orders")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError

from engine.base import Msg
from engine.i18n import t
from store import ActionRow

T = TypeVar("T")

#: the stored source of a standing order's step begins so (:func:`order_by`)
ORDER = "order:"
#: who took a step
BY = ("player", "ai", "auto", "timer", "order", "league")
#: ``taken_by``'s reader who may know everything (the stored source as it is)
ANYONE = object()


def taken_by(row: ActionRow, reader: object = ANYONE) -> str:
    """Who took one stored step (one of :data:`BY`), as ``reader`` (a seat, None: the
    public) may know it: another seat's standing order reads as that member's decision."""
    by = (getattr(row, "by", "") or "").split(":", 1)[0]
    if by not in BY:
        return "ai" if row.user_id is None else "player"
    if by == "order" and reader is not ANYONE and reader != row.seat:
        return "player"
    return by


@dataclass
class Decision:
    """Consecutive steps of one commit, one seat, taken one way."""

    seat: str
    by: str
    version: int
    steps: list[ActionRow] = field(default_factory=list)


def order_by(kind: str, label: Msg) -> str:
    """The stored source of a step a standing order took: "order:" and its kind and label."""
    return ORDER + json.dumps({"kind": kind, "label": label.model_dump(mode="json")}, sort_keys=True)


def _order(by: str) -> dict[str, Any]:
    try:
        found = json.loads(by[len(ORDER) :]) if by.startswith(ORDER) else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def order_kind(by: str) -> str | None:
    """The kind of the order that took a step stored with source ``by`` (None: no order's)."""
    kind = _order(by).get("kind")
    return kind if isinstance(kind, str) else None


def order_label(by: str) -> Msg | None:
    """The label of the order that took a step stored with source ``by`` (None: no order's)."""
    try:
        return Msg.model_validate(_order(by)["label"])
    except (KeyError, ValidationError):
        return None


def said_by(by: str, locale: str | None, sources: Sequence[str] = ("auto", "timer", "league", "order")) -> str:
    """What a log line adds about who took its steps (``by``: a source as stored, or as
    :func:`taken_by` gives it): "(automatic: the only choice)", "(time ran out)", "(league
    deadline)", "(standing order: keep passing)" (the order's label in the reader's
    language); "" for a player's own step, the AI's, or a source not in ``sources``."""
    source = by.split(":", 1)[0]
    if source not in sources or source not in ("auto", "timer", "league", "order"):
        return ""
    if source != "order":
        return t(f"discord.log.{source}", locale)
    label = order_label(by)
    return t("discord.log.order", locale, label=label.text(locale)) if label is not None else ""


def decisions(rows: Sequence[ActionRow], reader: object = ANYONE) -> list[Decision]:
    """``rows`` (in log order) grouped into decisions (who took them as ``reader`` may know)."""
    out: list[Decision] = []
    for row in rows:
        by = taken_by(row, reader)
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

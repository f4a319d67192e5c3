"""Whom a table's board notifies: the one place pings are decided (issue 29 item 6;
docs/rulings.md, "Pings").  Discord-free: the Discord layer only lists these members
in the message's ``allowed_mentions``.

One ping per turn, to the seats newly to act, never to the member who just acted:

* a board that is not the table's live one (a replay, a redraw) pings nobody;
* the final board pings every player, but the member whose action ended the game;
* otherwise the human seats to act that were not waiting before the change (a table
  that starts, or a change whose "before" is not known any more, counts every seat to
  act as new), or that waited and had a step taken for them in it (a timer, the
  platform), pinged once each;
* never the member whose request made the change (``by``: their move, undo,
  resignation, the vote they decided, the table they started: they are looking at
  it), nor members another message has just told (``told``: a league table's
  opening post pings its players);
* of the notices a change carries, a hand-over pings the seat's new owner and a timer
  that ran out the members it ran out for; a resignation, an undo or an abandoned
  table pings nobody (they name the member who asked).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from store import GameRow
from tables.core.common import TurnResult


def turn_pings(
    row: GameRow,
    to_act: Sequence[str],
    *,
    ended: bool,
    before: Sequence[str] = (),
    actors: Sequence[str] = (),
    by: int | None = None,
    told: Iterable[int] = (),
) -> list[int]:
    """The members a board of ``row`` (seats ``to_act`` now; ``ended``: it shows the
    outcome) notifies after a change (``before``: the seats to act before it;
    ``actors``: the seats that took a step in it)."""
    if ended:
        users: Iterable[int] = row.humans
    elif row.status in ("abandoned", "finished"):
        return []
    else:
        users = (
            u
            for s in to_act
            if (u := row.user_of(s)) is not None and (not before or s not in before or (s in actors and u != by))
        )
    skip = {*told, by}
    return [u for u in dict.fromkeys(users) if u not in skip]


def note_pings(notes: Sequence[dict[str, Any]], by: int | None = None) -> list[int]:
    """The members a change's notices notify: a hand-over's new owner, the members a
    timer ran out for (never the member who made the change)."""
    out: list[int] = []
    for n in notes:
        if n.get("note") == "handover" and n.get("to"):
            out.append(int(n["to"]))
        elif n.get("note") == "timeout":
            out += [int(u) for _, u in n.get("seats") or [] if u]
    return [u for u in dict.fromkeys(out) if u != by]


def board_pings(result: TurnResult, to_act: Sequence[str], *, live: bool = True) -> list[int]:
    """Whom the board of ``result`` (its seats ``to_act``) notifies, notices included."""
    if not live:
        return []
    row = result.row
    turn = turn_pings(
        row,
        to_act,
        ended=result.finished,
        before=result.waiting_before,
        actors=result.actors,
        by=result.by,
        told=result.told,
    )
    return list(dict.fromkeys(turn + note_pings(result.notes, result.by)))

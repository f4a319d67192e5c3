"""Who must agree to an undo, and when a vote about one still applies (issue 20
item 6; the rule is written down in docs/rulings.md, "Undo").

* The mover takes back their own last decision at once while nothing hidden was
  revealed, no die was rolled and no other player decided since.
* Otherwise the undo (which takes back that decision and everything after it)
  asks only the players whose decisions it removes; when it removes none but the
  mover's own (a die was rolled or something hidden revealed since), every other
  player is asked, because a roll taken back is a roll taken again.
* Everyone asked must agree; one "no" ends the vote.
* The vote survives the table moving on: a move made while it is open is one
  more decision the undo would remove, so its player is asked too (the vote
  cannot pass without them).  It ends when it no longer applies: the mover has
  decided again since (their last decision is no longer the one asked about),
  that decision was taken back another way, or the table ended.

Discord-free and store-free: pure functions of the log rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from store import ActionRow


def removed_players(tail: Sequence[ActionRow], mover: int) -> list[int]:
    """Members other than ``mover`` whose decisions are among the log rows ``tail``
    (the AI's decisions ask nobody, and neither do steps the platform took for a
    member: a forced single choice is taken again by the replay)."""
    return sorted({a.user_id for a in tail if a.user_id is not None and a.user_id != mover and a.by != "auto"})


def asked(removed: Sequence[int], humans: Iterable[int], mover: int) -> list[int]:
    """Whose consent the undo needs: the players whose decisions it removes, else
    (only the mover's own decisions, past a roll or a reveal) every other player."""
    return sorted(removed) if removed else sorted(u for u in set(humans) if u != mover)


def applies(payload: dict[str, Any], revert: Sequence[int]) -> bool:
    """Whether an open undo vote still asks about the decision the undo would take
    back now (its first reverted log row); votes from before this rule (no
    ``action`` in the payload) apply only at their own table version."""
    target = payload.get("action")
    return target is not None and bool(revert) and revert[0] == int(target)


def tally(asked: Sequence[int], yes: Iterable[int], no: Iterable[int]) -> tuple[bool, bool]:
    """(passed, failed): everyone asked agreed / somebody asked refused."""
    ayes, nays = set(yes), set(no)
    failed = any(u in nays for u in asked)
    return (not failed and set(asked) <= ayes), failed

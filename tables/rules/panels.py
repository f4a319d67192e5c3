"""Private panels that stay live (issue 20.1).

A private panel (simultaneous or secret orders: each seat chooses in a message
only they see) carries a *choice token* where a public board carries the table's
version.  The token is a fingerprint of what this seat is asked and offered: its
prompt, its legal actions, the choices built from them and their (English) labels.
Another seat's action that leaves all of that as it was does not touch the
token, so the panel's buttons keep working; only a change to what this seat may
choose (its own step, the turn resolving, a timer or an undo) gives another token,
and a click on the old one is answered by the panel redrawn in place.

Tokens start at :data:`TOKEN_BASE`, far above any table version, so a component
says by its number alone which of the two it carries.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

from engine.base import BaseState, Game
from tables.rules.choices import Choice

#: the smallest token; table versions stay far below it
TOKEN_BASE = 1 << 40


def is_token(version: int) -> bool:
    return version >= TOKEN_BASE


def offer_token(
    game: Game, state: BaseState, seat: str, offered: Sequence[Choice], described: Sequence[tuple[str, str]]
) -> int:
    """The choice token of ``seat`` (see the module docstring): the same for the same
    prompt, legal actions, choices and labels, whatever else changed at the table."""
    prompt = game.prompt(state, seat)
    legal = [
        a.model_dump(mode="json") if hasattr(a, "model_dump") else repr(a) for a in game.legal_actions(state, seat)
    ]
    data = json.dumps(
        [seat, prompt.key, prompt.params, legal, [list(c.chain) for c in offered], [list(d) for d in described]],
        sort_keys=True,
        default=str,
        ensure_ascii=False,
    )
    return TOKEN_BASE + zlib.crc32(data.encode())

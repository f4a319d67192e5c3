"""Images: a game's view in, PNG bytes out.  Synchronous; callers run it in an executor.

Each game has a renderer module exposing ``draw(view, locale: str) -> bytes``:
``render/<game_id>.py``, or the module the game names in ``Game.renderer`` (a
game living outside this repository).  Renderers take a *view*
(``Game.view(state, seat, labels)``, the game's typed view model), never the
raw state, so a public image can only show what the public may see.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine import get_game
from engine.locales import DEFAULT

from . import common


def renderer_module(game_id: str) -> str:
    """The module that draws ``game_id``."""
    return type(get_game(game_id)).renderer or f"render.{game_id}"


def board_colours(game_id: str) -> dict[str, str]:
    """The colours with a meaning on ``game_id``'s board (its renderer's
    ``MEANINGFUL``: a boss, the price rows, the ground pieces stand on), which no seat
    colour comes close to (:data:`render.common.MIN_MEANING_DELTA`)."""
    module = importlib.import_module(renderer_module(game_id))
    return dict(getattr(module, "MEANINGFUL", {}))


def seat_palette(game_id: str) -> tuple[tuple[str, str], ...]:
    """``game_id``'s seat colours and text squares in seat order (its renderer's ``SEATS``,
    else :data:`render.common.SEAT_PALETTE`)."""
    module = importlib.import_module(renderer_module(game_id))
    return tuple(getattr(module, "SEATS", common.SEAT_PALETTE))


def seat_colours(game_id: str, n: int) -> list[tuple[str, str]]:
    """The colours (and text squares) of a table's ``n`` seats, in seat order."""
    return common.seat_colours(seat_palette(game_id), n)


def render(game_id: str, view: Any, locale: str = DEFAULT) -> bytes:
    module = importlib.import_module(renderer_module(game_id))
    png: bytes = module.draw(view, locale)
    return png

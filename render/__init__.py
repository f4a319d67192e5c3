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


def renderer_module(game_id: str) -> str:
    """The module that draws ``game_id``."""
    return type(get_game(game_id)).renderer or f"render.{game_id}"


def render(game_id: str, view: Any, locale: str = "en") -> bytes:
    module = importlib.import_module(renderer_module(game_id))
    png: bytes = module.draw(view, locale)
    return png

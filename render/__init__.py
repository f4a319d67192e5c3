"""Images: a game's view in, PNG bytes out.  Synchronous; callers run it in an executor.

Each game has ``render/<game_id>.py`` exposing ``draw(view: dict, locale: str) -> bytes``.
Renderers take a *view* (``Game.view(state, seat)``), never the raw state, so a
public image can only show what the public may see.
"""

from __future__ import annotations

import importlib
from typing import Any


def render(game_id: str, view: dict[str, Any], locale: str = "en") -> bytes:
    module = importlib.import_module(f"render.{game_id}")
    return module.draw(view, locale)

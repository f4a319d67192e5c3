"""The one registry of games.  Ids are used everywhere (commands, driver,
data/, database).

Games are *discovered*, never listed: every package ``engine/<id>/`` whose
``__init__`` exposes ``GAME`` (a :class:`~engine.base.Game` instance), and
every entry point of the group ``tabletop_gm.games`` (an installed plug-in
package; the entry point names a Game instance or class).  :func:`register`
adds one at run time (tests register a tiny game that way).  A game's message
catalog is registered with it (``<data_dir>/locales/<lang>.json``).
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import re
from importlib.metadata import entry_points

from . import content, i18n
from .base import Game
from .errors import GameError

log = logging.getLogger("tabletop.engine")

ENTRY_POINT_GROUP = "tabletop_gm.games"
_ID = re.compile(r"^[a-z][a-z0-9_]{1,31}$")
_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry (and its catalog to the translations)."""
    if not isinstance(game, Game):
        raise TypeError(f"not a Game: {game!r}")
    gid = getattr(type(game), "id", None)
    if not isinstance(gid, str) or not _ID.match(gid):
        raise ValueError(f"bad game id {gid!r} (lower-case letters, digits and _, at most 32)")
    if gid in ("core", "discord"):
        raise ValueError(f"{gid!r} is a platform catalog namespace, not a game id")
    known = _GAMES.get(gid)
    if known is not None and type(known) is not type(game):
        raise ValueError(f"two games claim the id {gid!r}: {type(known).__name__} and {type(game).__name__}")
    _GAMES[gid] = game
    content.declare(gid, type(game).data_dir)
    folder = game.data_path("locales")
    if folder.is_dir():
        i18n.add_catalog(gid, folder)
    return game


def unregister(game_id: str) -> None:
    """Remove a game registered with :func:`register` (tests clean up with it)."""
    _GAMES.pop(game_id, None)
    i18n.remove_catalog(game_id)
    content.declare(game_id, None)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    here = os.path.dirname(__file__)  # the engine package, without importing it (no import circle)
    for info in sorted(pkgutil.iter_modules([here]), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            register(game)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
            register(obj() if isinstance(obj, type) else obj)
        except Exception:  # a broken plug-in must not take the built-in games down
            log.exception("game plug-in %s could not be loaded", ep.name)


def get_game(game_id: str) -> Game:
    _discover()
    game = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise GameError("unknown_game", "core.error.unknown_game", game=str(game_id)[:40])
    return game


def available() -> list[str]:
    """The ids of the games in this build (discovered and registered), sorted."""
    _discover()
    return sorted(_GAMES)

"""Game content: every game finds and reads its data files through this module.

A game's data dir is ``data/<id>/`` (or the folder its ``Game.data_dir``
declares, recorded here when the registry registers it).  It holds the game's
content (``*.json``; top-level keys starting with ``_`` are comments), its
catalogs (``locales/<lang>.json``) and its rules text (``rules/<lang>.md``).  :func:`load_json` reads one content file once (cached)
and validates it with a pydantic model (or any type pydantic validates: a
``TypedDict`` gives back a plain, checked dict), so a broken data file fails
loudly at start-up with the file and the field named, never halfway through a
game.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, overload

from pydantic import BaseModel, TypeAdapter, ValidationError

DATA = Path(__file__).resolve().parent.parent / "data"
M = TypeVar("M", bound=BaseModel)

#: data dirs declared by registered games (``Game.data_dir``); the rest are data/<id>
_DECLARED: dict[str, Path] = {}


class ContentError(ValueError):
    """A data file that is missing, not JSON, or not the shape its model says."""


def game_dir(game_id: str, declared: Path | str | None = None) -> Path:
    """The data dir of ``game_id``: ``declared`` (a game's ``data_dir``), else the
    one its registration declared, else ``data/<id>``."""
    if declared is not None:
        return Path(declared)
    return _DECLARED.get(game_id, DATA / game_id)


def declare(game_id: str, folder: Path | str | None) -> None:
    """Record (or, with ``None``, forget) where a registered game keeps its data."""
    if folder is None:
        _DECLARED.pop(game_id, None)
    else:
        _DECLARED[game_id] = Path(folder)
    _load.cache_clear()


@overload
def load_json(game_id: str, name: str, model: type[M]) -> M: ...
@overload
def load_json(game_id: str, name: str, model: Any) -> Any: ...
def load_json(game_id: str, name: str, model: Any) -> Any:
    """``<data dir of game_id>/<name>.json``, validated by ``model`` (read once):
    an instance of a pydantic model, or the checked data for a ``TypedDict`` or a
    ``dict[...]``/``list[...]`` type.  :class:`ContentError` names the file and the
    first field that is wrong."""
    return _load(game_id, name, model)


@cache
def _load(game_id: str, name: str, model: Any) -> Any:
    path = game_dir(game_id) / f"{name}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContentError(f"{path}: {exc}") from None
    if isinstance(raw, dict):  # top-level "_" keys are comments ("_doc")
        raw = {k: v for k, v in raw.items() if not k.startswith("_")}
    try:
        return TypeAdapter(model).validate_python(raw, strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        raise ContentError(f"{path}: {where}: {err.get('msg', '')} ({exc.error_count()} errors)") from None

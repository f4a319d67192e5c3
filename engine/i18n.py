"""Message catalogs.

A key is ``namespace.rest`` (``core.error.not_your_turn``,
``city_of_fury.action.choose_skill``); the namespace picks the file.  A game's
catalog lives with its data: ``<data_dir>/locales/<lang>.json`` (the registry
adds it with :func:`add_catalog` when it registers the game; by default
``data/<game>/locales/<lang>.json``).  The platform's own namespaces (``core``,
``discord``) and catalogs not moved yet are ``data/locales/<lang>/<namespace>.json``.
Lookup falls back to English, then to the key itself, so a missing string is
visible but never crashes.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"
LOCALES = ("en", "zh")
DEFAULT = "en"


def normalise(locale: str | None) -> str:
    """Map a Discord locale (``zh-CN``, ``en-US``...) to a catalog language."""
    if not locale:
        return DEFAULT
    low = str(locale).lower()
    if low.startswith("zh"):
        return "zh"
    if low.startswith("en"):
        return "en"
    return DEFAULT


_FOLDERS: dict[str, Path] = {}


def add_catalog(namespace: str, folder: Path) -> None:
    """Read ``namespace``'s messages from ``folder/<lang>.json``."""
    _FOLDERS[namespace] = Path(folder)
    _catalog.cache_clear()


def remove_catalog(namespace: str) -> None:
    if _FOLDERS.pop(namespace, None) is not None:
        _catalog.cache_clear()


def catalog_path(lang: str, namespace: str) -> Path:
    """The file holding ``namespace``'s messages in ``lang``."""
    folder = _FOLDERS.get(namespace)
    if folder is None and (DATA / namespace / "locales").is_dir():
        folder = DATA / namespace / "locales"
    if folder is not None:
        return folder / f"{lang}.json"
    return DATA / "locales" / lang / f"{namespace}.json"


def namespaces() -> list[str]:
    """Every catalog namespace present (platform, moved and registered games)."""
    found = {p.stem for p in (DATA / "locales" / DEFAULT).glob("*.json")}
    found |= {p.parent.parent.name for p in DATA.glob(f"*/locales/{DEFAULT}.json")}
    found |= {ns for ns, folder in _FOLDERS.items() if (folder / f"{DEFAULT}.json").exists()}
    return sorted(found)


@cache
def _catalog(lang: str, namespace: str) -> dict[str, str]:
    path = catalog_path(lang, namespace)
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, locale: str | None = None) -> bool:
    ns = key.split(".", 1)[0]
    return key in _catalog(normalise(locale), ns)


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` with ``params`` filled in.

    A parameter that is itself a catalog key (a string starting with ``@``)
    is translated first, so events can name cards, skills or directions; a
    tuple parameter (a list of names) is filled item by item and joined with
    ", " (a list is shown as it is, e.g. dice).
    """
    lang = normalise(locale)
    ns = key.split(".", 1)[0]
    text = _catalog(lang, ns).get(key)
    if text is None:
        text = _catalog(DEFAULT, ns).get(key)
    if text is None:
        return key if not params else key + " " + json.dumps(params, ensure_ascii=False, default=str)
    filled = {k: _fill(v, lang) for k, v in params.items()}
    return string.Formatter().vformat(text, (), _Safe(filled))


def _fill(value: Any, lang: str) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        return t(value[1:], lang)
    if isinstance(value, tuple):
        return ", ".join(str(_fill(v, lang)) for v in value)
    return value


def keys(lang: str, namespace: str) -> set[str]:
    return set(_catalog(lang, namespace))

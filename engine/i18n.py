"""Message catalogs.

A key is ``namespace.rest`` (``core.error.not_your_turn``,
``city_of_fury.action.choose_skill``); the namespace picks the file.  A game's
catalog lives with its data: ``<data_dir>/locales/<lang>.json`` (the registry
adds it with :func:`add_catalog` when it registers the game; by default
``data/<game>/locales/<lang>.json``).  The platform's own namespaces (``core``,
``discord``) and its feature catalogs (``play``, ``league``...) are
``data/locales/<lang>/<namespace>.json``; no game's catalog is there.
Lookup falls back to English, then to the key itself, so a missing string is
visible but never crashes.

Plurals, numbers and durations come from CLDR through Babel, never by hand
("car(s)"): a message writes them ICU-style --

* ``{n, plural, one {# car} other {# cars}}`` (also ``=0 {...}``; ``#`` is the
  number, formatted for the language); Chinese needs only ``other``;
* ``{n, number}``: the number with the language's grouping;
* ``{h, duration, hour}``: an amount of that unit (second ... week) as the
  language says it ("1 hour", "5 hours", "5小时"); :func:`duration` says a
  number of seconds in its two largest units ("1 day, 5 hr").

:func:`placeholders` names every parameter a message takes, ICU ones included.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

from .content import game_dir
from .locales import CODES, DEFAULT, FOLDER, normalise

DATA = Path(__file__).resolve().parent.parent / "data"
#: the languages (engine/locales.py holds the one list)
LOCALES = CODES


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
    if folder is None and (game_dir(namespace) / "locales").is_dir():
        folder = game_dir(namespace) / "locales"
    if folder is not None:
        return folder / f"{lang}.json"
    return FOLDER / lang / f"{namespace}.json"


def namespaces() -> list[str]:
    """Every catalog namespace present (platform, moved and registered games)."""
    found = {p.stem for p in (FOLDER / DEFAULT).glob("*.json")}
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
    ", " (a list is shown as it is, e.g. dice); a ``{"key": ..., "params": ...}``
    parameter (or tuple item) is a message of its own, translated in place.
    """
    lang = normalise(locale)
    ns = key.split(".", 1)[0]
    text = _catalog(lang, ns).get(key)
    if text is None:
        text = _catalog(DEFAULT, ns).get(key)
    if text is None:
        return key if not params else key + " " + json.dumps(params, ensure_ascii=False, default=str)
    filled = {k: _fill(v, lang) for k, v in params.items()}
    if "," in text:
        text = _icu(text, filled, lang)
    out = string.Formatter().vformat(text, (), _Safe(filled))
    # an empty parameter at either end leaves no stray space (a separator such as
    # " + " keeps its own)
    return out if text != text.strip() else out.strip()


# -- ICU-style plurals, numbers and durations (CLDR data through Babel) ---------

_ARG = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(plural|number|duration)\s*(?:,(.*))?\Z", re.S)
_SELECTOR = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")
_UNITS = ("second", "minute", "hour", "day", "week")


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each top-level ``{...}`` block, braces balanced."""
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                yield start, i + 1


def _branches(spec: str) -> dict[str, str]:
    """``one {...} other {...}`` -> {selector: body}."""
    out: dict[str, str] = {}
    pos = 0
    while pos < len(spec.rstrip()):
        m = _SELECTOR.match(spec, pos)
        if m is None:
            raise ValueError(f"bad plural branches: {spec!r}")
        start = m.end() - 1
        end = next(e for s, e in _blocks(spec[start:]) if s == 0) + start
        out[m.group(1)] = spec[start + 1 : end - 1]
        pos = end
    if "other" not in out:
        raise ValueError(f"a plural needs an 'other' branch: {spec!r}")
    return out


def _number(value: Any, lang: str) -> str:
    try:
        return format_decimal(value, locale=_locale(lang))
    except (TypeError, ValueError, ArithmeticError):
        return str(value)


def _icu(text: str, params: dict[str, Any], lang: str) -> str:
    """Resolve the ICU-style blocks of ``text``; plain ``{name}`` fields are left
    for :meth:`string.Formatter.vformat`."""
    out, last = [], 0
    for start, end in _blocks(text):
        m = _ARG.match(text, start + 1, end - 1)
        if m is None:
            continue
        name, kind, spec = m.group(1), m.group(2), m.group(3) or ""
        value = params.get(name)
        if kind == "number":
            piece = "{" + name + "}" if value is None else _number(value, lang)
        elif kind == "duration":
            unit = spec.strip() or "second"
            if unit not in _UNITS or not isinstance(value, int | float):
                piece = "{" + name + "}" if value is None else str(value)
            else:
                piece = format_unit(value, f"duration-{unit}", locale=_locale(lang))
        else:
            branches = _branches(spec)
            body = branches["other"]
            if isinstance(value, int | float):
                exact = f"={int(value)}" if value == int(value) else ""
                form = _locale(lang).plural_form(abs(value))
                # an exact branch may be empty ("=0 {}": nothing to say of none)
                body = branches[exact] if exact in branches else branches.get(form) or body
            shown = "{" + name + "}" if value is None else _number(value, lang)
            piece = _icu(_hash(body, shown), params, lang)
        out.append(text[last:start] + piece)
        last = end
    return "".join(out) + text[last:] if out else text


def _hash(body: str, shown: str) -> str:
    """``#`` -> the number, outside nested blocks (a nested plural has its own)."""
    nested = list(_blocks(body))
    pieces, last = [], 0
    for start, end in nested:
        pieces.append(body[last:start].replace("#", shown) + body[start:end])
        last = end
    return "".join(pieces) + body[last:].replace("#", shown)


def placeholders(text: str) -> set[str]:
    """Every parameter ``text`` takes: its ``{name}`` fields and the arguments and
    fields of its ICU blocks."""
    found: set[str] = set()
    plain, last = [], 0
    for start, end in _blocks(text):
        m = _ARG.match(text, start + 1, end - 1)
        if m is None:
            continue
        found.add(m.group(1))
        if m.group(2) == "plural":
            for body in _branches(m.group(3) or "").values():
                found |= placeholders(body.replace("#", ""))
        plain.append(text[last:start])
        last = end
    plain.append(text[last:])
    for part in plain:
        found |= {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(part) if f}
    return found


def _fill(value: Any, lang: str) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        return t(value[1:], lang)
    if isinstance(value, tuple):
        return ", ".join(str(_fill(v, lang)) for v in value)
    if isinstance(value, dict) and isinstance(value.get("key"), str):  # a message of its own
        return t(value["key"], lang, **(value.get("params") or {}))
    return value


def keys(lang: str, namespace: str) -> set[str]:
    return set(_catalog(lang, namespace))


def duration(seconds: float, locale: str | None = None) -> str:
    """``seconds`` in its two largest non-zero units (days, hours, minutes), CLDR
    short forms joined as the language joins units: "1 day, 5 hr", "1天5小时"."""
    lang = normalise(locale)
    rest = max(0, int(seconds))
    parts: list[str] = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        n, rest = divmod(rest, size)
        if n and len(parts) < 2:
            parts.append(format_unit(n, f"duration-{unit}", length="short", locale=_locale(lang)))
    if not parts:
        parts.append(format_unit(0, "duration-minute", length="short", locale=_locale(lang)))
    return format_list(parts, style="unit-short", locale=_locale(lang))


def join(items: list[str], locale: str | None = None) -> str:
    """``items`` as one list the way the language writes it ("a, b, and c", "a、b和c")."""
    if not items:
        return ""
    return format_list([str(x) for x in items], style="standard", locale=_locale(normalise(locale)))

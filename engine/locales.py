"""The languages the bot speaks: one list that every layer reads.

Adding a language is one folder of catalogs and one line in :data:`LANGUAGES`:

* the folder: ``data/locales/<code>/`` with the platform's catalogs (the files of
  ``data/locales/en/``), and beside each game's data its catalog
  ``locales/<code>.json`` and its rules ``rules/<code>.md`` (tests/test_locales.py
  checks that every key is there with the same placeholders);
* the line: a :class:`Language` -- its code (the folder's name), its own name (as
  ``/settings language`` and the web companion's language switch show it), its
  BCP 47 tag (``<html lang>``, ``hreflang``) and the Discord locales whose members
  read it.

Everything else asks this module: :mod:`engine.i18n` (catalogs, plurals),
tables/ (a member's remembered language), cogs/ (the interaction's locale, the
app-command translator, the ``/settings language`` choices), web/ (``?lang=``,
the cookie, ``Accept-Language``, the switch) and driver.py.  No module outside
this one and data/ spells a language code or a Discord locale name
(tests/test_languages.py scans for them), so no layer needs an edit for a new
language.  The engine imports nothing else, so every layer may import this.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Language:
    #: the catalogs' name for it: the folder data/locales/<code>/, the files <code>.json, <code>.md
    code: str
    #: its own name, shown to people choosing a language
    name: str
    #: its BCP 47 tag for HTML (the script where the code alone is ambiguous)
    tag: str
    #: the Discord locales (https://discord.com/developers/docs/reference#locales) read in it
    discord: tuple[str, ...]


#: every language, the default first (one line each; the order is the order offered)
LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", "en", ("en-US", "en-GB")),
    Language("zh", "简体中文", "zh-Hans", ("zh-CN", "zh-TW")),
    Language("de", "Deutsch", "de", ("de",)),
)

#: the fallback of every lookup, and the language app commands are written in
DEFAULT = LANGUAGES[0].code
#: the codes, in order
CODES: tuple[str, ...] = tuple(lang.code for lang in LANGUAGES)
#: a Discord locale (its value, e.g. ``zh-TW``) -> our language
DISCORD: dict[str, str] = {d: lang.code for lang in LANGUAGES for d in lang.discord}
#: where the platform's catalogs live: data/locales/<code>/<namespace>.json
FOLDER = Path(__file__).resolve().parent.parent / "data" / "locales"

_BY_CODE = {lang.code: lang for lang in LANGUAGES}
_DISCORD_LOWER = {d.lower(): code for d, code in DISCORD.items()}
_SUBTAGS = re.compile(r"[-_]")


def language(code: str) -> Language:
    """The line of ``code`` (a :data:`CODES` member)."""
    return _BY_CODE[code]


def match(locale: object) -> str | None:
    """Our language for a locale as Discord, a browser or a request names it
    (``zh-CN``, ``en_GB``, ``ZH``), by the Discord map, else by its language
    subtag; None when we do not speak it."""
    if not isinstance(locale, str) or not locale:
        return None
    low = locale.strip().lower()
    found = _DISCORD_LOWER.get(low)
    if found is not None:
        return found
    primary = _SUBTAGS.split(low, maxsplit=1)[0]
    return primary if primary in _BY_CODE else None


def normalise(locale: object) -> str:
    """Our language for ``locale``, else :data:`DEFAULT`."""
    return match(locale) or DEFAULT


def accept_language(header: str | None) -> str | None:
    """The language a browser's ``Accept-Language`` asks for first, when we speak it."""
    first = (header or "")[:200].split(",")[0].split(";")[0]
    return match(first)


def of_discord(value: str) -> str | None:
    """The language whose catalogs localise app commands for the Discord locale
    ``value`` (None for the default language: commands are written in it)."""
    code = DISCORD.get(value)
    return code if code != DEFAULT else None


def others(code: str) -> tuple[str, ...]:
    """Every language but ``code`` (the switch a page offers)."""
    return tuple(c for c in CODES if c != code)

"""Telling English apart from German in what the bot shows (issue 33 item 4: a German
member sees no English): the phrases of the English catalogs that no German message
contains, and a handful of English function words, found as whole words.

Names every language shares ("Big Rig", "City of Fury", "Ford") are in the German
catalogs too, so they are not English-only; a player's name or a number never is."""

from __future__ import annotations

import json
import re
from functools import cache

from engine.i18n import catalog_path, namespaces, t
from engine.locales import DEFAULT

GERMAN = "de"
#: words English writes all the time and German never does (as whole words)
FUNCTION_WORDS = ("the", "and", "your", "you", "is", "are", "of", "with", "for", "this", "that", "not", "has", "to")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_NAME = re.compile(r"[A-Za-z_][\w.\[\]]*")
_PHRASE = re.compile(r"[A-Za-z][A-Za-z']*(?:[ -][A-Za-z][A-Za-z']*)*")
_WORDS = re.compile(r"\b(" + "|".join(FUNCTION_WORDS) + r")\b", re.IGNORECASE)


def _catalog(lang: str, ns: str) -> dict[str, str]:
    path = catalog_path(lang, ns)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _pieces(text: str) -> list[str]:
    """The literal words of a message: the text outside its placeholders, and the
    branches of its plurals (innermost braces first)."""
    out = []
    while True:
        inner = _PLACEHOLDER.findall(text)
        if not inner:
            break
        # a plural's branch ({# cars}), not a parameter ({n}) or the plural itself ({n, plural, ...})
        out += [m[1:-1] for m in inner if "," not in m and not _NAME.fullmatch(m[1:-1].strip())]
        text = _PLACEHOLDER.sub(" | ", text)
    return [*out, text]


def _whole(phrase: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + re.escape(phrase) + r"(?![\w])", re.IGNORECASE)


@cache
def german_text() -> str:
    """Every German message, lower-cased, as one text (what German shares with English)."""
    return "\n".join(
        piece for ns in namespaces() for v in _catalog(GERMAN, ns).values() for piece in _pieces(v)
    ).lower()


@cache
def english_only() -> frozenset[str]:
    """The phrases (a word of 3+ letters, or several words) of the English catalogs
    that appear in no German message."""
    shared = german_text()
    found = set()
    for ns in namespaces():
        for text in _catalog(DEFAULT, ns).values():
            for piece in _pieces(text):
                for phrase in _PHRASE.findall(piece):
                    phrase = phrase.strip(" -'")
                    if (len(phrase) >= 3 or " " in phrase) and not _whole(phrase.lower()).search(shared):
                        found.add(phrase)
    return frozenset(found)


@cache
def _pattern() -> re.Pattern[str]:
    phrases = sorted(english_only(), key=len, reverse=True)
    return re.compile(r"(?<![\w])(" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])", re.IGNORECASE)


@cache
def _shared_names() -> tuple[str, ...]:
    """Names German keeps as English writes them that hold an English function word
    ("City of Fury": a message the same in both catalogs): taken out before the
    function words are looked for."""
    names = set()
    for ns in namespaces():
        english = _catalog(DEFAULT, ns)
        for key, text in _catalog(GERMAN, ns).items():
            if english.get(key) != text:
                continue
            for piece in _pieces(text):
                for phrase in _PHRASE.findall(piece):
                    if " " in phrase and _WORDS.search(phrase):
                        names.add(phrase)
    return tuple(sorted(names, key=len, reverse=True))


#: what is no language: a link, and a game option as typed (``scenario=duel``, the option's own spelling)
_LITERAL = re.compile(r"https?://\S+|[\w.]+=[\w.,\-\[\]]*")


def english_in(text: str) -> list[str]:
    """The English a text shows: English-only catalog phrases and English function words."""
    text = _LITERAL.sub(" ", text)
    hits = [m.group(1) for m in _pattern().finditer(text)]
    rest = text
    for name in _shared_names():
        rest = rest.replace(name, " ")
    hits += [m.group(1) for m in _WORDS.finditer(rest)]
    return hits


def sample_english() -> list[str]:
    """A few English messages as players see them (for showing the check catches English)."""
    return [
        t("core.error.not_your_turn", DEFAULT),
        t("core.ui.take_turn", DEFAULT),
        t("thunder_road.event.slam_roll", DEFAULT, slam="x", dir="y"),
        t("automobile.prompt.action", DEFAULT, n=2, money=300),
    ]


#: messages German writes as English does: names (of games, models, characters, tanks,
#: crews), words German shares ("normal", "Status", "Start") and bare layouts of parameters
SAME_IN_GERMAN = re.compile(
    r"(\w+\.name|automobile\.(char|space|short)\.\w+|automobile\.cmd\.\w+|armor_clash\.render\.vehicle(_short)?\.\w+"
    r"|armor_clash\.(campaign\.c4_wittmann|render\.boss_short|render\.boss|card\.ok|turret\.normal|dir\.\w+)"
    r"|thunder_road\.(crew\.big_rig|crew\.final_five|vehicle\.rig|command\.nitro|token\.on_fire|token\.mine"
    r"|render\.start_area)|core\.ui\.(status|ok)|core\.campaign\.story|league\.(cmd\.status|col\.buchholz|division)"
    r"|asyncplay\.cmd\.settings\.limits|web\.(live|cmd\.\w+\.web))"
)


def left_in_english() -> list[str]:
    """German messages still word for word the English one (and not one of :data:`SAME_IN_GERMAN`)."""
    out = []
    for ns in namespaces():
        english = _catalog(DEFAULT, ns)
        for key, text in _catalog(GERMAN, ns).items():
            words = re.search(r"[A-Za-z]{2}", _PLACEHOLDER.sub(" ", text))
            if text == english.get(key) and words and not SAME_IN_GERMAN.fullmatch(key):
                out.append(key)
    return out

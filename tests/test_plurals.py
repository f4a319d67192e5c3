"""Plurals, numbers and durations come from CLDR data through Babel, never by hand
(issue 20 item 8): no catalog writes "car(s)", and each case players met reads right
in both languages."""

from __future__ import annotations

import json
import re

import pytest

from engine import get_game
from engine.i18n import DEFAULT, LOCALES, catalog_path, duration, namespaces, placeholders, t

#: "car(s)", and German's "Spieler(n)", "Runde(n)", "Sieg(e)"
HAND_PLURAL = re.compile(r"[A-Za-zäöüß]\((s|es|ies|n|en|e|er|nen)\)")


def _catalog(lang: str, ns: str) -> dict[str, str]:
    return json.loads(catalog_path(lang, ns).read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("ns", namespaces())
def test_no_catalog_has_a_hand_made_plural_or_stray_spaces(ns, lang):
    for key, text in _catalog(lang, ns).items():
        assert not HAND_PLURAL.search(text), (key, text)
        if not key.endswith(("_sep", "_sep_plus")):  # a separator is its spaces
            assert text == text.strip(), (key, repr(text))


@pytest.mark.parametrize("ns", namespaces())
def test_every_plural_message_says_one_and_many_differently_in_english(ns):
    for key, text in _catalog(DEFAULT, ns).items():
        if ", plural," not in text:
            continue
        for name in placeholders(text):
            one = t(key, "en", **{p: (1 if p == name else 3) for p in placeholders(text)})
            many = t(key, "en", **{p: 3 for p in placeholders(text)})
            assert "{" not in one and "{" not in many, (key, one, many)
        assert one != many, key


@pytest.mark.parametrize(
    ("key", "params", "en", "zh"),
    [
        ("automobile.action.build_count", {"count": 1, "money": 300, "rd": 2}, "1 factory: $300, 2 R&D", None),
        ("automobile.action.build_count", {"count": 2, "money": 600, "rd": 4}, "2 factories: $600, 4 R&D", None),
        ("automobile.event.demand_sale", {"seat": "Al", "n": 1, "name": "Olds", "price": 200}, "Al sells 1 car", None),
        ("automobile.event.demand_sale", {"seat": "Al", "n": 3, "name": "Olds", "price": 200}, "Al sells 3 cars", None),
        ("armor_clash.action.move_dist", {"cells": 1}, "1 cell", None),
        ("armor_clash.action.move_dist", {"cells": 4}, "4 cells", None),
        (
            "thunder_road.event.game_over",
            {"seats": "Alice", "count": 1, "reason": "x"},
            "Game over: Alice wins",
            "Alice",
        ),
        (
            "thunder_road.event.game_over",
            {"seats": "Alice, Bob", "count": 2, "reason": "x"},
            "Game over: Alice, Bob win (",
            "Alice, Bob",
        ),
        ("core.ui.reminder", {"users": "<@1>", "id": 3, "hours": 1}, "(1 hour so far)", "1小时"),
        ("core.ui.reminder", {"users": "<@1>", "id": 3, "hours": 5}, "(5 hours so far)", "5小时"),
        ("asyncplay.away_allowance", {"days": 1}, "(1 day)", "1天"),
        (
            "core.campaign.row",
            {"rank": 1, "user": "A", "points": 1, "tables": 1, "wins": 1},
            "1 pt (1 table, 1 win)",
            None,
        ),
        ("core.campaign.row", {"rank": 1, "user": "A", "points": 1200, "tables": 2, "wins": 0}, "1,200 pts", None),
    ],
)
def test_the_cases_players_met_read_right(key, params, en, zh):
    assert en in t(key, "en", **params)
    if zh is not None:
        assert zh in t(key, "zh", **params)


def test_durations_are_said_in_the_two_largest_units_by_cldr():
    assert duration(0, "en") == "0 min"
    assert duration(3600, "en") == "1 hr" and duration(2 * 3600 + 60 * 30, "en") == "2 hr, 30 min"
    assert duration(86400 + 3600, "en") == "1 day, 1 hr" and duration(3 * 86400, "en") == "3 days"
    assert duration(86400 + 5 * 3600, "zh") == "1天5小时"


def test_an_empty_parameter_at_the_end_leaves_no_trailing_space():
    out = t("discord.ping.reminder", "en", user="<@1>", where="#3", hours=2, what="Move.", link="")
    assert out == out.strip() and out.endswith("Move.")


def test_event_texts_of_a_finished_game_use_real_plurals():
    """Game-over lines from real games: one winner "wins", and no hand plural anywhere."""
    for gid, seats in (("thunder_road", 2), ("automobile", 3)):
        game = get_game(gid)
        names = [f"p{i + 1}" for i in range(seats)]
        state = game.new(names, {}, 11)
        lines = []
        while game.outcome(state) is None and state.step < 5000:
            state, events = game.ai_step(state, None)
            lines += [game.event_text(e, "en") for e in events]
        assert lines and not any(HAND_PLURAL.search(x) for x in lines)
        assert not any(re.search(r"\b1 (cars|factories|cells|turns|spaces|loans|loss points)\b", x) for x in lines)
        over = [x for x in lines if x.startswith("Game over")]
        assert over and not re.search(r"Game over: \w+ win \(", over[-1]), over[-1]


def test_german_says_one_and_many_by_cldr():
    """German (one/other in CLDR, through Babel): the cases a German player meets."""
    assert t("core.ui.need_players", "de", lo=1) == "Zum Start wird mindestens 1 Spieler gebraucht."
    assert t("core.ui.need_players", "de", lo=3) == "Zum Start werden mindestens 3 Spieler gebraucht."
    assert t("discord.forged.page", "de", pages=1).startswith("Dieses Protokoll hat 1 Seite:")
    assert t("discord.forged.page", "de", pages=4).startswith("Dieses Protokoll hat 4 Seiten:")
    assert t("core.record.best_fortune.cell", "de", value=12345) == "12.345 $"  # German groups with a dot
    assert duration(2 * 86400 + 3 * 3600, "de") == "2 Tg., 3 Std."
    assert HAND_PLURAL.search("3 Spieler(n)") and HAND_PLURAL.search("2 car(s)") and not HAND_PLURAL.search("Feld (2)")

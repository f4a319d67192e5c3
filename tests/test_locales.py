"""Every message exists in every language of engine/locales.py (English, Simplified Chinese,
German) with the same placeholders, and renders with them filled (issue 13 item 5, issue 33 item 4)."""

import json
import re

import pytest

from engine import available, get_game
from engine.i18n import LOCALES, catalog_path, namespaces, normalise, placeholders, t
from engine.locales import DEFAULT

NAMESPACES = namespaces()


def fields(s: str) -> set[str]:
    return placeholders(s)


def load(lang: str, ns: str) -> dict[str, str]:
    return json.loads(catalog_path(lang, ns).read_text(encoding="utf-8"))


def test_the_catalogs_are_found_where_they_live():
    assert {"core", "discord", *available()} <= set(NAMESPACES)
    # a game's catalog lives with its data: <data dir>/locales/<lang>.json
    for gid in available():
        for lang in LOCALES:
            assert catalog_path(lang, gid) == get_game(gid).data_path("locales", f"{lang}.json")
    assert catalog_path("zh", "core").parts[-3:] == ("locales", "zh", "core.json")


#: every language but the default, each checked against it
OTHERS = [lang for lang in LOCALES if lang != DEFAULT]


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("ns", NAMESPACES)
def test_every_language_has_the_same_keys_and_placeholders(ns, lang):
    en = load(DEFAULT, ns)
    assert catalog_path(lang, ns).exists(), f"{lang} catalog of {ns} is missing"
    theirs = load(lang, ns)
    if ns == "discord":  # English command names are the code defaults; only the others need the catalog
        assert set(en) <= set(theirs), sorted(set(en) - set(theirs))[:10]
        for other in OTHERS:  # and every other language localises the same commands
            assert set(load(other, ns)) == set(theirs), (other, lang, sorted(set(load(other, ns)) ^ set(theirs)))
    else:
        only = {"only_en": sorted(set(en) - set(theirs))[:10], "only_" + lang: sorted(set(theirs) - set(en))[:10]}
        assert set(en) == set(theirs), only
    for key in theirs:
        assert key.startswith(ns + "."), key
    for key in en:
        assert fields(en[key]) == fields(theirs[key]), (lang, key)


@pytest.mark.parametrize("ns", NAMESPACES)
def test_every_key_renders_with_its_parameters_filled_in_every_language(ns):
    for key, text in load("en", ns).items():
        params = {f.split(".")[0].split("[")[0]: 7 for f in fields(text)}
        for lang in LOCALES:
            out = t(key, lang, **params)
            assert out and out != key, (lang, key)
            assert not re.search(r"\{[A-Za-z_][A-Za-z0-9_]*\}", out), (lang, key, out)


def test_lookup_falls_back_to_english_then_key():
    assert normalise("zh-CN") == "zh" and normalise("en-GB") == "en" and normalise("fr") == "en"
    assert t("core.error.not_your_turn", "zh") == "现在不是你的回合。"
    assert t("core.error.not_your_turn", "fr") == "It is not your turn."
    assert t("core.nonexistent.key", "zh") == "core.nonexistent.key"
    assert "{" not in t("core.error.bad_seat_count", "en", lo=1, hi=2, n=3)

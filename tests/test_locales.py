"""Every message exists in English and Simplified Chinese with the same placeholders,
and renders with them filled (issue 13 item 5)."""

import json
import re

import pytest

from engine import available, get_game
from engine.i18n import LOCALES, catalog_path, namespaces, normalise, placeholders, t

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


@pytest.mark.parametrize("ns", NAMESPACES)
def test_en_and_zh_have_the_same_keys_and_placeholders(ns):
    en = load("en", ns)
    assert catalog_path("zh", ns).exists(), f"zh catalog of {ns} is missing"
    zh = load("zh", ns)
    if ns == "discord":  # English command names are the code defaults; only zh needs the catalog
        assert set(en) <= set(zh)
        return
    assert set(en) == set(zh), {"only_en": sorted(set(en) - set(zh))[:10], "only_zh": sorted(set(zh) - set(en))[:10]}
    for key in en:
        assert key.startswith(ns + "."), key
        assert fields(en[key]) == fields(zh[key]), key


@pytest.mark.parametrize("ns", NAMESPACES)
def test_every_key_renders_with_its_parameters_filled_in_both_languages(ns):
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

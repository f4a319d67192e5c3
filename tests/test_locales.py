"""Every message exists in English and Simplified Chinese with the same placeholders."""

import json
import string
from pathlib import Path

import pytest

from engine.i18n import normalise, t

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
NAMESPACES = sorted(p.stem for p in (LOCALES / "en").glob("*.json"))


def fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


@pytest.mark.parametrize("ns", NAMESPACES)
def test_en_and_zh_have_the_same_keys_and_placeholders(ns):
    en = json.loads((LOCALES / "en" / f"{ns}.json").read_text(encoding="utf-8"))
    zh_path = LOCALES / "zh" / f"{ns}.json"
    assert zh_path.exists(), f"zh/{ns}.json is missing"
    zh = json.loads(zh_path.read_text(encoding="utf-8"))
    if ns == "discord":  # English command names are the code defaults; only zh needs the catalog
        assert set(en) <= set(zh)
        return
    assert set(en) == set(zh), {"only_en": sorted(set(en) - set(zh))[:10], "only_zh": sorted(set(zh) - set(en))[:10]}
    for key in en:
        assert key.startswith(ns + "."), key
        assert fields(en[key]) == fields(zh[key]), key


def test_lookup_falls_back_to_english_then_key():
    assert normalise("zh-CN") == "zh" and normalise("en-GB") == "en" and normalise("fr") == "en"
    assert t("core.error.not_your_turn", "zh") == "现在不是你的回合。"
    assert t("core.error.not_your_turn", "fr") == "It is not your turn."
    assert t("core.nonexistent.key", "zh") == "core.nonexistent.key"
    assert "{" not in t("core.error.bad_seat_count", "en", lo=1, hi=2, n=3)

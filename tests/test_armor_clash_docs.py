"""Rules text and catalogs: topics with summaries, both locales complete, every emitted key exists."""

import re
from pathlib import Path

from engine.i18n import keys

ROOT = Path(__file__).resolve().parent.parent


def topics(lang):
    text = (ROOT / "data" / "armor_clash" / "rules" / f"{lang}.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("## "):
            assert i + 1 < len(lines) and lines[i + 1].strip() and not lines[i + 1].startswith("#"), line
            out.append(line)
    return out


def test_rules_topics_have_summaries_in_both_languages():
    en, zh = topics("en"), topics("zh")
    assert len(en) == len(zh) >= 15


def test_catalogs_have_the_same_keys():
    assert keys("en", "armor_clash") == keys("zh", "armor_clash")


def test_every_key_used_in_code_exists():
    src = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine" / "armor_clash").glob("*.py"))
    src += (ROOT / "render" / "armor_clash.py").read_text(encoding="utf-8")
    cat = keys("en", "armor_clash")
    for name in set(re.findall(r'note\(events, "([a-z_]+)"', src)):
        assert f"armor_clash.{name}" in cat, name
    for name in set(re.findall(r'_err\("([a-z_]+)"', src)):
        assert f"armor_clash.error.{name}" in cat, name
    for name in set(re.findall(r'_k\("([a-z_.]+)"', src)):
        assert f"armor_clash.{name}" in cat, name

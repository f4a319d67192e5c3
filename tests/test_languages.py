"""One language list (engine/locales.py) that every layer reads (issue 30 item 6).

No module outside engine/locales.py and data/ spells a language code, a language's
HTML tag, a Discord locale name or a catalog file of a language; and adding a
language is one folder of catalogs plus one line in the list: a copy of the
project with French added that way speaks French in every layer (German, the third
language, was added the same way: issue 33 item 4).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import discord
import pytest

from engine import available, get_game, locales

ROOT = Path(__file__).resolve().parent.parent
#: the code that may name a language only through engine/locales.py
SCANNED = ("engine", "render", "tables", "cogs", "web", "store", "bot.py", "driver.py")
THE_LIST = ROOT / "engine" / "locales.py"


def _spelled() -> set[str]:
    """Every string that names a language: our codes and tags, every Discord locale
    with a region (``en-US``, ``pt-BR``; a bare one such as ``id`` or ``no`` is an
    ordinary word, the languages we speak are in the codes), and a language's file."""
    names = {c.lower() for c in locales.CODES}
    names |= {lang.tag.lower() for lang in locales.LANGUAGES}
    names |= {d.lower() for d in locales.DISCORD}
    names |= {loc.value.lower() for loc in discord.Locale if "-" in loc.value}
    names |= {f"{c}.{ext}" for c in locales.CODES for ext in ("json", "md")}
    return names


def literal_locales(source: str, spelled: set[str]) -> list[str]:
    """Where ``source`` names a language itself: a string constant (an f-string's
    pieces included) that is one of ``spelled``, or a member of ``discord.Locale``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in spelled:
            found.append(f"{node.value!r} (line {node.lineno})")
        elif isinstance(node, ast.Attribute) and getattr(node.value, "attr", getattr(node.value, "id", "")) == "Locale":
            if node.attr in discord.Locale.__members__:
                found.append(f"Locale.{node.attr} (line {node.lineno})")
    return found


def test_no_layer_spells_a_language():
    spelled = _spelled()
    bad = {}
    for name in SCANNED:
        path = ROOT / name
        for f in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if f == THE_LIST:
                continue
            hits = literal_locales(f.read_text(encoding="utf-8"), spelled)
            if hits:
                bad[str(f.relative_to(ROOT))] = hits
    assert not bad, f"name languages through engine/locales.py, not by hand: {bad}"


def test_the_scan_catches_what_it_forbids():
    spelled = _spelled()
    caught = literal_locales(
        'a = "zh"\nb = x.startswith("ZH")\nc = f"{x}/en.json"\nd = {discord.Locale.chinese: 1}\ne = "zh-TW"\n',
        spelled,
    )
    assert len(caught) == 4, caught  # "{x}/en.json" is a piece "/en.json", not a language's file
    assert literal_locales('c = "en.json"\ng = "pt-BR"\n', spelled) == ["'en.json' (line 1)", "'pt-BR' (line 2)"]
    assert literal_locales('row["id"]; f"lang={code}"; "zh_name"; locales.DEFAULT', spelled) == []


def test_every_language_has_its_folder_and_every_folder_its_line():
    folders = {p.name for p in locales.FOLDER.iterdir() if p.is_dir()}
    assert folders == set(locales.CODES)
    platform = {p.name for p in (locales.FOLDER / locales.DEFAULT).glob("*.json")}
    for code in locales.CODES:
        assert {p.name for p in (locales.FOLDER / code).glob("*.json")} == platform, code
        for gid in available():
            game = get_game(gid)
            assert game.data_path("locales", f"{code}.json").exists(), (gid, code)
            assert game.data_path("rules", f"{code}.md").exists(), (gid, code)
    assert locales.DEFAULT == locales.CODES[0] and len(set(locales.CODES)) == len(locales.CODES)
    assert all(d in {loc.value for loc in discord.Locale} for d in locales.DISCORD), "a Discord locale Discord has not"


@pytest.mark.parametrize(
    ("given", "ours"),
    [
        ("zh-CN", "zh"),
        ("zh-TW", "zh"),
        ("en-GB", "en"),
        ("en-US", "en"),
        ("ZH", "zh"),
        ("zh_Hans_CN", "zh"),
        ("fr", None),
        ("", None),
        (None, None),
        (7, None),
    ],
)
def test_a_locale_names_one_of_ours_or_none(given, ours):
    assert locales.match(given) == ours
    assert locales.normalise(given) == (ours or locales.DEFAULT)


def test_accept_language_takes_the_first_choice():
    assert locales.accept_language("zh-TW,zh;q=0.9,en;q=0.8") == "zh"
    assert locales.accept_language("zh;q=0.9") == "zh"
    assert locales.accept_language("en-GB,zh") == "en"
    assert locales.accept_language("fr-FR,zh;q=0.5") is None  # the web then uses the table's language
    assert locales.accept_language(None) is None
    # the app-command translator localises for every Discord locale of a language but the default
    assert locales.of_discord("zh-TW") == "zh" and locales.of_discord("en-GB") is None
    assert locales.of_discord("fr") is None


#: run in a copy of the project with French added as a folder and a line
FRENCH = textwrap.dedent(
    """
    import asyncio, json
    from pathlib import Path
    from aiohttp.test_utils import make_mocked_request
    import discord
    from discord import app_commands

    here = Path.cwd()
    import engine
    assert Path(engine.__file__).parent == here / "engine", engine.__file__
    zh = lambda ns: json.loads((here / "data/locales/zh" / f"{ns}.json").read_text(encoding="utf-8"))
    out = {}

    def probe(name, fn):  # each layer on its own: one that misses German shows which
        try:
            out[name] = fn()
        except Exception as exc:
            out[name] = repr(exc)

    def engine_layer():
        import engine.i18n as i18n
        key = "core.error.not_your_turn"
        return {
            "codes": list(i18n.LOCALES),
            "normalise": [i18n.normalise(x) for x in ("fr", "fr-CA", "FR_ch")],
            "catalog": i18n.t(key, "fr") == zh("core")[key],
            "duration": i18n.duration(3700, "fr"),
        }

    def translator():
        from cogs.kit.locale import CatalogTranslator
        key = "discord.cmd.settings.language"
        said = CatalogTranslator().translate(app_commands.locale_str("language", key=key), discord.Locale.french, None)
        return asyncio.run(said) == zh("discord")[key]

    def settings():
        from cogs.game.settings import LANGUAGES, Settings
        cmd = Settings.settings_group.get_command("language")
        named = [(getattr(c.name, "message", c.name), c.value) for c in cmd._params["language"].choices]
        return {"values": list(LANGUAGES), "choices": named}

    def rules():
        from cogs.game.rules import rules_topics
        from engine import available
        return all(rules_topics(gid, "fr") == rules_topics(gid, "zh") for gid in available())

    def members():
        from tables.people.members import MemberLocales
        class Prefs:
            store = None
            async def user(self, uid):
                return {"locale": "fr"}
        return asyncio.run(MemberLocales(Prefs()).of(7))

    def site():
        from web import pages
        from web.app import Companion
        req = make_mocked_request("GET", "/me", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
        asked = make_mocked_request("GET", "/me?lang=fr")
        return {
            "langs": list(pages.LANGS),
            "html_lang": 'lang="fr"' in pages.head("x", "fr"),
            "switch": pages.top("x", "en", "/me"),
            "accept": Companion.locale(None, req),
            "query": Companion.locale(None, asked),
        }

    def driver_locale():
        import driver
        return driver._locale({"locale": "fr-CH"})

    def automobile():  # a model's printed name: the folder's catalog, no name_<code> field in board.json
        from engine import get_game
        from engine.automobile.content import space_name
        get_game("automobile")
        cars = json.loads((here / "data/automobile/locales/zh.json").read_text(encoding="utf-8"))
        return all(space_name(i, "fr") == cars[f"automobile.space.{i}"] for i in range(36))


    for name, fn in list(locals().items()):
        if callable(fn) and fn.__module__ == "__main__" and name not in ("probe", "zh"):
            probe(name, fn)
    print(json.dumps(out, ensure_ascii=False))
    """
)


def test_adding_a_language_is_a_folder_and_one_line(tmp_path):
    copy = tmp_path / "project"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SCANNED + ("data",):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, copy / name, ignore=skip)
        else:
            shutil.copy2(src, copy / name)
    # the folder: the Simplified Chinese catalogs under the new code (so a German
    # message is told apart from the English fallback)
    data = copy / "data"
    shutil.copytree(data / "locales" / "zh", data / "locales" / "fr")
    for gid in available():
        folder = data / gid
        shutil.copy2(folder / "locales" / "zh.json", folder / "locales" / "fr.json")
        shutil.copy2(folder / "rules" / "zh.md", folder / "rules" / "fr.md")
    # the line
    the_list = copy / "engine" / "locales.py"
    lines = the_list.read_text(encoding="utf-8").splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if line.lstrip().startswith("Language("))
    lines.insert(at + 1, '    Language("fr", "Français", "fr", ("fr",)),\n')
    the_list.write_text("".join(lines), encoding="utf-8")

    run = subprocess.run(
        [sys.executable, "-c", FRENCH], cwd=copy, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["engine_layer"] == {
        "codes": ["en", "zh", "de", "fr"],
        "normalise": ["fr", "fr", "fr"],
        "catalog": True,  # the folder's messages
        "duration": "1\u202fh et 1\xa0min",  # Babel's CLDR French, with nothing written for it
    }
    assert out["translator"] is True, out["translator"]
    assert out["settings"] == {
        "values": ["en", "zh", "de", "fr", "user"],
        "choices": [
            ["English", "en"],
            ["简体中文", "zh"],
            ["Deutsch", "de"],
            ["Français", "fr"],
            ["Each player's own", "user"],
        ],
    }
    assert out["rules"] is True, out["rules"]
    assert out["members"] == "fr"
    site = out["site"]
    assert isinstance(site, dict), site
    assert site["langs"] == ["en", "zh", "de", "fr"] and site["html_lang"]
    assert "lang=zh" in site["switch"] and "lang=fr" in site["switch"] and "Français" in site["switch"]
    assert "lang=en" not in site["switch"]  # the page is already English
    assert site["accept"] == "fr" and site["query"] == "fr"
    assert out["driver_locale"] == "fr-CH"
    assert out["automobile"] is True, out["automobile"]


def test_every_language_has_every_rules_topic_in_the_same_order():
    """/rules finds a topic by its number or its English title in any language, so every
    language's rules have the English topics' count, each with a summary line."""
    from cogs.game.rules import rules_topics

    for gid in available():
        english = rules_topics(gid, locales.DEFAULT)
        assert len(english) >= 5, gid
        for code in locales.CODES:
            topics = rules_topics(gid, code)
            assert len(topics) == len(english), (gid, code, [t[0] for t in topics])
            assert all(title and summary for title, summary, _ in topics), (gid, code)
            if code != locales.DEFAULT:  # its own words, not a copy of the English
                assert [t[2] for t in topics] != [t[2] for t in english], (gid, code)

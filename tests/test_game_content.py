"""Every game's content is found and validated one way: engine.content.load_json
reads ``<data dir>/<name>.json`` once and checks it with the game's model
(the shapes each ``engine/<id>/content.py`` declares in ``FILES``)."""

from __future__ import annotations

import importlib
import json

import pytest
from pydantic import BaseModel, ConfigDict, with_config
from typing_extensions import TypedDict

from engine import available, get_game
from engine.content import DATA, ContentError, declare, game_dir, load_json
from engine.locales import CODES

BUILT_IN = [g for g in available() if importlib.util.find_spec(f"engine.{g}") and (DATA / g).is_dir()]


def test_every_built_in_game_keeps_its_data_catalogs_and_rules_in_its_own_dir():
    assert {"thunder_road", "city_of_fury", "automobile", "armor_clash"} <= set(BUILT_IN)
    for gid in BUILT_IN:
        game = get_game(gid)
        assert game.data_path() == DATA / gid == game_dir(gid)
        for lang in CODES:
            assert game.data_path("locales", f"{lang}.json").is_file(), gid
            assert game.data_path("rules", f"{lang}.md").is_file(), gid
    assert not (DATA / "rules").exists()
    for lang_dir in (DATA / "locales").iterdir():
        assert not {p.stem for p in lang_dir.glob("*.json")} & set(BUILT_IN), lang_dir


@pytest.mark.parametrize("gid", BUILT_IN)
def test_every_data_file_is_declared_and_validated(gid):
    files = importlib.import_module(f"engine.{gid}.content").FILES
    assert set(files) == {p.stem for p in get_game(gid).data_path().glob("*.json")}
    for name, model in files.items():
        raw = json.loads(get_game(gid).data_path(f"{name}.json").read_text(encoding="utf-8"))
        loaded = load_json(gid, name, model)
        assert load_json(gid, name, model) is loaded  # read once
        if isinstance(loaded, BaseModel):
            assert loaded.model_dump(mode="json") == {k: v for k, v in raw.items() if not k.startswith("_")}
        else:  # a checked plain dict, exactly the file's data (comments, the "_" keys, left out)
            assert loaded == {k: v for k, v in raw.items() if not k.startswith("_")}


@with_config(ConfigDict(extra="forbid"))
class _Deck(TypedDict):
    cards: list[int]


def test_a_broken_file_is_refused_naming_the_file_and_the_field(tmp_path):
    declare("deckgame", tmp_path)
    try:
        (tmp_path / "deck.json").write_text('{"_doc": "a comment", "cards": [1, 2]}', encoding="utf-8")
        assert load_json("deckgame", "deck", _Deck) == {"cards": [1, 2]}
        for text, needle in (
            ('{"cards": [1, "2"]}', "cards.1"),  # strict: a string is not a number
            ('{"cards": [1], "joker": 1}', "joker"),  # no unknown keys
            ('{"cards": [1]', "deck.json"),  # not JSON
        ):
            declare("deckgame", tmp_path)  # forget what was read
            (tmp_path / "deck.json").write_text(text, encoding="utf-8")
            with pytest.raises(ContentError, match=needle) as exc:
                load_json("deckgame", "deck", _Deck)
            assert str(tmp_path / "deck.json") in str(exc.value)
        with pytest.raises(ContentError, match="missing.json"):
            load_json("deckgame", "missing", _Deck)
    finally:
        declare("deckgame", None)
    assert game_dir("deckgame") == DATA / "deckgame"

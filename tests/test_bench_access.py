"""bench/access.py's counts (issue 33 item 5): an image is described by its attachment's
description or by the gallery item that shows it, each attachment counted once over a
message's edits; a key a language lacks, has alone, or words with other placeholders is
missing."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

from engine.i18n import add_catalog, remove_catalog

ACCESS = Path(__file__).resolve().parent.parent / "bench" / "access.py"


def load_access():
    spec = importlib.util.spec_from_file_location("bench_access", ACCESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _att(aid: str, name: str, description: str | None = None) -> dict:
    att = {"id": aid, "filename": name, "url": f"http://cdn/attachments/{aid}/{name}", "content_type": "image/png"}
    if description is not None:
        att["description"] = description
    return att


def test_images_are_counted_once_and_described_by_attachment_or_gallery():
    access = load_access()
    gallery = {"type": 12, "items": [{"media": {"url": "http://cdn/attachments/2/b.png"}, "description": "a board"}]}
    messages = [
        SimpleNamespace(
            versions=[{"attachments": [_att("1", "a.png")]}], data={"attachments": [_att("1", "a.png", "x")]}
        ),
        SimpleNamespace(versions=[], data={"attachments": [_att("2", "b.png")], "components": [gallery]}),
        SimpleNamespace(versions=[], data={"attachments": [_att("3", "c.png", "  ")]}),
        SimpleNamespace(versions=[], data={"attachments": [{"id": "4", "filename": "log.txt", "url": "u"}]}),
    ]
    assert access.count_images(SimpleNamespace(all_messages=messages)) == (3, 2)


def test_a_missing_key_an_extra_key_and_a_changed_placeholder_are_counted(tmp_path):
    access = load_access()
    before = access.missing_keys()
    (tmp_path / "en.json").write_text(json.dumps({"zzaccess.a": "{n} cars", "zzaccess.b": "yes"}))
    (tmp_path / "zh.json").write_text(json.dumps({"zzaccess.a": "{m} 辆", "zzaccess.b": "是", "zzaccess.c": "多"}))
    add_catalog("zzaccess", tmp_path)
    try:
        # zh: a's placeholder differs, c is extra; every other language lacks both keys
        assert access.missing_keys() - before == 2 + 2 * (len(access.CODES) - 2)
    finally:
        remove_catalog("zzaccess")

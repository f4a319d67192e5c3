"""The board image reads down (issue 30 item 1): a page's image is drawn from the board the
page was just built from (the companion's per-version cache), never by building the board
again, so serving it right after its page makes no store read at all (on both backends).

The store's calls are counted by wrapping the store object's own methods; no project code
is mocked."""

from __future__ import annotations

import html
import inspect
import re
from collections import Counter

import pytest
from aiohttp.test_utils import TestClient, TestServer
from conftest import Clock, make_store
from webtables import move, open_two_player

from tables import TableService
from web import Limits, make_app


@pytest.fixture
async def service(store_backend, tmp_path):
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield TableService(s, clock=clock)
    await s.close()


def count_calls(store) -> Counter:
    """Every call of one of ``store``'s coroutine methods from now on, by name."""
    calls: Counter = Counter()
    for name in dir(store):
        fn = getattr(store, name, None) if not name.startswith("_") else None
        if fn is None or not inspect.iscoroutinefunction(fn):
            continue

        def wrap(fn=fn, name=name):
            async def counted(*args, **kw):
                calls[name] += 1
                return await fn(*args, **kw)

            return counted

        setattr(store, name, wrap())
    return calls


@pytest.mark.parametrize("game", ["automobile", "city_of_fury"])
async def test_a_board_image_right_after_its_page_reads_nothing_from_the_store(service, game):
    gid = await open_two_player(service, game)
    await move(service, gid, 3)
    # a page's row is trusted for row_seconds: a long one, so a slow machine reads it once too
    c = TestClient(TestServer(make_app(service, base_url="https://games.example", limits=Limits(row_seconds=3600))))
    await c.start_server()
    try:
        page = await c.get(f"/t/{gid}")
        assert page.status == 200
        found = re.search(r"/t/\d+/board\.png\?[^\"' ]+", await page.text())
        assert found is not None, "the page shows its board image"
        calls = count_calls(service.store)
        probe = await service.store.count_actions(gid)  # the counting itself works
        assert probe > 0 and calls == Counter({"count_actions": 1})
        calls.clear()
        image = await c.get(html.unescape(found[0]))
        assert image.status == 200 and (await image.read()).startswith(b"\x89PNG")
        assert calls == Counter(), f"the image after its page read the store: {dict(calls)}"
    finally:
        await c.close()

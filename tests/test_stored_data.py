"""Stored data keeps working (issue 10 item 6).

``tests/fixtures/stored_f4ba435.sqlite`` and the ``export_f4ba435_*.json``
files were made by the code of main at commit f4ba435, before the engine
contract changed any state shape (``tests/fixtures/make_stored_data.py`` says
how).  Whatever the engines look like now, those tables must still load (old
``schema_version`` states go through the game's migration), play on to the
end through the real turn pipeline, and replay from seed and log to the state
that was stored; the logged events must still read; the export files must
replay and play on too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic_core import to_jsonable_python

from driver import replay_export
from engine import canonical, get_game
from engine.locales import CODES
from store import SqliteStore
from tables import TableService, TurnRefused, due_times

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = ("city_of_fury", "thunder_road", "automobile", "armor_clash")


@pytest.fixture
async def store(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / "stored_f4ba435.sqlite", db)
    s = SqliteStore(db, clock=lambda: 1_800_000_000.0, due=due_times)
    await s.open()  # runs today's store migrations on the old file
    yield s
    await s.close()


async def _rows(store):
    rows = [await store.get_game(i) for i in range(1, 9)]
    assert [r.game for r in rows] == list(GAMES) * 2
    return rows


async def test_every_stored_table_loads_validates_and_replays(store):
    pipe = TableService(store)
    for row in await _rows(store):
        loaded = await pipe.load(row.id, statuses=("active", "finished"))
        game, state = loaded.game, loaded.state
        assert state.schema_version == game.schema_version  # migrated on load
        game.validate(state)
        log = await store.actions(row.id, limit=1_000_000)
        assert log, row.id
        replayed = game.replay([s.seat for s in row.seats], row.options, row.seed, [(e.seat, e.action) for e in log])
        # a field the old build never kept (absent from the stored JSON, left at its default
        # by the migration) is one the replay knows and the stored state cannot
        kept = json.loads(row.state_json)
        unknown = {
            k
            for k, f in game.State.model_fields.items()
            if k not in kept and game.dump(state)[k] == to_jsonable_python(f.get_default(call_default_factory=True))
        }
        replayed_known, stored_known = (
            {k: v for k, v in game.dump(st).items() if k not in unknown} for st in (replayed, state)
        )
        assert canonical(replayed_known) == canonical(stored_known), f"{row.game} table {row.id}"
        assert (game.outcome(state) is not None) == (row.status == "finished")
        # the logged events (stored in the old shapes) still load and read in both languages
        for entry in log:
            for event in game.load_events(entry.events):
                for locale in CODES:
                    text = game.event_text(event, locale)
                    assert text and f"{game.id}.event." not in text, (game.id, event)


async def test_stored_tables_in_mid_play_play_on_to_the_end(store):
    pipe = TableService(store)
    for row in (await _rows(store))[:4]:
        assert row.status == "active"
        game = get_game(row.game)
        before = sum(r.played for r in await store.stats(1, game=row.game))
        for _ in range(6000):
            loaded = await pipe.load(row.id, statuses=("active", "finished"))
            if loaded.row.status == "finished":
                break
            seat = game.to_act(loaded.state)[0]
            user = loaded.row.user_of(seat)
            await pipe.act(row.id, user, lambda g, st, s, legal: g.ai_action(st, s))
        final = await store.get_game(row.id)
        assert final.status == "finished", row.game
        assert final.outcome is not None
        after = sum(r.played for r in await store.stats(1, game=row.game))
        assert after == before + len(row.seats), row.game  # every seat's result recorded


@pytest.mark.parametrize("game_id", GAMES)
def test_old_exports_replay_and_play_on(game_id):
    for kind in ("midplay", "finished"):
        export = json.loads((FIXTURES / f"export_f4ba435_{game_id}_{kind}.json").read_text(encoding="utf-8"))
        assert export["format"] == "tabletop-gm/export@1"
        game, state = replay_export(export)
        assert state.step == len(export["log"])
        game.validate(state)
        out = game.outcome(state)
        if kind == "finished":
            assert out is not None
            assert out.model_dump(mode="json") == export["outcome"]
            continue
        assert out is None
        for _ in range(6000):
            if game.outcome(state) is not None:
                break
            state, _ = game.ai_step(state)
        assert game.outcome(state) is not None


async def test_a_row_whose_state_cannot_happen_is_quarantined_not_played(store):
    """Issue 13 item 2: the table service validates on every load (the store never parses state)."""
    pipe = TableService(store)
    row = await store.get_game(1)
    data = json.loads(row.state_json)
    data["hero_hp"] = -5  # well-formed JSON of the right shape, but impossible
    await store.db.execute("UPDATE games SET state_json=? WHERE id=1", (json.dumps(data),))
    with pytest.raises(TurnRefused) as exc:
        await pipe.load(1)
    assert exc.value.code == "corrupt"
    assert (await store.get_game(1)).status == "quarantined"


async def test_a_row_whose_state_names_other_seats_is_quarantined(store):
    """Issue 13 item 2: a City of Fury state with ``seats=['zz']`` is a valid game on its own
    (the engine cannot know the table's seats); the table service compares it with the
    table's seat rows and quarantines it."""
    pipe = TableService(store)
    row = await store.get_game(1)
    assert row.game == "city_of_fury"
    data = json.loads(row.state_json)
    data["seats"] = ["zz"]
    get_game("city_of_fury").load(data)  # the engine alone accepts it
    await store.db.execute("UPDATE games SET state_json=? WHERE id=1", (json.dumps(data),))
    with pytest.raises(TurnRefused) as exc:
        await pipe.load(1)
    assert exc.value.code == "corrupt"
    assert (await store.get_game(1)).status == "quarantined"

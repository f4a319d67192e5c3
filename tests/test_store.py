import asyncio
import sqlite3

import pytest

from store import ChannelBusy, CorruptRow, Seat, SqliteStore, VersionConflict
from store.base import ActionRow


@pytest.fixture
async def store(tmp_path):
    s = SqliteStore(tmp_path / "t.db")
    await s.open()
    yield s
    await s.close()


async def _new(store, channel=10, **kw):
    return await store.create_game(
        guild_id=1,
        channel_id=channel,
        game="city_of_fury",
        host_id=5,
        options={"hero": "a"},
        seed=7,
        seats=[Seat("p1", 5)],
        **kw,
    )


async def test_migrations_wal_and_foreign_keys(store, tmp_path):
    assert await store.schema_version() >= 1
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store.db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    # reopening applies nothing twice
    again = SqliteStore(tmp_path / "t.db")
    await again.open()
    assert await again.schema_version() == await store.schema_version()
    await again.close()


async def test_one_open_game_per_channel(store):
    row = await _new(store)
    with pytest.raises(ChannelBusy):
        await _new(store)
    await store.update_game(row.id, row.version, status="abandoned")
    other = await _new(store)
    assert other.id != row.id and (await store.active_game(10)).id == other.id


async def test_compare_and_swap_lets_exactly_one_writer_win(store):
    row = await _new(store, status="active", state_json="{}")
    results = await asyncio.gather(
        *[
            store.update_game(
                row.id, row.version, state_json=f'{{"n":{i}}}', actions=[ActionRow("p1", 5, {"kind": "x", "i": i})]
            )
            for i in range(5)
        ],
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, int)]
    assert len(winners) == 1 and sum(isinstance(r, VersionConflict) for r in results) == 4
    assert (await store.get_game(row.id)).version == row.version + 1
    assert len(await store.actions(row.id)) == 1


async def test_action_log_is_append_only(store):
    row = await _new(store, status="active", state_json="{}")
    await store.update_game(row.id, row.version, state_json="{}", actions=[ActionRow("p1", 5, {"kind": "a"})])
    with pytest.raises(sqlite3.DatabaseError):
        await store.db.execute("UPDATE actions SET seat='p2'")


async def test_corrupt_row_is_reported_and_quarantined(store):
    row = await _new(store)
    await store.db.execute("UPDATE games SET options_json='{not json' WHERE id=?", (row.id,))
    with pytest.raises(CorruptRow):
        await store.get_game(row.id)
    await store.quarantine(row.id, "unreadable")
    assert await store.quarantined() == [(row.id, "unreadable")]
    assert await store.active_game(10) is None  # the channel is free again


async def test_games_of_user_and_meta(store):
    await _new(store, channel=1)
    await _new(store, channel=2)
    assert [g.channel_id for g in await store.games_of_user(5)] == [1, 2]
    assert await store.games_of_user(6) == []
    assert await store.get_meta("k") is None
    await store.set_meta("k", "v1")
    await store.set_meta("k", "v2")
    assert await store.get_meta("k") == "v2"

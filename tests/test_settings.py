"""Server settings seen by every process: each keeps a cached copy for at most
SETTINGS_TTL seconds, and its own changes at once (two Settings on one store stand
for two bot processes sharing a PostgreSQL database)."""

from __future__ import annotations

from tables.rules.settings import DEFAULT_SETTINGS, SETTINGS_TTL, Settings


async def test_a_change_made_by_another_process_is_seen_within_the_ttl(store):
    now = [1000.0]
    a, b = Settings(store, clock=lambda: now[0]), Settings(store, clock=lambda: now[0])
    assert (await b.server_settings(7))["language"] == DEFAULT_SETTINGS["language"]  # b caches the defaults
    await a.update_guild(7, lambda s: {**s, "language": "zh"})
    assert (await a.server_settings(7))["language"] == "zh", "a process sees its own change at once"
    now[0] += SETTINGS_TTL / 2
    assert (await b.server_settings(7))["language"] is None, "within the TTL the cached copy stands"
    now[0] += SETTINGS_TTL
    assert (await b.server_settings(7))["language"] == "zh", "after the TTL the other process reads it again"


async def test_the_cached_copy_is_a_copy(store):
    s = Settings(store, clock=lambda: 0.0)
    got = await s.server_settings(7)
    got["language"] = "zh"
    assert (await s.server_settings(7))["language"] is None

"""The notification policy (issue 32 item 1): ways per event with per-game and per-table
overrides, quiet hours in an IANA zone across a daylight-saving change, the old /remind
quiet hours migrated into it on both backends with the same behaviour, and the facade's
verbs refusing bad input with nothing changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from store import open_store
from store.schema import MIGRATIONS
from tables import DEFAULT_WAYS, EVENTS, NotifyPolicy, TableService, TurnRefused, due_times, in_quiet_hours
from tests.conftest import Clock


def ts(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_a_way_comes_from_the_table_then_the_game_then_the_member_then_everyone():
    p = NotifyPolicy()
    assert {e: p.way(e) for e in EVENTS} == DEFAULT_WAYS
    p = p.with_way("turn", "digest")
    assert p.way("turn") == "digest" and p.way("turn", "automobile", 7) == "digest"
    p = p.with_way("turn", "dm", game="automobile")
    assert p.way("turn", "automobile", 7) == "dm" and p.way("turn", "city_of_fury", 7) == "digest"
    p = p.with_way("turn", "off", table=7)
    assert p.way("turn", "automobile", 7) == "off" and p.way("turn", "automobile", 8) == "dm"
    p = p.with_way("turn", "default", table=7)
    assert p.way("turn", "automobile", 7) == "dm" and p.tables == {}
    # stored and read back: the same policy
    assert NotifyPolicy.of({"notify": p.stored()}) == p
    with pytest.raises(ValueError):
        p.with_way("turn", "carrier pigeon")


def test_quiet_hours_follow_the_zone_across_a_daylight_saving_change():
    """Berlin, quiet 22:00-07:00: 06:30 local is 04:30 UTC in summer, 05:30 UTC in winter.
    A fixed offset (the old /remind quiet) is right only half the year."""
    berlin = NotifyPolicy().with_quiet("Europe/Berlin", 22, 7)
    fixed = NotifyPolicy().with_quiet("+01:00", 22, 7)
    # the night of the change (clocks go forward 2027-03-28 02:00 -> 03:00 CET -> CEST)
    before = ts("2027-03-27T05:30:00")  # 06:30 CET: quiet
    after = ts("2027-03-28T05:30:00")  # 07:30 CEST: awake (the fixed +01:00 still says 06:30)
    assert berlin.quiet_at(before) and fixed.quiet_at(before)
    assert not berlin.quiet_at(after) and fixed.quiet_at(after)
    assert berlin.quiet_at(ts("2027-03-28T04:30:00"))  # 06:30 CEST
    # across the change the quiet night is one hour shorter in UTC: 21:00 -> 05:00 UTC
    night = [h for h in range(24) if berlin.quiet_at(ts("2027-03-27T20:30:00") + h * 3600)]
    assert len(night) == 8
    # in autumn (2027-10-31 03:00 CEST -> 02:00 CET) it is one hour longer
    night = [h for h in range(24) if berlin.quiet_at(ts("2027-10-30T19:30:00") + h * 3600)]
    assert len(night) == 10
    # the end of quiet hours is found in local time too
    assert berlin.awake_at(ts("2027-03-28T03:00:00")) == ts("2027-03-28T05:00:00")  # 07:00 CEST
    assert berlin.awake_at(ts("2027-03-27T03:00:00")) == ts("2027-03-27T06:00:00")  # 07:00 CET


def test_a_bad_zone_or_hour_is_refused_and_a_broken_stored_policy_reads_as_the_defaults():
    for bad in ("Mars/Olympus", "../etc/passwd", "+25:00", "", "UTC+8"):
        with pytest.raises(ValueError):
            NotifyPolicy().with_quiet(bad, 1, 2)
    with pytest.raises(ValueError):
        NotifyPolicy().with_quiet("UTC", 1, 24)
    assert NotifyPolicy.of({"notify": {"tz": "Nowhere/Land", "quiet": [1, 2]}}) == NotifyPolicy()
    assert NotifyPolicy.of({"notify": "garbage"}) == NotifyPolicy()


async def test_the_verbs_change_one_members_policy_and_refuse_bad_input(store):
    service = TableService(store, clock=Clock())
    uid = 42
    assert await service.notify_settings(uid) == NotifyPolicy()
    p = await service.set_notify(uid, "turn", "digest", game="automobile")
    assert p.way("turn", "automobile") == "digest" and p.way("turn") == "ping"
    p = await service.set_quiet_hours(uid, "America/New_York", 23, 8)
    assert p.tz == "America/New_York" and p.quiet == (23, 8) and p.way("turn", "automobile") == "digest"
    p = await service.set_digest_hour(uid, 18)
    assert p.digest_hour == 18 and await service.notify_settings(uid) == p
    for call, key in (
        (service.set_notify(uid, "sunrise", "dm"), "notify.bad_event"),
        (service.set_notify(uid, "turn", "pigeon"), "notify.bad_way"),
        (service.set_quiet_hours(uid, "Atlantis/Capital", 1, 2), "notify.bad_zone"),
        (service.set_quiet_hours(uid, "UTC", 1, 99), "core.ui.bad_number"),
        (service.set_digest_hour(uid, 24), "core.ui.bad_number"),
    ):
        with pytest.raises(TurnRefused) as refused:
            await call
        assert refused.value.key == key
    assert await service.notify_settings(uid) == p  # nothing changed
    # other preferences (a vacation) are kept beside the policy
    await service.go_away(uid, 3)
    p2 = await service.set_notify(uid, "vote", "dm")
    assert p2.way("vote") == "dm" and (await service.settings.user(uid)).get("away")


def old_in_quiet_hours(prefs, now):
    """What /remind quiet did before the policy (a fixed UTC offset): the behaviour kept."""
    quiet = prefs.get("quiet")
    if not quiet or len(quiet) != 2:
        return False
    start, end = int(quiet[0]) % 24, int(quiet[1]) % 24
    if start == end:
        return False
    h = (datetime.fromtimestamp(now, UTC) + timedelta(hours=float(prefs.get("utc_offset", 0)))).hour
    return start <= h < end if start < end else (h >= start or h < end)


OLD_PREFS = {
    1: {"quiet": [22, 7], "utc_offset": 8},
    2: {"quiet": [6, 12], "utc_offset": -5, "away": [[1.0, 2.0]]},
    3: {"quiet": [1, 4], "utc_offset": 5.5},
    4: {"quiet": [0, 6]},  # no offset: UTC
    5: {"away": [[3.0, 4.0]]},  # nothing to move
}


async def test_old_quiet_hours_migrate_into_the_policy_with_the_same_behaviour(store, database_url):
    """A store at the schema before migration 19 holding /remind quiet settings: opened
    again, each member is quiet exactly the hours they were, and keeps everything else."""
    import json

    await store.sql("DROP TABLE notify_sent")
    await store.sql("DELETE FROM schema_migrations WHERE version >= 19")
    for uid, prefs in OLD_PREFS.items():
        await store.set_user_prefs(uid, prefs)
    await store.sql("INSERT INTO user_prefs(user_id, prefs_json) VALUES (6, 'not json')")
    await store.close()
    again = open_store(database_url, due=due_times)
    await again.open()
    try:
        assert await again.schema_version() == MIGRATIONS[-1][0]
        start = ts("2027-01-01T00:30:00")
        for uid, old in OLD_PREFS.items():
            new = await again.user_prefs(uid)
            assert "utc_offset" not in new and "quiet" not in new
            assert new.get("away") == old.get("away")
            for h in range(24 * 2):
                now = start + h * 1800
                assert in_quiet_hours(new, now) == old_in_quiet_hours(old, now), (uid, h)
        assert (await again.user_prefs(1))["notify"] == {"quiet": [22, 7], "tz": "+08:00"}
        assert (await again.user_prefs(3))["notify"]["tz"] == "+05:30"
        assert await again.user_prefs(5) == OLD_PREFS[5]
        assert await again.sql("SELECT prefs_json FROM user_prefs WHERE user_id=6") == [("not json",)]
        assert await again.notify_claim("k", 1, 1.0) and not await again.notify_claim("k", 1, 2.0)
        json.dumps(await again.user_prefs(2))
    finally:
        await again.close()
        await store.open()  # the fixture closes it

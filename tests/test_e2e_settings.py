"""/settings through the real discord.py client and the stand-in, on both backends
(issue 28 item 2): every subcommand that changes a setting goes through the one locked
update (tables/rules/settings.py update_guild, the store's update_guild_settings), so each
works and two admins changing settings at once both keep their change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.i18n import t
from tables.rules.settings import DEFAULT_SETTINGS


def changes(channel: int) -> dict[str, tuple[dict[str, Any], Any]]:
    """Each changing subcommand but /settings language: (options, a check that the stored
    settings then hold the change)."""
    return {
        "settings web": ({"enabled": False}, lambda s: s["web"] is False),
        "settings channel": ({"channel": channel, "allowed": True}, lambda s: s["channels"] == [channel]),
        "settings threads": (
            {"game": "city_of_fury", "enabled": True},
            lambda s: s["threads"] == {"city_of_fury": True},
        ),
        "settings timers": ({"reminder": 30, "turn_timer": 90}, lambda s: (s["reminder"], s["turn_timer"]) == (30, 90)),
        "settings options": (
            {"game": "city_of_fury", "options": "hero=brawler"},
            lambda s: s["options"] == {"city_of_fury": {"hero": "brawler"}},
        ),
        "settings clock": (
            {"profile": "fast", "policy": "vote"},
            lambda s: (s["clock"], s["clock_policy"]) == ("fast", "vote"),
        ),
        "settings limits": ({"lobbies_member": 3}, lambda s: s["limits"].get("lobbies_member") == 3),
    }


@pytest.fixture
async def admin_bot(table, store_backend):
    """The bot on the ``store_backend`` database (SQLite file or a fresh PostgreSQL
    database), an admin, and a reader of the stored settings (not the bot's cache)."""
    table.db = store_backend.url
    admin = table.fd.add_user(103, "admin", manage_guild=True)
    bot = await table.start()

    async def stored() -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, **await bot.services.settings.store.guild_settings(table.fd.guild_id)}

    return admin, stored


async def _answer(ex) -> str:
    msg = await ex.wait_response(timeout=20)
    assert msg.ephemeral, msg.text
    assert t("core.ui.internal", "en") not in msg.text, msg.text
    return msg.text


async def test_every_settings_subcommand_changes_its_setting_and_says_so(table, admin_bot):
    admin, stored = admin_bot
    channel = table.fd.add_channel("games")
    for command, (options, holds) in changes(channel).items():
        await _answer(await table.fd.slash(admin, command, options))
        assert holds(await stored()), f"/{command} did not change its setting: {await stored()}"
    # /settings web answers with the settings now in force, the companion's line included
    text = await _answer(await table.fd.slash(admin, "settings web", {"enabled": True}))
    assert t("web.settings.on", "en") in text and (await stored())["web"] is True
    text = await _answer(await table.fd.slash(admin, "settings web", {"enabled": False}))
    assert t("web.settings.off", "en") in text and (await stored())["web"] is False
    await _answer(await table.fd.slash(admin, "settings language", {"language": "zh"}))
    assert (await stored())["language"] == "zh"
    # /settings show reads them all back
    text = await _answer(await table.fd.slash(admin, "settings show"))
    assert f"<#{channel}>" in text and "city_of_fury" in text and "hero=brawler" in text
    assert t("web.settings.off", "en") in text
    assert not table.fd.violations


async def test_two_settings_changed_at_once_both_survive(table, admin_bot):
    """Each changing subcommand raced against /settings language from the defaults, each
    sent first twice: both changes are stored (on SQLite and PostgreSQL).  /settings web
    read the settings and wrote them back whole (a lost update when language came first)."""
    admin, stored = admin_bot
    channel = table.fd.add_channel("games")
    settings = table.bot.services.settings
    for command, (options, holds) in changes(channel).items():
        for first in (True, False, True, False):  # either sent first
            await settings.update_guild(table.fd.guild_id, lambda _: dict(DEFAULT_SETTINGS))
            pair = [(command, options), ("settings language", {"language": "zh"})]
            raced = await asyncio.gather(*(table.fd.slash(admin, c, o) for c, o in pair[:: 1 if first else -1]))
            await asyncio.gather(*(_answer(ex) for ex in raced))
            now = await stored()
            assert holds(now) and now["language"] == "zh", f"/{command} raced /settings language: {now}"
    assert not table.fd.violations

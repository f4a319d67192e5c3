"""Issue 20 item 10: ``/help`` lists the commands by what a player wants to do, in their
language, read from the live command tree (never a command that does not exist).
Through the stand-in with the real discord.py client."""

from __future__ import annotations

import json
from pathlib import Path

import discord
from discord import app_commands

from cogs.game.help import INTENTS
from engine.i18n import t

ROOT = Path(__file__).resolve().parent.parent


def _commands(bot) -> list[str]:
    return sorted(c.qualified_name for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command))


async def _help(table, user, locale=None):
    ex = await table.fd.slash(user, "help", locale=locale)
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral and msg.embeds, "privately, as an embed"
    return msg.embeds[0]


async def test_help_lists_every_command_once_under_what_it_is_for(table):
    alice = table.fd.add_user(101, "alice")
    await table.start()
    embed = await _help(table, alice)
    assert embed["title"] == t("help.title", "en")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    body = "\n".join(fields.values())
    for name in _commands(table.bot):  # everything registered, once
        assert body.count(f"`/{name}`") == 1, name
    listed = {line.split("`")[1][1:] for line in body.splitlines() if line.startswith("`/")}
    assert listed == set(_commands(table.bot)), "nothing listed that is not registered"
    # by intent, in the catalog's words, with each command's own description
    start, turn = fields[t("help.intent.start", "en")], fields[t("help.intent.turn", "en")]
    assert "`/game new` Open a table for a game" in start
    assert "`/auto hand`" in turn, "a game's own commands are part of playing a turn"
    assert "`/league standings`" in fields[t("help.intent.compete", "en")]
    assert "`/league new`" in fields[t("help.intent.organise", "en")]
    assert "`/settings threads`" in fields[t("help.intent.server", "en")]
    assert t("help.intent.more", "en") not in fields, "every command has an intent"
    assert [f["name"] for f in embed["fields"]][:2] == [t("help.intent.start", "en"), t("help.intent.turn", "en")]
    assert not table.fd.violations


async def test_help_speaks_the_members_language(table):
    wei = table.fd.add_user(102, "wei", locale="zh-CN")
    await table.start()
    embed = await _help(table, wei)
    assert embed["title"] == t("help.title", "zh") != t("help.title", "en")
    names = [f["name"] for f in embed["fields"]]
    assert t("help.intent.turn", "zh") in names and t("help.intent.turn", "en") not in names
    body = "\n".join(f["value"] for f in embed["fields"])
    zh_new = "/" + t("discord.cmd.game", "zh") + " " + t("discord.cmd.game.new", "zh")
    assert f"`{zh_new}` {t('discord.cmd.game.new.desc', 'zh')}" in body, "the names a zh client shows"
    assert "Open a table for a game" not in body
    # the same member in an English client reads English
    embed = await _help(table, wei, locale="en-US")
    assert embed["title"] == t("help.title", "en")


async def test_help_follows_the_live_command_tree(table):
    alice = table.fd.add_user(103, "alice")
    await table.start()
    assert table.bot.tree.remove_command("rules") is not None

    @app_commands.command(name="dance", description="A command no intent names yet")
    async def dance(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("💃", ephemeral=True)

    table.bot.tree.add_command(dance)
    embed = await _help(table, alice)
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    body = "\n".join(fields.values())
    assert "`/rules`" not in body, "a command that is gone is not listed"
    assert fields[t("help.intent.more", "en")] == "`/dance` A command no intent names yet"


def test_every_intent_has_a_title_in_both_languages_and_names_real_commands():
    en = json.loads((ROOT / "data/locales/en/help.json").read_text(encoding="utf-8"))
    zh = json.loads((ROOT / "data/locales/zh/help.json").read_text(encoding="utf-8"))
    for intent in [i for i, _ in INTENTS] + ["more"]:
        assert en[f"help.intent.{intent}"] and zh[f"help.intent.{intent}"] != en[f"help.intent.{intent}"]
    named = [n for _, names in INTENTS for n in names]
    assert len(named) == len(set(named)), "a command has one intent"

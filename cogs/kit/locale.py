"""Locale resolution and the app_commands Translator (names and descriptions)."""

from __future__ import annotations

import discord
from discord import app_commands

from engine.i18n import has, normalise, t
from engine.locales import DEFAULT, of_discord
from store import StoreUnavailable


def locale_of(interaction: discord.Interaction, default: str = DEFAULT) -> str:
    """The user's locale, falling back to the guild's, then ``default``."""
    for candidate in (interaction.locale, interaction.guild_locale):
        value = getattr(candidate, "value", candidate)
        if value:
            return normalise(str(value))
    return normalise(default)


def tr(interaction: discord.Interaction, key: str, /, **params) -> str:
    services = getattr(interaction.client, "services", None)
    return t(key, locale_of(interaction, getattr(services, "default_locale", DEFAULT)), **params)


def failure_key(error: BaseException | None) -> str:
    """The private message for an interaction that failed unexpectedly: the database
    being unavailable (its file deleted or replaced; the store logged it once) is said
    as such, anything else as our fault.  ``error`` may wrap the cause (discord.py's
    ``CommandInvokeError.original``, ``raise ... from``)."""
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, StoreUnavailable):
            return "core.ui.store_unavailable"
        error = getattr(error, "original", None) or error.__cause__ or error.__context__
        seen += 1
    return "core.ui.internal"


def is_unavailable(error: BaseException | None) -> bool:
    return failure_key(error) == "core.ui.store_unavailable"


#: where an option's localised name lives: one message per option name, for every command that takes it
OPTION_KEY = "discord.opt.{}"


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str(..., key="discord.…")`` from data/locales/<lang>/discord.json;
    an option's name (which discord.py hands over without a key) is ``discord.opt.<name>``."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if not key and context.location is app_commands.TranslationContextLocation.parameter_name:
            key = OPTION_KEY.format(string.message)
        lang = of_discord(locale.value)  # engine/locales.py: the Discord locales each language serves
        if not key or lang is None or not has(key, lang):
            return None
        return t(key, lang)


def ls(text: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(text, key=key)


async def say(interaction: discord.Interaction, text: str) -> None:
    """Tell only this member; works before or after deferring."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)

"""``/help``: the commands grouped by what a player wants to do, in their language.

Read from the live command tree every time: a command that is not registered is
never listed, and one that no intent below names is listed under "More" (so a new
command shows up before anyone files it).  A game's own commands (``/auto hand``,
declared as data, cogs/game/game_commands.py) are part of playing a turn.  Names and
descriptions are the ones Discord shows that member (the catalog translations of the
commands, cogs/kit/locale.py); intent titles are ``help.intent.<id>``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.locale import locale_of, ls
from cogs.kit.services import Services, services_of
from engine import available, get_game
from engine.i18n import has, t
from engine.locales import DEFAULT

#: (intent, the commands serving it): a name is a command's qualified name, or a
#: group's (every command under it not named elsewhere)
INTENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start", ("game new", "game mine", "mygames", "rules", "help")),
    ("turn", ("play", "game status", "game view", "game orders", "game undo")),
    ("catch_up", ("game catchup", "game log", "game replay", "game export", "game web")),
    ("seat", ("game resign", "game handover", "game abandon")),
    ("watch", ("game follow", "game unfollow", "game followers")),
    ("time", ("remind", "notify")),
    ("compete", ("stats", "leaderboard", "campaign standings", "league standings", "league status")),
    ("privacy", ("privacy",)),
    ("organise", ("campaign", "league")),
    ("server", ("settings",)),
)
#: the intent of a game's own commands
GAME_INTENT = "turn"
#: embed limits (Discord): a field's value, the whole embed
FIELD_CHARS = 1024
EMBED_CHARS = 5800


def _name(item: app_commands.Command | app_commands.Group, lang: str) -> str:
    """The command's (or group's) name as Discord shows it in ``lang``."""
    found = getattr(item, "_locale_name", None)
    key = found.extras.get("key") if isinstance(found, app_commands.locale_str) else None
    return t(key, lang) if key and lang != DEFAULT and has(key, lang) else item.name


def _description(item: app_commands.Command, lang: str) -> str:
    found = getattr(item, "_locale_description", None)
    key = found.extras.get("key") if isinstance(found, app_commands.locale_str) else None
    return t(key, lang) if key and has(key, lang) else item.description


def commands_by_intent(tree: app_commands.CommandTree, game_groups: set[str]) -> list[tuple[str, list[Any]]]:
    """Every slash command of ``tree`` once, under its intent (in :data:`INTENTS`
    order, then "more"); ``game_groups``: the groups games declare (``Game.commands``)."""
    found = [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]
    placed: dict[str, list[tuple[int, Any]]] = {intent: [] for intent, _ in INTENTS}
    placed["more"] = []
    exact = {name: intent for intent, names in INTENTS for name in names}
    rank = {name: i for _, names in INTENTS for i, name in enumerate(names)}
    for cmd in found:
        parts = cmd.qualified_name.split(" ")
        # the command itself, else the longest group named (league standings before league)
        named = next((" ".join(parts[:k]) for k in range(len(parts), 0, -1) if " ".join(parts[:k]) in exact), None)
        if named is not None:
            placed[exact[named]].append((rank[named], cmd))
        elif parts[0] in game_groups:
            placed[GAME_INTENT].append((len(rank), cmd))
        else:
            placed["more"].append((0, cmd))
    out = []
    for intent, cmds in placed.items():
        if cmds:
            out.append((intent, [c for _, c in sorted(cmds, key=lambda rc: rc[0])]))
    return out


def help_embed(tree: app_commands.CommandTree, game_groups: set[str], lang: str) -> discord.Embed:
    """The /help message: one field per intent, a line per command."""
    embed = discord.Embed(title=t("help.title", lang), description=t("help.intro", lang), colour=0x5865F2)
    total = len(embed.title or "") + len(embed.description or "")
    for intent, cmds in commands_by_intent(tree, game_groups):
        lines = []
        for cmd in cmds:
            path = [cmd]
            while path[0].parent is not None:
                path.insert(0, path[0].parent)
            name = "/" + " ".join(_name(p, lang) for p in path)
            lines.append(f"`{name}` {_description(cmd, lang)}")
        value, kept = "", 0
        for line in lines:
            if len(value) + len(line) + 1 > FIELD_CHARS - 2:
                break
            value += ("\n" if value else "") + line
            kept += 1
        if kept < len(lines):
            value += "\n…"
        title = t(f"help.intent.{intent}", lang)
        if total + len(title) + len(value) > EMBED_CHARS:
            break
        total += len(title) + len(value)
        embed.add_field(name=title, value=value, inline=False)
    return embed


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(
        name=ls("help", "help.cmd"), description=ls("What you can do, command by command", "help.cmd.desc")
    )
    async def help(self, interaction: discord.Interaction) -> None:
        lang = locale_of(interaction, self.services.default_locale)
        groups = {get_game(g).command_group or g for g in available() if get_game(g).commands}
        await interaction.response.send_message(embed=help_embed(self.bot.tree, groups, lang), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot, services_of(bot)))

"""``/rules``: a game's rules, by topic, from its data dir (data/<game>/rules/<lang>.md)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.inputs import check_game, echo, game_choices
from cogs.kit.locale import locale_of, ls
from cogs.kit.services import Services, services_of
from cogs.present.ui import clip, game_name
from engine import available, get_game
from engine.i18n import t
from engine.locales import DEFAULT

GAME_CHOICES = game_choices()  # at load time: see game_choices()


def rules_topics(game_id: str, locale: str) -> list[tuple[str, str, str]]:
    """(title, summary, body) per ``## `` topic of the game's rules/<lang>.md (data/<game>/rules/)."""
    base = get_game(game_id).data_path("rules")
    path = base / f"{locale}.md"
    if not path.exists():
        path = base / f"{DEFAULT}.md"
    if not path.exists():
        return []
    topics: list[tuple[str, str, str]] = []
    title: str | None = None
    body: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines() + ["## "]:
        if line.startswith("## "):
            if title is not None:
                text = "\n".join(body).strip()
                topics.append((title, text.splitlines()[0] if text else "", text))
            title, body = line[3:].strip(), []
        elif title is not None:
            body.append(line)
    return topics


def find_topic(game_id: str, topics: list[tuple[str, str, str]], query: str):
    """A topic by number (what autocomplete sends), or by title in the reader's
    language or in English (the rules files keep their topics in the same order)."""
    q = query.strip().lower()
    if q.isdecimal() and len(q) <= 6:  # isdigit() would let "²" through to int()
        n = int(q) - 1
        return topics[n] if 0 <= n < len(topics) else None
    for titles in ([tp[0] for tp in topics], [tp[0] for tp in rules_topics(game_id, DEFAULT)]):
        for pick in (lambda x: x.lower() == q, lambda x: q in x.lower()):
            for i, title in enumerate(titles):
                if pick(title) and i < len(topics):
                    return topics[i]
    return None


class Rules(commands.Cog):
    def __init__(self, services: Services) -> None:
        self.services = services

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    # ------------------------------------------------------------ /rules
    @app_commands.command(
        name=ls("rules", "discord.cmd.rules"), description=ls("Read a game's rules", "discord.cmd.rules.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"), topic=ls("Which part of the rules", "discord.arg.topic")
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        locale = self.loc(interaction)
        game = check_game(game)  # a registered id only: it names a folder (else refused)
        topics = rules_topics(game, locale)
        if not topics:
            await interaction.response.send_message(t("core.ui.no_rules", locale), ephemeral=True)
            return
        chosen = None
        if topic:
            chosen = find_topic(game, topics, topic)
            if chosen is None:
                await interaction.response.send_message(
                    t("core.ui.no_topic", locale, topic=echo(topic)), ephemeral=True
                )
                return
        embed = discord.Embed(title=game_name(game, locale), colour=0x3498DB)
        if chosen:
            embed.add_field(name=chosen[0], value=clip(chosen[2], 1024), inline=False)
            if len(chosen[2]) > 1024:
                embed.description = clip(chosen[2], 4000)
                embed.clear_fields()
                embed.title = f"{game_name(game, locale)} — {chosen[0]}"
        else:
            embed.description = "\n".join(f"**{tp[0]}** — {tp[1]}" for tp in topics)[:4000]
            embed.set_footer(text=t("core.ui.rules_hint", locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topic_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        if game not in available():
            return []
        needle = current.lower()
        return [
            app_commands.Choice(name=clip(tp[0], 100), value=str(i + 1))
            for i, tp in enumerate(rules_topics(game, self.loc(interaction)))
            if needle in tp[0].lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Rules(services_of(bot)))

"""How a lobby looks: its embed (host, seats, options) and its buttons."""

from __future__ import annotations

import discord

from cogs.present.levels import lobby_ai_select
from cogs.present.ui import COLOURS, mention
from engine.base import Game
from engine.i18n import t
from store import GameRow
from tables import clip, game_name, seat_labels


def seat_label(row: GameRow, seat: str, locale: str) -> str:
    """A seat in a lobby list: its member (Discord shows the name), or the AI, named by
    the one rule of every board (tables/seeing/board.py's seat_labels: "AI 1 (hard)")."""
    uid = row.user_of(seat)
    if uid:
        return mention(uid)
    return seat_labels(row, {}, locale)[seat].name


def lobby_embed(row: GameRow, game: Game, locale: str) -> discord.Embed:
    seats = "\n".join(f"{i + 1}. {seat_label(row, s.seat, locale)}" for i, s in enumerate(row.seats)) or "-"
    lo, hi = game.seat_range(row.options)
    # what the lobby says follows its state: join while seats are open, start when full,
    # follow the board once the game is on, nothing more to do once it is over
    if row.status == "lobby":
        help_text = (
            t("core.ui.lobby_full", locale, n=len(row.seats))
            if len(row.seats) >= hi
            else t("core.ui.lobby_help", locale, lo=lo, hi=hi)
        )
    elif row.status == "active":
        help_text = t("core.ui.lobby_playing", locale, n=len(row.seats))
    else:
        help_text = t("core.ui.lobby_closed", locale)
    embed = discord.Embed(
        title=t("core.ui.lobby_title", locale, game=game_name(game.id, locale), id=row.id),
        description=help_text,
        colour=COLOURS["lobby" if row.status == "lobby" else row.status if row.status in COLOURS else "abandoned"],
    )
    embed.add_field(name=t("core.ui.host", locale), value=mention(row.host_id), inline=True)
    embed.add_field(name=t("core.ui.seats", locale, n=len(row.seats), hi=hi), value=seats, inline=True)
    # the options set up, by their labels in the table's language; defaults left out (catalog
    # words and values the game's Options model validated: no member text is echoed here)
    opts = game.describe_options(row.options, locale)
    if opts:
        embed.add_field(name=t("core.ui.options", locale), value=clip("\n".join(opts), 1024), inline=False)
    if row.status not in ("lobby", "active"):
        embed.add_field(name=t("core.ui.status", locale), value=t(f"core.status.{row.status}", locale), inline=False)
    return embed


def lobby_components(row: GameRow, game: Game, locale: str) -> discord.ui.View | None:
    from cogs.kit.components import LobbyButton

    if row.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(row.id, "join", label=t("core.ui.join", locale), style=discord.ButtonStyle.success))
    view.add_item(LobbyButton(row.id, "leave", label=t("core.ui.leave", locale), style=discord.ButtonStyle.secondary))
    if game.seat_range(row.options)[1] > 1 and len(game.ai_levels) < 2:
        view.add_item(LobbyButton(row.id, "ai", label=t("core.ui.add_ai", locale), style=discord.ButtonStyle.secondary))
    view.add_item(LobbyButton(row.id, "start", label=t("core.ui.start", locale), style=discord.ButtonStyle.primary))
    view.add_item(LobbyButton(row.id, "cancel", label=t("core.ui.cancel", locale), style=discord.ButtonStyle.danger))
    if not row.table.get("thread"):  # cogs/game/lobbythread.py
        label = t("lobby.thread.button", locale)
        button = LobbyButton(row.id, "thread", label=label, style=discord.ButtonStyle.secondary)
        button.row = 2  # below the Add AI menu (row 1), when there is one
        view.add_item(button)
    if (menu := lobby_ai_select(row, game, locale)) is not None:
        view.add_item(menu)
    return view

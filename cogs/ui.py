"""Presentation shared by every game: board embeds, lobby embeds and the
generic action components built from ``legal_actions``.

Component custom_ids carry ids only (``tg:<kind>:<game id>:<version>:...``,
well under 100 characters); everything else is loaded from the database when
clicked, so buttons keep working after a restart.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from engine.base import BaseState, Event, Game
from engine.i18n import has, t
from store import GameRow

from .levels import ai_label, ai_seats_line, lobby_ai_select

MAX_BUTTONS = 20  # 4 rows of 5; the last row is kept for panel buttons
MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 4
EMBED_LOG_CHARS = 3500
COLOURS = {"lobby": 0x5865F2, "active": 0x2ECC71, "finished": 0xF1C40F, "abandoned": 0x95A5A6}


def clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def game_name(game_id: str, locale: str) -> str:
    """The game's display name: ``<id>.name`` from its own catalog, else the platform's."""
    return t(f"{game_id}.name", locale) if has(f"{game_id}.name") else t(f"discord.game.{game_id}", locale)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else ""


def seat_label(row: GameRow, seat: str, locale: str) -> str:
    uid = row.user_of(seat)
    return f"{seat} ({mention(uid)})" if uid else f"{seat} ({ai_label(row, seat, locale)})"


# ---------------------------------------------------------------- embeds
def board_embed(
    row: GameRow,
    game: Game,
    state: BaseState,
    events: Sequence[Event],
    locale: str,
    *,
    title_key: str = "core.ui.board_title",
) -> discord.Embed:
    outcome = game.outcome(state)
    lines = [game.event_text(e, locale) for e in game.visible_events(events, None)]
    text, total = [], 0
    for line in reversed(lines):
        total += len(line) + 1
        if total > EMBED_LOG_CHARS:
            text.append("…")
            break
        text.append(line)
    desc = "\n".join(reversed(text))
    embed = discord.Embed(
        title=t(title_key, locale, game=game_name(game.id, locale), id=row.id),
        description=desc or None,
        colour=COLOURS["finished" if outcome else "active"],
    )
    if outcome is not None:
        winners = ", ".join(seat_label(row, s, locale) for s in outcome.winners) or t("core.ui.nobody", locale)
        embed.add_field(
            name=t("core.ui.game_over", locale),
            value=clip(f"{outcome.reason.text(locale)}\n{t('core.ui.winners', locale)}: {winners}", 1024),
            inline=False,
        )
    else:
        for seat in game.to_act(state)[:5]:
            embed.add_field(
                name=t("core.ui.to_act", locale, seat=seat),
                value=clip(f"{seat_label(row, seat, locale)}: {game.prompt(state, seat).text(locale)}", 1024),
                inline=False,
            )
    ai_line = ai_seats_line(row, locale)
    footer = f"{game.summary(state).text(locale)} · {ai_line + ' · ' if ai_line else ''}#{row.id} · v{row.version}"
    embed.set_footer(text=clip(footer, 2048))
    embed.set_image(url="attachment://board.png")
    return embed


def board_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename="board.png")


def lobby_embed(row: GameRow, game: Game, locale: str) -> discord.Embed:
    seats = "\n".join(f"{i + 1}. {seat_label(row, s.seat, locale)}" for i, s in enumerate(row.seats)) or "-"
    embed = discord.Embed(
        title=t("core.ui.lobby_title", locale, game=game_name(game.id, locale), id=row.id),
        description=t(
            "core.ui.lobby_help", locale, lo=game.seat_range(row.options)[0], hi=game.seat_range(row.options)[1]
        ),
        colour=COLOURS["lobby" if row.status == "lobby" else row.status if row.status in COLOURS else "abandoned"],
    )
    embed.add_field(name=t("core.ui.host", locale), value=mention(row.host_id), inline=True)
    embed.add_field(
        name=t("core.ui.seats", locale, n=len(row.seats), hi=game.seat_range(row.options)[1]), value=seats, inline=True
    )
    if row.options:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(row.options.items()))
        embed.add_field(name=t("core.ui.options", locale), value=clip(opts, 1024), inline=False)
    if row.status not in ("lobby", "active"):
        embed.add_field(name=t("core.ui.status", locale), value=t(f"core.status.{row.status}", locale), inline=False)
    return embed


# ------------------------------------------------------------ components
def action_view(
    row: GameRow, game: Game, state: BaseState, seat: str, locale: str, *, extra: Sequence[discord.ui.Item] = ()
) -> discord.ui.View:
    """Buttons (few choices) or grouped selects (many) for ``seat``'s legal actions."""
    from .components import ActionButton, ActionSelect

    view = discord.ui.View(timeout=None)
    legal = game.legal_actions(state, seat)
    labels = [clip(game.action_label(state, a, locale), 80) for a in legal]
    if len(legal) <= MAX_BUTTONS:
        for i, label in enumerate(labels):
            view.add_item(ActionButton(row.id, row.version, i, label=label, row=i // 5))
    else:
        groups: dict[str, list[int]] = {}
        for i, a in enumerate(legal):
            groups.setdefault(game.action_group(state, a), []).append(i)
        chunks: list[tuple[str, list[int]]] = []
        for name, idxs in groups.items():
            for k in range(0, len(idxs), MAX_SELECT_OPTIONS):
                chunks.append((name, idxs[k : k + MAX_SELECT_OPTIONS]))
        for n, (name, idxs) in enumerate(chunks[:MAX_SELECTS]):
            placeholder = t(f"{game.id}.group.{name}", locale) if name else t("core.ui.choose", locale)
            options = [discord.SelectOption(label=clip(labels[i], 100), value=str(i)) for i in idxs]
            view.add_item(
                ActionSelect(row.id, row.version, n, placeholder=clip(placeholder, 150), options=options, row=n)
            )
    for item in extra:
        view.add_item(item)
    return view


def board_components(row: GameRow, game: Game, state: BaseState, locale: str) -> discord.ui.View | None:
    """The components under a public board message."""
    from .components import PanelButton, PrivateViewButton

    if game.outcome(state) is not None:
        return None
    extra: list[discord.ui.Item] = []
    if game.private_view:
        extra.append(PrivateViewButton(row.id, label=t("core.ui.my_view", locale)))
    acting = game.to_act(state)
    humans = [s for s in acting if row.user_of(s) is not None]
    if len(acting) == 1 and humans and not game.private_actions:
        return action_view(row, game, state, humans[0], locale, extra=[_last_row(i) for i in extra])
    view = discord.ui.View(timeout=None)
    if humans:
        view.add_item(PanelButton(row.id, row.version, label=t("core.ui.take_turn", locale)))
    for item in extra:
        view.add_item(item)
    return view if view.children else None


def _last_row(item: discord.ui.Item) -> discord.ui.Item:
    item.row = 4
    return item


def lobby_components(row: GameRow, game: Game, locale: str) -> discord.ui.View | None:
    from .components import LobbyButton

    if row.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(row.id, "join", label=t("core.ui.join", locale), style=discord.ButtonStyle.success))
    view.add_item(LobbyButton(row.id, "leave", label=t("core.ui.leave", locale), style=discord.ButtonStyle.secondary))
    if game.seat_range(row.options)[1] > 1 and len(game.ai_levels) < 2:
        view.add_item(LobbyButton(row.id, "ai", label=t("core.ui.add_ai", locale), style=discord.ButtonStyle.secondary))
    view.add_item(LobbyButton(row.id, "start", label=t("core.ui.start", locale), style=discord.ButtonStyle.primary))
    view.add_item(LobbyButton(row.id, "cancel", label=t("core.ui.cancel", locale), style=discord.ButtonStyle.danger))
    if (menu := lobby_ai_select(row, game, locale)) is not None:
        view.add_item(menu)
    return view


def next_mentions(row: GameRow, game: Game, state: BaseState) -> str:
    if game.outcome(state) is not None:
        return " ".join(mention(u) for u in row.humans)
    return " ".join(mention(row.user_of(s)) for s in game.to_act(state) if row.user_of(s) is not None)


def allowed_mentions() -> discord.AllowedMentions:
    return discord.AllowedMentions(users=True, roles=False, everyone=False)


__all__ = [
    "action_view",
    "board_components",
    "board_embed",
    "board_file",
    "lobby_components",
    "lobby_embed",
    "next_mentions",
    "allowed_mentions",
    "clip",
    "game_name",
    "mention",
]

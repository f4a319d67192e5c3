"""Presentation shared by every game: board embeds, lobby embeds and the
generic action components built from ``legal_actions``.

Component custom_ids carry ids only (``tg:<kind>:<game id>:<version>:...``,
well under 100 characters); everything else is loaded from the database when
clicked, so buttons keep working after a restart.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TypeVar

import discord

from engine import get_game
from engine.base import BaseState, Event, Game, SeatLabel
from engine.i18n import has, t
from store import GameRow
from tables import (
    Board,
    Choice,
    Happened,
    board_seat,
    clip,
    escape,
    game_name,
    happenings,
    said_by,
    seat_colours,
    seat_labels,
)
from tables import board as _board

MAX_BUTTONS = 20  # 4 rows of 5; the last row is kept for panel buttons
MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 4
EMBED_LOG_CHARS = 3500
T = TypeVar("T")
#: the component id of a live board's "your turn" text (well above the ids Discord numbers
#: a message's components with), which a retired board drops: it no longer waits for anyone
TURN_TEXT_ID = 9001
COLOURS = {"lobby": 0x5865F2, "active": 0x2ECC71, "finished": 0xF1C40F, "abandoned": 0x95A5A6}


def text_labels(labels: Mapping[str, SeatLabel]) -> dict[str, SeatLabel]:
    """The labels for a markdown text (names escaped: see :func:`tables.rules.text.escape`):
    what a game's ``event_text`` gets when its text goes into a message.  The
    plain labels go to images and component labels, which show text as it is."""
    return dict(_board.shown(labels, escape=True))


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else ""


# ------------------------------------------------------------ seat labels
# stable seat colours, by seat order at the table, and the square shown beside a name in
# texts: tables.seeing.colours picks them per game, away from the colours its board gives a meaning


def seat_tag(row: GameRow, labels: Mapping[str, SeatLabel], seat: str) -> str:
    """A seat in a text: its colour square and name (bold)."""
    idx = next((i for i, s in enumerate(row.seats) if s.seat == seat), None)
    square = seat_colours(row.game, len(row.seats))[idx][1] + " " if idx is not None else ""
    lab = labels.get(seat)
    return f"{square}**{escape(lab.name if lab else seat)}**"


#: the texts of a Discord message: the one implementation (tables/seeing/board.py) with names escaped
msg_text = partial(_board.msg_text, escape=True)
relabel = partial(_board.relabel, escape=True)


def event_lines(game: Game, events: Sequence[Event], locale: str, labels: Mapping[str, SeatLabel]) -> list[str]:
    """Events as message lines: the game names seats by their escaped labels."""
    return [_board.event_text(game, e, locale, labels, escape=True) for e in events]


def board_link(row: GameRow) -> str:
    return f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}"


def where(row: GameRow, game: Game, state: BaseState | None, locale: str, labels: Mapping[str, SeatLabel]) -> str:
    """ "Thunder Road #12 (round 3 ...)": which game and table, for pings."""
    name = game_name(row.game, locale)
    if state is None:
        return t("discord.ping.where", locale, game=name, id=row.id)
    return t(
        "discord.ping.where_when", locale, game=name, id=row.id, when=msg_text(game.summary(state), locale, labels)
    )


public_prompt = partial(_board.public_prompt, escape=True)


def turn_pings(
    row: GameRow, game: Game, state: BaseState, locale: str, labels: Mapping[str, SeatLabel], *, link: bool = False
) -> list[str]:
    """ "<@id>, your turn in Thunder Road #12 (round 3): move a car" for every human seat to act."""
    out = []
    at = where(row, game, state, locale, labels)
    for seat in game.to_act(state):
        uid = row.user_of(seat)
        if uid is None:
            continue
        line = t(
            "discord.ping.your_turn",
            locale,
            user=mention(uid),
            where=at,
            what=public_prompt(game, state, seat, locale, labels),
        )
        if link:
            line += " " + board_link(row)
        out.append(line)
    return out


# ------------------------------------------------------------- the log
LOG_CHARS = 1500


def log_lines(
    row: GameRow,
    game: Game,
    groups: Sequence[tuple[str | None, Sequence[Event], str]],
    locale: str,
    labels: Mapping[str, SeatLabel],
) -> list[str]:
    """What just happened (``groups``: (seat or None, its events, "player" | "ai" | "auto")
    in order), one line per actor: see :func:`happened_lines`."""
    return happened_lines(
        happenings(game, groups, locale, labels, escape=True), lambda s: seat_tag(row, labels, s), locale
    )


def happened_lines(steps: Sequence[Happened], tag: Callable[[str], str], locale: str) -> list[str]:
    """What just happened, one line per actor: consecutive steps of one seat
    are joined; what others did in them (the enemies' phase: events naming an
    ``actor``/``enemy``/``unit``) gets one line per such actor under it; a line
    repeated within a line is shown once with its count ("... ×3"); a step the
    platform took (a forced single choice) says so.  ``tag``: a seat as a message names it."""
    merged: list[tuple[str | None, dict[str | None, list[str]]]] = []
    for step in steps:
        parts: dict[str | None, list[str]] = {}
        for actor, text in step.lines:
            parts.setdefault(actor, []).append(text)
        # the only choice, or the reader's own standing order (tables/rules/decisions.py)
        said = said_by(step.by, locale, ("auto", "order"))
        if said:
            parts[None] = [f"{x} {said}" for x in parts.get(None, [])] or [said]
        if not parts:
            continue
        if merged and merged[-1][0] == step.seat:
            for key, texts in parts.items():
                merged[-1][1].setdefault(key, []).extend(texts)
        else:
            merged.append((step.seat, parts))
    out = []
    for seat, parts in merged:
        for key, texts in parts.items():
            counted: dict[str, int] = {}
            for x in texts:
                counted[x] = counted.get(x, 0) + 1
            body = " · ".join(x if n == 1 else f"{x} ×{n}" for x, n in counted.items())
            if key is not None:
                out.append(f"↳ {body}")
            else:
                out.append(f"{tag(seat)}: {body}" if seat else body)
    return out


def _fit(lines: Sequence[str], budget: int) -> str:
    kept, total = [], 0
    for line in reversed(lines):
        line = clip(line, budget)
        total += len(line) + 1
        if total > budget:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(reversed(kept))


# ----------------------------------------------------------- the board
def tag(b: Board, seat: str) -> str:
    """A seat of a board in a text: its colour square and name (bold)."""
    p = b.player(seat)
    if p is None:
        return f"**{escape(seat)}**"
    return f"{p.square + ' ' if p.square else ''}**{escape(p.name)}**"


def board_view(
    row: GameRow,
    b: Board,
    *,
    note: str | None = None,
    live: bool = True,
    extra: str | None = None,
    panel_label: str | None = None,
) -> discord.ui.LayoutView:
    """The one board message (Components V2) of a :class:`tables.seeing.board.Board` (built
    with ``escape=True``): a container with the title, the rendered board, what just
    happened, whose turn it is (pinging them), and the action rows.  ``live=False``
    (a finished, abandoned or superseded board): no buttons.  ``row``: the table's
    members, for the mentions (a board names players, a message pings members).
    ``panel_label``: a member to act reads another language than the table's, so the
    board also offers their choices privately (the panel, in their language)."""
    locale = b.locale
    over = b.outcome is not None
    status = "finished" if over else row.status if row.status in COLOURS else "active"
    acting = b.to_act
    accent = COLOURS[status]
    first = b.player(acting[0]) if acting else None
    if first is not None and first.colour:
        accent = int(first.colour[1:], 16)
    box: discord.ui.Container = discord.ui.Container(accent_colour=accent)
    box.add_item(discord.ui.TextDisplay(f"### {b.title}"))
    alt = b.describe() if b.describe is not None else None  # the image in words, for a screen reader
    box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description=alt)))
    lines = happened_lines(b.happened, lambda s: tag(b, s), locale)
    if lines:
        box.add_item(discord.ui.TextDisplay(_fit(lines, LOG_CHARS)))
    turn: list[str] = [note] if note else []
    if over:
        winners = ", ".join(tag(b, s) for s in b.winner_seats) or t("core.ui.nobody", locale)
        turn.append(f"**{t('core.ui.game_over', locale)}** — {b.outcome}")
        turn.append(f"{t('core.ui.winners', locale)}: {winners}")
        if live and row.humans:  # the final board tells every player
            who = " ".join(mention(u) for u in row.humans)
            at = t("discord.ping.where", locale, game=b.game_name, id=b.id)
            turn.append(t("discord.ping.game_over", locale, users=who, where=at))
    elif row.status in ("abandoned", "finished"):
        turn.append(
            t("discord.board.abandoned", locale) if row.status == "abandoned" else t("core.ui.game_over", locale)
        )
    else:
        at = t("discord.ping.where_when", locale, game=b.game_name, id=b.id, when=b.summary)
        for seat in acting:
            uid, p = row.user_of(seat), b.player(seat)
            if uid is not None:
                what = p.prompt if p is not None and p.prompt else ""
                turn.append(t("discord.ping.your_turn", locale, user=mention(uid), where=at, what=what))
        ai = [tag(b, s) for s in acting if row.user_of(s) is None]
        if ai:
            turn.append(t("discord.board.ai_thinking", locale, who=", ".join(ai)))
        if b.secret_orders:
            done = [p.seat for p in b.players if not p.waiting and not p.ai]
            if done:
                turn.append(t("discord.board.locked_in", locale, who=", ".join(tag(b, s) for s in done)))
            if acting:
                turn.append(t("discord.board.choosing", locale, who=", ".join(tag(b, s) for s in acting)))
    if turn:
        # whose turn it is, only while the table waits for it: a board retired later drops it (cogs/present/board_posts.py)
        waits = not over and row.status == "active" and bool(acting)
        box.add_item(discord.ui.TextDisplay(clip("\n".join(turn), 1800), id=TURN_TEXT_ID if waits else None))
    if extra:  # platform lines about the table (time banks)
        box.add_item(discord.ui.TextDisplay(clip(extra, 600)))
    if live and not over and row.status == "active":
        for action_row in board_rows(row, b, panel_label):
            box.add_item(action_row)
    # secret orders: the table's version would count the steps a crew has taken; not shown
    version = "" if b.secret_orders else f" · v{b.version}"
    ai_names = [escape(p.name) for p in b.players if p.ai] if b.ai_levels else []
    ai_seats = f" · {', '.join(ai_names)}" if ai_names else ""
    box.add_item(discord.ui.TextDisplay(clip(f"-# {b.summary}{ai_seats} · #{b.id}{version}", 400)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view


def board_file(png: bytes, description: str | None = None) -> discord.File:
    """The board image as an attachment, with its description (what a screen reader reads:
    tables/seeing/describe.py, from the view the image draws)."""
    return discord.File(io.BytesIO(png), filename="board.png", description=description or None)


def image_file(png: bytes, filename: str, description: str | None) -> discord.File:
    """Any image the bot posts, with its description (never an image without words)."""
    return discord.File(io.BytesIO(png), filename=filename, description=description or None)


# ------------------------------------------------------------ components
Offered = Sequence[tuple[int, str, str]]  # (choice index, label, group) from TableService.offer


def offered(choices: Sequence[Choice]) -> list[tuple[int, str, str]]:
    """A board's choices as (choice index, label, group), what the components are made of."""
    return [(c.index, c.label, c.group) for c in choices]


def choice_items(
    row: GameRow, game: Game, offered: Offered, locale: str, board: int | None = None, ver: int | None = None
) -> list[list[discord.ui.Item]]:
    """The seat's choices as component rows: buttons (few choices) or selects
    grouped by the game's action groups (many), at most four rows.  ``ver``: what
    the components carry instead of the table's version (a private panel's choice
    token, see tables/rules/panels.py)."""
    from cogs.kit.components import ActionButton, ActionSelect

    version = row.version if ver is None else ver
    rows: list[list[discord.ui.Item]] = []
    if len(offered) <= MAX_BUTTONS:
        for k in range(0, len(offered), 5):
            rows.append(
                [
                    ActionButton(row.id, version, i, label=clip(label, 80), board=board)
                    for i, label, _ in offered[k : k + 5]
                ]
            )
        return rows
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, label, group in offered:
        groups.setdefault(group, []).append((i, label))
    chunks: list[tuple[str, list[tuple[int, str]]]] = []
    for name, items in groups.items():
        for k in range(0, len(items), MAX_SELECT_OPTIONS):
            chunks.append((name, items[k : k + MAX_SELECT_OPTIONS]))
    chunks = merge_lone_options(chunks, MAX_SELECT_OPTIONS)
    for n, (name, items) in enumerate(chunks[:MAX_SELECTS]):
        placeholder = (
            t(f"{game.id}.group.{name}", locale)
            if name and has(f"{game.id}.group.{name}")
            else t("core.ui.choose", locale)
        )
        options = [discord.SelectOption(label=clip(label, 100), value=str(i)) for i, label in items]
        rows.append(
            [ActionSelect(row.id, version, n, placeholder=clip(placeholder, 150), options=options, board=board)]
        )
    return rows


def merge_lone_options(chunks: list[tuple[str, list[T]]], size: int) -> list[tuple[str, list[T]]]:
    """Selects of one option each (an Automobile build's lone "Back") joined to a
    neighbouring select with room for them: a menu is never opened for one option."""
    out = [(name, list(items)) for name, items in chunks]
    k = 0
    while k < len(out):
        if len(out[k][1]) == 1 and len(out) > 1:
            host = next(
                (j for j in sorted(range(len(out)), key=lambda j: abs(j - k)) if j != k and len(out[j][1]) < size),
                None,
            )
            if host is not None:
                out[host][1].extend(out[k][1])
                del out[k]
                continue
        k += 1
    return out


def action_view(
    row: GameRow,
    game: Game,
    offered: Offered,
    locale: str,
    *,
    extra: Sequence[discord.ui.Item] = (),
    board: int | None = None,
    ver: int | None = None,
) -> discord.ui.View:
    """A private panel (classic components): the seat's choices (``board``: the
    public board it was opened from, redrawn when the seat locks in; ``ver``: its
    choice token, see tables/rules/panels.py)."""
    view = discord.ui.View(timeout=None)
    for r, items in enumerate(choice_items(row, game, offered, locale, board, ver)):
        for item in items:
            item.row = r
            view.add_item(item)
    for item in extra:
        item.row = 4
        view.add_item(item)
    return view


def board_rows(row: GameRow, b: Board, panel_label: str | None = None) -> list[discord.ui.ActionRow]:
    """The action rows of a live board: the one human seat's choices when it
    alone is to act (``b.open_choices``), else a button opening each player's
    private panel (with open choices too when ``panel_label`` is given: the member
    to act reads another language, and decides privately in theirs); "My view" for
    games with hidden hands."""
    from cogs.kit.components import CatchupButton, PanelButton, PrivateViewButton, TextBoardButton

    locale = b.locale
    out: list[discord.ui.ActionRow] = []
    if b.open_choices:
        game = get_game(b.game)
        for items in choice_items(row, game, offered(b.open_choices), locale):
            out.append(discord.ui.ActionRow(*items))
    last: list[discord.ui.Item] = []
    if (not b.open_choices or panel_label) and any(row.user_of(s) is not None for s in b.to_act):
        # the panel is opened for the current decision whatever the version; with secret orders the
        # version is left out (it counts the steps a crew has taken)
        ver = 0 if b.secret_orders else row.version
        last.append(PanelButton(row.id, ver, label=clip(panel_label or t("core.ui.take_turn", locale), 80)))
    if b.private_view:
        last.append(PrivateViewButton(row.id, label=t("core.ui.my_view", locale)))
    if last or len(out) < 5:  # the board in words, for a screen reader: one click away
        last.append(TextBoardButton(row.id, label=t("describe.text_board", locale)))
    if len([s for s in row.seats if s.user_id is not None]) > 1 and (last or len(out) < 5):
        # several players: the one whose turn came back can see what happened since, privately
        last.append(CatchupButton(row.id, label=t("play.catchup.button", locale)))
    if last:
        out.append(discord.ui.ActionRow(*last))
    return out


def allowed_mentions(users: Iterable[int | None] = ()) -> discord.AllowedMentions:
    """Who a message may notify: exactly ``users`` (never a role, @everyone,
    @here, or anyone else a text happens to mention).  The bot's default is
    :meth:`discord.AllowedMentions.none`; a message that pings says whom."""
    ids = sorted({int(u) for u in users if u})
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in ids]
    )


__all__ = [
    "action_view",
    "board_file",
    "image_file",
    "board_seat",
    "board_view",
    "seat_labels",
    "turn_pings",
    "allowed_mentions",
    "event_lines",
    "public_prompt",
    "text_labels",
    "clip",
    "game_name",
    "mention",
]

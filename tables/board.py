"""What a given viewer sees of a table (Discord-free): :func:`board`.

One call gives a :class:`Board`: the title, the players with their names and
seat colours, whose turn it is and what they are asked, the time banks, the
log, what just happened, the choices offered to the viewer's seat with their
numbers and the marks they put on the image, and the image itself (drawn
lazily).  Hidden information is removed here, on the server: a viewer who is
not a seat (``viewer=None`` or a member not seated) gets the public view of the
state and the public events only; a seated viewer gets their own seat's view
(their hand, their own pending orders) and nobody else's.

The web companion builds every page from this; the Discord cogs use its
helpers (:func:`seat_labels`, :func:`board_seat`) for their messages.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import get_game
from engine.base import BaseState, Game, Msg, SeatLabel
from engine.i18n import has, t
from store import GameRow

from .colours import seat_colours
from .levels import level_name, seat_level
from .text import plain

if TYPE_CHECKING:
    from .service import TableService

#: the catalogs' translator, for pages built from a board (the web companion imports tables/ only)
text = t
#: how many log entries a board carries
LOG_ENTRIES = 30

#: display names of a table's members: ``names(row) -> {member: name}`` (the bot's cache of
#: Discord display names; without one, seats are "Player 1", "AI 1", ...)
NameSource = Callable[[GameRow], Awaitable[Mapping[int, str]]]


def clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def game_name(game_id: str, locale: str) -> str:
    """The game's display name: ``<id>.name`` from its own catalog, else the platform's."""
    return t(f"{game_id}.name", locale) if has(f"{game_id}.name") else t(f"discord.game.{game_id}", locale)


def seat_labels(row: GameRow, names: Mapping[int, str], locale: str) -> dict[str, SeatLabel]:
    """Every seat's label: its member's display name (AI seats named as the AI)
    and a stable colour by seat order.  ``p1`` never reaches a player."""
    out: dict[str, SeatLabel] = {}
    ai = 0
    palette = seat_colours(row.game, len(row.seats))
    for i, s in enumerate(row.seats):
        if s.user_id is None:
            ai += 1
            name = t("discord.seat.ai", locale, n=ai)
            game = get_game(row.game)
            if len(game.ai_levels) > 1:  # "AI 1 (hard)"
                name += f" ({level_name(game.id, seat_level(row, game, s.seat), locale)})"
        else:
            name = names.get(s.user_id) or t("discord.seat.player", locale, n=i + 1)
        out[s.seat] = SeatLabel(name=plain(name) or "?", colour=palette[i][0])
    return out


def board_seat(row: GameRow, game: Game, state: BaseState) -> str | None:
    """The human seat whose choices sit on the public board (it alone is to act, in the open)."""
    if game.outcome(state) is not None or game.private_actions:
        return None
    acting = game.to_act(state)
    humans = [s for s in acting if row.user_of(s) is not None]
    return humans[0] if len(acting) == 1 and humans else None


_SEAT_ID = re.compile(r"(?<![\w@#<])((?:p|ai)\d{1,2})(?![\w>])")


def relabel(text: str, labels: Mapping[str, SeatLabel]) -> str:
    """A seat id left in a text (a game whose texts predate seat labels) shown by its label."""
    return _SEAT_ID.sub(lambda m: labels[m[1]].name if m[1] in labels else m[1], text)


def msg_text(msg: Msg, locale: str, labels: Mapping[str, SeatLabel]) -> str:
    """A game's ``Msg`` with every parameter that names a seat shown by its label."""
    params = {k: (labels[v].name if isinstance(v, str) and v in labels else v) for k, v in msg.params.items()}
    return relabel(t(msg.key, locale, **params), labels)


# ------------------------------------------------------------ the model
@dataclass
class Player:
    seat: str
    name: str
    colour: str
    ai: bool
    waiting: bool  # the table waits for this seat
    prompt: str | None = None  # what it is asked (public wording), when waiting
    you: bool = False  # the viewer's own seat


@dataclass
class Choice:
    index: int
    label: str
    group: str
    number: int | None = None  # its number on the image, when it marks a place


@dataclass
class Bank:
    seat: str
    waiting: bool
    #: waiting: when the bank runs out (epoch seconds); else the seconds it holds
    value: float
    away_until: float | None = None


@dataclass
class LogLine:
    position: int  # 1-based position in the table's log
    seat: str
    text: str
    at: float
    private: bool = False  # it shows the viewer something only their seat sees


@dataclass
class Board:
    id: int
    game: str
    game_name: str
    title: str
    status: str  # lobby, active, finished, abandoned
    version: int
    locale: str
    players: list[Player]
    summary: str = ""
    to_act: list[str] = field(default_factory=list)
    viewer_seat: str | None = None
    private: str | None = None  # the viewer's own hidden information (their hand), as text
    orders_locked: bool = False  # the viewer's secret orders are in, not yet revealed (the log has them)
    choices: list[Choice] = field(default_factory=list)  # offered to the viewer's seat
    marks: dict[str, int] = field(default_factory=dict)  # numbered places on the image
    banks: list[Bank] = field(default_factory=list)
    outcome: str | None = None
    winners: list[str] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)
    last: list[LogLine] = field(default_factory=list)  # what just happened (the latest entries)
    positions: int = 0  # actions in the table's log (the replay's last position)
    updated_at: float = 0.0
    #: the board image (PNG) as this viewer sees it; drawn when first awaited
    image: Callable[[], Awaitable[bytes]] | None = field(default=None, repr=False, compare=False)

    def label(self, seat: str) -> str:
        return next((p.name for p in self.players if p.seat == seat), seat)


def _players(row: GameRow, labels: Mapping[str, SeatLabel], to_act: list[str], viewer_seat: str | None) -> list[Player]:
    palette = seat_colours(row.game, len(row.seats))
    return [
        Player(
            seat=s.seat,
            name=labels[s.seat].name if s.seat in labels else s.seat,
            colour=str(labels[s.seat].colour) if s.seat in labels and labels[s.seat].colour else palette[i][0],
            ai=s.user_id is None,
            waiting=s.seat in to_act,
            you=s.seat == viewer_seat,
        )
        for i, s in enumerate(row.seats)
    ]


async def names_of(row: GameRow, names: NameSource | None) -> Mapping[int, str]:
    if names is None:
        return {}
    try:
        return await names(row)
    except Exception:  # noqa: BLE001 -- a name lookup never costs the page
        return {}


async def board(
    tables: TableService,
    table: GameRow | int,
    viewer: int | None,
    locale: str,
    *,
    names: NameSource | None = None,
    log_entries: int = LOG_ENTRIES,
) -> Board:
    """What ``viewer`` (a member id, or None for anyone) sees of ``table`` now.

    Raises :class:`tables.TurnRefused` for a missing or unreadable table."""
    from .service import TurnRefused

    row = table if isinstance(table, GameRow) else await tables.row(table)
    if row is None or row.status == "quarantined":
        raise TurnRefused("no_game", "core.ui.no_game")
    labels = seat_labels(row, await names_of(row, names), locale)
    viewer_seat = row.seat_of(viewer) if viewer is not None else None
    name = game_name(row.game, locale)
    out = Board(
        id=row.id,
        game=row.game,
        game_name=name,
        title=t("core.ui.board_title", locale, game=name, id=row.id),
        status=row.status,
        version=row.version,
        locale=locale,
        players=_players(row, labels, [], viewer_seat),
        viewer_seat=viewer_seat,
        updated_at=row.updated_at,
    )
    if row.status == "lobby" or row.state_json is None:
        return out
    game, state = await tables.open_state(row)
    outcome = game.outcome(state)
    to_act = [] if outcome is not None or row.status != "active" else game.to_act(state)
    out.to_act = to_act
    out.players = _players(row, labels, to_act, viewer_seat)
    for p in out.players:
        if p.waiting:
            p.prompt = msg_text(game.prompt(state, p.seat), locale, labels)
    out.summary = msg_text(game.summary(state), locale, labels)
    if outcome is not None:
        out.outcome = msg_text(outcome.reason, locale, labels)
        out.winners = [labels[s].name if s in labels else s for s in outcome.winners]
    if viewer_seat is not None and game.private_view:
        hand = game.private_summary(state, viewer_seat)
        out.private = msg_text(hand, locale, labels) if hand is not None else None
    if viewer_seat is not None and game.private_actions and to_act and viewer_seat not in to_act:
        out.orders_locked = True  # secret orders given; the log below shows this seat its own
    # the choices: the viewer's own when their seat is to act; the public board's marks otherwise
    marks: dict[str, int] = {}
    if viewer_seat is not None and viewer_seat in to_act:
        offered, marks = await tables.board_offer(row, game, state, viewer_seat, locale, labels)
        numbers, _ = await tables.numbered(row, game, state, viewer_seat)
        out.choices = [Choice(i, label, group, numbers[i] if i < len(numbers) else None) for i, label, group in offered]
    elif row.status == "active" and (seat := board_seat(row, game, state)) is not None:
        _, marks = await tables.board_offer(row, game, state, seat, locale, labels)
    out.marks = dict(marks)
    if row.status == "active":
        out.banks = [
            Bank(seat, waiting, value, away) for seat, _uid, value, waiting, away in await tables.bank_lines(row)
        ]
    total = await tables.store.count_actions(row.id)
    out.positions = total
    if log_entries > 0 and total:
        first = max(0, total - log_entries)
        rows = await tables.store.actions(row.id, limit=log_entries, offset=first)
        for n, a in enumerate(rows, start=first + 1):
            visible = game.visible_events(game.load_events(a.events), viewer_seat)
            shown = [relabel(game.event_text(e, locale, labels), labels) for e in visible]
            text = " · ".join(x for x in shown if x) or "…"
            secret = any(e.to is not None for e in visible)
            out.log.append(LogLine(n, labels[a.seat].name if a.seat in labels else a.seat, text, a.created_at, secret))
        out.last = [line for line in out.log if line.at >= (out.log[-1].at - 1.0)][-5:] if out.log else []
    image_seat = viewer_seat  # a seat sees its own view (its hand); anyone else the public one

    async def image() -> bytes:
        return await tables.render(game, state, image_seat, locale, labels, marks)

    out.image = image
    return out


# ------------------------------------------------------------ history
@dataclass
class Frame:
    """A past position of a table (what a follower saw then)."""

    position: int
    total: int
    summary: str
    line: LogLine | None  # the action that led here
    anchor: int  # id of the last action it includes (a frame is the same while its anchor is)
    image: Callable[[], Awaitable[bytes]] = field(repr=False, compare=False)


async def frame(
    tables: TableService, row: GameRow, position: int, locale: str, *, names: NameSource | None = None
) -> Frame:
    """The public board after ``position`` actions of the table's log (clamped)."""
    game, state, n, total = await tables.replay_state(row, position)
    labels = seat_labels(row, await names_of(row, names), locale)
    line = None
    anchor = 0
    if n > 0:
        found = await tables.store.actions(row.id, limit=1, offset=n - 1)
        a = found[0] if found else None
        if a is not None:
            anchor = a.id
            shown = [
                relabel(game.event_text(e, locale, labels), labels)
                for e in game.visible_events(game.load_events(a.events), None)
            ]
            line = LogLine(
                n, labels[a.seat].name if a.seat in labels else a.seat, " · ".join(shown) or "…", a.created_at
            )

    async def image() -> bytes:
        return await tables.render(game, state, None, locale, labels)

    return Frame(n, total, msg_text(game.summary(state), locale, labels), line, anchor, image)


# ------------------------------------------------------------ who may look
async def public(tables: TableService, row: GameRow) -> bool:
    """Whether a table may be shown to anyone who has its link: not a broken row, not
    closed to followers, and its server has not turned the web companion off."""
    if row.status == "quarantined":
        return False
    settings = await tables.settings.guild(row.guild_id)
    if settings.get("web") is False:
        return False
    return not await tables.store.followers_closed(row.id)


def export(b: Board) -> dict[str, Any]:
    """A board as plain data (JSON for the page's live updates); no image."""
    from dataclasses import asdict

    data = asdict(b)
    data.pop("image", None)
    return data


def web_link(base_url: str | None, game_id: int) -> str | None:
    """The table's page on the web companion, when it has a public URL (``TG_WEB_URL``)."""
    return f"{base_url.rstrip('/')}/t/{game_id}" if base_url else None

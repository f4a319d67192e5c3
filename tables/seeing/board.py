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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import get_game
from engine.base import BaseState, Event, Game, Msg, Outcome, SeatLabel
from engine.i18n import has, t
from render.common import MIN_TEXT_PX
from store import GameRow
from tables.core.common import TurnRefused
from tables.rules.levels import level_name, seat_level
from tables.rules.text import escape as _escape
from tables.rules.text import plain
from tables.seeing import logtext
from tables.seeing.colours import seat_colours, seat_symbol
from tables.seeing.describe import describer, frame_describer
from tables.seeing.secrecy import log_window, public_position, view_key

if TYPE_CHECKING:
    from tables.play.views import Views
    from tables.seeing.reads import Reads

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
    """The game's display name: ``<id>.name`` from its own catalog (data/<id>/locales/), else its id."""
    return t(f"{game_id}.name", locale) if has(f"{game_id}.name") else game_id


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
        out[s.seat] = SeatLabel(name=plain(name) or "?", colour=palette[i][0], symbol=seat_symbol(i))
    return out


def board_seat(row: GameRow, game: Game, state: BaseState) -> str | None:
    """The human seat whose choices sit on the public board (it alone is to act, in the open)."""
    if game.outcome(state) is not None or game.private_actions:
        return None
    acting = game.to_act(state)
    humans = [s for s in acting if row.user_of(s) is not None]
    return humans[0] if len(acting) == 1 and humans else None


_SEAT_ID = re.compile(r"(?<![\w@#<])((?:p|ai)\d{1,2})(?![\w>])")


def shown(labels: Mapping[str, SeatLabel], escape: bool = False) -> Mapping[str, SeatLabel]:
    """The labels as a text shows them: ``escape`` (a Discord message, markdown) gives every
    name markdown-escaped (:func:`tables.rules.text.escape`); else as they are (images, component
    labels, HTML, which escape on their own)."""
    if not escape:
        return labels
    return {seat: lab.model_copy(update={"name": _escape(lab.name)}) for seat, lab in labels.items()}


def relabel(text: str, labels: Mapping[str, SeatLabel], *, escape: bool = False) -> str:
    """A seat id left in a text (a game whose texts predate seat labels) shown by its label
    (``escape``: markdown-escaped, for a Discord message)."""

    def name(m: re.Match[str]) -> str:
        if m[1] not in labels:
            return m[1]
        return _escape(labels[m[1]].name) if escape else labels[m[1]].name

    return _SEAT_ID.sub(name, text)


def msg_text(msg: Msg, locale: str, labels: Mapping[str, SeatLabel], *, escape: bool = False) -> str:
    """A game's ``Msg`` with every parameter that names a seat shown by its label
    (``escape``: markdown-escaped, for a Discord message)."""
    names = shown(labels, escape)
    params = {k: (names[v].name if isinstance(v, str) and v in names else v) for k, v in msg.params.items()}
    return relabel(t(msg.key, locale, **params), labels, escape=escape)


def outcome_text(outcome: Outcome, locale: str, labels: Mapping[str, SeatLabel], *, escape: bool = False) -> str:
    """A finished game's reason as the game says it; when that names none of the winners,
    the platform says whose it is ("victory — won by Alice, Bob"), for every game alike.
    (The reason is part of the game's stored outcome, which old exports replay to exactly:
    whose it is comes from here, not from a changed reason.)"""
    said = msg_text(outcome.reason, locale, labels, escape=escape)
    names = [n.name for s, n in shown(labels, escape).items() if s in outcome.winners]
    if not names or any(n in said for n in names):
        return said
    return t("core.ui.outcome_winners", locale, reason=said, winners=tuple(names))


def event_text(game: Game, event: Event, locale: str, labels: Mapping[str, SeatLabel], *, escape: bool = False) -> str:
    """One event as a line, seats by their labels (``escape``: for a Discord message)."""
    return relabel(game.event_text(event, locale, dict(shown(labels, escape))), labels, escape=escape)


def public_prompt(
    game: Game, state: BaseState, seat: str, locale: str, labels: Mapping[str, SeatLabel], *, escape: bool = False
) -> str:
    """What a seat is asked to do, as anyone may read it.  Secret simultaneous orders
    (``game.private_actions``): only that its orders are due, never which step of them
    it is on (that tells what it ordered so far); the steps go to its own view."""
    if game.private_actions:
        return t("discord.ping.secret_orders", locale, button=t("core.ui.take_turn", locale))
    return msg_text(game.prompt(state, seat), locale, labels, escape=escape)


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
    square: str = ""  # its colour as a text square (beside its name in a message)
    symbol: str = ""  # its symbol (drawn on its pieces and beside its name)


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
class Happened:
    """One step of what just happened (a change's own steps): who took it, how
    (``"player"``, ``"ai"``, ``"auto"``: a forced single choice) and its public
    lines, each with the actor it names that is not a seat (an enemy, a unit), if any."""

    seat: str | None
    by: str
    lines: list[tuple[str | None, str]]


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
    prompt: str | None = None  # what the viewer's own seat is asked (its full wording), when it is to act
    choices: list[Choice] = field(default_factory=list)  # offered to the viewer's seat
    #: the one human seat that alone is to act in the open (its choices sit on the public board)
    open_seat: str | None = None
    open_choices: list[Choice] = field(default_factory=list)  # its choices, as everyone sees them
    marks: dict[str, int] = field(default_factory=dict)  # numbered places on the image
    banks: list[Bank] = field(default_factory=list)
    outcome: str | None = None
    winners: list[str] = field(default_factory=list)
    winner_seats: list[str] = field(default_factory=list)
    secret_orders: bool = False  # simultaneous secret orders: who is still choosing is all anyone sees
    private_view: bool = False  # the game hides something per seat (a hand): each has a view of its own
    ai_levels: bool = False  # AI seats are named with their level
    happened: list[Happened] = field(default_factory=list)  # what just happened (a change's steps)
    log: list[LogLine] = field(default_factory=list)
    last: list[LogLine] = field(default_factory=list)  # what just happened (the latest entries)
    positions: int = 0  # steps of the table's log the viewer may know of (the replay's last position)
    #: what the viewer sees, as a token (the version of an open game; of a secret-orders game a
    #: digest of the viewer's view, which others' private steps do not change: tables/seeing/secrecy.py)
    seen: str = ""
    text_px: int = MIN_TEXT_PX  # the image's smallest text, in its pixels (a phone starts it readable)
    updated_at: float = 0.0
    #: the board image (PNG) as this viewer sees it; drawn when first awaited;
    #: ``image(marked=False)``: without the numbered marks of the offered choices
    image: Callable[..., Awaitable[bytes]] | None = field(default=None, repr=False, compare=False)
    #: the image in words, from the view it draws (tables/seeing/describe.py): ``describe()`` the
    #: description (≤ 1,024 characters), ``describe(full=True, limit=None)`` the text board
    describe: Callable[..., str] | None = field(default=None, repr=False, compare=False)

    def label(self, seat: str) -> str:
        return next((p.name for p in self.players if p.seat == seat), seat)

    def player(self, seat: str) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)


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
            square=palette[i][1],
            symbol=labels[s.seat].symbol or seat_symbol(i) if s.seat in labels else seat_symbol(i),
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


#: what just happened, as a change gives it: (seat or None, its events, "player" | "ai" | "auto")
Steps = Sequence[tuple[str | None, Sequence[Event], str]]


async def board(
    reads: Reads,
    table: GameRow | int,
    viewer: int | None,
    locale: str,
    *,
    names: NameSource | None = None,
    labels: Mapping[str, SeatLabel] | None = None,
    log_entries: int = LOG_ENTRIES,
    state: tuple[Game, BaseState] | None = None,
    steps: Steps = (),
    escape: bool = False,
    live: bool = True,
) -> Board:
    """What ``viewer`` (a member id, or None for anyone) sees of ``table`` now.

    The Discord messages and the web pages are built from this alone.
    ``labels``: the seats' labels already known (else from ``names``);
    ``state``: the table's (game, state) already loaded, or a past one (a replay);
    ``steps``: what just happened (a change's steps: :attr:`Board.happened`);
    ``escape``: texts for a markdown message (names escaped); ``live=False``: a
    board that offers nothing (a replay, a finished table's last board).
    ``reads``: the rooms it reads (:class:`tables.seeing.reads.Reads`, from the table
    service's :meth:`~tables.TableService.board`), never the facade.
    Raises :class:`tables.TurnRefused` for a missing or unreadable table."""
    row = table if isinstance(table, GameRow) else await reads.kernel.row(table)
    if row is None or row.status == "quarantined":
        raise TurnRefused("no_game", "core.ui.no_game")
    if labels is None:
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
    if state is None and (row.status == "lobby" or row.state_json is None):
        return out
    game, st = state if state is not None else await reads.kernel.open_state(row)
    out.secret_orders = bool(game.private_actions)
    out.private_view = bool(game.private_view)
    out.ai_levels = len(game.ai_levels) > 1
    outcome = game.outcome(st)
    to_act = [] if outcome is not None or row.status != "active" else game.to_act(st)
    out.to_act = to_act
    out.players = _players(row, labels, to_act, viewer_seat)
    for p in out.players:
        if p.waiting:
            p.prompt = public_prompt(game, st, p.seat, locale, labels, escape=escape)
    out.summary = msg_text(game.summary(st), locale, labels, escape=escape)
    if outcome is not None:
        out.outcome = outcome_text(outcome, locale, labels, escape=escape)
        out.winner_seats = list(outcome.winners)
        out.winners = [labels[s].name if s in labels else s for s in outcome.winners]
    if viewer_seat is not None and game.private_view:
        hand = game.private_summary(st, viewer_seat)
        out.private = msg_text(hand, locale, labels, escape=escape) if hand is not None else None
    if viewer_seat is not None and game.private_actions and to_act and viewer_seat not in to_act:
        out.orders_locked = True  # secret orders given; the log below shows this seat its own
    # the choices: the viewer's own when their seat is to act; the public board's (its marks) too
    marks: dict[str, int] = {}
    if live and viewer_seat is not None and viewer_seat in to_act:
        out.prompt = msg_text(game.prompt(st, viewer_seat), locale, labels, escape=escape)
        out.choices, marks = await _offered(reads.views, row, game, st, viewer_seat, locale, labels)
    if live and row.status == "active" and (seat := board_seat(row, game, st)) is not None:
        out.open_seat = seat
        if seat == viewer_seat:
            out.open_choices = list(out.choices)
        else:
            out.open_choices, open_marks = await _offered(reads.views, row, game, st, seat, locale, labels)
            marks = marks or open_marks
    out.marks = dict(marks)
    if row.status == "active":
        out.banks = [
            Bank(seat, waiting, value, away) for seat, _uid, value, waiting, away in await reads.views.bank_lines(row)
        ]
    out.happened = happenings(game, steps, locale, labels, escape=escape)
    out.seen = str(row.version)
    if game.private_actions:  # never the version, which counts every crew's private steps
        out.seen = view_key(game, st, viewer_seat, row.status, sorted((k, v.name) for k, v in labels.items()))
    if log_entries > 0:
        total, window = await log_window(reads.history, game, row.id, viewer_seat, log_entries)
        out.positions = total
        if total:
            for n, a in window:
                visible = game.visible_events(game.load_events(a.events), viewer_seat)
                texts = [event_text(game, e, locale, labels, escape=escape) for e in visible]
                text = " · ".join(x for x in texts if x)
                secret = any(e.to is not None for e in visible)
                who = labels[a.seat].name if a.seat in labels else a.seat
                out.log.append(LogLine(n, who, text, a.created_at, secret))
            steps_shown = [a for _, a in window]
            await logtext.say_quiet(reads, row, game, out.log, steps_shown, viewer_seat, locale, labels, escape=escape)
            out.last = [line for line in out.log if line.at >= (out.log[-1].at - 1.0)][-5:] if out.log else []
    image_seat = viewer_seat  # a seat sees its own view (its hand); anyone else the public one
    image_labels = dict(labels)

    async def image(marked: bool = True) -> bytes:
        return await reads.views.render(game, st, image_seat, locale, image_labels, marks if marked else None)

    out.image = image
    out.describe = describer(out, lambda: game.view(st, image_seat, image_labels))
    return out


async def _offered(
    views: Views,
    row: GameRow,
    game: Game,
    state: BaseState,
    seat: str,
    locale: str,
    labels: Mapping[str, SeatLabel],
) -> tuple[list[Choice], dict[str, int]]:
    offered, marks = await views.board_offer(row, game, state, seat, locale, dict(labels))
    numbers, _ = await views.numbered(row, game, state, seat)
    return [Choice(i, label, group, numbers[i] if i < len(numbers) else None) for i, label, group in offered], marks


def happenings(
    game: Game, steps: Steps, locale: str, labels: Mapping[str, SeatLabel], *, escape: bool = False
) -> list[Happened]:
    """What just happened (``steps``), as anyone may read it: public events only."""
    out = []
    for seat, events, by in steps:
        lines = []
        for e in game.visible_events(list(events), None):
            text = event_text(game, e, locale, labels, escape=escape)
            if text:
                lines.append((_actor(e), text))
        out.append(Happened(seat, by, lines))
    return out


#: event fields naming who did something that is not a seat (an enemy, a unit): such an
#: actor gets a line of its own under the seat whose step set it going
ACTOR_FIELDS = ("actor", "enemy", "unit")


def _actor(event: Event) -> str | None:
    for name in ACTOR_FIELDS:
        value = getattr(event, name, None)
        if isinstance(value, str) and value:
            return value
    return None


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
    key: str = ""  # the anchor as a page may show it (of a secret-orders game: a digest of the frame)
    describe: Callable[[], str] | None = field(default=None, repr=False, compare=False)  # the image in words


async def frame(reads: Reads, row: GameRow, position: int, locale: str, *, names: NameSource | None = None) -> Frame:
    """The public board after ``position`` steps of the table's public replay (clamped;
    a secret-orders game's private steps are not in it: tables/seeing/secrecy.py)."""
    n, total, raw, a = await public_position(reads.history, row, position)
    game, state, _, _ = await reads.history.replay_state(row, raw)
    labels = seat_labels(row, await names_of(row, names), locale)
    line = None
    anchor = a.id if a is not None else 0
    if a is not None:
        texts = [event_text(game, e, locale, labels) for e in game.visible_events(game.load_events(a.events), None)]
        line = LogLine(n, labels[a.seat].name if a.seat in labels else a.seat, " · ".join(texts), a.created_at)
        await logtext.say_quiet(reads, row, game, [line], [a], None, locale, labels)
    key = str(anchor)
    if game.private_actions:  # an action's id would tell how many steps came between two frames
        key = view_key(game, state, None, n, sorted((k, v.name) for k, v in labels.items()))

    async def image() -> bytes:
        return await reads.views.render(game, state, None, locale, labels)

    f = Frame(n, total, msg_text(game.summary(state), locale, labels), line, anchor, image, key)
    f.describe = frame_describer(row, f, lambda: game.view(state, None, labels), locale)
    return f


# ------------------------------------------------------------ who may look
async def public(reads: Reads, row: GameRow) -> bool:
    """Whether a table may be shown to anyone who has its link: not a broken row, not
    closed to followers, and its server has not turned the web companion off."""
    if row.status == "quarantined":
        return False
    settings = await reads.kernel.settings.server_settings(row.guild_id)
    if settings.get("web") is False:
        return False
    return not await reads.kernel.backend.followers_closed(row.id)


def export(b: Board) -> dict[str, Any]:
    """A board as plain data (JSON for the page's live updates); no image."""
    from dataclasses import asdict

    data = asdict(b)
    data.pop("image", None)
    data.pop("describe", None)
    return data


def web_link(base_url: str | None, game_id: int) -> str | None:
    """The table's page on the web companion, when it has a public URL (``TG_WEB_URL``)."""
    return f"{base_url.rstrip('/')}/t/{game_id}" if base_url else None

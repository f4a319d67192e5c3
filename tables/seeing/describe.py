"""Words for every image the bot shows (Discord-free): the description a screen reader
reads (a Discord attachment's ``description``, the companion's ``alt``) and the text board.

One builder for Discord and the web alike, from the same view that drew the image:

* a board (:func:`board_parts`, through :attr:`tables.seeing.board.Board.describe`): whose
  turn it is and what they are asked, the result, what just happened, the table's summary,
  the viewer's own hidden information when the image is their own view, then the game's
  own lines, read from the very view the renderer draws (public for the public board, the
  seat's own for its private panel): nothing another seat hides can be named;
* a game's own lines (:func:`view_lines`): its presentation hook, ``describe(view, locale)
  -> list[str]`` beside ``draw`` in its renderer module, else a default read from the typed
  view's fields (a fifth game is described without a platform edit);
* a table of rows drawn as an image (leaderboards, stats, league standings):
  :func:`describe_table`, from the same headers and rows.

Every description fits Discord's limit (:data:`LIMIT`) by priority (:func:`fit`): what a
player needs first stays, the rest is dropped whole, and a text cut short ends at a word
with "…" (never mid-word, never a lone "…").
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine.base import View
from engine.i18n import has, t
from tables.rules.text import MARKDOWN, ZWSP
from tables.rules.text import escape as _escape

if TYPE_CHECKING:
    from store import GameRow

#: a board (:class:`tables.seeing.board.Board`) and a replay frame (``Frame``): read by their
#: fields here; not imported (tables/seeing/board.py builds them with this module's describers)
Board = Any
Frame = Any

#: Discord's limit on an attachment's description (characters)
LIMIT = DESCRIPTION_LIMIT = 1024
#: what a cut text ends with (attached to its last word)
MORE = "…"
#: the least room worth cutting a text into (less: the text is left out whole)
MIN_CUT = 24

#: (priority, text): 0 is what a player needs first
Part = tuple[int, str]

_BASE_FIELDS = frozenset(View.model_fields)
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters: whole, or cut after a word (a space, or
    between two characters of a language written without spaces) with "…" attached."""
    if len(text) <= room:
        return text
    if room < len(MORE) + 1:
        return ""
    head = text[: room - len(MORE) + 1]
    stop = len(head) - 1
    while stop > 0:
        a, b = head[stop - 1], head[stop]
        if b.isspace() or (_CJK.match(a) and _CJK.match(b)) or (_CJK.match(a) and not a.isalnum()):
            break
        stop -= 1
    kept = head[:stop].rstrip(" \t\n,;:·—-")
    if not kept or not any(c.isalnum() for c in kept):
        return ""
    return kept + MORE


def fit(parts: Iterable[Part], limit: int | None = LIMIT, sep: str = "\n") -> str:
    """The parts in their order, within ``limit`` characters (None: all): the most needed
    first (lowest priority number; ties by order); a part that no longer fits is cut at a
    word when enough room is left, else left out whole."""
    items = [(p, i, " ".join(text.split()) if sep == " " else text.strip()) for i, (p, text) in enumerate(parts)]
    items = [x for x in items if x[2]]
    if limit is None:
        return sep.join(text for _, _, text in items)
    kept: dict[int, str] = {}
    used = 0
    for _, i, text in sorted(items):
        room = limit - used - (len(sep) if kept else 0)
        if len(text) <= room:
            kept[i] = text
        elif room >= MIN_CUT or not kept:
            short = cut(text, room)
            if not short:
                continue
            kept[i] = short
        else:
            continue
        used = len(sep.join(kept.values()))
    return sep.join(kept[i] for i in sorted(kept))


def _line(key: str, locale: str, **params: Any) -> str:
    return t(f"describe.{key}", locale, **params)


# ------------------------------------------------------------ a game's own lines
def view_lines(game_id: str, view: Any, locale: str) -> list[str]:
    """The game's own lines about ``view`` (the view its renderer draws): its presentation
    hook ``describe(view, locale)`` in its renderer module, else :func:`default_lines`."""
    from render import renderer_module

    try:
        module = importlib.import_module(renderer_module(game_id))
    except Exception:  # noqa: BLE001 -- no renderer: the default words
        module = None
    hook = getattr(module, "describe", None)
    if callable(hook):
        try:
            return [str(x) for x in hook(view, locale) if x]
        except Exception:  # noqa: BLE001 -- a broken hook never costs the post: the default words
            pass
    return default_lines(game_id, view, locale)


def default_lines(game_id: str, view: Any, locale: str) -> list[str]:
    """A view described from its own fields: each short value the view carries (a number,
    a word, one per seat), named by the game's catalog (``<game>.describe.field.<name>``,
    else the field's name).  Nested parts are left to the game's hook."""
    if not isinstance(view, View):
        return []
    out = []
    for name in type(view).model_fields:
        if name in _BASE_FIELDS:
            continue
        value = getattr(view, name, None)
        said = _value(value, view)
        if said is None or said == "":
            continue
        key = f"{game_id}.describe.field.{name}"
        label = t(key, locale) if has(key) else name.replace("_", " ")
        out.append(_line("field", locale, name=label, value=said))
    return out


def _value(value: Any, view: View) -> str | None:
    if isinstance(value, bool):
        return None  # a flag says nothing without its game's words
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return view.label(value) if value in view.seats else (value if len(value) <= 40 else None)
    if isinstance(value, (list, tuple)) and value and all(isinstance(x, (int, str)) for x in value):
        return ", ".join(view.label(x) if x in view.seats else str(x) for x in value[:12])
    if isinstance(value, dict) and value and all(k in view.seats for k in value):
        pairs = [(k, v) for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return ", ".join(f"{view.label(k)} {v}" for k, v in pairs) or None
    return None


# ------------------------------------------------------------ a board
def unmarked(text: str) -> str:
    """A text written for a markdown message (names escaped: :func:`tables.rules.text.escape`)
    as plain words: a screen reader reads no backslash."""
    return _UNESCAPE.sub(r"\1", text).replace(ZWSP, "")


_UNESCAPE = re.compile("\\\\([" + re.escape("".join(sorted(set(MARKDOWN) | {"@"}))) + "])")


def board_parts(b: Board, view: Any | None, *, full: bool = False, markdown: bool = False) -> list[Part]:
    """What a board's image shows, in words, by priority (``view``: the view drawn;
    ``markdown``: for a message, the players' names escaped like the board's texts)."""
    loc = b.locale

    def named(name: str) -> str:
        return _escape(name) if markdown else name

    parts: list[Part] = []
    head = b.title
    own = b.player(b.viewer_seat) if b.viewer_seat else None
    if own is not None and view is not None and getattr(view, "viewer", None) == b.viewer_seat:
        head = _line("own_view", loc, title=b.title, seat=named(own.name))
    parts.append((0, _sentence(head, loc)))
    if b.outcome is not None:
        parts.append((0, _sentence(_line("over", loc, outcome=b.outcome), loc)))
        if b.winners and not all(w in b.outcome for w in b.winners):  # (the outcome may name them already)
            parts.append((0, _line("winners", loc, who=tuple(named(w) for w in b.winners))))
    elif b.status == "abandoned":
        parts.append((0, _line("abandoned", loc)))
    elif b.status == "lobby":
        parts.append((0, _line("lobby", loc)))
    if b.to_act and b.outcome is None:
        if b.secret_orders:
            choosing = [named(p.name) for p in b.players if p.waiting]
            done = [named(p.name) for p in b.players if not p.waiting and not p.ai]
            parts.append((0, _line("choosing", loc, who=tuple(choosing))))
            if done:
                parts.append((1, _line("locked_in", loc, who=tuple(done))))
        else:
            for p in b.players:
                if p.waiting:
                    ask = b.prompt if p.you and b.prompt else p.prompt
                    parts.append((0, _sentence(_line("turn", loc, who=named(p.name), what=ask or ""), loc)))
    if b.summary:
        parts.append((1, _sentence(b.summary, loc)))
    if b.private is not None:
        parts.append((1, _sentence(_line("yours", loc, what=b.private), loc)))
    if b.orders_locked:
        parts.append((1, _line("your_orders", loc)))
    happened = _happened(b, named)
    if happened:
        parts.append((2, _sentence(_line("happened", loc, what=happened), loc)))
    if view is not None:
        for i, line in enumerate(view_lines(b.game, view, loc)):
            parts.append((3 if i < 2 else 4, line))
    choices = b.choices or b.open_choices
    numbered: dict[int, str] = {}  # each number on the image once: where it is and what it does there
    for c in choices:
        if c.number is not None and c.number not in numbered:
            numbered[c.number] = f"{c.number} {c.label.removeprefix(f'{c.number} · ').split(' · ')[0]}"
    if numbered:
        parts.append((5, _line("marks", loc, marks="; ".join(numbered.values()))))
    if full and b.choices:
        parts.append((5, _line("choices", loc, choices="; ".join(c.label for c in b.choices))))
    elif full and b.open_choices and b.open_seat:
        who = named(b.label(b.open_seat))
        parts.append((5, _line("their_choices", loc, who=who, choices="; ".join(c.label for c in b.open_choices))))
    players = [named(p.name) + (f" ({_line('ai', loc)})" if p.ai else "") for p in b.players]
    parts.append((6, _line("players", loc, who=tuple(players))))
    if full and b.log:
        lines = [f"{x.position}. {named(x.seat)}: {x.text}" for x in b.log[-10:] if x.text]
        if lines:
            parts.append((7, _line("log", loc) + "\n" + "\n".join(lines)))
    return parts


#: what just happened, at most (the latest steps kept: the rest is in the log)
HAPPENED_CHARS = 360


def _happened(b: Board, named: Callable[[str], str]) -> str:
    """The latest of what just happened, step by step, within :data:`HAPPENED_CHARS`."""
    said: list[tuple[str, str]] = []  # (who, what), oldest first
    for h in b.happened:
        who = named(b.label(h.seat)) if h.seat else ""
        said += [(who, text) for _, text in h.lines if text]
    if not said and b.last:
        said = [(named(x.seat), x.text) for x in b.last[-3:] if x.text]
    kept: list[tuple[str, str]] = []
    room = HAPPENED_CHARS
    for who, what in reversed(said):
        if len(what) + 3 > room:
            if not kept:  # the latest alone is long: its start, cut at a word
                kept.append((who, cut(what, room)))
            break
        kept.append((who, what))
        room -= len(what) + 3
    steps: list[str] = []
    last_who = None
    for who, what in reversed(kept):
        if who != last_who or not steps:
            steps.append((f"{who}: " if who else "") + what)
        else:
            steps[-1] += " · " + what
        last_who = who
    text = " / ".join(steps)
    return (MORE + text) if text and len(kept) < len(said) else text


def _sentence(text: str, locale: str) -> str:
    """``text`` ending as a sentence (a line read aloud runs on into the next otherwise)."""
    return text if not text or not text[-1].isalnum() else text + t("describe.stop", locale)


def describe_board(
    b: Board, view: Any | None, *, full: bool = False, limit: int | None = LIMIT, markdown: bool = False
) -> str:
    """A board's description (``full``: the text board, with its choices and latest log;
    ``markdown``: for a message's text, names escaped; else plain words, as a screen reader
    reads an image's description)."""
    said = fit(board_parts(b, view, full=full, markdown=markdown), limit)
    return said if markdown else fit([(0, unmarked(said))], limit)


def describer(b: Board, view_of: Callable[[], Any]) -> Callable[..., str]:
    """``b.describe``: the board's words, from the view its image draws (``view_of()``,
    made once, when first asked)."""
    made: list[Any] = []

    def describe(full: bool = False, limit: int | None = LIMIT, markdown: bool = False) -> str:
        if not made:
            try:
                made.append(view_of())
            except Exception:  # noqa: BLE001 -- the board's own words still say the table
                made.append(None)
        return describe_board(b, made[0], full=full, limit=limit, markdown=markdown)

    return describe


def frame_describer(row: GameRow, f: Frame, view_of: Callable[[], Any], locale: str) -> Callable[[], str]:
    """``f.describe``: a replay frame in words (the public view it draws)."""

    def describe() -> str:
        name = t(f"{row.game}.name", locale) if has(f"{row.game}.name") else row.game
        title = t("core.ui.board_title", locale, game=name, id=row.id)
        head = _line("replay_frame", locale, title=title, position=f.position, total=f.total)
        parts: list[Part] = [(0, _sentence(head, locale))]
        if f.line is not None and f.line.text:
            parts.append((1, _sentence(_line("happened", locale, what=f"{f.line.seat}: {f.line.text}"), locale)))
        parts.append((1, _sentence(f.summary, locale)))
        try:
            lines = view_lines(row.game, view_of(), locale)
        except Exception:  # noqa: BLE001
            lines = []
        parts += [(3 if i < 2 else 4, line) for i, line in enumerate(lines)]
        return fit(parts)

    return describe


# ------------------------------------------------------------ images of rows
def describe_table(
    title: str, headers: Sequence[str], rows: Iterable[Sequence[object]], locale: str, *, note: str = ""
) -> str:
    """A table of rows drawn as an image (a leaderboard, stats, standings): its title,
    then each row as "header value" pairs, the top rows first, within :data:`LIMIT`."""
    parts: list[Part] = [(0, title)]
    if note:
        parts.append((2, note))
    rows = list(rows)
    if not rows:
        parts.append((0, _line("no_rows", locale)))
    for i, r in enumerate(rows):
        cells = [f"{h} {c}".strip() for h, c in zip(headers, r, strict=False) if str(c).strip()]
        parts.append((1 + i, ", ".join(cells)))
    return fit(parts)


def describe_view(game_id: str, view: Any, locale: str, title: str) -> str:
    """An image of a game's view a command drew (``/auto hand``): its title and the game's lines."""
    return fit([(0, title)] + [(1, line) for line in view_lines(game_id, view, locale)])


def is_described(description: object) -> bool:
    """Whether a posted attachment's description says something (a benchmark's count):
    a non-empty text within Discord's limit."""
    return isinstance(description, str) and bool(description.strip()) and len(description) <= LIMIT

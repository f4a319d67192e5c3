"""Parsing what members type or send: game choices, ``key=value`` options,
``/play`` chain values, ids carried by components.

Everything here treats its input as hostile: Discord lets a client send any
text for a string option, any value for a "choice" and any custom_id, so each
parser bounds sizes and nesting and raises :class:`~tables.TurnRefused` (or
:class:`~engine.GameError` for options) naming what was wrong and what is
valid, in catalog keys the cog renders in the reader's language.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from pydantic import ValidationError

from cogs.kit import ids
from cogs.kit.components import Routes
from cogs.kit.locale import ls
from cogs.kit.options_text import options_help
from engine import GameError, available, get_game
from engine.i18n import t
from engine.locales import DEFAULT
from tables import TurnRefused, game_name, quote

#: largest id a table, vote or campaign can have (the stores keep 64-bit integers)
MAX_ID = 2**63 - 1
MAX_OPTIONS_CHARS = 1000
MAX_OPTIONS = 20
MAX_DEPTH = 4  # nesting of [ ] and { } in one option value
MAX_CHAIN = 64  # decisions in one /play value
MAX_INDEX = 10**6
ECHO_CHARS = 60


def echo(value: Any) -> str:
    """A member's value, safe to quote in a message: clipped, in backticks,
    without lone surrogates, never read as a catalog key (``@...``)."""
    return quote(value, ECHO_CHARS)


def parse_points(text: str | None) -> list[int]:
    parts = [p for p in (text or "10,6,3,1").replace(" ", ",").split(",") if p]
    points = [int(p) for p in parts]  # ValueError on junk
    if not points or len(points) > 10 or any(p < 0 or p > 1000 for p in points):
        raise ValueError("points")
    return points


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games as command choices.  Each cog module calls it when
    it is loaded (discord.py executes an extension afresh at every load), so a
    game registered at run time is offered by the next bot that starts."""
    return [app_commands.Choice(name=ls(game_name(gid, DEFAULT), f"{gid}.name"), value=gid) for gid in available()]


def check_game(value: Any) -> str:
    """``value`` when it is a registered game id; else a refusal listing the games."""
    if isinstance(value, str) and value in available():
        return value
    raise TurnRefused("unknown_game", "discord.forged.game", value=echo(value), games=", ".join(available()))


def check_choice(value: Any, allowed: typing.Sequence[str]) -> str:
    """``value`` when it is one of ``allowed`` (a choice the command offers)."""
    if isinstance(value, str) and value in allowed:
        return value
    raise TurnRefused("bad_choice", "discord.forged.choice", value=echo(value), valid=", ".join(allowed))


def check_id(value: Any) -> int | None:
    """A table/vote id from a component or an option: None when no row can have it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value


def known_component(interaction: discord.Interaction, routes: Routes) -> bool:
    """Whether a component interaction reaches one of our handlers: a live
    ordinary view of the bot answers its custom_id, or the codec (cogs/kit/ids.py)
    reads it (a DynamicItem of cogs/kit/components.py) and the clicked message
    carries that component (discord.py drops it otherwise)."""
    data = interaction.data
    message = interaction.message
    if not isinstance(data, dict) or message is None:
        return False
    cid, ctype = data.get("custom_id"), data.get("component_type")
    if not isinstance(cid, str):
        return False
    if routes.live_view_handles(cid):
        return True  # that view answers it
    if ids.decode(cid) is None:
        return False
    try:
        view_cls = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
        view = view_cls.from_message(message, timeout=None)
        return any(getattr(i, "custom_id", None) == cid and i.type.value == ctype for i in view.walk_children())
    except Exception:  # noqa: BLE001 -- a message discord.py cannot rebuild reaches no handler either
        return False


def _strings(options: Any) -> typing.Iterator[str]:
    for opt in options or []:
        if isinstance(opt, dict):
            if isinstance(opt.get("value"), str):
                yield opt["value"]
            yield from _strings(opt.get("options"))


def unreadable_text(interaction: discord.Interaction) -> bool:
    """Whether a command carries text no member can type: a lone surrogate
    (valid JSON, but no Unicode text; the store and Discord refuse it)."""
    data: Any = interaction.data or {}
    return any(any(0xD800 <= ord(c) <= 0xDFFF for c in s) for s in _strings(data.get("options")))


# ---------------------------------------------------------------- options
def _scan(text: str) -> Iterator[tuple[str, int, bool]]:
    """Each character with the nesting of [ ] and { } after it (never below 0)
    and whether it is structural: outside JSON strings and not a quote."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        structural = False
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        else:
            structural = True
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth = max(0, depth - 1)
        yield ch, depth, structural


def _depth(text: str) -> int:
    """Deepest nesting of [ ] and { } outside JSON strings (no recursion)."""
    return max((depth for _, depth, _ in _scan(text)), default=0)


def _parts(text: str) -> list[str]:
    """``key=value`` parts, separated by spaces or commas outside brackets and
    JSON strings (so ``vehicles=["kv2", "t34_85"]`` stays one part)."""
    parts: list[str] = []
    current: list[str] = []
    for ch, depth, structural in _scan(text):
        if structural and depth == 0 and (ch == "," or ch.isspace()):
            if current:
                parts.append("".join(current))
                current = []
            continue
        current.append(ch)
    if current:
        parts.append("".join(current))
    return parts


def parse_options(text: str | None) -> dict[str, Any]:
    """``key=value key2=value2`` (values parsed as JSON where they can be).
    Bounded: at most :data:`MAX_OPTIONS_CHARS` characters, :data:`MAX_OPTIONS`
    keys and :data:`MAX_DEPTH` levels of nesting in a value."""
    text = text or ""
    if len(text) > MAX_OPTIONS_CHARS:
        raise GameError("bad_options", "discord.options.too_long", n=MAX_OPTIONS_CHARS)
    out: dict[str, Any] = {}
    for part in _parts(text):
        if "=" not in part:
            raise GameError("bad_options", "discord.options.syntax", part=echo(part))
        key, _, value = part.partition("=")
        key = key.strip()
        if not key:
            raise GameError("bad_options", "discord.options.syntax", part=echo(part))
        if _depth(value) > MAX_DEPTH:
            raise GameError("bad_options", "discord.options.too_deep", option=echo(key), depth=MAX_DEPTH)
        try:
            out[key] = json.loads(value)
        except (ValueError, RecursionError):
            out[key] = value
        if len(out) > MAX_OPTIONS:
            raise GameError("bad_options", "discord.options.too_many", n=MAX_OPTIONS)
    return out


def options_error(game_id: str, options: dict[str, Any], exc: GameError, locale: str) -> str:
    """Why ``options`` were refused, then the valid keys and values, in ``locale``."""
    if exc.code != "bad_options":  # not about the options (e.g. an AI level): no list of them
        return exc.message(locale)
    if exc.key != "core.error.bad_options" or game_id not in available():
        first = exc.message(locale)
    else:
        first = _diagnose(game_id, options, locale) or exc.message(locale)
    if game_id not in available():
        return first
    return f"{first}\n{options_help(get_game(game_id), locale)}"


def _diagnose(game_id: str, options: dict[str, Any], locale: str) -> str | None:
    """The first key or value the game's Options refuse, named in ``locale``."""
    model = get_game(game_id).Options
    for key, value in options.items():
        if key not in model.model_fields:
            return t("discord.options.unknown_key", locale, game=game_name(game_id, locale), option=echo(key))
        try:
            model.model_validate({key: value})
        except ValidationError:
            return t("discord.options.bad_value", locale, option=echo(key), value=echo(json.dumps(value)))
        except RecursionError:
            return t("discord.options.too_deep", locale, option=echo(key), depth=MAX_DEPTH)
    return None


# ------------------------------------------------------------------ /play
_CHAIN = re.compile(r"^\s*(\d{1,20}):(\d{1,20}):([\d.]{0,1000})\s*(.*)$", re.S)


def parse_chain(text: str) -> tuple[int, int, list[int], str] | None:
    """``"<table>:<version>:<i>.<j>..."`` (plus any text typed after it);
    None when it is not one (or beyond any real table, version or index)."""
    m = _CHAIN.match(text or "")
    if not m:
        return None
    try:
        chain = [int(x) for x in m[3].split(".") if x]
    except ValueError:
        return None
    gid, version = int(m[1]), int(m[2])
    if check_id(gid) is None or version > MAX_ID or len(chain) > MAX_CHAIN or any(i >= MAX_INDEX for i in chain):
        return None
    return gid, version, chain, m[4]


def chain_value(gid: int, version: int, chain: list[int]) -> str:
    return f"{gid}:{version}:{'.'.join(map(str, chain))}"

"""Parsing what members type: game choices, ``key=value`` options, ``/play`` chain values."""

from __future__ import annotations

import json
import re
from typing import Any

from discord import app_commands

from engine import GameError, available
from engine.i18n import t

from .locale import ls


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games as command choices.  Each cog module calls it when
    it is loaded (discord.py executes an extension afresh at every load), so a
    game registered at run time is offered by the next bot that starts."""
    return [
        app_commands.Choice(name=ls(t(f"discord.game.{gid}", "en"), f"discord.game.{gid}"), value=gid)
        for gid in available()
    ]


def parse_options(text: str | None) -> dict[str, Any]:
    """``key=value key2=value2`` (values parsed as JSON where they can be)."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        if "=" not in part:
            raise GameError("bad_options", "core.error.bad_options", detail=part)
        key, _, value = part.partition("=")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out


_CHAIN = re.compile(r"^\s*(\d+):(\d+):([\d.]*)\s*(.*)$", re.S)


def parse_chain(text: str) -> tuple[int, int, list[int], str] | None:
    """``"<table>:<version>:<i>.<j>..."`` (plus any text typed after it)."""
    m = _CHAIN.match(text or "")
    if not m:
        return None
    try:
        chain = [int(x) for x in m[3].split(".") if x]
    except ValueError:
        return None
    return int(m[1]), int(m[2]), chain, m[4]


def chain_value(gid: int, version: int, chain: list[int]) -> str:
    return f"{gid}:{version}:{'.'.join(map(str, chain))}"

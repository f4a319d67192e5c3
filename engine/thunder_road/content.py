"""Static content from data/thunder_road/*.json (read once, cached) and hex geometry."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "thunder_road"


@cache
def load(name: str) -> Any:
    with (DATA / f"{name}.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def board() -> dict[str, Any]:
    return load("board")


def faces() -> dict[str, Any]:
    return load("tiles")["faces"]


def dice() -> dict[str, Any]:
    return load("dice")


def tokens() -> dict[str, Any]:
    return load("tokens")


def crews() -> dict[str, Any]:
    return load("crews")


W: int = board()["columns"]
ROWS: int = board()["rows_per_tile"]
TH: int = 2 * ROWS  # tile height in doubled rows
H: int = board()["tiles_on_table"] * TH

# Doubled coordinates: hex (c, y) with c + y even; y grows towards the front.
DIRS: dict[str, tuple[int, int]] = {
    "n": (0, 2),
    "ne": (1, 1),
    "se": (1, -1),
    "s": (0, -2),
    "sw": (-1, -1),
    "nw": (-1, 1),
}
FRONT = ("nw", "n", "ne")


def add(p: list[int] | tuple[int, int], d: str, k: int = 1) -> list[int]:
    dc, dy = DIRS[d]
    return [p[0] + dc * k, p[1] + dy * k]


def key(p: list[int] | tuple[int, int]) -> str:
    return f"{p[0]},{p[1]}"


def unkey(k: str) -> list[int]:
    a, b = k.split(",")
    return [int(a), int(b)]


def on_board(p: list[int]) -> bool:
    return 0 <= p[0] < W and 0 <= p[1] < H


def hex_of(row: int, col: int) -> list[int]:
    """Global offset row (0 = back edge of the rear tile) and column -> doubled coords."""
    return [col, 2 * row + (col % 2)]


def row_of(p: list[int] | tuple[int, int]) -> int:
    return (p[1] - (p[0] % 2)) // 2


LANES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def lane_name(col: int) -> str:
    """A column's name on the board image and the buttons: lanes A, B, ... across the road."""
    return LANES[col] if 0 <= col < len(LANES) else str(col + 1)


def space_name(p: list[int] | tuple[int, int]) -> str:
    """A space's name, as the board image prints it: its lane letter and its row
    number counted from the back edge of the rear tile ("C12")."""
    return f"{lane_name(p[0])}{row_of(p) + 1}"


@cache
def face_char(face: str, local_row: int, col: int) -> str:
    return faces()[face]["rows"][local_row][col]


@lru_cache(maxsize=256)
def grid(tiles: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """grid[c][y] = terrain character of the table made of ``tiles`` (rear first)."""
    cols = []
    for c in range(W):
        col = []
        for y in range(TH * len(tiles)):
            tile = y // TH
            if (c + y) % 2:
                col.append("")
                continue
            local = (y - tile * TH - (c % 2)) // 2
            col.append(face_char(tiles[tile], local, c))
        cols.append(tuple(col))
    return tuple(cols)


_LAST: list[Any] = [None, None]


def base_char(tiles: list[str], p: list[int]) -> str:
    if tiles != _LAST[0]:
        _LAST[0] = list(tiles)
        _LAST[1] = grid(tuple(tiles))
    return _LAST[1][p[0]][p[1]]


@lru_cache(maxsize=64)
def drivable(tiles: tuple[str, ...]) -> tuple[tuple[str, tuple[int, int]], ...]:
    """(key, hex) of every space of the table made of ``tiles`` that is not impassable, row by row."""
    g = grid(tiles)
    out = []
    for r in range(H // 2):
        for c in range(W):
            p = hex_of(r, c)
            if g[c][p[1]] != "X":
                out.append((key(p), (p[0], p[1])))
    return tuple(out)


def is_hazard_char(ch: str) -> bool:
    return ch == "H" or ch.isdigit()


def flip(face: str) -> str:
    return face[:-1] + ("b" if face.endswith("a") else "a")


def all_hexes() -> list[list[int]]:
    out = []
    for r in range(H // 2):
        for c in range(W):
            out.append(hex_of(r, c))
    return out

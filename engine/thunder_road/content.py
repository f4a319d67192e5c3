"""Static content from data/thunder_road/*.json (read once and validated by
engine.content.load_json) and hex geometry."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any, Literal, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from ..content import load_json

#: every file's shape: checked key by key (no unknown keys) when it is first read
Forbid = ConfigDict(extra="forbid")
Dir = Literal["n", "ne", "se", "s", "sw", "nw"]


@with_config(Forbid)
class Board(TypedDict):
    columns: int
    rows_per_tile: int
    tiles_on_table: int
    wreck_figures: int
    turns_per_round: int
    movement_dice: int
    coasts_per_car: int
    two_player_final_tile: int
    crew_colours: list[str]
    colours: dict[str, str]


@with_config(Forbid)
class Vehicle(TypedDict):
    name: str
    kind: Literal["car", "rig", "bike"]
    size: str
    shoot_size: str
    damage_slots: int
    minor_damage: bool


@with_config(Forbid)
class Crew(TypedDict):
    colour: NotRequired[str]
    dice_faces: list[int]
    command_board: list[str]
    coasting: bool
    vehicles: list[Vehicle]
    moves_every_turn: NotRequired[bool]
    first_die_sets_turns: NotRequired[bool]
    road_die_only_with: NotRequired[str]
    zigzag: NotRequired[bool]
    turns_per_round: NotRequired[int]
    movement_dice: NotRequired[int]


@with_config(Forbid)
class Command(TypedDict):
    dice: list[int]


@with_config(Forbid)
class Crews(TypedDict):
    size_rank: dict[str, int]
    base: Crew
    big_rig: Crew
    final_five: Crew
    commands: dict[str, Command]


@with_config(Forbid)
class Dice(TypedDict):
    road: list[int]
    shooting: list[str]
    shooting_hits: dict[str, list[str]]
    slam: list[Literal["top", "bottom"]]
    direction: list[Dir]
    stunt: list[int]
    fire: list[str]
    fire_flare_moves: dict[str, int]


@with_config(Forbid)
class Face(TypedDict):
    name: str
    rows: list[str]


@with_config(Forbid)
class Tiles(TypedDict):
    start: str
    faces: dict[str, Face]


@with_config(Forbid)
class Tokens(TypedDict):
    damage: dict[str, int]
    damage_on_fire: dict[str, int]
    skid_direction: dict[str, Dir]
    hazard: dict[str, int]
    hazard_on_fire: dict[str, int]
    hazard_stays: list[str]


#: every data file of the game and its shape
FILES: dict[str, Any] = {"board": Board, "crews": Crews, "dice": Dice, "tiles": Tiles, "tokens": Tokens}


@cache
def load(name: str) -> Any:
    return load_json("thunder_road", name, FILES[name])


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

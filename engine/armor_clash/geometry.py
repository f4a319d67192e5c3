"""Battlefield geometry: 8 compass directions, the 3x3 firing arc, rotations."""

from __future__ import annotations

import math
from functools import cache

# 0 = N (up) clockwise
DIRS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
DIR_NAMES = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
# position on the ring around the vehicle (0 = the cell in front) -> 3x3 cell number of rules 8.1
RING_TO_CELL = [2, 3, 5, 8, 7, 6, 4, 1]
CELL_TO_RING = {c: i for i, c in enumerate(RING_TO_CELL)}


def ring_dist(a: int, b: int) -> int:
    d = (a - b) % 8
    return min(d, 8 - d)


def clockwise(a: int, b: int) -> bool:
    """Shortest way from a to b is clockwise (a half turn goes clockwise)."""
    return (b - a) % 8 <= 4


def step_towards(a: int, b: int, cells: int) -> int:
    if cells <= 0 or a == b:
        return a
    n = min(cells, ring_dist(a, b))
    return (a + n) % 8 if clockwise(a, b) else (a - n) % 8


@cache
def octant(dx: int, dy: int) -> int:
    """Compass direction (0-7) of an offset; the grid never hits a sector boundary."""
    if dx == 0 and dy == 0:
        return 0
    ang = math.degrees(math.atan2(dx, -dy)) % 360.0
    return int(math.floor((ang + 22.5) / 45.0)) % 8


def bearing(src, dst) -> int:
    return octant(dst.x - src.x, dst.y - src.y)


def chebyshev(a, b) -> int:
    return max(abs(a.x - b.x), abs(a.y - b.y))


def in_arc(turret_abs: int, direction: int) -> bool:
    """Rules 8.1: the pointed cell and its directly adjacent cells of the 3x3 ring."""
    return ring_dist(turret_abs, direction) <= 1


def rotation_needed(turret_abs: int, direction: int) -> int:
    """Cells the turret must turn so that ``direction`` is inside the arc."""
    return max(0, ring_dist(turret_abs, direction) - 1)


def cell_name(x: int, y: int) -> str:
    return f"{chr(ord('A') + x)}{y + 1}"


def move_turns(cells: int, max_move: int) -> tuple[str, int]:
    """Rules 2.1 bands: short <= 1/3 max: 1 turn, medium: 2, long > 2/3: 3 (4 at the full maximum)."""
    if cells * 3 <= max_move:
        return "short", 1
    if cells * 3 <= 2 * max_move:
        return "medium", 2
    return "long", (4 if cells >= max_move else 3)

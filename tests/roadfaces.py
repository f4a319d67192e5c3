"""Test-only Thunder Road tile faces, present in the cached tile data for one test only.

The rule and FAQ scenario tests build tables of faces whose geometry is explicit
("9a" = all road, and faces a test draws itself).  The game reads faces from the
data that :func:`engine.content.load_json` read once and keeps for the whole
process, so a face written there stays for every later test of the process:
``tests/test_game_content.py`` then finds the tile data no longer equal to
``data/thunder_road/tiles.json``.  :func:`only_this_test` adds the faces for the
length of one test and puts the cached data (and the geometry caches derived
from it) back as it was afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine.thunder_road import content as C

ALL_ROAD = ["RRRRRRR"] * C.ROWS
#: the faces every scenario may use
BASE = {"9a": {"name": "Test road", "rows": ALL_ROAD}, "9b": {"name": "Test road B", "rows": ALL_ROAD}}


def forget_geometry() -> None:
    """Drop what was derived from the faces (a face's rows changed or went away)."""
    C.face_char.cache_clear()
    C.grid.cache_clear()
    C.drivable.cache_clear()
    C._LAST[:] = [None, None]


def add_face(fid: str, rows: list[str], name: str | None = None) -> str:
    """Add (or redraw) a face for the running test (rows[0] = back edge)."""
    assert len(rows) == C.ROWS and all(len(r) == C.W for r in rows)
    C.faces()[fid] = {"name": name or fid, "rows": rows}
    forget_geometry()
    return fid


@contextmanager
def only_this_test() -> Iterator[None]:
    """The :data:`BASE` faces (and any :func:`add_face` adds) for one test; the real data after it."""
    faces = C.faces()
    before = dict(faces)
    assert not set(BASE) & set(before), "a test-only face id is a real face"
    faces.update(BASE)
    forget_geometry()
    try:
        yield
    finally:
        faces.clear()
        faces.update(before)
        forget_geometry()

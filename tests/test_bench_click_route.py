"""bench/click_route.py's two-member click (issue 30 item 1): a turn that passes to the other
member (the real bot against the stand-in, every call recorded) reads the table's row once and
builds its board without one call back up into the facade (tables/service.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROUTE = Path(__file__).resolve().parent.parent / "bench" / "click_route.py"


def load_route():
    spec = importlib.util.spec_from_file_location("bench_click_route", ROUTE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_a_two_member_click_reads_its_row_once_and_its_board_reads_down():
    route = load_route()
    before = sys.getprofile()
    rec = await route.run("thunder_road", 2)
    sys.setprofile(before)
    assert "tables/seeing/board.py" in rec.files and rec.facade_calls()[0] > 0  # the click was recorded
    assert rec.facade_calls(route.BUILDER) == (0, 0), sorted(c for c in rec.calls if c[0] in route.BUILDER)
    assert rec.row_reads == 1

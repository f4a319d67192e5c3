"""bench/notify.py (issue 32 item 6) prints its one line from a real run of the bot on a
controlled clock, and a member is pinged at most once per turn."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_prints_one_line_and_pings_once_per_turn():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "notify.py"), "--members", "8", "--tables", "2", "--days", "0.5"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ},
        check=True,
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("notify "))
    m = re.fullmatch(
        r"notify members=8 turns=(\d+) pings_per_turn=(\d+) digest_dms_per_day=(\d+)"
        r" quiet_violations=(\d+) clock_alerts_per_turn=(\d+)",
        line,
    )
    assert m, line
    assert int(m.group(1)) > 0 and int(m.group(2)) <= 1

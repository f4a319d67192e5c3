"""``python -m engine``: the headless driver.  Its code lives in the top-level
``driver`` module (an edge adapter, like bot.py) so the engine package itself
stays pure."""

import importlib
import sys

sys.exit(importlib.import_module("driver").main())

"""What the cogs share: the store, the clock, locale defaults, the render pool."""

from __future__ import annotations

import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from store import Store


@dataclass
class Services:
    store: Store
    default_locale: str = "en"
    clock: Callable[[], float] = time.time
    executor: Executor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=2, thread_name_prefix="render"))
    max_ai_steps: int = 2000

"""What the web companion's browser tests share (tests/test_web_browser.py, test_web_phone.py):
Debian's headless Chromium driven by Selenium (nothing downloaded), the companion served on a
loopback port from an event loop of its own (a thread), and the waits on what the browser drew."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("TG_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("TG_CHROMEDRIVER", "/usr/bin/chromedriver")

needs_chromium = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(DRIVER)),
    reason=f"no headless Chromium ({CHROMIUM}, {DRIVER}): apt-get install chromium chromium-driver (.ci/run does)",
)


class LoopServer:
    """An event loop in a thread of its own, for a companion the browser reaches on loopback."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 120):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def serve(self, app) -> None:
        """Serve ``app`` on a free loopback port (:attr:`url`)."""
        from aiohttp import web

        self.runner = web.AppRunner(app, shutdown_timeout=1)
        self.run(self.runner.setup())
        self.run(web.TCPSite(self.runner, "127.0.0.1", 0).start())
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"

    def close(self) -> None:
        self.run(self.runner.cleanup(), 15)
        self.run(self.store.close(), 15)  # each server opens its store
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def chromium(*args: str, mobile: dict[str, Any] | None = None) -> Iterator[Any]:
    """A headless Chromium (``args`` added; ``mobile``: Chrome's mobile emulation), quit after use."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *args):
        opts.add_argument(a)
    if mobile is not None:
        opts.add_experimental_option("mobileEmulation", mobile)
    d = webdriver.Chrome(service=Service(DRIVER), options=opts)
    d.set_page_load_timeout(30)
    yield d
    d.quit()


def wait(driver, cond, timeout: float = 10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(cond)


def loaded_src(driver, element_id: str) -> str:
    """The image's address once the browser has drawn it (naturalWidth > 0)."""
    return wait(
        driver,
        lambda d: d.execute_script(
            "var i=document.getElementById(arguments[0]); return i && i.complete && i.naturalWidth>0 ? i.currentSrc : null",
            element_id,
        ),
    )

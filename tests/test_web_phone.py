"""The web companion on a phone (issue 29 item 7), in a real headless Chromium at a
400 x 800 viewport: every page of every game fits the screen's width (no sideways
scrolling of the page, every table inside the screen), and each board starts at a
scale where its smallest text reads on a phone (:data:`PHONE_TEXT_PX` CSS pixels;
the renderers draw no text smaller than ``render.common.MIN_TEXT_PX``), pannable
inside a stage no wider than the screen.  ``TG_SHOTS=<dir>`` keeps a screenshot of
each page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browserkit import chromium, loaded_src, needs_chromium, wait
from sitekit import Site, pages
from webtables import HOST

from render.common import MIN_TEXT_PX

#: the smallest text a phone reader reads without zooming, in CSS pixels
PHONE_TEXT_PX = 12.0
WIDTH, HEIGHT = 400, 800
pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Site(tmp_path_factory.mktemp("phone") / "phone.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def phone():
    mobile = {"deviceMetrics": {"width": WIDTH, "height": HEIGHT, "pixelRatio": 2.0, "touch": True}}
    yield from chromium("--hide-scrollbars", mobile=mobile)


def shot(driver, name: str) -> None:
    where = os.environ.get("TG_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(where) / f"{name}.png"))


FITS = """
var w = arguments[0], bad = [];  // the phone's width (a page wider than it zooms out: innerWidth grows)
if (window.innerWidth > w) bad.push('the page is zoomed out to ' + window.innerWidth + ' px');
if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
document.querySelectorAll('table, .stage, .card, header, main, .slider, .zoom').forEach(function (el) {
  var r = el.getBoundingClientRect();
  if (r.left < -0.5 || r.right > w + 0.5) bad.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
});
return [w, bad];
"""

READABLE = """
var img = document.getElementById(arguments[0]), stage = img.parentNode;
var shown = img.getBoundingClientRect().width, s = stage.getBoundingClientRect();
return [shown / img.naturalWidth, s.left, s.right, s.height, document.documentElement.clientWidth, window.innerHeight];
"""


def readable(driver, image: str) -> bool:
    return driver.execute_script(READABLE, image)[0] * MIN_TEXT_PX >= PHONE_TEXT_PX


def test_every_page_fits_a_phone_and_boards_start_readable(server, phone):
    from selenium.common.exceptions import TimeoutException

    problems = []
    for name, path, image in pages(server):
        phone.get(server.url + path)
        if image is not None:
            loaded_src(phone, image)
            # the page sets the board's starting scale once its image has loaded: wait for it
            try:
                wait(phone, lambda d, image=image: readable(d, image), timeout=5)
            except TimeoutException:
                pass  # measured and reported below
        width, bad = phone.execute_script(FITS, WIDTH)
        problems += [f"{name}: {b}" for b in bad]
        if image is not None:
            scale, left, right, height, w, h = phone.execute_script(READABLE, image)
            if scale * MIN_TEXT_PX < PHONE_TEXT_PX:
                problems.append(
                    f"{name}: the board starts at {scale:.2f} of its size: text {scale * MIN_TEXT_PX:.1f} px"
                )
            if height > h:
                problems.append(f"{name}: the board's stage is taller than the screen ({height:.0f} > {h})")
        shot(phone, f"phone-{name}")
    assert not problems, "\n".join(problems)


def test_a_signed_in_players_pages_fit_a_phone(server, phone):
    """The member's own pages: their tables, and each table with their hand and choices."""
    sid, _, _ = server.run(
        server.service.web_sessions.redeem_link(server.run(server.service.web_sessions.link_token(HOST)))
    )
    phone.get(server.url + "/")
    phone.add_cookie({"name": "tg_session", "value": sid, "path": "/"})
    problems = []
    for name, path in [("me-signed-in", "/me")] + [(f"mine-{g}", f"/t/{gid}") for g, gid in server.tables.items()]:
        phone.get(server.url + path)
        if path != "/me":
            loaded_src(phone, "board")
            assert "/mine.png" in loaded_src(phone, "board"), "signed in: the seat's own view"
        problems += [f"{name}: {b}" for b in phone.execute_script(FITS, WIDTH)[1]]
        shot(phone, f"phone-{name}")
    phone.delete_all_cookies()
    assert not problems, "\n".join(problems)


def test_a_phone_pans_the_board_and_zooms_out_to_see_it_whole(server, phone):
    from selenium.webdriver.common.by import By

    phone.get(f"{server.url}/t/{server.tables['thunder_road']}")
    loaded_src(phone, "board")
    start = phone.execute_script(READABLE, "board")[0]
    before = phone.find_element(By.ID, "board").get_attribute("style")
    stage = phone.find_element(By.CSS_SELECTOR, ".stage")
    stage.send_keys("\ue014")  # the arrow right pans a zoomed board
    wait(phone, lambda d: d.find_element(By.ID, "board").get_attribute("style") != before)
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    phone.find_element(By.CSS_SELECTOR, "[data-zoom=out]").click()
    scale, left, right, *_ = phone.execute_script(READABLE, "board")
    assert scale < start and right - left <= WIDTH  # the whole board, as small as the screen makes it

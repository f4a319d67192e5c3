"""The companion keeps passing an accessibility engine (issue 33 item 3): axe-core (the copy
shipped inside the axe-selenium-python wheel; nothing fetched at run time) run in the real
headless Chromium on every page (tests/sitekit.pages: home, /me, each game's table and
replay, leaderboards, leagues, a campaign, sign-in, a Chinese table, and a signed-in member's
/me and tables) at phone and desktop size (and in the pages' dark colours) finds no serious or critical violation (colour
contrast AA among them); the replay slider and every control are used with the keyboard
alone, and the control with the focus shows it (a :focus-visible outline)."""

from __future__ import annotations

import pytest
from browserkit import chromium, loaded_src, needs_chromium, wait
from sitekit import Site, axe_violations, every_page, page_violations, signed_in

pytestmark = needs_chromium

SIZES = {
    "phone": {"mobile": {"deviceMetrics": {"width": 400, "height": 800, "pixelRatio": 2.0, "touch": True}}},
    "desktop": {"args": ("--window-size=1280,900",)},
    "desktop-dark": {"args": ("--window-size=1280,900",), "dark": True},  # the pages' dark colours (contrast)
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Site(tmp_path_factory.mktemp("access") / "access.db")
    yield s
    s.close()


@pytest.fixture(scope="module", params=sorted(SIZES))
def browser(request):
    size = SIZES[request.param]
    for driver in chromium(*size.get("args", ()), mobile=size.get("mobile")):
        if size.get("dark"):
            dark = {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", dark)
            driver.get("about:blank")
            assert driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
        yield driver


@pytest.fixture(scope="module")
def desktop():
    yield from chromium(*SIZES["desktop"]["args"])


def test_every_page_has_no_serious_accessibility_violation(server, browser):
    found = page_violations(server, browser)
    assert not found, "\n".join(f"{page}: {v}" for page, bad in found.items() for v in bad)


def test_the_styles_no_page_here_shows_keep_their_contrast_too(server, browser):
    """The coloured parts a page shows only at times (a deadline's urgent pill, a primary
    button), put on a page: no contrast violation in either colour scheme."""
    browser.get(server.url + "/me")
    browser.execute_script(
        "var m = document.querySelector('main');"
        'm.insertAdjacentHTML(\'beforeend\', \'<p><span class="pill urgent">3 h left</span> <span class="pill">AI</span>'
        ' <button type="button" class="primary">Sign in</button> <span class="you">you</span>'
        ' <span class="muted">muted words</span></p>\');'
    )
    assert axe_violations(browser) == []


def test_the_check_finds_what_it_forbids(server, desktop):
    """An image without a text and a button without a name, put on a page, are found."""
    desktop.get(server.url + "/")
    assert axe_violations(desktop) == []
    desktop.execute_script(
        "var i = document.createElement('img'); i.src = '/static/app.css'; document.body.appendChild(i);"
        "document.body.appendChild(document.createElement('button'));"
    )
    found = " ".join(axe_violations(desktop))
    assert "image-alt" in found and "button-name" in found, found


FOCUS = """
var el = document.activeElement, cs = getComputedStyle(el);
return [el.id || el.tagName, el.matches(':focus-visible'), cs.outlineStyle, parseFloat(cs.outlineWidth) || 0];
"""


def tab_to(driver, element_id: str, limit: int = 40) -> None:
    """Press Tab (the keyboard only) until the element ``element_id`` has the focus."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        if driver.execute_script("return document.activeElement && document.activeElement.id") == element_id:
            return
        ActionChains(driver).send_keys(Keys.TAB).perform()
    raise AssertionError(f"#{element_id} is never reached with the Tab key")


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def shows_focus(driver) -> tuple[str, bool, str, float]:
    return tuple(driver.execute_script(FOCUS))  # type: ignore[return-value]


def test_the_replay_slider_is_played_with_the_keyboard_alone_and_shows_its_focus(server, desktop):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    gid = server.tables["automobile"]
    desktop.get(f"{server.url}/t/{gid}/history?at=0")
    loaded_src(desktop, "frame")
    tab_to(desktop, "slider")
    name, visible, style, width = shows_focus(desktop)
    assert visible and style != "none" and width >= 2, ("the slider shows the keyboard's focus", name, style, width)
    press(desktop, Keys.ARROW_RIGHT)
    wait(desktop, lambda d: d.find_element(By.ID, "pos").text == "1")
    wait(desktop, lambda d: "/frames/1.png" in loaded_src(d, "frame"))
    tab_to(desktop, "next")
    press(desktop, Keys.ENTER)  # a button, by the keyboard
    wait(desktop, lambda d: d.find_element(By.ID, "pos").text == "2")
    name, visible, style, width = shows_focus(desktop)
    assert visible and style != "none" and width >= 2, ("the button shows the keyboard's focus", name, style, width)


def test_every_control_on_every_page_is_reached_by_tab_and_shows_its_focus(server, desktop):
    """Tab walks through each page's controls (links, buttons, the slider, the board's stage):
    every one it reaches has a visible outline."""
    from selenium.webdriver.common.keys import Keys

    problems = []
    for name, path, image, member in every_page(server):
        if member and not desktop.get_cookie("tg_session"):
            signed_in(server, desktop)
        elif not member and desktop.get_cookie("tg_session"):
            desktop.delete_all_cookies()
        desktop.get(server.url + path)
        if image is not None:
            loaded_src(desktop, image)
        controls = desktop.execute_script(
            "return document.querySelectorAll('a[href], button, input:not([type=hidden]), [tabindex]').length"
        )
        seen = 0
        for _ in range(min(controls, 30)):
            press(desktop, Keys.TAB)
            el, visible, style, width = shows_focus(desktop)
            if el == "BODY":
                break
            seen += 1
            if not (visible and style != "none" and width >= 2):
                problems.append(f"{name}: {el} has the focus and shows no outline ({style}, {width}px)")
        if controls and not seen:
            problems.append(f"{name}: Tab reaches none of its {controls} controls")
    desktop.delete_all_cookies()
    assert not problems, "\n".join(problems)

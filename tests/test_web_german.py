"""The companion in German (issue 33 item 4): in the real headless Chromium, a browser
that asks for German (``Accept-Language: de``) reads every page (tests/sitekit.py: home,
/me, each game's table and replay, the leaderboards, leagues, a campaign, sign-in, a
signed-in member's own view) with no English in its text, its image descriptions, titles
and labels (tests/germankit.py); an English browser that picks "Deutsch" on the page's
language switch reads the next pages in German too."""

from __future__ import annotations

import pytest
from browserkit import chromium, loaded_src, needs_chromium, wait
from germankit import english_in
from sitekit import NAMES, Site, every_page, signed_in

pytestmark = needs_chromium

#: what members named themselves and their leagues and campaigns here: their words, not the site's
MEMBERS_WORDS = (*NAMES.values(), "A rather long league name", "Autumn", "Maximiliana")

TEXTS = """
var out = [document.title, document.body.innerText];
document.querySelectorAll('[alt],[title],[aria-label],[placeholder],[aria-valuetext]').forEach(function (e) {
  ['alt', 'title', 'aria-label', 'placeholder', 'aria-valuetext'].forEach(function (a) {
    if (e.getAttribute(a)) out.push(e.getAttribute(a));
  });
});
return out;
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Site(tmp_path_factory.mktemp("german") / "german.db")
    yield s
    s.close()


def english_on_page(driver) -> list[str]:
    found = []
    for text in driver.execute_script(TEXTS):
        for words in MEMBERS_WORDS:
            text = text.replace(words, " ")
        found += english_in(text)
    return found


def test_a_browser_asking_for_german_reads_every_page_in_german(server):
    problems: dict[str, list[str]] = {}
    seen = 0
    for driver in chromium("--window-size=1280,900", "--accept-lang=de", "--lang=de"):
        for name, path, image, member in every_page(server):
            if "lang=" in path and "lang=de" not in path:
                continue  # a page asked for in another language on purpose
            if member and not driver.get_cookie("tg_session"):
                signed_in(server, driver)
            elif not member and driver.get_cookie("tg_session"):
                driver.delete_all_cookies()
            driver.get(server.url + path)
            if image is not None:
                loaded_src(driver, image)
            assert driver.execute_script("return document.documentElement.lang") == "de", name
            seen += 1
            found = english_on_page(driver)
            if found:
                problems[name] = found
    assert seen >= 15, seen
    assert not problems, problems


def test_an_english_browser_switches_the_site_to_german(server):
    from selenium.webdriver.common.by import By

    gid = server.tables["thunder_road"]
    for driver in chromium("--window-size=1280,900", "--accept-lang=en-US", "--lang=en-US"):
        driver.get(f"{server.url}/t/{gid}")
        loaded_src(driver, "board")
        assert driver.execute_script("return document.documentElement.lang") == "en"
        assert english_on_page(driver), "the English page is English (the check sees it)"
        driver.find_element(By.CSS_SELECTOR, 'a[hreflang="de"]').click()  # the page's language switch
        wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "de")
        loaded_src(driver, "board")
        assert english_on_page(driver) == []
        driver.get(f"{server.url}/t/{gid}/history?at=1")  # the next page: the choice is remembered
        loaded_src(driver, "frame")
        assert driver.execute_script("return document.documentElement.lang") == "de"
        assert english_on_page(driver) == []

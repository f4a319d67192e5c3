"""The web companion in a real headless Chromium (Debian's chromium + chromium-driver,
driven by Selenium; nothing is downloaded): the replay slider changes the frame, a move
made through the table service reaches an open page, a private link shows the hand once,
and without it (or after it expires) the hand is refused."""

from __future__ import annotations

import time

import pytest
from browserkit import LoopServer, chromium, loaded_src, needs_chromium, wait
from webtables import HOST, move, open_two_player

from store import SqliteStore
from tables import TableService, due_times
from tables.people.web_sessions import LINK_SECONDS, WebSessions
from web import Limits, make_app

pytestmark = needs_chromium


class Server(LoopServer):
    """The companion on a loopback port, in an event loop of its own (a thread)."""

    def __init__(self, path):
        super().__init__()
        self.store = SqliteStore(path, due=due_times)
        self.service = TableService(self.store)
        self.run(self.store.open())
        self.gid = self.run(open_two_player(self.service, "automobile"))
        self.run(move(self.service, self.gid, 3))
        self.serve(make_app(self.service, limits=Limits(rate=500, burst=500)))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("web") / "web.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def driver():
    yield from chromium("--window-size=900,800")


@pytest.mark.parametrize("pace", ["together", "frame 1 shows between"])
def test_the_replay_slider_moves_through_past_positions(server, driver, pace):
    """Two key presses: the page ends on frame 2 whether or not frame 1 is drawn on the way
    (on a loaded machine the presses come further apart than the page's debounce, and
    frame 1 loads first: "frame 1 shows between" makes that timing certain)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(f"{server.url}/t/{server.gid}/history?at=0")
    first = loaded_src(driver, "frame")
    caption = driver.find_element(By.ID, "caption").text
    slider = driver.find_element(By.ID, "slider")
    slider.send_keys(Keys.ARROW_RIGHT)
    if pace != "together":
        wait(driver, lambda d: "/frames/1.png" in loaded_src(d, "frame"))
    slider.send_keys(Keys.ARROW_RIGHT)  # the keyboard: two decisions on
    # wait for where the second press leads, not for the first change of the image
    wait(driver, lambda d: "/frames/2.png" in loaded_src(d, "frame"))
    assert loaded_src(driver, "frame") != first
    wait(driver, lambda d: d.current_url.endswith("?at=2"))
    # the frame's alt follows it: the frame in words (issue 33)
    row = server.run(server.service.row(server.gid))
    said = server.run(server.service.frame(row, 2, "en")).describe()
    wait(driver, lambda d: d.find_element(By.ID, "frame").get_attribute("alt") == said)
    assert driver.find_element(By.ID, "caption").text != caption
    assert driver.find_element(By.ID, "pos").text == "2"
    driver.find_element(By.ID, "prev").click()  # a tap on the button: one back
    wait(driver, lambda d: "/frames/1.png" in loaded_src(d, "frame"))


def test_an_open_table_page_shows_a_move_made_through_the_table_service(server, driver):
    from selenium.webdriver.common.by import By

    driver.get(f"{server.url}/t/{server.gid}")
    loaded_src(driver, "board")
    before = driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    alt = driver.find_element(By.ID, "board").get_attribute("alt")
    wait(driver, lambda d: "on" in d.find_element(By.ID, "live").get_attribute("class"))  # the stream is open
    server.run(move(server.service, server.gid, 1))
    version = str(server.run(server.service.row(server.gid)).version)
    assert version != before
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version") == version)
    assert f"v{version}" in driver.find_element(By.ID, "version").text
    wait(driver, lambda d: f"v={version}" in loaded_src(d, "board"))
    # the image's alt is the new board in words, swapped in with it (issue 33)
    said = server.run(server.service.board(server.gid, None, "en")).describe()
    assert said != alt
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("alt") == said)


def test_a_private_link_shows_the_hand_once_and_nothing_shows_it_without_one(server, driver):
    from selenium.webdriver.common.by import By

    hand_word = "demand cards"
    driver.delete_all_cookies()
    driver.get(f"{server.url}/t/{server.gid}")
    assert hand_word not in driver.page_source and not driver.find_elements(By.ID, "hand")

    sessions = WebSessions(server.store)
    expired = server.run(
        WebSessions(server.store, clock=lambda: time.time() - LINK_SECONDS - 5).link_token(HOST, server.gid)
    )
    driver.get(f"{server.url}/signin/{expired}")
    driver.find_element(By.ID, "signin").click()
    wait(driver, lambda d: d.current_url.endswith("/signin") and "expired" in d.page_source)
    driver.get(f"{server.url}/t/{server.gid}")
    assert not driver.find_elements(By.ID, "hand")

    token = server.run(sessions.link_token(HOST, server.gid))
    driver.get(f"{server.url}/signin/{token}")
    driver.find_element(By.ID, "signin").click()
    wait(driver, lambda d: d.current_url.endswith(f"/t/{server.gid}"))
    hand = driver.find_element(By.ID, "hand").text
    assert hand_word in hand
    assert driver.get_cookie("tg_session")["httpOnly"] is True
    assert driver.execute_script("return document.cookie").find("tg_session") == -1  # not readable by scripts
    assert "/mine.png" in loaded_src(driver, "board")  # the seat's own view

    # the same link again (a second browser, or a forwarded message): refused
    driver.delete_all_cookies()
    driver.get(f"{server.url}/signin/{token}")
    driver.find_element(By.ID, "signin").click()
    # the form's own address already has "/signin" in it: wait for the refusal itself
    wait(driver, lambda d: d.current_url.endswith("/signin") and "expired" in d.page_source)
    driver.get(f"{server.url}/t/{server.gid}")
    assert not driver.find_elements(By.ID, "hand") and hand_word not in driver.page_source

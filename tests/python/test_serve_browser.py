"""The web app in a real browser (headless Chromium through Selenium): whole games played by clicking, analysis, a run, a server restart; screenshots checked pixel by pixel."""

import io
import pathlib
import re
import subprocess

import pytest
from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import LAUNCHER

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
RED = (0xC0, 0x39, 0x2B)  # Virus War's crosses (render/virus_war.py)
BLUE = (0x24, 0x71, 0xA3)  # the policy loss line, Virus War's noughts
WHITE_COW = (0xFB, 0xFB, 0xF5)  # render/morabaraba.py
BLACK_COW = (0x22, 0x22, 0x22)
HEAT = (0xE6, 0x7E, 0x22)  # style.css circle.heat


class Server:
    """`boardlab serve` in a subprocess, restartable on the same port."""

    def __init__(self, runs: pathlib.Path):
        self.runs = runs
        self.port = 0
        self.process = None

    def start(self) -> str:
        # The token kept beside the runs: the same after a restart, so that the page reconnects.
        self.process = subprocess.Popen(
            [str(LAUNCHER), "serve", "--port", str(self.port), "--runs", str(self.runs), "--bot-delay", "0",
             "--token-file", str(self.runs.parent / "serve-token")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/#token=[\w-]+", line)
        assert match, line + self.process.stderr.read()
        self.port = int(match.group(1))
        return match.group(0)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tiny_runs):
    server = Server(tiny_runs)
    server.url = server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1100,1400", "--force-device-scale-factor=1", "--hide-scrollbars",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking", "--mute-audio"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(40)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, server):
    browser.get(server.url)
    wait_for(browser, "page connected", lambda d: connected(d) == "yes")
    return browser


def connected(driver) -> str:
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-connected")


def names(driver, selector: str) -> list[str]:
    return [e.get_attribute("data-name") for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def wait_for(driver, what: str, condition, timeout: float = 15):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition)
    except TimeoutException:
        errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".error") if e.is_displayed()]
        raise AssertionError(f"timed out waiting for {what}; errors on the page: {errors}") from None


def game(driver) -> dict:
    return driver.execute_script("return page.game")


def screenshot(driver) -> Image.Image:
    picture = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    # Not blank: a drawn board has many colours.
    assert len(set(picture.resize((200, 200)).getdata())) > 20
    return picture


def centre(driver, element) -> tuple[int, int]:
    rect = driver.execute_script(
        "arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];", element)
    return round(rect[0]), round(rect[1])


def colour_near(picture: Image.Image, xy: tuple[int, int], colour, radius: int = 3, tolerance: int = 40) -> bool:
    x0, y0 = xy
    for x in range(x0 - radius, x0 + radius + 1):
        for y in range(y0 - radius, y0 + radius + 1):
            if all(abs(a - b) <= tolerance for a, b in zip(picture.getpixel((x, y)), colour)):
                return True
    return False


# Waits in the page (one WebDriver call, not one per poll) until the game shown is past version
# arguments[0] and, with arguments[1], until seat arguments[1] is to choose or the game is over;
# returns the version, whether the game is over, the legal click targets and the move buttons.
WAIT_FOR_GAME = """
const [since, seat, done] = arguments;
const start = Date.now();
(function check() {
  const g = page.game;
  if (g && g.version !== since && (seat === null || g.over || g.acting === seat)) {
    done({version: g.version, over: g.over, targets: [...document.querySelectorAll("#targets circle.legal")],
          buttons: [...document.querySelectorAll("#moves button.move")]});
  } else if (Date.now() - start > 25000) {
    done(null);
  } else {
    setTimeout(check, 5);
  }
})();
"""


def await_game(driver, since, seat=None) -> dict:
    shown = driver.execute_async_script(WAIT_FOR_GAME, since, seat)
    if shown is None:
        errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".error") if e.is_displayed()]
        raise AssertionError(f"the game did not move on from version {since}; errors on the page: {errors}")
    return shown


def point(driver, name: str):
    return driver.find_element(By.CSS_SELECTOR, f'#board circle.point[data-name="{name}"]')


def click_point(driver, name: str) -> None:
    """Clicks the drawing's point `name` and waits for the game to change."""
    before = game(driver)["version"]
    point(driver, name).click()
    await_game(driver, before)


def start_game(driver, name: str, players: str, seed: int | None = 1) -> dict:
    driver.find_element(By.ID, "tab-play").click()
    Select(driver.find_element(By.ID, "game")).select_by_value(name)
    field = driver.find_element(By.ID, "players")
    field.clear()
    field.send_keys(players)
    seed_field = driver.find_element(By.ID, "seed")
    seed_field.clear()
    if seed is not None:  # a hidden-information game takes no seed from a page
        seed_field.send_keys(str(seed))
    old = game(driver)
    driver.find_element(By.ID, "new-game").click()
    wait_for(driver, "the new game", lambda d: game(d) is not None and (old is None or game(d)["id"] != old["id"]))
    return game(driver)


def test_a_whole_virus_war_game_against_random_by_clicking(page):
    start_game(page, "virus_war", "human,random", seed=3)
    # X's only first move is a1; a click elsewhere is refused with the reason on the page.
    assert names(page, "#targets circle.legal") == ["a1"]
    point(page, "k10").click()
    error = page.find_element(By.ID, "play-error")
    wait_for(page, "the refusal", lambda d: error.is_displayed() and "k10" in error.text)
    click_point(page, "a1")
    assert "this turn so far: a1" in page.find_element(By.ID, "turn").text
    assert "X" in page.find_element(By.ID, "status").text
    picture = screenshot(page)
    assert colour_near(picture, centre(page, point(page, "a1")), RED)  # the cross is drawn where clicked
    assert not colour_near(picture, centre(page, point(page, "c3")), RED)
    clicks = 1
    shown = await_game(page, -1, 0)
    while not shown["over"]:
        # Any legal cell (or a pass when there is none), clicked, then wait for X's next choice.
        choices = shown["targets"] or shown["buttons"]
        choices[clicks % len(choices)].click()
        shown = await_game(page, shown["version"], 0)
        clicks += 1
        assert clicks < 500
    result = page.find_element(By.ID, "result").text
    assert re.search(r"(X|O) wins|draw", result), result
    assert game(page)["record"].startswith("a1")
    screenshot(page)


def test_a_morabaraba_game_with_a_mill_and_a_shot_survives_a_server_restart(page, server):
    start_game(page, "morabaraba", "human,human")
    for name in ("a7", "b6", "d7", "f6", "g7"):  # White's a7-d7-g7 is a mill
        click_point(page, name)
    status = game(page)
    assert status["acting"] == 0 and {m["text"] for m in status["moves"]} >= {"xb6", "xf6"}
    assert set(names(page, "#targets circle.legal")) == {"b6", "f6"}  # the shot: Black's cows
    click_point(page, "b6")
    assert game(page)["record"] == "a7 b6 d7 f6 g7xb6"
    picture = screenshot(page)
    assert colour_near(picture, centre(page, point(page, "g7")), WHITE_COW, radius=2, tolerance=12)
    assert colour_near(picture, centre(page, point(page, "f6")), BLACK_COW, radius=2, tolerance=12)
    assert not colour_near(picture, centre(page, point(page, "b6")), BLACK_COW, radius=2, tolerance=12)

    # The server restarts: the page reconnects and carries on with the same game.
    server.stop()
    wait_for(page, "the page to notice", lambda d: connected(d) == "no")
    assert "reconnecting" in page.find_element(By.ID, "connection").text
    server.start()
    wait_for(page, "the reconnection", lambda d: connected(d) == "yes", timeout=20)
    wait_for(page, "the restored game", lambda d: game(d)["version"] == 0 and game(d)["record"] == "a7 b6 d7 f6 g7xb6")
    click_point(page, "e5")  # Black places on: the game goes on
    assert game(page)["record"] == "a7 b6 d7 f6 g7xb6 e5"

    page.find_element(By.ID, "download").click()
    text = page.execute_script("return document.getElementById('download-link').dataset.text")
    assert text == f"{game(page)['game']}\na7 b6 d7 f6 g7xb6 e5\n"
    assert text.startswith("morabaraba(")
    before = game(page)["version"]
    page.find_element(By.ID, "resign").click()
    await_game(page, before)
    assert page.find_element(By.ID, "result").text == "White resigned: Black wins"
    before = game(page)["version"]
    page.find_element(By.ID, "undo").click()
    await_game(page, before)
    assert page.find_element(By.ID, "result").text == "" and not game(page)["over"]


def test_a_simultaneous_squares_round_resolves_when_the_human_and_the_bot_have_chosen(page):
    start_game(page, "squares", "human,random", seed=2)
    before = game(page)["version"]
    point(page, "a1").click()  # a square's lower-left corner, then its upper-right one
    assert names(page, "#targets circle.chosen") == ["a1"]
    assert page.find_element(By.CSS_SELECTOR, '#targets circle.legal[data-name="c3"]')
    point(page, "c3").click()
    shown = await_game(page, before, 0)
    record = game(page)["record"]
    assert re.fullmatch(r"2a1/\S+", record), record  # Blue's choice was made, and hidden, before Red's
    picture = screenshot(page)
    # Red's square is drawn over the cells it covers: b2, its centre, is tinted red.
    assert colour_near(picture, centre(page, point(page, "b2")), (232, 184, 176), radius=2, tolerance=25)
    assert shown["targets"]


def test_a_run_shows_its_curves_games_and_evaluations(page):
    page.find_element(By.ID, "tab-runs").click()
    page.find_element(By.CSS_SELECTOR, 'button.run[data-path="tiny"]').click()
    wait_for(page, "the run", lambda d: d.find_elements(By.CSS_SELECTOR, "#chart-loss polyline"))
    wait_for(page, "the replay", lambda d: d.find_elements(By.CSS_SELECTOR, "#run-replay svg"))
    assert "step" in page.find_element(By.ID, "run-eval-step").text
    assert page.find_element(By.ID, "run-eval").text.strip()
    assert page.find_elements(By.CSS_SELECTOR, "#chart-elo polygon")  # Elo's interval band
    chart = page.find_element(By.ID, "chart-loss")
    picture = screenshot(page)
    rect = page.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", chart)
    region = picture.crop(tuple(round(v) for v in rect))
    assert any(all(abs(a - b) <= 30 for a, b in zip(pixel, BLUE)) for pixel in region.getdata())
    # A self-play game opens in the analysis.
    page.find_element(By.CSS_SELECTOR, "#run-games button.analyse-game").click()
    wait_for(page, "the self-play game", lambda d: d.execute_script("return page.analysis") is not None)
    assert page.find_elements(By.CSS_SELECTOR, "#an-moves li")


def test_a_record_is_analysed_with_an_agent(page, tiny_runs):
    page.find_element(By.ID, "tab-analyse").click()
    Select(page.find_element(By.ID, "an-game")).select_by_value("virus_war")
    text = page.find_element(By.ID, "an-text")
    text.clear()
    text.send_keys("a1-b2-c3 k10-i9-q4")
    page.find_element(By.ID, "an-open").click()
    error = page.find_element(By.ID, "analyse-error")
    wait_for(page, "the refusal", lambda d: error.is_displayed() and "turn 2" in error.text)

    # A record file as the play tab downloads it: the game on its first line.
    upload = tiny_runs.parent / "record.txt"
    upload.write_text("virus_war\na1-b2-c3 k10-i9-h8\n")
    page.find_element(By.ID, "an-file").send_keys(str(upload))
    wait_for(page, "the record", lambda d: d.find_element(By.ID, "an-pos").text == "0 / 6")
    assert not error.is_displayed()
    for _ in range(4):  # after a1-b2-c3 k10: O's second sub-move, a real choice
        before = page.find_element(By.ID, "an-pos").text
        page.find_element(By.ID, "an-next").click()
        wait_for(page, "a step", lambda d: d.find_element(By.ID, "an-pos").text != before)
    assert page.find_element(By.ID, "an-pos").text == "4 / 6"
    checkpoint = page.find_element(By.ID, "an-checkpoint")
    checkpoint.clear()
    checkpoint.send_keys(str(tiny_runs / "tiny" / "checkpoints" / "latest.pt"))
    page.find_element(By.ID, "an-sims").send_keys("16")
    page.find_element(By.ID, "an-agent").click()
    wait_for(page, "the agent's analysis", lambda d: d.find_elements(By.CSS_SELECTOR, "#an-board circle.heat"),
             timeout=30)
    out = page.find_element(By.ID, "an-agent-out").text
    assert "O to choose" in out and "network value X" in out and "Best line: O " in out
    assert re.search(r"after \d+ simulations", out)
    heat = max(page.find_elements(By.CSS_SELECTOR, "#an-board circle.heat"),
               key=lambda e: float(e.get_attribute("data-share")))
    picture = screenshot(page)
    assert colour_near(picture, centre(page, heat), HEAT, radius=1, tolerance=60)
    # The crosses of the position shown (after a1-b2-c3 k10) are drawn, the noughts to come are not.
    board = page.find_element(By.CSS_SELECTOR, "#an-board svg")
    assert board.get_attribute("innerHTML").count("<path") == 3


def test_a_page_without_the_token_is_refused_and_says_why(browser, server):
    origin = server.url.split("#")[0]
    browser.get(origin)
    browser.execute_script("localStorage.clear()")
    for address, reason in ((origin + "#x=1", "lacks the server's token"),
                            (origin + "#token=stale-token-0123456789", "lacks the server's token")):
        browser.get("about:blank")
        browser.get(address)
        wait_for(browser, "the refusal", lambda d: d.find_element(By.ID, "connection").text == "refused")
        assert reason in browser.find_element(By.ID, "play-error").text
        browser.execute_script("localStorage.clear()")
    # The printed address works again, and keeps its token for the next visit.
    browser.get(server.url)
    wait_for(browser, "page connected", lambda d: connected(d) == "yes")
    browser.get(origin)
    wait_for(browser, "page connected from the kept token", lambda d: connected(d) == "yes")


def test_a_hidden_game_hands_the_other_human_a_link_with_its_seats_key(page):
    started = start_game(page, "stratego", "human,human", seed=None)
    assert started["seats"] == [0] and "seed" not in started
    href = page.find_element(By.CSS_SELECTOR, "#seat-links a").get_attribute("href")
    assert f"game={started['id']}" in href and "&seat=1&key=" in href and "token=" in href
    for address, joined in ((re.sub(r"&key=[^&]*", "", href), False), (href, True)):
        page.get("about:blank")
        page.get(address)
        if joined:
            wait_for(page, "Blue's seat", lambda d: game(d) is not None and game(d)["seats"] == [1])
            assert game(page)["id"] == started["id"] and game(page)["links"] == []
        else:
            wait_for(page, "the refusal", lambda d: "key" in d.find_element(By.ID, "play-error").text)
            assert game(page) is None

"""camelpy gui end to end: ``camelpy gui`` started as a user starts it, driven in a real headless
Chromium (Debian's ``chromium`` and ``chromium-driver``) by Selenium. Each view is photographed into
``artifacts/screenshots/`` (or ``$CAMELPY_SCREENSHOTS``): CI keeps the folder, git ignores it."""

from __future__ import annotations

import http.server
import os
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import chess
import pytest
from camelpy.arena.events import EventLog
from camelpy.gui.review import read_review_game, review_game
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.conftest import REPO_ROOT
from tests.system_packages import chromium
from tests.test_gui import running_gui

pytestmark = pytest.mark.needs_chromium

SCREENSHOTS = Path(os.environ.get("CAMELPY_SCREENSHOTS", REPO_ROOT / "artifacts" / "screenshots"))
WAIT_S = 60.0
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
PROMOTION = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the server may watch below (``--watch-root``): the tests' runs go there."""
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def server(runs: Path) -> Iterator[str]:
    """``camelpy gui --no-browser --port 0 --watch-root RUNS``: its address with its token
    (``http://127.0.0.1:PORT/?token=…``), from the line it prints."""
    with running_gui("--watch-root", str(runs)) as line:
        assert line.startswith("camelpy gui on http://127.0.0.1:") and "/?token=" in line, line
        yield line.split()[3]


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    """Headless Chromium (``--no-sandbox``: CI runs as root)."""
    assert request.node.get_closest_marker("needs_chromium") is not None, (
        f"{request.node.nodeid} drives a headless Chromium: mark it "
        "(pytestmark = pytest.mark.needs_chromium), so that pytest --no-system-packages skips it"
    )
    found = chromium()
    assert found is not None  # the needs_chromium marker's check has said what to install
    binary, chromedriver = found
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


class Condition(Protocol):
    """What :func:`wait` waits for: the page as *driver* shows it now, true or not yet. (A protocol rather
    than a ``Callable``, so that mypy accepts lambdas that bind a loop variable as a default argument.)"""

    def __call__(self, driver: WebDriver, /) -> Any: ...


def wait(driver: WebDriver, condition: Condition, timeout: float = WAIT_S) -> Any:
    """Waits for *condition*; the page redraws as messages come, so an element found a moment ago
    may be gone: that counts as not yet."""
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=ignored).until(condition)


def open_page(driver: WebDriver, url: str, view: str) -> None:
    driver.get(url)
    driver.execute_script("sessionStorage.clear()")  # a new tab: a session of its own
    driver.get("about:blank")
    driver.get(url + "#" + view)
    wait(driver, lambda d: d.find_element(By.ID, "connection").text == "connected")


def attribute(element: WebElement, name: str) -> str:
    """*element*'s attribute *name*, which it must have (selenium types a missing one as ``None``)."""
    value = element.get_attribute(name)
    assert value is not None, f"no {name} attribute"
    return value


def square(driver: WebDriver, board: str, name: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f"#{board} rect[data-square='{name}']")


def moves(driver: WebDriver, box: str) -> list[str]:
    """The SAN moves listed in *box*, read in one go."""
    script = "return [...document.querySelectorAll(arguments[0])].map((m) => m.firstChild.textContent)"
    return list(driver.execute_script(script, f"#{box} .move"))


def drag(driver: WebDriver, board: str, start: str, end: str) -> None:
    """Drags with the mouse from square *start* to *end* (White at the bottom), by offsets from the
    board's centre: the board redraws its squares when the press begins."""
    svg = driver.find_element(By.CSS_SELECTOR, f"#{board} svg")
    size = svg.size["width"] / 8

    def offset(name: str) -> tuple[int, int]:
        file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
        return int((file + 0.5) * size - 4 * size), int((7 - rank + 0.5) * size - 4 * size)

    chain = ActionChains(driver)
    chain.move_to_element_with_offset(svg, *offset(start)).click_and_hold()
    for step in (0.3, 0.6, 1.0):  # through the squares between, as a hand does
        (x0, y0), (x1, y1) = offset(start), offset(end)
        chain.move_to_element_with_offset(svg, int(x0 + (x1 - x0) * step), int(y0 + (y1 - y0) * step))
    chain.release().perform()


def shoot(driver: WebDriver, name: str) -> None:
    driver.save_screenshot(str(SCREENSHOTS / name))


def new_game(
    driver: WebDriver,
    *,
    variant: str = "chess",
    strength: str = "level:beginner",
    fen: str | None = None,
    starts: bool = True,
) -> None:
    """Fills in the New game form and starts; waits for the game unless it is not meant to start."""
    Select(driver.find_element(By.ID, "ng-variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "ng-strength")).select_by_value(strength)
    Select(driver.find_element(By.ID, "ng-start")).select_by_value("standard" if fen is None else "fen")
    if fen is not None:
        box = driver.find_element(By.ID, "ng-fen")
        box.clear()
        box.send_keys(fen)
    driver.find_element(By.ID, "ng-start-button").click()
    if starts:
        wait(driver, lambda d: "to move" in d.find_element(By.ID, "play-status").text)


def test_play_a_short_game_by_clicking_and_dragging(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    new_game(browser)
    square(browser, "play-board", "e2").click()
    dots = browser.find_elements(By.CSS_SELECTOR, "#play-board circle.dest")
    assert sorted(attribute(d, "data-dest") for d in dots) == ["e3", "e4"]
    square(browser, "play-board", "e4").click()
    wait(browser, lambda d: len(moves(d, "play-moves")) == 2)  # camelpy answered
    assert moves(browser, "play-moves")[0] == "e4"
    drag(browser, "play-board", "g1", "f3")
    wait(browser, lambda d: len(moves(d, "play-moves")) == 4)
    assert moves(browser, "play-moves")[2] == "Nf3"
    assert (
        browser.find_element(By.CSS_SELECTOR, "#play-board image[data-square='f3']").get_attribute(
            "data-piece"
        )
        == "wN"
    )
    assert "1. e4" in attribute(browser.find_element(By.ID, "play-pgn"), "value")
    shoot(browser, "play.png")
    browser.find_element(By.ID, "play-undo").click()
    wait(browser, lambda d: len(moves(d, "play-moves")) == 2)
    browser.find_element(By.ID, "play-resign").click()
    wait(browser, lambda d: "White resigns" in d.find_element(By.ID, "play-status").text)


def test_promote_to_a_knight(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    new_game(browser, fen=PROMOTION)
    square(browser, "play-board", "a7").click()
    square(browser, "play-board", "a8").click()
    chooser = browser.find_element(By.CSS_SELECTOR, "#play-board .promotion")
    assert chooser.is_displayed()
    assert [
        b.get_attribute("data-promo") for b in chooser.find_elements(By.CSS_SELECTOR, "[data-promo]")
    ] == [
        "q",
        "r",
        "b",
        "n",
    ]
    shoot(browser, "promotion.png")
    chooser.find_element(By.CSS_SELECTOR, "[data-promo='n']").click()
    wait(browser, lambda d: moves(d, "play-moves")[:1] == ["a8=N"])


def test_a_bad_fen_gets_a_message_and_the_page_goes_on(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    new_game(browser, fen="rnbqkbnr/pppppppp/8/8 w KQkq", starts=False)
    message = wait(browser, lambda d: d.find_element(By.ID, "message"))
    wait(browser, lambda d: message.is_displayed() and "rnbqkbnr/pppppppp/8/8 w KQkq" in message.text)
    new_game(browser)  # the server is still there
    assert "White to move" in browser.find_element(By.ID, "play-status").text


def test_load_a_fen_and_analyse(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "analyse")
    text = browser.find_element(By.ID, "an-text")
    text.send_keys(MATE_IN_ONE)
    browser.find_element(By.ID, "an-load").click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#analyse-board image[data-square='d1']"))
    browser.find_element(By.ID, "an-toggle").click()
    wait(browser, lambda d: d.find_element(By.ID, "eval-text").text == "#1")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#analyse-board line[data-arrow='d1d8']"))
    browser.find_element(By.CSS_SELECTOR, "#view-analyse details.card summary").click()
    assert "Material" in browser.find_element(By.ID, "an-trace").text
    shoot(browser, "analyse.png")
    browser.find_element(By.ID, "an-toggle").click()  # stop: the lines stay still
    wait(browser, lambda d: d.find_element(By.ID, "an-toggle").text == "Analyse")
    first = browser.find_element(By.CSS_SELECTOR, "#an-lines .line .pv-move")
    assert first.text == "Rd8#"
    first.click()  # play the line's first move on the board
    wait(browser, lambda d: moves(d, "an-moves") == ["Rd8#"])
    assert browser.find_element(By.ID, "eval-text").text == "White wins: checkmate"
    text.clear()
    text.send_keys("1. e4 e5 2. Ke3")
    browser.find_element(By.ID, "an-load").click()
    wait(browser, lambda d: "illegal san" in d.find_element(By.ID, "message").text)


HUNG_QUEEN = '[White "Alice"]\n[Black "Bob"]\n[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 0-1\n'
"""A game whose blunder is known: White gives the queen for a pawn on move 3 (ply 5)."""


QUEEN_TAKEN = "r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3"
"""The position after 3. Qxf7+."""


def pieces(driver: WebDriver, board: str) -> dict[str, str]:
    """The pieces drawn on *board*, by square (``wQ``, ``bK``)."""
    script = (
        "return [...document.querySelectorAll(arguments[0])].map((i) => [i.dataset.square, i.dataset.piece])"
    )
    return dict(driver.execute_script(script, f"#{board} image.piece"))


def pieces_of(fen: str) -> dict[str, str]:
    """The pieces of *fen*, by square, as :func:`pieces` reads them."""
    placed = chess.Board(fen).piece_map()
    return {chess.square_name(sq): "wb"[not p.color] + p.symbol().upper() for sq, p in placed.items()}


def test_review_a_game_finds_the_hung_queen(server: str, browser: WebDriver) -> None:
    expected = review_game(read_review_game(HUNG_QUEEN)[0], nodes=20_000)["moves"][4]  # deterministic
    open_page(browser, server, "review")
    browser.find_element(By.ID, "rv-text").send_keys(HUNG_QUEEN)
    Select(browser.find_element(By.ID, "rv-nodes")).select_by_value("20000")
    browser.find_element(By.ID, "rv-start").click()
    wait(browser, lambda d: moves(d, "rv-moves") == ["e4", "e5", "Qh5", "Nc6", "Qxf7+", "Kxf7"])
    marked = browser.find_elements(By.CSS_SELECTOR, "#rv-moves .move[data-judgement='blunder']")
    assert [(m.get_attribute("data-ply"), m.text) for m in marked] == [("5", "Qxf7+ ??")]
    assert browser.find_elements(By.CSS_SELECTOR, "#rv-graph polyline.rv-curve")
    assert browser.find_element(By.CSS_SELECTOR, "#rv-summary tr[data-side='white']").text.split()[-1] == "1"
    browser.find_element(By.CSS_SELECTOR, "#rv-moves .move[data-ply='5']").click()
    wait(
        browser,
        lambda d: d.find_element(By.CSS_SELECTOR, "#rv-moves .current").get_attribute("data-ply") == "5",
    )
    board = browser.find_element(By.ID, "review-board")
    assert pieces(browser, "review-board") == pieces_of(QUEEN_TAKEN) and pieces_of(QUEEN_TAKEN)["f7"] == "wQ"
    arrows = [a.get_attribute("data-arrow") for a in board.find_elements(By.CSS_SELECTOR, "line[data-arrow]")]
    assert arrows == [expected["best"][0]["uci"][:4]]
    better = browser.find_element(By.ID, "rv-better")
    assert better.text.startswith(f"{expected['best_san']} was better:")
    chips = better.find_elements(By.CSS_SELECTOR, ".pv-move")
    assert [c.text for c in chips] == [step["san"] for step in expected["best"]]
    shoot(browser, "review.png")
    chips[0].click()  # the better line's first move played on the board
    to = expected["best"][0]["uci"][2:4]
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, f"#review-board rect.last[data-square='{to}']"))
    assert pieces(browser, "review-board") == pieces_of(expected["best"][0]["fen"])
    browser.find_element(By.ID, "rv-first").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rv-moves .current"))
    critical = browser.find_elements(By.CSS_SELECTOR, "#rv-critical .pv-move")
    assert critical[0].text.startswith("3. Qxf7+??") and critical[0].get_attribute("data-ply") == "5"
    critical[0].click()
    wait(
        browser,
        lambda d: d.find_element(By.CSS_SELECTOR, "#rv-moves .current").get_attribute("data-ply") == "5",
    )
    browser.find_element(By.ID, "rv-first").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rv-moves .current"))
    browser.find_element(By.CSS_SELECTOR, "#rv-graph circle.j-blunder").click()  # the graph jumps too
    wait(
        browser,
        lambda d: d.find_element(By.CSS_SELECTOR, "#rv-moves .current").get_attribute("data-ply") == "5",
    )
    text = browser.find_element(By.ID, "rv-text")
    text.clear()
    text.send_keys("1. e4 e5 2. Ke3")
    browser.find_element(By.ID, "rv-start").click()
    wait(browser, lambda d: "'1. e4 e5 2. Ke3'" in d.find_element(By.ID, "message").text)


def test_review_the_game_just_played(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    Select(browser.find_element(By.ID, "ng-human")).select_by_value("both")
    new_game(browser)
    for played, (start, end) in enumerate((("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")), 1):
        square(browser, "play-board", start).click()
        square(browser, "play-board", end).click()
        # the server's answer redraws the board: the next click waits for it (else a stale square)
        wait(browser, lambda d, n=played: len(moves(d, "play-moves")) == n)
    wait(browser, lambda d: "checkmate" in d.find_element(By.ID, "play-status").text)
    browser.find_element(By.ID, "pgn-review").click()  # to the Review view, the game's PGN in it
    wait(browser, lambda d: d.find_element(By.ID, "view-review").is_displayed())
    wait(browser, lambda d: moves(d, "rv-moves") == ["f3", "e5", "g4", "Qh4#"])
    marked = "#rv-moves .move[data-ply='3']"  # found afresh each time: the list redraws as progress comes

    def judgement(d: WebDriver) -> str | None:
        return d.find_element(By.CSS_SELECTOR, marked).get_attribute("data-judgement")

    wait(browser, lambda d: judgement(d) == "blunder")  # g4 allows the mate


def test_watch_a_match_to_the_end_and_replay_a_game(server: str, browser: WebDriver, runs: Path) -> None:
    out = runs / "match"
    out.mkdir()
    open_page(browser, server, "watch")
    folder = browser.find_element(By.ID, "watch-folder")
    folder.clear()
    folder.send_keys(str(out))
    browser.find_element(By.ID, "watch-button").click()
    wait(browser, lambda d: d.find_element(By.ID, "w-title").text == "Waiting for events…")
    match = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "camelpy",
            "match",
            "--engine",
            "camelpy",
            "name=alpha",
            "--engine",
            "camelpy",
            "name=beta",
            "--each",
            "nodes=20000",
            "option.Hash=16",
            "--rounds",
            "1",
            "--concurrency",
            "2",
            "--out",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait(
            browser,
            lambda d: (
                len(d.find_elements(By.CSS_SELECTOR, "#w-games .game-card")) == 2
                or d.find_elements(By.CSS_SELECTOR, "#w-finished .finished-game")
            ),
        )
        try:
            wait(
                browser,
                lambda d: (
                    int(attribute(d.find_element(By.CSS_SELECTOR, "#w-games .game-card"), "data-plies")) >= 10
                ),
                timeout=20,
            )
            shoot(browser, "watch.png")
        except Exception:  # the games were quicker than the page: the end is what is checked
            pass
        wait(
            browser,
            lambda d: d.find_element(By.ID, "w-title").get_attribute("data-ended") == "finished",
            timeout=180,
        )
    finally:
        _, errors = match.communicate(timeout=180)
    assert match.returncode == 0, errors
    assert browser.find_element(By.ID, "w-title").text.startswith("Match: alpha vs beta")
    assert browser.find_element(By.ID, "w-status").get_attribute("data-games") == "2"
    assert "Elo" in browser.find_element(By.ID, "w-status").text
    finished = browser.find_elements(By.CSS_SELECTOR, "#w-finished .finished-game")
    assert sorted(attribute(f, "data-game") for f in finished) == ["1.1", "1.2"]
    assert not browser.find_elements(By.CSS_SELECTOR, "#w-games .game-card")
    assert browser.find_elements(By.CSS_SELECTOR, "#w-plot polyline")
    finished[0].click()
    wait(browser, lambda d: d.find_element(By.ID, "w-replay").is_displayed())
    replayed = moves(browser, "rp-moves")
    assert len(replayed) > 10
    browser.find_element(By.ID, "rp-first").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rp-moves .current"))
    browser.find_element(By.ID, "rp-next").click()
    wait(
        browser,
        lambda d: d.find_element(By.CSS_SELECTOR, "#rp-moves .current").text.split(" ")[0] == replayed[0],
    )
    shoot(browser, "replay.png")


def levels_offered(driver: WebDriver) -> list[str]:
    """The strength menu's named levels as the page shows them."""
    options = Select(driver.find_element(By.ID, "ng-strength")).options
    return [o.text for o in options if (o.get_attribute("value") or "").startswith("level:")]


def test_play_minichess(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    Select(browser.find_element(By.ID, "ng-variant")).select_by_value("chess")
    assert levels_offered(browser) == [
        "beginner (Elo 1350)",
        "club (Elo 1600)",
        "advanced (Elo 1800)",
        "expert (Elo 2000)",
        "full (3 s)",
    ]
    Select(browser.find_element(By.ID, "ng-strength")).select_by_value("level:expert")
    Select(browser.find_element(By.ID, "ng-variant")).select_by_value("minichess")
    nodes = ["beginner (100 nodes)", "casual (1000 nodes)", "club (10000 nodes)"]
    assert levels_offered(browser)[:3] == nodes
    strength = Select(browser.find_element(By.ID, "ng-strength"))
    assert strength.first_selected_option.text == "club (10000 nodes)"  # no expert here: the default
    new_game(browser, variant="minichess")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#play-board rect.sq")) == 30
    square(browser, "play-board", "b1").click()
    dots = browser.find_elements(By.CSS_SELECTOR, "#play-board circle.dest")
    assert sorted(attribute(d, "data-dest") for d in dots) == ["a3", "c3"]
    square(browser, "play-board", "c3").click()
    wait(browser, lambda d: len(moves(d, "play-moves")) == 2)
    assert moves(browser, "play-moves")[0] == "Nc3"
    assert '[Variant "MiniChess 6x5"]' in attribute(browser.find_element(By.ID, "play-pgn"), "value")
    shoot(browser, "minichess.png")


def test_names_from_an_events_file_are_shown_as_text(server: str, browser: WebDriver, runs: Path) -> None:
    hostile = '<img src=x onerror="document.title=1">'
    folder_path = runs / "hostile"
    folder_path.mkdir()
    log = EventLog(folder_path)
    log.emit(
        "run", kind="match", event=f"{hostile} vs b", engines=[hostile, "b"], games=2, sprt=None, version=1
    )
    log.emit("game", id=hostile, white=hostile, black="b", fen=START_FEN, book=[], clock=None)
    open_page(browser, server, "watch")
    folder = browser.find_element(By.ID, "watch-folder")
    folder.clear()
    folder.send_keys(str(folder_path))
    browser.find_element(By.ID, "watch-button").click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#w-games .game-card .round").text == hostile)
    assert not browser.find_elements(By.CSS_SELECTOR, "#view-watch img")
    assert browser.find_element(By.ID, "w-title").text == f"Match: {hostile} vs b"


def test_a_reload_keeps_the_game_and_the_side(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    Select(browser.find_element(By.ID, "ng-human")).select_by_value("black")
    new_game(browser)
    wait(browser, lambda d: len(moves(d, "play-moves")) == 1)  # camelpy opened as White
    played = moves(browser, "play-moves")
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "connection").text == "connected")
    wait(browser, lambda d: moves(d, "play-moves") == played)
    corner = square(browser, "play-board", "h8")  # Black at the bottom: h8 in the bottom left corner
    assert (corner.get_attribute("x"), corner.get_attribute("y")) == ("0", "7")


def test_analyse_minichess(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "analyse")
    browser.find_element(By.ID, "an-text").send_keys("k4/5/5/5/5/Q3K w 7")
    Select(browser.find_element(By.ID, "an-variant")).select_by_value("minichess")
    browser.find_element(By.ID, "an-load").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#analyse-board rect.sq")) == 30)
    browser.find_element(By.ID, "an-toggle").click()
    wait(browser, lambda d: d.find_element(By.ID, "eval-text").text == "#1")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#analyse-board line[data-arrow='a1a6']"))
    shoot(browser, "analyse-minichess.png")


def test_the_watch_view_offers_only_the_allowed_folders(server: str, browser: WebDriver, runs: Path) -> None:
    (runs / "offered").mkdir()
    open_page(browser, server, "watch")
    wait(browser, lambda d: str(runs) in d.find_element(By.ID, "watch-allowed").text)
    offered = [
        o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#watch-folders option")
    ]
    assert str(runs) in offered and str(runs / "offered") in offered
    folder = browser.find_element(By.ID, "watch-folder")
    folder.clear()
    folder.send_keys("/etc")
    browser.find_element(By.ID, "watch-button").click()
    wait(browser, lambda d: "cannot watch '/etc'" in d.find_element(By.ID, "message").text)
    shoot(browser, "watch-refused.png")


def test_without_the_token_the_page_is_refused(server: str, browser: WebDriver) -> None:
    browser.get(server.split("?")[0])
    assert "needs the token" in browser.find_element(By.TAG_NAME, "body").text


def test_another_site_cannot_open_the_socket(server: str, browser: WebDriver) -> None:
    """Cross-site WebSocket hijacking, in a real browser: a page from another origin (here another
    local server), even one that knows the token, gets no socket; the GUI's own page does."""
    probe = """
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(arguments[0]);
        ws.onmessage = (event) => { done("open: " + JSON.parse(event.data).type); ws.close(); };
        ws.onclose = (event) => done("closed " + event.code);
    """
    address, token = server.removeprefix("http://").split("/?token=")
    url = f"ws://{address}/ws?session=probe&token={token}"
    with socketserver.TCPServer(("127.0.0.1", 0), _Blank) as other:
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            browser.get(f"http://localhost:{other.server_address[1]}/")
            assert browser.execute_async_script(probe, url) == "closed 1006"
        finally:
            other.shutdown()
    browser.get(server)
    assert browser.execute_async_script(probe, url) == "open: hello"


class _Blank(http.server.BaseHTTPRequestHandler):
    """Another site: an empty page."""

    def do_GET(self) -> None:
        body = b"<!doctype html><title>elsewhere</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass

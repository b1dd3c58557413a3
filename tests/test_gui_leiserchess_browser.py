"""Leiserchess in ``camelpy gui`` end to end: a real ``camelpy gui`` process driven in headless Chromium
by Selenium (the fixtures and helpers of ``tests/test_gui_browser.py``): a game played with the mouse to
a king hit, the laser drawn square by square, an illegal move refused with the rules' reason, an
analysis, and a match watched live and replayed. Each view is photographed into the screenshots folder
(``$CAMELPY_SCREENSHOTS``, git ignores it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from camelpy.arena.engines import parse_engine
from camelpy.arena.events import EventLog
from camelpy.arena.leiserchess import run_match
from camelpy.leiserchess import STARTING_FEN
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests import test_gui_browser
from tests.test_gui_browser import attribute, moves, new_game, open_page, shoot, square, wait

pytestmark = pytest.mark.needs_chromium

browser = test_gui_browser.browser
runs = test_gui_browser.runs
server = test_gui_browser.server
"""The fixtures of ``tests/test_gui_browser.py``: a headless Chromium, the folder runs go in, and a
``camelpy gui`` process watching below it (one of each for this module)."""

KING_STEP = "8/8/8/8/8/8/EE7/7nn W"
"""Tangerine's king on a1 fires east along an empty rank; one step down to a0 and its beam runs along
rank 0 into Lavender's king on h0."""
PINNED = "ss7/8/8/8/NW7/8/8/7NN W"
"""Lavender's king on a7 fires south; the beam turns west at Tangerine's pawn on a3, which is pinned."""
ENGINE = f"{sys.executable} -m camelpy leiserchess"


def laser_squares(driver: WebDriver, board: str) -> list[str]:
    """The squares the drawn laser enters, in order (its shots one after the other)."""
    script = "return [...document.querySelectorAll(arguments[0])].map((s) => s.dataset.laserSquare)"
    return list(driver.execute_script(script, f"#{board} [data-laser-square]"))


def drag(driver: WebDriver, board: str, start: str, end: str) -> None:
    """Drags with the mouse from square *start* to *end* of a Leiserchess board (ranks 0 to 7,
    Tangerine at the bottom), by offsets from the board's centre."""
    svg = driver.find_element(By.CSS_SELECTOR, f"#{board} svg")
    size = svg.size["width"] / 8

    def offset(name: str) -> tuple[int, int]:
        file, rank = "abcdefgh".index(name[0]), int(name[1])
        return int((file + 0.5) * size - 4 * size), int((7 - rank + 0.5) * size - 4 * size)

    (x0, y0), (x1, y1) = offset(start), offset(end)
    chain = ActionChains(driver).move_to_element_with_offset(svg, x0, y0).click_and_hold()
    for step in (0.3, 0.6, 1.0):
        chain.move_to_element_with_offset(svg, int(x0 + (x1 - x0) * step), int(y0 + (y1 - y0) * step))
    chain.release().perform()


def test_play_leiserchess_to_a_king_hit(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    new_game(browser, variant="leiserchess", fen=KING_STEP)
    pieces = browser.find_elements(By.CSS_SELECTOR, "#play-board g.leiser-piece")
    assert sorted((p.get_attribute("data-square"), p.get_attribute("data-piece")) for p in pieces) == [
        ("a1", "EE"),
        ("h0", "nn"),
    ]
    square(browser, "play-board", "a1").click()  # the king's squares to go to, and its turns
    dots = browser.find_elements(By.CSS_SELECTOR, "#play-board circle.dest")
    assert sorted(attribute(d, "data-dest") for d in dots) == ["a0", "a2", "b0", "b1", "b2"]
    menu = browser.find_elements(By.CSS_SELECTOR, "#play-board .leiser-menu button")
    assert [b.get_attribute("data-move") for b in menu] == ["a1R", "a1U", "a1L", "a1a1"]
    square(browser, "play-board", "a1").click()  # let it go
    drag(browser, "play-board", "a1", "a0")
    wait(
        browser,
        lambda d: "Tangerine wins: a king is hit by the laser" in d.find_element(By.ID, "play-status").text,
    )
    assert laser_squares(browser, "play-board") == ["b0", "c0", "d0", "e0", "f0", "g0", "h0"]
    assert not browser.find_element(By.ID, "pgn-review").is_displayed()  # the game review is chess's only
    sides = Select(browser.find_element(By.ID, "ng-human")).options
    assert [o.text for o in sides] == ["Tangerine", "Lavender", "both sides"]
    assert browser.find_element(By.CSS_SELECTOR, "#play-board [data-hit]").get_attribute("data-hit") == "h0"
    assert moves(browser, "play-moves") == ["a1a0"]
    record = attribute(browser.find_element(By.ID, "play-pgn"), "value")
    assert record.endswith("1. a1a0 1-0\n") and '[Rules "2016"]' in record
    shoot(browser, "leiserchess-king-hit.png")


def test_an_illegal_move_is_refused_with_its_reason_and_the_laser_drawn(
    server: str, browser: WebDriver
) -> None:
    open_page(browser, server, "play")
    Select(browser.find_element(By.ID, "ng-human")).select_by_value("both")
    new_game(browser, variant="leiserchess")
    square(browser, "play-board", "h0").click()
    null = browser.find_element(By.CSS_SELECTOR, "#play-board .leiser-menu button[data-move='h0h0']")
    assert "forbidden" in attribute(null, "class")  # offered, marked: the server says why
    null.click()
    message = browser.find_element(By.ID, "message")
    wait(
        browser, lambda d: message.is_displayed() and "Ko: it would restore an earlier board" in message.text
    )
    assert moves(browser, "play-moves") == []
    square(browser, "play-board", "h0").click()
    browser.find_element(By.CSS_SELECTOR, "#play-board .leiser-menu button[data-move='h0L']").click()
    wait(browser, lambda d: moves(d, "play-moves") == ["h0L"])
    # The king now faces west: its beam runs along rank 0 to d0's mirror, which sends it off the board.
    assert laser_squares(browser, "play-board") == ["g0", "f0", "e0", "d0"]
    king = browser.find_element(By.CSS_SELECTOR, "#play-board g.leiser-piece[data-square='h0']")
    assert king.get_attribute("data-piece") == "WW"
    assert "Lavender to move" in browser.find_element(By.ID, "play-status").text


def test_analyse_leiserchess(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "analyse")
    Select(browser.find_element(By.ID, "an-variant")).select_by_value("leiserchess")
    box = browser.find_element(By.ID, "an-text")
    box.clear()
    box.send_keys(STARTING_FEN)
    browser.find_element(By.ID, "an-load").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#analyse-board g.leiser-piece")) == 16)
    browser.find_element(By.ID, "an-toggle").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#an-lines .pv-move")) >= 2)
    assert "king_face" in browser.execute_script("return document.getElementById('an-trace').textContent")
    shoot(browser, "analyse-leiserchess.png")
    browser.find_element(By.ID, "an-toggle").click()
    wait(browser, lambda d: d.find_element(By.ID, "an-toggle").text == "Analyse")
    first = browser.find_elements(By.CSS_SELECTOR, "#an-lines .pv-move")[0]
    played = first.text
    first.click()  # plays the line's first move on the board
    wait(browser, lambda d: moves(d, "an-moves") == [played])
    assert laser_squares(browser, "analyse-board")  # its laser drawn


def test_watch_a_leiserchess_match_live_and_replay_a_game(
    server: str, browser: WebDriver, runs: Path
) -> None:
    live = runs / "leiser-live"
    log = EventLog(live)
    log.begin("match", "camelpy leiserchess match", ["deep", "shallow"], 2)
    open_page(browser, server, "watch")
    folder = browser.find_element(By.ID, "watch-folder")
    folder.clear()
    folder.send_keys(str(live))
    browser.find_element(By.ID, "watch-button").click()
    wait(browser, lambda d: "camelpy leiserchess match" in d.find_element(By.ID, "w-title").text)
    fields = {"white": "deep", "black": "shallow", "fen": STARTING_FEN, "clock": None}
    log.emit("game", id="1.1", book=[], variant="leiserchess", rules=2016, **fields)
    log.emit("move", id="1.1", uci="f4f5", score=None, cp=None, depth=None, time=0.1, clock=None)
    card = "#w-games .game-card[data-game='1.1']"
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, card).get_attribute("data-plies") == "1")
    assert len(browser.find_elements(By.CSS_SELECTOR, f"{card} g.leiser-piece")) == 16
    assert browser.find_elements(By.CSS_SELECTOR, f"{card} [data-laser-square='h4']")
    log.emit("move", id="1.1", uci="a7R", score=None, cp=None, depth=None, time=0.1, clock=None)
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, card).get_attribute("data-plies") == "2")
    shoot(browser, "watch-leiserchess.png")
    # A real match, finished: its games replayed from its games.jsonl.
    played = runs / "leiser-match"
    engines = (
        parse_engine([ENGINE, "name=deep", "depth=2"]),
        parse_engine([ENGINE, "name=shallow", "depth=1"]),
    )
    run_match(engines, pairs=1, out=played, max_plies=20, report=lambda line: None)
    folder = browser.find_element(By.ID, "watch-folder")
    folder.clear()
    folder.send_keys(str(played))
    browser.find_element(By.ID, "watch-button").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#w-finished .finished-game")) == 2)
    browser.find_element(By.CSS_SELECTOR, "#w-finished .finished-game[data-game='1.1']").click()
    wait(browser, lambda d: d.find_element(By.ID, "w-replay").is_displayed())
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#replay-board g.leiser-piece")) >= 2)
    replayed = moves(browser, "rp-moves")
    assert replayed and all(len(m) in (3, 4, 5, 6) for m in replayed)
    browser.find_element(By.ID, "rp-first").click()  # the position after the opening
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#rp-moves .current"))
    browser.find_element(By.ID, "rp-next").click()
    first = browser.find_element(By.CSS_SELECTOR, "#rp-moves .current").text
    lastmove = browser.execute_script(
        "return document.querySelector('#replay-board rect.last').dataset.square"
    )
    assert first == replayed[0] and lastmove in first


def test_a_pinned_pawn_is_refused_with_its_reason(server: str, browser: WebDriver) -> None:
    open_page(browser, server, "play")
    Select(browser.find_element(By.ID, "ng-human")).select_by_value("both")
    new_game(browser, variant="leiserchess", fen=PINNED)
    square(browser, "play-board", "a3").click()  # picked up, though the rules give it no move
    assert not browser.find_elements(By.CSS_SELECTOR, "#play-board circle.dest")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#play-board .leiser-menu button")
    assert [b.get_attribute("class") for b in buttons] == ["leiser-action forbidden"] * 3
    drag(browser, "play-board", "a3", "b3")
    message = browser.find_element(By.ID, "message")
    wait(browser, lambda d: message.is_displayed() and "a pinned pawn" in message.text)
    assert "'a3b3'" in message.text and moves(browser, "play-moves") == []
    square(browser, "play-board", "h0").click()
    square(browser, "play-board", "h1").click()  # the king steps up: a move the rules allow
    wait(browser, lambda d: moves(d, "play-moves") == ["h0h1"])

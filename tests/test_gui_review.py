"""camelpy gui's Review view without a browser: the review of a pasted PGN over the WebSocket (progress,
the review, a reconnect), its caps (the text, the game's length, the nodes, the reviews at once) and bad
input answered by an ``error`` quoting it (the browser test is ``tests/test_gui_browser.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from camelpy.gui.lines import MAX_TEXT
from camelpy.gui.review import MAX_REVIEW_NODES, MAX_REVIEW_PLIES, read_review_game, review_game
from camelpy.gui.session import MAX_REVIEWS
from starlette.testclient import TestClient

from tests.test_gui import Page, client  # noqa: F401  # client: the application's fixture

HUNG_QUEEN = '[White "Alice"]\n[Black "Bob"]\n[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 0-1\n'
"""White gives the queen for a pawn on move 3 (ply 5)."""

NODES = 20_000
"""Nodes a position: deterministic, and enough to see a queen hung."""


def _shuffle(moves: int) -> str:
    """A legal game of *moves* full moves, the knights going out and back."""
    pairs = ["Nf3 Nf6", "Ng1 Ng8"]
    return " ".join(f"{n}. {pairs[(n - 1) % 2]}" for n in range(1, moves + 1)) + " *"


def test_review_streams_progress_then_the_review(client: TestClient) -> None:  # noqa: F811
    page = Page(client, "review")
    assert page.until("review")["review"] is None  # none yet
    page.until("review_progress", lambda m: not m["running"])
    page.send("review", text=HUNG_QUEEN, nodes=NODES)
    started = page.until("review_progress", lambda m: m["running"])
    assert (started["done"], started["total"]) == (0, 7)
    review = page.until("review")["review"]
    progress = [m for m in page.seen if m["type"] == "review_progress"]
    assert progress[-1] == {"type": "review_progress", "running": False, "done": 7, "total": 7}
    assert [m["done"] for m in progress] == sorted(m["done"] for m in progress)
    assert (review["white"], review["black"], review["result"], review["nodes"]) == (
        "Alice",
        "Bob",
        "0-1",
        NODES,
    )
    assert [m["san"] for m in review["moves"]] == ["e4", "e5", "Qh5", "Nc6", "Qxf7+", "Kxf7"]
    blunder = review["moves"][4]
    assert blunder["judgement"] == "blunder" and blunder["loss"] >= 15 and blunder["uci"] == "h5f7"
    assert blunder["label"] == "3. Qxf7+" and review["moves"][5]["label"] == "3... Kxf7"
    assert blunder["win"] < 20 and blunder["score"]["cp"] < -300  # White's view, after the move
    better = blunder["best"]
    assert better and better[0]["san"] == blunder["best_san"] != "Qxf7+"
    assert len(better[0]["uci"]) >= 4 and better[0]["fen"].count("/") == 7
    assert review["moves"][5]["judgement"] == "best" and review["moves"][5]["best"] == []
    assert len(review["positions"]) == 7 and review["positions"][5]["lastmove"] == "h5f7"
    assert review["positions"][5]["check"] == "e8"
    assert review["critical"][0] == 5 and review["accuracy"]["white"] < review["accuracy"]["black"]
    page.close()
    again = Page(client, "review")  # a reload: the review is still there
    assert again.until("review")["review"] == review
    again.close()


@pytest.mark.parametrize(
    ("op", "quoted"),
    [
        ({"text": "1. e4 e5 2. Ke3 *", "nodes": NODES}, "PGN '1. e4 e5 2. Ke3 *', game 1: illegal san"),
        ({"text": "hello", "nodes": NODES}, "PGN 'hello' holds no game with moves"),
        ({"text": "   ", "nodes": NODES}, "the text is empty"),
        ({"text": "x" * (MAX_TEXT + 1), "nodes": NODES}, f"longer than {MAX_TEXT} characters"),
        ({"text": _shuffle(MAX_REVIEW_PLIES // 2 + 1), "nodes": NODES}, f"at most {MAX_REVIEW_PLIES}"),
        ({"text": HUNG_QUEEN, "nodes": MAX_REVIEW_NODES + 1}, "nodes must be between 1 and"),
        ({"text": HUNG_QUEEN, "nodes": 0}, "nodes must be between 1 and"),
        ({"text": HUNG_QUEEN}, "nodes must be"),
        ({"text": 7, "nodes": NODES}, "text must be a string"),
        ({"text": '[Variant "Atomic"]\n\n1. e4 d5 *', "nodes": NODES}, "'Atomic' is not reviewed"),
        ({"text": HUNG_QUEEN, "nodes": NODES, "game": 2}, "game must be between 1 and 1, got 2"),
        ({"text": HUNG_QUEEN, "nodes": NODES, "game": "2"}, "game must be"),
        ({"text": '[White "a"]\n\n*\n\n' + HUNG_QUEEN, "nodes": NODES, "game": 1}, "has no moves"),
    ],
    ids=["illegal", "not-pgn", "empty", "too-long", "too-many-plies", "too-many-nodes", "no-nodes",
         "nodes-missing", "not-text", "variant", "no-such-game", "game-not-a-number", "game-without-moves"],
)  # fmt: skip
def test_bad_input_and_caps_get_an_error(client: TestClient, op: dict[str, Any], quoted: str) -> None:  # noqa: F811
    page = Page(client, "bad-review")
    page.until("review_progress")
    page.send("review", **op)
    error = page.until("error")
    assert error["op"] == "review" and quoted in error["message"], error
    assert not [m for m in page.seen if m["type"] == "review_progress" and m["running"]]
    page.close()


def test_the_longest_game_allowed_is_read() -> None:
    game, games = read_review_game(_shuffle(MAX_REVIEW_PLIES // 2))
    assert games == 1
    assert sum(1 for _ in game.mainline_moves()) == MAX_REVIEW_PLIES


def test_reviews_at_once_are_capped_and_a_review_stops(client: TestClient) -> None:  # noqa: F811
    long_game = _shuffle(60)
    pages = [Page(client, f"reviewer{i}") for i in range(MAX_REVIEWS + 1)]
    for page in pages[:MAX_REVIEWS]:
        page.until("review_progress")
        page.send("review", text=long_game, nodes=MAX_REVIEW_NODES)
        page.until("review_progress", lambda m: m["running"])
    last = pages[-1]
    last.until("review_progress")
    last.send("review", text=HUNG_QUEEN, nodes=NODES)
    refused = last.until("error")
    assert refused["op"] == "review" and f"running {MAX_REVIEWS} reviews, the most" in refused["message"]
    for page in pages[:MAX_REVIEWS]:
        page.send("review_stop")
        stopped = page.until("review_progress", lambda m: not m["running"])
        assert stopped["done"] < stopped["total"] == 121
    last.send("review", text=HUNG_QUEEN, nodes=NODES)  # a slot is free again
    assert last.until("review")["review"]["moves"][4]["judgement"] == "blunder"
    for page in pages:
        page.close()


def test_a_game_from_a_position_with_black_to_move() -> None:
    text = '[SetUp "1"]\n[FEN "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 30"]\n\n30... Kh8 31. Rd8# 1-0\n'
    view = review_game(read_review_game(text)[0], nodes=5_000)
    assert [m["label"] for m in view["moves"]] == ["30... Kh8", "31. Rd8#"]
    assert view["positions"][0]["turn"] == "black" and view["positions"][2]["check"] == "h8"
    mate = view["moves"][1]
    assert mate["judgement"] == "best" and mate["score"] == {"cp": None, "mate": 0, "text": "#"}
    assert mate["win"] == 100.0


def test_a_game_of_many_is_chosen(client: TestClient) -> None:  # noqa: F811
    page = Page(client, "second-game")
    page.until("review_progress")
    second = '[White "Carol"]\n[Black "Dan"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qe2 *\n'
    page.send("review", text=HUNG_QUEEN + "\n" + second, nodes=NODES, game=2)
    review = page.until("review")["review"]
    assert (review["game"], review["games"], review["white"], review["black"]) == (2, 2, "Carol", "Dan")
    missed = review["moves"][-1]
    assert (
        missed["label"] == "4. Qe2" and missed["best_san"] == "Qxf7#" and missed["best"][0]["san"] == "Qxf7#"
    )
    page.close()

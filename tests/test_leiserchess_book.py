"""``camelpy leiserchess book``: per-side trees by search, reproducible and resumable; bad files
refused with the line quoted; the protocol engine plays from a book."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from camelpy.leiserchess import Board
from camelpy.protocols.leiserchess_book import HEADER, LeiserBook
from camelpy.tools.games.leiserchess_book import build_book


def test_a_book_per_side_holds_that_sides_positions(tmp_path: Path) -> None:
    # Tangerine: its move at the start, then its answer to each of Lavender's replies.
    count = build_book(tmp_path / "t.txt", side="tangerine", plies=3, depth=2, threads=2)
    book = LeiserBook.load(tmp_path / "t.txt")
    assert count == len(book) > 60
    assert all(fen.endswith(" W") for fen in book.entries)
    first = book.probe(Board())
    assert first is not None
    after = Board()
    after.push(first)
    for reply in after.legal_moves[:5]:
        board = after.copy()
        board.push(reply)
        if not board.is_game_over():
            assert book.probe(board) in board.legal_moves
    lavender = build_book(tmp_path / "l.txt", side="lavender", plies=2, depth=2)
    assert all(fen.endswith(" B") for fen in LeiserBook.load(tmp_path / "l.txt").entries)
    assert lavender == len(Board().legal_moves) - 1 or lavender > 50


def test_books_are_reproducible_and_resume(tmp_path: Path) -> None:
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    build_book(one, side="both", plies=2, depth=3, threads=1)
    build_book(two, side="both", plies=2, depth=3, threads=2)
    assert one.read_text() == two.read_text()
    # Cut the file short (an interrupted build): the same command completes it to the same book.
    lines = one.read_text().splitlines(keepends=True)
    one.write_text("".join(lines[: len(lines) // 2]))
    lines_reported: list[str] = []
    build_book(one, side="both", plies=2, depth=3, report=lines_reported.append)
    assert one.read_text().splitlines() == two.read_text().splitlines() and lines_reported
    with pytest.raises(ValueError, match="holds another book"):
        build_book(one, side="both", plies=2, depth=4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "not a camelpy Leiserchess book (its first line is 'hello')"),
        (f"{HEADER} rules=2016\nnot a fen\te0e1\t1\t0\n", "bad book line 2 'not a fen"),
        (f"{HEADER} rules=2016\n8/8/8/8/8/8/8/NN6nn W\ta7a6\t1\t0\n", "'a7a6' is not a legal move there"),
        (f"{HEADER} rules=2016\n8/8/8/8/8/8/8/NN6nn W\ta0R\n", "expected FEN, move, depth and score"),
        (f"{HEADER} rules=2017\n", "a book of unknown rules"),
    ],
)
def test_bad_book_files_are_refused_with_the_line_quoted(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        LeiserBook.load(path)


def test_the_engine_plays_from_its_book_and_keeps_it_on_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    build_book(path, side="tangerine", plies=1, depth=3)
    move = LeiserBook.load(path).entries[Board().fen()].move
    (tmp_path / "bad.txt").write_text("junk\n")
    lines = [
        "setoption name Book value " + str(tmp_path / "bad.txt"),
        "position startpos",
        "go time 60000 inc 500",
        "wait",
        "setoption name Book value none",
        "go depth 1",
        "wait",
        "quit",
    ]
    engine = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "--book", str(path)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = engine.stdout.splitlines()
    assert engine.returncode == 0, engine.stderr
    assert out[0].startswith("info string setoption: not a camelpy Leiserchess book")
    assert out[1:3] == [f"info string book move {move}", f"bestmove {move}"]
    assert out[3].startswith("info depth 1 ") and out[-1].startswith("bestmove ")
    command = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "book", "--out", str(tmp_path / "c.txt"),
         "--side", "lavender", "--plies", "2", "--depth", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert command.returncode == 0 and "entries in" in command.stdout, command.stderr

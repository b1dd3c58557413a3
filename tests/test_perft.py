"""Perft suites: camelpy's leaf counts against the published (Stockfish-verified) counts.

* ``quick.epd`` and ``quick_fischer.epd`` run in full.
* ``standard.epd`` and ``fischer.epd`` run every (position, depth) whose expected count
  is at most ``CI_NODE_LIMIT`` by default, and every listed depth under ``-m slow``.
* ``divide`` must split the same count over exactly python-chess's legal moves.
"""

from __future__ import annotations

from pathlib import Path

import camelpy
import chess
import pytest

from tests.conftest import (
    CI_NODE_LIMIT,
    FISCHER_EPD,
    KIWIPETE_FEN,
    LENIENT_STATUS,
    QUICK_EPD,
    QUICK_FISCHER_EPD,
    STANDARD_EPD,
    PerftCase,
    read_perft_suite,
)

QUICK_CASES = read_perft_suite(QUICK_EPD) + read_perft_suite(QUICK_FISCHER_EPD)
FULL_CASES = read_perft_suite(STANDARD_EPD) + read_perft_suite(FISCHER_EPD)
CI_CASES = tuple(case for case in FULL_CASES if case.capped(CI_NODE_LIMIT))

# divide() is checked at the deepest listed depth whose count stays below this.
DIVIDE_NODE_LIMIT = 20_000


def _ids(cases: tuple[PerftCase, ...]) -> list[str]:
    return [case.source for case in cases]


def _check_counts(case: PerftCase, counts: dict[int, int]) -> None:
    assert counts, f"nothing to check for {case.source}"
    got = {depth: camelpy.perft(case.fen, depth, chess960=case.chess960) for depth in counts}
    assert got == counts, f"perft mismatch for {case.fen!r} (chess960={case.chess960})"


# --- the suite files themselves -------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "entries"),
    [(STANDARD_EPD, 128), (FISCHER_EPD, 960), (QUICK_EPD, 32), (QUICK_FISCHER_EPD, 8)],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_suite_files_parse(path: Path, entries: int) -> None:
    """Guards the reader: entry counts, and every D1 equals python-chess's move count."""
    cases = read_perft_suite(path)
    assert len(cases) == entries
    lenient: list[str] = []
    for case in cases:
        board = chess.Board(case.fen, chess960=case.chess960)
        assert board.status() & ~LENIENT_STATUS == chess.STATUS_VALID, case.source
        if board.status():
            lenient.append(case.source)
        if 1 in case.counts:
            assert board.legal_moves.count() == case.counts[1], case.source
    assert lenient == (["standard.epd:51"] if path == STANDARD_EPD else [])


# --- perft against the suites ---------------------------------------------------------


@pytest.mark.parametrize("case", QUICK_CASES, ids=_ids(QUICK_CASES))
def test_quick_suite(case: PerftCase) -> None:
    _check_counts(case, case.counts)


@pytest.mark.parametrize("case", CI_CASES, ids=_ids(CI_CASES))
def test_full_suite_capped(case: PerftCase) -> None:
    _check_counts(case, case.capped(CI_NODE_LIMIT))


@pytest.mark.slow
@pytest.mark.parametrize("case", FULL_CASES, ids=_ids(FULL_CASES))
def test_full_suite_every_depth(case: PerftCase) -> None:
    _check_counts(case, case.counts)


# --- divide ---------------------------------------------------------------------------


def _divide_depths(case: PerftCase) -> list[int]:
    """Depth 1 and the deepest listed depth whose count is at most DIVIDE_NODE_LIMIT."""
    within = [d for d, n in case.counts.items() if n <= DIVIDE_NODE_LIMIT]
    return sorted({1, max(within, default=1)})


@pytest.mark.parametrize("case", QUICK_CASES, ids=_ids(QUICK_CASES))
def test_divide_matches_suite_and_python_chess(case: PerftCase) -> None:
    board = chess.Board(case.fen, chess960=case.chess960)
    expected_moves = set(board.legal_moves)
    expected_counts = {1: len(expected_moves), **case.counts}
    for depth in _divide_depths(case):
        split = camelpy.divide(case.fen, depth, chess960=case.chess960)
        assert isinstance(split, dict)
        assert all(type(move) is chess.Move for move in split), split
        assert all(type(count) is int and count >= 0 for count in split.values()), split
        assert set(split) == expected_moves, f"divide keys differ for {case.fen!r} depth {depth}"
        assert sum(split.values()) == expected_counts[depth]
        if depth == 1:
            assert set(split.values()) <= {1}


@pytest.mark.parametrize(
    "case",
    QUICK_CASES[:4] + QUICK_CASES[-3:],
    ids=_ids(QUICK_CASES[:4] + QUICK_CASES[-3:]),
)
def test_divide_entries_match_child_perft(case: PerftCase) -> None:
    """Each divide entry equals perft(depth - 1) of the child, played by python-chess."""
    depth = 3
    board = chess.Board(case.fen, chess960=case.chess960)
    split = camelpy.divide(case.fen, depth, chess960=case.chess960)
    assert set(split) == set(board.legal_moves)
    for move, count in split.items():
        board.push(move)
        assert camelpy.perft(board, depth - 1) == count, f"{case.fen} {move.uci()}"
        board.pop()
    if depth in case.counts:
        assert sum(split.values()) == case.counts[depth]


def test_divide_castling_key_convention() -> None:
    """Standard chess keys castling as e1g1/e1c1, Chess960 as king-takes-rook e1h1/e1a1."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    standard = camelpy.divide(fen, 1)
    assert chess.Move.from_uci("e1g1") in standard
    assert chess.Move.from_uci("e1c1") in standard
    assert chess.Move.from_uci("e1h1") not in standard
    chess960 = camelpy.divide(fen, 1, chess960=True)
    assert chess.Move.from_uci("e1h1") in chess960
    assert chess.Move.from_uci("e1a1") in chess960
    assert chess.Move.from_uci("e1g1") not in chess960
    assert set(chess960) == set(chess.Board(fen, chess960=True).legal_moves)
    assert len(standard) == len(chess960) == 26


# --- inputs: chess.Board, depth 0, terminal positions, chess960 flag ------------------


def test_perft_accepts_board_and_leaves_it_untouched() -> None:
    board = chess.Board()
    for uci in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]:
        board.push_uci(uci)
    before = (board.fen(), list(board.move_stack))
    expected = [1, 37, 1042, 38236]  # computed with python-chess 1.11.2
    assert [camelpy.perft(board, d) for d in range(4)] == expected
    assert [camelpy.perft(board.fen(), d) for d in range(4)] == expected
    assert (board.fen(), list(board.move_stack)) == before


def test_perft_board_chess960_flag_is_used() -> None:
    case = read_perft_suite(QUICK_FISCHER_EPD)[0]
    board = chess.Board(case.fen, chess960=True)
    for depth in (1, 2, 3):
        assert camelpy.perft(board, depth) == case.counts[depth]
    # divide() on a Chess960 board keys castling as king-takes-rook, like the board does.
    assert set(camelpy.divide(board, 1)) == set(board.legal_moves)


def test_divide_chess960_argument_overrides_board() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert chess.Move.from_uci("e1g1") in camelpy.divide(board, 1)
    assert chess.Move.from_uci("e1h1") in camelpy.divide(board, 1, chess960=True)
    board.chess960 = True
    assert chess.Move.from_uci("e1h1") in camelpy.divide(board, 1)
    assert chess.Move.from_uci("e1g1") in camelpy.divide(board, 1, chess960=False)


@pytest.mark.parametrize("fen", [camelpy.STARTING_FEN, KIWIPETE_FEN])
def test_depth_zero_is_one(fen: str) -> None:
    assert camelpy.perft(fen, 0) == 1


@pytest.mark.parametrize(
    ("fen", "counts"),
    [
        # fool's mate: white is checkmated
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", [1, 0, 0]),
        # stalemate: black to move has no move
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", [1, 0, 0]),
    ],
    ids=["checkmate", "stalemate"],
)
def test_terminal_positions(fen: str, counts: list[int]) -> None:
    assert [camelpy.perft(fen, d) for d in range(len(counts))] == counts
    assert camelpy.divide(fen, 1) == {}


def test_starting_fen_constant() -> None:
    assert camelpy.STARTING_FEN == chess.STARTING_FEN
    assert camelpy.perft(camelpy.STARTING_FEN, 3) == 8902

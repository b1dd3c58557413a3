"""Bulk-counted perft, camelpy against other move generators callable from Python.

Group ``perft-native``: each library's fastest way to count leaves from Python.

* ``camelpy.perft`` -- Rust, bulk counting at the last ply, one call.
* ``chessmg`` -- C++ (surge-based), ``chessmg.ChessPosition(fen).perft(depth)``, one call.
* ``cozy_chess`` -- cozy-chess-py exposes no perft, so the tree is walked *in Python*
  (``Board.__copy__`` + ``play_unchecked`` per move) and the last ply is bulk-counted with
  ``sum(len(pm) for pm in board.generate_piece_moves())``; Python overhead included.
* ``python-chess`` -- pure Python push/pop walk, bulk ``board.legal_moves.count()`` at the
  last ply, at a much smaller depth (compare ``leaves_per_s`` in ``extra_info``).

Timed depths: start position 6 (119,060,324 leaves), Kiwipete 5 (193,690,690); python-chess
4 and 3. Untimed (plain ``pytest``): 4 and 3; python-chess 3 and 2.
Run: ``pytest benches/bench_perft.py --benchmark-enable --benchmark-group-by=group,param``.
"""

from __future__ import annotations

import camelpy
import chess
import chessmg
import cozy_chess
import pytest

from benches.bench_walk import python_chess_walk_bulk
from benches.conftest import POSITIONS, pick_depth, run_counted

pytestmark = pytest.mark.benchmark(group="perft-native")

NATIVE_DEPTHS = {"startpos": (6, 4), "kiwipete": (5, 3)}  # (timed, untimed)
PYTHON_CHESS_DEPTHS = {"startpos": (4, 3), "kiwipete": (3, 2)}


def cozy_perft(board: cozy_chess.Board, depth: int) -> int:
    if depth == 1:
        return sum(len(piece_moves) for piece_moves in board.generate_piece_moves())
    total = 0
    for move in board.generate_moves():
        child = board.__copy__()
        child.play_unchecked(move)
        total += cozy_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("position", POSITIONS)
def test_camelpy(benchmark, position: str) -> None:
    timed, untimed = NATIVE_DEPTHS[position]
    depth, expected = pick_depth(benchmark, position, timed=timed, untimed=untimed)
    fen = POSITIONS[position]
    run_counted(
        benchmark,
        camelpy.perft,
        fen,
        depth,
        expected=expected,
        depth=depth,
        engine="camelpy",
    )


@pytest.mark.parametrize("position", POSITIONS)
def test_chessmg(benchmark, position: str) -> None:
    timed, untimed = NATIVE_DEPTHS[position]
    depth, expected = pick_depth(benchmark, position, timed=timed, untimed=untimed)
    fen = POSITIONS[position]

    def target() -> int:
        return chessmg.ChessPosition(fen).perft(depth)

    run_counted(
        benchmark,
        target,
        expected=expected,
        depth=depth,
        engine=f"chessmg {chessmg.__version__}",
    )


@pytest.mark.parametrize("position", POSITIONS)
def test_cozy_chess(benchmark, position: str) -> None:
    timed, untimed = NATIVE_DEPTHS[position]
    depth, expected = pick_depth(benchmark, position, timed=timed, untimed=untimed)
    fen = POSITIONS[position]

    def target() -> int:
        return cozy_perft(cozy_chess.Board.from_fen(fen), depth)

    run_counted(
        benchmark,
        target,
        expected=expected,
        depth=depth,
        engine="cozy_chess (Python walk, bulk)",
    )


@pytest.mark.parametrize("position", POSITIONS)
def test_python_chess(benchmark, position: str) -> None:
    timed, untimed = PYTHON_CHESS_DEPTHS[position]
    depth, expected = pick_depth(benchmark, position, timed=timed, untimed=untimed)
    fen = POSITIONS[position]

    def target() -> int:
        return python_chess_walk_bulk(chess.Board(fen), depth)

    run_counted(
        benchmark,
        target,
        expected=expected,
        depth=depth,
        engine=f"python-chess {chess.__version__}",
    )

"""Python-level tree walks: the cost of the Python API itself, per move made.

Group ``walk``: a recursive walk that makes every move and counts the leaves,
``for m in legal_moves(): push(m); walk(depth - 1); pop()``.

* camelpy: ``Position.legal_moves()`` / ``push`` / ``pop``.
* python-chess: ``Board.legal_moves`` / ``push`` / ``pop``.
* cozy_chess: no undo, so copy-make: ``Board.generate_moves()``, ``Board.__copy__()``,
  ``play_unchecked(move)`` on the copy.

Group ``walk-bulk``: the same walk, but the last ply only counts the legal moves
(``len(pos.legal_moves())``, ``board.legal_moves.count()``, ``len(board.generate_moves())``).

Timed: start position depth 4 (197,281 leaves), Kiwipete depth 3 (97,862).
Untimed (plain ``pytest``): depth 3 (8,902) and 2 (2,039).
"""

from __future__ import annotations

import camelpy
import chess
import cozy_chess
import pytest

from benches.conftest import POSITIONS, pick_depth, run_counted

DEPTHS = {"startpos": (4, 3), "kiwipete": (3, 2)}  # (timed, untimed)


def camelpy_walk(pos: camelpy.Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in pos.legal_moves():
        pos.push(move)
        total += camelpy_walk(pos, depth - 1)
        pos.pop()
    return total


def python_chess_walk(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_walk(board, depth - 1)
        board.pop()
    return total


def cozy_walk(board: cozy_chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.generate_moves():
        child = board.__copy__()
        child.play_unchecked(move)
        total += cozy_walk(child, depth - 1)
    return total


def camelpy_walk_bulk(pos: camelpy.Position, depth: int) -> int:
    if depth == 1:
        return len(pos.legal_moves())
    total = 0
    for move in pos.legal_moves():
        pos.push(move)
        total += camelpy_walk_bulk(pos, depth - 1)
        pos.pop()
    return total


def python_chess_walk_bulk(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_walk_bulk(board, depth - 1)
        board.pop()
    return total


def cozy_walk_bulk(board: cozy_chess.Board, depth: int) -> int:
    if depth == 1:
        return len(board.generate_moves())
    total = 0
    for move in board.generate_moves():
        child = board.__copy__()
        child.play_unchecked(move)
        total += cozy_walk_bulk(child, depth - 1)
    return total


ENGINES = {
    "camelpy": (lambda fen: camelpy.Position(fen), camelpy_walk, camelpy_walk_bulk),
    "python-chess": (
        lambda fen: chess.Board(fen),
        python_chess_walk,
        python_chess_walk_bulk,
    ),
    "cozy_chess": (
        lambda fen: cozy_chess.Board.from_fen(fen),
        cozy_walk,
        cozy_walk_bulk,
    ),
}


def _bench(benchmark, engine: str, position: str, *, bulk: bool) -> None:
    timed, untimed = DEPTHS[position]
    depth, expected = pick_depth(benchmark, position, timed=timed, untimed=untimed)
    make, walk, walk_bulk = ENGINES[engine]
    fen = POSITIONS[position]
    fn = walk_bulk if bulk else walk

    def target() -> int:
        return fn(make(fen), depth)

    run_counted(benchmark, target, expected=expected, depth=depth, engine=engine)


@pytest.mark.benchmark(group="walk")
@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("engine", ENGINES)
def test_walk(benchmark, engine: str, position: str) -> None:
    _bench(benchmark, engine, position, bulk=False)


@pytest.mark.benchmark(group="walk-bulk")
@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("engine", ENGINES)
def test_walk_bulk(benchmark, engine: str, position: str) -> None:
    _bench(benchmark, engine, position, bulk=True)

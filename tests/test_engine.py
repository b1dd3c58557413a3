"""camelpy.Engine and camelpy.search: the Rust search from Python, returning python-chess objects."""

from __future__ import annotations

import threading
import time

import camelpy
import chess
import chess.engine
import pytest


def test_search_finds_mate_in_two() -> None:
    result = camelpy.search("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", depth=6)
    assert result.best_move == chess.Move.from_uci("a1a6")
    assert result.score == chess.engine.PovScore(chess.engine.Mate(2), chess.WHITE)
    board = chess.Board("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1")
    for move in result.pv:
        board.push(move)
    assert board.is_checkmate(), "the mate PV ends in mate"


def test_board_with_move_stack_and_info_callback() -> None:
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6"]:
        board.push_uci(uci)
    seen: list[chess.engine.InfoDict] = []
    engine = camelpy.Engine(hash_mb=8)
    result = engine.search(board, depth=6, info=seen.append)
    assert result.best_move in board.legal_moves
    assert [info["depth"] for info in seen] == list(range(1, 7))
    for info in seen:
        assert isinstance(info["score"], chess.engine.PovScore)
        replay = board.copy()
        for move in info["pv"]:
            assert move in replay.legal_moves
            replay.push(move)
    assert board.move_stack[-1] == chess.Move.from_uci("b8c6"), "the caller's board is untouched"


def test_stop_from_another_thread() -> None:
    engine = camelpy.Engine()
    threading.Timer(0.2, engine.stop).start()
    start = time.perf_counter()
    result = engine.search(chess.Board())  # no limit: runs until stopped
    assert time.perf_counter() - start < 5
    assert result.best_move in chess.Board().legal_moves


def test_limits_and_root_moves() -> None:
    engine = camelpy.Engine()
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    assert engine.search(chess.Board(), depth=4, moves=only).best_move in only
    result = engine.search(chess.Board(), nodes=5000)
    assert result.nodes <= 6000
    result = engine.search(chess.Board(), ms=100)
    assert result.time < 2


def test_no_legal_move_and_bad_input() -> None:
    mated = camelpy.search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert mated.best_move is None and mated.score.relative == chess.engine.Mate(0)
    stalemate = camelpy.search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert stalemate.best_move is None and stalemate.score.relative == chess.engine.Cp(0)
    with pytest.raises(camelpy.InvalidFenError):
        camelpy.search("8/8/8 w - - 0 1", depth=2)
    with pytest.raises(ValueError):
        camelpy.search(chess.Board(), depth=0)
    with pytest.raises(ValueError):
        camelpy.Engine(hash_mb=0)


def test_evaluate_and_trace() -> None:
    engine = camelpy.Engine()
    start = engine.evaluate(chess.Board())
    assert start == engine.evaluate(chess.Board().mirror()), "symmetric: only the tempo remains"
    assert engine.evaluate("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 500
    assert "Material" in engine.eval_trace(chess.Board())


def test_new_game_and_clear_hash_keep_working() -> None:
    engine = camelpy.Engine()
    first = engine.search(chess.Board(), depth=5)
    engine.new_game()
    engine.clear_hash()
    again = engine.search(chess.Board(), depth=5)
    assert (first.best_move, first.nodes) == (again.best_move, again.nodes), "same search after a reset"

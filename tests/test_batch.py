"""Batch analysis (camelpy.Engine.analyse_many / camelpy.batch.analyse_many): input order, per-item
errors, determinism whatever the number of threads, progress reporting, limits; and pickling of what
results and positions are made of, across a multiprocessing pool."""

from __future__ import annotations

import multiprocessing
import pickle

import camelpy
import chess
import chess.engine
import pytest
from camelpy.batch import BATCH_HASH_MB, analyse_many

from tests.conftest import read_balanced_openings

OPENINGS = [line.split(" id ")[0].split(";")[0].strip() + " 0 1" for line in read_balanced_openings()[:24]]


def _key(result: camelpy.SearchResult) -> tuple[object, ...]:
    """Everything but the timings."""
    return (result.best_move, result.score, result.depth, result.seldepth, result.nodes, result.pv)


def test_results_in_input_order_with_errors_in_place() -> None:
    illegal_stack = chess.Board()
    illegal_stack.push(chess.Move.from_uci("e2e5"))  # python-chess does not check push()
    items: list[object] = [
        camelpy.STARTING_FEN,
        "not a fen",
        chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        chess.Board("8/8/8/8/8/8/8/8 w - - 0 1"),  # python-chess builds it; it has no kings
        illegal_stack,
        42,
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  # checkmated: a result with no move
    ]
    results = analyse_many(items, chess.engine.Limit(depth=4), threads=2)  # type: ignore[arg-type]
    assert len(results) == len(items)
    first, bad_fen, mate, no_kings, illegal, wrong_type, mated = results
    assert (
        isinstance(first, camelpy.SearchResult)
        and first.best_move is not None
        and first.best_move in chess.Board().legal_moves
    )
    assert isinstance(bad_fen, camelpy.InvalidFenError) and "not a fen" in str(bad_fen)
    assert isinstance(mate, camelpy.SearchResult) and mate.best_move == chess.Move.from_uci("d1d8")
    assert isinstance(no_kings, camelpy.InvalidFenError)
    assert isinstance(illegal, camelpy.IllegalMoveError) and "e2e5" in str(illegal)
    assert isinstance(wrong_type, TypeError)
    assert isinstance(mated, camelpy.SearchResult) and mated.best_move is None
    assert mated.score.relative == chess.engine.Mate(0)


def test_node_limited_batches_do_not_depend_on_the_threads() -> None:
    limit = chess.engine.Limit(nodes=3000)
    one = analyse_many(OPENINGS, limit, threads=1)
    three = analyse_many(iter(OPENINGS), limit, threads=3)
    assert [_key(r) for r in one] == [_key(r) for r in three]  # type: ignore[arg-type]
    # ...and each equals a fresh engine with the same table size, one position at a time.
    for fen, result in zip(OPENINGS[:6], one):
        alone = camelpy.Engine(hash_mb=BATCH_HASH_MB).search(fen, nodes=3000)
        assert _key(alone) == _key(result)  # type: ignore[arg-type]
        assert result.nodes <= 3000 + 1024  # type: ignore[union-attr]


def test_engine_method_uses_the_engines_weights() -> None:
    engine = camelpy.Engine(eval="classical")  # the weights are the classical evaluation's
    fen = OPENINGS[3]
    default = engine.analyse_many([fen], chess.engine.Limit(depth=5))[0]
    engine._native.set_param("pawn_value_mg", 400)
    changed = engine.analyse_many([fen], chess.engine.Limit(depth=5))[0]
    expected = camelpy.Engine(hash_mb=BATCH_HASH_MB, eval="classical")
    expected._native.set_param("pawn_value_mg", 400)
    assert _key(changed) == _key(expected.search(fen, depth=5))  # type: ignore[arg-type]
    assert _key(changed) != _key(default)  # type: ignore[arg-type]


def test_engine_method_uses_the_engines_search_settings() -> None:
    engine = camelpy.Engine()
    fen = OPENINGS[3]
    default = engine.analyse_many([fen], chess.engine.Limit(depth=6))[0]
    engine.set_search_param("improving", 1)
    changed = engine.analyse_many([fen], chess.engine.Limit(depth=6))[0]
    expected = camelpy.Engine(hash_mb=BATCH_HASH_MB)
    expected.set_search_param("improving", 1)
    assert _key(changed) == _key(expected.search(fen, depth=6))  # type: ignore[arg-type]
    assert changed.nodes != default.nodes  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown search parameter 'nope'"):
        analyse_many([fen], chess.engine.Limit(depth=1), search_params=[("nope", 1)])


def test_time_and_depth_limits() -> None:
    results = analyse_many(OPENINGS[:4], chess.engine.Limit(time=0.02), threads=2)
    assert all(isinstance(r, camelpy.SearchResult) and r.depth >= 1 for r in results)
    results = analyse_many(OPENINGS[:4], chess.engine.Limit(depth=3), threads=2)
    assert [r.depth for r in results] == [3, 3, 3, 3]  # type: ignore[union-attr]
    assert analyse_many([], chess.engine.Limit(depth=3)) == []


def test_bad_limits_and_arguments() -> None:
    with pytest.raises(ValueError, match="limit"):
        analyse_many(OPENINGS[:1], chess.engine.Limit())
    with pytest.raises(ValueError, match="limit"):
        analyse_many(OPENINGS[:1], chess.engine.Limit(white_clock=10, black_clock=10))
    with pytest.raises(TypeError, match="Limit"):
        analyse_many(OPENINGS[:1], {"depth": 3})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        analyse_many(OPENINGS[:1], chess.engine.Limit(depth=1), threads=0)
    with pytest.raises(ValueError, match="depth"):
        analyse_many(OPENINGS[:1], chess.engine.Limit(depth=0))
    with pytest.raises(ValueError, match="no_such_weight"):
        analyse_many(OPENINGS[:1], chess.engine.Limit(depth=1), params=[("no_such_weight", 1)])
    with pytest.raises(TypeError, match="progress"):
        analyse_many(OPENINGS[:1], chess.engine.Limit(depth=1), progress="yes")  # type: ignore[arg-type]


def test_progress_callback_and_bar(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[int, int]] = []
    limit = chess.engine.Limit(nodes=2000)
    analyse_many(OPENINGS, limit, threads=2, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (len(OPENINGS), len(OPENINGS))
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    import tqdm  # noqa: F401  - the progress extra, installed by the README's test command

    analyse_many(OPENINGS[:4], chess.engine.Limit(nodes=500), threads=2, progress=True)
    assert "4/4" in capsys.readouterr().err


def test_a_raising_progress_callback_stops_the_batch() -> None:
    def fail(done: int, total: int) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        analyse_many(OPENINGS, chess.engine.Limit(depth=20), threads=2, progress=fail)


def test_results_positions_and_errors_pickle() -> None:
    results = analyse_many([OPENINGS[0], "bad fen"], chess.engine.Limit(depth=4))
    restored = pickle.loads(pickle.dumps(results))
    assert restored[0] == results[0]
    assert type(restored[1]) is camelpy.InvalidFenError and str(restored[1]) == str(results[1])
    searched = camelpy.Engine().search(chess.Board(), depth=3, multipv=2)
    assert pickle.loads(pickle.dumps(searched)) == searched
    pos = camelpy.Position(OPENINGS[1])
    pos.push(pos.legal_moves()[0])
    copy = pickle.loads(pickle.dumps(pos))
    assert copy == pos and copy.move_stack == pos.move_stack


def _best_move(pos: camelpy.Position) -> camelpy.SearchResult:
    return camelpy.Engine().search(pos.to_board(), nodes=2000)


def test_multiprocessing_pool_moves_positions_and_results() -> None:
    positions = [camelpy.Position(fen) for fen in OPENINGS[:4]]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_best_move, positions)
    for pos, result in zip(positions, results):
        assert isinstance(result, camelpy.SearchResult)
        assert result.best_move is not None and result.best_move in pos.to_board().legal_moves

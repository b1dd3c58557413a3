"""Multi-threaded search (LazySMP) from Python: legal moves under every limit, the info callback only
on the calling thread, stop from another thread, thread and hash changes without leaks, and fork
safety for multiprocessing."""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from pathlib import Path

import camelpy
import chess
import chess.engine
import pytest

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


@pytest.mark.parametrize("threads", [2, 3])
def test_threaded_search_reaches_the_depth_with_a_legal_line(threads: int) -> None:
    engine = camelpy.Engine(threads=threads)
    assert engine.threads == threads
    board = chess.Board(KIWIPETE)
    result = engine.search(board, depth=7)
    assert result.depth == 7
    assert result.best_move is not None and result.best_move in board.legal_moves
    for move in result.pv:
        assert move in board.legal_moves
        board.push(move)
    mate = engine.search("r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1", depth=6)
    assert (mate.best_move, mate.score.white()) == (chess.Move.from_uci("h5h6"), chess.engine.Mate(2))


def test_info_callback_runs_on_the_calling_thread_only() -> None:
    # The native guarantee: helpers never call back; the thread that called search() does.
    caller = threading.get_ident()
    seen: list[tuple[int, int]] = []

    def info(d: camelpy._core.IterationInfo | camelpy._core.CurrMoveInfo) -> None:
        seen.append((threading.get_ident(), d.nodes))

    camelpy.Engine(threads=3)._native.search(ITALIAN, [], False, depth=8, info=info)
    assert seen and all(ident == caller for ident, _ in seen)
    nodes = [n for _, n in seen]
    assert nodes == sorted(nodes), "node counts (all threads) only grow"


def test_node_limit_counts_all_threads() -> None:
    result = camelpy.Engine(threads=2).search(KIWIPETE, nodes=40_000)
    # Each thread publishes its count every 1024 nodes and stops at its next check after the sum
    # reaches the limit.
    assert 40_000 <= result.nodes <= 40_000 + 2 * 1024 * 2 + 1000


def test_multipv_with_threads() -> None:
    lines = camelpy.Engine(threads=2).search(ITALIAN, depth=6, multipv=3).lines
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    assert len({line["pv"][0] for line in lines}) == 3


def test_stop_from_another_thread_ends_a_threaded_search() -> None:
    engine = camelpy.Engine(threads=3)
    timer = threading.Timer(0.2, engine.stop)
    start = time.monotonic()
    timer.start()
    result = engine.search(chess.Board())  # no limit: runs until stopped
    assert time.monotonic() - start < 5
    assert result.best_move is not None and result.best_move in chess.Board().legal_moves


def test_play_with_a_time_limit_for_matches() -> None:
    # What a 2-threads-vs-1 match does: python-chess play() with a clock.
    engine = camelpy.Engine(threads=2)
    board = chess.Board()
    for _ in range(6):
        limit = chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.02, black_inc=0.02)
        move = engine.play(board, limit).move
        assert move is not None and move in board.legal_moves
        board.push(move)


def test_thread_count_is_validated_and_changes_between_searches() -> None:
    engine = camelpy.Engine()
    for threads in (4, 1, 2):
        engine.threads = threads
        assert engine.threads == threads
        assert engine.search(ITALIAN, depth=4).best_move is not None
    with pytest.raises(ValueError, match="threads"):
        engine.threads = 0
    with pytest.raises(ValueError, match="threads"):
        camelpy.Engine(threads=257)


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS line")


RESIZE_ROUNDS = 1000
"""Hash resizes and thread changes in the leak test (the issue asks for 1,000)."""
WARM_UP_ROUNDS = 100
"""Rounds before the first reading: the allocator sets up per-thread arenas once, then reuses them
(measured: RSS grows ~11 MB over the first few hundred rounds, then stays flat for thousands)."""
RSS_GROWTH_BOUND_KIB = 16 * 1024
"""Generous: the largest table in the loop is 4 MiB, and a leak of even one table per round would
grow RSS by gigabytes."""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmRSS from /proc")
def test_resizes_and_thread_changes_do_not_leak() -> None:
    engine = camelpy.Engine(hash_mb=4, threads=4)
    for i in range(WARM_UP_ROUNDS):
        engine.threads = 1 + i % 4
        engine.search(ITALIAN, depth=1)
    before = _rss_kib()
    for i in range(RESIZE_ROUNDS):
        engine.hash_mb = 1 + i % 4
        engine.threads = 1 + i % 4
        engine.search(ITALIAN, depth=1)  # the search resizes the per-thread states
    after = _rss_kib()
    print(f"VmRSS before {before} KiB, after {RESIZE_ROUNDS} resizes {after} KiB")
    assert after - before < RSS_GROWTH_BOUND_KIB, (before, after)


def _search_in_child(fen: str) -> str:
    result = camelpy.Engine(threads=2).search(fen, depth=5)
    assert result.best_move is not None
    return result.best_move.uci()


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_threaded_search_survives_fork() -> None:
    # Threads live only during a search, so forking after one cannot inherit a parked pool.
    parent = camelpy.Engine(threads=2)
    parent.search(ITALIAN, depth=5)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        moves = pool.map(_search_in_child, [ITALIAN, KIWIPETE])
    assert chess.Move.from_uci(moves[0]) in chess.Board(ITALIAN).legal_moves
    assert chess.Move.from_uci(moves[1]) in chess.Board(KIWIPETE).legal_moves

"""Threads: LazySMP speed-up on the bench positions, and batch analysis against the alternatives.

Group ``smp-nps``: each bench position searched for a fixed time with 1 and 2 threads (fresh tables
per position); ``extra_info`` holds nodes per second (all threads).

Group ``smp-time-to-depth``: the same positions to a fixed depth with 1 and 2 threads; the time is
the benchmark's.

Group ``analyse-many``: the first positions of ``balanced.epd`` at a fixed node limit, three ways:
``camelpy.batch.analyse_many`` (one worker per CPU), a sequential loop of ``camelpy.Engine.search``,
and python-chess ``SimpleEngine.analyse`` with Stockfish (one process, ``Threads=1``);
``extra_info`` holds positions per second.

Timed (``--benchmark-enable``): 44 positions × 250 ms, depth 11, 1,000 positions × 5,000 nodes.
Untimed (plain ``pytest``): 4 positions × 20 ms, depth 5, 16 positions × 1,000 nodes.
``python -m benches.bench_threads [nps] [ttd] [batch]`` prints the timed figures with the 2-thread
ratios (nodes per CPU-second too: on a machine whose cores are shared, wall-clock scaling is capped
by the cores actually free).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import camelpy
import chess
import chess.engine
import pytest
from camelpy import _core
from camelpy.batch import analyse_many

BALANCED_EPD = Path(__file__).resolve().parent.parent / "tests" / "data" / "balanced.epd"
STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None
)

SMP_MS = (250, 20)
"""Milliseconds per bench position for the nodes/second comparison (timed, untimed)."""
SMP_POSITIONS = (len(_core.BENCH_FENS), 4)
"""How many bench positions the threaded benchmarks use (timed: all)."""
TTD_DEPTH = (11, 5)
"""Depth for time-to-depth: the bench depth, a few seconds per configuration."""
BATCH_NODES = (5_000, 1_000)
"""Node limit per position in the batch comparison."""
BATCH_POSITIONS = (1_000, 16)
"""Positions of balanced.epd in the batch comparison (timed: the whole file)."""
NODE_SLACK = 2_048
"""Stockfish and camelpy both check the node limit every ~1,024 nodes, so a search may overshoot."""


def _pick(benchmark: Any, pair: tuple[int, int]) -> int:
    return pair[1] if benchmark.disabled else pair[0]


def balanced_fens(count: int) -> list[str]:
    """The first *count* openings of balanced.epd as FENs."""
    with BALANCED_EPD.open(encoding="utf-8") as f:
        return [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()][:count]


def smp_nps(threads: int, positions: int, ms: int) -> tuple[int, float, float]:
    """Total nodes, wall seconds and CPU seconds (all threads) for *ms* per bench position with
    *threads* threads. On a machine whose cores are busy with other work the wall-clock rate cannot
    scale; nodes per CPU-second still shows what the threads cost each other."""
    engine = camelpy.Engine(threads=threads)
    nodes, seconds, cpu = 0, 0.0, 0.0
    for fen in _core.BENCH_FENS[:positions]:
        engine.new_game()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = engine.search(fen, ms=ms)
        seconds += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        assert result.best_move is not None and result.best_move in chess.Board(fen).legal_moves
        nodes += result.nodes
    return nodes, seconds, cpu


def time_to_depth(threads: int, positions: int, depth: int) -> int:
    """Searches the bench positions to *depth*; returns the total nodes."""
    engine = camelpy.Engine(threads=threads)
    nodes = 0
    for fen in _core.BENCH_FENS[:positions]:
        engine.new_game()
        result = engine.search(fen, depth=depth)
        assert result.depth == depth or result.best_move is None
        nodes += result.nodes
    return nodes


def check_nodes(nodes: list[int], limit: int) -> None:
    """Every search stopped near the limit, and they did search (a node-limited search reports the
    count of its last finished iteration, so the mean sits below the limit)."""
    assert max(nodes) <= limit + NODE_SLACK, max(nodes)
    assert sum(nodes) / len(nodes) >= limit / 4, sum(nodes) / len(nodes)


def batch_camelpy(fens: list[str], nodes: int) -> list[int]:
    results = analyse_many(fens, chess.engine.Limit(nodes=nodes))
    return [r.nodes for r in results if isinstance(r, camelpy.SearchResult)]


def loop_camelpy(fens: list[str], nodes: int) -> list[int]:
    engine = camelpy.Engine()
    return [engine.search(fen, nodes=nodes).nodes for fen in fens]


def loop_stockfish(engine: chess.engine.SimpleEngine, fens: list[str], nodes: int) -> list[int]:
    limit = chess.engine.Limit(nodes=nodes)
    return [engine.analyse(chess.Board(fen), limit).get("nodes", 0) for fen in fens]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="smp-nps")
def bench_smp_nps(benchmark: Any, threads: int) -> None:
    positions, ms = _pick(benchmark, SMP_POSITIONS), _pick(benchmark, SMP_MS)
    nodes, seconds, cpu = benchmark.pedantic(smp_nps, args=(threads, positions, ms), rounds=1, iterations=1)
    assert nodes > 0
    benchmark.extra_info.update(
        threads=threads,
        nodes=nodes,
        nps=round(nodes / seconds),
        nodes_per_cpu_s=round(nodes / max(cpu, 1e-9)),
    )


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="smp-time-to-depth")
def bench_smp_time_to_depth(benchmark: Any, threads: int) -> None:
    positions, depth = _pick(benchmark, SMP_POSITIONS), _pick(benchmark, TTD_DEPTH)
    nodes = benchmark.pedantic(time_to_depth, args=(threads, positions, depth), rounds=1, iterations=1)
    assert nodes > 0
    benchmark.extra_info.update(threads=threads, depth=depth, nodes=nodes)


@pytest.mark.parametrize(
    "engine",
    [
        "camelpy-analyse-many",
        "camelpy-search-loop",
        pytest.param("stockfish-simple-engine", marks=pytest.mark.needs_stockfish),
    ],
)
@pytest.mark.benchmark(group="analyse-many")
def bench_analyse_many(benchmark: Any, engine: str) -> None:
    count, limit = _pick(benchmark, BATCH_POSITIONS), _pick(benchmark, BATCH_NODES)
    fens = balanced_fens(count)
    if engine == "stockfish-simple-engine":
        assert STOCKFISH is not None, (
            "no stockfish binary: apt-get install stockfish (the README's test command does)"
        )
        with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
            sf.configure({"Threads": 1, "Hash": 16})
            nodes = benchmark.pedantic(loop_stockfish, args=(sf, fens, limit), rounds=1, iterations=1)
    else:
        run = batch_camelpy if engine == "camelpy-analyse-many" else loop_camelpy
        nodes = benchmark.pedantic(run, args=(fens, limit), rounds=1, iterations=1)
    assert len(nodes) == count
    check_nodes(nodes, limit)
    benchmark.extra_info.update(engine=engine, positions=count, nodes_limit=limit)
    if benchmark.stats:
        benchmark.extra_info["positions_per_s"] = round(count / benchmark.stats.stats.min, 1)


def main(parts: tuple[str, ...] = ("nps", "ttd", "batch")) -> None:
    """Prints the timed figures: nodes/second and time-to-depth with 1 and 2 threads, and the batch
    comparison in positions per second."""
    positions, ms, depth = SMP_POSITIONS[0], SMP_MS[0], TTD_DEPTH[0]
    nps, per_cpu = {}, {}
    for threads in (1, 2) if "nps" in parts else ():
        nodes, seconds, cpu = smp_nps(threads, positions, ms)
        nps[threads], per_cpu[threads] = nodes / seconds, nodes / cpu
        print(
            f"nps       threads={threads}: {nodes} nodes in {seconds:.2f} s = {nps[threads]:,.0f} nodes/s; "
            f"{cpu:.2f} CPU-s = {per_cpu[threads]:,.0f} nodes/CPU-s ({cpu / seconds:.2f} cores busy)"
        )
    if nps:
        ratio, cpu_ratio = nps[2] / nps[1], per_cpu[2] / per_cpu[1]
        print(f"nps ratio 2/1: {ratio:.2f}; nodes per CPU-second ratio 2/1: {cpu_ratio:.2f}")
    ttd = {}
    for threads in (1, 2) if "ttd" in parts else ():
        start = time.perf_counter()
        nodes = time_to_depth(threads, positions, depth)
        ttd[threads] = time.perf_counter() - start
        print(f"depth {depth}  threads={threads}: {ttd[threads]:.2f} s ({nodes} nodes)")
    if ttd:
        print(f"time-to-depth ratio 1/2: {ttd[1] / ttd[2]:.2f}")
    if "batch" not in parts:
        return
    count, limit = BATCH_POSITIONS[0], BATCH_NODES[0]
    fens = balanced_fens(count)
    runs: dict[str, Any] = {
        "camelpy analyse_many": lambda: batch_camelpy(fens, limit),
        "camelpy Engine.search loop": lambda: loop_camelpy(fens, limit),
    }
    if STOCKFISH is not None:
        sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        sf.configure({"Threads": 1, "Hash": 16})
        runs["stockfish SimpleEngine.analyse"] = lambda: loop_stockfish(sf, fens, limit)
    for name, run in runs.items():
        start = time.perf_counter()
        nodes = run()
        seconds = time.perf_counter() - start
        check_nodes(nodes, limit)
        print(f"{name:32} {count} positions x {limit} nodes: {seconds:.2f} s = {count / seconds:,.1f} pos/s")
    if STOCKFISH is not None:
        sf.quit()


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or ("nps", "ttd", "batch"))

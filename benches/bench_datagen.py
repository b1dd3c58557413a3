"""Self-play data generation: positions per second with 1 and 2 workers, and how much of the search's
speed the generator keeps.

Group ``datagen``: :func:`camelpy.data.generate` with 1 and 2 workers at a fixed node budget per move;
``extra_info`` holds positions/s, nodes/s (all workers) and nodes per CPU-second. Each run asserts its
counts: every game written, and every position searched to about the node budget.

``python -m benches.bench_datagen [games]`` prints the figures next to ``camelpy bench``'s nodes/s
(one thread, the fixed bench) measured in the same run, and the ratio per worker: the generator's
nodes/s per worker over the single-threaded search's (the issue's aim: at least 90 %). Nodes per
CPU-second are printed too: on a machine whose cores are shared, the wall-clock rate of 2 workers is
capped by the cores actually free.

Timed (``--benchmark-enable``): 40 games × 5,000 nodes per move. Untimed (plain ``pytest``): 2 games ×
500 nodes.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from camelpy import _core
from camelpy.data import Summary, generate

GAMES = (40, 2)
"""Games per run (timed, untimed)."""
NODES = (5_000, 500)
"""Nodes per move (timed: the generator's default)."""
SEED = 1
"""The seed: the same games in every run, so runs compare."""
NODE_SLACK = 64
"""The search checks its node limit at every node: a search ends within a few nodes of it."""


def _pick(benchmark: Any, pair: tuple[int, int]) -> int:
    return pair[1] if benchmark.disabled else pair[0]


def check(summary: Summary, games: int, nodes: int) -> None:
    """Every game was played and written, and the positions were searched to about *nodes* each (a
    few end sooner: a forced mate found, or a position with little to search)."""
    assert (summary.games, summary.new_games, summary.stopped) == (games, games, False)
    assert summary.positions > games * 4, summary
    per_position = summary.nodes / summary.positions
    assert 0.9 * nodes <= per_position <= nodes + NODE_SLACK, per_position


def run_datagen(path: Path, games: int, nodes: int, workers: int) -> tuple[Summary, float]:
    """Generates *games* games into a new file at *path*; returns the summary and the CPU seconds used
    by the whole process (all workers)."""
    start_cpu = time.process_time()
    summary = generate(path, games=games, seed=SEED, nodes=nodes, workers=workers)
    cpu = time.process_time() - start_cpu
    check(summary, games, nodes)
    return summary, cpu


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.benchmark(group="datagen")
def bench_datagen(benchmark: Any, workers: int, tmp_path: Path) -> None:
    games, nodes = _pick(benchmark, GAMES), _pick(benchmark, NODES)
    files = (tmp_path / f"games{i}.bin" for i in itertools.count())

    def run() -> tuple[Summary, float]:
        return run_datagen(next(files), games, nodes, workers)

    summary, cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(
        workers=workers,
        games=games,
        positions=summary.positions,
        nodes=summary.nodes,
        positions_per_s=round(summary.positions_per_second, 1),
        nps=round(summary.nodes_per_second),
        nodes_per_cpu_s=round(summary.nodes / max(cpu, 1e-9)),
    )


def main(games: int = GAMES[0]) -> None:
    """Prints the bench's nodes/s and the generator's figures with 1 and 2 workers, and the ratios."""
    nodes = NODES[0]
    start_cpu = time.process_time()
    bench_nodes, bench_ms = _core.bench()
    bench_cpu = time.process_time() - start_cpu
    bench_nps = bench_nodes * 1000 / bench_ms
    print(
        f"camelpy bench (1 thread): {bench_nodes} nodes in {bench_ms / 1000:.2f} s = "
        f"{bench_nps:,.0f} nodes/s; {bench_nodes / bench_cpu:,.0f} nodes/CPU-s"
    )
    with tempfile.TemporaryDirectory() as folder:
        for workers in (1, 2):
            summary, cpu = run_datagen(Path(folder) / f"games{workers}.bin", games, nodes, workers)
            per_worker = summary.nodes_per_second / workers
            print(
                f"datagen workers={workers}: {games} games, {summary.positions} positions x {nodes} nodes in "
                f"{summary.seconds:.2f} s = {summary.positions_per_second:,.0f} positions/s, "
                f"{summary.nodes_per_second:,.0f} nodes/s ({per_worker:,.0f} per worker = "
                f"{per_worker / bench_nps:.0%} of the bench's); {summary.nodes / cpu:,.0f} nodes/CPU-s "
                f"({summary.nodes / cpu / (bench_nodes / bench_cpu):.0%} of the bench's; "
                f"{cpu / summary.seconds:.2f} cores busy)"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES[0])

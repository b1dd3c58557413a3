"""Ray's overhead: the same work on this machine's cores directly and as tasks on a Ray cluster of the
same cores, side by side in one run.

``python -m benches.bench_cluster [--cpus N] [--pairs P] [--positions K] [--games G]`` starts a local
Ray instance of N CPUs (default: this machine's) and measures, each way:

- **tasks**: 2,000 empty tasks through :class:`camelpy.cluster.TaskPool` (N at once): the cost of one
  task, from which docs/guide/ray.md's plan for 10 and 100 machines is worked out;
- **match**: P game pairs (default 12) of camelpy against itself at 5,000 nodes per move from
  ``balanced.epd``, N games at once locally, N pairs at once on Ray: games per hour;
- **analyse_many**: K positions (default 1,000) of ``balanced.epd`` at 5,000 nodes: positions per
  second (the results must be equal);
- **datagen**: G games (default 200) at the default settings: positions per second (the files must be
  equal, byte for byte).

It is not collected by pytest (it starts a Ray instance and takes minutes); the tests in
``tests/test_cluster.py`` check the behaviour.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

import camelpy.data
import chess.engine
from camelpy import cluster
from camelpy.arena.engines import parse_engine
from camelpy.arena.match import run_match
from camelpy.arena.openings import load_openings
from camelpy.batch import analyse_many

BALANCED_EPD = Path(__file__).resolve().parent.parent / "tests" / "data" / "balanced.epd"
CAMELPY = f"{shlex.quote(sys.executable)} -m camelpy"
NODES = 5_000


def timed(what: str, work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    seconds = time.perf_counter() - started
    print(f"  {what}: {seconds:.2f} s", flush=True)
    return seconds


def nothing() -> None:
    """An empty task."""


def empty_tasks(ray: object, cpus: int, count: int) -> float:
    pool: cluster.TaskPool[int] = cluster.TaskPool(ray, nothing, cpus)
    started = time.perf_counter()
    sent = 0
    while sent < count or len(pool):
        while sent < count and not pool.full:
            pool.submit(sent)
            sent += 1
        pool.next()
    return (time.perf_counter() - started) / count


def match(backend: str, cpus: int, pairs: int, out: Path) -> float:
    a = parse_engine([CAMELPY, "name=a", f"nodes={NODES}"])
    b = parse_engine([CAMELPY, "name=b", f"nodes={NODES}"])
    book = load_openings(BALANCED_EPD)
    started = time.perf_counter()
    result = run_match(a, b, rounds=pairs, openings=book, concurrency=cpus, out=out, backend=backend)
    seconds = time.perf_counter() - started
    assert result.games == 2 * pairs, result
    print(f"  match {backend}: {result.games} games in {seconds:.1f} s, {result.status_line()}", flush=True)
    return result.games * 3600 / seconds


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benches.bench_cluster")
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    ray = cluster.ray_module()
    started = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    took = time.perf_counter() - started
    print(f"Ray {ray.__version__}: a local instance of {args.cpus} CPUs in {took:.1f} s")
    rows: list[tuple[str, str, str, str]] = []

    per_task = empty_tasks(ray, args.cpus, 2000)
    rows.append(("one empty task (TaskPool, 2,000 tasks)", "", f"{per_task * 1e3:.2f} ms", ""))

    with tempfile.TemporaryDirectory() as tmp:
        local = match("local", args.cpus, args.pairs, Path(tmp) / "local")
        remote = match("ray", args.cpus, args.pairs, Path(tmp) / "ray")
        rows.append((f"match, {2 * args.pairs} games at {NODES} nodes/move", f"{local:,.0f} games/h",
                     f"{remote:,.0f} games/h", f"{remote / local:.2f}"))  # fmt: skip

        boards = [o.board() for o in load_openings(BALANCED_EPD)[: args.positions]]
        limit = chess.engine.Limit(nodes=NODES)
        results: dict[str, list[object]] = {}
        seconds = {}
        for backend in ("local", "ray"):
            begun = time.perf_counter()
            results[backend] = list(analyse_many(boards, limit, threads=args.cpus, backend=backend))
            seconds[backend] = time.perf_counter() - begun
        same = [(r.best_move, r.nodes) for r in results["local"]] == [
            (r.best_move, r.nodes) for r in results["ray"]
        ]  # type: ignore[attr-defined]
        assert same, "analyse_many on Ray gave other results"
        rate = {k: len(boards) / v for k, v in seconds.items()}
        rows.append((f"analyse_many, {len(boards)} positions × {NODES} nodes", f"{rate['local']:,.0f} pos/s",
                     f"{rate['ray']:,.0f} pos/s", f"{rate['ray'] / rate['local']:.2f}"))  # fmt: skip

        files = {backend: Path(tmp) / f"{backend}.bin" for backend in ("local", "ray")}
        pos_rate = {}
        for backend, path in files.items():
            s = camelpy.data.generate(path, games=args.games, seed=1, workers=args.cpus, backend=backend)
            pos_rate[backend] = s.positions / s.seconds
            print(
                f"  datagen {backend}: {s.games} games, {s.positions:,} positions in {s.seconds:.1f} s",
                flush=True,
            )
        assert files["local"].read_bytes() == files["ray"].read_bytes(), "datagen on Ray wrote another file"
        local_rate, ray_rate = pos_rate["local"], pos_rate["ray"]
        rows.append((f"datagen, {args.games} games × {NODES} nodes/move", f"{local_rate:,.0f} pos/s",
                     f"{ray_rate:,.0f} pos/s", f"{ray_rate / local_rate:.2f}"))  # fmt: skip
    ray.shutdown()
    print()
    print(f"| what ({args.cpus} CPUs) | this machine | Ray, same CPUs | Ray / local |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()

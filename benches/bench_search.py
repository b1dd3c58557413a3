"""Search speed side by side: camelpy and other UCI engines on camelpy's bench positions.

Every engine (camelpy's own ``camelpy`` UCI script included, so each pays the same process and UCI
costs) searches each bench position for the same fixed time with one thread and a 16 MB table, a
fresh game per position. Nodes and time come from the engine's last ``info`` line, so the figure
is the engine's own nodes per second while it searches; engines count nodes differently (Stockfish
counts quiescence nodes as camelpy does; others may not), so compare speeds, not node totals.

Timed (``--benchmark-enable``): 44 positions × 500 ms per engine. Untimed (plain ``pytest``):
4 positions × 30 ms, camelpy and Stockfish only.
``python -m benches.bench_search [ms] [engine ...]`` prints the table with ratios against camelpy;
engines are names on ``PATH`` or under ``/usr/games`` (default: camelpy stockfish ethereal-chess
toga2 glaurung, those present); ``camelpy`` evaluates with its built-in network (the default),
``camelpy-classical`` with the classical evaluation (``Use NNUE`` false), and ``camelpy-nnue=NET`` with
the network file NET (``EvalFile``).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import chess
import chess.engine
import pytest
from camelpy import _core

ENGINES = ("camelpy", "stockfish", "ethereal-chess", "toga2", "glaurung")
"""The engines the brief names, in the order the table prints them."""
SEARCH_MS = (500, 30)
"""Milliseconds per position (timed, untimed): long enough that start-up of each search is noise."""
POSITIONS = (len(_core.BENCH_FENS), 4)
"""How many bench positions (timed: all)."""


def find_engine(name: str) -> str | None:
    """The path of a UCI engine named *name* on ``PATH`` or under ``/usr/games``, or ``None``."""
    path = shutil.which(name)
    if path is None and os.path.exists(f"/usr/games/{name}"):
        path = f"/usr/games/{name}"
    return path


def camelpy_options(name: str) -> dict[str, Any]:
    """The UCI options that make camelpy the engine *name* of the table: ``camelpy-classical``, or
    ``camelpy-nnue=NET``; none for ``camelpy`` and other engines."""
    if name == "camelpy-classical":
        return {"Use NNUE": False}
    if name.startswith("camelpy-nnue="):
        return {"EvalFile": name.partition("=")[2]}
    return {}


def engine_path(name: str) -> str | None:
    """The binary of the table's engine *name* (camelpy's variants are camelpy with options)."""
    return find_engine("camelpy" if name.startswith("camelpy") else name)


def engine_nps(path: str, positions: int, ms: int, extra: dict[str, Any] | None = None) -> tuple[int, int]:
    """Total nodes and milliseconds the engine at *path* reports over *positions* bench positions
    searched *ms* each (one thread, 16 MB, and the UCI options *extra*, which it must have)."""
    nodes = millis = 0
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        options: dict[str, Any] = {"Threads": 1, "Hash": 16}
        for name in extra or {}:
            assert name in engine.options, (path, name)
        engine.configure({k: v for k, v in options.items() if k in engine.options} | (extra or {}))
        for fen in _core.BENCH_FENS[:positions]:
            board = chess.Board(fen)
            info = engine.analyse(board, chess.engine.Limit(time=ms / 1000), game=object())
            assert info.get("pv") and info["pv"][0] in board.legal_moves, (path, fen, info)
            nodes += info.get("nodes", 0)
            millis += round(info.get("time", ms / 1000) * 1000)
    return nodes, millis


@pytest.mark.parametrize(
    "name", ["camelpy", "camelpy-classical", pytest.param("stockfish", marks=pytest.mark.needs_stockfish)]
)
@pytest.mark.benchmark(group="search-nps")
def bench_search_nps(benchmark: Any, name: str) -> None:
    path = engine_path(name)
    assert path is not None, f"no {name} binary: apt-get install stockfish (the README's test command does)"
    positions = POSITIONS[1] if benchmark.disabled else POSITIONS[0]
    ms = SEARCH_MS[1] if benchmark.disabled else SEARCH_MS[0]
    nodes, millis = benchmark.pedantic(
        engine_nps, args=(path, positions, ms, camelpy_options(name)), rounds=1, iterations=1
    )
    assert nodes > 0 and millis > 0
    benchmark.extra_info.update(engine=name, nodes=nodes, nps=round(nodes * 1000 / millis))


def main(args: list[str]) -> None:
    """Prints nodes per second for each engine and its ratio to camelpy's."""
    ms = int(args.pop(0)) if args and args[0].isdigit() else SEARCH_MS[0]
    names = args or list(ENGINES)
    rates: dict[str, float] = {}
    for name in names:
        path = engine_path(name)
        if path is None:
            print(f"{name:16} not found")
            continue
        nodes, millis = engine_nps(path, POSITIONS[0], ms, camelpy_options(name))
        rates[name] = nodes * 1000 / millis
        print(
            f"{name:16} {nodes:>12,} nodes in {millis / 1000:6.2f} s = {rates[name]:>11,.0f} nodes/s",
            flush=True,
        )
    if "camelpy" in rates:
        print(
            "ratio camelpy / other: "
            + ", ".join(
                f"{name} {rates['camelpy'] / rate:.2f}" for name, rate in rates.items() if name != "camelpy"
            )
        )


if __name__ == "__main__":
    main(sys.argv[1:])

"""Shared set-up for the pytest-benchmark suites.

Plain ``pytest`` runs every benchmark once, untimed, as a test (``--benchmark-disable`` in
``addopts``), with small depths. ``pytest benches/ --benchmark-enable`` times them at full
depth and refuses to time a debug build of the extension: those numbers would mislead.

Modules import the helpers below as ``from benches.conftest import ...`` (``benches`` is a
package), for the same reason as ``tests.conftest``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess
import pytest

KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

POSITIONS = {"startpos": chess.STARTING_FEN, "kiwipete": KIWIPETE_FEN}

# Published leaf counts (the same as perft_suites/standard.epd lines 1 and 2).
LEAVES = {
    "startpos": {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609, 6: 119060324},
    "kiwipete": {1: 48, 2: 2039, 3: 97862, 4: 4085603, 5: 193690690},
}


def timing_enabled(config: pytest.Config) -> bool:
    """Whether pytest-benchmark will time this run (``--benchmark-enable``)."""
    session = getattr(config, "_benchmarksession", None)
    if session is not None:
        return not session.disabled
    return bool(config.getoption("benchmark_enable", False)) or not config.getoption(
        "benchmark_disable", False
    )


@pytest.fixture(autouse=True)
def _refuse_to_time_debug_build(request: pytest.FixtureRequest) -> None:
    if timing_enabled(request.config):
        from camelpy import _core

        if _core.build_profile != "release":
            pytest.skip(
                f"camelpy._core is a {_core.build_profile!r} build; timings need a release build "
                "(maturin develop --release, or pip install .)"
            )


def pick_depth(benchmark: Any, position: str, *, timed: int, untimed: int) -> tuple[int, int]:
    """The depth to use (``timed`` when timing is on, else the cheap ``untimed``) and its leaf count."""
    depth = untimed if benchmark.disabled else timed
    return depth, LEAVES[position][depth]


def run_counted(
    benchmark: Any,
    target: Callable[..., int],
    *args: Any,
    expected: int,
    depth: int,
    engine: str,
    rounds: int = 3,
) -> None:
    """Time ``target(*args)`` (``rounds`` rounds of one call), assert its count, record leaves/s."""
    result = benchmark.pedantic(target, args=args, rounds=rounds, iterations=1)
    assert result == expected, f"{engine}: {result} leaves at depth {depth}, expected {expected}"
    benchmark.extra_info.update(engine=engine, depth=depth, leaves=expected)
    if benchmark.stats:  # None or empty when timing is disabled
        stats = benchmark.stats.stats
        benchmark.extra_info["leaves_per_s"] = round(expected / stats.min)
        benchmark.extra_info["leaves_per_s_mean"] = round(expected / stats.mean)

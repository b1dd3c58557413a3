"""Leiserchess search speed side by side: camelpy's player and the course's reference player (issue 40).

Both search the same positions to the same fixed depth, one thread, a 16 MiB table (the reference's
default), a fresh table per search, interleaved (camelpy, then the reference, then the next position;
the order alternates from round to round, so a machine that slows down mid-run hurts both alike).
For each search it records the time to the depth and the engine's own node count:

* **camelpy** (``camelpy.leiserchess.Searcher``, in process): the time of the search; its nodes are
  the positions it searches, each counted once when it is entered, quiescence included (a node
  classifies its ~70 moves without counting them, and makes only those it plays).
* **the reference** (a subprocess speaking the course's protocol): the time from ``go depth N`` to
  its ``bestmove``; its nodes are every move it makes in its search loops, quiescence included, quiet
  moves that quiescence then discards and Ko-illegal moves too (at depth 1 from the start it
  reports 79 after its first root move: that move and the 78 it makes below it). It prints no total,
  so its nodes per second are the node count and time of its last ``info`` line.

The two counts are not the same unit (the reference's is about a node's moves tried, camelpy's its
nodes entered), so compare **time to depth**, which needs no convention; nodes per second are
printed for each engine's own record.

Positions: the start, the position of issue 40's lost game after ``e1U b4c4 h4h5 e5U h5R``, and
positions from a short camelpy self-play from the start (depth 3, plies 10, 20 and 30).

The reference is found at ``$CAMELPY_LEISER_REF``, else as ``leiserchess-ref`` on ``PATH``; without
it the benchmark is skipped with :data:`BUILD_RECIPE`. It is behind the marker ``leiserchess_ref``, left
out of the default run (``pytest -m leiserchess_ref benches/bench_leiserchess.py``). Untimed: depth 3 on two
positions, one round. Timed (``--benchmark-enable``): depth 7 on every position, three rounds.
``python -m benches.bench_leiserchess [depth] [rounds]`` prints the table with medians and ratios.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest
from camelpy import leiserchess

pytestmark = pytest.mark.leiserchess_ref
"""Left out of the default run (``-m "not leiserchess_ref"`` in pyproject): the reference is built by
hand. Run it with ``pytest -m leiserchess_ref benches/bench_leiserchess.py``."""

REF_ENV = "CAMELPY_LEISER_REF"
"""The environment variable naming the reference player's binary."""
REF_NAME = "leiserchess-ref"
"""The reference player's name on ``PATH`` when the variable is not set."""
BUILD_RECIPE = (
    "build the course's reference player and point $CAMELPY_LEISER_REF at it: fetch "
    "https://github.com/itshelenxu/leiserchess, cd ref_player, give gcc empty stand-ins for the Cilk "
    "headers (a folder STUBS with cilk/cilk.h defining cilk_spawn and cilk_sync as nothing and "
    "cilk_for as for, and an empty cilk/reducer.h), then gcc -std=gnu99 -O2 -DNDEBUG -include "
    "assert.h -include stdbool.h -ISTUBS leiserchess.c eval.c fen.c move_gen.c search.c tt.c util.c "
    "-lm -lrt -lpthread -o leiserchess"
)
"""How to get the reference when it is absent (the skip reason)."""
HASH_MB = 16
"""Table size for both (the reference's default)."""
DEPTHS = (7, 3)
"""Depth searched (timed, untimed): 7 takes a second or two for each engine on a quiet machine."""
ROUNDS = (3, 1)
"""Interleaved rounds (timed, untimed): the median of three tames a shared machine."""
ISSUE_GAME = ("e1U", "b4c4", "h4h5", "e5U", "h5R")
"""The opening of the game issue 40 quotes (camelpy lavender lost it): a position from real play."""
SELFPLAY_PLIES = (10, 20, 30)
"""Plies of camelpy's self-play at which positions are taken."""
SELFPLAY_DEPTH = 3
"""Depth of that self-play: quick, and its games are real enough to leave the opening."""
STARTUP_SECONDS = 20.0
"""How long the reference may take to answer ``readyok``."""


def reference_path() -> str | None:
    """The reference player's binary: ``$CAMELPY_LEISER_REF``, else ``leiserchess-ref`` on ``PATH``."""
    path = os.environ.get(REF_ENV) or shutil.which(REF_NAME)
    return path if path and os.access(path, os.X_OK) else None


def positions(count: int | None = None) -> list[tuple[str, str]]:
    """(name, FEN) of the benchmark's positions (see the module's documentation), the first *count*
    (default: all)."""
    found = [("start", leiserchess.STARTING_FEN)]
    board = leiserchess.Board()
    for text in ISSUE_GAME:
        board.push(leiserchess.Move.parse(text))
    found.append(("issue-40 game, ply 5", board.fen()))
    if count is not None and count <= len(found):
        return found[:count]
    board = leiserchess.Board()
    searcher = leiserchess.Searcher(hash_mb=HASH_MB)
    for ply in range(1, max(SELFPLAY_PLIES) + 1):
        result = searcher.search(board, depth=SELFPLAY_DEPTH)
        if result.move is None:
            break
        board.push(result.move)
        if ply in SELFPLAY_PLIES:
            found.append((f"self-play, ply {ply}", board.fen()))
    return found[:count]


def camelpy_search(fen: str, depth: int) -> tuple[float, int]:
    """Seconds and nodes of camelpy's search of *fen* to *depth* (one thread, a new table)."""
    searcher = leiserchess.Searcher(hash_mb=HASH_MB)
    board = leiserchess.Board(fen)
    began = time.perf_counter()
    result = searcher.search(board, depth=depth)
    seconds = time.perf_counter() - began
    assert result.move is not None and result.info.depth == depth, (fen, result)
    return seconds, result.info.nodes


class Reference:
    """The reference player at *path*, started afresh for each search (a new process, a new table, as
    camelpy's searcher is new for each)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def search(self, fen: str, depth: int) -> tuple[float, int, float]:
        """Seconds to its ``bestmove`` for *fen* to *depth*, and the nodes and seconds of its last
        ``info`` line."""
        with subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        ) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write("uci\nisready\n")
                proc.stdin.flush()
                deadline = time.monotonic() + STARTUP_SECONDS
                while proc.stdout.readline().strip() != "readyok":
                    assert time.monotonic() < deadline and proc.poll() is None, "no readyok"
                proc.stdin.write(f"position fen {fen}\n")
                proc.stdin.flush()
                began = time.perf_counter()
                proc.stdin.write(f"go depth {depth}\n")
                proc.stdin.flush()
                nodes, micros = 0, 0
                while True:
                    line = proc.stdout.readline()
                    assert line, f"the reference ended without a bestmove for {fen}"
                    words = line.split()
                    if words[:1] == ["bestmove"]:
                        seconds = time.perf_counter() - began
                        break
                    if words[:2] == ["info", "depth"] and "nodes" in words:
                        nodes = int(words[words.index("nodes") + 1])
                        micros = int(words[words.index("(microsec)") + 1])
                # Its loop spins at the end of its input: always say quit.
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(timeout=STARTUP_SECONDS)
            finally:
                if proc.poll() is None:
                    proc.kill()
        return seconds, nodes, micros / 1e6


def compare(ref: str, depth: int, rounds: int, count: int | None = None) -> list[dict[str, Any]]:
    """Per position: the median time to *depth* of each engine over *rounds* interleaved rounds, each
    one's nodes and nodes per second (medians), and the time ratio camelpy / reference."""
    chosen = positions(count)
    reference = Reference(ref)
    runs: dict[str, dict[str, list[float]]] = {
        name: {key: [] for key in ("ct", "cn", "rt", "rn", "rnps")} for name, _ in chosen
    }
    for r in range(rounds):
        for name, fen in chosen:
            first_camelpy = r % 2 == 0
            for engine in ("camelpy", "ref") if first_camelpy else ("ref", "camelpy"):
                run = runs[name]
                if engine == "camelpy":
                    seconds, nodes = camelpy_search(fen, depth)
                    run["ct"].append(seconds)
                    run["cn"].append(nodes)
                else:
                    seconds, ref_nodes, at = reference.search(fen, depth)
                    run["rt"].append(seconds)
                    run["rn"].append(ref_nodes)
                    run["rnps"].append(ref_nodes / at if at > 0 else 0.0)
    rows = []
    for name, _ in chosen:
        run = runs[name]
        ct, rt = statistics.median(run["ct"]), statistics.median(run["rt"])
        cn = statistics.median(run["cn"])
        rows.append(
            {
                "position": name,
                "camelpy_s": ct,
                "camelpy_nodes": int(cn),
                "camelpy_nps": cn / ct,
                "ref_s": rt,
                "ref_nodes": int(statistics.median(run["rn"])),
                "ref_nps": statistics.median(run["rnps"]),
                "time_ratio": ct / rt,
            }
        )
    return rows


@pytest.mark.benchmark(group="leiserchess-vs-ref")
def bench_leiserchess_vs_reference(benchmark: Any) -> None:
    ref = reference_path()
    if ref is None:
        pytest.skip(f"no reference player (${REF_ENV} unset, no {REF_NAME} on PATH): {BUILD_RECIPE}")
    timed = not benchmark.disabled
    depth, rounds = (DEPTHS[0], ROUNDS[0]) if timed else (DEPTHS[1], ROUNDS[1])
    rows = benchmark.pedantic(compare, args=(ref, depth, rounds, None if timed else 2), rounds=1)
    assert rows and all(row["camelpy_nodes"] > 0 and row["ref_nodes"] > 0 for row in rows)
    benchmark.extra_info.update(depth=depth, rows=rows)


def main(args: list[str]) -> None:
    """Prints each position's times to depth, nodes and nodes per second, and the ratios."""
    depth = int(args[0]) if args else DEPTHS[0]
    rounds = int(args[1]) if len(args) > 1 else ROUNDS[0]
    ref = reference_path()
    if ref is None:
        sys.exit(f"no reference player: {BUILD_RECIPE}")
    print(f"depth {depth}, {rounds} interleaved rounds, medians; nodes: each engine's own count")
    rows = compare(ref, depth, rounds)
    for row in rows:
        print(
            f"{row['position']:22} camelpy {row['camelpy_s']:7.3f} s {row['camelpy_nodes']:>10,} nodes "
            f"{row['camelpy_nps'] / 1e6:6.3f} M/s | ref {row['ref_s']:7.3f} s {row['ref_nodes']:>10,} nodes "
            f"{row['ref_nps'] / 1e6:6.3f} M/s | time camelpy/ref {row['time_ratio']:5.2f}",
            flush=True,
        )
    total_c = sum(row["camelpy_s"] for row in rows)
    total_r = sum(row["ref_s"] for row in rows)
    ratio = total_c / total_r
    print(f"total time to depth {depth}: camelpy {total_c:.2f} s, ref {total_r:.2f} s, ratio {ratio:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])

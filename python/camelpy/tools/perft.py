"""Perft from the command line: one position's leaf count (or its divide), with the speed."""

from __future__ import annotations

import sys
import time

import camelpy


def run(fen: str, depth: int, *, chess960: bool = False, divide: bool = False) -> int:
    """Prints ``Nodes searched: N`` and ``Nodes/second: M`` (after ``move: n`` lines with *divide*);
    returns the exit status (2 for a bad FEN, with the error on stderr)."""
    try:
        start = time.perf_counter()
        if divide:
            counts = camelpy.divide(fen, depth, chess960=chess960)
            for move, n in sorted(counts.items(), key=lambda item: item[0].uci()):
                print(f"{move.uci()}: {n}")
            nodes = sum(counts.values())
        else:
            nodes = camelpy.perft(fen, depth, chess960=chess960)
        elapsed = time.perf_counter() - start
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {nodes / max(elapsed, 1e-9):.0f}")
    return 0

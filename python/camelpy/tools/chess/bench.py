"""``camelpy bench [depth]``: the core's fixed search benchmark, printed the way Stockfish and OpenBench
read it. The lines and the depth's parser are the UCI engine's too, so they live with the protocols
(:mod:`camelpy.protocols.bench`, re-exported here).

>>> import io
>>> out = io.StringIO()
>>> run_bench(2, out)
0
>>> out.getvalue().splitlines()[1].startswith("Nodes searched: ")
True
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

from camelpy.protocols.bench import bench_lines, parse_depth

__all__ = ["add_arguments", "bench_lines", "main", "parse_depth", "run_bench"]


def run_bench(depth: int | None = None, out: IO[str] | None = None) -> int:
    """Runs the bench and prints :func:`bench_lines` to *out* (standard output by default), flushing each
    line; returns the exit status, 0."""
    stream = out if out is not None else sys.stdout
    for line in bench_lines(depth):
        print(line, file=stream, flush=True)
    return 0


def _depth_argument(text: str) -> int:
    try:
        return parse_depth(text)
    except ValueError as err:  # argparse reports ArgumentTypeError's message as it is
        raise argparse.ArgumentTypeError(str(err)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy bench`` arguments."""
    p.add_argument(
        "depth",
        nargs="?",
        type=_depth_argument,
        help="search depth of every position (default: the depth of the recorded bench signature)",
    )


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy bench`` from parsed arguments."""
    return run_bench(args.depth)

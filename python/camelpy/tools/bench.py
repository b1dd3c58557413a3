"""``camelpy bench [depth]``: the core's fixed search benchmark, printed the way Stockfish and OpenBench
read it.

The bench searches the core's own position list to a fixed depth with one thread, a 16 MB table and
fresh tables before each position, so its node count is a signature of the search (the README and every
commit message quote it). OpenBench's client scans the output from the end for ``N nodes M nps`` and
``Nodes searched: N``; the lines below are kept exactly as they are for it. The UCI loop's ``bench``
command prints the same lines (:func:`bench_lines`).

>>> lines = bench_lines(2)
>>> [line.split(":")[0] for line in lines[:3]]
['Total time (ms) ', 'Nodes searched', 'Nodes/second']
>>> lines[3].endswith(" nps")
True
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

from camelpy import _core
from camelpy._args import str_arg
from camelpy._quote import quote

__all__ = ["add_arguments", "bench_lines", "main", "parse_depth", "run_bench"]


def bench_lines(depth: int | None = None) -> list[str]:
    """Runs the bench (at the core's default depth for ``None``) and returns its report lines: total time,
    ``Nodes searched: N``, ``Nodes/second: M``, then ``N nodes M nps``.

    :raises: :exc:`ValueError` for a depth the core refuses.
    """
    nodes, ms = _core.bench(depth)
    nps = nodes * 1000 // max(ms, 1)
    return [
        f"Total time (ms) : {ms}",
        f"Nodes searched: {nodes}",
        f"Nodes/second: {nps}",
        f"{nodes} nodes {nps} nps",
    ]


def run_bench(depth: int | None = None, out: IO[str] | None = None) -> int:
    """Runs the bench and prints :func:`bench_lines` to *out* (standard output by default), flushing each
    line; returns the exit status, 0."""
    stream = out if out is not None else sys.stdout
    for line in bench_lines(depth):
        print(line, file=stream, flush=True)
    return 0


def parse_depth(text: str) -> int:
    """A bench depth from the command line: an integer of at least 1 (the core sets the upper bound).

    >>> parse_depth("13")
    13
    >>> parse_depth("x")
    Traceback (most recent call last):
    ...
    ValueError: expected a depth (an integer of at least 1), got 'x'

    :raises: :exc:`ValueError` for text that is not such an integer, :exc:`TypeError` for a *text* that
        is not a string.
    """
    try:
        depth = int(str_arg(text, "text"))
    except ValueError:
        depth = 0
    if depth < 1:
        raise ValueError(f"expected a depth (an integer of at least 1), got {quote(text)}")
    return depth


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

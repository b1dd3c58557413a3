"""The bench's report in the lines OpenBench reads: the core's fixed search benchmark (one thread, a 16 MB
table, fresh tables before each position of the core's own list), whose node count is a signature of the
search (the README and every commit message quote it). OpenBench's client scans the output from the end
for ``N nodes M nps`` and ``Nodes searched: N``; the lines below are kept exactly as they are for it.

Both the UCI engine's ``bench`` command (:mod:`camelpy.protocols.uci`) and ``camelpy bench``
(:mod:`camelpy.tools.chess.bench`) print these lines.

>>> lines = bench_lines(2)
>>> [line.split(":")[0] for line in lines[:3]]
['Total time (ms) ', 'Nodes searched', 'Nodes/second']
>>> lines[3].endswith(" nps")
True
"""

from __future__ import annotations

from camelpy import _core
from camelpy._args import str_arg
from camelpy._quote import quote

__all__ = ["bench_lines", "parse_depth"]


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

"""Perft from the command line: one position's leaf count (or its divide) with the speed, or a whole
perft suite (``<FEN> ;D1 20 ;D2 400 …`` lines, as in ``perft_suites/``) up to a node cap, reporting
mismatches with the divide of the first wrong position.

>>> case = parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9", source="demo:1")
>>> case.counts
{1: 3, 2: 9}
>>> report = run_suite([case], max_nodes=100)
>>> report.checked, report.mismatches, report.nodes
(2, (), 12)
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import chess

import camelpy
from camelpy._args import items_arg, opt_int_arg, read_text, str_arg
from camelpy._quote import quote

__all__ = ["PerftCase", "SuiteReport", "parse_suite_line", "read_suite", "run", "run_suite"]

DEFAULT_MAX_NODES = 1_000_000
"""Default cap on one (position, depth) check's expected leaf count: the suite's quick part."""

REFERENCE_DIVIDE_CAP = 2_000_000
"""Leaves up to which python-chess recounts a wrong position's divide (about 10 s of pure Python)."""

MAX_SUITE_BYTES = 16 << 20
"""Largest perft suite file read (16 MiB): the standard suites are a few kilobytes, and every line is
checked by python-chess as it is read."""


@dataclasses.dataclass(frozen=True)
class PerftCase:
    """One suite line: a position and its expected leaf counts by depth."""

    fen: str
    """The position."""
    counts: dict[int, int]
    """Expected leaves per depth (``;Dn`` tags; not every depth need be listed)."""
    source: str = ""
    """``file:line``."""
    chess960: bool = False
    """Chess960 castling rules."""

    def capped(self, max_nodes: int | None) -> dict[int, int]:
        """The listed depths whose expected count is at most *max_nodes* (all of them for ``None``).

        >>> PerftCase("8/8/8/8/8/8/8/K6k w - - 0 1", {1: 3, 2: 9, 3: 54}).capped(10)
        {1: 3, 2: 9}

        :raises: :exc:`ValueError` for a negative *max_nodes*, :exc:`TypeError` for one not an integer.
        """
        cap = opt_int_arg(max_nodes, "max_nodes", 0)
        return {d: n for d, n in self.counts.items() if cap is None or n <= cap}


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """A count that differs from the suite's."""

    source: str
    """``file:line``."""
    fen: str
    """The position."""
    depth: int
    """The depth."""
    expected: int
    """The suite's count."""
    actual: int
    """camelpy's count."""


@dataclasses.dataclass(frozen=True)
class SuiteReport:
    """What a suite run found."""

    checked: int
    """(position, depth) pairs counted."""
    skipped: int
    """Pairs above the node cap."""
    nodes: int
    """Leaves counted in total."""
    seconds: float
    """Time spent counting."""
    mismatches: tuple[Mismatch, ...] = ()
    """Every wrong count, in suite order."""

    @property
    def nps(self) -> float:
        """Leaves per second."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


_TAG = re.compile(r"D([0-9]+)\s+([0-9]+)")
"""One ``;Dn count`` tag (ASCII digits only: ``str.isdigit`` would let ``²`` through to ``int``)."""


def parse_suite_line(line: str, *, source: str = "", chess960: bool = False) -> PerftCase:
    """Parses ``<FEN> ;D1 20 ;D2 400 …``: the one reader of the format in Python (the tests use it too),
    with the same rules as the core's ``camelpy_core::perft::parse_suite_line``: each tag is
    ``D<depth> <count>`` in ASCII digits, each depth at most once, at least one tag, a FEN before them.
    The FEN itself is not checked here.

    >>> parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D1 3")
    Traceback (most recent call last):
    ...
    ValueError: depth 1 listed twice at line: '8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D1 3'

    :raises: :exc:`ValueError` naming what is wrong and quoting the line; :exc:`TypeError` for a *line*
        or *source* that is not a string.
    """
    str_arg(line, "line")
    str_arg(source, "source")
    where = f"{source or 'line'}: {quote(line.strip())}"
    fen, *tags = line.strip().split(";")
    if not fen.strip():
        raise ValueError(f"no fen before the first ';' at {where}")
    counts: dict[int, int] = {}
    for tag in tags:
        match = _TAG.fullmatch(tag.strip())
        if match is None:
            raise ValueError(f"bad perft tag {quote(tag.strip())} at {where}")
        depth = int(match[1])
        if depth in counts:
            raise ValueError(f"depth {depth} listed twice at {where}")
        counts[depth] = int(match[2])
    if not counts:
        raise ValueError(f"no ';Dn count' tags at {where}")
    return PerftCase(fen.strip(), counts, source, chess960)


def read_suite(path: str | Path, *, chess960: bool | None = None) -> list[PerftCase]:
    """Reads a suite file; Chess960 when asked, or when the file name ends in ``fischer``.

    :raises: :exc:`ValueError` for an unreadable file or a bad line.
    """
    lines = read_text(path, "path", "perft suite", limit=MAX_SUITE_BYTES).splitlines()
    path = Path(path)
    mode = path.stem.endswith("fischer") if chess960 is None else chess960
    return [
        parse_suite_line(line, source=f"{path.name}:{n}", chess960=mode)
        for n, line in enumerate(lines, start=1)
        if line.strip() and not line.startswith("#")
    ]


def run_suite(cases: Sequence[PerftCase], *, max_nodes: int | None = DEFAULT_MAX_NODES) -> SuiteReport:
    """Counts every (position, depth) whose expected count is at most *max_nodes* (all for ``None``).

    :raises: :exc:`TypeError` for *cases* that are not a list of :class:`PerftCase`, :exc:`ValueError`
        for a negative *max_nodes*.
    """
    cap = opt_int_arg(max_nodes, "max_nodes", 0)
    checked = skipped = nodes = 0
    mismatches = []
    seconds = 0.0
    for case in items_arg(cases, "cases", PerftCase):
        for depth, expected in sorted(case.counts.items()):
            if cap is not None and expected > cap:
                skipped += 1
                continue
            start = time.perf_counter()
            actual = camelpy.perft(case.fen, depth, chess960=case.chess960)
            seconds += time.perf_counter() - start
            checked += 1
            nodes += actual
            if actual != expected:
                mismatches.append(Mismatch(case.source, case.fen, depth, expected, actual))
    return SuiteReport(checked, skipped, nodes, seconds, tuple(mismatches))


def _reference_count(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _reference_count(board, depth - 1)
        board.pop()
    return total


def print_divide(mismatch: Mismatch, chess960: bool) -> None:
    """Prints camelpy's divide of a wrong position, each move with python-chess's count when the
    position is small enough to recount in pure Python."""
    counts = camelpy.divide(mismatch.fen, mismatch.depth, chess960=chess960)
    board = chess.Board(mismatch.fen, chess960=chess960)
    recount = mismatch.expected <= REFERENCE_DIVIDE_CAP
    print(f"divide of {mismatch.source} at depth {mismatch.depth} ({mismatch.fen}):")
    for move in sorted(set(counts) | (set(board.legal_moves) if recount else set()), key=lambda m: m.uci()):
        line = f"{move.uci()}: {counts.get(move, 'missing')}"
        if recount:
            if move in board.legal_moves:
                board.push(move)
                reference = _reference_count(board, mismatch.depth - 1)
                board.pop()
            else:
                reference = 0
            if reference != counts.get(move):
                line += f"  (python-chess: {reference})"
        print(line)


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


def run_suite_cli(path: str, *, max_nodes: int | None, chess960: bool | None) -> int:
    """Runs a suite file and prints mismatches, the first one's divide, totals and speed; exit status
    1 when a count is wrong."""
    cases = read_suite(path, chess960=chess960)
    report = run_suite(cases, max_nodes=max_nodes)
    for m in report.mismatches:
        print(f"MISMATCH {m.source} depth {m.depth}: expected {m.expected}, got {m.actual}  {m.fen}")
    if report.mismatches:
        first = report.mismatches[0]
        mode = next(c.chess960 for c in cases if c.source == first.source)
        print_divide(first, mode)
    print(f"Positions: {len(cases)}, checks: {report.checked}, skipped above the cap: {report.skipped}")
    print(f"Mismatches: {len(report.mismatches)}")
    print(f"Nodes searched: {report.nodes}")
    print(f"Nodes/second: {report.nps:.0f}")
    return 1 if report.mismatches else 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy perft`` options."""
    p.add_argument("target", nargs="?", default="5", help="plies (default 5), or a perft suite file")
    p.add_argument("--fen", default=camelpy.STARTING_FEN, help="position (default: the start position)")
    p.add_argument("--chess960", action="store_true", help="Chess960 castling rules")
    p.add_argument("--divide", action="store_true", help="print the count below each root move")
    p.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help=f"suite: skip checks whose count is above this (default {DEFAULT_MAX_NODES}; 0 = no cap)",
    )


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy perft`` from parsed arguments."""
    if args.target.isdigit():
        return run(args.fen, int(args.target), chess960=args.chess960, divide=args.divide)
    return run_suite_cli(
        args.target, max_nodes=args.max_nodes or None, chess960=True if args.chess960 else None
    )

"""``camelpy epd``: run an EPD test suite (WAC, Bratko-Kopec, STS …) on camelpy in-process or on any
UCI engine, at a per-position time, depth or node limit.

A position is *solved* when the engine's move is one of the ``bm`` moves and none of the ``am`` moves.
STS-style ``c0 "f5=10, Bf2=3"`` comments give points per move (read from the file, whatever the
scale); the best move's points are the maximum. With two engines the report has a column each.

>>> suite = parse_epd_lines(['6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "mate1";'])
>>> result = run_epd(suite, "camelpy", depth=3)
>>> result.solved, result.total, result.results[0].move
(1, 1, Move.from_uci('d1d8'))
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import chess
import chess.engine

import camelpy
from camelpy._args import (
    brief,
    int_arg,
    items_arg,
    opt_int_arg,
    opt_str_arg,
    read_text,
    split_command,
    str_arg,
)
from camelpy._quote import quote
from camelpy.arena.openings import epd_records

__all__ = ["EpdPosition", "PositionResult", "SuiteResult", "parse_epd_lines", "read_epd", "run_epd"]

MAX_EPD_BYTES = 64 << 20
"""Largest EPD suite read (64 MiB, about a million positions): test suites are kilobytes, and each
position is searched, so a bigger file is not a suite anyone runs."""


@dataclasses.dataclass(frozen=True)
class EpdPosition:
    """One test position with its expected moves."""

    fen: str
    """The position."""
    id: str
    """The ``id`` operation (or ``file:line``)."""
    bm: tuple[chess.Move, ...] = ()
    """Best moves: playing one solves the position."""
    am: tuple[chess.Move, ...] = ()
    """Moves to avoid: playing one fails the position."""
    points: tuple[tuple[chess.Move, int], ...] = ()
    """STS ``c0`` points per move (empty when the line has none)."""

    @property
    def max_points(self) -> int:
        """The most points a move earns here (0 without ``c0`` points)."""
        return max((p for _, p in self.points), default=0)

    def expected(self) -> str:
        """``bm Qg6`` / ``am Rxb2`` in SAN, for reports."""
        board = chess.Board(self.fen)
        parts = []
        if self.bm:
            parts.append("bm " + " ".join(board.san(m) for m in self.bm))
        if self.am:
            parts.append("am " + " ".join(board.san(m) for m in self.am))
        return " ".join(parts)


def _points(board: chess.Board, comment: str) -> tuple[tuple[chess.Move, int], ...]:
    found = []
    for item in comment.split(","):
        san, sep, value = item.strip().partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            return ()  # not a points comment
        try:
            found.append((board.parse_san(san.strip()), int(value)))
        except ValueError:
            continue
    return tuple(found)


def _moves(value: object) -> tuple[chess.Move, ...]:
    return tuple(m for m in value if isinstance(m, chess.Move)) if isinstance(value, list) else ()


def parse_epd_lines(lines: Iterable[str], source: str = "<epd>") -> list[EpdPosition]:
    """Positions from EPD lines (blank lines and ``#`` comments skipped).

    :raises: :exc:`ValueError` quoting a line that is not EPD or has an illegal ``bm``/``am`` move;
        :exc:`TypeError` for *lines* that are not a list of strings.
    """
    suite = []
    for number, _text, board, ops in epd_records(lines, source):
        c0 = ops.get("c0")
        suite.append(
            EpdPosition(
                board.fen(),
                str(ops.get("id") or f"{Path(source).name}:{number}"),
                _moves(ops.get("bm")),
                _moves(ops.get("am")),
                _points(board, c0) if isinstance(c0, str) else (),
            )
        )
    return suite


def read_epd(path: str | Path) -> list[EpdPosition]:
    """Reads an EPD suite file.

    :raises: :exc:`ValueError` for an unreadable file or a bad line.
    """
    text = read_text(path, "path", "EPD suite", limit=MAX_EPD_BYTES)
    return parse_epd_lines(text.splitlines(), str(path))


@dataclasses.dataclass(frozen=True)
class PositionResult:
    """What an engine played on one position."""

    id: str
    """The position's id."""
    move: chess.Move | None
    """The engine's move."""
    solved: bool
    """In ``bm`` (when given) and not in ``am``."""
    points: int
    """``c0`` points earned (0 without them)."""
    depth: int | None = None
    """Depth reached."""
    nodes: int | None = None
    """Nodes searched."""
    time: float = 0.0
    """Seconds spent."""


@dataclasses.dataclass(frozen=True)
class SuiteResult:
    """One engine's run over a suite."""

    engine: str
    """Engine name."""
    results: tuple[PositionResult, ...]
    """Per position, in suite order."""
    max_points: int = 0
    """Points available (sum over positions with ``c0`` points)."""

    @property
    def solved(self) -> int:
        """Positions solved."""
        return sum(r.solved for r in self.results)

    @property
    def total(self) -> int:
        """Positions run."""
        return len(self.results)

    @property
    def points(self) -> int:
        """``c0`` points earned."""
        return sum(r.points for r in self.results)


def _judge(position: EpdPosition, move: chess.Move | None) -> tuple[bool, int]:
    solved = move is not None and (not position.bm or move in position.bm) and move not in position.am
    points = dict(position.points).get(move, 0) if move is not None else 0
    return solved, points


def run_epd(
    suite: Sequence[EpdPosition],
    engine: str = "camelpy",
    *,
    ms: int | None = None,
    depth: int | None = None,
    nodes: int | None = None,
    hash_mb: int = 16,
    name: str | None = None,
) -> SuiteResult:
    """Runs *suite* on *engine*: ``"camelpy"`` (in-process, a fresh hash table per position) or a UCI
    command line, with a per-position limit of *ms* milliseconds, *depth* plies or *nodes* nodes.

    :raises: :exc:`ValueError` when no limit is given, a limit or *hash_mb* is below 1 or the engine
        cannot be started; :exc:`TypeError` for an argument of the wrong type.
    """
    suite = items_arg(suite, "suite", EpdPosition)
    str_arg(engine, "engine")
    for label, value in (("ms", ms), ("depth", depth), ("nodes", nodes)):
        opt_int_arg(value, label, 1)
    int_arg(hash_mb, "hash_mb", 1)
    opt_str_arg(name, "name")
    if ms is None and depth is None and nodes is None:
        raise ValueError("give a per-position limit: ms, depth or nodes")
    results = []
    if engine == "camelpy":
        searcher = camelpy.Engine(hash_mb=hash_mb)
        for position in suite:
            searcher.new_game()
            found = searcher.search(chess.Board(position.fen), ms=ms, depth=depth, nodes=nodes)
            solved, points = _judge(position, found.best_move)
            results.append(
                PositionResult(
                    position.id, found.best_move, solved, points, found.depth, found.nodes, found.time
                )
            )
    else:
        command = split_command(engine, "engine")
        try:
            uci = chess.engine.SimpleEngine.popen_uci(command)
        except (OSError, chess.engine.EngineError) as err:
            raise ValueError(f"cannot start engine {quote(engine)}: {brief(err)}") from None
        try:
            options = {"Hash": hash_mb} if "Hash" in uci.options else {}
            uci.configure(options)
            limit = chess.engine.Limit(time=ms / 1000 if ms else None, depth=depth, nodes=nodes)
            for position in suite:
                start = time.perf_counter()
                played = uci.play(
                    chess.Board(position.fen), limit, info=chess.engine.INFO_BASIC, game=object()
                )
                spent = time.perf_counter() - start
                solved, points = _judge(position, played.move)
                info = played.info
                results.append(
                    PositionResult(
                        position.id, played.move, solved, points, info.get("depth"), info.get("nodes"), spent
                    )
                )
        finally:
            uci.quit()
    label = name or ("camelpy" if engine == "camelpy" else Path(split_command(engine, "engine")[0]).name)
    return SuiteResult(label, tuple(results), sum(p.max_points for p in suite))


def report(suite: Sequence[EpdPosition], runs: Sequence[SuiteResult]) -> str:
    """The per-position table (one column per engine) and the totals."""
    widths = max((len(p.id) for p in suite), default=2)
    expected = [p.expected() for p in suite]
    ew = max((len(e) for e in expected), default=8)
    header = f"{'id':<{widths}}  {'expected':<{ew}}" + "".join(f"  {r.engine:<24}" for r in runs)
    lines = [header]
    for i, position in enumerate(suite):
        board = chess.Board(position.fen)
        row = f"{position.id:<{widths}}  {expected[i]:<{ew}}"
        for run in runs:
            r = run.results[i]
            san = board.san(r.move) if r.move is not None and r.move in board.legal_moves else str(r.move)
            mark = "ok" if r.solved else "--"
            extra = f" {r.points}p" if position.points else ""
            depth = f" d{r.depth}" if r.depth is not None else ""
            row += f"  {f'{mark} {san}{extra}{depth} {r.time:.2f}s':<24}"
        lines.append(row)
    for run in runs:
        line = f"{run.engine}: solved {run.solved}/{run.total} ({run.solved / max(run.total, 1):.1%})"
        if run.max_points:
            line += f", points {run.points}/{run.max_points}"
        lines.append(line)
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy epd`` options."""
    p.add_argument("suite", help="EPD file (bm/am, optional STS c0 points)")
    p.add_argument("--engine", default="camelpy", help="'camelpy' (in-process, default) or a UCI command")
    p.add_argument("--engine2", help="a second engine for a comparison column")
    p.add_argument("--ms", type=int, help="milliseconds per position")
    p.add_argument("--depth", type=int, help="depth per position")
    p.add_argument("--nodes", type=int, help="nodes per position")
    p.add_argument("--hash", type=int, default=16, help="hash table MB (default 16)")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy epd`` from parsed arguments."""
    suite = read_epd(args.suite)
    engines = [args.engine] + ([args.engine2] if args.engine2 else [])
    runs = [
        run_epd(suite, e, ms=args.ms, depth=args.depth, nodes=args.nodes, hash_mb=args.hash) for e in engines
    ]
    print(report(suite, runs))
    return 0

"""What crosses the seam between the native core and the Python API: the one normaliser of a
"FEN or ``chess.Board``" argument, the one reading of a ``chess.engine.Limit``'s time, and the
conversion of the core's typed reports (:class:`camelpy._core.IterationInfo`,
:class:`camelpy._core.CurrMoveInfo`, :class:`camelpy._core.SearchOutcome`) into python-chess objects
and :class:`SearchResult`.

:mod:`camelpy.engine` and :mod:`camelpy.batch` both build on this module, and it imports neither.

>>> import chess
>>> root = board_root(chess.Board())
>>> root.fen == chess.STARTING_FEN, root.moves, root.chess960
(True, (), False)
"""

from __future__ import annotations

import dataclasses
from typing import Union

import chess
import chess.engine

from camelpy import _core
from camelpy._args import real_arg

__all__ = [
    "BoardOrFen",
    "BoardRoot",
    "SearchResult",
    "board_root",
    "info_dict",
    "limit_ms",
    "search_result",
    "seconds_ms",
]

BoardOrFen = Union[str, chess.Board]
"""What the API accepts as a position: a FEN string or a :class:`chess.Board` (with its move stack)."""


@dataclasses.dataclass(frozen=True)
class BoardRoot:
    """A position as the core takes it: the root FEN, the moves played from it (UCI), the mode."""

    fen: str
    """The FEN of the root (a board's :meth:`chess.Board.root`, or the FEN given)."""
    moves: tuple[str, ...]
    """The moves from the root to the position (a board's move stack), in UCI."""
    chess960: bool
    """Whether castling moves are written king-takes-rook."""
    given: BoardOrFen
    """The argument as given."""

    def current_fen(self) -> str:
        """The FEN of the position itself (after the moves)."""
        if isinstance(self.given, chess.Board):
            return self.given.fen(shredder=self.chess960)
        return self.fen

    def board(self) -> chess.Board:
        """The position as a :class:`chess.Board` with its move stack: the board given, or one set up
        from the FEN by camelpy's parser (so a bad FEN raises :exc:`camelpy.InvalidFenError`)."""
        if isinstance(self.given, chess.Board):
            return self.given
        return _core.Position(self.fen, self.chess960).to_board()


def board_root(board_or_fen: BoardOrFen, chess960: bool | None = None) -> BoardRoot:
    """Normalises a FEN or a :class:`chess.Board` (Chess960 from the board unless *chess960* is given;
    a FEN is standard chess unless *chess960*).

    :raises: :exc:`TypeError` for anything else.
    """
    if isinstance(board_or_fen, chess.Board):
        mode = board_or_fen.chess960 if chess960 is None else chess960
        root = board_or_fen.root()
        replay = root.copy(stack=False)
        moves = []
        for move in board_or_fen.move_stack:
            moves.append(replay.uci(move, chess960=mode))
            replay.push(move)
        return BoardRoot(root.fen(shredder=mode), tuple(moves), mode, board_or_fen)
    if isinstance(board_or_fen, str):
        return BoardRoot(board_or_fen, (), bool(chess960), board_or_fen)
    raise TypeError(f"expected a FEN string or a chess.Board, got {type(board_or_fen).__name__}")


def seconds_ms(seconds: object, name: str) -> int:
    """A number of seconds (a ``Limit``'s time, clock or increment) as whole milliseconds for the core,
    at most ``MAX_MS`` (a time beyond that is as good as forever).

    >>> seconds_ms(0.25, "limit time"), seconds_ms(1e30, "limit time") == MAX_MS
    (250, True)
    >>> seconds_ms(-1, "limit time")
    Traceback (most recent call last):
    ...
    ValueError: limit time must be at least 0, got -1

    :raises: :exc:`ValueError` for a negative, infinite or NaN number, :exc:`TypeError` for something
        that is not a number.
    """
    return min(MAX_MS, int(real_arg(seconds, name, minimum=0) * 1000))


def limit_ms(limit: chess.engine.Limit) -> int | None:
    """A ``Limit``'s ``time`` as milliseconds for the core (:func:`seconds_ms`), at least 1: python-chess
    sends ``movetime 0`` for ``time=0``, which the core takes as the shortest search.

    >>> limit_ms(chess.engine.Limit(time=0.25)), limit_ms(chess.engine.Limit(depth=3))
    (250, None)
    """
    return None if limit.time is None else max(1, seconds_ms(limit.time, "limit time"))


MAX_MS = 2**64 - 1
"""The longest time limit the core takes (ms): some 585 million years."""


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found (the last completed iteration)."""

    best_move: chess.Move | None
    """The move to play; ``None`` only if the side to move has no legal move."""
    ponder: chess.Move | None
    """The expected reply, if known."""
    score: chess.engine.PovScore
    """The score, from the point of view of the side to move at the root."""
    depth: int
    """Completed depth."""
    seldepth: int
    """Deepest ply reached."""
    nodes: int
    """Nodes searched."""
    nps: int
    """Nodes per second."""
    time: float
    """Seconds spent."""
    hashfull: int
    """Permille of the hash table written by this search."""
    pv: list[chess.Move] = dataclasses.field(default_factory=list)
    """The principal variation."""
    lines: list[chess.engine.InfoDict] = dataclasses.field(default_factory=list)
    """Every line searched, best first (one unless ``multipv`` > 1), as python-chess ``InfoDict``
    objects with ``multipv``, ``score`` and ``pv``."""


def pov_score(info: _core.IterationInfo, turn: chess.Color) -> chess.engine.PovScore:
    """The report's score as python-chess's ``PovScore`` from *turn*'s point of view."""
    relative: chess.engine.Score
    if info.mate is not None:
        relative = chess.engine.Mate(info.mate)
    else:
        relative = chess.engine.Cp(info.cp if info.cp is not None else 0)
    return chess.engine.PovScore(relative, turn)


def _moves(board: chess.Board, ucis: list[str]) -> list[chess.Move]:
    line = []
    replay = board.copy(stack=False)
    for uci in ucis:
        move = replay.parse_uci(uci)
        line.append(move)
        replay.push(move)
    return line


def info_dict(board: chess.Board, report: _core.IterationInfo | _core.CurrMoveInfo) -> chess.engine.InfoDict:
    """A native report as the ``InfoDict`` python-chess would have parsed from the UCI line."""
    if isinstance(report, _core.CurrMoveInfo):
        return {
            "depth": report.depth,
            "currmove": board.parse_uci(report.currmove),
            "currmovenumber": report.currmovenumber,
            "nodes": report.nodes,
            "time": report.time_ms / 1000,
        }
    info: chess.engine.InfoDict = {
        "depth": report.depth,
        "seldepth": report.seldepth,
        "multipv": report.multipv,
        "score": pov_score(report, board.turn),
        "nodes": report.nodes,
        "time": report.time_ms / 1000,
        "hashfull": report.hashfull,
        "pv": _moves(board, report.pv),
    }
    if report.time_ms > 0:
        info["nps"] = report.nodes * 1000 // report.time_ms
    return info


def search_result(board: chess.Board, outcome: _core.SearchOutcome) -> SearchResult:
    """A native search's outcome as a :class:`SearchResult` for *board*."""
    details = info_dict(board, outcome.info)
    pv = details.get("pv", [])
    return SearchResult(
        best_move=board.parse_uci(outcome.best_move) if outcome.best_move else None,
        ponder=pv[1] if len(pv) > 1 else None,
        score=details["score"],
        depth=outcome.info.depth,
        seldepth=outcome.info.seldepth,
        nodes=outcome.info.nodes,
        nps=details.get("nps", 0),
        time=outcome.info.time_ms / 1000,
        hashfull=outcome.info.hashfull,
        pv=pv,
        lines=[info_dict(board, line) for line in outcome.lines],
    )

"""camelpy: a chess engine for Python programmers, with a Rust core.

Move generation, perft, the evaluation and the search (with LazySMP threads) run in Rust with the GIL
released; everything you touch follows python-chess: FEN strings or :class:`chess.Board` in,
:class:`chess.Move` and :class:`chess.engine.PovScore` out, ``ValueError`` subclasses for bad input.
:func:`search` and :class:`Engine` search, :func:`perft` and :func:`divide` count, :func:`bench` runs the
fixed benchmark, :func:`review` finds a game's inaccuracies, mistakes and blunders, and :mod:`camelpy.data`
generates and reads self-play training data. ``camelpy`` on the command line is a UCI engine
(:mod:`camelpy.uci`), and ``camelpy --help`` lists the engine-builder's tools (:mod:`camelpy.tools`).

>>> import camelpy
>>> camelpy.perft(camelpy.STARTING_FEN, 3)
8902
"""

from __future__ import annotations

import threading

import chess

from camelpy import _core
from camelpy._core import Position
from camelpy._core import divide as _divide
from camelpy._core import perft as _perft
from camelpy.engine import Engine, SearchResult, bench, search
from camelpy.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from camelpy.review import GameReview, MoveReview, review
from camelpy.types import BoardOrFen, board_root

MAX_HASH_MB = _core.MAX_HASH_MB
"""The largest transposition table, in MiB (:class:`Engine`'s *hash_mb*, the UCI option ``Hash``)."""
MAX_THREADS = _core.MAX_THREADS
"""The most search threads (:class:`Engine`'s *threads*, the UCI option ``Threads``)."""
MAX_MULTIPV = _core.MAX_MULTIPV
"""The most lines one search reports (*multipv*, the UCI option ``MultiPV``)."""
STARTING_FEN = _core.STARTING_FEN
"""The standard starting position's FEN."""
__version__ = _core.__version__
"""camelpy's version, the package's and the crates'."""

__all__ = [
    "MAX_HASH_MB",
    "MAX_MULTIPV",
    "MAX_THREADS",
    "STARTING_FEN",
    "Engine",
    "SearchResult",
    "search",
    "bench",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Position",
    "__version__",
    "divide",
    "perft",
    "review",
    "GameReview",
    "MoveReview",
]


def perft(
    board_or_fen: BoardOrFen,
    depth: int,
    *,
    chess960: bool | None = None,
    stop: threading.Event | None = None,
) -> int:
    """Counts the leaves of the legal move tree *depth* plies deep, in Rust with the GIL released.

    *board_or_fen* is a FEN or a :class:`chess.Board` (its current position; Chess960 is taken from
    the board unless *chess960* is given). Ctrl-C, or *stop* set from another thread, ends a deep
    count within about 50 ms with :exc:`ValueError` ``perft was stopped``.

    >>> import chess, camelpy
    >>> camelpy.perft(chess.Board(), 4)
    197281
    >>> camelpy.perft("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 2, chess960=True)
    528

    :raises: :exc:`camelpy.InvalidFenError` for a bad FEN, :exc:`ValueError` for a depth outside
        0 … ``camelpy._core.MAX_PERFT_DEPTH``, :exc:`TypeError` for a depth that is not an integer.
    """
    root = board_root(board_or_fen, chess960)
    return _perft(root.current_fen(), depth, root.chess960, stop=stop)


def divide(
    board_or_fen: BoardOrFen,
    depth: int,
    *,
    chess960: bool | None = None,
    stop: threading.Event | None = None,
) -> dict[chess.Move, int]:
    """Perft split by root move: each legal move with the number of leaves below it (*stop* as for
    :func:`perft`).

    Keys are :class:`chess.Move` as python-chess writes them (``e1g1``; king takes rook in Chess960).

    >>> import camelpy
    >>> counts = camelpy.divide(camelpy.STARTING_FEN, 2)
    >>> counts[chess.Move.from_uci("e2e4")], sum(counts.values())
    (20, 400)

    :raises: :exc:`camelpy.InvalidFenError` for a bad FEN, :exc:`ValueError` for a depth outside
        0 … ``camelpy._core.MAX_PERFT_DEPTH``, :exc:`TypeError` for a depth that is not an integer.
    """
    root = board_root(board_or_fen, chess960)
    return dict(_divide(root.current_fen(), depth, root.chess960, stop=stop))

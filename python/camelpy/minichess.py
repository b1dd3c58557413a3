"""MiniChess: chess on 6 rows × 5 columns, the game of a widely taught AI course, with the rules in the
Rust core (crate ``camelpy-minichess``) and a python-chess-style :class:`Board`.

The rules (camelpy's issue 18): row 0 is the top (Black's back rank ``K Q B N R`` from column 0, pawns on
row 1), row 5 the bottom (White's ``R N B Q K``, pawns on row 4); White moves first. Pieces move as in
chess; pawns step one square forward only (no double step, so no en passant) and capture one square
diagonally forward; a pawn reaching the last row becomes a queen. No castling. **No check rule**: any
move that follows the movement rules is legal, and capturing the opponent's king wins at once. After
:data:`MAX_PLIES` plies the material count decides (queen 20, bishop 8, knight 7, rook 6, pawn 2, kings
not counted; equal totals draw). A side to move that has no move at all **loses** (the course's rules
are silent; under its runner such a player can only output no move or an illegal one, which loses).
A finished game has no legal moves.

Moves are :class:`Move` values, written as the course writes them, ``from_row from_col to_row to_col``.
Boards read and write two texts: the course's ``state`` file (:meth:`Board.from_state`,
:meth:`Board.state`) and a one-line FEN-like form (:meth:`Board.fen`): the rows from row 0 to row 5
separated by ``/`` (``KQBNRP`` White, ``kqbnrp`` Black, digits for empty squares), ``w`` or ``b``, and the
plies played, which the ``state`` file does not hold.

>>> from camelpy.minichess import Board, Move, perft
>>> board = Board()
>>> len(board.legal_moves), board.legal_moves[-2:]
(7, [Move(5, 1, 3, 0), Move(5, 1, 3, 2)])
>>> board.push("4 2 3 2")
>>> board
Board('kqbnr/ppppp/5/2P2/PP1PP/RNBQK b 1')
>>> print(board)
0  k q b n r
1  p p p p p
2  . . . . .
3  . . P . .
4  P P . P P
5  R N B Q K
   0 1 2 3 4
>>> board.pop()
Move(4, 2, 3, 2)
>>> perft(board, 4)
4230

The player (:func:`search`, :class:`Searcher`) and the course's baselines (:func:`baseline_move`):

>>> from camelpy.minichess import search, baseline_move
>>> result = search(Board("k4/5/5/5/5/Q3K w 7"), depth=3)
>>> result.move, result.info.win_in
(Move(5, 0, 0, 0), 1)
>>> baseline_move(Board("k4/5/5/5/5/Q3K w 7"), "weak-minimax", seed=1)
Move(5, 0, 0, 0)
"""

from __future__ import annotations

import dataclasses
import os
import random
import tempfile
import threading
from collections.abc import Callable, Mapping
from typing import Union

from camelpy import _core, games
from camelpy._args import choice_arg, int_arg, opt_int_arg, path_arg, read_text, real_arg, str_arg
from camelpy._quote import quote
from camelpy.errors import InvalidMoveError
from camelpy.games import MAX_HASH_MB, weight_values

__all__ = [
    "ACTION_FILE",
    "BASELINES",
    "BLACK",
    "COLS",
    "DEFAULT_HASH_MB",
    "MAX_HASH_MB",
    "MAX_PLIES",
    "MAX_STATE_BYTES",
    "ROWS",
    "STARTING_STATE",
    "STATE_FILE",
    "STARTING_TEXT",
    "WHITE",
    "Board",
    "EvalTerm",
    "Evaluation",
    "Move",
    "Outcome",
    "SearchInfo",
    "SearchResult",
    "Searcher",
    "Termination",
    "DEFAULT_WEIGHTS",
    "WEIGHT_HELP",
    "WEIGHT_NAMES",
    "Samples",
    "baseline_move",
    "compare_weights",
    "evaluate",
    "selfplay_samples",
    "perft",
    "search",
    "write_atomically",
]

WHITE = True
"""White, as python-chess spells colours (the course's ``0``)."""
BLACK = False
"""Black (the course's ``1``)."""
ROWS = 6
"""Rows, numbered 0 (top, Black's back rank) to 5."""
COLS = 5
"""Columns, numbered 0 to 4."""
MAX_PLIES: int = _core.MINICHESS_MAX_PLIES
"""Plies after which the game ends by the material count (50: 25 moves each)."""
STARTING_TEXT: str = _core.MINICHESS_START
"""The start in the one-line form."""
STARTING_STATE: str = _core.MiniBoard().state()
"""The start as the course's ``state`` file."""
MAX_STATE_BYTES = 4096
"""Largest ``state`` file read: the format is 13 short lines (about 120 bytes), so anything much
bigger is not one (and a player must not spend its time reading a huge file)."""
STATE_FILE = "state"
"""The course's file protocol: the file the runner writes for the player to move (one name for the
runner in :mod:`camelpy.arena.minichess` and the player in :mod:`camelpy.protocols.minichess`)."""
ACTION_FILE = "action"
"""The course's file protocol: the file the player writes its moves to."""

_MOVE_SYNTAX = "expected 'from_row from_col to_row to_col' on the 6x5 board"


@dataclasses.dataclass(frozen=True, order=True)
class Move:
    """A move from (*from_row*, *from_col*) to (*to_row*, *to_col*). A pawn that reaches its last row
    always becomes a queen, so there is no promotion field. ``str`` writes the course's form.

    >>> mv = Move.parse("4 0 3 0")
    >>> mv, str(mv)
    (Move(4, 0, 3, 0), '4 0 3 0')
    >>> Move(4, 0, 6, 0)
    Traceback (most recent call last):
    ...
    camelpy.errors.InvalidMoveError: invalid move (expected 'from_row from_col to_row to_col' ...): '4 0 6 0'

    :raises: :exc:`TypeError` for a coordinate that is not an integer, :exc:`camelpy.errors.InvalidMoveError`
        (a :exc:`ValueError`) for one off the board.
    """

    from_row: int
    """The row the piece leaves (0 top to 5 bottom)."""
    from_col: int
    """The column it leaves (0 to 4)."""
    to_row: int
    """The row it lands on."""
    to_col: int
    """The column it lands on."""

    def __post_init__(self) -> None:
        for name in ("from_row", "from_col", "to_row", "to_col"):
            int_arg(getattr(self, name), name, None)  # the type check (a TypeError); the range below
        if not (0 <= self.from_row < ROWS and 0 <= self.to_row < ROWS) or not (
            0 <= self.from_col < COLS and 0 <= self.to_col < COLS
        ):
            raise InvalidMoveError(f"invalid move ({_MOVE_SYNTAX}): {quote(str(self))}")

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move *text* writes: four whole numbers separated by whitespace, as the course's ``action``
        file holds them.

        >>> Move.parse(" 5 1\\t3 2\\r")
        Move(5, 1, 3, 2)
        >>> Move.parse("e2e4")
        Traceback (most recent call last):
        ...
        camelpy.errors.InvalidMoveError: invalid move (expected 'from_row from_col to_row to_col' ...): 'e2e4'

        :raises: :exc:`TypeError` for a *text* that is not a string, :exc:`camelpy.errors.InvalidMoveError`
            for one that is not a move on the board.
        """
        words = str_arg(text, "move").split()
        if len(words) != 4 or not all(w.isascii() and w.isdigit() and len(w) <= 2 for w in words):
            raise InvalidMoveError(f"invalid move ({_MOVE_SYNTAX}): {quote(text)}")
        try:
            return cls(*(int(w) for w in words))
        except InvalidMoveError:
            raise InvalidMoveError(f"invalid move ({_MOVE_SYNTAX}): {quote(text)}") from None

    def __str__(self) -> str:
        return f"{self.from_row} {self.from_col} {self.to_row} {self.to_col}"

    def __repr__(self) -> str:
        return f"Move({self.from_row}, {self.from_col}, {self.to_row}, {self.to_col})"

    @classmethod
    def _from_native(cls, raw: tuple[int, int, int, int]) -> Move:
        return cls(*raw)

    def _to_native(self) -> tuple[int, int, int, int]:
        return (self.from_row, self.from_col, self.to_row, self.to_col)


Termination = games.Termination
"""How a game ended (:class:`camelpy.games.Termination`)."""
Outcome = games.Outcome
"""The end of a game (:class:`camelpy.games.Outcome`): its termination and winner."""


MoveLike = Union[Move, str]
"""What :meth:`Board.push` takes: a :class:`Move` or its text."""


class Board(games.Board[Move]):
    """A MiniChess game: the pieces, the side to move, the plies played and the moves pushed on this
    board, backed by the Rust core; copy, pickling, equality, the move stack and the result come from
    :class:`camelpy.games.Board`. *text* is the one-line form (default: the start).

    >>> board = Board("k4/5/5/5/5/Q3K w 7")
    >>> board.push(Move(5, 0, 0, 0))
    >>> board.outcome()
    Outcome(termination=<Termination.KING_CAPTURED: 'king_captured'>, winner=True)
    >>> board.is_game_over(), board.result(), board.legal_moves
    (True, '1-0', [])
    >>> import pickle
    >>> board = Board()
    >>> board.push("4 0 3 0")
    >>> again = pickle.loads(pickle.dumps(board))
    >>> again == board, again.move_stack
    (True, [Move(4, 0, 3, 0)])
    >>> Board().push("4 0 2 0")
    Traceback (most recent call last):
    ...
    camelpy.errors.IllegalMoveError: illegal move: '4 0 2 0' in 'kqbnr/ppppp/5/5/PPPPP/RNBQK w 0'

    :raises: :exc:`camelpy.errors.InvalidStateError` (a :exc:`ValueError`) for a text that cannot be read
        or describes a board the rules cannot reach; :exc:`TypeError` for one that is not a string.
    """

    __slots__ = ()

    _native: _core.MiniBoard
    _move_type = Move

    def __init__(self, text: str = STARTING_TEXT) -> None:
        self._native = _core.MiniBoard(str_arg(text, "text"))

    @classmethod
    def from_state(cls, text: str, ply: int = 0) -> Board:
        """The board a course ``state`` file's *text* describes, *ply* plies into the game (the file does
        not say; 0 by default).

        >>> Board.from_state(STARTING_STATE) == Board()
        True
        >>> Board.from_state("0\\n1 2 3")
        Traceback (most recent call last):
        ...
        camelpy.errors.InvalidStateError: expected 13 lines (...), got 2: '0\\n1 2 3'

        :raises: :exc:`camelpy.errors.InvalidStateError` for a text that is not a state file,
            :exc:`ValueError` for a *ply* out of range, :exc:`TypeError` for arguments of the wrong type.
        """
        return cls._wrap(_core.MiniBoard.from_state(str_arg(text, "text"), ply))

    @classmethod
    def read_state(cls, path: str | os.PathLike[str], ply: int = 0) -> Board:
        """The board of the ``state`` file at *path* (see :meth:`from_state`).

        :raises: :exc:`ValueError` naming the path for a file that cannot be read, is not a regular
            file (a directory, a named pipe, a device) or is larger than :data:`MAX_STATE_BYTES`, and as
            :meth:`from_state`.
        """
        return cls.from_state(read_text(path, "path", "state file", limit=MAX_STATE_BYTES), ply)

    def state(self) -> str:
        """The course's ``state`` file text (no ply count; ends with a newline).

        >>> print(Board().state(), end="")  # doctest: +ELLIPSIS
        0
        0 0 0 0 0
        ...
        2 3 4 5 6
        6 5 4 3 2
        ...
        0 0 0 0 0
        """
        return self._native.state()

    def write_state(self, path: str | os.PathLike[str]) -> None:
        """Writes :meth:`state` to *path* atomically (:func:`write_atomically`)."""
        write_atomically(path_arg(path, "path"), self.state())

    def fen(self) -> str:
        """The one-line form: rows 0 to 5 separated by ``/``, the side to move, the plies played.

        >>> Board().fen()
        'kqbnr/ppppp/5/5/PPPPP/RNBQK w 0'
        """
        return self._native.fen()

    @property
    def ply(self) -> int:
        """Plies played in the game (from the one-line form's count, plus the moves pushed)."""
        return self._native.ply

    @property
    def zobrist_key(self) -> int:
        """The position's Zobrist key (pieces and side to move; not the ply count)."""
        return self._native.zobrist_key

    def piece_at(self, row: int, col: int) -> str | None:
        """The letter of the piece on (*row*, *col*) (``KQBNRP`` White, lowercase Black), or ``None``.

        >>> Board().piece_at(5, 4), Board().piece_at(2, 2)
        ('K', None)

        :raises: :exc:`ValueError` for a square off the board, :exc:`TypeError` for a non-integer.
        """
        return self._native.piece_at(int_arg(row, "row", 0, ROWS - 1), int_arg(col, "col", 0, COLS - 1))

    def material(self, color: bool) -> int:
        """*color*'s material by the count's values (kings not counted).

        >>> Board().material(WHITE)
        51

        :raises: :exc:`TypeError` for a *color* that is not :data:`WHITE` or :data:`BLACK` (a ``bool``;
            the course's ``0`` for White would read as ``False``, Black, so numbers are refused).
        """
        if not isinstance(color, bool):
            raise TypeError(
                f"color must be WHITE (True) or BLACK (False), got {type(color).__name__} {color!r}"
            )
        return self._native.material(color)

    def __str__(self) -> str:
        lines = []
        for row in range(ROWS):
            cells = (self._native.piece_at(row, col) or "." for col in range(COLS))
            lines.append(f"{row}  " + " ".join(cells))
        lines.append("   " + " ".join(str(col) for col in range(COLS)))
        return "\n".join(lines)


def perft(board: Board, depth: int, *, stop: threading.Event | None = None) -> int:
    """The number of leaves of the legal move tree *depth* plies below *board* (1 at depth 0; a finished
    game has no moves), counted in the core with the GIL released; Ctrl-C stops a deep count.

    >>> perft(Board(), 3)
    452

    :raises: :exc:`TypeError` for a *board* that is not a :class:`Board` or a non-integer *depth*,
        :exc:`ValueError` for a *depth* out of range.
    """
    return games.perft(Board._checked(board), depth, stop=stop)


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Writes *text* to *path* so that a reader sees the old file or the whole new one, never a part:
    the text goes to a temporary file in the same directory, which then replaces *path*
    (:func:`os.replace` is atomic on POSIX and Windows).

    >>> import os, pathlib, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "action")
    >>> write_atomically(path, "4 0 3 0\\n")
    >>> pathlib.Path(path).read_text()
    '4 0 3 0\\n'

    :raises: :exc:`OSError` when the directory cannot be written.
    """
    target = path_arg(path, "path")
    directory = os.path.dirname(os.path.abspath(target))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


# The player and the baselines --------------------------------------------------------------------------

BASELINES = ("random", "weak-minimax", "strong-minimax", "alpha-beta")
"""The course's baseline players, weakest first (:func:`baseline_move`): ``random`` (a legal move at
random), ``weak-minimax`` (minimax 2 plies deep on the 50-ply material count), ``strong-minimax``
(minimax up to 4 plies on the engine's evaluation, no pruning), ``alpha-beta`` (alpha-beta with
iterative deepening to the time limit, captures first, the engine's evaluation). None uses the
player's table, quiescence or pruning; ties between equal moves are broken at random (by *seed*)."""

DEFAULT_HASH_MB = games.DEFAULT_HASH_MB
"""The player's table size by default, in MiB (16; :data:`MAX_HASH_MB` at most, both
:mod:`camelpy.games`')."""

WEIGHT_NAMES: tuple[str, ...] = tuple(name for name, _, _ in _core.MINICHESS_WEIGHTS)
"""The names of the evaluation's weights, in order (see :func:`evaluate`)."""
DEFAULT_WEIGHTS: dict[str, int] = {name: default for name, default, _ in _core.MINICHESS_WEIGHTS}
"""The default weights: piece values set by hand, the rest tuned on self-play (``camelpy minichess tune``;
docs/minichess.md). A copy: changing it changes nothing."""
WEIGHT_HELP: dict[str, str] = {name: why for name, _, why in _core.MINICHESS_WEIGHTS}
"""One line per weight saying what it rewards."""


SearchInfo = games.SearchInfo[Move]
"""One finished iteration of the player's search (:class:`camelpy.games.SearchInfo` of :class:`Move`);
a proven ``win_in`` is a king capture, the material count at ply 50, or no move left."""
SearchResult = games.SearchResult[Move]
"""What :func:`search` found (:class:`camelpy.games.SearchResult` of :class:`Move`)."""


class Searcher(games.Searcher[Board, Move], native=_core.MiniSearcher, board=Board, defaults=DEFAULT_WEIGHTS):
    """The MiniChess player's search, keeping its table of *hash_mb* MiB from move to move (for a game:
    :meth:`clear` before a new one). Iterative deepening, principal-variation search, a transposition
    table keyed by the pieces, the side to move and the ply count, quiescence on captures and
    promotions, killer and history ordering, null move, late-move reductions; a captured king, the
    50-ply count and a side with no move are decided inside the search. With *threads* above one the
    search is LazySMP (:class:`camelpy.games.Searcher`).

    >>> searcher = Searcher(hash_mb=1)
    >>> searcher.search(Board(), depth=4).info.depth
    4
    >>> Searcher(weights={"tempo": 0}).weights["tempo"]
    0

    :raises: :exc:`TypeError`/:exc:`ValueError` for a bad *hash_mb* (more than the machine has is a
        ``ValueError``), :exc:`MemoryError` if the table cannot be allocated.
    """


search = Searcher.new_search
"""Searches with a new :class:`Searcher` (:meth:`camelpy.games.Searcher.new_search`)."""


def baseline_move(
    board: Board,
    name: str,
    *,
    time: float = 1.0,
    seed: int | None = None,
    on_iteration: Callable[[Move, int], object] | None = None,
) -> Move | None:
    """The move of the baseline player *name* (one of :data:`BASELINES`) on *board*, thinking at most
    *time* seconds (``strong-minimax`` stops deepening and ``alpha-beta`` stops searching when it is
    up); ``None`` when the game is over. With a *seed* the choice among equally good moves is a
    function of the seed and the position, so a seeded game replays exactly (``alpha-beta`` also
    depends on how deep it got in the time). *on_iteration* is called with ``(move, depth)`` after
    every finished iteration (``random``: once, at depth 0), so a player can write its move early.

    >>> baseline_move(Board(), "random", seed=1) == baseline_move(Board(), "random", seed=1)
    True
    >>> depths = []
    >>> move = baseline_move(Board(), "weak-minimax", seed=1, on_iteration=lambda m, d: depths.append(d))
    >>> depths
    [1, 2]

    :raises: :exc:`TypeError`/:exc:`ValueError` for a bad argument.
    """
    Board._checked(board)
    name = choice_arg(name, "name", BASELINES)
    seconds = real_arg(time, "time", minimum=0, maximum=365 * 24 * 3600)
    seed = opt_int_arg(seed, "seed", 0, 2**64 - 1)
    if on_iteration is not None and not callable(on_iteration):
        raise TypeError(f"on_iteration must be callable, got {type(on_iteration).__name__}")
    if name == "random":
        moves = board.legal_moves
        if not moves:
            return None
        rng = random.Random() if seed is None else random.Random(f"{seed}\n{board.state()}")
        choice = rng.choice(moves)
        if on_iteration is not None:
            on_iteration(choice, 0)
        return choice
    if seed is None:
        seed = random.getrandbits(64)
    report: Callable[[tuple[int, int, int, int], int], None] | None = None
    if on_iteration is not None:
        callback = on_iteration

        def _report(move: tuple[int, int, int, int], depth: int) -> None:
            callback(Move(*move), depth)

        report = _report
    move = _core.minichess_baseline(board._native, name, seconds, seed, report)
    return None if move is None else Move(*move)


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The static evaluation for the side to move, in centipawns, and its terms (the ``count`` term
    is scaled by ply / 50 and the ``tempo`` term counts for the side to move)."""

    value: int
    """Centipawns for the side to move (a pawn is 100)."""
    terms: tuple[EvalTerm, ...]
    """Each weight's term, in :data:`WEIGHT_NAMES` order."""


@dataclasses.dataclass(frozen=True)
class EvalTerm:
    """One term of the evaluation: its weight and its feature (White's count minus Black's)."""

    name: str
    """The weight's name."""
    weight: int
    """The weight evaluated with."""
    feature: int
    """The feature: White's count minus Black's."""


def evaluate(board: Board, weights: Mapping[str, int] | None = None) -> Evaluation:
    """The player's static evaluation of *board* with *weights* (default: :data:`DEFAULT_WEIGHTS`).

    >>> e = evaluate(Board())
    >>> e.value == DEFAULT_WEIGHTS["tempo"], [t.name for t in e.terms][:3]
    (True, ['pawn', 'knight', 'bishop'])
    >>> evaluate(Board(), {"tempo": 0}).value
    0
    """
    values = weight_values({} if weights is None else weights, DEFAULT_WEIGHTS)
    value, features = Board._checked(board)._native.evaluate(values)
    return Evaluation(value, tuple(EvalTerm(*t) for t in zip(WEIGHT_NAMES, values, features)))


@dataclasses.dataclass(frozen=True)
class Samples:
    """Tuning positions from self-play (:func:`selfplay_samples`), one entry per position in each
    field."""

    features: list[list[int]]
    """The evaluation's features, White minus Black, in :data:`WEIGHT_NAMES` order."""
    plies: list[int]
    """Each position's ply count (the ``count`` feature is weighted by ply / 50)."""
    white_to_move: list[bool]
    """Whether White was to move (the ``tempo`` feature's sign)."""
    results: list[float]
    """The game's result for White: 1, 0.5 or 0."""


def _samples(
    features: list[list[int]], plies: list[int] | None, white: list[bool], results: list[float]
) -> Samples:
    return Samples(features, plies or [], white, results)


_SELFPLAY = games.SelfPlay(Searcher, 4, _samples)
selfplay_samples = _SELFPLAY.samples
"""Plays games of the player against itself (4 random opening plies by default) and returns the positions
a static evaluation can be fitted to: the side to move's king not attacked and the move it chose quiet,
each with the game's result (:meth:`camelpy.games.SelfPlay.samples`)."""
compare_weights = _SELFPLAY.compare
"""Plays pairs of games between two sets of weights (:meth:`camelpy.games.SelfPlay.compare`)."""

"""Leiserchess: the laser game of MIT's performance-engineering course (6.172), with the rules in the
Rust core (crate ``camelpy-leiserchess``) and a python-chess-style :class:`Board`.

The rules (camelpy's ``docs/leiserchess.md``, from the course's materials): an 8 × 8 board, files
``a``–``h``, ranks ``0``–``7``; Tangerine (upper case, moves first, ``W``) and Lavender (lower case,
``B``) each have a king (``NN``/``EE``/``SS``/``WW``: where its laser fires) and up to seven pawns
(``NW``/``NE``/``SE``/``SW``: the corner their mirror faces). A turn is a move by one of the mover's
pieces — a shift to a neighbouring square, a rotation (``R``, ``U``, ``L``), or the king's null move —
then the mover's king fires: the beam is reflected by mirrors, zaps a pawn struck on its back, and a
king it hits loses the game (its own too). Under the **2016** rules (the default) a shift onto an
occupied square exchanges the two pieces and the king fires again after every zap; under the **2018**
rules (``rules=2018``) a shift goes to an empty square, a piece next to an opposing one may swap with
it and then make one basic move (``d5e4f5``, ``d5e4L``), a shot zaps at most one pawn, and 50 moves
each without a zap draw. Pawns on the path of the opponent's laser are pinned; **Ko** forbids a move
that leaves the board as it was before it or before the opponent's previous move; a position standing
for the third time with the same side to move is a draw.

>>> from camelpy.leiserchess import Board, perft
>>> board = Board()
>>> len(board.legal_moves), perft(board, 2)
(65, 6084)
>>> board.push("f4f5")
>>> board.fen()
'ss3nw3/3nw4/2nw1nwSE2/1nw5SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN B'
>>> board.laser(board.turn)
Laser(squares=('a6', 'a5', 'a4', 'a3'), end='edge', square=None)
>>> board.pop()
Move('f4f5')
"""

from __future__ import annotations

import dataclasses
import enum
import threading
from collections.abc import Callable, Mapping
from typing import Union

from camelpy import _core
from camelpy._args import opt_int_arg, real_arg, str_arg
from camelpy._quote import quote
from camelpy.errors import InvalidMoveError

__all__ = [
    "DEFAULT_HASH_MB",
    "DEFAULT_WEIGHTS",
    "LAVENDER",
    "RULES",
    "STARTING_FEN",
    "TANGERINE",
    "WEIGHT_LIMITS",
    "WEIGHT_NAMES",
    "Board",
    "Evaluation",
    "Laser",
    "Move",
    "Outcome",
    "Samples",
    "SearchInfo",
    "SearchResult",
    "Searcher",
    "Termination",
    "compare_weights",
    "evaluate",
    "perft",
    "search",
    "selfplay_samples",
]

TANGERINE = True
"""Tangerine, the side that moves first (upper case in FEN, ``W`` to move)."""
LAVENDER = False
"""Lavender (lower case in FEN, ``B`` to move)."""
STARTING_FEN: str = _core.LEISERCHESS_START
"""The start position (2016; both rule sets use it)."""
RULES = (2016, 2018)
"""The rule sets: 2016 (the default) and 2018."""
WEIGHT_NAMES: tuple[str, ...] = tuple(spec[0] for spec in _core.LEISERCHESS_WEIGHTS)
"""The evaluation's weights, in table order (the course's terms: pawns, pawns central, pawns between
the kings, a king facing the enemy king, a king towards the centre, king mobility, laser coverage, and
the tempo)."""
DEFAULT_WEIGHTS: dict[str, int] = {spec[0]: spec[1] for spec in _core.LEISERCHESS_WEIGHTS}
"""The default weights: the pawn (100) set by hand, the others tuned on self-play (a copy: changing
it changes nothing)."""
WEIGHT_LIMITS: dict[str, tuple[int, int]] = {
    spec[0]: (spec[2], spec[3]) for spec in _core.LEISERCHESS_WEIGHTS
}
"""Each weight's least and largest value."""
DEFAULT_HASH_MB = 16
"""The search's table size by default, in MiB."""


@dataclasses.dataclass(frozen=True)
class Move:
    """A move in the course's notation: ``e6e7`` (a shift), ``b3R`` / ``b3U`` / ``b3L`` (a rotation by
    90°, 180°, 270° clockwise), ``h0h0`` (the king's null move), and under the 2018 rules ``d5e4f5``
    (swap d5 with e4, then go on to f5) or ``d5e4L`` (swap, then rotate). Whether a position allows
    it is :meth:`Board.is_legal`'s question.

    >>> Move("b3R"), str(Move("d5e4f5"))
    (Move('b3R'), 'd5e4f5')
    >>> Move("e6e8")
    Traceback (most recent call last):
    ...
    camelpy.errors.InvalidMoveError: invalid Leiserchess move (expected e.g. 'e6e7', ...): 'e6e8'

    :raises: :exc:`TypeError` for a *text* that is not a string, :exc:`camelpy.errors.InvalidMoveError`
        (a :exc:`ValueError`) for one that is not a move.
    """

    text: str
    """The notation."""

    def __post_init__(self) -> None:
        text = str_arg(self.text, "move")
        if not _is_move(text):
            raise InvalidMoveError(
                "invalid Leiserchess move (expected e.g. 'e6e7', 'b3R', 'h0h0', or with the 2018 rules"
                f" 'd5e4f5', 'd5e4L'): {quote(text)}"
            )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


def _square(text: str, i: int) -> bool:
    return len(text) >= i + 2 and text[i] in "abcdefgh" and text[i + 1] in "01234567"


def _adjacent(text: str, i: int, j: int) -> bool:
    df, dr = abs(ord(text[i]) - ord(text[j])), abs(ord(text[i + 1]) - ord(text[j + 1]))
    return max(df, dr) == 1


def _is_move(text: str) -> bool:
    """The notation's grammar (the core checks the same when the move is played)."""
    if not (text.isascii() and _square(text, 0)):
        return False
    if len(text) == 3:
        return text[2] in "RUL"
    if len(text) == 4:
        return _square(text, 2) and (text[:2] == text[2:] or _adjacent(text, 0, 2))
    if len(text) == 5:
        return _square(text, 2) and _adjacent(text, 0, 2) and text[4] in "RUL"
    if len(text) == 6:
        return _square(text, 2) and _square(text, 4) and _adjacent(text, 0, 2) and _adjacent(text, 2, 4)
    return False


class Termination(enum.Enum):
    """How a game ended."""

    KING_HIT = "king_hit"
    """A laser hit a king: its side lost."""
    REPETITION = "repetition"
    """The same position with the same side to move for the third time: a draw."""
    QUIET_MOVES = "quiet_moves"
    """2018 only: 50 moves by each side without a zap: a draw."""
    NO_MOVES = "no_moves"
    """The side to move had no move Ko allows: it loses (a king can always turn, so this does not
    happen in play)."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game, as python-chess's ``Outcome``.

    >>> Outcome(Termination.KING_HIT, LAVENDER).result()
    '0-1'
    """

    termination: Termination
    """Why the game ended."""
    winner: bool | None
    """:data:`TANGERINE`, :data:`LAVENDER`, or ``None`` for a draw."""

    def result(self) -> str:
        """``1-0`` (Tangerine won), ``0-1`` or ``1/2-1/2``."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")


@dataclasses.dataclass(frozen=True)
class Laser:
    """A beam a king would fire now: the squares it enters in order, where it ends (``"edge"``,
    ``"zap"``: it struck a pawn's back, ``"king"``), and the struck piece's square."""

    squares: tuple[str, ...]
    """The squares entered, in order (the struck piece's included)."""
    end: str
    """``"edge"``, ``"zap"`` or ``"king"``."""
    square: str | None
    """The square of the pawn zapped or the king hit; ``None`` at the edge."""


MoveLike = Union[Move, str]
"""What :meth:`Board.push` takes: a :class:`Move` or its text."""


class Board:
    """A Leiserchess game: the pieces, the side to move and the moves pushed on this board, backed by
    the Rust core. *fen* is the position (default: the start), *rules* 2016 or 2018.

    >>> board = Board("8/8/8/8/8/8/8/NN6nn W")
    >>> board.push("a0R")  # the king turns east and fires along rank 0 into Lavender's king
    >>> board.outcome()
    Outcome(termination=<Termination.KING_HIT: 'king_hit'>, winner=True)
    >>> board.result(), board.legal_moves
    ('1-0', [])

    :raises: :exc:`camelpy.errors.InvalidFenError` (a :exc:`ValueError`) for a FEN that cannot be read
        or breaks the rules (one king a side, at most seven pawns); :exc:`ValueError` for *rules* other
        than 2016 and 2018; :exc:`TypeError` for arguments of the wrong type.
    """

    __slots__ = ("_native",)

    def __init__(self, fen: str = STARTING_FEN, *, rules: int = 2016) -> None:
        self._native = _core.LeiserBoard(str_arg(fen, "fen"), rules)

    @classmethod
    def _wrap(cls, native: _core.LeiserBoard) -> Board:
        board = cls.__new__(cls)
        board._native = native
        return board

    @property
    def rules(self) -> int:
        """The rule set: 2016 or 2018."""
        return self._native.rules

    def fen(self) -> str:
        """The FEN: ranks 7 to 0, two-letter piece codes and digits, then ``W`` or ``B``."""
        return self._native.fen()

    @property
    def legal_moves(self) -> list[Move]:
        """The moves the rules allow (Ko included), in order of the square they start from; none once
        the game is over."""
        return [Move(t) for t in self._native.legal_moves()]

    def is_legal(self, move: MoveLike) -> bool:
        """Whether *move* may be played here."""
        return str(_move_arg(move)) in self._native.legal_moves()

    def push(self, move: MoveLike) -> None:
        """Plays *move* (a :class:`Move` or its text) and the mover's laser shot.

        >>> Board().push("h0h0")
        Traceback (most recent call last):
        ...
        camelpy.errors.IllegalMoveError: illegal Leiserchess move 'h0h0' (Ko: ...) in ...

        :raises: :exc:`camelpy.errors.InvalidMoveError` for text that is not a move,
            :exc:`camelpy.errors.IllegalMoveError` for a move not allowed here (both
            :exc:`ValueError`); the board is left unchanged.
        """
        self._native.push(str(_move_arg(move)))

    def pop(self) -> Move:
        """Takes back the last move and returns it.

        :raises: :exc:`IndexError` when no move was pushed on this board.
        """
        return Move(self._native.pop())

    def peek(self) -> Move:
        """The last move pushed.

        :raises: :exc:`IndexError` when no move was pushed on this board.
        """
        stack = self._native.move_stack()
        if not stack:
            raise IndexError("peek from empty move stack")
        return Move(stack[-1])

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed on this board, oldest first."""
        return [Move(t) for t in self._native.move_stack()]

    @property
    def turn(self) -> bool:
        """:data:`TANGERINE` or :data:`LAVENDER`, the side to move."""
        return self._native.turn

    def zobrist_key(self) -> int:
        """The Zobrist key of the pieces (side, kind, orientation, square) and the side to move."""
        return self._native.zobrist_key

    def piece_at(self, square: str) -> str | None:
        """The two-letter code of the piece on *square* (``"a0"`` … ``"h7"``), or ``None``.

        >>> Board().piece_at("h0"), Board().piece_at("a7"), Board().piece_at("a0")
        ('NN', 'ss', None)

        :raises: :exc:`ValueError` for a square not on the board.
        """
        return self._native.piece_at(str_arg(square, "square"))

    def laser(self, color: bool) -> Laser:
        """The beam *color*'s king would fire now (one shot, nothing removed). A pawn of the other side
        on it is pinned.

        >>> Board().laser(True)
        Laser(squares=('h1', 'h2', 'h3', 'h4'), end='edge', square=None)
        """
        squares, end, square = self._native.laser(bool(color))
        return Laser(tuple(squares), end, square)

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        found = self._native.outcome()
        return None if found is None else Outcome(Termination(found[0]), found[1])

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self._native.outcome() is not None

    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def copy(self) -> Board:
        """A copy, with its move stack."""
        return self._wrap(self._native.copy())

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickles as the first board, the rules and the moves, so the stack (and Ko) survives.

        >>> import pickle
        >>> board = Board()
        >>> board.push("f4f5")
        >>> again = pickle.loads(pickle.dumps(board))
        >>> again == board, again.move_stack
        (True, [Move('f4f5')])
        """
        return (_rebuild, (self._native.root_fen(), self.rules, self._native.move_stack()))

    def __eq__(self, other: object) -> bool:
        """Boards are equal when their FENs and rules are."""
        return isinstance(other, Board) and (self.fen(), self.rules) == (other.fen(), other.rules)

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board

    def __repr__(self) -> str:
        rules = "" if self.rules == 2016 else f", rules={self.rules}"
        return f"Board({self.fen()!r}{rules})"

    def __str__(self) -> str:
        return self._native.text()


def _move_arg(move: object) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move(move)
    raise TypeError(f"move must be a Move or a str, got {type(move).__name__} {move!r}")


def _rebuild(fen: str, rules: int, moves: list[str]) -> Board:
    """The board *fen* under *rules* with *moves* pushed (what :meth:`Board.__reduce__` pickles)."""
    board = Board(fen, rules=rules)
    for move in moves:
        board.push(move)
    return board


def perft(board: Board, depth: int, *, stop: threading.Event | None = None) -> int:
    """The leaves of the move tree *depth* plies below *board*, by the rules page's convention: every
    generated move counts (Ko is a rule of play, not of perft) and a move whose shot hits a king ends its
    line as one leaf. Counted in the core with the GIL released; Ctrl-C stops a deep count.

    >>> [perft(Board(), d) for d in (1, 2, 3)]
    [78, 6084, 473126]

    :raises: :exc:`TypeError` for a *board* that is not a :class:`Board` or a non-integer *depth*,
        :exc:`ValueError` for a *depth* out of range.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a camelpy.leiserchess.Board, got {type(board).__name__}")
    return _core.leiserchess_perft(board._native, depth, stop=stop)


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The static evaluation of a position: the value for the side to move and each weight's feature
    (Tangerine minus Lavender; the value is the features times the weights, turned to the side to
    move, plus the tempo)."""

    value: int
    """Centipawns for the side to move (a pawn is 100)."""
    features: dict[str, int]
    """Each weight's feature, Tangerine minus Lavender."""


def _weights(weights: Mapping[str, int] | None) -> list[int] | None:
    if weights is None:
        return None
    if not isinstance(weights, Mapping):
        raise TypeError(f"weights must be a mapping of names to integers, got {type(weights).__name__}")
    unknown = sorted(set(weights) - set(WEIGHT_NAMES), key=str)
    if unknown:
        raise ValueError(f"unknown weight {unknown[0]!r}: expected one of {', '.join(WEIGHT_NAMES)}")
    return [weights.get(name, DEFAULT_WEIGHTS[name]) for name in WEIGHT_NAMES]


def evaluate(board: Board, weights: Mapping[str, int] | None = None) -> Evaluation:
    """The static evaluation of *board* with *weights* (names not given keep their defaults).

    >>> evaluate(Board()).value  # a level start: only the tempo
    -11
    >>> evaluate(Board("8/8/8/8/8/8/NW7/NN6nn W")).features["pawn"]
    1
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a camelpy.leiserchess.Board, got {type(board).__name__}")
    value, features = _core.leiserchess_evaluate(board._native, _weights(weights))
    return Evaluation(value, dict(zip(WEIGHT_NAMES, features)))


@dataclasses.dataclass(frozen=True)
class SearchInfo:
    """One finished iteration of the player's search."""

    depth: int
    """Plies searched."""
    score: int | None
    """Centipawns for the side to move (a pawn is 100), or ``None`` once the result is proven."""
    win_in: int | None
    """Moves to a proven win (positive) or loss (negative): a king hit; ``None`` while unproven."""
    nodes: int
    """Positions searched, all iterations so far."""
    time: float
    """Seconds since the search began."""
    pv: tuple[Move, ...]
    """The principal variation, the best move first."""


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found: the move to play (``None`` only when the game is over) and the last
    finished iteration."""

    move: Move | None
    info: SearchInfo


def _info(raw: tuple[int, int | None, int | None, int, float, list[str]]) -> SearchInfo:
    depth, cp, win, nodes, seconds, pv = raw
    return SearchInfo(depth, cp, win, nodes, seconds, tuple(Move(m) for m in pv))


class Searcher:
    """The Leiserchess player's search, keeping its table of *hash_mb* MiB from move to move
    (:meth:`clear` before a new game): iterative deepening, principal-variation search, a
    transposition table, quiescence on moves whose shot zaps or hits a king, killer and history
    ordering, late-move reductions (camelpy's search for the small games, ``rust/games``), with
    the rules inside the tree: a hit king wins or loses, Ko, repetitions draw. With *threads* above
    one the search is LazySMP: helper threads share the table.

    >>> searcher = Searcher(hash_mb=1)
    >>> result = searcher.search(Board("7nn/8/8/8/8/8/8/EE6NW W"), depth=2)
    >>> result.info.win_in  # its king's beam already runs via h0's mirror into h7
    1
    >>> Searcher(weights={"tempo": 0}).weights["tempo"]
    0
    >>> Searcher(threads=2).search(Board(), depth=4).move in Board().legal_moves
    True

    :raises: :exc:`TypeError`/:exc:`ValueError` for a bad *hash_mb*, *threads* or weight,
        :exc:`MemoryError` if the table cannot be allocated.
    """

    def __init__(
        self,
        hash_mb: int = DEFAULT_HASH_MB,
        *,
        weights: Mapping[str, int] | None = None,
        threads: int = 1,
    ) -> None:
        self._native = _core.LeiserSearcher(hash_mb)
        if weights is not None:
            self.weights = weights
        self.threads = threads

    @property
    def threads(self) -> int:
        """The threads a search runs on (set to change it; 1 to 256)."""
        return self._native.threads()

    @threads.setter
    def threads(self, threads: int) -> None:
        self._native.set_threads(threads)

    @property
    def weights(self) -> dict[str, int]:
        """The evaluation's weights by name (set a mapping to change some; the rest keep their value)."""
        return dict(zip(WEIGHT_NAMES, self._native.weights()))

    @weights.setter
    def weights(self, weights: Mapping[str, int]) -> None:
        merged = _weights({**self.weights, **weights} if isinstance(weights, Mapping) else weights)
        assert merged is not None
        self._native.set_weights(merged)

    def clear(self) -> None:
        """Forgets what earlier searches learnt (the table, killers and history)."""
        self._native.clear()

    def stop(self) -> None:
        """Ends a running search (from another thread) soon; it returns its best move so far."""
        self._native.stop()

    def search(
        self,
        board: Board,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        on_iteration: Callable[[SearchInfo], object] | None = None,
    ) -> SearchResult:
        """Searches the game *board* (its moves so far count: Ko and repetitions look back) to *depth*
        plies, about *nodes* positions or *time* seconds, whichever comes first (none: until
        :meth:`stop`), with the GIL released. *on_iteration* is called with every finished
        iteration's :class:`SearchInfo`; an exception it raises stops the search and propagates.
        Ctrl-C stops the search and raises :exc:`KeyboardInterrupt`. The board is not changed.

        :raises: :exc:`TypeError`/:exc:`ValueError` for a bad argument.
        """
        if not isinstance(board, Board):
            raise TypeError(f"board must be a camelpy.leiserchess.Board, got {type(board).__name__}")
        depth = opt_int_arg(depth, "depth", 1, 2**31 - 1)
        nodes = opt_int_arg(nodes, "nodes", 1)
        seconds = None if time is None else real_arg(time, "time", minimum=0, maximum=365 * 24 * 3600)
        if on_iteration is not None and not callable(on_iteration):
            raise TypeError(f"on_iteration must be callable, got {type(on_iteration).__name__}")
        callback = None if on_iteration is None else (lambda raw: on_iteration(_info(raw)))
        move, info = self._native.search(board._native, depth, nodes, seconds, callback)
        return SearchResult(None if move is None else Move(move), _info(info))


def search(
    board: Board,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    time: float | None = None,
    hash_mb: int = DEFAULT_HASH_MB,
    weights: Mapping[str, int] | None = None,
) -> SearchResult:
    """:meth:`Searcher.search` with a new :class:`Searcher` of *hash_mb* MiB and *weights*.

    >>> result = search(Board(), depth=3)
    >>> result.move in Board().legal_moves, result.info.depth
    (True, 3)
    """
    if depth is None and nodes is None and time is None:
        raise ValueError("search needs a depth, nodes or time limit")
    return Searcher(hash_mb, weights=weights).search(board, depth=depth, nodes=nodes, time=time)


@dataclasses.dataclass(frozen=True)
class Samples:
    """Tuning positions from self-play (:func:`selfplay_samples`), one entry per position in each
    field."""

    features: list[list[int]]
    """The evaluation's features, Tangerine minus Lavender, in :data:`WEIGHT_NAMES` order."""
    tangerine_to_move: list[bool]
    """Whether Tangerine was to move (the ``tempo`` feature's sign)."""
    results: list[float]
    """The game's result for Tangerine: 1, 0.5 or 0."""


def selfplay_samples(
    games: int,
    *,
    nodes: int = 2000,
    random_plies: int = 2,
    seed: int = 0,
    threads: int = 1,
    rules: int = 2016,
    weights: Mapping[str, int] | None = None,
) -> Samples:
    """Plays *games* games of the player against itself (*nodes* per move, after *random_plies* random
    moves from the start; game ``i`` always gets the same ones for a *seed*, whatever the *threads*;
    400 plies without an end are a draw) and returns the positions a static evaluation can be fitted
    to: the move chosen quiet (its shot zaps nothing) and no proven win or loss, each with the game's
    result. Ctrl-C stops and raises.

    >>> s = selfplay_samples(2, nodes=200, seed=1)
    >>> len(s.features) == len(s.results) > 10, set(s.results) <= {0.0, 0.5, 1.0}
    (True, True)
    """
    features, tangerine, results = _core.leiserchess_selfplay(
        games, nodes, random_plies, seed, threads, rules, _weights(weights)
    )
    return Samples(features, tangerine, results)


def compare_weights(
    a: Mapping[str, int],
    b: Mapping[str, int],
    pairs: int,
    *,
    nodes: int = 2000,
    random_plies: int = 2,
    seed: int = 0,
    threads: int = 1,
    rules: int = 2016,
) -> list[tuple[float, float]]:
    """Plays *pairs* pairs of games between the player with weights *a* and with *b* (names not given
    keep their defaults), each pair from the same random opening with colours swapped, *nodes* per move;
    returns *a*'s points in the two games of each pair (``camelpy.tools.stats`` turns them into Elo).

    >>> results = compare_weights({}, {"king_face": -200}, 2, nodes=300, seed=1)
    >>> sum(a + b for a, b in results) >= 3
    True
    """
    first, second = _weights(a) or [], _weights(b) or []  # a mapping always gives the full list
    return _core.leiserchess_compare(first, second, pairs, nodes, random_plies, seed, threads, rules)

"""The small games' common ground: what :mod:`camelpy.minichess` and :mod:`camelpy.leiserchess` share,
written once, the way python-chess writes its variants: one :class:`Board` that each game subclasses
with its rules (the native board class of ``camelpy._core``), one :class:`Searcher`, and small immutable
results (:class:`Outcome`, :class:`SearchInfo`, :class:`SearchResult`) whose ``repr`` rebuilds them.

A game module supplies its moves, its :class:`Termination` members and the native classes; it gets copy,
pickling, equality, ``result()``, ``is_game_over()``, ``peek()``, the move stack, perft and the player's
search from here.

>>> from camelpy import games, minichess
>>> board = minichess.Board()
>>> board.push("4 0 3 0")
>>> isinstance(board, games.Board), board.peek(), board.result()
(True, Move(4, 0, 3, 0), '*')
>>> games.perft(board, 2)
49
"""

from __future__ import annotations

import dataclasses
import enum
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from camelpy import _core
from camelpy._args import opt_int_arg, real_arg
from camelpy._quote import quote

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "DEFAULT_HASH_MB",
    "MAX_ASPIRATION",
    "MAX_HASH_MB",
    "Board",
    "GameMove",
    "Outcome",
    "SearchInfo",
    "SEARCH_SETTINGS",
    "SearchResult",
    "Searcher",
    "SelfPlay",
    "Termination",
    "perft",
    "weight_values",
]

MAX_HASH_MB: int = _core.MAX_HASH_MB
"""Largest table a small game's searcher takes, in MiB (the bindings' one limit; the protocols' ``Hash``
option reads it too)."""
DEFAULT_HASH_MB: int = _core.DEFAULT_HASH_MB
"""A small game's searcher's table by default, in MiB."""
MAX_ASPIRATION: int = _core.MAX_ASPIRATION
"""The largest :attr:`Searcher.aspiration`, in centipawns (the search's own bound)."""
SEARCH_SETTINGS: dict[str, int] = dict(_core.SEARCH_SETTINGS)
"""Every run-time search setting of :attr:`Searcher.settings`, with its largest value (0 is the smallest
and turns it off): candidate changes to the search, tested by an SPRT against the game's default
(:attr:`Searcher.DEFAULT_SETTINGS`)."""
MAX_SECONDS = 365 * 24 * 3600
"""Longest time limit a search takes, in seconds (a year)."""


class GameMove(Protocol):
    """What a game's move class provides: :meth:`parse` for its text (``str`` writes it), and the
    conversions to and from the native board's form of a move."""

    @classmethod
    def parse(cls, text: str) -> Self:
        """The move *text* writes (:exc:`camelpy.errors.InvalidMoveError` if none)."""
        ...

    @classmethod
    def _from_native(cls, raw: Any) -> Self: ...

    def _to_native(self) -> Any: ...


MoveT = TypeVar("MoveT", bound=GameMove)
"""A game's move type."""


class Termination(enum.Enum):
    """How a game ended, one enum for every small game as python-chess's ``Termination`` is one for every
    variant (each game module's ``Termination`` is this enum; a game ends only in its own ways).

    >>> from camelpy import leiserchess, minichess
    >>> minichess.Termination.NO_MOVES is leiserchess.Termination.NO_MOVES
    True
    """

    KING_CAPTURED = "king_captured"
    """MiniChess: a king was captured: the capturer wins."""
    MATERIAL_COUNT = "material_count"
    """MiniChess: its last ply was played: the higher material total wins, equal totals draw."""
    KING_HIT = "king_hit"
    """Leiserchess: a laser hit a king: its side lost."""
    REPETITION = "repetition"
    """Leiserchess: the same position with the same side to move for the third time: a draw."""
    QUIET_MOVES = "quiet_moves"
    """Leiserchess, 2018 rules: 50 moves by each side without a zap: a draw."""
    NO_MOVES = "no_moves"
    """The side to move had no move (Leiserchess: none Ko allows): it loses."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game, as python-chess's ``Outcome``.

    >>> Outcome(Termination.KING_CAPTURED, True).result()
    '1-0'
    """

    termination: Termination
    """Why the game ended."""
    winner: bool | None
    """``True`` the side that moved first (White, Tangerine) won, ``False`` the other, ``None`` a draw."""

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")


class _ClassAtRunTime:
    """A generic whose subscripted form is the class itself at run time (``SearchInfo[Move]`` is
    :class:`SearchInfo`), so that a game module's alias such as ``minichess.SearchInfo`` works with
    ``isinstance`` as a class does; type checkers still read the subscript."""

    def __class_getitem__(cls, item: object) -> type:
        return cls


@dataclasses.dataclass(frozen=True)
class SearchInfo(_ClassAtRunTime, Generic[MoveT]):
    """One finished iteration of a player's search.

    >>> from camelpy.minichess import Move
    >>> SearchInfo(3, 25, None, 400, 0.5, (Move(4, 0, 3, 0),))
    SearchInfo(depth=3, score=25, win_in=None, nodes=400, time=0.5, pv=(Move(4, 0, 3, 0),))
    """

    depth: int
    """Plies searched."""
    score: int | None
    """Centipawns for the side to move (a pawn is 100), or ``None`` once the result is proven."""
    win_in: int | None
    """Moves to a proven win (positive) or loss (negative: ``-3`` loses in 3); ``None`` while unproven."""
    nodes: int
    """Positions searched, all iterations so far."""
    time: float
    """Seconds since the search began."""
    pv: tuple[MoveT, ...]
    """The principal variation, the best move first."""


@dataclasses.dataclass(frozen=True)
class SearchResult(_ClassAtRunTime, Generic[MoveT]):
    """What a search found: the move to play (``None`` only when the game is over) and the last finished
    iteration."""

    move: MoveT | None
    info: SearchInfo[MoveT]


class Board(Generic[MoveT]):
    """A game of one of the small games, backed by the game's native board (``self._native``). A game's
    ``Board`` subclasses this one and supplies its constructor, its move class (a :class:`GameMove`) and
    its constructor options (:meth:`_options`, for ``repr``, equality and pickling).

    >>> import copy, pickle
    >>> from camelpy.leiserchess import Board as LeiserBoard
    >>> board = LeiserBoard(rules=2018)
    >>> board.push("f4f5")
    >>> board
    Board('ss3nw3/3nw4/2nw1nwSE2/1nw5SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN B', rules=2018)
    >>> again = pickle.loads(pickle.dumps(board))
    >>> again == board == copy.deepcopy(board), again.move_stack
    (True, [Move('f4f5')])
    """

    __slots__ = ("_native",)

    _native: _core._GameBoard[Any]
    _move_type: type[MoveT]
    """The game's move class (a :class:`GameMove`)."""

    @classmethod
    def _wrap(cls, native: Any) -> Self:
        board = cls.__new__(cls)
        board._native = native
        return board

    @classmethod
    def _checked(cls, board: object) -> Self:
        """*board*, if it is one of this game's boards (a :exc:`TypeError` otherwise)."""
        if not isinstance(board, cls):
            raise TypeError(
                f"board must be a {cls.__module__}.{cls.__qualname__}, got {type(board).__name__}"
            )
        return board

    def _options(self) -> dict[str, object]:
        """The constructor's keyword arguments besides the position that differ from their defaults."""
        return {}

    def _move_arg(self, move: object) -> MoveT:
        if isinstance(move, str):
            return self._move_type.parse(move)
        if not isinstance(move, self._move_type):
            raise TypeError(f"move must be a Move or a str, got {type(move).__name__} {move!r}")
        return move

    def _moves(self, raw: list[Any]) -> list[MoveT]:
        from_native = self._move_type._from_native
        return [from_native(m) for m in raw]

    def fen(self) -> str:
        """The position as one line of text."""
        return self._native.fen()

    @property
    def legal_moves(self) -> list[MoveT]:
        """The legal moves, in order of the square they leave; none once the game is over."""
        return self._moves(self._native.legal_moves())

    def is_legal(self, move: MoveT | str) -> bool:
        """Whether *move* (a move or its text) may be played here."""
        return self._move_arg(move)._to_native() in self._native.legal_moves()

    def push(self, move: MoveT | str) -> None:
        """Plays *move* (a move or its text).

        :raises: :exc:`camelpy.errors.InvalidMoveError` for text that is not a move,
            :exc:`camelpy.errors.IllegalMoveError` for a move not legal here (both :exc:`ValueError`);
            the board is left unchanged. :exc:`TypeError` for something else.
        """
        self._native.push(self._move_arg(move)._to_native())

    def pop(self) -> MoveT:
        """Takes back the last move and returns it.

        :raises: :exc:`IndexError` when no move was pushed on this board.
        """
        return self._move_type._from_native(self._native.pop())

    def peek(self) -> MoveT:
        """The last move pushed.

        :raises: :exc:`IndexError` when there is none.
        """
        stack = self._native.move_stack()
        if not stack:
            raise IndexError("peek from empty move stack")
        return self._move_type._from_native(stack[-1])

    @property
    def move_stack(self) -> list[MoveT]:
        """The moves pushed on this board, oldest first (a copy)."""
        return self._moves(self._native.move_stack())

    @property
    def turn(self) -> bool:
        """The side to move: ``True`` for the side that moves first (White, Tangerine)."""
        return self._native.turn

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

    def copy(self) -> Self:
        """A copy, with its move stack."""
        return self._wrap(self._native.copy())

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickles as the position the moves were pushed on, the options and the moves, so the stack
        (and what looks back at it) survives."""
        moves = [str(move) for move in self.move_stack]
        return (_rebuild, (type(self), self._native.root_fen(), self._options(), moves))

    def __eq__(self, other: object) -> bool:
        """Boards are equal when their positions (:meth:`fen`) and options are."""
        if not isinstance(other, type(self)):
            return False
        return (self.fen(), self._options()) == (other.fen(), other._options())

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self._options().items())
        return f"{type(self).__name__}({self.fen()!r}{options})"


def _rebuild(cls: type[Board[Any]], fen: str, options: dict[str, Any], moves: list[str]) -> Board[Any]:
    """The board *fen* with *options* and *moves* pushed (what :meth:`Board.__reduce__` pickles)."""
    board = cls(fen, **options)  # type: ignore[call-arg]  # a game's constructor takes the position
    for move in moves:
        board.push(move)
    return board


def perft(board: Board[Any], depth: int, *, stop: threading.Event | None = None) -> int:
    """The leaves of *board*'s move tree *depth* plies deep (1 at depth 0), counted in the core with the
    GIL released; Ctrl-C, or *stop* set from another thread, stops a deep count (:exc:`ValueError`).

    :raises: :exc:`TypeError` for a *board* that is not a small game's board or a non-integer *depth*,
        :exc:`ValueError` for a *depth* out of range.
    """
    return Board._checked(board)._native.perft(depth, stop=stop)


def weight_values(weights: Mapping[str, int], defaults: Mapping[str, int]) -> list[int]:
    """*weights* in the order of *defaults* (a game's default weights), names not given keeping their
    defaults.

    >>> weight_values({"b": 5}, {"a": 1, "b": 2})
    [1, 5]
    >>> weight_values({"c": 5}, {"a": 1, "b": 2})
    Traceback (most recent call last):
    ...
    ValueError: unknown weight 'c': expected one of a, b

    :raises: :exc:`TypeError` for *weights* that are not a mapping, :exc:`ValueError` for an unknown name.
    """
    if not isinstance(weights, Mapping):
        raise TypeError(f"weights must be a mapping of names to integers, got {type(weights).__name__}")
    unknown = sorted(set(weights) - set(defaults), key=str)
    if unknown:
        raise ValueError(f"unknown weight {quote(str(unknown[0]))}: expected one of {', '.join(defaults)}")
    return [weights.get(name, value) for name, value in defaults.items()]


BoardT = TypeVar("BoardT", bound=Board[Any])
"""A game's board type."""


class Searcher(Generic[BoardT, MoveT]):
    """A small game's player: iterative deepening, principal-variation search and a table of *hash_mb*
    MiB kept from move to move (:meth:`clear` before a new game), with the game's evaluation (*weights*:
    names not given keep their defaults), on *threads* threads (LazySMP: helpers share the table). A
    game's ``Searcher`` subclasses this one, naming its native class, its board, its default weights and
    whether its games may go on without end (then :meth:`new_search` needs a limit).

    :raises: :exc:`TypeError`/:exc:`ValueError` for a bad *hash_mb*, *threads* or weight (more table than
        the machine has is a ``ValueError``), :exc:`MemoryError` if the table cannot be allocated.
    """

    _native_type: ClassVar[type[_core._GameSearcher[Any]]]
    _board_type: ClassVar[type[Board[Any]]]
    _defaults: ClassVar[Mapping[str, int]]
    """The game's default weights, in table order."""
    _endless: ClassVar[bool]
    DEFAULT_SETTINGS: ClassVar[Mapping[str, int]]
    """The :attr:`settings` a new searcher of the game starts with: 0 (off) unless a setting passed its
    SPRT for that game (Leiserchess prunes late moves, ``late_moves`` 32)."""

    def __init_subclass__(
        cls,
        *,
        native: type[_core._GameSearcher[Any]],
        board: type[Board[Any]],
        defaults: Mapping[str, int],
        endless: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls._native_type, cls._board_type, cls._defaults, cls._endless = (
            native,
            board,
            dict(defaults),
            endless,
        )
        cls.DEFAULT_SETTINGS = MappingProxyType(
            {name: native.default_setting(name) for name in SEARCH_SETTINGS}
        )

    def __init__(
        self, hash_mb: int = DEFAULT_HASH_MB, *, weights: Mapping[str, int] | None = None, threads: int = 1
    ) -> None:
        self._native = self._native_type(hash_mb)
        if weights is not None:
            self.weights = weights
        if threads != 1:
            self.threads = threads

    @property
    def threads(self) -> int:
        """The threads a search runs on (set to change it; 1 to 256)."""
        return self._native.threads()

    @threads.setter
    def threads(self, threads: int) -> None:
        self._native.set_threads(threads)

    @property
    def aspiration(self) -> int:
        """A candidate search change, off (0) by default: from depth 4 on, each iteration searches
        within this many centipawns either side of the last one's score, and doubles the side that fails
        until the score falls inside. Set to change it (0 to :data:`MAX_ASPIRATION`).

        >>> from camelpy.leiserchess import Board, Searcher
        >>> searcher = Searcher(1)
        >>> searcher.aspiration = 25
        >>> searcher.aspiration, searcher.search(Board(), depth=5).info.depth
        (25, 5)
        """
        return self._native.setting("aspiration")

    @aspiration.setter
    def aspiration(self, aspiration: int) -> None:
        self._native.set_setting("aspiration", aspiration)

    @property
    def settings(self) -> dict[str, int]:
        """The search's run-time settings by name (:data:`SEARCH_SETTINGS`; a new searcher has the game's
        :attr:`DEFAULT_SETTINGS`). Set a mapping to change some; the rest keep their value, and a bad
        name or value changes none.

        >>> from camelpy.leiserchess import Searcher
        >>> searcher = Searcher(1)
        >>> searcher.settings = {"aspiration": 50}
        >>> searcher.settings
        {'threats': 0, 'aspiration': 50, 'late_moves': 32}
        >>> searcher.settings = {"aspiration": 0, "threats": 9}
        Traceback (most recent call last):
        ...
        ValueError: threats must be between 0 and 3, got 9
        >>> searcher.settings["aspiration"]
        50
        """
        return {name: self._native.setting(name) for name in SEARCH_SETTINGS}

    @settings.setter
    def settings(self, settings: Mapping[str, int]) -> None:
        before = self.settings
        try:
            for name, value in settings.items():
                self._native.set_setting(name, value)
        except BaseException:
            for name, value in before.items():
                self._native.set_setting(name, value)
            raise

    @property
    def weights(self) -> dict[str, int]:
        """The evaluation's weights by name (set a mapping to change some; the rest keep their value)."""
        return dict(zip(self._defaults, self._native.weights()))

    @weights.setter
    def weights(self, weights: Mapping[str, int]) -> None:
        merged = {**self.weights, **weights} if isinstance(weights, Mapping) else weights
        self._native.set_weights(weight_values(merged, self._defaults))

    def clear(self) -> None:
        """Forgets what earlier searches learnt (the table, killers and history)."""
        self._native.clear()

    def stop(self) -> None:
        """Ends a running search (from another thread) soon; it returns its best move so far."""
        self._native.stop()

    def search(
        self,
        board: BoardT,
        *,
        on_iteration: Callable[[SearchInfo[MoveT]], object] | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        soft_time: float | None = None,
        min_depth: int | None = None,
    ) -> SearchResult[MoveT]:
        """Searches *board* (its moves so far count where the rules look back) to *depth* plies, about
        *nodes* positions or *time* seconds, whichever comes first (none: until the game's end or
        :meth:`stop`), with the GIL released. No iteration starts after *soft_time* seconds (default:
        half of *time*), except the iterations to *min_depth* plies, which only *time*, *nodes* and
        :meth:`stop` cut short. *on_iteration* is called with every finished iteration's
        :class:`SearchInfo`; an exception it raises stops the search and propagates. Ctrl-C stops the
        search and raises :exc:`KeyboardInterrupt`. The board is not changed.

        >>> from camelpy.minichess import Board, Searcher
        >>> Searcher(1).search(Board(), soft_time=0.0).info.depth  # the soft limit ends it after depth 1
        1
        >>> Searcher(1).search(Board(), soft_time=0.0, min_depth=3).info.depth
        3

        :raises: :exc:`TypeError`/:exc:`ValueError` for a bad argument.
        """
        native = self._board_type._checked(board)._native
        depth = opt_int_arg(depth, "depth", 1, 2**31 - 1)
        nodes = opt_int_arg(nodes, "nodes", 1)
        min_depth = opt_int_arg(min_depth, "min_depth", 1, 2**31 - 1)
        seconds = None if time is None else real_arg(time, "time", minimum=0, maximum=MAX_SECONDS)
        soft = None if soft_time is None else real_arg(soft_time, "soft_time", minimum=0, maximum=MAX_SECONDS)
        if on_iteration is not None and not callable(on_iteration):
            raise TypeError(f"on_iteration must be callable, got {type(on_iteration).__name__}")
        report = on_iteration
        callback = None if report is None else (lambda it: report(self._info(it)))
        move, last = self._native.search(native, depth, nodes, seconds, callback, soft, min_depth)
        return SearchResult(
            None if move is None else self._board_type._move_type.parse(move), self._info(last)
        )

    @classmethod
    def new_search(
        cls,
        board: BoardT,
        *,
        hash_mb: int = DEFAULT_HASH_MB,
        weights: Mapping[str, int] | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        on_iteration: Callable[[SearchInfo[MoveT]], object] | None = None,
    ) -> SearchResult[MoveT]:
        """:meth:`search` with a new searcher of *hash_mb* MiB (an empty table) and *weights* (names not
        given keep their defaults): a game module's ``search``. A game that need not end (Leiserchess)
        needs a limit.

        >>> from camelpy.minichess import Board, search
        >>> result = search(Board(), depth=5)
        >>> result.move in Board().legal_moves, result.info.depth, len(result.info.pv) >= 1
        (True, 5, True)

        :raises: :exc:`TypeError`/:exc:`ValueError` for a bad argument, or no limit for an endless game.
        """
        if cls._endless and depth is None and nodes is None and time is None:
            raise ValueError("search needs a depth, nodes or time limit")
        searcher = cls(hash_mb, weights=weights)
        return searcher.search(board, on_iteration=on_iteration, depth=depth, nodes=nodes, time=time)

    def _info(self, it: _core.GameIteration) -> SearchInfo[MoveT]:
        parse = self._board_type._move_type.parse
        return SearchInfo(it.depth, it.score, it.mate, it.nodes, it.seconds, tuple(parse(m) for m in it.pv))


SamplesT = TypeVar("SamplesT")
"""A game's tuning samples."""


@dataclasses.dataclass(frozen=True)
class SelfPlay(Generic[SamplesT]):
    """A game's self-play for tuning its evaluation: its player against itself (:meth:`samples`, a game
    module's ``selfplay_samples``) or one set of weights against another (:meth:`compare`, its
    ``compare_weights``), each game ``i`` opening with the same random moves for a *seed*, whatever the
    *threads*; Ctrl-C stops and raises.

    >>> from camelpy.minichess import compare_weights, selfplay_samples
    >>> s = selfplay_samples(2, nodes=200, seed=1)
    >>> len(s.features) == len(s.results) > 10, set(s.results) <= {0.0, 0.5, 1.0}
    (True, True)
    >>> results = compare_weights({}, {"queen": -900}, 2, nodes=300, seed=1)
    >>> sum(a + b for a, b in results) >= 3
    True
    """

    searcher: type[Searcher[Any, Any]]
    """The game's searcher class (its native class plays, its default weights fill in)."""
    random_plies: int
    """The random opening plies by default."""
    columns: Callable[[list[list[int]], list[int] | None, list[bool], list[float]], SamplesT]
    """The game's samples from the native columns (features, plies, first mover to move, results)."""

    def samples(
        self,
        games: int,
        *,
        nodes: int = 2000,
        random_plies: int | None = None,
        seed: int = 0,
        threads: int = 1,
        weights: Mapping[str, int] | None = None,
        rules: int | None = None,
    ) -> SamplesT:
        """Plays *games* games of the player with *weights* (names not given keep their defaults)
        against itself, *nodes* per move after *random_plies* random moves (default: the game's), under
        *rules* (a game with rule sets), and returns the positions a static evaluation can be fitted to,
        each with the game's result (the game's ``Samples``)."""
        values = None if weights is None else weight_values(weights, self.searcher._defaults)
        plies = self.random_plies if random_plies is None else random_plies
        native = self.searcher._native_type
        return self.columns(*native.selfplay(games, values, nodes, plies, seed, threads, rules))

    def compare(
        self,
        a: Mapping[str, int],
        b: Mapping[str, int],
        pairs: int,
        *,
        nodes: int = 2000,
        random_plies: int | None = None,
        seed: int = 0,
        threads: int = 1,
        rules: int | None = None,
    ) -> list[tuple[float, float]]:
        """Plays *pairs* pairs of games between the player with weights *a* and with *b* (names not
        given keep their defaults), each pair from the same random opening with colours swapped, *nodes*
        per move; returns *a*'s points in the two games of each pair (``camelpy.arena.stats`` turns them
        into Elo)."""
        first, second = (weight_values(w, self.searcher._defaults) for w in (a, b))
        plies = self.random_plies if random_plies is None else random_plies
        native = self.searcher._native_type
        return native.compare(first, second, pairs, nodes, plies, seed, threads, rules)

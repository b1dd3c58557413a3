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
import threading
from collections.abc import Mapping
from typing import Union

from camelpy import _core, games
from camelpy._args import str_arg
from camelpy._quote import quote
from camelpy.errors import InvalidMoveError
from camelpy.games import MAX_HASH_MB, weight_values

__all__ = [
    "DEFAULT_HASH_MB",
    "DEFAULT_WEIGHTS",
    "LAVENDER",
    "MAX_HASH_MB",
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
the kings, a king facing the enemy king, a king towards the centre, king mobility, laser coverage, the
laser's nearness to the enemy king, pinned pawns, a king's room behind it, and the tempo)."""
DEFAULT_WEIGHTS: dict[str, int] = {spec[0]: spec[1] for spec in _core.LEISERCHESS_WEIGHTS}
"""The default weights: the pawn (100) set by hand, the others tuned on self-play (a copy: changing
it changes nothing)."""
WEIGHT_LIMITS: dict[str, tuple[int, int]] = {
    spec[0]: (spec[2], spec[3]) for spec in _core.LEISERCHESS_WEIGHTS
}
"""Each weight's least and largest value."""
DEFAULT_HASH_MB = games.DEFAULT_HASH_MB
"""The search's table size by default, in MiB (16; :data:`MAX_HASH_MB` at most, both
:mod:`camelpy.games`')."""


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

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move *text* writes (as the constructor: ``Move.parse(t) == Move(t)``)."""
        return cls(text)

    @classmethod
    def _from_native(cls, raw: str) -> Move:
        return cls(raw)

    def _to_native(self) -> str:
        return self.text

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


Termination = games.Termination
"""How a game ended (:class:`camelpy.games.Termination`)."""
Outcome = games.Outcome
"""The end of a game (:class:`camelpy.games.Outcome`): its termination and winner."""


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


class Board(games.Board[Move]):
    """A Leiserchess game: the pieces, the side to move and the moves pushed on this board, backed by
    the Rust core; copy, pickling, equality, the move stack and the result come from
    :class:`camelpy.games.Board`. *fen* is the position (default: the start), *rules* 2016 or 2018.

    >>> board = Board("8/8/8/8/8/8/8/NN6nn W")
    >>> board.push("a0R")  # the king turns east and fires along rank 0 into Lavender's king
    >>> board.outcome()
    Outcome(termination=<Termination.KING_HIT: 'king_hit'>, winner=True)
    >>> board.result(), board.legal_moves
    ('1-0', [])
    >>> Board().push("h0h0")
    Traceback (most recent call last):
    ...
    camelpy.errors.IllegalMoveError: illegal Leiserchess move 'h0h0' (Ko: ...) in ...

    :raises: :exc:`camelpy.errors.InvalidFenError` (a :exc:`ValueError`) for a FEN that cannot be read
        or breaks the rules (one king a side, at most seven pawns); :exc:`ValueError` for *rules* other
        than 2016 and 2018; :exc:`TypeError` for arguments of the wrong type.
    """

    __slots__ = ()

    _native: _core.LeiserBoard
    _move_type = Move

    def __init__(self, fen: str = STARTING_FEN, *, rules: int = 2016) -> None:
        self._native = _core.LeiserBoard(str_arg(fen, "fen"), rules)

    def _options(self) -> dict[str, object]:
        return {} if self.rules == 2016 else {"rules": self.rules}

    @property
    def rules(self) -> int:
        """The rule set: 2016 or 2018."""
        return self._native.rules

    def fen(self) -> str:
        """The FEN: ranks 7 to 0, two-letter piece codes and digits, then ``W`` or ``B``."""
        return self._native.fen()

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

    def shots(self, move: MoveLike) -> tuple[Laser, ...]:
        """The beams the mover's king fires when *move* is played here, in order (the pieces move
        first): under the 2016 rules one more after each zap, under 2018 one. The board is not changed.

        >>> board = Board("ss7/8/8/8/SE1NE5/8/8/NN7 W")
        >>> [(shot.end, shot.square) for shot in board.shots("a0a0")]  # c3's back is struck, then the edge
        [('zap', 'c3'), ('edge', None)]
        >>> Board("8/8/8/8/8/8/8/NN6nn W").shots("a0R")[0].squares[-1]
        'h0'

        :raises: :exc:`camelpy.errors.InvalidMoveError`, :exc:`camelpy.errors.IllegalMoveError` (both
            :exc:`ValueError`) for a move that cannot be played here, as :meth:`push`.
        """
        return tuple(
            Laser(tuple(squares), end, square)
            for squares, end, square in self._native.shots(self._move_arg(move)._to_native())
        )

    def __str__(self) -> str:
        return self._native.text()


def perft(board: Board, depth: int, *, stop: threading.Event | None = None) -> int:
    """The leaves of the move tree *depth* plies below *board*, by the rules page's convention: every
    generated move counts (Ko is a rule of play, not of perft) and a move whose shot hits a king ends its
    line as one leaf. Counted in the core with the GIL released; Ctrl-C stops a deep count.

    >>> [perft(Board(), d) for d in (1, 2, 3)]
    [78, 6084, 473126]

    :raises: :exc:`TypeError` for a *board* that is not a :class:`Board` or a non-integer *depth*,
        :exc:`ValueError` for a *depth* out of range.
    """
    return games.perft(Board._checked(board), depth, stop=stop)


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The static evaluation of a position: the value for the side to move and each weight's feature
    (Tangerine minus Lavender; the value is the features times the weights, turned to the side to
    move, plus the tempo)."""

    value: int
    """Centipawns for the side to move (a pawn is 100)."""
    features: dict[str, int]
    """Each weight's feature, Tangerine minus Lavender."""


def evaluate(board: Board, weights: Mapping[str, int] | None = None) -> Evaluation:
    """The static evaluation of *board* with *weights* (names not given keep their defaults).

    >>> evaluate(Board()).value  # a level start: only the tempo
    -7
    >>> evaluate(Board("8/8/8/8/8/8/NW7/NN6nn W")).features["pawn"]
    1
    """
    value, features = Board._checked(board)._native.evaluate(
        None if weights is None else weight_values(weights, DEFAULT_WEIGHTS)
    )
    return Evaluation(value, dict(zip(WEIGHT_NAMES, features)))


SearchInfo = games.SearchInfo[Move]
"""One finished iteration of the player's search (:class:`camelpy.games.SearchInfo` of :class:`Move`);
a proven ``win_in`` is a king hit."""
SearchResult = games.SearchResult[Move]
"""What a search found (:class:`camelpy.games.SearchResult` of :class:`Move`)."""


class Searcher(
    games.Searcher[Board, Move],
    native=_core.LeiserSearcher,
    board=Board,
    defaults=DEFAULT_WEIGHTS,
    endless=True,
):
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

    @property
    def threats(self) -> int:
        """A candidate search change, off (0) by default: with 1, a side whose king the other side
        could hit with a move of its own is searched as a side in danger (no reverse futility or
        late-move reduction at its node, and one ply deeper); with 2, also in quiescence (it answers
        the threat for two plies instead of standing pat); with 3, as 1 but looked for only where it
        changes what the search does: at nodes deep enough for late-move reductions, and where reverse
        futility would cut (a look costs about a node's moves). Set to change it (0 to 3).

        >>> searcher = Searcher(1)
        >>> searcher.threats = 1
        >>> searcher.threats, searcher.search(Board("7nn/8/8/8/8/8/8/EE6NW W"), depth=2).info.win_in
        (1, 1)
        """
        return self._native.setting("threats")

    @threats.setter
    def threats(self, threats: int) -> None:
        self._native.set_setting("threats", threats)


search = Searcher.new_search
"""Searches with a new :class:`Searcher` (:meth:`camelpy.games.Searcher.new_search`)."""


@dataclasses.dataclass(frozen=True)
class Samples:
    """Tuning positions from Leiserchess self-play (:func:`selfplay_samples`), one per list entry."""

    features: list[list[int]]
    """The evaluation's features, Tangerine minus Lavender, in :data:`WEIGHT_NAMES` order: what the
    weights multiply."""
    tangerine_to_move: list[bool]
    """Whether Tangerine was to move (the ``tempo`` feature's sign)."""
    results: list[float]
    """The game's result for Tangerine: 1, 0.5 or 0."""


def _samples(
    features: list[list[int]], _: list[int] | None, tangerine: list[bool], results: list[float]
) -> Samples:
    return Samples(features, tangerine, results)


_SELFPLAY = games.SelfPlay(Searcher, 2, _samples)
selfplay_samples = _SELFPLAY.samples
"""Plays games of the player against itself (2 random opening plies by default, the 2016 rules unless
*rules*; 400 plies without an end are a draw) and returns the positions a static evaluation can be fitted
to: the move chosen quiet (its shot zaps nothing) and no proven win or loss, each with the game's result
(:meth:`camelpy.games.SelfPlay.samples`)."""
compare_weights = _SELFPLAY.compare
"""Plays pairs of games between two sets of weights (:meth:`camelpy.games.SelfPlay.compare`)."""

"""Opening books: Polyglot ``.bin`` files read with :mod:`chess.polyglot`, moves picked at random in
proportion to their weights (from a seedable generator, so a fixed seed replays the same choices).

The UCI engine consults a book (options ``OwnBook``, ``BookFile``, ``BookSeed``) only while the current
position is in it; any position the book does not know is searched. :func:`write_book` builds a book from
``(board, move, weight)`` entries, which is how the tests make theirs.

>>> import chess, tempfile, os
>>> from camelpy.book import Book, write_book
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.bin")
>>> write_book(path, [(chess.Board(), chess.Move.from_uci("e2e4"), 3)])
1
>>> with Book(path, seed=1) as book:
...     book.pick(chess.Board()), book.pick(chess.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1"))
(Move.from_uci('e2e4'), None)
"""

from __future__ import annotations

import os
import random
import struct
from collections.abc import Iterable
from types import TracebackType

import chess
import chess.polyglot

from camelpy._args import brief, int_arg, items_arg, opt_int_arg, path_arg, shown
from camelpy._quote import quote

__all__ = ["Book", "InvalidBookError", "write_book"]

ENTRY_SIZE = 16
"""Bytes per Polyglot entry: key u64, move u16, weight u16, learn u32, big-endian."""

_ENTRY = struct.Struct(">QHHI")

_PROMOTION_CODES = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}


class InvalidBookError(ValueError):
    """A book file that cannot be used (missing, unreadable, empty, or not a whole number of entries).

    >>> from camelpy.book import Book
    >>> try:
    ...     Book("/nonexistent/book.bin")
    ... except ValueError as err:
    ...     print(err)
    cannot open book '/nonexistent/book.bin': No such file or directory
    """


class Book:
    """A Polyglot opening book.

    :meth:`pick` returns a weighted-random legal book move for a :class:`chess.Board`, or ``None`` when
    the position is not in the book. *seed* makes the choices reproducible (``None``: seeded from the
    OS). Use it as a context manager, or call :meth:`close`.

    :raises: :exc:`InvalidBookError` if *path* cannot be opened as a book; :exc:`TypeError` for a *path*
        that is not a path (an ``int`` would be taken for a file descriptor) or a *seed* that is not an
        integer.
    """

    def __init__(self, path: str | os.PathLike[str], seed: int | None = None) -> None:
        try:
            self.path = path_arg(path, "path")
        except ValueError:  # empty, or holding NUL
            raise InvalidBookError(f"cannot open book {quote(os.fspath(path))}: not a file name") from None
        opt_int_arg(seed, "seed", None)
        try:
            if not os.path.isfile(self.path):
                what = "Is a directory" if os.path.isdir(self.path) else "No such file or directory"
                raise InvalidBookError(f"cannot open book {quote(self.path)}: {what}")
            size = os.path.getsize(self.path)
            if size == 0 or size % ENTRY_SIZE:
                raise InvalidBookError(
                    f"not a polyglot book (size {size} is not a positive multiple of {ENTRY_SIZE}): "
                    f"{quote(self.path)}"
                )
            self._reader = chess.polyglot.open_reader(self.path)
        except OSError as err:
            raise InvalidBookError(
                f"cannot open book {quote(self.path)}: {err.strerror or brief(err)}"
            ) from None
        self._random = random.Random(seed)

    def __len__(self) -> int:
        return len(self._reader)

    def pick(self, board: chess.Board) -> chess.Move | None:
        """A book move for *board* chosen at random in proportion to the entries' weights; ``None`` if the
        position has no (legal, positive-weight) entry. Castling comes back as python-chess writes it for
        the board (``e1g1`` in standard chess, king takes rook in Chess960).

        :raises: :exc:`TypeError` for a *board* that is not a :class:`chess.Board`."""
        _check_board(board)
        try:
            return self._reader.weighted_choice(board, random=self._random).move
        except IndexError:
            return None

    def moves(self, board: chess.Board) -> dict[chess.Move, int]:
        """Every legal book move for *board* with its total weight (an empty dict when out of book).

        :raises: :exc:`TypeError` for a *board* that is not a :class:`chess.Board`."""
        _check_board(board)
        found: dict[chess.Move, int] = {}
        for entry in self._reader.find_all(board):
            found[entry.move] = found.get(entry.move, 0) + entry.weight
        return found

    def close(self) -> None:
        """Releases the file."""
        self._reader.close()

    def __enter__(self) -> Book:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Book({self.path!r})"


def _check_board(board: object) -> None:
    if not isinstance(board, chess.Board):
        raise TypeError(f"board must be a chess.Board, got {type(board).__name__} {shown(board)}")


def _raw_move(board: chess.Board, move: chess.Move) -> int:
    """The Polyglot move bits: to file, to row, from file, from row, promotion; castling as king takes
    rook."""
    to_square = move.to_square
    if board.is_castling(move) and not board.chess960:
        rook_file = 7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0
        to_square = chess.square(rook_file, chess.square_rank(move.from_square))
    return (
        chess.square_file(to_square)
        | chess.square_rank(to_square) << 3
        | chess.square_file(move.from_square) << 6
        | chess.square_rank(move.from_square) << 9
        | _PROMOTION_CODES[move.promotion] << 12
    )


def write_book(path: str | os.PathLike[str], entries: Iterable[tuple[chess.Board, chess.Move, int]]) -> int:
    """Writes a Polyglot book of ``(board, move, weight)`` entries (sorted by key, as readers require);
    returns the number of entries written.

    :raises: :exc:`chess.IllegalMoveError` for a move that is illegal on its board, :exc:`ValueError` for
        a weight outside 0..65535 or a *path* that cannot be written (naming it), :exc:`TypeError` for
        an entry that is not a (:class:`chess.Board`, :class:`chess.Move`, int) triple.
    """
    target = path_arg(path, "path")
    packed = []
    for number, entry in enumerate(items_arg(entries, "entries", (tuple, list)), start=1):
        if len(entry) != 3:
            raise TypeError(f"book entry {number} must be a (board, move, weight) triple, got {shown(entry)}")
        board, move, weight = entry
        _check_board(board)
        if not isinstance(move, chess.Move):
            raise TypeError(f"move must be a chess.Move, got {type(move).__name__} {shown(move)}")
        if not board.is_legal(move):
            raise chess.IllegalMoveError(f"illegal move in book entry: {move.uci()!r} in {board.fen()}")
        int_arg(weight, "book weight", 0, 0xFFFF)
        packed.append((chess.polyglot.zobrist_hash(board), _raw_move(board, move), weight))
    packed.sort()
    try:
        with open(target, "wb") as f:
            for key, raw, weight in packed:
                f.write(_ENTRY.pack(key, raw, weight, 0))
    except OSError as err:
        raise ValueError(f"cannot write book {quote(target)}: {err.strerror or brief(err)}") from None
    return len(packed)

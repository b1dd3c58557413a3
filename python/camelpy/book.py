"""Opening books: Polyglot ``.bin`` files read with :mod:`chess.polyglot`, moves picked at random in
proportion to their weights (from a seedable generator, so a fixed seed replays the same choices).

The UCI engine consults a book (options ``OwnBook``, ``BookFile``, ``BookSeed``) only while the current
position is in it; any position the book does not know is searched. :func:`write_book` builds a book from
``(board, move, weight)`` entries, which is how the tests make theirs.

This module is the one writer of the format: :func:`write_entries` writes raw ``(key, move, weight)``
entries (merged, scaled into 16 bits, sorted) for :func:`write_book` and for ``camelpy book``
(:mod:`camelpy.tools.chess.book`), with the key computed here by :func:`polyglot_key` from the format's
table (:mod:`camelpy._polyglot_random`); :func:`read_entries` reads a file's raw entries back.

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

from camelpy._args import brief, check_file, int_arg, items_arg, opt_int_arg, path_arg, read_bytes, shown
from camelpy._polyglot_random import CASTLING, EN_PASSANT, RANDOM64, TURN
from camelpy._quote import quote

__all__ = [
    "MAX_BOOK_BYTES",
    "MAX_WEIGHT",
    "Book",
    "InvalidBookError",
    "polyglot_key",
    "raw_move",
    "read_entries",
    "scaled",
    "write_book",
    "write_entries",
]

MAX_WEIGHT = 0xFFFF
"""The largest weight an entry can hold (an unsigned 16-bit field)."""

ENTRY_SIZE = 16
"""Bytes per Polyglot entry: key u64, move u16, weight u16, learn u32, big-endian."""

MAX_BOOK_BYTES = 256 << 20
"""Largest book :func:`read_entries` reads whole (256 MiB, 16 M entries): the biggest published books
are under 200 MB, and every entry becomes a Python tuple (some 100 bytes each)."""

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
            # A regular file, checked before it is opened (python-chess maps it, so any size is fine).
            check_file(self.path, "path", "book", limit=None, verb="open")
        except ValueError as err:
            raise InvalidBookError(str(err)) from None
        try:
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


def _check_move(move: object) -> None:
    if not isinstance(move, chess.Move):
        raise TypeError(f"move must be a chess.Move, got {type(move).__name__} {shown(move)}")


def raw_move(board: chess.Board, move: chess.Move) -> int:
    """The Polyglot move bits of *move* (legal on *board*): to file, to row, from file, from row,
    promotion; castling as king takes rook.

    >>> board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    >>> raw_move(board, chess.Move.from_uci("e2e4")), raw_move(board, chess.Move.from_uci("e1g1"))
    (796, 263)

    :raises: :exc:`TypeError` for a *board* that is not a :class:`chess.Board` or a *move* that is not
        a :class:`chess.Move`.
    """
    _check_board(board)
    _check_move(move)
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


def polyglot_key(board: chess.Board) -> int:
    """The Polyglot key of *board*: the XOR of the :data:`~camelpy._polyglot_random.RANDOM64` numbers
    for its pieces, castling rights, en-passant file and side to move, as the format defines it.

    A castling right counts only where its king and rook stand on the back rank, as the short-side
    number when the rook is on the king's h-file side and the long-side number when it is on the a-file
    side (in standard chess: king on e1/e8, rook in its corner; the specification names no Chess960
    rule, and this is python-chess's). The en-passant file counts only when a pawn of the side to move
    stands beside the pawn that has just made a double step, whether or not the capture would be
    legal.

    >>> hex(polyglot_key(chess.Board()))
    '0x463b96181691fc9c'
    >>> board = chess.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    >>> hex(polyglot_key(board))
    '0x22a48b5a8e47ff78'

    :raises: :exc:`TypeError` for a *board* that is not a :class:`chess.Board`.
    """
    _check_board(board)
    key = 0
    random64 = RANDOM64
    for color, colour_kind in ((chess.WHITE, 1), (chess.BLACK, 0)):
        mine = board.occupied_co[color]
        for piece_type, pieces in (
            (chess.PAWN, board.pawns),
            (chess.KNIGHT, board.knights),
            (chess.BISHOP, board.bishops),
            (chess.ROOK, board.rooks),
            (chess.QUEEN, board.queens),
            (chess.KING, board.kings),
        ):
            base = 64 * (2 * (piece_type - 1) + colour_kind)
            squares = pieces & mine
            while squares:
                low = squares & -squares
                key ^= random64[base + low.bit_length() - 1]
                squares ^= low
    rights = board.clean_castling_rights()
    if rights:
        for color, index in ((chess.WHITE, 0), (chess.BLACK, 2)):
            king = board.king(color)
            back_rank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
            if king is None or not chess.BB_SQUARES[king] & back_rank:
                continue
            rooks = rights & back_rank
            if rooks >> king:  # a rook right of the king (a higher square on the same rank)
                key ^= random64[CASTLING + index]
            if rooks & chess.BB_SQUARES[king] - 1:  # a rook left of it
                key ^= random64[CASTLING + index + 1]
    ep = board.ep_square
    if ep is not None:
        # a pawn of the side to move that attacks the square behind the double-stepped pawn
        capturers = chess.BB_PAWN_ATTACKS[not board.turn][ep] & board.pawns & board.occupied_co[board.turn]
        if capturers:
            key ^= random64[EN_PASSANT + chess.square_file(ep)]
    if board.turn == chess.WHITE:
        key ^= random64[TURN]
    return key


def read_entries(path: str | os.PathLike[str]) -> list[tuple[int, int, int, int]]:
    """Every entry of the Polyglot book at *path*, in file order, as ``(key, raw move, weight, learn)``
    tuples (the raw fields: :func:`raw_move` spells out the move bits).

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "one.bin")
    >>> write_book(path, [(chess.Board(), chess.Move.from_uci("d2d4"), 5)])
    1
    >>> [(hex(key), raw, weight) for key, raw, weight, _ in read_entries(path)]
    [('0x463b96181691fc9c', 731, 5)]

    :raises: :exc:`InvalidBookError` for a file that cannot be read, is not a regular file, is larger than
        :data:`MAX_BOOK_BYTES` or is not a whole number of entries.
    """
    target = path_arg(path, "path")
    try:
        data = read_bytes(target, "path", "book", limit=MAX_BOOK_BYTES, verb="open")
    except ValueError as err:
        raise InvalidBookError(str(err)) from None
    if len(data) % ENTRY_SIZE:
        raise InvalidBookError(
            f"not a polyglot book (size {len(data)} is not a multiple of {ENTRY_SIZE}): {quote(target)}"
        )
    return list(_ENTRY.iter_unpack(data))


def scaled(weights: list[int]) -> list[int]:
    """*weights* (one position's, non-negative) fitted into u16: unchanged when the largest is at most
    :data:`MAX_WEIGHT`, else each scaled by ``MAX_WEIGHT / largest`` and rounded, a positive weight to at
    least 1. Order is kept: a larger weight never comes out smaller (two may come out equal).

    >>> scaled([3, 1, 0])
    [3, 1, 0]
    >>> scaled([200_000, 100_000, 1])
    [65535, 32768, 1]

    :raises: :exc:`TypeError` for *weights* that are not a list of integers, :exc:`ValueError` for a
        negative weight.
    """
    weights = [int_arg(w, f"weights[{i}]", 0) for i, w in enumerate(items_arg(weights, "weights"))]
    largest = max(weights, default=0)
    if largest <= MAX_WEIGHT:
        return list(weights)
    return [max(1, (w * MAX_WEIGHT + largest // 2) // largest) if w > 0 else 0 for w in weights]


def write_entries(path: str | os.PathLike[str], entries: Iterable[tuple[int, int, int]]) -> int:
    """Writes a Polyglot book from raw ``(key, raw move, weight)`` entries: entries for the same key and
    move are merged (weights summed), each position's weights are fitted into u16 with :func:`scaled`,
    and the file is sorted by key (readers search it by bisection), each key's moves by weight, largest
    first. Returns the number of entries written. The learn field is written as 0.

    :raises: :exc:`ValueError` for a negative weight, a key or move outside its field, or a *path* that
        cannot be written (naming it); :exc:`TypeError` for *entries* that are not an iterable of
        integer triples.
    """
    target = path_arg(path, "path")
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Iterable):
        raise TypeError(f"entries must be a list, got {type(entries).__name__} {shown(entries)}")
    merged: dict[int, dict[int, int]] = {}
    for number, entry in enumerate(entries):
        if not isinstance(entry, tuple) or len(entry) != 3 or not all(type(n) is int for n in entry):
            raise TypeError(
                f"entries[{number}] must be a (key, move, weight) triple of ints, got {shown(entry)}"
            )
        key, raw, weight = entry
        if not 0 <= key <= 0xFFFF_FFFF_FFFF_FFFF or not 0 <= raw <= 0xFFFF or weight < 0:
            raise ValueError(f"bad book entry {number}: key {key:#x}, move {raw:#x}, weight {weight}")
        moves = merged.setdefault(key, {})
        moves[raw] = moves.get(raw, 0) + weight
    written = 0
    try:
        with open(target, "wb") as f:
            for key in sorted(merged):
                moves = merged[key]
                raws = sorted(moves, key=lambda raw: (-moves[raw], raw))
                for raw, weight in zip(raws, scaled([moves[raw] for raw in raws])):
                    f.write(_ENTRY.pack(key, raw, weight, 0))
                    written += 1
    except OSError as err:
        raise ValueError(f"cannot write book {quote(target)}: {err.strerror or brief(err)}") from None
    return written


def write_book(path: str | os.PathLike[str], entries: Iterable[tuple[chess.Board, chess.Move, int]]) -> int:
    """Writes a Polyglot book of ``(board, move, weight)`` entries with :func:`write_entries` (sorted by
    key, as readers require; repeated moves of one position merged); returns the number of entries
    written.

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
        _check_move(move)
        if not board.is_legal(move):
            raise chess.IllegalMoveError(f"illegal move in book entry: {move.uci()!r} in {board.fen()}")
        int_arg(weight, "book weight", 0, MAX_WEIGHT)
        packed.append((polyglot_key(board), raw_move(board, move), weight))
    return write_entries(target, packed)

"""Opening books for matches: EPD positions or PGN lines, taken in file order or in a seeded random
order. Each opening is played twice, colours swapped (a game pair), so its bias cancels out.

>>> book = openings_from_lines(["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \\"e4\\";"])
>>> book[0].name, book[0].board().fen()
('e4', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')
>>> [o.name for o in choose(book * 3, 2, order="sequential", start=2)]
['e4', 'e4']
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import chess
import chess.pgn

from camelpy._args import (
    at,
    brief,
    choice_arg,
    int_arg,
    items_arg,
    opt_int_arg,
    read_text,
    str_arg,
)
from camelpy._quote import quote

__all__ = [
    "MAX_PAIRS",
    "Opening",
    "book_digest",
    "choose",
    "epd_records",
    "load_openings",
    "openings_from_lines",
]

MAX_PAIRS = 1_000_000
"""Most game pairs one schedule may ask for: two million games, beyond any local run (a match or
tournament lists its games up front, some 300 bytes each)."""

MAX_OPENINGS_BYTES = 256 << 20
"""Largest openings file read (256 MiB): the biggest published EPD books (a few million positions,
some 60 bytes each) fit, and a book is held in memory whole."""


@dataclasses.dataclass(frozen=True)
class Opening:
    """A start position (FEN) and book moves (UCI) played from it.

    >>> Opening(chess.STARTING_FEN, ("e2e4", "e7e5")).board().move_stack
    [Move.from_uci('e2e4'), Move.from_uci('e7e5')]
    """

    fen: str = chess.STARTING_FEN
    """The root position."""
    moves: tuple[str, ...] = ()
    """Book moves from the root, in UCI."""
    name: str = ""
    """The EPD ``id`` or the PGN line in SAN, for the PGN's ``Opening`` header."""

    def __post_init__(self) -> None:
        str_arg(self.fen, "fen")
        object.__setattr__(self, "moves", tuple(items_arg(self.moves, "moves", str)))
        str_arg(self.name, "name")

    def board(self) -> chess.Board:
        """The position after the book moves, with them on the move stack.

        :raises: :exc:`ValueError` quoting a bad FEN or a move that is not legal.
        """
        try:
            board = chess.Board(self.fen)
        except ValueError as err:
            raise ValueError(f"bad opening fen {quote(self.fen)} ({brief(err)})") from None
        for uci in self.moves:
            try:
                board.push_uci(uci)
            except ValueError as err:
                raise ValueError(f"bad opening move {quote(uci)} ({brief(err)})") from None
        return board

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"fen": self.fen, "moves": list(self.moves), "name": self.name}


def book_digest(openings: Iterable[Opening]) -> str:
    """A short fingerprint of an opening book, its openings in order: a resumed match or tournament
    checks by it that it plays the same book as the run it continues.

    >>> book_digest([Opening()]) == book_digest([Opening()]) != book_digest([Opening(moves=("e2e4",))])
    True
    """
    data = [opening.to_json() for opening in items_arg(openings, "openings", Opening)]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def epd_records(
    lines: Iterable[str], source: str = "<epd>"
) -> Iterator[
    tuple[int, str, chess.Board, dict[str, str | int | float | chess.Move | list[chess.Move] | None]]
]:
    """Each EPD line of *lines* (blank lines and ``#`` comments skipped) as its line number, its text,
    its board and its operations (python-chess's :meth:`chess.Board.from_epd`): the one EPD reader of
    the opening sets and the EPD test suites (:mod:`camelpy.tools.chess.epd`).

    >>> lines = ["# the start", '8/8/8/8/8/8/8/K6k w - - id "x";']
    >>> [(n, board.fen(), ops) for n, _, board, ops in epd_records(lines)]
    [(2, '8/8/8/8/8/8/8/K6k w - - 0 1', {'id': 'x'})]

    :raises: :exc:`ValueError` quoting the first line that is not EPD, :exc:`TypeError` for *lines*
        that are not a list of strings.
    """
    str_arg(source, "source")
    for number, line in enumerate(items_arg(lines, "lines", str), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(text)
        except ValueError as err:
            raise ValueError(f"bad EPD at {at(source, number)}: {quote(text)} ({brief(err)})") from None
        yield number, text, board, ops


def openings_from_lines(lines: Iterable[str], source: str = "<epd>") -> list[Opening]:
    """Openings from EPD lines (blank lines and ``#`` comments skipped).

    :raises: :exc:`ValueError` quoting the first bad line, :exc:`TypeError` for *lines* that are not a
        list of strings.
    """
    book = []
    for number, text, board, ops in epd_records(lines, source):
        if not board.is_valid():
            raise ValueError(f"impossible position at {at(source, number)}: {quote(text)}")
        name = ops.get("id")
        book.append(Opening(board.fen(), (), str(name) if name else f"{Path(source).name}:{number}"))
    return book


def _pgn_openings(text: str, source: str, plies: int | None) -> list[Opening]:
    book: list[Opening] = []
    handle = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if game.errors:
            raise ValueError(f"bad PGN game {len(book) + 1} in {quote(source)}: {brief(game.errors[0])}")
        board = game.board()
        root = board.fen()
        moves = list(game.mainline_moves())[:plies]
        name = board.variation_san(moves) if moves else game.headers.get("Opening", "")
        book.append(Opening(root, tuple(m.uci() for m in moves), name))
    return book


def load_openings(path: str | Path, *, fmt: str | None = None, plies: int | None = None) -> list[Opening]:
    """Reads an EPD or PGN book (*fmt* ``"epd"``/``"pgn"``, else from the file extension); *plies*
    cuts PGN lines.

    :raises: :exc:`ValueError` for an unreadable, empty or malformed book, an unknown *fmt* or a
        negative *plies*; :exc:`TypeError` for an argument of the wrong type.
    """
    if fmt is not None:
        choice_arg(fmt, "opening format", ("epd", "pgn"))
    opt_int_arg(plies, "plies", 0)
    text = read_text(path, "path", "openings", limit=MAX_OPENINGS_BYTES)
    path = Path(path)
    kind = fmt or ("pgn" if path.suffix.lower() == ".pgn" else "epd")
    book = (
        _pgn_openings(text, str(path), plies)
        if kind == "pgn"
        else openings_from_lines(text.splitlines(), str(path))
    )
    if not book:
        raise ValueError(f"no openings in {quote(str(path))}")
    return book


def choose(
    book: Sequence[Opening], count: int, *, order: str = "sequential", seed: int = 0, start: int = 1
) -> list[Opening]:
    """The openings of *count* game pairs: in file order from the *start*-th (1-based) opening, or
    shuffled with *seed* (``order="random"``; every opening is used once before any repeats). The
    order goes round the book again after its end, and so does *start*: the *start*-th pair of a run
    from the first opening gets the *start*-th opening, also past the book's end (so a run continued
    after *P* pairs starts at *P* + 1). An empty book means the start position.

    :raises: :exc:`ValueError` for an unknown order, a *count* beyond :data:`MAX_PAIRS` or a start
        below 1; :exc:`TypeError` for an argument of the wrong type.
    """
    items_arg(book, "book", Opening)
    int_arg(count, "count", 0, MAX_PAIRS)
    choice_arg(order, "opening order", ("sequential", "random"))
    int_arg(seed, "seed", None)
    int_arg(start, "opening start", 1)
    if not book:
        return [Opening(name="startpos")] * count
    indices = list(range(len(book)))
    if order == "random":
        random.Random(seed).shuffle(indices)
    first = start - 1
    return [book[indices[(first + i) % len(indices)]] for i in range(count)]

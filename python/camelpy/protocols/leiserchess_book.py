"""Leiserchess opening books as the protocol engine reads them (``setoption name Book value PATH``, or
``camelpy leiserchess --book PATH``): the file format and its reader. ``camelpy leiserchess book``
builds them (:mod:`camelpy.tools.games.leiserchess_book`).

The file is text: a header line ``# camelpy leiserchess book 1 side=… plies=… depth=… rules=…``, then
one line an entry, ``FEN<TAB>move<TAB>depth<TAB>score`` (the score in centipawns for the side to move,
or ``win N``/``loss N``). The engine plays the book's move when the position is in it and the move is
legal there (Ko looks at the game's history, the book only at the board).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "book.txt")
>>> with open(path, "w") as f:
...     _ = f.write(HEADER + " side=tangerine plies=1 depth=2 rules=2016\\n")
...     _ = f.write(BookEntry(Board().fen(), "f4f5", 2, "12").line() + "\\n")
>>> book = LeiserBook.load(path)
>>> len(book), str(book.probe(Board()))
(1, 'f4f5')
>>> header_rules("# camelpy leiserchess book 1 side=both rules=2018")
2018
"""

from __future__ import annotations

import dataclasses
import os

from camelpy._args import read_text
from camelpy._quote import quote
from camelpy.leiserchess import RULES, Board, Move

__all__ = ["HEADER", "MAX_BOOK_BYTES", "BookEntry", "LeiserBook", "header_rules"]

HEADER = "# camelpy leiserchess book 1"
"""The first words of a book file (format version 1)."""
MAX_BOOK_BYTES = 64 << 20
"""Largest book file read (64 MiB, some 800,000 entries of 80 bytes): a 6-ply book for one side is
about 65^3 = 275,000 positions, and every entry's position and move are checked as it is read."""


@dataclasses.dataclass(frozen=True)
class BookEntry:
    """One position's book move."""

    fen: str
    """The position (its side to move included)."""
    move: str
    """The move the search chose."""
    depth: int
    """The depth it searched."""
    score: str
    """Its score for the side to move: centipawns, or ``win N`` / ``loss N``."""

    def line(self) -> str:
        """The entry as a line of the book file."""
        return f"{self.fen}\t{self.move}\t{self.depth}\t{self.score}"


class LeiserBook:
    """A loaded book: entries by position.

    :raises: :exc:`ValueError` (from :meth:`load`) quoting a line that is not an entry or a header of
        another format.
    """

    def __init__(self, entries: dict[str, BookEntry], header: str = HEADER) -> None:
        self.entries = entries
        self.header = header

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> LeiserBook:
        """Reads a book file (see the module), checking every entry's position and move.

        :raises: :exc:`ValueError` quoting the path for a file that is missing, not a regular file,
            larger than :data:`MAX_BOOK_BYTES` or not UTF-8, or a line that is not an entry.
        """
        text = read_text(path, "path", "Leiserchess book", limit=MAX_BOOK_BYTES)
        lines = text.splitlines()
        if not lines or not lines[0].startswith(HEADER):
            first = lines[0] if lines else ""
            raise ValueError(f"not a camelpy Leiserchess book (its first line is {quote(first)})")
        rules = header_rules(lines[0])
        entries: dict[str, BookEntry] = {}
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            fields = line.split("\t")
            try:
                if len(fields) != 4:
                    raise ValueError("expected FEN, move, depth and score separated by tabs")
                board = Board(fields[0], rules=rules)
                if fields[1] not in {str(m) for m in board.legal_moves}:
                    raise ValueError(f"{fields[1]!r} is not a legal move there")
                entries[board.fen()] = BookEntry(board.fen(), fields[1], int(fields[2]), fields[3])
            except ValueError as err:
                raise ValueError(f"bad book line {number} {quote(line)}: {err}") from None
        return cls(entries, lines[0])

    def __len__(self) -> int:
        return len(self.entries)

    def probe(self, board: Board) -> Move | None:
        """The book move for *board*, if the book has its position and the move is legal in this game
        (Ko)."""
        entry = self.entries.get(board.fen())
        if entry is None:
            return None
        move = Move(entry.move)
        return move if move in board.legal_moves else None


def header_rules(header: str) -> int:
    """The rules (2016 or 2018) a book's header line names (``rules=2018``); 2016 when it names none."""
    words = dict(w.split("=", 1) for w in header.split() if "=" in w)
    rules = int(words.get("rules", "2016"))
    if rules not in RULES:
        raise ValueError(f"a book of unknown rules: {quote(header)}")
    return rules

"""``camelpy leiserchess book``: opening books for the Leiserchess player, built by search, one tree
per side.

A book for one side answers that side's positions only: at its own turns the tree keeps the single
move a search chose, at the opponent's it keeps every reply (those that do not end the game). So a
book *plies* deep holds some 65^(plies/2) positions for the side it is for, where a book for both
sides at once (every move at every turn) would need 65^plies: the course's notes say as much — one
book per side is cheaper, and better, because every entry is a position that side can meet. ``--side
both`` builds the two trees into one file (keys are positions with their side to move, so they never
clash).

Each position is searched to ``--depth`` by a fresh search (its table cleared), so a book is
reproducible; ``--threads`` searches positions at once. Entries are appended as they are found: run
the same command again and the build resumes (a file of other settings is refused).

The file is text: a header line ``# camelpy leiserchess book 1 side=… plies=… depth=… rules=…``, then
one line an entry, ``FEN<TAB>move<TAB>depth<TAB>score`` (the score in centipawns for the side to move,
or ``win N``/``loss N``). ``camelpy leiserchess`` plays from a book given by ``setoption name Book value
PATH`` (or ``--book PATH``): when the position is in it and its move is legal there (Ko looks at the
game's history, the book only at the board), the engine answers at once.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "book.txt")
>>> build_book(path, side="tangerine", plies=1, depth=2)
1
>>> book = LeiserBook.load(path)
>>> len(book), book.probe(Board()) in Board().legal_moves
(1, True)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from camelpy._args import int_arg, path_arg
from camelpy._quote import quote
from camelpy.leiserchess import RULES, Board, Searcher
from camelpy.protocols.leiserchess_book import HEADER, BookEntry, LeiserBook

__all__ = ["BookEntry", "LeiserBook", "add_arguments", "build_book", "main"]

# The book's format and reader are the protocol engine's (it plays from a book); they are re-exported here.

SIDES = ("tangerine", "lavender", "both")
"""Whose positions a book answers."""
BOOK_HASH_MB = 16
"""Each builder thread's table (a depth-8 search of an opening position fits many times over)."""
MAX_BOOK_PLIES = 12
"""The deepest book accepted (65^6 positions is far beyond any build)."""


def _score(info: Any) -> str:
    if info.win_in is not None:
        return f"win {info.win_in}" if info.win_in > 0 else f"loss {-info.win_in}"
    return str(info.score)


def _replies(board: Board) -> Iterator[Board]:
    """Every position one legal move on that does not end the game."""
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        if not after.is_game_over():
            yield after


def build_book(
    path: str | os.PathLike[str],
    *,
    side: str = "both",
    plies: int = 4,
    depth: int = 6,
    rules: int = 2016,
    threads: int = 1,
    report: Callable[[str], None] | None = None,
) -> int:
    """Builds (or resumes) the book *path* for *side* (``tangerine``, ``lavender`` or ``both``): its
    positions in the first *plies* plies from the start, each searched to *depth*. Returns the number
    of entries.

    :raises: :exc:`ValueError` for a bad setting or a file holding another book.
    """
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}, got {quote(str(side))}")
    plies = int_arg(plies, "plies", 1, MAX_BOOK_PLIES)
    depth = int_arg(depth, "depth", 1, 64)
    threads = int_arg(threads, "threads", 1, 256)
    if rules not in RULES:
        raise ValueError(f"rules must be 2016 or 2018, got {rules!r}")
    target = Path(path_arg(path, "path"))
    header = f"{HEADER} side={side} plies={plies} depth={depth} rules={rules}"
    entries: dict[str, BookEntry] = {}
    if target.exists() and target.stat().st_size:
        book = LeiserBook.load(target)
        if book.header != header:
            raise ValueError(
                f"{str(target)!r} holds another book ({quote(book.header)}): use another file, or the"
                " same settings as before"
            )
        entries = dict(book.entries)
    else:
        target.write_text(header + "\n", encoding="utf-8")
    local = threading.local()

    def search(board: Board) -> BookEntry:
        # Each thread its own searcher, cleared before every position: an entry does not depend on
        # which thread searched it, or on what it searched before.
        if not hasattr(local, "searcher"):
            local.searcher = Searcher(BOOK_HASH_MB)
        searcher: Searcher = local.searcher
        searcher.clear()
        result = searcher.search(board, depth=depth)
        if result.move is None:  # not reached: the tree holds no finished games
            raise ValueError(f"no move to book in {board.fen()!r}")
        return BookEntry(board.fen(), str(result.move), result.info.depth, _score(result.info))

    sides = [True, False] if side == "both" else [side == "tangerine"]
    with (
        target.open("a", encoding="utf-8") as out,
        concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool,
    ):
        for ours in sides:
            frontier = [Board(rules=rules)]
            for ply in range(plies):
                todo = [b for b in frontier if b.turn == ours and b.fen() not in entries]
                for entry in pool.map(search, todo):
                    entries[entry.fen] = entry
                    out.write(entry.line() + "\n")
                out.flush()
                following: dict[str, Board] = {}
                for board in frontier:
                    if board.turn == ours:
                        after = board.copy()
                        after.push(entries[board.fen()].move)
                        if not after.is_game_over():
                            following.setdefault(after.fen(), after)
                    else:
                        for after in _replies(board):
                            following.setdefault(after.fen(), after)
                frontier = list(following.values())
                if report is not None:
                    name = "Tangerine" if ours else "Lavender"
                    report(f"{name}, ply {ply + 1}/{plies}: {len(entries)} entries")
    return len(entries)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``leiserchess book`` options."""
    parser.add_argument("--out", required=True, metavar="FILE", help="the book file (resumed if it exists)")
    parser.add_argument("--side", choices=SIDES, default="both", help="whose positions (default both)")
    parser.add_argument("--plies", type=int, default=4, metavar="N", help="plies from the start (default 4)")
    parser.add_argument("--depth", type=int, default=6, metavar="N", help="search depth (default 6)")
    parser.add_argument("--rules", type=int, choices=RULES, default=2016, help="the rule set (default 2016)")
    parser.add_argument("--threads", type=int, default=1, metavar="N", help="positions at once (default 1)")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess book``."""
    count = build_book(
        args.out,
        side=args.side,
        plies=args.plies,
        depth=args.depth,
        rules=args.rules,
        threads=args.threads,
        report=print,
    )
    print(f"{count} entries in {args.out}")
    return 0

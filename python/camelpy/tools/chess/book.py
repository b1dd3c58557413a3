"""``camelpy book build|show|merge``: Polyglot opening books built from PGN games, shown and merged.

``camelpy book build games.pgn --out book.bin`` streams the games (one at a time: a month of a public
database is millions of games, never read whole), counts every move of the first ``--max-ply`` plies
by the Polyglot key of the position it was played in, and weights it by the result for the side that
played it (``--win``/``--draw``/``--loss`` points, default 2/1/0). ``--white FILE`` and ``--black FILE``
write a book per side: each keeps only the moves that side played, weighted by that side's results.
Filters: ``--min-elo`` (a move counts only when its player's ``WhiteElo``/``BlackElo`` tag is at least
this; a player without a rating does not meet it), ``--min-games`` (a move must have been played in at
least this many games in its position). Games without a result (``*``), in other variants than
standard chess and Chess960, or with moves that cannot be read (a garbled PGN) are skipped and counted;
moves after ``--max-ply`` are never parsed (the fast path for long games), so an error there goes
unnoticed. Unknown tokens are passed over as python-chess's PGN reader does.
Moves whose weight comes to 0 (only lost, with ``--loss 0``) are left out: a reader never picks them.

The books are written by :func:`camelpy.book.write_entries`: sorted by key, one entry per position and
move, each position's weights scaled into 16 bits if they overflow (order kept). The key is
:func:`camelpy.book.polyglot_key`, our own computation of the format's key.

A live line on standard error shows the bytes and games read (a tqdm bar when the ``progress`` extra is
installed and standard error is a terminal); Ctrl-C stops reading and writes the books from the games
read so far.

``camelpy book build --search --fen FEN --depth N --plies P --margin CP --out book.bin`` builds a book
by search instead (:func:`search_book`): the tree of moves within a margin of the best, its leaves
searched with ``analyse_many`` on every core and the values minimaxed back up.

``camelpy book show FILE FEN`` lists a position's moves with their weights and shares; ``camelpy book
merge OUT IN1 IN2 ...`` adds books together (weights summed per position and move, scaled into 16 bits
where they overflow).

>>> import os, tempfile
>>> from camelpy.tools.cli import main
>>> folder = tempfile.mkdtemp()
>>> pgn, out = os.path.join(folder, "games.pgn"), os.path.join(folder, "book.bin")
>>> with open(pgn, "w") as f:
...     _ = f.write('[Result "1-0"]\\n\\n1. e4 e5 2. Nf3 1-0\\n\\n')
...     _ = f.write('[Result "1/2-1/2"]\\n\\n1. e4 c5 1/2-1/2\\n')
>>> main(["book", "build", pgn, "--out", out, "--min-games", "1", "--quiet"])  # doctest: +ELLIPSIS
read 2 games (2 used) in ... s, ... games/s
wrote 3 entries (3 positions) to '...book.bin'
0
>>> main(["book", "show", out, "startpos"])
move  uci    weight   share
e4    e2e4        3  100.0%
0
>>> main(["book", "build", "/nonexistent.pgn", "--out", out])  # error: cannot read PGN '/nonex…
2
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

import chess
import chess.engine
import chess.pgn

from camelpy import _core
from camelpy._args import (
    brief,
    check_file,
    int_arg,
    items_arg,
    open_regular,
    opt_int_arg,
    path_arg,
    shown,
    str_arg,
)
from camelpy._quote import quote
from camelpy.batch import analyse_many
from camelpy.book import Book, polyglot_key, raw_move, read_entries, write_entries

__all__ = [
    "MATE_VALUE",
    "BuildSummary",
    "Points",
    "SearchSummary",
    "add_arguments",
    "build_book",
    "main",
    "merge_books",
    "search_book",
    "show_lines",
]

_VARIANTS = {"", "standard", "chess", "chess960", "chess 960", "fischerandom", "from position"}
"""``Variant`` tags (lowercase) whose games are standard chess or Chess960; others are skipped."""

_RESULTS = {"1-0": chess.WHITE, "0-1": chess.BLACK, "1/2-1/2": None}


@dataclasses.dataclass(frozen=True)
class Points:
    """The weight a move earns from the result of its game, for the side that played it.

    >>> Points().of("1-0", chess.WHITE), Points().of("1-0", chess.BLACK), Points(3, 1, 0).of("1/2-1/2", True)
    (2, 0, 1)
    """

    win: int = 2
    """Points for a move of the side that won."""
    draw: int = 1
    """Points for a move in a drawn game."""
    loss: int = 0
    """Points for a move of the side that lost."""

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss"):
            int_arg(getattr(self, name), name, 0, 0xFFFF)

    def of(self, result: str, mover: chess.Color) -> int:
        """The points for *mover*'s moves in a game with this PGN *result* (``1-0``, ``0-1``, ``1/2-1/2``).

        :raises: :exc:`ValueError` for another result, :exc:`TypeError` for one that is not a string."""
        str_arg(result, "result")
        if result not in _RESULTS:
            raise ValueError(f"result must be '1-0', '0-1' or '1/2-1/2', got {shown(result)}")
        winner = _RESULTS[result]
        return self.draw if winner is None else self.win if winner == mover else self.loss


@dataclasses.dataclass(frozen=True)
class BuildSummary:
    """What :func:`build_book` read and wrote."""

    games: int
    """Games read (whole games: one cut by Ctrl-C is not counted)."""
    used: int
    """Games that gave the book at least one move."""
    unfinished: int
    """Games skipped for a missing or unfinished result (``*``)."""
    other_variant: int
    """Games skipped for a ``Variant`` tag other than standard chess or Chess960."""
    garbled: int
    """Games skipped for a move or position that could not be read."""
    first_error: str | None
    """The first garbled game's file, number and reason (``'file' game N: reason``)."""
    entries: dict[str, tuple[int, int]]
    """For each book written (its path): entries and positions."""
    seconds: float
    """Time spent reading the games."""
    interrupted: bool
    """Whether Ctrl-C stopped the reading (the books hold the games read until then)."""

    @property
    def games_per_second(self) -> float:
        """Games read per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


class _GameVisitor(chess.pgn.BaseVisitor["_GameVisitor"]):
    """Reads one game for the book: its headers decide whether and whose moves count, and its mainline
    moves up to the ply limit become ``(composite, weight)`` pairs. Variations are skipped unread, and
    so are the moves after the ply limit (no SAN parsed, no move pushed: the cheap part of a long game).
    """

    def __init__(self, points: Points, min_elo: int | None, max_ply: int) -> None:
        self.points, self.min_elo, self.max_ply = points, min_elo, max_ply
        self.headers: dict[str, str] = {}
        self.moves: dict[int, int] = {}
        self.weights: dict[chess.Color, int] = {}
        self.skip: str | None = None
        self.error: str | None = None
        self.ply = 0

    def begin_game(self) -> None:
        self.headers, self.moves, self.weights = {}, {}, {}
        self.skip, self.error, self.ply = None, None, 0

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def _rated(self, tag: str) -> bool:
        if self.min_elo is None:
            return True
        try:
            return int(self.headers.get(tag, "").strip()) >= self.min_elo
        except ValueError:  # missing, "?", "-"
            return False

    def end_headers(self) -> chess.pgn.SkipType | None:
        result = self.headers.get("Result", "*").strip()
        if result not in _RESULTS:
            self.skip = "unfinished"
        elif self.headers.get("Variant", "").strip().lower() not in _VARIANTS:
            self.skip = "variant"
        else:
            # a rated side's moves count even when they earn nothing (a loss at 0 points): they are
            # games played for --min-games, and a move whose total weight is 0 is left out at the end
            for color, tag in ((chess.WHITE, "WhiteElo"), (chess.BLACK, "BlackElo")):
                if self._rated(tag):
                    self.weights[color] = self.points.of(result, color)
            if not self.weights:
                self.skip = "unrated"
        return chess.pgn.SKIP if self.skip else None

    def begin_variation(self) -> chess.pgn.SkipType:
        return chess.pgn.SKIP

    def begin_parse_san(self, board: chess.Board, san: str) -> chess.pgn.SkipType | None:
        return chess.pgn.SKIP if self.ply >= self.max_ply or self.error else None

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        self.ply += 1
        weight = self.weights.get(board.turn)
        if weight is not None:
            composite = (polyglot_key(board) << 16 | raw_move(board, move)) << 1 | board.turn
            self.moves[composite] = weight  # once per game, even if the position repeats

    def handle_error(self, error: Exception) -> None:
        if self.error is None:
            self.error = brief(error)

    def result(self) -> _GameVisitor:
        return self


def _check_progress(progress: object) -> None:
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress must be a callable or None, got {type(progress).__name__} {shown(progress)}"
        )


def _check_pgn(path: object) -> str:
    # Any size (a PGN is read game by game), but a regular file: not a directory, pipe or device.
    name = check_file(path, "pgn file", "PGN", limit=None)
    if not os.access(name, os.R_OK):
        raise ValueError(f"cannot read PGN {quote(name)}: Permission denied")
    return name


def _check_out(path: object, what: str) -> str:
    name = path_arg(path, what)
    folder = os.path.dirname(os.path.abspath(name))
    if os.path.isdir(name) or not os.path.isdir(folder):
        why = "Is a directory" if os.path.isdir(name) else "No such file or directory"
        raise ValueError(f"cannot write book {quote(name)}: {why}")
    return name


def _outputs(
    out: str | os.PathLike[str] | None,
    white: str | os.PathLike[str] | None,
    black: str | os.PathLike[str] | None,
) -> dict[chess.Color | None, str]:
    """The books to write, by the side whose moves they keep (``None``: both), each path checked."""
    outputs = {
        side: _check_out(path, flag)
        for side, path, flag in (
            (None, out, "out"),
            (chess.WHITE, white, "white"),
            (chess.BLACK, black, "black"),
        )
        if path is not None
    }
    if not outputs:
        raise ValueError("no book to write: give out, white or black")
    return outputs


def _write_books(
    outputs: dict[chess.Color | None, str], entries: list[tuple[int, int, int, chess.Color]]
) -> dict[str, tuple[int, int]]:
    """Writes each book of *outputs* from the ``(key, raw move, weight, side to move)`` *entries* of its
    side; returns each book's entries and positions."""
    written = {}
    for side, path in outputs.items():
        chosen = [(key, raw, weight) for key, raw, weight, turn in entries if side is None or turn == side]
        written[path] = (write_entries(path, chosen), len({key for key, _, _ in chosen}))
    return written


def build_book(
    pgns: Sequence[str | os.PathLike[str]],
    *,
    out: str | os.PathLike[str] | None = None,
    white: str | os.PathLike[str] | None = None,
    black: str | os.PathLike[str] | None = None,
    min_elo: int | None = None,
    min_games: int = 3,
    max_ply: int = 30,
    points: Points = Points(),
    progress: Callable[[int, int, int], None] | None = None,
) -> BuildSummary:
    """Builds Polyglot books from the games of the PGN files *pgns* (read in turn, one game at a time):
    *out* with every move, *white* and *black* with only that side's moves (at least one must be given).

    *progress*, when given, is called after each game with the games read, the bytes read and the total
    bytes of the files. A :exc:`KeyboardInterrupt` while reading (Ctrl-C, or raised by *progress*)
    stops the reading; the books are then written from the games read until then.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> pgn = os.path.join(folder, "g.pgn")
    >>> with open(pgn, "w") as f:
    ...     _ = f.write('[Result "0-1"]\\n\\n1. d4 d5 0-1\\n')
    >>> summary = build_book([pgn], black=os.path.join(folder, "black.bin"), min_games=1)
    >>> summary.games, summary.used, list(summary.entries.values())
    (1, 1, [(1, 1)])

    :raises: :exc:`ValueError` naming the file for a PGN that cannot be read or a book that cannot be
        written, or naming the argument for a bad number; :exc:`TypeError` for an argument of the wrong
        type.
    """
    files = [_check_pgn(p) for p in items_arg(pgns, "pgns")]
    if not files:
        raise ValueError("no PGN file given")
    outputs = _outputs(out, white, black)
    opt_int_arg(min_elo, "min_elo", 0)
    int_arg(min_games, "min_games", 1)
    int_arg(max_ply, "max_ply", 1)
    if not isinstance(points, Points):
        raise TypeError(f"points must be a Points, got {type(points).__name__} {shown(points)}")
    _check_progress(progress)

    counts: dict[int, list[int]] = {}  # composite (key, raw move, side) -> [weight, games]
    games = used = unfinished = other_variant = garbled = 0
    first_error: str | None = None
    total = sum(os.path.getsize(f) for f in files)
    done_bytes = 0
    interrupted = False
    started = time.perf_counter()
    visitor = _GameVisitor(points, min_elo, max_ply)
    try:
        for name in files:
            with os.fdopen(open_regular(name), "rb") as raw:
                text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace")
                number = 0
                while True:
                    if chess.pgn.read_game(text, Visitor=lambda: visitor) is None:
                        break
                    number += 1
                    games += 1
                    if visitor.skip == "unfinished":
                        unfinished += 1
                    elif visitor.skip == "variant":
                        other_variant += 1
                    elif visitor.error is not None:
                        garbled += 1
                        if first_error is None:
                            first_error = f"{quote(name)} game {number}: {visitor.error}"
                    elif visitor.moves:
                        used += 1
                        for composite, weight in visitor.moves.items():
                            entry = counts.get(composite)
                            if entry is None:
                                counts[composite] = [weight, 1]
                            else:
                                entry[0] += weight
                                entry[1] += 1
                    if progress is not None:
                        progress(games, done_bytes + raw.tell(), total)
            done_bytes += os.path.getsize(name)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - started

    chosen = [
        (composite >> 17, composite >> 1 & 0xFFFF, weight, bool(composite & 1))
        for composite, (weight, played) in counts.items()
        if played >= min_games and weight > 0
    ]
    written = _write_books(outputs, chosen)
    return BuildSummary(
        games, used, unfinished, other_variant, garbled, first_error, written, seconds, interrupted
    )


MATE_VALUE = 100_000
"""A mate's value in the search-built book's minimax, in centipawns: beyond any evaluation."""


@dataclasses.dataclass(frozen=True)
class SearchSummary:
    """What :func:`search_book` searched and wrote."""

    searched: int
    """Positions searched (each once per ply it was reached at)."""
    expanded: int
    """Positions whose moves were all searched (the tree's inner nodes)."""
    entries: dict[str, tuple[int, int]]
    """For each book written (its path): entries and positions."""
    seconds: float
    """Time taken."""


def _terminal_value(board: chess.Board) -> int | None:
    """A game-over position's value for its side to move (mated: minus a mate; a draw: 0), else None."""
    if board.is_checkmate():
        return -MATE_VALUE
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    return None


def search_book(
    board: chess.Board,
    *,
    depth: int,
    plies: int,
    margin: int,
    out: str | os.PathLike[str] | None = None,
    white: str | os.PathLike[str] | None = None,
    black: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SearchSummary:
    """Builds a book by search from *board*: a tree of *plies* plies that follows only the moves within
    *margin* centipawns of the best, its values minimaxed back up from the leaves.

    Ply by ply, every child of every position kept so far is searched to *depth* with
    :func:`camelpy.batch.analyse_many` (all of a ply's positions in one batch, on *threads* workers);
    a position's moves within *margin* of its best move are expanded further. Once the last ply is
    searched, each expanded position takes the value of its best move, counted from the leaves up
    (negamax), and keeps its moves within *margin* of that, each weighted ``1 + margin - shortfall``
    (the best move ``1 + margin``); a move that was not expanded keeps its searched value (it can come
    within the margin once the best move's value is backed up, and then has no replies in the book).
    The book holds the kept moves of the positions reached from *board* through kept moves. Searches
    at a fixed depth are deterministic (each worker's table is cleared per position), so the same
    arguments write the same book, whatever *threads*. *progress* is called with ``(done, total)``
    positions of each ply's batch.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "mate.bin")
    >>> board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    >>> summary = search_book(board, depth=1, plies=1, margin=50, out=path, threads=1)
    >>> with Book(path) as book:
    ...     book.moves(board)
    {Move.from_uci('d1d8'): 51}

    :raises: :exc:`ValueError` for a bad number or a book that cannot be written (naming it), or a
        *board* that is over or invalid; :exc:`TypeError` for an argument of the wrong type.
    """
    if not isinstance(board, chess.Board):
        raise TypeError(f"board must be a chess.Board, got {type(board).__name__} {shown(board)}")
    if not board.is_valid():
        raise ValueError(f"impossible position: {quote(board.fen())}")
    if not any(board.legal_moves):
        raise ValueError(f"no legal move in {quote(board.fen())}: nothing to book")
    int_arg(depth, "depth", 1, 100)
    int_arg(plies, "plies", 1, 100)
    int_arg(margin, "margin", 0, MATE_VALUE)
    outputs = _outputs(out, white, black)
    opt_int_arg(threads, "threads", 1, _core.MAX_THREADS)
    _check_progress(progress)
    started = time.perf_counter()
    root = board.copy(stack=False)
    # per ply: position key -> board; the searched value of each child (for its side to move); the
    # moves of each position kept for the next ply
    levels: list[dict[int, chess.Board]] = [{polyglot_key(root): root}]
    searched: list[dict[int, int]] = []  # per ply + 1: child key -> value for its side to move
    count = 0
    for ply in range(plies):
        children: dict[int, chess.Board] = {}
        for position in levels[ply].values():
            for move in position.legal_moves:
                child = position.copy(stack=False)
                child.push(move)
                children.setdefault(polyglot_key(child), child)
        values: dict[int, int] = {}
        pending = []
        for key, child in children.items():
            terminal = _terminal_value(child)
            if terminal is None:
                pending.append(key)
            else:
                values[key] = terminal
        results = analyse_many(
            [children[key] for key in pending],
            chess.engine.Limit(depth=depth),
            threads=threads,
            progress=progress or False,
        )
        for key, result in zip(pending, results):
            if isinstance(result, Exception):  # cannot happen for legal positions; say so if it does
                raise ValueError(f"search failed on {quote(children[key].fen())}: {brief(result)}")
            values[key] = result.score.relative.score(mate_score=MATE_VALUE)
        count += len(pending)
        searched.append(values)
        if ply + 1 == plies:
            break
        kept: dict[int, chess.Board] = {}
        for position in levels[ply].values():
            scored = _scored_moves(position, values)
            best = max(value for _, _, value in scored)
            for _, child_key, value in scored:
                if value >= best - margin and _terminal_value(children[child_key]) is None:
                    kept.setdefault(child_key, children[child_key])
        levels.append(kept)

    # negamax from the last expanded ply up: a position's value is its best move's
    backed: list[dict[int, int]] = [dict(values) for values in searched]
    for ply in range(len(levels) - 1, 0, -1):
        for key, position in levels[ply].items():
            backed[ply - 1][key] = max(value for _, _, value in _scored_moves(position, backed[ply]))

    entries: list[tuple[int, int, int, chess.Color]] = []
    frontier = {polyglot_key(root)}
    for ply, level in enumerate(levels):
        reached: set[int] = set()
        for key in sorted(frontier):
            position = level[key]
            scored = _scored_moves(position, backed[ply])
            best = max(value for _, _, value in scored)
            for move, child_key, value in scored:
                if value >= best - margin:
                    weight = 1 + margin - (best - value)
                    entries.append((key, raw_move(position, move), weight, position.turn))
                    if ply + 1 < len(levels) and child_key in levels[ply + 1]:
                        reached.add(child_key)
        frontier = reached
    written = _write_books(outputs, entries)
    return SearchSummary(count, sum(len(level) for level in levels), written, time.perf_counter() - started)


def _scored_moves(position: chess.Board, values: dict[int, int]) -> list[tuple[chess.Move, int, int]]:
    """*position*'s legal moves with their child's key and value for *position*'s side to move."""
    scored = []
    for move in position.legal_moves:
        position.push(move)
        key = polyglot_key(position)
        position.pop()
        scored.append((move, key, -values[key]))
    return scored


def merge_books(out: str | os.PathLike[str], books: Sequence[str | os.PathLike[str]]) -> tuple[int, int]:
    """Writes to *out* the sum of the Polyglot *books*: each position's and move's weights added up
    (scaled into 16 bits where the sum overflows). Returns the entries and positions written.

    :raises: :exc:`camelpy.book.InvalidBookError` (a :exc:`ValueError`) naming a book that cannot be
        read, :exc:`ValueError` for an *out* that cannot be written.
    """
    target = _check_out(out, "out")
    books = items_arg(books, "books")
    if not books:
        raise ValueError("no book to merge")
    entries: list[tuple[int, int, int]] = []
    for book in books:
        entries.extend((key, raw, weight) for key, raw, weight, _ in read_entries(book))
    return write_entries(target, entries), len({key for key, _, _ in entries})


def show_lines(path: str | os.PathLike[str], board: chess.Board) -> list[str]:
    """The table ``camelpy book show`` prints: *board*'s book moves (SAN and UCI), weights and shares,
    the largest weight first; a single line saying so when the position is not in the book.

    :raises: :exc:`camelpy.book.InvalidBookError` for a file that is not a book.
    """
    with Book(path) as book:
        moves = book.moves(board)
    if not moves:
        return ["position not in book"]
    total = sum(moves.values())
    rows = sorted(moves.items(), key=lambda item: (-item[1], item[0].uci()))
    lines = [f"{'move':<6}{'uci':<7}{'weight':>6}{'share':>8}"]
    for move, weight in rows:
        share = 100.0 * weight / total if total else 0.0
        lines.append(f"{board.san(move):<6}{move.uci():<7}{weight:>6}{share:>7.1f}%")
    return lines


class _Display:
    """The live line while a book is built: a tqdm bar over the bytes when tqdm is installed, else a
    plain ``\\r`` line; silent when *stream* is ``None``. Redrawn at most ten times a second."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.bar: Any = None
        self.last = 0.0
        self.started = time.perf_counter()
        if stream is not None:
            try:  # optional: pip install 'camelpy[progress]'
                self.tqdm: Any = importlib.import_module("tqdm").tqdm
            except ImportError:
                self.tqdm = None

    def __call__(self, games: int, done: int, total: int) -> None:
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.last < 0.1:
            return
        self.last = now
        rate = games / (now - self.started) if now > self.started else 0.0
        text = f"{games:,} games, {rate:,.0f} games/s"
        if self.tqdm is not None:
            if self.bar is None:
                self.bar = self.tqdm(
                    total=total, unit="B", unit_scale=True, desc="book", leave=False, file=self.stream
                )
            self.bar.update(done - self.bar.n)
            self.bar.set_postfix_str(text, refresh=True)
        else:
            percent = 100.0 * done / total if total else 100.0
            self.stream.write(f"\rbook: {percent:.0f}% of {total:,} bytes, {text}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        """Removes the line."""
        if self.bar is not None:
            self.bar.close()
        elif self.stream is not None and self.last:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy book`` arguments: one sub-command each for build, show and merge."""
    actions = p.add_subparsers(dest="action", metavar="{build,show,merge}", required=True)
    b = actions.add_parser(
        "build", help="a book from PGN games or by search", description="a book from PGN games or by search"
    )
    b.add_argument("pgn", nargs="*", metavar="PGN", help="PGN files, read in turn (not with --search)")
    b.add_argument("--out", metavar="FILE", help="the book of both sides' moves")
    b.add_argument("--white", metavar="FILE", help="a book of White's moves only")
    b.add_argument("--black", metavar="FILE", help="a book of Black's moves only")
    b.add_argument("--min-elo", type=int, metavar="N", help="count a move only if its player is rated N+")
    b.add_argument(
        "--min-games", type=int, default=3, metavar="N", help="fewest games a move needs (default 3)"
    )
    b.add_argument("--max-ply", type=int, default=30, metavar="N", help="plies read per game (default 30)")
    b.add_argument("--win", type=int, default=2, metavar="P", help="points for a win (default 2)")
    b.add_argument("--draw", type=int, default=1, metavar="P", help="points for a draw (default 1)")
    b.add_argument("--loss", type=int, default=0, metavar="P", help="points for a loss (default 0)")
    b.add_argument("--quiet", action="store_true", help="no live progress line")
    g = b.add_argument_group("from search (instead of PGN files)")
    g.add_argument("--search", action="store_true", help="build the book by searching from --fen")
    g.add_argument("--fen", default="startpos", help="the root position (default: startpos)")
    g.add_argument("--depth", type=int, default=8, metavar="N", help="search depth per position (default 8)")
    g.add_argument(
        "--plies", type=int, default=4, metavar="P", help="plies of book from the root (default 4)"
    )
    g.add_argument(
        "--margin", type=int, default=30, metavar="CP", help="keep moves this close to the best (30)"
    )
    g.add_argument("--threads", type=int, metavar="T", help="search workers (default: one per core)")
    s = actions.add_parser("show", help="a position's book moves", description="a position's book moves")
    s.add_argument("book", metavar="FILE", help="a Polyglot book")
    s.add_argument("fen", metavar="FEN", help="the position (a FEN, or 'startpos')")
    m = actions.add_parser("merge", help="add books together", description="add Polyglot books together")
    m.add_argument("out", metavar="OUT", help="the merged book")
    m.add_argument("books", nargs="+", metavar="IN", help="the books to merge")


_FLAGS = {
    "min_elo": "--min-elo",
    "min_games": "--min-games",
    "max_ply": "--max-ply",
    "threads": "--threads",
    "out": "--out",
    "white": "--white",
    "black": "--black",
}


def _flags(message: str) -> str:
    """An API error message with a leading argument name written as this command's flag.

    >>> _flags("min_games must be at least 1, got 0"), _flags("win must be between 0 and 65535, got -1")
    ('--min-games must be at least 1, got 0', '--win must be between 0 and 65535, got -1')
    """
    name, space, rest = message.partition(" ")
    plain = ("win", "draw", "loss", "depth", "plies", "margin")
    flag = _FLAGS.get(name, f"--{name}" if name in plain else name)
    return flag + space + rest


def _board(fen: str) -> chess.Board:
    if fen.strip() == "startpos":
        return chess.Board()
    try:
        board = chess.Board(fen)
    except ValueError as err:
        raise ValueError(f"bad FEN {quote(fen)}: {brief(err)}") from None
    if not board.is_valid():
        raise ValueError(f"impossible position in FEN {quote(fen)}")
    return board


def _search(args: argparse.Namespace) -> int:
    if args.pgn:
        raise ValueError(f"--search builds from --fen, not from PGN files: got {quote(args.pgn[0])}")
    board = _board(args.fen)
    stream = None if args.quiet or not sys.stderr.isatty() else sys.stderr
    ply = [0]

    def show(done: int, total: int) -> None:
        if stream is not None:
            stream.write(f"\rbook: ply {ply[0] + 1}/{args.plies}, {done:,}/{total:,} positions\x1b[K")
            stream.flush()
            if done == total:
                ply[0] += 1

    try:
        summary = search_book(
            board,
            depth=args.depth,
            plies=args.plies,
            margin=args.margin,
            out=args.out,
            white=args.white,
            black=args.black,
            threads=args.threads,
            progress=show,
        )
    except (ValueError, TypeError) as err:
        raise ValueError(_flags(str(err))) from None
    finally:
        if stream is not None:
            stream.write("\r\x1b[K")
            stream.flush()
    s = summary
    print(
        f"searched {s.searched:,} positions to depth {args.depth} ({s.expanded:,} expanded) in "
        f"{s.seconds:.2f} s"
    )
    for path, (entries, positions) in s.entries.items():
        print(f"wrote {entries:,} entries ({positions:,} positions) to {quote(path)}")
    return 0


def _build(args: argparse.Namespace) -> int:
    if args.out is None and args.white is None and args.black is None:
        raise ValueError("no book to write: give --out, --white or --black")
    if args.search:
        return _search(args)
    if not args.pgn:
        raise ValueError("no PGN file given (or build from a position with --search)")
    stream = None if args.quiet or not sys.stderr.isatty() else sys.stderr
    display = _Display(stream)
    try:
        summary = build_book(
            args.pgn,
            out=args.out,
            white=args.white,
            black=args.black,
            min_elo=args.min_elo,
            min_games=args.min_games,
            max_ply=args.max_ply,
            points=Points(args.win, args.draw, args.loss),
            progress=display,
        )
    except (ValueError, TypeError) as err:
        display.close()
        raise ValueError(_flags(str(err))) from None
    display.close()
    s = summary
    skipped = [
        f"{n} {what}"
        for n, what in (
            (s.unfinished, "unfinished"),
            (s.other_variant, "other variants"),
            (s.garbled, "garbled"),
        )
        if n
    ]
    print(
        f"read {s.games:,} games ({s.used:,} used{', skipped ' + ', '.join(skipped) if skipped else ''}) "
        f"in {s.seconds:.2f} s, {s.games_per_second:,.0f} games/s"
    )
    if s.first_error is not None:
        print(f"warning: first garbled game: {s.first_error}", file=sys.stderr)
    for path, (entries, positions) in s.entries.items():
        print(f"wrote {entries:,} entries ({positions:,} positions) to {quote(path)}")
        if not entries:
            print(f"warning: the book {quote(path)} is empty", file=sys.stderr)
    if s.interrupted:
        print(f"interrupted: the books hold the {s.games:,} games read", file=sys.stderr)
        return 130
    return 0


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy book`` from parsed arguments."""
    if args.action == "build":
        return _build(args)
    if args.action == "show":
        for line in show_lines(args.book, _board(args.fen)):
            print(line)
        return 0
    entries, positions = merge_books(args.out, args.books)
    print(f"wrote {entries:,} entries ({positions:,} positions) to {quote(args.out)}")
    return 0

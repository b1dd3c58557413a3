"""``camelpy leiserchess``: camelpy's Leiserchess player as an engine speaking the course's UCI-like
protocol on standard input and output, so it can stand in for a course player (in its autotester,
say); ``--perft N`` counts perft instead, ``camelpy leiserchess match`` plays two such engines
against each other (:mod:`camelpy.tools.leiserchess_match`), and ``camelpy leiserchess tune`` fits the
evaluation's weights to self-play (:mod:`camelpy.tools.leiserchess_tune`).

The protocol (one command a line; the engine never exits on bad input, it answers ``info string …``):

* ``uci``: ``id name``, ``id author``, one ``option`` line per setting — every evaluation weight (a
  spin with its range), ``Hash`` (MiB), ``Threads``, ``Rules`` (2016 or 2018), ``Book`` — then
  ``uciok``.
* ``isready``: ``readyok``, at once, even while a search runs.
* ``setoption name NAME value V``: a weight, ``Hash``, ``Threads`` (LazySMP), ``Rules`` (the rules take
  effect at the next ``position``) or ``Book`` (an opening book's file,
  :mod:`camelpy.tools.leiserchess_book`; ``none`` for none): a bad book file keeps the previous book.
* ``ucinewgame`` / ``newgame``: a new game (the search forgets what it learnt).
* ``position startpos [moves M …]`` or ``position fen PLACEMENT W|B [moves M …]``: the game to play
  on; a bad FEN or move keeps the previous position.
* ``go depth N`` | ``go nodes N`` | ``go movetime MS`` | ``go time MS inc MS`` | ``go infinite``:
  searches in the background, printing ``info depth … score cp|mate … nodes … time … pv …`` after
  every iteration and ``bestmove M`` (``bestmove (none)`` when the game is over) at the end;
  ``stop`` ends it early. With a book holding the position (and its move legal there), every ``go``
  but ``go infinite`` answers ``info string book move M`` and ``bestmove M`` at once.
* ``perft N``: perft from the position, ``info string perft N: COUNT``.
* ``display`` (or ``d``): the board, its FEN and the lasers; ``eval``: the evaluation by term.
* ``quit``.

>>> import io
>>> out = io.StringIO()
>>> engine = LeiserEngine(out)
>>> [engine.handle(line) for line in ["position startpos moves f4f5", "perft 1", "go depth 2", "wait"]]
[True, True, True, True]
>>> print(out.getvalue().splitlines()[0])
info string perft 1: 78 (0 ms)
>>> out.getvalue().splitlines()[-1].startswith("bestmove ")
True
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import TextIO

import camelpy
from camelpy._args import int_arg
from camelpy.leiserchess import (
    DEFAULT_HASH_MB,
    DEFAULT_WEIGHTS,
    RULES,
    WEIGHT_LIMITS,
    WEIGHT_NAMES,
    Board,
    Searcher,
    SearchInfo,
    evaluate,
    perft,
)
from camelpy.tools.leiserchess_book import LeiserBook

__all__ = ["LeiserEngine", "add_arguments", "main", "time_for_move"]

MAX_HASH_MB = 65536
"""The largest table the ``Hash`` option accepts, in MiB."""
MAX_THREADS = 256
"""The most threads the ``Threads`` option accepts (the search's own bound)."""
MOVES_TO_GO = 30
"""A clock is spent as if this many moves were left (an ``inc`` adds most of itself on top)."""
INCREMENT_SHARE = 0.8
"""The share of the increment spent on each move."""
SAFETY_MS = 50
"""Milliseconds kept back from the clock (or a ``movetime``) for the process and the pipe."""


def time_for_move(remaining_ms: int, increment_ms: int) -> float:
    """Seconds to think with *remaining_ms* on the clock and *increment_ms* per move (the search
    starts no new iteration after half of it).

    >>> time_for_move(60_000, 500)
    2.4
    >>> time_for_move(40, 0)  # less than the safety margin left: one millisecond
    0.001
    """
    budget = remaining_ms / MOVES_TO_GO + INCREMENT_SHARE * increment_ms
    budget = min(budget, remaining_ms - SAFETY_MS)
    return max(budget, 1.0) / 1000.0


class LeiserEngine:
    """The protocol's state: the game, the rules, the searcher and the running search, writing to
    *out*. :meth:`handle` takes one line."""

    def __init__(self, out: TextIO, *, rules: int = 2016, hash_mb: int = DEFAULT_HASH_MB) -> None:
        self.out = out
        self.rules = rules
        self.searcher = Searcher(hash_mb)
        self.board = Board(rules=rules)
        self.book: LeiserBook | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def say(self, line: str) -> None:
        """Writes one line (whole, even from the search thread)."""
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Runs one command; ``False`` after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                self._stop()
                return False
            handler = getattr(self, f"_cmd_{command}", None)
            if handler is None:
                self.say(f"info string unknown command {line.strip()[:100]!r}")
            else:
                handler(args)
        except (ValueError, TypeError, KeyError, IndexError) as err:
            self.say(f"info string {command}: {err}")
        return True

    # ---- commands ------------------------------------------------------------------------------

    def _cmd_uci(self, _: list[str]) -> None:
        self.say(f"id name camelpy-leiserchess {camelpy.__version__}")
        self.say("id author the camelpy developers")
        for name in WEIGHT_NAMES:
            low, high = WEIGHT_LIMITS[name]
            self.say(f"option name {name} type spin default {DEFAULT_WEIGHTS[name]} min {low} max {high}")
        self.say(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self.say(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.say("option name Rules type combo default 2016 var 2016 var 2018")
        self.say("option name Book type string default none")
        self.say("uciok")

    def _cmd_isready(self, _: list[str]) -> None:
        self.say("readyok")

    def _cmd_setoption(self, args: list[str]) -> None:
        if len(args) < 4 or args[0] != "name" or "value" not in args:
            raise ValueError("expected 'setoption name NAME value VALUE'")
        at = args.index("value")
        name, value = " ".join(args[1:at]), " ".join(args[at + 1 :])
        self._wait()
        if name == "Hash":
            self.searcher = Searcher(
                int_arg(int(value), "Hash", 1, MAX_HASH_MB),
                weights=self.searcher.weights,
                threads=self.searcher.threads,
            )
        elif name == "Threads":
            self.searcher.threads = int_arg(int(value), "Threads", 1, MAX_THREADS)
        elif name == "Rules":
            year = int(value)
            if year not in RULES:
                raise ValueError(f"Rules must be 2016 or 2018, got {value!r}")
            self.rules = year
        elif name == "Book":
            self.book = None if value.lower() in ("", "none") else LeiserBook.load(value)
        elif name in WEIGHT_NAMES:
            low, high = WEIGHT_LIMITS[name]
            self.searcher.weights = {name: int_arg(int(value), name, low, high)}
        else:
            raise ValueError(f"no option {name!r}")

    def _cmd_ucinewgame(self, _: list[str]) -> None:
        self._wait()
        self.searcher.clear()

    _cmd_newgame = _cmd_ucinewgame

    def _cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected 'position startpos|fen FEN [moves ...]'")
        moves_at = args.index("moves") if "moves" in args else len(args)
        if args[0] == "startpos":
            board = Board(rules=self.rules)
        elif args[0] == "fen":
            board = Board(" ".join(args[1:moves_at]), rules=self.rules)
        else:
            raise ValueError(f"expected 'startpos' or 'fen', got {args[0]!r}")
        for move in args[moves_at + 1 :]:
            board.push(move)
        self._wait()
        self.board = board

    def _cmd_go(self, args: list[str]) -> None:
        self._wait()
        options = dict(zip(args[::2], args[1::2]))
        depth = nodes = None
        seconds: float | None = None
        if "depth" in options:
            depth = int(options["depth"])
        if "nodes" in options:
            nodes = int(options["nodes"])
        if "movetime" in options:
            seconds = max(int(options["movetime"]) - SAFETY_MS, 1) / 1000.0
        elif "time" in options:
            seconds = time_for_move(int(options["time"]), int(options.get("inc", "0")))
        if depth is None and nodes is None and seconds is None and "infinite" not in args:
            raise ValueError("expected a limit: depth N, nodes N, movetime MS, time MS [inc MS] or infinite")
        booked = None if self.book is None or "infinite" in args else self.book.probe(self.board)
        if booked is not None:
            self.say(f"info string book move {booked}")
            self.say(f"bestmove {booked}")
            return
        board = self.board.copy()
        self._thread = threading.Thread(
            target=self._search, args=(board, depth, nodes, seconds), name="leiserchess-search", daemon=True
        )
        self._thread.start()

    def _cmd_stop(self, _: list[str]) -> None:
        self._stop()

    def _cmd_wait(self, _: list[str]) -> None:
        """Waits for the running search (for scripts and tests; not part of the course's protocol)."""
        self._wait()

    def _cmd_perft(self, args: list[str]) -> None:
        depth = int_arg(int(args[0]) if args else -1, "depth", 0, 12)
        began = time.monotonic()
        count = perft(self.board, depth)
        ms = int((time.monotonic() - began) * 1000)
        self.say(f"info string perft {depth}: {count} ({ms} ms)")

    def _cmd_display(self, _: list[str]) -> None:
        for line in str(self.board).splitlines():
            self.say(f"info string {line}")
        self.say(f"info string fen {self.board.fen()} rules {self.rules}")
        for side, name in ((True, "Tangerine"), (False, "Lavender")):
            laser = self.board.laser(side)
            self.say(f"info string {name} laser: {' '.join(laser.squares)} ({laser.end})")

    _cmd_d = _cmd_display

    def _cmd_eval(self, _: list[str]) -> None:
        evaluation = evaluate(self.board, self.searcher.weights)
        terms = " ".join(f"{name} {value}" for name, value in evaluation.features.items())
        self.say(f"info string eval {evaluation.value} (side to move); features {terms}")

    # ---- the search ----------------------------------------------------------------------------

    def _search(self, board: Board, depth: int | None, nodes: int | None, seconds: float | None) -> None:
        def report(info: SearchInfo) -> None:
            score = f"mate {info.win_in}" if info.win_in is not None else f"cp {info.score}"
            ms = int(info.time * 1000)
            nps = int(info.nodes / info.time) if info.time > 0 else 0
            pv = " ".join(str(m) for m in info.pv)
            self.say(f"info depth {info.depth} score {score} nodes {info.nodes} time {ms} nps {nps} pv {pv}")

        try:
            result = self.searcher.search(board, depth=depth, nodes=nodes, time=seconds, on_iteration=report)
            self.say(f"bestmove {result.move if result.move is not None else '(none)'}")
        except Exception as err:  # the engine never dies: say it, and answer with a move if there is one
            self.say(f"info string search failed: {err}")
            moves = board.legal_moves
            self.say(f"bestmove {moves[0] if moves else '(none)'}")

    def _stop(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self.searcher.stop()
        self._wait()

    def _wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``leiserchess`` subcommand's options, and ``leiserchess match``'s and ``tune``'s."""
    from camelpy.tools import leiserchess_book, leiserchess_match, leiserchess_tune

    sub = parser.add_subparsers(dest="mode", metavar="[match|tune|book]")
    leiserchess_match.add_arguments(
        sub.add_parser("match", prog="camelpy leiserchess match", help="a match between two protocol engines")
    )
    leiserchess_tune.add_arguments(
        sub.add_parser("tune", prog="camelpy leiserchess tune", help="fit the evaluation to self-play")
    )
    leiserchess_book.add_arguments(
        sub.add_parser("book", prog="camelpy leiserchess book", help="build an opening book by search")
    )
    parser.add_argument("--rules", type=int, default=2016, choices=RULES, help="the rule set (default 2016)")
    parser.add_argument("--hash", type=int, default=DEFAULT_HASH_MB, metavar="MB", help="table size in MiB")
    parser.add_argument("--perft", type=int, metavar="N", help="print perft N from --fen and exit")
    parser.add_argument("--fen", metavar="FEN", help="the position for --perft (default: the start)")
    parser.add_argument("--book", metavar="FILE", help="an opening book (`camelpy leiserchess book`)")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess`` (the engine, ``--perft``, ``match`` or ``tune``)."""
    if getattr(args, "mode", None) == "match":
        from camelpy.tools import leiserchess_match

        return leiserchess_match.main(args)
    if getattr(args, "mode", None) == "tune":
        from camelpy.tools import leiserchess_tune

        return leiserchess_tune.main(args)
    if getattr(args, "mode", None) == "book":
        from camelpy.tools import leiserchess_book

        return leiserchess_book.main(args)
    if args.perft is not None:
        depth = int_arg(args.perft, "--perft", 0, 12)
        board = Board(args.fen, rules=args.rules) if args.fen else Board(rules=args.rules)
        began = time.monotonic()
        count = perft(board, depth)
        print(f"perft {depth} ({args.rules} rules): {count} in {time.monotonic() - began:.3f} s")
        return 0
    engine = LeiserEngine(sys.stdout, rules=args.rules, hash_mb=int_arg(args.hash, "--hash", 1, MAX_HASH_MB))
    if args.book:
        engine.book = LeiserBook.load(args.book)
    for line in sys.stdin:
        if not engine.handle(line):
            break
    engine._stop()
    return 0

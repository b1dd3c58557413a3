"""The Leiserchess protocol: camelpy's Leiserchess player as an engine speaking the course's UCI-like
protocol on standard input and output, so it can stand in for a course player (in its autotester,
say). ``camelpy leiserchess`` runs it (:mod:`camelpy.tools.games.leiserchess`, which also holds
``--perft``, ``match``, ``tune`` and ``book``); the arena drives such engines from the other side
(:mod:`camelpy.arena.leiserchess`).

The protocol (one command a line; the engine never exits on bad input, it answers ``info string …``,
and input that is not UTF-8 or a line longer than :data:`MAX_LINE_BYTES` is no exception):

* ``uci``: ``id name``, ``id author``, one ``option`` line per setting — every evaluation weight (a
  spin with its range), ``Hash`` (MiB), ``Threads``, each search setting (:data:`SETTING_OPTIONS`:
  ``Threats``, ``Aspiration``, ``LateMoves``; candidate search changes, each at the game's default:
  ``LateMoves`` 32, the others 0), ``GameMoves`` (own moves a game is assumed to last,
  :func:`time_for_move`), ``Rules`` (2016 or 2018), ``Book`` — then ``uciok``.
* ``isready``: ``readyok``, at once, even while a search or a perft runs.
* ``setoption name NAME value V``: a weight, ``Hash``, ``Threads`` (LazySMP), a search setting, ``Rules``
  (the rules take effect at the next ``position``) or ``Book`` (an opening book's file,
  :mod:`camelpy.protocols.leiserchess_book`; ``none`` for none): a bad value, or a book file that cannot
  be read, is an ``info string`` and keeps the previous setting.
* ``ucinewgame`` / ``newgame``: a new game (the search forgets what it learnt).
* ``position startpos [moves M …]`` or ``position fen PLACEMENT W|B [moves M …]``: the game to play
  on; a bad FEN or move keeps the previous position.
* ``go depth N`` | ``go nodes N`` | ``go movetime MS`` | ``go time MS inc MS`` | ``go infinite``:
  searches on a worker thread, printing ``info depth … score cp|mate … nodes … time … pv …`` after
  every iteration and ``bestmove M`` (``bestmove (none)`` when the game is over) at the end;
  ``stop`` ends it early. With a book holding the position (and its move legal there), every ``go``
  but ``go infinite`` answers ``info string book move M`` and ``bestmove M`` at once.
* ``perft N``: perft from the position, on the worker thread too: ``info string perft N: COUNT (T
  ms)``, or ``info string perft N stopped after T ms``.
* ``display`` (or ``d``): the board, its FEN and the lasers; ``eval``: the evaluation by term (not
  while a search runs: the search holds the weights).
* ``stop``: stops the search or perft (a search answers its ``bestmove``); ``quit``: stops and exits.

One worker runs at a time. Every command that changes what it uses — ``position``, ``go``,
``setoption``, ``ucinewgame``, ``perft``, ``quit`` — first stops it (a search answers ``bestmove``, a
perft says it stopped, both within milliseconds) and says so in an ``info string``; a command refused
for bad input changes nothing and stops nothing. So a client that forgets ``stop`` after ``go
infinite`` still gets every answer, and ``isready`` is answered whatever runs.

>>> import io
>>> out = io.StringIO()
>>> engine = LeiserEngine(out)
>>> script = ["position startpos moves f4f5", "perft 1", "wait", "go depth 2", "wait"]
>>> [engine.handle(line) for line in script]
[True, True, True, True, True]
>>> print(out.getvalue().splitlines()[0])
info string perft 1: 78 (... ms)
>>> out.getvalue().splitlines()[-1].startswith("bestmove ")
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import NamedTuple, Protocol, TextIO

import camelpy
from camelpy import _core, timeman
from camelpy._args import brief, int_arg
from camelpy._quote import quote
from camelpy.games import SEARCH_SETTINGS
from camelpy.leiserchess import (
    DEFAULT_HASH_MB,
    DEFAULT_WEIGHTS,
    MAX_HASH_MB,
    RULES,
    WEIGHT_LIMITS,
    WEIGHT_NAMES,
    Board,
    Searcher,
    SearchInfo,
    evaluate,
    perft,
)
from camelpy.protocols.leiserchess_book import LeiserBook
from camelpy.protocols.uci.options import Option, OptionTable

__all__ = [
    "MAX_HASH_MB",
    "MAX_PERFT_DEPTH",
    "MIN_DEPTH",
    "LeiserEngine",
    "LineSource",
    "option_table",
    "time_for_move",
]

MAX_THREADS = _core.MAX_THREADS
"""The most threads the ``Threads`` option accepts (the search's own bound)."""
SETTING_OPTIONS = {"".join(part.capitalize() for part in name.split("_")): name for name in SEARCH_SETTINGS}
"""The option of each search setting (:data:`camelpy.games.SEARCH_SETTINGS`), its name in CamelCase:
``Threats``, ``Aspiration``, ``LateMoves``."""
GAME_MOVES = 50
"""Own moves a game is assumed to last, over which the clock is spread (what is left of them): about 100
plies, the issue's figure for games against the course's reference player; self-play at 30,000 nodes a
move lasted 74 plies on average, a quarter of the games over 85 (24 games, 2 random plies)."""
MAX_GAME_MOVES = 500
"""The largest ``GameMoves`` option: a game of 1,000 plies, five times self-play's longest."""
MIN_MOVES_LEFT = 20
"""Fewest own moves still to play assumed: a game past :data:`GAME_MOVES` - 20 moves may go on for long
(self-play's longest: 196 plies), so each move then takes a twentieth of the clock and the increments
pay for the moves after."""
MIN_DEPTH = 5
"""Iterations to this depth start whatever the soft budget says (the hard budget still ends them): the
shallowest depth that walked into no king hit on 163 self-play positions not already lost (its move
lost to a hit a depth-6 search found after it at 9 positions at depth 2, 3 at depth 3, 1 at depth 4, none
at 5 or 6): issue 40's lost game (after ``e1U b4c4 h4h5 e5U h5R``, ``a7L`` at depth 3 walks into
``h5g6`` then ``g6h7``) needs depth 4, a hit three moves away depth 5."""
USE_OVER_SOFT = 1.8
"""How far past its soft budget a search ends on average, so the soft budget is the move's share divided
by it: the search ends at the first iteration to finish after the soft budget, and an iteration costs
about twice the ones before it (measured at 10 s + 0.1 s on seven positions: the time used was 1.72 times
the soft budget at the median, 1.80 on average, the hard cap never reached)."""
SAFETY_MS = 50
"""Milliseconds kept back from the clock (or a ``movetime``) for the process and the pipe, each move
(:func:`camelpy.timeman.budget`'s ``overhead_ms``)."""
MAX_PERFT_DEPTH = 12
"""The deepest ``perft`` accepted (depth 12 takes days; ``stop`` ends any count within milliseconds)."""
MAX_GO_DEPTH = 2**31 - 1
"""The deepest ``go depth`` accepted: the search's own bound."""
MAX_CLOCK_MS = 365 * 24 * 3600 * 1000
"""The longest ``movetime``, ``time`` or ``inc`` accepted (a year, the search's own bound on time)."""
MAX_LINE_BYTES = 1 << 20
"""Longest input line read as a command (1 MiB, as the chess engine's): a game of thousands of moves
fits many times over; a longer line is skipped in pieces and reported, so memory stays bounded."""
READ_CHUNK_BYTES = 1 << 16
"""Piece size in which an over-long line is skipped."""
STOP_POLL = 0.05
"""Seconds between the stop signals sent to a worker until it has ended (a search polls its flag every
few hundred nodes, a perft every few milliseconds)."""


def time_for_move(
    remaining_ms: int, increment_ms: int, moves_played: int = 0, game_moves: int = GAME_MOVES
) -> timeman.Budget:
    """The budget for a move with *remaining_ms* on the clock, *increment_ms* a move and *moves_played*
    of the mover's own moves behind it. The move's share is chess's (:func:`camelpy.timeman.budget`: an
    even share of the usable clock over the moves still to play plus most of the increment, with
    :data:`SAFETY_MS` a move and a latency floor kept back) over a game of *game_moves* own moves
    (:data:`GAME_MOVES` unless the ``GameMoves`` option says otherwise), at
    least :data:`MIN_MOVES_LEFT` still to play; the soft budget is that share over :data:`USE_OVER_SOFT`
    (so that the time used is the share), the hard cap chess's (a multiple of the share, below half the
    usable clock). The search starts no iteration after ``soft_ms`` beyond :data:`MIN_DEPTH` and stops at
    ``hard_ms``.

    >>> time_for_move(10_000, 100)  # the first move at 10 s + 0.1 s: about 0.27 s used, at most 0.93 s
    Budget(soft_ms=147, hard_ms=930)
    >>> time_for_move(10_000, 100, moves_played=40)  # late: the same clock spread over 20 moves
    Budget(soft_ms=307, hard_ms=1932)
    >>> time_for_move(400, 100)  # under the reserve: at once, the increment refills the clock
    Budget(soft_ms=1, hard_ms=1)
    >>> time_for_move(10_000, 100, game_moves=30)  # a shorter game assumed: more a move
    Budget(soft_ms=218, hard_ms=1376)
    """
    moves_left = max(MIN_MOVES_LEFT, game_moves - max(0, moves_played))
    share = timeman.budget(remaining_ms, increment_ms, overhead_ms=SAFETY_MS, horizon=moves_left)
    assert share is not None  # a clock was given
    return timeman.Budget(max(1, round(share.soft_ms / USE_OVER_SOFT)), share.hard_ms)


def option_table() -> OptionTable:
    """The protocol's options, with the UCI engine's declarations and parsing
    (:mod:`camelpy.protocols.uci.options`): the evaluation's weights, then the engine's settings.

    >>> table = option_table()
    >>> table.option("gamemoves").declaration()
    'option name GameMoves type spin default 50 min 20 max 500'
    >>> table.set("Threats", "4")
    Traceback (most recent call last):
    ...
    camelpy.protocols.uci.options.OptionError: option 'Threats' takes an integer from 0 to 3, got '4'
    """
    weights = [Option.spin(name, DEFAULT_WEIGHTS[name], *WEIGHT_LIMITS[name]) for name in WEIGHT_NAMES]
    return OptionTable(
        [
            *weights,
            Option.spin("Hash", DEFAULT_HASH_MB, 1, MAX_HASH_MB),
            Option.spin("Threads", 1, 1, MAX_THREADS),
            *(
                Option.spin(option, Searcher.DEFAULT_SETTINGS[name], 0, SEARCH_SETTINGS[name])
                for option, name in SETTING_OPTIONS.items()
            ),
            Option.spin("GameMoves", GAME_MOVES, MIN_MOVES_LEFT, MAX_GAME_MOVES),
            Option("Rules", "combo", str(RULES[0]), choices=tuple(str(year) for year in RULES)),
            Option.string("Book", "none"),
        ]
    )


class LineSource(Protocol):
    """What :meth:`LeiserEngine.run` reads from: a binary stream's ``readline(size)``."""

    def readline(self, size: int = -1, /) -> bytes:
        """The next line, at most *size* bytes of it (all of it when *size* is negative)."""
        ...


class LeiserEngine:
    """The protocol's state: the game, the rules, the searcher and the worker (a search or a perft),
    writing to *out*. :meth:`handle` takes one line; :meth:`run` reads lines from a stream."""

    def __init__(self, out: TextIO, *, rules: int = 2016, hash_mb: int = DEFAULT_HASH_MB) -> None:
        self.out = out
        self.rules = rules
        self.searcher = Searcher(hash_mb)
        self.board = Board(rules=rules)
        self.book: LeiserBook | None = None
        self.game_moves = GAME_MOVES
        """Own moves a game is assumed to last (the ``GameMoves`` option; :func:`time_for_move`)."""
        self.options = option_table()
        """The options ``uci`` declares and ``setoption`` parses (names in any case)."""
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._halt = threading.Event()
        """Set to stop the worker: the perft's ``stop``; a search is stopped through the searcher."""
        self._worker_searcher: Searcher | None = None
        """The searcher the worker searches with (``None`` for a perft)."""
        self._infinite = False
        """Whether the worker is a ``go infinite`` (only ``stop`` or another command ends it)."""

    def say(self, line: str) -> None:
        """Writes one line (whole, even from the worker thread); a closed output is not an error."""
        with self._lock:
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the client has gone (a broken pipe, a closed file)
                pass

    def run(self, stream: LineSource) -> int:
        """Reads and runs commands from *stream* until ``quit`` or end of input; returns the exit status.

        Lines are read as bytes, at most :data:`MAX_LINE_BYTES` each, and decoded as UTF-8 with
        undecodable bytes replaced, so no input can raise; a longer line is skipped and reported.
        """
        try:
            while True:
                raw = stream.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    break
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    skipped = len(raw)
                    while raw and not raw.endswith(b"\n"):
                        raw = stream.readline(READ_CHUNK_BYTES)
                        skipped += len(raw)
                    self.say(
                        f"info string input line of {skipped} bytes ignored (longer than {MAX_LINE_BYTES})"
                    )
                    continue
                if not self.handle(raw.decode("utf-8", errors="replace")):
                    return 0
        except KeyboardInterrupt:
            pass
        self.handle("quit")
        return 0

    def handle(self, line: str) -> bool:
        """Runs one command; ``False`` after ``quit``. Never raises for bad input: it answers
        ``info string COMMAND: WHY``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                self._stop()
                return False
            handler = getattr(self, f"_cmd_{command}", None) if command.isidentifier() else None
            if handler is None:
                self.say(f"info string unknown command {quote(line.strip())}")
            else:
                handler(args)
        except Exception as err:  # noqa: BLE001 - bad input (or a full memory) never ends the loop
            self.say(f"info string {command}: {brief(err)}")
        return True

    # ---- commands ------------------------------------------------------------------------------

    def _cmd_uci(self, _: list[str]) -> None:
        self.say(f"id name camelpy-leiserchess {camelpy.__version__}")
        self.say("id author the camelpy developers")
        for option in self.options:
            self.say(option.declaration())
        self.say("uciok")

    def _cmd_isready(self, _: list[str]) -> None:
        self.say("readyok")

    def _cmd_setoption(self, args: list[str]) -> None:
        if len(args) < 4 or args[0] != "name" or "value" not in args:
            raise ValueError("expected 'setoption name NAME value VALUE'")
        at = args.index("value")
        name, value = self.options.set(" ".join(args[1:at]), " ".join(args[at + 1 :]))
        self._interrupt("setoption")
        if name == "Book":
            text = str(value)
            self.book = None if text.lower() in ("", "none") else LeiserBook.load(text)
            return
        number = value if isinstance(value, int) else int(str(value))  # a spin, or the Rules' year
        if name == "Hash":
            old = self.searcher
            self.searcher = Searcher(number, weights=old.weights, threads=old.threads)
            self.searcher.settings = old.settings
        elif name == "Threads":
            self.searcher.threads = number
        elif name in SETTING_OPTIONS:
            self.searcher.settings = {SETTING_OPTIONS[name]: number}
        elif name == "GameMoves":
            self.game_moves = number
        elif name == "Rules":
            self.rules = number
        else:
            self.searcher.weights = {name: number}

    def _cmd_ucinewgame(self, _: list[str]) -> None:
        self._interrupt("ucinewgame")
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
            raise ValueError(f"expected 'startpos' or 'fen', got {quote(args[0])}")
        for move in args[moves_at + 1 :]:
            board.push(move)
        self._interrupt("position")
        self.board = board

    def _cmd_go(self, args: list[str]) -> None:
        options = dict(zip(args[::2], args[1::2]))
        depth = nodes = min_depth = None
        seconds: float | None = None
        soft: float | None = None
        if "depth" in options:
            depth = int_arg(_integer(options["depth"], "depth"), "depth", 1, MAX_GO_DEPTH)
        if "nodes" in options:
            nodes = int_arg(_integer(options["nodes"], "nodes"), "nodes", 1)
        if "movetime" in options:
            movetime = int_arg(_integer(options["movetime"], "movetime"), "movetime", 0, MAX_CLOCK_MS)
            seconds = max(movetime - SAFETY_MS, 1) / 1000.0
        elif "time" in options:
            remaining = int_arg(_integer(options["time"], "time"), "time", 0, MAX_CLOCK_MS)
            increment = int_arg(_integer(options.get("inc", "0"), "inc"), "inc", 0, MAX_CLOCK_MS)
            limits = time_for_move(remaining, increment, len(self.board.move_stack) // 2, self.game_moves)
            seconds, soft, min_depth = limits.hard_ms / 1000.0, limits.soft_ms / 1000.0, MIN_DEPTH
        infinite = depth is None and nodes is None and seconds is None
        if infinite and "infinite" not in args:
            raise ValueError("expected a limit: depth N, nodes N, movetime MS, time MS [inc MS] or infinite")
        self._interrupt("go")
        booked = None if self.book is None or infinite else self.book.probe(self.board)
        if booked is not None:
            self.say(f"info string book move {booked}")
            self.say(f"bestmove {booked}")
            return
        clock = _Clock(seconds, soft, min_depth)
        self._start(self._search, self.searcher, self.board.copy(), depth, nodes, clock)
        self._worker_searcher = self.searcher
        self._infinite = infinite

    def _cmd_stop(self, _: list[str]) -> None:
        self._stop()

    def _cmd_wait(self, _: list[str]) -> None:
        """Waits for the worker to finish (for scripts and tests; not part of the course's protocol);
        refused for ``go infinite``, which only ``stop`` ends."""
        if self._infinite and self._running():
            raise ValueError("the search is infinite: send stop")
        self._join()

    def _cmd_perft(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ValueError("expected 'perft DEPTH'")
        depth = int_arg(_integer(args[0], "depth"), "depth", 0, MAX_PERFT_DEPTH)
        self._interrupt("perft")
        self._start(self._perft, self.board.copy(), depth)

    def _cmd_display(self, _: list[str]) -> None:
        for line in str(self.board).splitlines():
            self.say(f"info string {line}")
        self.say(f"info string fen {self.board.fen()} rules {self.rules}")
        for side, name in ((True, "Tangerine"), (False, "Lavender")):
            laser = self.board.laser(side)
            self.say(f"info string {name} laser: {' '.join(laser.squares)} ({laser.end})")

    _cmd_d = _cmd_display

    def _cmd_eval(self, _: list[str]) -> None:
        if self._worker_searcher is self.searcher and self._running():
            raise ValueError("not while searching (send stop first)")  # the search holds the weights
        evaluation = evaluate(self.board, self.searcher.weights)
        terms = " ".join(f"{name} {value}" for name, value in evaluation.features.items())
        self.say(f"info string eval {evaluation.value} (side to move); features {terms}")

    # ---- the worker ----------------------------------------------------------------------------

    def _search(
        self, searcher: Searcher, board: Board, depth: int | None, nodes: int | None, clock: _Clock
    ) -> None:
        def report(info: SearchInfo) -> None:
            score = f"mate {info.win_in}" if info.win_in is not None else f"cp {info.score}"
            ms = int(info.time * 1000)
            nps = int(info.nodes / info.time) if info.time > 0 else 0
            pv = " ".join(str(m) for m in info.pv)
            self.say(f"info depth {info.depth} score {score} nodes {info.nodes} time {ms} nps {nps} pv {pv}")

        move: object = None
        try:
            move = searcher.search(
                board,
                depth=depth,
                nodes=nodes,
                time=clock.time,
                soft_time=clock.soft_time,
                min_depth=clock.min_depth,
                on_iteration=report,
            ).move
        except Exception as err:  # noqa: BLE001 - the engine never dies: say it, and answer with a move
            self.say(f"info string search failed: {brief(err)}")
        if move is None and board.outcome() is None and board.legal_moves:
            move = board.legal_moves[0]  # stopped before its first iteration: any legal move
        self.say(f"bestmove {move if move is not None else '(none)'}")

    def _perft(self, board: Board, depth: int) -> None:
        began = time.monotonic()
        try:
            count = perft(board, depth, stop=self._halt)
        except Exception as err:  # noqa: BLE001 - stopped ("perft was stopped"), or anything else
            ms = int((time.monotonic() - began) * 1000)
            stopped = self._halt.is_set()
            self.say(
                f"info string perft {depth} "
                + (f"stopped after {ms} ms" if stopped else f"failed: {brief(err)}")
            )
            return
        ms = int((time.monotonic() - began) * 1000)
        self.say(f"info string perft {depth}: {count} ({ms} ms)")

    def _start(self, target: Callable[..., None], *args: object) -> None:
        """Runs *target* on a new worker thread (none runs: :meth:`_interrupt` came first)."""
        self._halt = threading.Event()
        self._worker_searcher = None
        self._infinite = False
        self._thread = threading.Thread(target=target, args=args, name="leiserchess-worker", daemon=True)
        self._thread.start()

    def _running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _interrupt(self, command: str) -> None:
        """Stops the worker, if one runs, before *command* changes what it uses; says so."""
        if self._running():
            what = "perft" if self._worker_searcher is None else "search"
            self.say(f"info string {command} received during a {what}: it is stopped first")
        self._stop()

    def _stop(self) -> None:
        """Stops the worker and waits for it (a search answers ``bestmove``, a perft says it stopped)."""
        thread = self._thread
        if thread is None:
            return
        self._halt.set()
        while thread.is_alive():
            if self._worker_searcher is not None:
                # Again at every poll: a search that had not begun yet clears the flag as it begins.
                self._worker_searcher.stop()
            thread.join(STOP_POLL)
        self._thread = None

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class _Clock(NamedTuple):
    """A search's time limits (:meth:`Searcher.search`'s): hard, soft, and the depth below which the
    soft one does not stop it."""

    time: float | None
    soft_time: float | None
    min_depth: int | None


def _integer(text: str, name: str) -> int:
    """*text* as an integer, or a :exc:`ValueError` naming *name* and quoting *text*."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {quote(text)}") from None

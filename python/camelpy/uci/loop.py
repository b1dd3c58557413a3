"""The UCI loop: reads commands on the main thread, searches on a worker thread.

Threads and state
-----------------
The main thread only reads stdin and answers; a ``go`` starts a :class:`_Search` on a worker thread,
which calls the core (the GIL is released while it searches) and prints ``info`` lines from the core's
callback. So ``isready`` is answered at once even mid-search, and ``stop``/``quit`` act within a few
milliseconds (the core polls its stop flag every few hundred nodes).

Each ``go`` produces exactly one ``bestmove``, printed by its worker under a lock that also marks the
search finished. Commands that arrive while a search runs:

* ``go``: an ``info string`` says so; the running search is stopped and answered, then the new one starts.
* ``position``: accepted; it only sets what the *next* ``go`` searches.
* ``setoption``, ``ucinewgame``: queued (``info string`` says so) and applied, in order, as soon as the
  search has answered ``bestmove`` (resizing the hash table mid-search would have to wait for it anyway).
* ``stop``: stops the search, waits for its ``bestmove`` (about a millisecond), then goes on.
* ``ponderhit``: turns a ``go ponder`` search into a timed one (see :meth:`UciEngine._ponderhit`).
* ``quit`` and end of input: stop, answer, exit.

Bad input never ends the loop: anything malformed is reported with ``info string`` and otherwise ignored;
a ``position`` command with a bad FEN or an illegal move is rejected as a whole and the previous position
stays. (Stockfish, since 2026, exits on an invalid ``position``; camelpy deliberately keeps running.)
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import chess
import chess.polyglot

from camelpy import _core, timeman
from camelpy._quote import quote
from camelpy.book import Book, InvalidBookError
from camelpy.tools.bench import bench_lines, parse_depth
from camelpy.uci import commands
from camelpy.uci.commands import CommandError, Go, parse_go, parse_position, parse_setoption, split_command
from camelpy.uci.format import currmove_line, info_line
from camelpy.uci.options import Option, OptionError, OptionTable, Value

__all__ = ["ENGINE_AUTHOR", "ENGINE_NAME", "LineSource", "UciEngine"]

ENGINE_NAME = f"camelpy {_core.__version__}"
ENGINE_AUTHOR = "the camelpy developers"

MAX_LINE_BYTES = 1 << 20
"""Longest input line read as a command (1 MiB): the longest legal game (~17,700 plies at 5-6 bytes per
move) fits many times over; anything longer is skipped in pieces and reported, so memory stays bounded."""

READ_CHUNK_BYTES = 1 << 16
"""Piece size in which an over-long line is skipped."""

MAX_HASH_MB = 1 << 20
"""Largest Hash the core accepts (MiB)."""

MAX_THREADS = 256
"""Largest Threads the core accepts."""

MAX_MULTIPV = 256
"""Largest MultiPV (more than any position's number of legal moves)."""

MAX_MOVE_OVERHEAD_MS = 5000
"""Largest Move Overhead (as Stockfish)."""

DEFAULT_MOVE_OVERHEAD_MS = 10
"""Default Move Overhead (as Stockfish): time lost per move between GUI and engine, in ms."""

MAX_BOOK_SEED = 2**31 - 1
"""Largest BookSeed."""

STOP_POLL_S = 0.002
"""How often ``stop`` re-asserts the core's stop flag while waiting for the worker (covers a stop that
arrives before the core has started and reset its flag)."""

MAX_PERFT_DEPTH = 30
"""Deepest ``go perft`` accepted (anything deeper could not finish anyway)."""

_WHITESPACE_CONTROL = str.maketrans({"\r": "\n"})


class LineSource(Protocol):
    """What :meth:`UciEngine.run` reads from: a binary stream's ``readline(size)``."""

    def readline(self, size: int = -1, /) -> bytes: ...


def _default_options(params: list[tuple[str, int, int, int]]) -> list[Option]:
    options = [
        Option.spin("Hash", 16, 1, MAX_HASH_MB),
        Option.spin("Threads", 1, 1, MAX_THREADS),
        Option.button("Clear Hash"),
        Option.check("Ponder", False),
        Option.spin("MultiPV", 1, 1, MAX_MULTIPV),
        Option.spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS, 0, MAX_MOVE_OVERHEAD_MS),
        Option.check("UCI_Chess960", False),
        Option.check("UCI_ShowWDL", False),
        Option.string("SyzygyPath", ""),
        Option.check("OwnBook", False),
        Option.string("BookFile", ""),
        Option.spin("BookSeed", 0, 0, MAX_BOOK_SEED),
    ]
    taken = {o.name.lower() for o in options}
    options += [
        Option.spin(name, value, lo, hi) for name, value, lo, hi in params if name.lower() not in taken
    ]
    return options


@dataclasses.dataclass
class _State:
    """The position set by the last accepted ``position`` command."""

    fen: str = chess.STARTING_FEN
    moves: list[str] = dataclasses.field(default_factory=list)
    chess960: bool = False
    position: _core.Position = dataclasses.field(default_factory=_core.Position)

    def game_ply(self) -> int:
        return (self.position.fullmove_number - 1) * 2 + (0 if self.position.turn else 1)


class _Search:
    """One running ``go``: the worker thread and what it needs to finish with exactly one ``bestmove``."""

    def __init__(self, go: Go, state: _State, received: float, wait_for_stop: bool) -> None:
        self.go = go
        self.state = state
        self.received = received
        """``time.monotonic()`` when the ``go`` line was read: budgets count from here."""
        self.wait_for_stop = wait_for_stop
        """``go infinite`` / ``go ponder``: hold ``bestmove`` until ``stop`` or ``ponderhit``."""
        self.released = threading.Event()
        self.stop_requested = threading.Event()
        self.done = False
        self.manager: timeman.TimeManager | None = None
        self.manager_start = received
        self.one_reply = False
        """Only one legal move: stop after the first iteration of a timed search."""
        self.timer: threading.Timer | None = None
        self.thread: threading.Thread | None = None
        self.last_had_score = False
        self.stopping = False
        """The time manager has stopped the core (later reports are only printed)."""


class UciEngine:
    """The UCI protocol over a :class:`camelpy._core.Engine`.

    :meth:`handle` runs one input line and returns ``False`` once the engine should exit; :meth:`run`
    reads lines from a binary stream until ``quit`` or end of input. Output goes to *write* (one line per
    call, without the newline).

    >>> lines = []
    >>> uci = UciEngine(lines.append)
    >>> uci.handle("isready"), lines
    (True, ['readyok'])
    >>> uci.handle("position startpos moves e2e4 e7e5 e1e3")
    True
    >>> lines[-1]
    "info string position rejected: move 3 'e1e3': illegal uci: 'e1e3' in \
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    >>> uci.handle("go depth 3") and uci.wait() is None
    True
    >>> lines[-1].startswith("bestmove ")
    True
    >>> uci.handle("quit")
    False
    """

    def __init__(self, write: Callable[[str], object]) -> None:
        self._write = write
        self._out_lock = threading.Lock()
        self._engine = _core.Engine(16, 1)
        params = self._engine.params()
        self._param_names = {name for name, *_ in params}
        self._options = OptionTable(_default_options(params))
        self._state = _State()
        self._search: _Search | None = None
        self._search_lock = threading.Lock()
        self._pending: list[tuple[str, str | None] | None] = []
        """Commands deferred during a search: ``(option name, value text)``, or ``None`` for ucinewgame."""
        self._debug = False
        self._book: Book | None = None
        self._book_path: str | None = None
        """The BookFile that ``_book`` was opened from (``_book`` is None if that failed)."""
        self._quitting = False

    def has_option(self, name: str) -> bool:
        """Whether an option called *name* (any case) exists."""
        return name in self._options

    # Output -----------------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Writes one line (thread-safe)."""
        with self._out_lock:
            self._write(line)

    def info(self, text: str) -> None:
        """Sends ``info string <text>``."""
        self.send(f"info string {text}")

    # Input ------------------------------------------------------------------------------------------

    def run(self, stream: LineSource) -> int:
        """Reads and runs commands from *stream* until ``quit`` or end of input; returns the exit status.

        Lines are read as bytes, at most ``MAX_LINE_BYTES`` each, and decoded as UTF-8 with undecodable
        bytes replaced, so no input can raise. LF, CRLF and a lone CR all end a command.
        """
        try:
            while not self._quitting:
                raw = stream.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    break
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    skipped = len(raw) + self._skip_line(stream)
                    self.info(f"input line of {skipped} bytes ignored (longer than {MAX_LINE_BYTES} bytes)")
                    continue
                text = raw.decode("utf-8", errors="replace").translate(_WHITESPACE_CONTROL)
                for line in text.split("\n"):
                    if not self.handle(line):
                        return 0
        except KeyboardInterrupt:
            pass
        self.handle("quit")
        return 0

    @staticmethod
    def _skip_line(stream: LineSource) -> int:
        skipped = 0
        while True:
            chunk = stream.readline(READ_CHUNK_BYTES)
            skipped += len(chunk)
            if not chunk or chunk.endswith(b"\n"):
                return skipped

    def handle(self, line: str) -> bool:
        """Runs one command line; returns ``False`` when the engine should exit (``quit``)."""
        received = time.monotonic()
        self._sync()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            return True
        found = split_command(stripped)
        if found is None:
            self.info(f"unknown command: {quote(stripped)}")
            return True
        command, args = found
        try:
            return self._dispatch(command, args, received)
        except Exception as err:  # noqa: BLE001 - bad input must never end the loop
            self.info(f"{command} failed: {type(err).__name__}: {quote(str(err))}")
            return True

    def _dispatch(self, command: str, args: str, received: float) -> bool:
        if command == "quit":
            self._stop_search()
            self._quitting = True
            self._close_book()
            return False
        if command == "isready":
            self.send("readyok")
        elif command == "uci":
            self._uci()
        elif command == "debug":
            self._set_debug(args)
        elif command == "setoption":
            self._setoption(args)
        elif command == "ucinewgame":
            if self._searching():
                self._defer(None)
            else:
                self._engine.new_game()
        elif command == "position":
            self._position(args)
        elif command == "go":
            self._go(args, received)
        elif command == "stop":
            self._stop_search()
        elif command == "ponderhit":
            self._ponderhit()
        elif command == "bench":
            self._bench(args)
        elif command == "d":
            self._display()
        elif command == "eval":
            self._eval()
        elif command == "help":
            self.info("commands: " + " ".join(commands.COMMANDS) + "; see the camelpy README")
        # "register" is obsolete: ignored.
        return True

    # Commands ---------------------------------------------------------------------------------------

    def _uci(self) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        for option in self._options:
            self.send(option.declaration())
        self.send("uciok")

    def _set_debug(self, args: str) -> None:
        words = args.split()
        if words and words[0] in ("on", "off"):
            self._debug = words[0] == "on"
        else:
            self.info(f"debug: expected 'on' or 'off', got {quote(args) if args else 'nothing'}")

    def _setoption(self, args: str) -> None:
        try:
            name, text = parse_setoption(args)
        except CommandError as err:
            self.info(str(err))
            return
        if self._searching():
            self._defer((name, text))
            return
        self._apply_option(name, text)

    def _apply_option(self, name: str, text: str | None) -> None:
        try:
            option = self._options.option(name)
            value = option.parse(text)
            self._option_effect(option.name, value)
            self._options.set(name, text)
        except OptionError as err:
            self.info(str(err))
        except (ValueError, MemoryError, OverflowError) as err:
            self.info(f"option {quote(name)} not changed: {quote(str(err))}")

    def _option_effect(self, name: str, value: Value) -> None:
        """What setting an option does beyond storing it; raises ``ValueError`` to refuse the value."""
        if name == "Hash":
            assert isinstance(value, int)
            _check_memory(value)
            self._engine.resize(value)
        elif name == "Threads":
            assert isinstance(value, int)
            self._engine.set_threads(value)
        elif name == "Clear Hash":
            self._engine.clear_hash()
        elif name == "SyzygyPath":
            if value:
                self.info("SyzygyPath noted, but tablebase probing is not implemented yet")
        elif name in ("BookFile", "BookSeed", "OwnBook"):
            self._close_book()  # reopened with the new settings when next needed
        elif name in self._param_names:
            assert isinstance(value, int)
            self._engine.set_param(name, value)

    def _defer(self, setting: tuple[str, str | None] | None) -> None:
        what = "ucinewgame" if setting is None else f"setoption {quote(setting[0])}"
        self.info(f"{what} received during a search: applied once the search has answered bestmove")
        self._pending.append(setting)

    def _position(self, args: str) -> None:
        try:
            command = parse_position(args)
        except CommandError as err:
            self.info(f"position rejected: {err}")
            return
        chess960 = bool(self._options["UCI_Chess960"])
        fen = command.fen if command.fen is not None else chess.STARTING_FEN
        try:
            position = _core.Position(fen, chess960)
        except ValueError as err:
            self.info(f"position rejected: {quote(str(err)) if len(str(err)) > 200 else err}")
            return
        for number, move in enumerate(command.moves, start=1):
            try:
                position.push(move)
            except ValueError as err:
                message = str(err)
                if len(message) > 200:
                    message = quote(message)
                self.info(f"position rejected: move {number} {quote(move)}: {message}")
                return
        self._state = _State(fen, list(command.moves), chess960, position)

    def _go(self, args: str, received: float) -> None:
        go, problems = parse_go(args)
        for problem in problems:
            self.info(problem)
        if self._searching():
            self.info("go received during a search: the running search is stopped and answered first")
            self._stop_search()
        state = self._state
        if go.perft is not None:
            self._perft(state, go.perft)
            return
        legal = state.position.legal_moves()
        searchmoves = self._checked_searchmoves(state, go.searchmoves, {m.uci() for m in legal})
        go.searchmoves = searchmoves
        if not go.ponder and not go.infinite:
            book_move = self._book_move(state, searchmoves)
            if book_move is not None:
                self.info(f"book move {book_move}")
                self.send(f"bestmove {book_move}")
                return
        search = _Search(go, state, received, wait_for_stop=go.infinite or go.ponder)
        if not go.ponder:
            self._start_clock(search, received)
        roots = len(searchmoves) if searchmoves else len(legal)
        search.one_reply = roots == 1 and search.manager is not None
        thread = threading.Thread(target=self._run_search, args=(search,), name="camelpy-search", daemon=True)
        search.thread = thread
        with self._search_lock:
            self._search = search
        thread.start()

    def _checked_searchmoves(self, state: _State, moves: list[str], legal: set[str]) -> list[str]:
        kept: list[str] = []
        for move in moves:
            uci = self._canonical_move(state, move)
            if uci in legal:
                kept.append(uci)
            else:
                self.info(f"go: searchmoves {quote(move)} is not a legal move here, ignored")
        if moves and not kept:
            self.info("go: no legal move left in searchmoves; searching all moves")
        return kept

    @staticmethod
    def _canonical_move(state: _State, move: str) -> str:
        try:
            probe = state.position.copy()
            probe.push(move)
            return probe.move_stack[-1].uci() if not state.chess960 else move
        except ValueError:
            return move

    def _start_clock(self, search: _Search, start: float) -> None:
        """Sets the time budget of a timed search, counted from *start*."""
        go = search.go
        white = search.state.position.turn
        own_time, own_inc = (go.wtime, go.winc) if white else (go.btime, go.binc)
        if own_time is None and (go.wtime is not None or go.btime is not None):
            other = go.btime if white else go.wtime
            self.info("go: no clock for the side to move; using the other side's clock")
            own_time, own_inc = other, (go.binc if white else go.winc)
        overhead = self._options["Move Overhead"]
        assert isinstance(overhead, int)
        limits = timeman.budget(
            own_time, own_inc or 0, go.movestogo, overhead_ms=overhead, movetime_ms=go.movetime
        )
        if limits is None:
            return
        search.manager = timeman.TimeManager(limits, dynamic=go.movetime is None)
        search.manager_start = start
        if self._debug:
            self.info(f"time budget: soft {limits.soft_ms} ms, hard {limits.hard_ms} ms")

    def _run_search(self, search: _Search) -> None:
        state, go = search.state, search.go
        result: dict[str, Any] | None = None
        kwargs: dict[str, Any] = {}
        manager = search.manager
        if manager is not None:
            elapsed = (time.monotonic() - search.received) * 1000
            kwargs["soft_ms"] = max(1, int(manager.outer_soft_ms - elapsed))
            kwargs["hard_ms"] = max(1, int(manager.budget.hard_ms - elapsed))
        multipv = self._options["MultiPV"]
        assert isinstance(multipv, int)
        try:
            result = self._engine.search(
                state.fen,
                state.moves,
                state.chess960,
                depth=go.depth,
                nodes=go.nodes,
                mate=go.mate,
                searchmoves=go.searchmoves,
                multipv=multipv,
                info=lambda report: self._on_report(search, report),
                **kwargs,
            )
        except Exception as err:  # noqa: BLE001 - report, still answer bestmove
            self.info(f"search failed: {type(err).__name__}: {quote(str(err))}")
        if search.wait_for_stop:
            search.released.wait()
        self._finish(search, result)

    def _on_report(self, search: _Search, report: dict[str, Any]) -> None:
        if search.stop_requested.is_set():
            self._engine.stop()
        if "currmove" in report:
            self.send(currmove_line(report))
            search.last_had_score = False
            return
        show_wdl = bool(self._options["UCI_ShowWDL"])
        self.send(info_line(report, wdl_ply=search.state.game_ply() if show_wdl else None))
        search.last_had_score = True
        manager = search.manager
        if manager is None or search.stopping or report.get("multipv", 1) != 1:
            return
        if report.get("bound", "exact") != "exact":
            return
        if not report["pv"]:
            return
        elapsed = (time.monotonic() - search.manager_start) * 1000
        kind, value = report["score"]
        stop = manager.update(report["depth"], report["pv"][0], value if kind == "cp" else None, elapsed)
        if stop or search.one_reply:
            if self._debug:
                self.info(f"time manager stops at {elapsed:.0f} ms (soft x {manager.factor:.2f})")
            search.stopping = True
            self._engine.stop()

    def _finish(self, search: _Search, result: dict[str, Any] | None) -> None:
        with self._search_lock:
            if search.timer is not None:
                search.timer.cancel()
            best = result.get("best_move") if result else None
            if result is not None and (not search.last_had_score or best is None):
                lines = result.get("lines") or [result]
                show_wdl = bool(self._options["UCI_ShowWDL"])
                for line in lines:
                    self.send(info_line(line, wdl_ply=search.state.game_ply() if show_wdl else None))
            if best is None:
                legal = search.state.position.legal_moves()
                if legal:  # the search failed: any legal move beats no answer
                    self.send(f"bestmove {legal[0].uci()}")
                else:
                    reason = "checkmate" if search.state.position.is_check() else "stalemate"
                    self.info(f"no legal move ({reason})")
                    self.send("bestmove 0000")
            else:
                ponder = result.get("ponder") if result else None
                self.send(f"bestmove {best}" + (f" ponder {ponder}" if ponder else ""))
            search.done = True

    def _searching(self) -> bool:
        with self._search_lock:
            return self._search is not None and not self._search.done

    def _sync(self) -> None:
        """Forgets a finished search and applies what was deferred while it ran."""
        with self._search_lock:
            search = self._search
            if search is None or not search.done:
                return
            self._search = None
        if search.thread is not None:
            search.thread.join()
        pending, self._pending = self._pending, []
        for setting in pending:
            if setting is None:
                self._engine.new_game()
            else:
                self._apply_option(*setting)

    def _stop_search(self) -> None:
        with self._search_lock:
            search = self._search
        if search is None:
            return
        search.stop_requested.set()
        search.released.set()
        thread = search.thread
        while thread is not None and thread.is_alive():
            self._engine.stop()
            thread.join(STOP_POLL_S)
        self._sync()

    def _ponderhit(self) -> None:
        """``ponderhit``: the predicted move was played, so the ponder search becomes the real one.

        The search keeps running (its tree and hash table are kept); it gets a time budget computed from
        the clocks sent with ``go ponder`` and counted from now, enforced here rather than in the core
        (which was started without deadlines): the hard budget by a timer that stops the core, the soft
        one by the time manager at each iteration. If the ponder search has already ended (a depth or
        node limit, or the maximum depth), ``bestmove`` follows at once.
        """
        with self._search_lock:
            search = self._search
            if search is None or search.done or not search.go.ponder:
                return
            search.go.ponder = False
        now = time.monotonic()
        self._start_clock(search, now)
        search.wait_for_stop = search.go.infinite
        manager = search.manager
        if manager is not None:
            search.one_reply = len(search.state.position.legal_moves()) == 1
            timer = threading.Timer(manager.budget.hard_ms / 1000, self._engine.stop)
            timer.daemon = True
            search.timer = timer
            timer.start()
        if not search.wait_for_stop:
            search.released.set()

    def _perft(self, state: _State, depth: int) -> None:
        if depth > MAX_PERFT_DEPTH:
            self.info(f"go perft: depth {depth} is too deep (at most {MAX_PERFT_DEPTH})")
            return
        counts = _core.divide(state.position.fen(shredder=state.chess960), depth, state.chess960)
        total = 0
        for move, count in counts:
            self.send(f"{move.uci()}: {count}")
            total += count
        if depth == 0:
            total = 1
        self.send("")
        self.send(f"Nodes searched: {total}")

    def _book_move(self, state: _State, searchmoves: list[str]) -> str | None:
        if not self._options["OwnBook"]:
            return None
        book = self._open_book()
        if book is None:
            return None
        board = state.position.to_board()
        board.chess960 = state.chess960
        move = book.pick(board)
        if move is None:
            return None
        uci = board.uci(move, chess960=state.chess960)
        if searchmoves and uci not in searchmoves:
            return None
        return uci

    def _open_book(self) -> Book | None:
        path = self._options["BookFile"]
        assert isinstance(path, str)
        if self._book_path == path:
            return self._book  # None if this file could not be used (already reported)
        self._close_book()
        self._book_path = path
        if not path:
            self.info("OwnBook is on but BookFile is empty: searching")
            return None
        seed = self._options["BookSeed"]
        try:
            self._book = Book(path, seed=int(seed) if seed else None)
        except InvalidBookError as err:
            self.info(f"book not used: {err}")
        return self._book

    def _close_book(self) -> None:
        if self._book is not None:
            self._book.close()
        self._book = None
        self._book_path = None

    def _bench(self, args: str) -> None:
        words = args.split()
        depth = None
        if words:
            try:
                depth = parse_depth(words[0])
            except ValueError as err:
                self.info(f"bench: {err}")
                return
        if self._searching():
            self.info("bench: not while searching")
            return
        for line in bench_lines(depth):
            self.send(line)

    def _display(self) -> None:
        state = self._state
        board = state.position.to_board()
        board.chess960 = state.chess960
        for row in str(board).splitlines():
            self.send(row)
        self.send("")
        self.send(f"Fen: {board.fen(shredder=state.chess960)}")
        self.send(f"Key: {chess.polyglot.zobrist_hash(board):016X}")
        checkers = " ".join(chess.square_name(sq) for sq in board.checkers())
        self.send(f"Checkers: {checkers}")

    def _eval(self) -> None:
        if self._searching():  # the core's evaluation waits for a running search to finish
            self.info("eval: not while searching (send stop first)")
            return
        state = self._state
        for row in self._engine.eval_trace(state.fen, state.moves, state.chess960).splitlines():
            self.send(row)

    def wait(self) -> None:
        """Waits until the running search (if any) has answered (for scripts and tests)."""
        with self._search_lock:
            search = self._search
        if search is not None and search.thread is not None:
            search.thread.join()
        self._sync()


def _check_memory(hash_mb: int) -> None:
    """Refuses a hash table larger than the machine's physical memory (allocating it would fail or
    swap the machine to a halt)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    if hash_mb * (1 << 20) > total:
        raise ValueError(f"Hash {hash_mb} MB exceeds this machine's memory ({total >> 20} MB)")

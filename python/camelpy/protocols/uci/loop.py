"""The UCI loop: reads commands on the main thread, searches on a worker thread.

Threads and state
-----------------
The main thread only reads stdin, answers and keeps the options; a ``go`` is handed to the search
session (:class:`~camelpy.protocols.uci.session.SearchSession`), which searches on a worker thread
that calls the core (the GIL is released while it searches) and prints ``info`` lines from the core's
callback. So ``isready`` is answered at once even mid-search, and ``stop``/``quit`` act within a few
milliseconds (the core polls its stop flag every few hundred nodes).

Each ``go`` produces exactly one ``bestmove``, printed by its worker under a lock that also marks the
search finished. Commands that arrive while a search runs:

* ``go``: an ``info string`` says so; the running search is stopped and answered, then the new one starts.
* ``position``: accepted; it only sets what the *next* ``go`` searches.
* ``setoption``, ``ucinewgame``: queued (``info string`` says so) and applied, in order, as soon as the
  search has answered ``bestmove`` (resizing the hash table mid-search would have to wait for it anyway).
* ``stop``: stops the search, waits for its ``bestmove`` (about a millisecond), then goes on.
* ``ponderhit``: turns a ``go ponder`` search into a timed one (see
  :meth:`~camelpy.protocols.uci.session.SearchSession.ponderhit`).
* ``quit`` and end of input: stop, answer, exit.

Bad input never ends the loop: anything malformed is reported with ``info string`` and otherwise ignored;
a ``position`` command with a bad FEN or an illegal move is rejected as a whole and the previous position
stays. (Stockfish, since 2026, exits on an invalid ``position``; camelpy deliberately keeps running.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

import chess
import chess.polyglot

from camelpy import _core, strength, timeman
from camelpy._quote import quote
from camelpy.params import SHOW_TUNING_OPTIONS, apply_params, read_params_file
from camelpy.protocols.bench import bench_lines, parse_depth
from camelpy.protocols.uci import commands
from camelpy.protocols.uci.commands import (
    CommandError,
    parse_go,
    parse_position,
    parse_setoption,
    split_command,
)
from camelpy.protocols.uci.options import Option, OptionError, OptionTable, Value
from camelpy.protocols.uci.session import SearchSession, UciPosition

__all__ = ["ENGINE_AUTHOR", "ENGINE_NAME", "LineSource", "UciEngine"]

ENGINE_NAME = f"camelpy {_core.__version__}"
"""What ``uci`` answers as ``id name``."""
ENGINE_AUTHOR = "the camelpy developers"
"""What ``uci`` answers as ``id author``."""

MAX_LINE_BYTES = 1 << 20
"""Longest input line read as a command (1 MiB): the longest legal game (~17,700 plies at 5-6 bytes per
move) fits many times over; anything longer is skipped in pieces and reported, so memory stays bounded."""

READ_CHUNK_BYTES = 1 << 16
"""Piece size in which an over-long line is skipped."""

MAX_HASH_MB = _core.MAX_HASH_MB
"""Largest Hash the core accepts (MiB)."""

MAX_THREADS = _core.MAX_THREADS
"""Largest Threads the core accepts."""

MAX_MULTIPV = _core.MAX_MULTIPV
"""Largest MultiPV (more than any position's number of legal moves)."""

MAX_MOVE_OVERHEAD_MS = 5000
"""Largest Move Overhead (as Stockfish)."""

DEFAULT_MOVE_OVERHEAD_MS = 10
"""Default Move Overhead (as Stockfish): time lost per move between GUI and engine, in ms."""

MAX_BOOK_SEED = 2**31 - 1
"""Largest BookSeed."""

MAX_PERFT_DEPTH = _core.MAX_PERFT_DEPTH
"""Deepest ``go perft`` accepted (the core's limit: anything deeper could not finish anyway)."""

_WHITESPACE_CONTROL = str.maketrans({"\r": "\n"})


class LineSource(Protocol):
    """What :meth:`UciEngine.run` reads from: a binary stream's ``readline(size)``."""

    def readline(self, size: int = -1, /) -> bytes:
        """The next line, at most *size* bytes of it (all of it when *size* is negative)."""
        ...


def _default_options(params: list[tuple[str, int, int, int]]) -> list[Option]:
    """The fixed options, then a hidden spin option per evaluation weight and search setting (*params*).

    The weights and settings (and the time manager's, :data:`camelpy.timeman.TUNING_OPTIONS`) are tuning
    options: ``uci`` lists them only after ``Show Tuning Options``
    is set (as Stockfish lists its tunables only in a tuning build), since a GUI shows every listed
    option in its settings dialog and these ~480 would bury the dozen a player sets. The evaluation
    weights act only with ``Use NNUE`` false; the search settings' defaults are their tuned values.
    ``setoption`` sets them all the same, listed or not (tuners, ``camelpy match option.X=…``).
    """
    options = [
        Option.spin("Hash", _core.DEFAULT_HASH_MB, 1, MAX_HASH_MB),
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
        Option.string("ParamsFile", ""),
        Option.check("Use NNUE", True),
        Option.string("EvalFile", _core.NET_EMBEDDED),
        Option.string("TablebasePath", ""),
        Option.spin("BookSeed", 0, 0, MAX_BOOK_SEED),
        Option.check("UCI_LimitStrength", False),
        Option.spin("UCI_Elo", strength.DEFAULT_ELO, strength.ELO_MIN, strength.ELO_MAX),
        Option.spin("Strength Seed", 0, 0, strength.MAX_SEED),
        Option.check(SHOW_TUNING_OPTIONS, False),
    ]
    taken = {o.name.lower() for o in options}
    options += [
        Option.spin(name, value, lo, hi, hidden=True)
        for name, value, lo, hi in params
        if name.lower() not in taken
    ]
    return options


class _Output:
    """Writes whole lines, one at a time, from any thread."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self._write = write
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self._lock:
            self._write(line)


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
        self._output = _Output(write)
        self._engine = _core.Engine(_core.DEFAULT_HASH_MB, 1)
        params = self._engine.params()
        search_params = self._engine.search_params()
        self._param_names = {name for name, *_ in params}
        self._search_param_names = {name for name, *_ in search_params}
        self._options = OptionTable(_default_options(params + search_params + list(timeman.TUNING_OPTIONS)))
        self._state = UciPosition()
        # The session gets the output, not a bound method of this object: no reference cycle, so a
        # finished loop (and its table) is freed as soon as the last reference goes, not at the next
        # garbage collection, which knows nothing of the table's size.
        self._session = SearchSession(self._engine, self._options, self._output)
        """The search side: ``go``, ``stop``, ``ponderhit``, the worker thread and the opening book."""
        self._pending: list[tuple[str, str | None] | None] = []
        """Commands deferred during a search: ``(option name, value text)``, or ``None`` for ucinewgame."""
        self._quitting = False
        self._perft_thread: threading.Thread | None = None
        """A ``go perft`` counting on a thread of its own, so that ``isready`` is answered meanwhile."""
        self._perft_stop = threading.Event()
        """Set to end the running ``go perft`` (by ``stop``, ``quit`` or a new ``go``)."""

    def has_option(self, name: str) -> bool:
        """Whether an option called *name* (any case) exists."""
        return name in self._options

    # Output -----------------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Writes one line (thread-safe)."""
        self._output(line)

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
            self._session.close_book()
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
                self._new_game()
        elif command == "position":
            self._position(args)
        elif command == "go":
            self._go(args, received)
        elif command == "stop":
            self._stop_search()
        elif command == "ponderhit":
            self._session.ponderhit()
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
        for option in self._options.listed(hidden=bool(self._options[SHOW_TUNING_OPTIONS])):
            self.send(option.declaration())
        self.send("uciok")

    def _set_debug(self, args: str) -> None:
        words = args.split()
        if words and words[0] in ("on", "off"):
            self._session.set_debug(words[0] == "on")
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
        except (ValueError, MemoryError, OverflowError, OSError) as err:
            self.info(f"option {quote(name)} not changed: {quote(str(err))}")

    def _option_effect(self, name: str, value: Value) -> None:
        """What setting an option does beyond storing it; raises ``ValueError`` to refuse the value."""
        if name == "Hash":
            assert isinstance(value, int)
            self._engine.resize(value)  # refuses more than the machine's memory; keeps the old table
        elif name == "Threads":
            assert isinstance(value, int)
            self._engine.set_threads(value)
        elif name == "Clear Hash":
            self._engine.clear_hash()
        elif name == "SyzygyPath":
            if value:
                self.info("SyzygyPath noted, but camelpy reads its own tables: set TablebasePath")
        elif name == "ParamsFile":
            assert isinstance(value, str)
            apply_params(self._engine, read_params_file(value) if value else {}, reset=True)
            if value:
                self._note_classical(name)
        elif name == "TablebasePath":
            # Empty: no tables. A folder that cannot be used raises; the tables in use stay.
            assert isinstance(value, str)
            tables = _core.Tablebase(value) if value else None
            self._engine.set_tablebase(tables)
            if tables is not None:
                n = len(tables.endings())
                self.info(f"TablebasePath: {n} table{'' if n == 1 else 's'} loaded from {quote(value)}")
        elif name == "EvalFile":
            # The network "Use NNUE" evaluates with (empty: the built-in one, whose name selects it
            # when no file of that name is here). A file that cannot be used raises; the evaluation
            # stays. With "Use NNUE" off it is only noted, and loaded when that is switched on.
            assert isinstance(value, str)
            if self._options["Use NNUE"]:
                self._engine.set_eval_file(value or _core.NET_EMBEDDED)
        elif name == "Use NNUE":
            # Off: the classical evaluation (whose weights the spin options set), as Stockfish 15.1.
            evalfile = self._options["EvalFile"]
            assert isinstance(evalfile, str)
            self._engine.set_eval_file((evalfile or _core.NET_EMBEDDED) if value else None)
        elif name in ("UCI_LimitStrength", "UCI_Elo"):
            self._note_strength(name, value)
        elif name in ("BookFile", "BookSeed", "OwnBook"):
            self._session.close_book()  # reopened with the new settings when next needed
        elif name in self._param_names:
            assert isinstance(value, int)
            self._engine.set_param(name, value)
            self._note_classical(name)
        elif name in self._search_param_names:
            assert isinstance(value, int)
            self._engine.set_search_param(name, value)

    def _new_game(self) -> None:
        """``ucinewgame``: fresh tables, and the strength level's next game."""
        self._engine.new_game()
        self._session.new_game()

    def _note_strength(self, name: str, value: Value) -> None:
        """Says what the level set plays like (the option's help, as UCI has no other place for it)."""
        limited = bool(value) if name == "UCI_LimitStrength" else bool(self._options["UCI_LimitStrength"])
        elo = value if name == "UCI_Elo" else self._options["UCI_Elo"]
        assert isinstance(elo, int)
        if not limited:
            if name == "UCI_LimitStrength":
                self.info("UCI_LimitStrength off: full strength")
            return
        level = strength.EloLevel.from_elo(elo)
        self.info(
            f"UCI_Elo {elo}: at most {level.nodes} nodes a move, then one of the {strength.CANDIDATES} best"
            f" lines within {level.max_loss} cp of the best, weighted exp(-loss/{level.temperature:g} cp)"
        )

    def _note_classical(self, name: str) -> None:
        """Says that evaluation weights set while a network evaluates wait for ``Use NNUE`` false."""
        if self._options["Use NNUE"]:
            self.info(f"{name} set: the classical evaluation's weights act with 'Use NNUE' false")

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
        self._state = UciPosition(fen, list(command.moves), chess960, position)

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
        self._session.go(go, state, received)

    def _searching(self) -> bool:
        return self._session.searching() or self._perft_thread is not None

    def _sync(self) -> None:
        """Forgets a finished search or perft and applies what was deferred while it ran."""
        finished = self._session.collect()
        if self._perft_thread is not None and not self._perft_thread.is_alive():
            self._perft_thread = None
            finished = True
        if not finished:
            return
        pending, self._pending = self._pending, []
        for setting in pending:
            if setting is None:
                self._new_game()
            else:
                self._apply_option(*setting)

    def _stop_search(self) -> None:
        self._session.stop()
        if self._perft_thread is not None:
            self._perft_stop.set()
            self._perft_thread.join()
        self._sync()

    def _perft(self, state: UciPosition, depth: int) -> None:
        if depth > MAX_PERFT_DEPTH:
            self.info(f"go perft: depth {depth} is too deep (at most {MAX_PERFT_DEPTH})")
            return
        fen, chess960 = state.position.fen(shredder=state.chess960), state.chess960
        stop = self._perft_stop = threading.Event()

        def count() -> None:
            began = time.monotonic()
            try:
                counts = _core.divide(fen, depth, chess960, stop=stop)
            except ValueError:  # stopped
                self.info(f"go perft {depth} stopped after {(time.monotonic() - began) * 1000:.0f} ms")
                return
            for move, leaves in counts:
                self.send(f"{move.uci()}: {leaves}")
            self.send("")
            self.send(f"Nodes searched: {1 if depth == 0 else sum(leaves for _, leaves in counts)}")

        self._perft_thread = threading.Thread(target=count, name="camelpy-uci-perft", daemon=True)
        self._perft_thread.start()

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
        network = self._engine.eval_file
        if network is not None:  # the trace is the classical evaluation's; the search uses the network's
            value = self._engine.evaluate(state.fen, state.moves, state.chess960)
            white = value if state.position.turn else -value
            self.send(f"NNUE evaluation {white / 100:+.2f} (white side), network {network}")

    def wait(self) -> None:
        """Waits until the running search or perft (if any) has answered (for scripts and tests)."""
        self._session.join()
        if self._perft_thread is not None:
            self._perft_thread.join()
        self._sync()

"""The UCI engine's search session: one ``go`` at a time, searched on a worker thread.

:class:`SearchSession` is the search side of :class:`camelpy.protocols.uci.loop.UciEngine`: the loop reads and
dispatches commands on the main thread and keeps the options; the session starts each ``go`` (after the
opening book has had its say), runs the core's search on a worker thread with the GIL released, turns
the core's reports into ``info`` lines, lets the time manager stop the search, and answers with exactly
one ``bestmove``, printed under a lock that also marks the search finished. ``stop``, ``ponderhit`` and
``quit`` reach the running search through :meth:`SearchSession.stop` and
:meth:`SearchSession.ponderhit`; the loop calls :meth:`SearchSession.collect` before each command to
forget a finished search (and then applies what it deferred while the search ran).

Both sides write through the loop's ``send``, so output lines never interleave.

>>> from camelpy.protocols.uci.commands import parse_go
>>> from camelpy.protocols.uci.options import Option, OptionTable
>>> options = OptionTable([Option.spin("MultiPV", 1, 1, 256), Option.spin("Move Overhead", 10, 0, 5000),
...                        Option.check("UCI_ShowWDL", False), Option.check("OwnBook", False)])
>>> lines = []
>>> session = SearchSession(_core.Engine(), options, lines.append)
>>> go, problems = parse_go("depth 3")
>>> session.go(go, UciPosition("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
...                            position=_core.Position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")), time.monotonic())
>>> session.join()
>>> lines[-2:]
['info string no legal move (checkmate)', 'bestmove 0000']
>>> session.collect(), session.searching()
(True, False)
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

import chess

from camelpy import _core, strength, timeman
from camelpy._quote import quote
from camelpy.book import Book, InvalidBookError
from camelpy.protocols.uci.commands import Go
from camelpy.protocols.uci.format import currmove_line, info_line
from camelpy.protocols.uci.options import OptionTable

__all__ = ["STOP_POLL_S", "SearchSession", "UciPosition"]

STOP_POLL_S = 0.002
"""How often ``stop`` re-asserts the core's stop flag while waiting for the worker (covers a stop that
arrives before the core has started and reset its flag)."""


@dataclasses.dataclass
class UciPosition:
    """The position set by the last accepted ``position`` command."""

    fen: str = chess.STARTING_FEN
    moves: list[str] = dataclasses.field(default_factory=list)
    chess960: bool = False
    position: _core.Position = dataclasses.field(default_factory=_core.Position)

    def game_ply(self) -> int:
        """Half-moves played in the game before this position (from the FEN's move number)."""
        return (self.position.fullmove_number - 1) * 2 + (0 if self.position.turn else 1)


class _Search:
    """One running ``go``: the worker thread and what it needs to finish with exactly one ``bestmove``."""

    def __init__(self, go: Go, state: UciPosition, received: float, wait_for_stop: bool) -> None:
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


class SearchSession:
    """Runs the ``go`` commands of one UCI engine, one at a time, on a worker thread.

    *engine* is the core engine (the loop resizes and configures it between searches), *options* the
    loop's option table (read at each search: ``MultiPV``, ``Move Overhead``, ``UCI_ShowWDL``, the
    strength and the book options), *send* writes one output line (thread-safe).

    With ``UCI_LimitStrength`` on, every ``go`` but ``go infinite`` (analysis) is played at ``UCI_Elo``'s
    level (:mod:`camelpy.strength`): at most the level's nodes, :data:`camelpy.strength.CANDIDATES` lines
    at least, and ``bestmove`` the level's choice among them (drawn from ``Strength Seed``, the number of
    ``ucinewgame`` received and the position's Polyglot key, so reproducible).
    """

    def __init__(self, engine: _core.Engine, options: OptionTable, send: Callable[[str], None]) -> None:
        self._engine = engine
        self._options = options
        self._send = send
        self._search: _Search | None = None
        self._search_lock = threading.Lock()
        self._debug = False
        self._book: Book | None = None
        self._book_path: str | None = None
        """The BookFile that ``_book`` was opened from (``_book`` is None if that failed)."""
        self._game = 0
        """``ucinewgame``s received: the game's number in the level's draw."""

    def send(self, line: str) -> None:
        """Writes one line (thread-safe)."""
        self._send(line)

    def info(self, text: str) -> None:
        """Sends ``info string <text>``."""
        self.send(f"info string {text}")

    def set_debug(self, on: bool) -> None:
        """``debug on|off``: whether the time budget and the time manager's decisions are reported."""
        self._debug = on

    def new_game(self) -> None:
        """``ucinewgame``: the level's choices of the next game differ from this one's."""
        self._game += 1

    def searching(self) -> bool:
        """Whether a search is running (started and not yet answered with ``bestmove``)."""
        with self._search_lock:
            return self._search is not None and not self._search.done

    def go(self, go: Go, state: UciPosition, received: float) -> None:
        """Starts searching *state* for *go* (no search may be running), or answers at once with a book
        move; *received* is when the ``go`` line was read (``time.monotonic()``)."""
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

    def _checked_searchmoves(self, state: UciPosition, moves: list[str], legal: set[str]) -> list[str]:
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
    def _canonical_move(state: UciPosition, move: str) -> str:
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
        # The time manager's tuning options (timeman.TUNING_OPTIONS), where the table has them.
        horizon, inc_share, lost_cp = (
            self._options[name] if name in self._options else default
            for name, default, _, _ in timeman.TUNING_OPTIONS
        )
        assert isinstance(overhead, int) and isinstance(horizon, int) and isinstance(inc_share, int)
        assert isinstance(lost_cp, int)
        limits = timeman.budget(
            own_time,
            own_inc or 0,
            go.movestogo,
            overhead_ms=overhead,
            movetime_ms=go.movetime,
            horizon=horizon,
            inc_share=inc_share / 100,
        )
        if limits is None:
            return
        search.manager = timeman.TimeManager(limits, dynamic=go.movetime is None, lost_cp=lost_cp)
        search.manager_start = start
        if self._debug:
            self.info(f"time budget: soft {limits.soft_ms} ms, hard {limits.hard_ms} ms")

    def _run_search(self, search: _Search) -> None:
        state, go = search.state, search.go
        result: _core.SearchOutcome | None = None
        kwargs: dict[str, Any] = {}
        manager = search.manager
        if manager is not None:
            elapsed = (time.monotonic() - search.received) * 1000
            kwargs["soft_ms"] = max(1, int(manager.outer_soft_ms - elapsed))
            kwargs["hard_ms"] = max(1, int(manager.budget.hard_ms - elapsed))
        multipv = self._options["MultiPV"]
        assert isinstance(multipv, int)
        level = self._level(go)
        nodes = go.nodes
        if level is not None:
            nodes = level.nodes if nodes is None else min(nodes, level.nodes)
            multipv = max(multipv, strength.CANDIDATES)
        try:
            result = self._engine.search(
                state.fen,
                state.moves,
                state.chess960,
                depth=go.depth,
                nodes=nodes,
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
        self._finish(search, result, self._choice(level, state, result))

    def _on_report(self, search: _Search, report: _core.IterationInfo | _core.CurrMoveInfo) -> None:
        if search.stop_requested.is_set():
            self._engine.stop()
        if isinstance(report, _core.CurrMoveInfo):
            self.send(currmove_line(report))
            search.last_had_score = False
            return
        show_wdl = bool(self._options["UCI_ShowWDL"])
        self.send(info_line(report, wdl_ply=search.state.game_ply() if show_wdl else None))
        search.last_had_score = True
        manager = search.manager
        if manager is None or search.stopping or report.multipv != 1:
            return
        if report.bound != "exact":
            return
        if not report.pv:
            return
        elapsed = (time.monotonic() - search.manager_start) * 1000
        stop = manager.update(report.depth, report.pv[0], report.cp, elapsed)
        if stop or search.one_reply:
            if self._debug:
                self.info(f"time manager stops at {elapsed:.0f} ms (soft x {manager.factor:.2f})")
            search.stopping = True
            self._engine.stop()

    def _level(self, go: Go) -> strength.EloLevel | None:
        """The level this ``go`` plays at, or ``None`` for full strength."""
        if go.infinite or "UCI_LimitStrength" not in self._options or not self._options["UCI_LimitStrength"]:
            return None
        elo = self._options["UCI_Elo"]
        assert isinstance(elo, int)
        return strength.EloLevel.from_elo(elo)

    def _choice(
        self, level: strength.EloLevel | None, state: UciPosition, result: _core.SearchOutcome | None
    ) -> _core.IterationInfo | None:
        """The line of the level's move, or ``None`` to answer the search's best move."""
        if level is None or result is None or not result.lines:
            return None
        seed = self._options["Strength Seed"]
        assert isinstance(seed, int)
        board = state.position.to_board()
        draw = strength.draw(seed, strength.position_key(board), self._game)
        move = strength.choose(level, strength.candidates(result.lines), draw)
        return next((line for line in result.lines if line.pv and line.pv[0] == move), None)

    def _finish(
        self,
        search: _Search,
        result: _core.SearchOutcome | None,
        choice: _core.IterationInfo | None = None,
    ) -> None:
        with self._search_lock:
            if search.timer is not None:
                search.timer.cancel()
            best = result.best_move if result else None
            if result is not None and (not search.last_had_score or best is None):
                lines = result.lines or [result.info]
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
                ponder = result.ponder if result else None
                if choice is not None:
                    # Its line once more, last, so that a GUI (python-chess's play() too) shows the
                    # score and line of the move played, not those of the last MultiPV line.
                    show_wdl = bool(self._options["UCI_ShowWDL"])
                    self.send(info_line(choice, wdl_ply=search.state.game_ply() if show_wdl else None))
                    best, ponder = choice.pv[0], choice.pv[1] if len(choice.pv) > 1 else None
                self.send(f"bestmove {best}" + (f" ponder {ponder}" if ponder else ""))
            search.done = True

    def collect(self) -> bool:
        """Forgets a finished search (joining its thread); returns whether there was one."""
        with self._search_lock:
            search = self._search
            if search is None or not search.done:
                return False
            self._search = None
        if search.thread is not None:
            search.thread.join()
        return True

    def stop(self) -> None:
        """``stop``: stops the running search, if any, and waits for its ``bestmove`` (about a
        millisecond); :meth:`collect` then forgets it."""
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

    def join(self) -> None:
        """Waits until the running search (if any) has answered."""
        with self._search_lock:
            search = self._search
        if search is not None and search.thread is not None:
            search.thread.join()

    def ponderhit(self) -> None:
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

    def _book_move(self, state: UciPosition, searchmoves: list[str]) -> str | None:
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
        self.close_book()
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

    def close_book(self) -> None:
        """Closes the opening book; it is reopened, with the options of the time, when next needed."""
        if self._book is not None:
            self._book.close()
        self._book = None
        self._book_path = None

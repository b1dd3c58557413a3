"""``camelpy gui``'s sessions: one browser tab's game, analysis board and watched folder, and the handling
of each op the page sends (:mod:`camelpy.gui.messages`). No socket here: a session talks to its pages
through :class:`Page` (the transport's client, :mod:`camelpy.gui.transport`), and names no game: the
games' engines, clock rules and reports come from their :class:`~camelpy.gui.variants.Variant`.

Each tab has a session, named by the page (kept in the tab's ``sessionStorage``), holding its game, its
analysis board and the folder it watches: a reload or a dropped socket reconnects to it and loses
nothing. A game's engine keeps thinking for :data:`ORPHAN_SEARCH_S` while no page is connected (and
starts again when one comes back); an analysis stops when the last page of its session goes. Searches
run in threads of their own (one engine per session, task and game), so the event loop never waits on
one; a finished search's result is taken only if nothing changed the game meanwhile. A pasted PGN is
parsed in a thread, off the event loop. A tab reviews one game at a time (:mod:`camelpy.gui.review`), in
a thread of its own, reporting its progress; it goes on without a page (its work is capped), and its
result waits for the tab's next page. The caps on what one client can make the server do that belong
here: :data:`MAX_SESSIONS`, :data:`MAX_SEARCHES`, :data:`MAX_REVIEWS`, :data:`MAX_PARSES`,
:data:`ORPHAN_SEARCH_S`.

>>> slots = SearchSlots(1)
>>> slots.take()
>>> slots.take()
Traceback (most recent call last):
...
camelpy.gui.session.Busy: the server is running 1 searches, the most it runs at once; try again when one ends
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import logging
import os
import threading
import time
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, Callable, Protocol

import camelpy
from camelpy._args import int_arg, shown
from camelpy._quote import quote
from camelpy.gui.lines import MAX_PLIES, MAX_TEXT, Line, load_text
from camelpy.gui.messages import (
    AnalyseOp,
    AnalysisMessage,
    DrawOp,
    GameMessage,
    GotoOp,
    InfoView,
    LineMessage,
    LoadOp,
    MoveOp,
    NewGameOp,
    PlayOp,
    ReplayOp,
    ResignOp,
    ReviewOp,
    ReviewProgressMessage,
    ReviewStopOp,
    ServerMessage,
    StopOp,
    UndoOp,
    UnwatchOp,
    WatchEventsMessage,
    WatchOp,
)
from camelpy.gui.play import Clock, Game, GameSettings, Strength
from camelpy.gui.review import MAX_REVIEW_NODES, read_review_game, review_game
from camelpy.gui.variants import VARIANTS, Played, Variant
from camelpy.gui.watch import MatchWatch, replay

__all__ = [
    "GUI_HASH_MB",
    "HANDLERS",
    "MAX_PARSES",
    "MAX_REVIEWS",
    "MAX_SEARCHES",
    "MAX_SESSIONS",
    "ORPHAN_SEARCH_S",
    "Busy",
    "Hub",
    "Page",
    "SearchSlots",
    "Searcher",
    "Session",
    "error_text",
]

log = logging.getLogger("camelpy.gui")

GUI_HASH_MB = 16
"""Each session's engines' hash tables: ample for a move or an analysis at human pace."""

MAX_SESSIONS = 32
"""Sessions kept (each up to two engines of :data:`GUI_HASH_MB`); the least recently used one without
a page connected goes first, and a new one is refused while every session has a page (60 sessions
took the server from 60 MB to 2 GB)."""

MAX_SEARCHES = 4
"""Searches running at once over the whole server (games' and analyses'), each a thread taking a core:
a search beyond it is refused with an ``error`` (a game's engine moves once one ends)."""

MAX_REVIEWS = 2
"""Game reviews running at once over the whole server (one per tab), each on
:data:`~camelpy.gui.review.REVIEW_THREADS` cores: a review beyond it is refused with an ``error``."""

MAX_PARSES = 2
"""Pasted texts (``load``) parsed at once, each in a thread off the event loop: more would take every
core from the searches and the loop."""

ORPHAN_SEARCH_S = 10.0
"""How long a game's engine goes on thinking with no page of its session connected (a reload takes a
second); then it stops, and starts again when a page comes back (a game at an hour a move kept a core
busy for the hour after its tab closed)."""

MAX_LISTED = 200
"""Folders listed below each ``--watch-root`` (the page offers them to watch); others can be typed."""

WATCH_POLL_S = 0.1
"""How often a watched folder's events file is read: moves appear within a tenth of a second."""

STOP_POLL_S = 0.005
"""How often a search being stopped is asked again until its thread has ended."""

FLAG_GRACE_S = 0.05
"""How long after a clock should reach zero the server looks, so that the flag falls after it."""


class Busy(ValueError):
    """A cap is reached: what was asked is refused with an ``error`` message, not queued."""


class SearchSlots:
    """The searches running at once over the whole server, at most *limit*: a slot is taken on the
    event loop as a search starts and given back by the search's own thread as it ends (so a search
    whose thread has ended never holds one). *what* names them in the refusal."""

    def __init__(self, limit: int, what: str = "searches") -> None:
        self.limit = limit
        self.what = what
        self.running = 0
        self._lock = threading.Lock()

    def take(self) -> None:
        """Takes a slot.

        :raises: :exc:`Busy` when all :attr:`limit` are taken.
        """
        with self._lock:
            if self.running >= self.limit:
                raise Busy(
                    f"the server is running {self.running} {self.what}, the most it runs at once; "
                    "try again when one ends"
                )
            self.running += 1

    def give(self) -> None:
        """Gives a slot back (from any thread)."""
        with self._lock:
            self.running -= 1


class Page(Protocol):
    """A connected page, as a session sees it (the transport's :class:`~camelpy.gui.transport.Client`)."""

    def send(self, message: ServerMessage) -> None:
        """Queues *message* for the page."""

    def send_text(self, text: str) -> None:
        """Queues an already serialised message."""


class Searcher:
    """One engine (made by *make* when first needed) and at most one search on it, in a thread of its
    own. A new search first stops the previous one and waits for its thread: the core resets its stop
    flag when a search starts, so two searches must never overlap on one engine. An engine without a
    ``stop`` method (MiniChess's) is stopped by its search's reports, which look at the search's
    *cancel* event (:exc:`camelpy.gui.variants.Halted`)."""

    def __init__(
        self,
        make: Callable[[], Any],
        *,
        slots: SearchSlots | None = None,
        on_free: Callable[[], None] | None = None,
    ) -> None:
        self.make = make
        self.slots = slots
        self.on_free = on_free
        self.engine: Any = None
        self.thread: threading.Thread | None = None
        self.cancel = threading.Event()
        self.generation = 0
        self.lock = asyncio.Lock()

    def new_game(self) -> None:
        """Forgets what the engine learnt (its table); call after :meth:`halt`."""
        if self.engine is not None:
            reset = getattr(self.engine, "new_game", None) or self.engine.clear
            reset()

    def release(self) -> None:
        """Drops the engine (and its hash table) unless a search runs; the next search makes a new one."""
        if self.thread is None or not self.thread.is_alive():
            self.engine = None

    async def halt(self) -> None:
        """Stops the running search (its result will be ignored) and waits for its thread."""
        self.generation += 1
        self.cancel.set()
        while self.thread is not None and self.thread.is_alive():
            stop = getattr(self.engine, "stop", None)
            if stop is not None:
                stop()
            await asyncio.sleep(STOP_POLL_S)

    async def start(
        self,
        work: Callable[[Any, int, threading.Event], Any],
        on_done: Callable[[Any, BaseException | None], None],
    ) -> None:
        """Runs ``work(engine, generation, cancel)`` in a new thread after stopping the previous search
        (*generation* tells the search's reports from an older one's; *cancel* is set when it should
        stop); *on_done* gets its result (or exception) on the event loop, unless another search or
        :meth:`halt` came since. The search holds one of *slots* while it runs; *on_free* is called on
        the event loop once it has given it back.

        :raises: :exc:`Busy` (the previous search stopped all the same) when no slot is free.
        """
        async with self.lock:
            await self.halt()
            slots = self.slots
            if slots is not None:
                slots.take()
            try:
                if self.engine is None:
                    self.engine = self.make()
            except BaseException:
                if slots is not None:
                    slots.give()
                raise
            engine, generation = self.engine, self.generation
            cancel = self.cancel = threading.Event()
            loop = asyncio.get_running_loop()

            def finish(result: Any, error: BaseException | None) -> None:
                if self.on_free is not None:
                    self.on_free()
                if generation == self.generation:
                    on_done(result, error)

            def run() -> None:
                try:
                    result, error = work(engine, generation, cancel), None
                except Exception as err:  # reported on the page, never fatal
                    result, error = None, err
                finally:
                    if slots is not None:
                        slots.give()
                with contextlib.suppress(RuntimeError):  # the loop closed: the server is stopping
                    loop.call_soon_threadsafe(finish, result, error)

            self.thread = threading.Thread(target=run, name="camelpy-gui-search", daemon=True)
            self.thread.start()


class Session:
    """One tab's game, analysis board and watched folder, and the pages showing them."""

    def __init__(self, hub: Hub, session_id: str) -> None:
        self.hub = hub
        self.id = session_id
        self.pages: set[Page] = set()
        self.game: Game | None = None
        self.players = hub.searchers()
        """The game's engine, one per game (:data:`~camelpy.gui.variants.VARIANTS`)."""
        self.engine_cp: int | None = None
        self.thinking = False
        self.line = Line()
        self.multipv = 1
        self.analysers = hub.searchers()
        """The analysis board's engine, one per game."""
        self.analysing = False
        self.analysis: dict[int, InfoView] = {}
        self.watching: str | None = None
        self.reviewer = Searcher(_no_engine, slots=hub.review_slots)
        """The tab's game review (one at a time; no engine of its own: the batch makes its searchers)."""
        self.review: dict[str, Any] | None = None
        """The last review's view (:func:`camelpy.gui.review.review_view`)."""
        self.review_progress: ReviewProgressMessage = {
            "type": "review_progress",
            "running": False,
            "done": 0,
            "total": 0,
        }
        self._flag_timer: asyncio.TimerHandle | None = None
        self._orphan_timer: asyncio.TimerHandle | None = None

    # -- sending

    def broadcast(self, message: ServerMessage) -> None:
        """Sends *message* to every page of the session."""
        text = json.dumps(message)
        for page in list(self.pages):
            page.send_text(text)

    def game_message(self) -> GameMessage:
        """The ``game`` message."""
        view = self.game.view(time.monotonic()) if self.game is not None else None
        return {"type": "game", "game": view, "thinking": self.thinking}

    def line_message(self) -> LineMessage:
        """The ``line`` message: the analysis board and the evaluation's terms there."""
        board = self.line.board()
        trace = "" if board.is_game_over() else self.hub.trace(self.line.rules, board)
        return {"type": "line", "line": self.line.view(), "trace": trace}

    def analysis_message(self) -> AnalysisMessage:
        """The ``analysis`` message: the MultiPV lines, best first."""
        lines = [self.analysis[k] for k in sorted(self.analysis)]
        return {"type": "analysis", "running": self.analysing, "multipv": self.multipv, "lines": lines}

    def _error(self, op: str, err: BaseException | str) -> None:
        """Tells every page that a search (*op*: ``engine`` or ``analyse``) failed."""
        text = err if isinstance(err, str) else error_text(err)
        self.broadcast({"type": "error", "op": op, "message": text})

    async def attach(self, page: Page) -> None:
        """A page connects: it gets the whole state (and a game's engine stopped for want of a page
        starts thinking again)."""
        self.pages.add(page)
        if self._orphan_timer is not None:
            self._orphan_timer.cancel()
            self._orphan_timer = None
        page.send(
            {
                "type": "hello",
                "version": camelpy.__version__,
                "session": self.id,
                "variants": {variant.name: variant.about() for variant in VARIANTS.values()},
                "watchable": self.hub.watchable(),
            }
        )
        page.send(self.game_message())
        page.send(self.line_message())
        page.send(self.analysis_message())
        page.send({"type": "review", "review": self.review})
        page.send(self.review_progress)
        if self.watching is not None:
            self.hub.subscribe(self, self.watching, page)
        if self.game is not None and self.game.engine_to_move() and not self.thinking:
            self._changed()

    async def detach(self, page: Page) -> None:
        """A page goes; with the last one, the analysis stops, a game's engine may go on with its
        move for :data:`ORPHAN_SEARCH_S`, and the engines not searching are dropped (a session
        without a page costs no hash table)."""
        self.pages.discard(page)
        if not self.pages:
            if self.analysing:
                self.analysing = False
                await self._halt_analysis()
            self.hub.unsubscribe(self)
            if self.thinking and self._orphan_timer is None:
                loop = asyncio.get_running_loop()
                self._orphan_timer = loop.call_later(ORPHAN_SEARCH_S, self._on_orphaned)
            self._release_engines()

    def _release_engines(self) -> None:
        if not self.pages:
            for searcher in [*self.players.values(), *self.analysers.values()]:
                searcher.release()

    def _on_orphaned(self) -> None:
        """No page came back in time: the game's engine stops (it starts again on :meth:`attach`)."""
        self._orphan_timer = None
        game = self.game
        if self.pages or game is None or not self.thinking:
            return
        self.thinking = False
        asyncio.ensure_future(self._halt_and_release(self._player(game)))

    async def _halt_and_release(self, searcher: Searcher) -> None:
        await searcher.halt()
        self._release_engines()

    async def close(self) -> None:
        """Stops everything (the session is dropped)."""
        self.analysing = False
        await self._halt_analysis()
        for searcher in self.players.values():
            await searcher.halt()
        await self.reviewer.halt()
        for timer in (self._flag_timer, self._orphan_timer):
            if timer is not None:
                timer.cancel()
        self.hub.unsubscribe(self)

    # -- ops

    async def handle(self, page: Page, message: object) -> None:
        """Carries out one op (:data:`camelpy.gui.messages.OPS`); bad input gets an ``error`` message
        for that page."""
        op = message.get("op") if isinstance(message, dict) else None
        handler = HANDLERS.get(op) if isinstance(op, str) else None
        try:
            if handler is None:
                raise ValueError(f"unknown op {shown(op)}; expected one of {', '.join(sorted(HANDLERS))}")
            assert isinstance(message, dict)
            # The op's fields are checked by its handler: the TypedDict says what a page sends.
            await handler(self, page, message)
        except (ValueError, TypeError, KeyError) as err:
            page.send({"type": "error", "op": op, "message": error_text(err)})

    async def op_new_game(self, page: Page, msg: NewGameOp) -> None:
        """A new game from the op's position, variant, side, strength and clock (bad settings leave the
        old game as it was)."""
        strength = msg.get("strength") or {"kind": "level", "value": "club"}
        variant = msg.get("variant") or "chess"
        if not isinstance(strength, dict):
            raise TypeError(f"strength must be an object, got {shown(strength)}")
        clock = msg.get("clock")
        if clock is not None and not isinstance(clock, dict):
            raise TypeError(f"clock must be an object or null, got {shown(clock)}")
        fen = msg.get("fen") or None
        if fen is not None and not isinstance(fen, str):
            raise TypeError(f"fen must be a string, got {shown(fen)}")
        settings = GameSettings(
            fen=fen,
            chess960_pos=msg.get("chess960"),
            human=msg.get("human", "white"),
            strength=Strength(strength.get("kind", "level"), strength.get("value", "club")),
            clock=Clock(clock.get("base", 0), clock.get("inc", 0)) if clock is not None else None,
            variant=variant,
        )
        game = Game(settings, now=time.monotonic())  # raises before the old game is touched
        for searcher in self.players.values():
            await searcher.halt()
            searcher.new_game()
        self.thinking = False
        self.engine_cp = None
        self.game = game
        self._changed()

    async def op_move(self, page: Page, msg: MoveOp) -> None:
        """The person's move (UCI), on their turn."""
        game = self._persons_turn("wait for camelpy's move: it is thinking")
        uci = msg.get("uci")
        if not isinstance(uci, str):
            raise TypeError(f"uci must be a string, got {shown(uci)}")
        game.push(uci, now=time.monotonic())
        self._changed()

    async def op_undo(self, page: Page, msg: UndoOp) -> None:
        """Takes back the last move (camelpy's search, if running, is halted first)."""
        game = self._game()
        await self._player(game).halt()
        self.thinking = False
        try:
            game.undo(now=time.monotonic())
        finally:
            self._changed()

    async def op_resign(self, page: Page, msg: ResignOp) -> None:
        """The person resigns the game."""
        game = self._game()
        game.resign()
        await self._player(game).halt()
        self.thinking = False
        self._changed()

    async def op_draw(self, page: Page, msg: DrawOp) -> None:
        """The person offers a draw on their move; camelpy accepts when it does not think it stands better."""
        game = self._persons_turn("offer a draw on your move")
        if not game.offer_draw(self.engine_cp):
            page.send({"type": "notice", "message": "camelpy declines the draw"})
        self._changed()

    async def op_load(self, page: Page, msg: LoadOp) -> None:
        """Loads a FEN or PGN onto the analysis board (parsed off the event loop, a few at a time)."""
        text = msg.get("text")
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {shown(text)}")
        variant = msg.get("variant") or "chess"
        if variant not in VARIANTS:
            raise ValueError(f"unknown game {shown(variant)}; expected one of {', '.join(VARIANTS)}")
        if len(text) > MAX_TEXT:
            raise ValueError(f"the text is longer than {MAX_TEXT} characters ({len(text)})")
        async with self.hub.parses:  # off the event loop, a few at a time
            self.line = await asyncio.to_thread(load_text, text, variant=variant)
        await self._line_changed()

    async def op_goto(self, page: Page, msg: GotoOp) -> None:
        """Steps the analysis board's line to the op's ply."""
        self.line = self.line.goto(msg.get("ply"))  # Line.goto checks it
        await self._line_changed()

    async def op_play(self, page: Page, msg: PlayOp) -> None:
        """Plays the op's moves onto the analysis board (a move off the line starts a new line there)."""
        moves = msg.get("moves")
        if not isinstance(moves, list):
            raise TypeError(f"moves must be a list of UCI moves, got {shown(moves)}")
        if len(moves) > MAX_PLIES:
            raise ValueError(f"play at most {MAX_PLIES} moves at once, got {len(moves)}")
        self.line = self.line.play(moves)
        await self._line_changed()

    async def op_analyse(self, page: Page, msg: AnalyseOp) -> None:
        """Starts (or restarts) the analysis with the op's number of lines."""
        multipv = msg.get("multipv", self.multipv)
        int_arg(multipv, "multipv", 1, camelpy.MAX_MULTIPV)
        self.multipv = multipv
        self.analysing = True
        await self._analyse()

    async def op_stop(self, page: Page, msg: StopOp) -> None:
        """Stops the analysis."""
        self.analysing = False
        await self._halt_analysis()
        self.broadcast(self.analysis_message())

    async def op_review(self, page: Page, msg: ReviewOp) -> None:
        """Reviews the first game of the pasted PGN at the op's nodes a position (parsed off the event
        loop; a new review stops the tab's running one)."""
        text = msg.get("text")
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {shown(text)}")
        nodes = msg.get("nodes")
        int_arg(nodes, "nodes", 1, MAX_REVIEW_NODES)
        number = msg.get("game", 1)
        int_arg(number, "game", 1, MAX_TEXT)
        if len(text) > MAX_TEXT:
            raise ValueError(f"the text is longer than {MAX_TEXT} characters ({len(text)})")
        async with self.hub.parses:  # off the event loop, a few at a time
            game, games = await asyncio.to_thread(read_review_game, text, number)
        await self._review(game, nodes, number, games)

    async def op_review_stop(self, page: Page, msg: ReviewStopOp) -> None:
        """Stops the tab's running review."""
        await self.reviewer.halt()
        self._review_progress(False, self.review_progress["done"], self.review_progress["total"])

    async def op_watch(self, page: Page, msg: WatchOp) -> None:
        """Watches a match or tournament folder among those the server was started with."""
        folder = msg.get("folder")
        if not isinstance(folder, str) or not folder.strip():
            raise ValueError(f"give a match's --out folder to watch, got {shown(folder)}")
        allowed = self.hub.allowed_folder(folder.strip())
        MatchWatch(allowed).check()
        self.hub.unsubscribe(self)
        self.watching = str(allowed)
        for each in self.pages:
            self.hub.subscribe(self, self.watching, each)

    async def op_unwatch(self, page: Page, msg: UnwatchOp) -> None:
        """Stops watching the folder."""
        self.hub.unsubscribe(self)
        self.watching = None

    async def op_replay(self, page: Page, msg: ReplayOp) -> None:
        """Sends a finished game of the watched folder, to replay move by move."""
        if self.watching is None:
            raise ValueError("watch a match folder first")
        game_id = msg.get("id")
        if not isinstance(game_id, str):
            raise TypeError(f"id must be a string, got {shown(game_id)}")
        game = await asyncio.to_thread(replay, self.watching, game_id)
        page.send({"type": "replay", "game": game})

    # -- the game's engine

    def _game(self) -> Game:
        if self.game is None:
            raise ValueError("start a game first")
        return self.game

    def _persons_turn(self, otherwise: str) -> Game:
        """The game, where it is the person's move (else :exc:`ValueError` saying *otherwise*)."""
        game = self._game()
        if game.engine_to_move():
            raise ValueError(otherwise)
        return game

    def _player(self, game: Game) -> Searcher:
        """The engine that plays *game*."""
        return self.players[game.variant.name]

    def _changed(self) -> None:
        """After any change to the game: tell the pages, start the engine if it is its move, and
        watch the clock of the side to move."""
        game = self.game
        if game is not None and game.engine_to_move() and not self.thinking and self.pages:
            self.thinking = True
            asyncio.ensure_future(self._think(game))
        self.broadcast(self.game_message())
        self._arm_flag()

    async def _think(self, game: Game) -> None:
        if game is not self.game or not game.engine_to_move():  # changed before this ran
            self.thinking = False
            return
        board = game.board.copy()
        limit = game.engine_limit(now=time.monotonic())
        elo = game.engine_elo()
        variant = game.variant
        loop = asyncio.get_running_loop()

        def work(engine: Any, generation: int, cancel: threading.Event) -> Played | None:
            def report(view: InfoView) -> None:
                loop.call_soon_threadsafe(self._on_engine_info, generation, view)

            variant.set_elo(engine, elo)
            return variant.play(engine, board, limit, report, cancel)

        def done(played: Played | None, error: BaseException | None) -> None:
            self.thinking = False
            if not self.pages:  # its move is made: no page keeps the engine (its search is over)
                self._player(game).engine = None
            if self.game is not game or error is not None or played is None:
                if error is not None:
                    self._error("engine", error)
                self._changed()
                return
            self.engine_cp = played.cp
            try:
                game.push(played.uci, now=time.monotonic(), score=played.comment)
            except ValueError as err:
                self._error("engine", err)
            self._changed()

        try:
            await self._player(game).start(work, done)
        except Busy as err:  # it thinks once a search ends (Hub.search_freed)
            self.thinking = False
            self.hub.waiting.add(self)
            self._error("engine", f"camelpy waits to think: {err}")
            self.broadcast(self.game_message())
        except Exception:
            self.thinking = False
            raise

    def _on_engine_info(self, generation: int, view: InfoView) -> None:
        game = self.game
        if game is not None and generation == self._player(game).generation and self.thinking:
            self.broadcast({"type": "engine_info", "info": view})

    def _arm_flag(self) -> None:
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        game = self.game
        if game is None or game.over or game.settings.clock is None or not game.board.move_stack:
            return
        left = game.time_left(time.monotonic())[game.board.turn]
        loop = asyncio.get_running_loop()
        self._flag_timer = loop.call_later(max(left, 0) + FLAG_GRACE_S, self._on_flag, game)

    def _on_flag(self, game: Game) -> None:
        self._flag_timer = None
        if game is self.game and game.flag(time.monotonic()):
            asyncio.ensure_future(self._player(game).halt())
            self.thinking = False
            self.broadcast(self.game_message())
        else:
            self._arm_flag()

    # -- the game review

    def _review_progress(self, running: bool, done: int, total: int) -> None:
        self.review_progress = {"type": "review_progress", "running": running, "done": done, "total": total}
        self.broadcast(self.review_progress)

    async def _review(self, game: Any, nodes: int, number: int, games: int) -> None:
        """Reviews *game* (game *number* of *games*) at *nodes* a position in a thread (stopping the
        tab's review running)."""
        total = sum(1 for _ in game.mainline_moves()) + 1
        loop = asyncio.get_running_loop()

        def work(engine: None, generation: int, cancel: threading.Event) -> dict[str, Any]:
            def progress(done: int, total: int) -> None:
                if cancel.is_set():
                    raise _ReviewStopped  # stops the batch (camelpy.batch.analyse_many)
                loop.call_soon_threadsafe(self._on_review_progress, generation, done, total)

            return review_game(game, nodes=nodes, progress=progress, number=number, games=games)

        def done(view: dict[str, Any] | None, error: BaseException | None) -> None:
            if error is not None or view is None:
                self._review_progress(False, self.review_progress["done"], total)
                if error is not None and not isinstance(error, _ReviewStopped):
                    self._error("review", error)
                return
            self.review = view
            self._review_progress(False, total, total)
            self.broadcast({"type": "review", "review": view})

        try:
            await self.reviewer.start(work, done)
        except Busy:
            self._review_progress(False, 0, total)
            raise
        self._review_progress(True, 0, total)

    def _on_review_progress(self, generation: int, done: int, total: int) -> None:
        if generation == self.reviewer.generation and self.review_progress["running"]:
            self._review_progress(True, done, total)

    # -- the analysis engine

    async def _line_changed(self) -> None:
        self.analysis.clear()
        self.broadcast(self.line_message())
        if self.analysing:
            await self._analyse()
        else:
            self.broadcast(self.analysis_message())

    async def _halt_analysis(self, keep: Searcher | None = None) -> None:
        for searcher in self.analysers.values():
            if searcher is not keep:
                await searcher.halt()

    async def _analyse(self) -> None:
        board = self.line.board()
        self.analysis.clear()
        if board.is_game_over():
            self.analysing = False
            await self._halt_analysis()
            self.broadcast(self.analysis_message())
            return
        variant, multipv = self.line.rules, self.multipv
        loop = asyncio.get_running_loop()

        def work(engine: Any, generation: int, cancel: threading.Event) -> None:
            def report(view: InfoView) -> None:
                loop.call_soon_threadsafe(self._on_analysis_info, generation, view)

            variant.analyse(engine, board, multipv, report, cancel)

        def done(result: None, error: BaseException | None) -> None:
            self.analysing = False
            if error is not None:
                self._error("analyse", error)
            self.broadcast(self.analysis_message())

        analyser = self.analysers[variant.name]
        try:
            await self._halt_analysis(keep=analyser)  # another game's analysis
            await analyser.start(work, done)
        except Busy:
            self.analysing = False
            self.broadcast(self.analysis_message())
            raise
        self.broadcast(self.analysis_message())

    def _on_analysis_info(self, generation: int, view: InfoView) -> None:
        if generation != self.analysers[self.line.rules.name].generation or not self.analysing:
            return
        self.analysis[view["multipv"]] = view
        self.broadcast(self.analysis_message())


HANDLERS: dict[str, Callable[[Session, Page, Any], Awaitable[None]]] = {
    "new_game": Session.op_new_game,
    "move": Session.op_move,
    "undo": Session.op_undo,
    "resign": Session.op_resign,
    "draw": Session.op_draw,
    "load": Session.op_load,
    "goto": Session.op_goto,
    "play": Session.op_play,
    "analyse": Session.op_analyse,
    "stop": Session.op_stop,
    "watch": Session.op_watch,
    "unwatch": Session.op_unwatch,
    "replay": Session.op_replay,
    "review": Session.op_review,
    "review_stop": Session.op_review_stop,
}
"""Each op's handler, by name: the names are :data:`camelpy.gui.messages.OPS`'s, and each handler takes
that op's definition."""


class _ReviewStopped(Exception):
    """Raised by a review's progress report when it should stop: the batch ends with it."""


def _no_engine() -> None:
    """A review's engine: none (:func:`camelpy.review` searches with a batch of its own)."""
    return None


def error_text(err: BaseException) -> str:
    """*err* as an ``error`` message says it (a :exc:`KeyError`'s key without its quotes).

    >>> error_text(KeyError("no such game"))
    'no such game'
    """
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
    return text or type(err).__name__


class _Feed:
    """One watched folder: its :class:`MatchWatch`, the pages following it, and the polling task."""

    def __init__(self, folder: str) -> None:
        self.watch = MatchWatch(folder)
        self.sessions: set[Session] = set()
        self.task: asyncio.Task[None] | None = None

        self.skipped = 0

    async def run(self) -> None:
        while self.sessions:
            await asyncio.sleep(WATCH_POLL_S)
            self.poll()

    def poll(self) -> None:
        """Reads what is new and sends it; never raises (the feed goes on whatever the files hold)."""
        try:
            events = self.watch.poll()
        except Exception:  # a bug of ours: the feed goes on
            log.exception("watch poll failed")
            events = []
        self.publish(events)

    def publish(self, events: list[dict[str, Any]]) -> None:
        if not events and self.watch.skipped == self.skipped:
            return
        self.skipped = self.watch.skipped
        message: WatchEventsMessage = {
            "type": "watch_events",
            "folder": str(self.watch.folder),
            "events": events,
            "skipped": self.skipped,
        }
        text = json.dumps(message)
        for session in list(self.sessions):
            for page in list(session.pages):
                page.send_text(text)


class Hub:
    """All sessions and watched folders of one server."""

    def __init__(self, *, watch: Sequence[str | Path] = (), watch_roots: Sequence[str | Path] = ()) -> None:
        self.sessions: collections.OrderedDict[str, Session] = collections.OrderedDict()
        self.feeds: dict[str, _Feed] = {}
        self.watch_folders = tuple(_resolved(folder) for folder in watch)
        self.watch_roots = tuple(_resolved(root) for root in watch_roots)
        self.default_watch = str(self.watch_folders[0]) if self.watch_folders else None
        self.sockets = 0
        self.session_sockets: collections.Counter[str] = collections.Counter()
        self.search_slots = SearchSlots(MAX_SEARCHES)
        self.review_slots = SearchSlots(MAX_REVIEWS, "reviews")
        self.waiting: set[Session] = set()
        self.parses = asyncio.Semaphore(MAX_PARSES)
        self._tracers: dict[str, Any] = {}

    def watchable(self) -> dict[str, list[str]]:
        """What the pages may watch: ``folders`` (``--watch``), ``roots`` (``--watch-root``: any folder
        below), and ``below``: the folders directly below each root (at most :data:`MAX_LISTED` each),
        offered in the folder box."""
        below: list[str] = []
        for root in self.watch_roots:
            with contextlib.suppress(OSError), os.scandir(root) as entries:
                found = sorted(entry.path for entry in entries if entry.is_dir() and entry.name[0] != ".")
                below.extend(found[:MAX_LISTED])
        return {
            "folders": [str(folder) for folder in self.watch_folders],
            "roots": [str(root) for root in self.watch_roots],
            "below": below,
        }

    def allowed_folder(self, folder: str) -> Path:
        """*folder* (resolved) when the server may watch it: a ``--watch`` folder or one below a
        ``--watch-root``.

        :raises: :exc:`ValueError` naming the allowed folders otherwise; the same message whether or
            not *folder* exists.
        """
        path = _resolved(folder)
        if path in self.watch_folders or any(path.is_relative_to(root) for root in self.watch_roots):
            return path
        named = [quote(str(f)) for f in self.watch_folders] + [
            f"below {quote(str(r))}" for r in self.watch_roots
        ]
        if not named:
            raise ValueError(
                f"cannot watch {quote(folder)}: this camelpy gui watches no folder "
                "(start it with --watch FOLDER or --watch-root DIR)"
            )
        raise ValueError(
            f"cannot watch {quote(folder)}: this camelpy gui watches only the folders it was started "
            f"with (--watch, --watch-root): {', '.join(named)}"
        )

    def search_freed(self) -> None:
        """A search ended: a game whose engine was refused a slot (and has a page) thinks now."""
        waiting, self.waiting = self.waiting, set()
        for session in waiting:
            if self.sessions.get(session.id) is session:
                session._changed()

    def searchers(self) -> dict[str, Searcher]:
        """A session's engines for one task (its game, its analysis): one per game, each made when
        first needed, taking one of :attr:`search_slots` while it searches."""
        slots, on_free = self.search_slots, self.search_freed
        return {
            name: Searcher(functools.partial(variant.engine, GUI_HASH_MB), slots=slots, on_free=on_free)
            for name, variant in VARIANTS.items()
        }

    def trace(self, variant: Variant, board: Any) -> str:
        """The evaluation's terms for *board* (:meth:`~camelpy.gui.variants.Variant.trace`: for chess, an
        engine of the server's own that never searches, so this never waits)."""
        if variant.name not in self._tracers:
            self._tracers[variant.name] = variant.tracer()
        return variant.trace(board, self._tracers[variant.name])

    async def session(self, session_id: str) -> Session:
        """The session called *session_id*, made if new (dropping the oldest idle one at
        :data:`MAX_SESSIONS`).

        :raises: :exc:`Busy` for a new session when :data:`MAX_SESSIONS` all have a page.
        """
        session = self.sessions.get(session_id)
        if session is None:
            while len(self.sessions) >= MAX_SESSIONS:
                idle = next((s for s in self.sessions.values() if not self.session_sockets[s.id]), None)
                if idle is None:
                    raise Busy(
                        f"the server holds {len(self.sessions)} sessions, each with a page open: the most"
                    )
                del self.sessions[idle.id]
                self.waiting.discard(idle)
                await idle.close()
            session = Session(self, session_id)
            session.watching = self.default_watch
            self.sessions[session_id] = session
        self.sessions.move_to_end(session_id)
        return session

    def subscribe(self, session: Session, folder: str, page: Page) -> None:
        """*page* (a page of *session*) follows *folder*: it gets the state so far at once."""
        key = str(Path(folder).expanduser().resolve())
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = _Feed(folder)
        if feed.watch.folder.is_dir():
            feed.publish(feed.watch.poll())  # the others get what is new; the snapshot includes it
        feed.sessions.add(session)
        page.send({"type": "watch_snapshot", "watch": feed.watch.snapshot()})
        if feed.task is None or feed.task.done():
            feed.task = asyncio.ensure_future(feed.run())

    def unsubscribe(self, session: Session) -> None:
        """*session* follows no folder."""
        for key, feed in list(self.feeds.items()):
            feed.sessions.discard(session)
            if not feed.sessions:
                if feed.task is not None:
                    feed.task.cancel()
                del self.feeds[key]

    async def close(self) -> None:
        """Stops every search."""
        for session in list(self.sessions.values()):
            await session.close()


def _resolved(folder: str | Path) -> Path:
    """*folder* made absolute with its links followed (``..`` and links cannot lead out of a root).

    :raises: :exc:`ValueError` for a path that cannot be resolved (a loop of links).
    """
    try:
        return Path(folder).resolve()
    except (OSError, RuntimeError) as err:
        raise ValueError(f"cannot resolve {quote(str(folder))}: {err}") from None

"""The ``camelpy gui`` server: a Starlette application on uvicorn, one WebSocket per browser tab.

The page is hand-written HTML, CSS and JavaScript from this package's ``static`` folder; the pieces are
python-chess's SVG pieces (:func:`chess.svg.piece`). Everything else goes over
``/ws?session=ID&token=T``, as JSON objects: the page sends *ops*, the server sends *messages*.

Ops (page → server), each ``{"op": name, …}``:

- ``new_game`` (``variant`` (``chess`` or ``minichess``), ``fen``, ``chess960`` (a position number,
  ``-1`` for a random one), ``human`` (``white``/``black``/``both``), ``strength`` (``{"kind",
  "value"}``), ``clock`` (``{"base", "inc"}`` seconds or ``null``)), ``move`` (``uci``: from-square
  and to-square, with the promotion letter), ``undo``, ``resign``, ``draw``;
- ``load`` (``text``: a FEN or a PGN; ``variant``: ``minichess`` for its one-line form), ``goto``
  (``ply``), ``play`` (``moves``: UCI moves played on the analysis board from the ply on show),
  ``analyse`` (``multipv``), ``stop``;
- ``watch`` (``folder``: one the server was started with, ``--watch``, or below a ``--watch-root``),
  ``unwatch``, ``replay`` (``id``: a finished game of the folder watched).

Messages (server → page), each ``{"type": name, …}``: ``hello`` (levels, games, version, and
``watchable``: the folders the page may watch, :meth:`Hub.watchable`), ``game`` (the game's
:meth:`~camelpy.gui.play.Game.view` and whether the engine is thinking), ``engine_info`` (the engine's
search while it thinks: depth, score from White's side, PV in SAN, nodes), ``line`` (the analysis
board, its moves and the evaluation's terms), ``analysis`` (the MultiPV lines), ``watch_snapshot``,
``watch_events`` (with ``skipped``: the lines of the folder's files passed over so far), ``replay``
and ``error`` (``op``, ``message``: bad input or a cap reached, shown on the page).

Each tab has a session, named by the page (kept in the tab's ``sessionStorage``), holding its game, its
analysis board and the folder it watches: a reload or a dropped socket reconnects to it and loses
nothing. A game's engine keeps thinking for :data:`ORPHAN_SEARCH_S` while no page is connected (and
starts again when one comes back); an analysis stops when the last page of its session goes. Searches
run in threads of their own (one engine per session and task), so the event loop never waits on one;
a finished search's result is taken only if nothing changed the game meanwhile.

Safe by default (``docs/security.md``), as Jupyter's server is. It listens on 127.0.0.1. Every page
and socket must show the run's secret token (``secrets.token_urlsafe``, printed in the address at
start: ``http://127.0.0.1:PORT/?token=…``; the page passes it on to ``/ws``). The ``Host`` header
must name the bound address (a loopback name, ``--host``, or an ``--allow-origin`` host:
Starlette's :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`), which defeats DNS
rebinding; a socket's ``Origin`` must be the page's own (its host and port those of ``Host``) or one
given with ``--allow-origin``, which defeats cross-site WebSocket hijacking. Only folders named at
start are watched (``--watch``, ``--watch-root``). Each thing one client can make the server do has
a named cap below (sockets, sessions, searches, message size and nesting, text and line lengths, a
search left without a page); going past one gets an ``error`` message (a socket beyond a cap: an
``error``, then a close with code 1013), and the socket stays open for every malformed message. A
pasted PGN is parsed in a thread, off the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import hmac
import json
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import urlsplit

import chess
import chess.engine
import chess.svg

import camelpy
from camelpy import minichess
from camelpy._args import int_arg, shown
from camelpy._quote import quote
from camelpy.gui.boards import score_view
from camelpy.gui.bounded import parse_json
from camelpy.gui.lines import MAX_PLIES, MAX_TEXT, Line, load_text
from camelpy.gui.play import LEVELS, Clock, Game, GameSettings, Strength
from camelpy.gui.variants import MINICHESS, VARIANTS
from camelpy.gui.watch import MatchWatch, replay

if TYPE_CHECKING:  # the optional extra is imported when the server starts (create_app, serve)
    import uvicorn
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

__all__ = [
    "DEFAULT_PORT",
    "MISSING_EXTRA",
    "Access",
    "Busy",
    "Hub",
    "add_arguments",
    "create_app",
    "main",
    "make_server",
    "serve",
]

DEFAULT_PORT = 8765
"""The port ``camelpy gui`` listens on unless told (8000 and 8080 are often taken by other servers)."""

GUI_HASH_MB = 16
"""Each session's engines' hash tables: ample for a move or an analysis at human pace."""

MAX_SESSIONS = 32
"""Sessions kept (each up to two engines of :data:`GUI_HASH_MB`); the least recently used one without
a page connected goes first, and a new one is refused while every session has a page (60 sessions
took the server from 60 MB to 2 GB)."""

MAX_SOCKETS = 64
"""WebSockets connected at once over the whole server (each holds a task and an outbox): one person's
tabs need a handful."""

MAX_SOCKETS_PER_SESSION = 4
"""WebSockets of one session at once: a tab, its reload overlapping the old socket, a duplicated tab."""

MAX_SEARCHES = 4
"""Searches running at once over the whole server (games' and analyses'), each a thread taking a core:
a search beyond it is refused with an ``error`` (a game's engine moves once one ends)."""

MAX_MESSAGE = 256 * 1024
"""The longest message a page may send, in bytes (uvicorn's ``ws_max_size``, which closes the socket
with 1009) and in characters (checked again by the handler, which answers an ``error``): a PGN of
:data:`~camelpy.gui.lines.MAX_TEXT` characters fits with room for JSON's escapes."""

MAX_JSON_DEPTH = 8
"""How deeply a page's message may nest: the ops nest three deep; deeper gets an ``error`` before it
can exhaust the recursion limit (which dropped the socket)."""

MAX_PARSES = 2
"""Pasted texts (``load``) parsed at once, each in a thread off the event loop: more would take every
core from the searches and the loop."""

ORPHAN_SEARCH_S = 10.0
"""How long a game's engine goes on thinking with no page of its session connected (a reload takes a
second); then it stops, and starts again when a page comes back (a game at an hour a move kept a core
busy for the hour after its tab closed)."""

MAX_CONNECTIONS = 2 * MAX_SOCKETS
"""Connections uvicorn serves at once (its ``limit_concurrency``; beyond, it answers 503): room for
:data:`MAX_SOCKETS` sockets and the page's files."""

MAX_LISTED = 200
"""Folders listed below each ``--watch-root`` (the page offers them to watch); others can be typed."""

TOKEN_BYTES = 32
"""Random bytes in the per-run token (as Jupyter's): unguessable."""

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names a ``Host`` header may give for this machine, whatever the address listened on."""

BUSY_CLOSE = 1013
"""The WebSocket close code for a socket beyond a cap ("try again later")."""

POLICY_CLOSE = 1008
"""The WebSocket close code for a socket refused for its origin or token (before it is accepted:
the client sees HTTP 403)."""

OUTBOX_LIMIT = 2_000
"""Messages waiting for one page before it counts as stuck and its socket is closed (it reconnects
and gets the state afresh)."""

WATCH_POLL_S = 0.1
"""How often a watched folder's events file is read: moves appear within a tenth of a second."""

MATE_CP = 100_000
"""The engine's score for a won (lost) game, in centipawns, for draw offers."""

MINI_INC_SHARE = 0.8
"""The share of the increment MiniChess's engine spends on top of its even share of the clock."""

MINI_MAX_SHARE = 0.5
"""The most of its clock MiniChess's engine spends on one move."""

STOP_POLL_S = 0.005
"""How often a search being stopped is asked again until its thread has ended."""

FLAG_GRACE_S = 0.05
"""How long after a clock should reach zero the server looks, so that the flag falls after it."""

LISTEN_BACKLOG = 2048
"""Connections the listening socket holds before they are accepted (uvicorn's own default)."""

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a page may call its session."""

STATIC = Path(__file__).parent / "static"

_PIECE_FILE = re.compile(r"([wb])([KQRBNP])\.svg")

log = logging.getLogger("camelpy.gui")

MISSING_EXTRA = "camelpy gui needs Starlette and uvicorn: pip install 'camelpy[gui]'"
"""What ``camelpy gui`` says (as ``error: …``) where the ``gui`` extra is not installed."""

NO_TOKEN = (
    "camelpy gui: this page needs the token of the address camelpy gui printed when it started "
    "(http://HOST:PORT/?token=...). Open that address."
)
"""The body of the 403 answer to a page request without the right token."""


class Busy(ValueError):
    """A cap is reached: what was asked is refused with an ``error`` message, not queued."""


class SearchSlots:
    """The searches running at once over the whole server, at most *limit*: a slot is taken on the
    event loop as a search starts and given back by the search's own thread as it ends (so a search
    whose thread has ended never holds one)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.running = 0
        self._lock = threading.Lock()

    def take(self) -> None:
        """Takes a slot.

        :raises: :exc:`Busy` when all :attr:`limit` are taken.
        """
        with self._lock:
            if self.running >= self.limit:
                raise Busy(
                    f"the server is running {self.running} searches, the most it runs at once; "
                    "try again when one ends"
                )
            self.running += 1

    def give(self) -> None:
        """Gives a slot back (from any thread)."""
        with self._lock:
            self.running -= 1


class Client:
    """One connected page: its socket and the messages waiting for it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.stuck = False

    def send_text(self, text: str) -> None:
        """Queues an already serialised message; a page too far behind is dropped."""
        if self.stuck:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.stuck = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        """Queues a message."""
        self.send_text(json.dumps(message))

    async def pump(self) -> None:
        """Sends the queued messages until told to stop (``None``)."""
        while True:
            text = await self.outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close()
                return
            await self.websocket.send_text(text)


def _chess_engine() -> camelpy.Engine:
    return camelpy.Engine(hash_mb=GUI_HASH_MB)


def _mini_engine() -> minichess.Searcher:
    return minichess.Searcher(hash_mb=GUI_HASH_MB)


class Searcher:
    """One engine (made by *make* when first needed) and at most one search on it, in a thread of its
    own. A new search first stops the previous one and waits for its thread: the core resets its stop
    flag when a search starts, so two searches must never overlap on one engine. An engine without a
    ``stop`` method (MiniChess's) is stopped by its search's reports, which look at the search's
    *cancel* event."""

    def __init__(
        self,
        make: Callable[[], Any] = _chess_engine,
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


def _info_view(board: chess.Board, info: chess.engine.InfoDict) -> dict[str, Any] | None:
    """An engine report as the page shows it (``None`` for a report without a line)."""
    pv = info.get("pv")
    score = info.get("score")
    if not pv or score is None:
        return None
    sans = []
    replay_board = board.copy(stack=False)
    for move in pv:
        if not replay_board.is_legal(move):
            break
        sans.append(replay_board.san(move))
        replay_board.push(move)
    return {
        "multipv": info.get("multipv", 1),
        "depth": info.get("depth"),
        "score": score_view(score),
        "pv": [m.uci() for m in pv[: len(sans)]],
        "sans": sans,
        "nodes": info.get("nodes"),
        "nps": info.get("nps"),
        "time": info.get("time"),
    }


class _Halted(Exception):
    """Raised in a MiniChess search's report to stop it."""


@dataclasses.dataclass(frozen=True)
class _Played:
    """The engine's move in a game: from-square and to-square, the PGN comment, its score."""

    uci: str
    comment: str | None
    cp: int | None


def _mini_info_view(board: minichess.Board, info: minichess.SearchInfo) -> dict[str, Any]:
    """A MiniChess search report as the page shows it (scores from White's side)."""
    sign = 1 if board.turn else -1
    if info.win_in is not None:
        mate = sign * info.win_in
        score = {"cp": None, "mate": mate, "text": f"#{mate}"}
    else:
        cp = sign * (info.score or 0)
        score = {"cp": cp, "mate": None, "text": f"{cp / 100:+.2f}"}
    replay, sans, ucis = board.copy(), [], []
    for move in info.pv:
        if not replay.is_legal(move):
            break
        sans.append(MINICHESS.san(replay, move))
        ucis.append(MINICHESS.uci(replay, move))
        replay.push(move)
    return {
        "multipv": 1,
        "depth": info.depth,
        "score": score,
        "pv": ucis,
        "sans": sans,
        "nodes": info.nodes,
        "nps": None,
        "time": info.time,
    }


def _mini_trace(board: minichess.Board) -> str:
    """MiniChess's evaluation terms as a table: weight × feature (White's count minus Black's)."""
    evaluation = minichess.evaluate(board)
    rows = [f"{'term':<14}{'weight':>8}{'feature':>9}{'product':>9}"]
    for term in evaluation.terms:
        rows.append(f"{term.name:<14}{term.weight:>8}{term.feature:>9}{term.weight * term.feature:>9}")
    side = "White" if board.turn else "Black"
    rows.append(f"evaluation for the side to move ({side}): {evaluation.value}")
    rows.append("(the count term is scaled by ply / 50; tempo counts for the side to move)")
    return "\n".join(rows)


def _mini_seconds(board: minichess.Board, limit: chess.engine.Limit) -> float | None:
    """MiniChess's time for a move: the limit's, or with a clock an even share of what is left over
    the moves the game can still last (it ends at ply :data:`camelpy.minichess.MAX_PLIES`), plus most
    of the increment."""
    if limit.time is not None:
        return limit.time
    left = limit.white_clock if board.turn else limit.black_clock
    if left is None:
        return None
    inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
    moves_left = max(1, (minichess.MAX_PLIES - board.ply + 1) // 2)
    return max(0.001, min(left / moves_left + inc * MINI_INC_SHARE, left * MINI_MAX_SHARE))


class Session:
    """One tab's game, analysis board and watched folder, and the pages showing them."""

    def __init__(self, hub: Hub, session_id: str) -> None:
        self.hub = hub
        self.id = session_id
        self.clients: set[Client] = set()
        self.game: Game | None = None
        slots, on_free = hub.search_slots, hub.search_freed
        self.player = Searcher(_chess_engine, slots=slots, on_free=on_free)
        self.mini_player = Searcher(_mini_engine, slots=slots, on_free=on_free)
        self.engine_cp: int | None = None
        self.thinking = False
        self.line = Line()
        self.multipv = 1
        self.analyser = Searcher(_chess_engine, slots=slots, on_free=on_free)
        self.mini_analyser = Searcher(_mini_engine, slots=slots, on_free=on_free)
        self.analysing = False
        self.analysis: dict[int, dict[str, Any]] = {}
        self.watching: str | None = None
        self._flag_timer: asyncio.TimerHandle | None = None
        self._orphan_timer: asyncio.TimerHandle | None = None

    # -- sending

    def broadcast(self, message: dict[str, Any]) -> None:
        """Sends *message* to every page of the session."""
        text = json.dumps(message)
        for client in list(self.clients):
            client.send_text(text)

    def game_message(self) -> dict[str, Any]:
        """The ``game`` message."""
        view = self.game.view(time.monotonic()) if self.game is not None else None
        return {"type": "game", "game": view, "thinking": self.thinking}

    def line_message(self) -> dict[str, Any]:
        """The ``line`` message: the analysis board and the evaluation's terms there."""
        board = self.line.board()
        if board.is_game_over():
            trace = ""
        elif self.line.variant == "minichess":
            trace = _mini_trace(board)
        else:
            trace = self.hub.eval_trace(board)
        return {"type": "line", "line": self.line.view(), "trace": trace}

    def analysis_message(self) -> dict[str, Any]:
        """The ``analysis`` message: the MultiPV lines, best first."""
        lines = [self.analysis[k] for k in sorted(self.analysis)]
        return {"type": "analysis", "running": self.analysing, "multipv": self.multipv, "lines": lines}

    async def attach(self, client: Client) -> None:
        """A page connects: it gets the whole state (and a game's engine stopped for want of a page
        starts thinking again)."""
        self.clients.add(client)
        if self._orphan_timer is not None:
            self._orphan_timer.cancel()
            self._orphan_timer = None
        client.send(
            {
                "type": "hello",
                "version": camelpy.__version__,
                "session": self.id,
                "levels": {name: list(value) for name, value in LEVELS.items()},
                "variants": {variant.name: variant.title for variant in VARIANTS.values()},
                "watchable": self.hub.watchable(),
            }
        )
        client.send(self.game_message())
        client.send(self.line_message())
        client.send(self.analysis_message())
        if self.watching is not None:
            self.hub.subscribe(self, self.watching, client)
        if self.game is not None and self.game.engine_to_move() and not self.thinking:
            self._changed()

    async def detach(self, client: Client) -> None:
        """A page goes; with the last one, the analysis stops, a game's engine may go on with its
        move for :data:`ORPHAN_SEARCH_S`, and the engines not searching are dropped (a session
        without a page costs no hash table)."""
        self.clients.discard(client)
        if not self.clients:
            if self.analysing:
                self.analysing = False
                await self._halt_analysis()
            self.hub.unsubscribe(self)
            if self.thinking and self._orphan_timer is None:
                loop = asyncio.get_running_loop()
                self._orphan_timer = loop.call_later(ORPHAN_SEARCH_S, self._on_orphaned)
            self._release_engines()

    def _release_engines(self) -> None:
        if not self.clients:
            for searcher in (self.player, self.mini_player, self.analyser, self.mini_analyser):
                searcher.release()

    def _on_orphaned(self) -> None:
        """No page came back in time: the game's engine stops (it starts again on :meth:`attach`)."""
        self._orphan_timer = None
        game = self.game
        if self.clients or game is None or not self.thinking:
            return
        self.thinking = False
        asyncio.ensure_future(self._halt_and_release(self._searcher(game)))

    async def _halt_and_release(self, searcher: Searcher) -> None:
        await searcher.halt()
        self._release_engines()

    async def close(self) -> None:
        """Stops everything (the session is dropped)."""
        self.analysing = False
        await self._halt_analysis()
        await self.player.halt()
        await self.mini_player.halt()
        for timer in (self._flag_timer, self._orphan_timer):
            if timer is not None:
                timer.cancel()
        self.hub.unsubscribe(self)

    # -- ops

    async def handle(self, client: Client, message: object) -> None:
        """Carries out one op; bad input gets an ``error`` message for that page."""
        op = message.get("op") if isinstance(message, dict) else None
        handler = _OPS.get(op) if isinstance(op, str) else None
        try:
            if handler is None:
                raise ValueError(f"unknown op {shown(op)}; expected one of {', '.join(sorted(_OPS))}")
            assert isinstance(message, dict)
            await handler(self, client, message)
        except (ValueError, TypeError, KeyError) as err:
            client.send({"type": "error", "op": op, "message": _message(err)})

    async def op_new_game(self, client: Client, msg: dict[str, Any]) -> None:
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
        for searcher in (self.player, self.mini_player):
            await searcher.halt()
            searcher.new_game()
        self.thinking = False
        self.engine_cp = None
        self.game = game
        self._changed()

    async def op_move(self, client: Client, msg: dict[str, Any]) -> None:
        game = self._game()
        if game.engine_to_move():
            raise ValueError("wait for camelpy's move: it is thinking")
        uci = msg.get("uci")
        if not isinstance(uci, str):
            raise TypeError(f"uci must be a string, got {shown(uci)}")
        game.push(uci, now=time.monotonic())
        self._changed()

    async def op_undo(self, client: Client, msg: dict[str, Any]) -> None:
        game = self._game()
        await self._searcher(game).halt()
        self.thinking = False
        try:
            game.undo(now=time.monotonic())
        finally:
            self._changed()

    async def op_resign(self, client: Client, msg: dict[str, Any]) -> None:
        game = self._game()
        game.resign()
        await self._searcher(game).halt()
        self.thinking = False
        self._changed()

    async def op_draw(self, client: Client, msg: dict[str, Any]) -> None:
        game = self._game()
        if game.engine_to_move():
            raise ValueError("offer a draw on your move")
        accepted = game.offer_draw(self.engine_cp)
        if not accepted:
            client.send({"type": "notice", "message": "camelpy declines the draw"})
        self._changed()

    async def op_load(self, client: Client, msg: dict[str, Any]) -> None:
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

    async def op_goto(self, client: Client, msg: dict[str, Any]) -> None:
        self.line = self.line.goto(msg.get("ply"))  # type: ignore[arg-type]  # Line.goto checks it
        await self._line_changed()

    async def op_play(self, client: Client, msg: dict[str, Any]) -> None:
        moves = msg.get("moves")
        if not isinstance(moves, list):
            raise TypeError(f"moves must be a list of UCI moves, got {shown(moves)}")
        if len(moves) > MAX_PLIES:
            raise ValueError(f"play at most {MAX_PLIES} moves at once, got {len(moves)}")
        self.line = self.line.play(moves)
        await self._line_changed()

    async def op_analyse(self, client: Client, msg: dict[str, Any]) -> None:
        multipv = msg.get("multipv", self.multipv)
        int_arg(multipv, "multipv", 1, camelpy.MAX_MULTIPV)
        self.multipv = multipv
        self.analysing = True
        await self._analyse()

    async def op_stop(self, client: Client, msg: dict[str, Any]) -> None:
        self.analysing = False
        await self._halt_analysis()
        self.broadcast(self.analysis_message())

    async def op_watch(self, client: Client, msg: dict[str, Any]) -> None:
        folder = msg.get("folder")
        if not isinstance(folder, str) or not folder.strip():
            raise ValueError(f"give a match's --out folder to watch, got {shown(folder)}")
        allowed = self.hub.allowed_folder(folder.strip())
        MatchWatch(allowed).check()
        self.hub.unsubscribe(self)
        self.watching = str(allowed)
        for page in self.clients:
            self.hub.subscribe(self, self.watching, page)

    async def op_unwatch(self, client: Client, msg: dict[str, Any]) -> None:
        self.hub.unsubscribe(self)
        self.watching = None

    async def op_replay(self, client: Client, msg: dict[str, Any]) -> None:
        if self.watching is None:
            raise ValueError("watch a match folder first")
        game_id = msg.get("id")
        if not isinstance(game_id, str):
            raise TypeError(f"id must be a string, got {shown(game_id)}")
        game = await asyncio.to_thread(replay, self.watching, game_id)
        client.send({"type": "replay", "game": game})

    # -- the game's engine

    def _game(self) -> Game:
        if self.game is None:
            raise ValueError("start a game first")
        return self.game

    def _changed(self) -> None:
        """After any change to the game: tell the pages, start the engine if it is its move, and
        watch the clock of the side to move."""
        game = self.game
        if game is not None and game.engine_to_move() and not self.thinking and self.clients:
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
        loop = asyncio.get_running_loop()

        def post(generation: int, view: dict[str, Any] | None) -> None:
            if view is not None:
                loop.call_soon_threadsafe(self._on_engine_info, generation, view)

        def play_chess(engine: camelpy.Engine, generation: int, cancel: threading.Event) -> _Played | None:
            result = engine.play(board, limit, info=lambda info: post(generation, _info_view(board, info)))
            if result.move is None:
                return None
            score = result.info.get("score")
            if score is None:
                return _Played(result.move.uci(), None, None)
            comment = f"{score_view(score)['text']}/{result.info.get('depth', 0)}"
            return _Played(result.move.uci(), comment, score.relative.score(mate_score=MATE_CP))

        def play_minichess(
            engine: minichess.Searcher, generation: int, cancel: threading.Event
        ) -> _Played | None:
            def report(info: minichess.SearchInfo) -> None:
                if cancel.is_set():
                    raise _Halted
                post(generation, _mini_info_view(board, info))

            seconds = _mini_seconds(board, limit)
            result = engine.search(
                board, depth=limit.depth, nodes=limit.nodes, time=seconds, on_iteration=report
            )
            if result.move is None:
                return None
            info = result.info
            view = _mini_info_view(board, info)
            cp: int | None
            if info.win_in is not None:
                cp = MATE_CP if info.win_in > 0 else -MATE_CP
            else:
                cp = info.score
            return _Played(MINICHESS.uci(board, result.move), f"{view['score']['text']}/{info.depth}", cp)

        def done(played: _Played | None, error: BaseException | None) -> None:
            self.thinking = False
            if not self.clients:  # its move is made: no page keeps the engine (its search is over)
                self._searcher(game).engine = None
            if self.game is not game or error is not None or played is None:
                if error is not None:
                    self.broadcast({"type": "error", "op": "engine", "message": _message(error)})
                self._changed()
                return
            self.engine_cp = played.cp
            try:
                game.push(played.uci, now=time.monotonic(), score=played.comment)
            except ValueError as err:
                self.broadcast({"type": "error", "op": "engine", "message": _message(err)})
            self._changed()

        work = play_minichess if game.variant is MINICHESS else play_chess
        try:
            await self._searcher(game).start(work, done)
        except Busy as err:  # it thinks once a search ends (Hub.search_freed)
            self.thinking = False
            self.hub.waiting.add(self)
            self.broadcast({"type": "error", "op": "engine", "message": f"camelpy waits to think: {err}"})
            self.broadcast(self.game_message())
        except Exception:
            self.thinking = False
            raise

    def _searcher(self, game: Game) -> Searcher:
        return self.mini_player if game.variant is MINICHESS else self.player

    def _on_engine_info(self, generation: int, view: dict[str, Any]) -> None:
        game = self.game
        if game is not None and generation == self._searcher(game).generation and self.thinking:
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
            asyncio.ensure_future(self._searcher(game).halt())
            self.thinking = False
            self.broadcast(self.game_message())
        else:
            self._arm_flag()

    # -- the analysis engine

    async def _line_changed(self) -> None:
        self.analysis.clear()
        self.broadcast(self.line_message())
        if self.analysing:
            await self._analyse()
        else:
            self.broadcast(self.analysis_message())

    async def _halt_analysis(self) -> None:
        for searcher in (self.analyser, self.mini_analyser):
            await searcher.halt()

    async def _analyse(self) -> None:
        board = self.line.board()
        self.analysis.clear()
        if board.is_game_over():
            self.analysing = False
            await self._halt_analysis()
            self.broadcast(self.analysis_message())
            return
        loop = asyncio.get_running_loop()

        def post(generation: int, view: dict[str, Any] | None) -> None:
            if view is not None:
                loop.call_soon_threadsafe(self._on_analysis_info, generation, view)

        def search_chess(engine: camelpy.Engine, generation: int, cancel: threading.Event) -> object:
            multipv = min(self.multipv, board.legal_moves.count())
            return engine.search(
                board, multipv=multipv, info=lambda info: post(generation, _info_view(board, info))
            )

        def search_minichess(engine: minichess.Searcher, generation: int, cancel: threading.Event) -> object:
            def report(info: minichess.SearchInfo) -> None:
                if cancel.is_set():
                    raise _Halted
                post(generation, _mini_info_view(board, info))

            return engine.search(board, on_iteration=report)  # one line: its search has no MultiPV

        def done(result: object, error: BaseException | None) -> None:
            self.analysing = False
            if error is not None:
                self.broadcast({"type": "error", "op": "analyse", "message": _message(error)})
            self.broadcast(self.analysis_message())

        try:
            if self.line.variant == "minichess":
                await self.analyser.halt()
                await self.mini_analyser.start(search_minichess, done)
            else:
                await self.mini_analyser.halt()
                await self.analyser.start(search_chess, done)
        except Busy:
            self.analysing = False
            self.broadcast(self.analysis_message())
            raise
        self.broadcast(self.analysis_message())

    def _on_analysis_info(self, generation: int, view: dict[str, Any]) -> None:
        searcher = self.mini_analyser if self.line.variant == "minichess" else self.analyser
        if generation != searcher.generation or not self.analysing:
            return
        self.analysis[view["multipv"]] = view
        self.broadcast(self.analysis_message())


_OPS: dict[str, Callable[[Session, Client, dict[str, Any]], Any]] = {
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
}


def _message(err: BaseException) -> str:
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
        message = {
            "type": "watch_events",
            "folder": str(self.watch.folder),
            "events": events,
            "skipped": self.skipped,
        }
        text = json.dumps(message)
        for session in list(self.sessions):
            for client in list(session.clients):
                client.send_text(text)


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
        self.waiting: set[Session] = set()
        self.parses = asyncio.Semaphore(MAX_PARSES)
        self._trace_engine: camelpy.Engine | None = None

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

    def eval_trace(self, board: chess.Board) -> str:
        """The classical evaluation's terms for *board* (an engine of its own that never searches, so
        this never waits)."""
        if self._trace_engine is None:
            self._trace_engine = camelpy.Engine(hash_mb=1)
        return self._trace_engine.eval_trace(board)

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

    def subscribe(self, session: Session, folder: str, client: Client) -> None:
        """*client* (a page of *session*) follows *folder*: it gets the state so far at once."""
        key = str(Path(folder).expanduser().resolve())
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = _Feed(folder)
        if feed.watch.folder.is_dir():
            feed.publish(feed.watch.poll())  # the others get what is new; the snapshot includes it
        feed.sessions.add(session)
        client.send({"type": "watch_snapshot", "watch": feed.watch.snapshot()})
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


@dataclasses.dataclass(frozen=True)
class Access:
    """Who may use the server: pages and sockets showing *token*, sent to a ``Host`` in *hosts*,
    sockets from the page's own origin or one of *origins*.

    >>> access = Access.make(token="t", host="127.0.0.1", allow_origins=["https://chess.example.org"])
    >>> access.hosts
    ('127.0.0.1', 'localhost', '[::1]', 'chess.example.org')
    >>> access.origin_ok("http://127.0.0.1:8765", "127.0.0.1:8765")
    True
    >>> access.origin_ok("http://evil.example", "127.0.0.1:8765")
    False
    >>> access.origin_ok("https://chess.example.org", "127.0.0.1:8765")
    True

    :raises: :exc:`ValueError` (from :meth:`make`) quoting an origin that is not ``scheme://host[:port]``.
    """

    token: str
    """The per-run secret every page request and socket must show (``?token=…``)."""
    hosts: tuple[str, ...]
    """What a ``Host`` header may name (without its port; an IPv6 address in brackets)."""
    origins: frozenset[str]
    """Origins allowed besides the page's own (``--allow-origin``), as ``scheme://host[:port]``."""

    @classmethod
    def make(
        cls, *, token: str | None = None, host: str = "127.0.0.1", allow_origins: Sequence[str] = ()
    ) -> Access:
        """The access for a server listening on *host*: the loopback names, *host* itself (unless a
        wildcard such as ``0.0.0.0``), and the hosts of *allow_origins*; *token* ``None`` makes a new
        one."""
        origins = [_origin(origin) for origin in allow_origins]
        hosts = list(LOOPBACK_HOSTS)
        named = f"[{host}]" if ":" in host else host
        if host not in ("0.0.0.0", "::", "") and named.lower() not in hosts:
            hosts.append(named.lower())
        for origin in origins:
            name = urlsplit(origin).hostname or ""
            name = f"[{name}]" if ":" in name else name
            if name not in hosts:
                hosts.append(name)
        token = secrets.token_urlsafe(TOKEN_BYTES) if token is None else token
        return cls(token, tuple(hosts), frozenset(origins))

    def token_ok(self, given: str | None) -> bool:
        """Whether *given* is the token (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """Whether a socket with this ``Origin`` header, sent to this ``Host``, may connect: the
        page's own origin (its host and port are the ``Host``), or an allowed one. A client that is not
        a browser sends no origin and is left to the token."""
        if origin is None:
            return True
        if origin.lower() in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and host is not None and parts.netloc.lower() == host.lower()


def _origin(text: str) -> str:
    """An ``--allow-origin`` value checked and normalised (lower case, no trailing slash).

    :raises: :exc:`ValueError` quoting it when it is not ``http(s)://host[:port]``.
    """
    origin = text.strip().rstrip("/").lower()
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise ValueError(
            f"an origin is scheme://host[:port], such as https://chess.example.org, got {quote(text)}"
        )
    return origin


def create_app(
    *,
    watch: Sequence[str | Path] = (),
    watch_roots: Sequence[str | Path] = (),
    access: Access | None = None,
) -> Starlette:
    """The application: *watch* are the folders pages may watch (new pages follow the first,
    ``camelpy gui --watch``), *watch_roots* folders below which any may be watched (``--watch-root``),
    *access* who may connect (default: a new token, this machine's names); the token is
    ``app.state.access.token``.

    >>> app = create_app()
    >>> sorted(route.path for route in app.routes)
    ['/', '/pieces/{name}', '/static', '/ws']

    :raises: :exc:`ImportError` (:data:`MISSING_EXTRA`) without Starlette.
    """
    try:
        from starlette.applications import Starlette
        from starlette.middleware import Middleware
        from starlette.middleware.trustedhost import TrustedHostMiddleware
        from starlette.requests import Request
        from starlette.responses import FileResponse, PlainTextResponse, Response
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles
        from starlette.websockets import WebSocketDisconnect
    except ImportError as err:
        raise ImportError(f"{MISSING_EXTRA} ({err})") from None
    hub = Hub(watch=watch, watch_roots=watch_roots)
    access = access if access is not None else Access.make()

    async def index(request: Request) -> Response:
        if not access.token_ok(request.query_params.get("token")):
            return PlainTextResponse(NO_TOKEN, status_code=403)
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def piece(request: Request) -> Response:
        found = _PIECE_FILE.fullmatch(request.path_params["name"])
        if found is None:
            return Response("no such piece", status_code=404, media_type="text/plain")
        symbol = found[2] if found[1] == "w" else found[2].lower()
        svg = chess.svg.piece(chess.Piece.from_symbol(symbol))
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def refuse(websocket: WebSocket, message: str, code: int) -> None:
        """Accepts the socket only to say why it is closed."""
        await websocket.accept()
        await websocket.send_text(json.dumps({"type": "error", "op": None, "message": message}))
        await websocket.close(code=code)

    async def websocket_endpoint(websocket: WebSocket) -> None:
        origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
        if not access.origin_ok(origin, host) or not access.token_ok(websocket.query_params.get("token")):
            await websocket.close(code=POLICY_CLOSE)  # before accepting: HTTP 403
            return
        session_id = websocket.query_params.get("session", "")
        if not SESSION_ID.fullmatch(session_id):
            await refuse(websocket, f"bad session name {quote(session_id)}", POLICY_CLOSE)
            return
        if hub.sockets >= MAX_SOCKETS:
            await refuse(
                websocket, f"the server has {hub.sockets} pages connected, the most at once", BUSY_CLOSE
            )
            return
        if hub.session_sockets[session_id] >= MAX_SOCKETS_PER_SESSION:
            await refuse(
                websocket,
                f"this tab's session has {hub.session_sockets[session_id]} pages connected, the most",
                BUSY_CLOSE,
            )
            return
        hub.sockets += 1  # counted before anything is awaited, so that the caps hold exactly
        hub.session_sockets[session_id] += 1
        try:
            await serve_page(websocket, session_id)
        finally:
            hub.sockets -= 1
            hub.session_sockets[session_id] -= 1
            if not hub.session_sockets[session_id]:
                del hub.session_sockets[session_id]

    async def serve_page(websocket: WebSocket, session_id: str) -> None:
        """One page's socket, from its session's state to its last message."""
        try:
            session = await hub.session(session_id)
        except Busy as err:
            await refuse(websocket, str(err), BUSY_CLOSE)
            return
        await websocket.accept()
        client = Client(websocket)
        pump = asyncio.ensure_future(client.pump())
        await session.attach(client)
        try:
            while not pump.done():
                try:
                    event = await websocket.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if not isinstance(text, str):
                    client.send(
                        {"type": "error", "op": None, "message": "send text frames of JSON, not binary"}
                    )
                    continue
                try:
                    message = parse_json(text, max_length=MAX_MESSAGE, max_depth=MAX_JSON_DEPTH)
                except ValueError as err:
                    problem = "not JSON" if isinstance(err, json.JSONDecodeError) else str(err)
                    client.send({"type": "error", "op": None, "message": f"{problem}: {quote(text)}"})
                    continue
                try:
                    await session.handle(client, message)
                except Exception as err:  # a bug of ours: say so, keep serving
                    log.exception("op failed")
                    client.send({"type": "error", "op": None, "message": f"internal error: {err!r}"})
        finally:
            await session.detach(client)
            client.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await pump

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        await hub.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/pieces/{name}", piece),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", websocket_endpoint),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(access.hosts), www_redirect=False)],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.access = access
    return app


def make_server(app: Starlette) -> uvicorn.Server:
    """The uvicorn server for *app*, with the caps that belong to it (:data:`MAX_MESSAGE`,
    :data:`MAX_CONNECTIONS`); run it with ``server.run(sockets=[sock])``.

    :raises: :exc:`ImportError` (:data:`MISSING_EXTRA`) without uvicorn.
    """
    try:
        import uvicorn
    except ImportError as err:
        raise ImportError(f"{MISSING_EXTRA} ({err})") from None
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        ws="auto",
        ws_max_size=MAX_MESSAGE,
        limit_concurrency=MAX_CONNECTIONS,
    )
    return uvicorn.Server(config)


def serve(
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    *,
    watch: Sequence[str] = (),
    watch_roots: Sequence[str] = (),
    allow_origins: Sequence[str] = (),
    open_browser: bool = False,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serves the GUI until Ctrl-C; *ready* gets the page's address, with its token, once it listens.

    :raises: :exc:`ValueError` quoting the address when it cannot be listened on (a port in use), a
        watched folder that is not there, or a bad origin; :exc:`ImportError`
        (:data:`MISSING_EXTRA`) without Starlette and uvicorn.
    """
    access = Access.make(host=host, allow_origins=allow_origins)
    for folder in [*watch, *watch_roots]:
        MatchWatch(folder).check()
    app = create_app(watch=watch, watch_roots=watch_roots, access=access)
    server = make_server(app)
    int_arg(port, "port", 0, 65535)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, _, _, _, address = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # No Nagle delay: an engine report right after another message would otherwise wait for the
        # page's delayed ACK (40 ms measured). Accepted connections inherit the option.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)  # connections wait from now on, before uvicorn has started
    except OSError as err:
        raise ValueError(f"cannot listen on {quote(f'{host}:{port}')}: {err.strerror or err}") from None
    port = sock.getsockname()[1]
    shown_host = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(
        host, f"[{host}]" if ":" in host else host
    )
    url = f"http://{shown_host}:{port}/?token={access.token}"
    if watch:
        url += "#watch"
    if ready is not None:
        ready(url)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server.run(sockets=[sock])


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``camelpy gui``'s arguments."""
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; never 0.0.0.0 on a network "
        "you do not trust: see docs/security.md)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    p.add_argument(
        "--watch",
        metavar="FOLDER",
        action="append",
        default=[],
        help="a match or tournament --out folder the page may watch (repeatable); it opens on the "
        "Watch view following the first",
    )
    p.add_argument(
        "--watch-root",
        metavar="DIR",
        action="append",
        default=[],
        help="the page may watch any folder below DIR (repeatable); no other folder is ever read",
    )
    p.add_argument(
        "--allow-origin",
        metavar="ORIGIN",
        action="append",
        default=[],
        help="also accept pages served from ORIGIN, such as https://chess.example.org behind a "
        "reverse proxy (repeatable; its host is accepted as a Host too)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy gui``."""

    def ready(url: str) -> None:
        print(f"camelpy gui on {url} (Ctrl-C stops it)", flush=True)

    serve(
        args.host,
        args.port,
        watch=args.watch,
        watch_roots=args.watch_root,
        allow_origins=args.allow_origin,
        open_browser=not args.no_browser,
        ready=ready,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    parser = argparse.ArgumentParser(prog="camelpy gui")
    add_arguments(parser)
    sys.exit(main(parser.parse_args()))

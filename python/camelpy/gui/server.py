"""The ``camelpy gui`` command: the server's wiring (:func:`serve`) and its arguments.

The server is three modules: :mod:`camelpy.gui.transport` (the Starlette application, its HTTP routes
and each page's WebSocket: the access checks, the caps on sockets and messages, the framing),
:mod:`camelpy.gui.session` (each tab's game, analysis board and watched folder, and the handling of
each op) and :mod:`camelpy.gui.messages` (one definition per message kind, each way). The games come
from :mod:`camelpy.gui.variants`. This module's names from before the split (:func:`create_app`,
:func:`make_server`, :class:`Access`, :class:`Hub`, :exc:`Busy`, :data:`MISSING_EXTRA`) are those
modules' own.

Ops (page → server), each ``{"op": name, …}`` (:data:`camelpy.gui.messages.OPS`):

- ``new_game`` (``variant`` (``chess`` or ``minichess``), ``fen``, ``chess960`` (a position number,
  ``-1`` for a random one), ``human`` (``white``/``black``/``both``), ``strength`` (``{"kind",
  "value"}``), ``clock`` (``{"base", "inc"}`` seconds or ``null``)), ``move`` (``uci``: from-square
  and to-square, with the promotion letter), ``undo``, ``resign``, ``draw``;
- ``load`` (``text``: a FEN or a PGN; ``variant``: ``minichess`` for its one-line form), ``goto``
  (``ply``), ``play`` (``moves``: UCI moves played on the analysis board from the ply on show),
  ``analyse`` (``multipv``), ``stop``;
- ``watch`` (``folder``: one the server was started with, ``--watch``, or below a ``--watch-root``),
  ``unwatch``, ``replay`` (``id``: a finished game of the folder watched).
- ``review`` (``text``: a PGN; ``game``: which of its games, 1 for the first; ``nodes`` a position),
  ``review_stop``.

Messages (server → page), each ``{"type": name, …}`` (:data:`camelpy.gui.messages.MESSAGES`):
``hello`` (games with their levels, version, and ``watchable``: the folders the page may watch,
:meth:`Hub.watchable`), ``game`` (the game's :meth:`~camelpy.gui.play.Game.view` and whether the
engine is thinking), ``engine_info`` (the engine's search while it thinks: depth, score from White's
side, PV in SAN, nodes), ``line`` (the analysis board, its moves and the evaluation's terms),
``analysis`` (the MultiPV lines), ``watch_snapshot``, ``watch_events`` (with ``skipped``: the lines of
the folder's files passed over so far), ``replay``, ``review_progress`` (whether the tab's review runs,
its positions searched of all), ``review`` (the tab's last review, :mod:`camelpy.gui.review`),
``notice`` and ``error`` (``op``, ``message``: bad input or a cap reached, shown on the page).

Safe by default (``docs/security.md``), as Jupyter's server is: it listens on 127.0.0.1, and only
folders named at start are watched (``--watch``, ``--watch-root``); the token, the ``Host`` and
``Origin`` checks and the caps are the transport's and the sessions'.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from typing import Callable

from camelpy._args import int_arg
from camelpy._quote import quote
from camelpy.gui.session import Busy, Hub
from camelpy.gui.transport import MISSING_EXTRA, Access, create_app, make_server
from camelpy.gui.watch import MatchWatch

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

LISTEN_BACKLOG = 2048
"""Connections the listening socket holds before they are accepted (uvicorn's own default)."""


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
    """``camelpy gui``'s arguments.

    >>> parser = argparse.ArgumentParser(prog="camelpy gui")
    >>> add_arguments(parser)
    >>> args = parser.parse_args(["--port", "0", "--watch", "runs/a", "--watch", "runs/b"])
    >>> args.host, args.port, args.watch, args.no_browser
    ('127.0.0.1', 0, ['runs/a', 'runs/b'], False)
    """
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

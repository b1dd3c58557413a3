"""``camelpy gui``'s transport: the Starlette application, its HTTP routes, and each page's WebSocket
from its checks to its last frame. What a message means is :mod:`camelpy.gui.session`'s; what each
one holds is :mod:`camelpy.gui.messages`'s.

The page is hand-written HTML, CSS and JavaScript from this package's ``static`` folder; the pieces are
python-chess's SVG pieces (:func:`chess.svg.piece`). Everything else goes over
``/ws?session=ID&token=T``, as JSON text frames: the page sends *ops*, the server sends *messages*.

Safe by default (``docs/security.md``), as Jupyter's server is. Every page and socket must show the
run's secret token (``secrets.token_urlsafe``, printed in the address at start:
``http://127.0.0.1:PORT/?token=…``; the page passes it on to ``/ws``). The ``Host`` header must name
the bound address (a loopback name, ``--host``, or an ``--allow-origin`` host: Starlette's
:class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`), which defeats DNS rebinding; a
socket's ``Origin`` must be the page's own (its host and port those of ``Host``) or one given with
``--allow-origin``, which defeats cross-site WebSocket hijacking. The caps that belong to the
transport: :data:`MAX_SOCKETS`, :data:`MAX_SOCKETS_PER_SESSION`, :data:`MAX_MESSAGE`,
:data:`MAX_JSON_DEPTH`, :data:`MAX_CONNECTIONS`, :data:`OUTBOX_LIMIT`. Going past one gets an
``error`` message (a socket beyond a cap: an ``error``, then a close with code 1013), and the socket
stays open for every malformed message.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import json
import logging
import re
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import chess
import chess.svg

from camelpy._quote import quote
from camelpy.gui.bounded import parse_json
from camelpy.gui.messages import ServerMessage
from camelpy.gui.session import Busy, Hub

if TYPE_CHECKING:  # the optional extra is imported when the server starts (create_app, make_server)
    import uvicorn
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

__all__ = [
    "BUSY_CLOSE",
    "MAX_CONNECTIONS",
    "MAX_JSON_DEPTH",
    "MAX_MESSAGE",
    "MAX_SOCKETS",
    "MAX_SOCKETS_PER_SESSION",
    "MISSING_EXTRA",
    "OUTBOX_LIMIT",
    "POLICY_CLOSE",
    "Access",
    "Client",
    "create_app",
    "make_server",
]

log = logging.getLogger("camelpy.gui")

MAX_SOCKETS = 64
"""WebSockets connected at once over the whole server (each holds a task and an outbox): one person's
tabs need a handful."""

MAX_SOCKETS_PER_SESSION = 4
"""WebSockets of one session at once: a tab, its reload overlapping the old socket, a duplicated tab."""


MAX_MESSAGE = 256 * 1024
"""The longest message a page may send, in bytes (uvicorn's ``ws_max_size``, which closes the socket
with 1009) and in characters (checked again by the handler, which answers an ``error``): a PGN of
:data:`~camelpy.gui.lines.MAX_TEXT` characters fits with room for JSON's escapes."""

MAX_JSON_DEPTH = 8
"""How deeply a page's message may nest: the ops nest three deep; deeper gets an ``error`` before it
can exhaust the recursion limit (which dropped the socket)."""


MAX_CONNECTIONS = 2 * MAX_SOCKETS
"""Connections uvicorn serves at once (its ``limit_concurrency``; beyond, it answers 503): room for
:data:`MAX_SOCKETS` sockets and the page's files."""


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

    def send(self, message: ServerMessage) -> None:
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

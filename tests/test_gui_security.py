"""camelpy gui is safe by default (issue 37, ``docs/security.md``): each finding of the hostile-user
review as a test, most through a real uvicorn server started here (in a thread of this process, so
that a cap can be made small with ``monkeypatch``) and talked to by the ``websockets`` client, as a
browser or a script on the same machine would.

Who may connect (the token, ``Host``, ``Origin``), which folders may be watched, the caps on what
one client costs (sockets, sessions, searches, message size and nesting, text and move-list lengths,
a game's search left without a page), and a run's files with bad lines in them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from camelpy.arena.events import EventLog
from camelpy.gui import session as gui_session
from camelpy.gui import transport as gui_transport
from camelpy.gui.lines import MAX_PLIES, MAX_TEXT
from camelpy.gui.server import Access, create_app, make_server
from camelpy.gui.watch import MAX_LINE, MatchWatch, replay
from starlette.applications import Starlette
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.test_gui import _gui, play_a_match, running_gui

TOKEN = "the-token"
"""The test servers' token (a real run makes a random one)."""

DEEP = "[" * 5_000 + "]" * 5_000
"""JSON nested past Python's recursion limit: :func:`json.loads` raises :exc:`RecursionError`."""

SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]
"""Four legal moves that can be played again and again."""


@contextlib.contextmanager
def live(app: Starlette) -> Iterator[str]:
    """*app* served by uvicorn (:func:`camelpy.gui.server.make_server`, as ``camelpy gui`` serves it)
    on 127.0.0.1 at a free port, in a thread; yields ``host:port``."""
    server = make_server(app)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@pytest.fixture()
def runs(tmp_path: Path) -> Path:
    """A folder the test servers watch below (``--watch-root``)."""
    root = tmp_path / "runs"
    root.mkdir()
    return root


@pytest.fixture()
def address(runs: Path) -> Iterator[str]:
    """A live server with the default caps."""
    with live(create_app(watch_roots=[runs], access=Access.make(token=TOKEN))) as where:
        yield where


def open_socket(
    where: str, session: str = "s", *, token: str = TOKEN, host: str | None = None, **options: Any
) -> ClientConnection:
    """A socket to the server at *where*, as a page of *session*, sent to ``Host`` *host* (default
    *where*); ``websockets`` sends no ``Origin`` unless given one."""
    url = f"ws://{host or where}/ws?session={session}&token={token}"
    name, port = where.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)))
    connection: ClientConnection = connect(url, sock=sock, max_size=None, **options)
    return connection


def until(
    ws: ClientConnection, kind: str, check: Any = lambda m: True, timeout: float = 30
) -> dict[str, Any]:
    """The next message of type *kind* (that passes *check*)."""
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == kind and check(message):
            return message


def refused_status(where: str, **options: Any) -> int:
    """The HTTP status a refused socket gets (the test fails if it is accepted)."""
    with pytest.raises(InvalidStatus) as refused:
        open_socket(where, **options).close()
    return int(refused.value.response.status_code)


def get(where: str, path: str, host: str | None = None) -> tuple[int, str]:
    """An HTTP GET of *path* (with another ``Host`` header if given): status and body."""
    connection = http.client.HTTPConnection(where, timeout=30)
    try:
        connection.request("GET", path, headers={"Host": host} if host else {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


# ---- who may connect ------------------------------------------------------------------------------


def test_a_page_and_a_socket_need_the_token(address: str) -> None:
    status, body = get(address, "/")
    assert status == 403 and "token" in body and "Open that address" in body
    assert get(address, "/?token=guess")[0] == 403
    assert get(address, f"/?token={TOKEN}")[0] == 200
    assert get(address, "/static/app.js")[0] == 200  # the page's own files are public
    assert refused_status(address, token="") == 403
    assert refused_status(address, token="guess") == 403
    with open_socket(address) as ws:
        assert until(ws, "hello")["session"] == "s"


def test_a_socket_from_another_site_is_refused(address: str) -> None:
    """Cross-site WebSocket hijacking: any page the person visits could drive ws://127.0.0.1:PORT."""
    assert refused_status(address, origin="http://evil.example") == 403
    assert refused_status(address, origin=f"http://evil.example:{address.split(':')[1]}") == 403
    assert refused_status(address, origin="null") == 403
    with open_socket(address, origin=f"http://{address}") as ws:  # the page's own origin
        until(ws, "hello")


def test_dns_rebinding_is_refused(address: str) -> None:
    """A site whose name now points at 127.0.0.1: the browser sends its name as Host (and Origin)."""
    rebound = f"evil.example:{address.split(':')[1]}"
    status, body = get(address, f"/?token={TOKEN}", host=rebound)
    assert status == 400 and "Invalid host header" in body
    assert refused_status(address, origin=f"http://{rebound}", host=rebound) == 400
    for name in ("localhost", "127.0.0.1"):
        assert get(address, f"/?token={TOKEN}", host=f"{name}:{address.split(':')[1]}")[0] == 200


def test_allow_origin_widens_origin_and_host(runs: Path) -> None:
    """Behind a reverse proxy at https://chess.example.org, which passes the Host on or not."""
    access = Access.make(token=TOKEN, allow_origins=["https://Chess.example.org/"])
    with live(create_app(access=access)) as where:
        with open_socket(where, origin="https://chess.example.org") as ws:  # Host rewritten
            until(ws, "hello")
        with open_socket(where, origin="https://chess.example.org", host="chess.example.org") as ws:
            until(ws, "hello")
        assert refused_status(where, origin="https://other.example.org") == 403
    with pytest.raises(ValueError, match="'chess.example.org'"):
        Access.make(allow_origins=["chess.example.org"])


def test_the_command_prints_a_tokened_address_and_checks_its_flags(tmp_path: Path) -> None:
    with running_gui() as line:
        found = re.fullmatch(
            r"camelpy gui on http://(127\.0\.0\.1:\d+)/\?token=([\w-]{40,}) \(Ctrl-C stops it\)\n", line
        )
        assert found is not None, line
        where, token = found[1], found[2]
        assert get(where, "/")[0] == 403 and get(where, f"/?token={token}")[0] == 200
        assert refused_status(where, token="") == 403
        with open_socket(where, token=token) as ws:
            until(ws, "hello")
    no_root = _gui("--no-browser", "--port", "0", "--watch-root", str(tmp_path / "nope"))
    assert no_root.returncode == 2 and "error: no folder" in no_root.stderr
    bad_origin = _gui("--no-browser", "--port", "0", "--allow-origin", "ftp://x")
    assert bad_origin.returncode == 2 and "error: an origin is scheme://host[:port]" in bad_origin.stderr
    assert "--allow-origin" in _gui("--help").stdout


# ---- what may be watched --------------------------------------------------------------------------


def test_only_the_folders_named_at_start_are_watched(runs: Path, tmp_path: Path) -> None:
    run = runs / "run1"
    run.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (runs / "link").symlink_to(outside)
    named = tmp_path / "named"
    named.mkdir()
    app = create_app(watch=[named], watch_roots=[runs], access=Access.make(token=TOKEN))
    with live(app) as where, open_socket(where) as ws:
        hello = until(ws, "hello")
        assert hello["watchable"]["folders"] == [str(named.resolve())]
        assert hello["watchable"]["roots"] == [str(runs.resolve())]
        assert str(run.resolve()) in hello["watchable"]["below"]
        assert until(ws, "watch_snapshot")["watch"]["folder"] == str(named.resolve())  # --watch: followed
        messages = []
        for folder in ("/etc", "/no/such/folder", str(runs / "link"), str(runs / ".." / "outside")):
            ws.send(json.dumps({"op": "watch", "folder": folder}))
            message = until(ws, "error")["message"]
            assert f"cannot watch '{folder}'" in message and str(runs.resolve()) in message
            messages.append(message.replace(f"'{folder}'", "FOLDER"))
        assert len(set(messages)) == 1  # the same words whether the folder exists or not
        ws.send(json.dumps({"op": "watch", "folder": str(run)}))
        assert until(ws, "watch_snapshot")["watch"]["folder"] == str(run.resolve())
        ws.send(json.dumps({"op": "watch", "folder": str(runs / "not-yet")}))
        assert "no folder" in until(ws, "error")["message"]  # below the root: may be told


def test_no_folder_is_watched_unless_named() -> None:
    with live(create_app(access=Access.make(token=TOKEN))) as where, open_socket(where) as ws:
        assert until(ws, "hello")["watchable"] == {"folders": [], "roots": [], "below": []}
        ws.send(json.dumps({"op": "watch", "folder": "/tmp"}))
        assert "watches no folder" in until(ws, "error")["message"]


# ---- what one client may cost ---------------------------------------------------------------------


def test_sockets_beyond_the_caps_are_refused(monkeypatch: pytest.MonkeyPatch, runs: Path) -> None:
    monkeypatch.setattr(gui_transport, "MAX_SOCKETS", 3)
    monkeypatch.setattr(gui_transport, "MAX_SOCKETS_PER_SESSION", 2)
    with live(create_app(access=Access.make(token=TOKEN))) as where, contextlib.ExitStack() as stack:
        one = [stack.enter_context(open_socket(where, "a")) for _ in range(2)]
        for ws in one:
            until(ws, "hello")
        with open_socket(where, "a") as third:  # a third page of one session
            assert "the most" in until(third, "error")["message"]
            with pytest.raises(ConnectionClosed) as closed:
                third.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        other = stack.enter_context(open_socket(where, "b"))
        until(other, "hello")
        with open_socket(where, "c") as fourth:  # a fourth socket
            assert "3 pages connected" in until(fourth, "error")["message"]
        for ws in [*one, other]:
            ws.close()
        time.sleep(0.2)
        with open_socket(where, "c") as again:
            until(again, "hello")


def test_sessions_beyond_the_cap_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gui_session, "MAX_SESSIONS", 2)
    app = create_app(access=Access.make(token=TOKEN))
    with live(app) as where, contextlib.ExitStack() as stack:
        pages = [stack.enter_context(open_socket(where, name)) for name in ("a", "b")]
        for ws in pages:
            until(ws, "hello")
        with open_socket(where, "c") as third:
            assert "sessions" in until(third, "error")["message"]
        pages[0].close()
        time.sleep(0.2)
        with open_socket(where, "c") as third:  # the idle session goes
            until(third, "hello")
        assert sorted(app.state.hub.sessions) == ["b", "c"]
        pages[1].close()


def test_searches_beyond_the_cap_get_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gui_session, "MAX_SEARCHES", 2)
    app = create_app(access=Access.make(token=TOKEN))
    with live(app) as where, contextlib.ExitStack() as stack:
        pages = [stack.enter_context(open_socket(where, f"p{i}")) for i in range(3)]
        for ws in pages[:2]:
            until(ws, "analysis")
            ws.send(json.dumps({"op": "analyse"}))
            until(ws, "analysis", lambda m: m["running"] and m["lines"])
        until(pages[2], "analysis")
        pages[2].send(json.dumps({"op": "analyse"}))
        assert not until(pages[2], "analysis")["running"]
        error = until(pages[2], "error")
        assert error["op"] == "analyse" and "2 searches" in error["message"]
        # A game's engine refused a slot says so, and moves once a search ends.
        pages[2].send(
            json.dumps({"op": "new_game", "human": "black", "strength": {"kind": "nodes", "value": 500}})
        )
        assert "camelpy waits to think" in until(pages[2], "error")["message"]
        pages[0].send(json.dumps({"op": "stop"}))
        moved = until(pages[2], "game", lambda m: m["game"] and len(m["game"]["sans"]) == 1)
        assert moved["game"]["board"]["turn"] == "black"
        for ws in pages:
            ws.close()
        assert app.state.hub.search_slots.running <= 2


def test_a_game_search_stops_when_no_page_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game at an hour a move kept its search (a core) running after its tab closed."""
    monkeypatch.setattr(gui_session, "ORPHAN_SEARCH_S", 0.5)
    app = create_app(access=Access.make(token=TOKEN))
    hub = app.state.hub
    hour = {"kind": "ms", "value": 3_600_000}
    with live(app) as where:
        with open_socket(where, "g") as ws:
            until(ws, "analysis")
            ws.send(json.dumps({"op": "new_game", "human": "black", "strength": hour}))
            until(ws, "game", lambda m: m["thinking"])
            assert hub.search_slots.running == 1
        deadline = time.monotonic() + 10
        while hub.search_slots.running:
            assert time.monotonic() < deadline, "the search went on without a page"
            time.sleep(0.05)
        assert not hub.sessions["g"].thinking
        with open_socket(where, "g") as ws:  # the page comes back: camelpy thinks again
            until(ws, "game", lambda m: m["thinking"])
            ws.send(json.dumps({"op": "resign"}))
            until(ws, "game", lambda m: m["game"]["result"] is not None and not m["thinking"])


def test_a_message_too_big_is_refused(address: str) -> None:
    with open_socket(address) as ws:
        until(ws, "analysis")
        ws.send(json.dumps({"op": "play", "moves": ["e2e5"] * 1_500_000}))  # a 12 MiB frame
        with pytest.raises(ConnectionClosed) as closed:
            until(ws, "error")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # uvicorn's ws_max_size


def test_malformed_messages_get_an_error_and_the_socket_stays(address: str) -> None:
    cases: list[tuple[str | bytes, str]] = [
        (DEEP, "JSON nested deeper than 8"),
        ("[" * 20 + "]" * 20, "JSON nested deeper than 8"),
        (json.dumps({"op": "play", "moves": [[[[[[[["e2e4"]]]]]]]]}), "JSON nested deeper than 8"),
        (b"\x00\xff binary", "send text frames"),
        ("5", "unknown op None"),
        ("{nope", "not JSON: '{nope'"),
        (
            json.dumps({"op": "play", "moves": SHUFFLE * 300}),
            f"play at most {MAX_PLIES} moves at once, got 1200",
        ),
        (json.dumps({"op": "load", "text": "x" * (MAX_TEXT + 1)}), f"longer than {MAX_TEXT} characters"),
    ]
    with open_socket(address) as ws:
        until(ws, "analysis")
        for frame, expected in cases:
            ws.send(frame)
            assert expected in until(ws, "error")["message"], frame[:40]
        ws.send(json.dumps({"op": "play", "moves": SHUFFLE * 250}))  # 1,000 moves: allowed
        assert len(until(ws, "line")["line"]["moves"]) == MAX_PLIES
        ws.send(json.dumps({"op": "play", "moves": ["g1f3"]}))
        assert f"at most {MAX_PLIES} moves" in until(ws, "error")["message"]
        ws.send(json.dumps({"op": "goto", "ply": 0}))  # still open, still the same line
        assert len(until(ws, "line")["line"]["moves"]) == MAX_PLIES


def test_a_pgn_is_parsed_off_the_event_loop(address: str) -> None:
    """A 1 MB PGN blocked every tab for 111 s: now it is refused, and the longest allowed one is parsed
    in a thread while the other tabs are answered."""
    moves = ["Nf3", "Nf6", "Ng1", "Ng8"] * (MAX_TEXT // 16)
    pgn = " ".join(moves)[: MAX_TEXT - 2] + " *"
    with open_socket(address, "loader") as loader, open_socket(address, "other") as other:
        until(loader, "analysis")
        until(other, "analysis")
        started = time.monotonic()
        loader.send(json.dumps({"op": "load", "text": pgn}))
        time.sleep(0.05)
        other.send(json.dumps({"op": "goto", "ply": 0}))
        until(other, "line")
        answered = time.monotonic() - started
        error = until(loader, "error")
        loaded = time.monotonic() - started
        assert f"at most {MAX_PLIES} moves" in error["message"] or "cannot read" in error["message"]
        assert answered < loaded, f"the other tab waited for the load ({answered:.2f} s, {loaded:.2f} s)"


# ---- a run's files with bad lines -----------------------------------------------------------------


BAD_LINES = [
    DEEP.encode(),  # nested past the recursion limit
    b"[1, 2, 3]",  # JSON, not an object
    b'{"type": "run", "event": "\xff\xfe"}',  # not UTF-8
    b"{" * 10 + b"}" * 10,  # not JSON
    b'{"type": "status", "elo": ' + b"[" * 100 + b"]" * 100 + b"}",  # nested too deeply
]


def test_bad_event_lines_are_skipped_and_the_feed_goes_on(tmp_path: Path) -> None:
    log = EventLog(tmp_path)
    log.emit("run", kind="match", event="a vs b", engines=["a", "b"], games=2, sprt=None, version=1)
    path = tmp_path / "events.jsonl"
    with path.open("ab") as f:
        for line in BAD_LINES:
            f.write(line + b"\n")
    watch = MatchWatch(tmp_path)
    assert [e["type"] for e in watch.poll()] == ["run"] and watch.skipped == len(BAD_LINES)
    with path.open("ab") as f:  # a line longer than MAX_LINE, written over several polls
        f.write(b'{"type": "end", "reason": "' + b"x" * (MAX_LINE // 2))
    assert watch.poll() == []
    with path.open("ab") as f:
        f.write(b"x" * MAX_LINE)
    assert watch.poll() == [] and len(watch._partial) == 0  # not held
    with path.open("ab") as f:
        f.write(b'"}\n')
    log.emit("game", id="1.1", white="a", black="b", fen=chess.STARTING_FEN, book=[], clock=None)
    assert [e["type"] for e in watch.poll()] == ["game"]
    assert watch.snapshot()["skipped"] == len(BAD_LINES) + 1 and watch.snapshot()["ended"] is None


@pytest.fixture(scope="module")
def match_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real two-game match's folder (:func:`tests.test_gui.play_a_match`)."""
    return play_a_match(tmp_path_factory)


def test_bad_game_lines_are_skipped_and_replays_work(match_folder: Path, tmp_path: Path) -> None:
    header, *records = (match_folder / "games.jsonl").read_bytes().splitlines()
    huge = b'{"round": "' + b"9" * (MAX_LINE + 10) + b'"}'
    (tmp_path / "games.jsonl").write_bytes(b"\n".join([header, *BAD_LINES, huge, *records]) + b"\n")
    assert [replay(tmp_path, game)["id"] for game in ("1.1", "1.2")] == ["1.1", "1.2"]
    watch = MatchWatch(tmp_path)  # no events file: the finished games from games.jsonl
    assert [e["type"] for e in watch.poll()] == ["run", "result", "result", "end"]
    assert watch.skipped == len(BAD_LINES) + 1


def test_a_bad_line_is_reported_on_the_page(runs: Path, address: str) -> None:
    run = runs / "live"
    run.mkdir()
    log = EventLog(run)
    log.emit("run", kind="match", event="a vs b", engines=["a", "b"], games=2, sprt=None, version=1)
    with open_socket(address) as ws:
        ws.send(json.dumps({"op": "watch", "folder": str(run)}))
        assert until(ws, "watch_snapshot")["watch"]["skipped"] == 0
        with (run / "events.jsonl").open("ab") as f:
            f.write(DEEP.encode() + b"\n")
        assert until(ws, "watch_events", lambda m: m["skipped"] == 1)["events"] == []
        log.emit("game", id="1.1", white="a", black="b", fen=chess.STARTING_FEN, book=[], clock=None)
        events = until(ws, "watch_events", lambda m: m["events"])["events"]
        assert [e["type"] for e in events] == ["game"]

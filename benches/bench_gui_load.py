"""The GUI server under a bounded load, and its caps holding (issue 37, ``docs/security.md``).

``python -m benches.bench_gui_load [--watchers N] [--searchers M] [--samples K]`` (or plain ``pytest
benches/bench_gui_load.py``, which runs it once with the defaults) starts ``camelpy gui`` as a user
does (``--no-browser --port 0 --watch-root TMP``) and talks to it over WebSockets, as the pages do:

- N pages (default 24), each a session of its own, watch a run folder that a writer fills with a game's
  moves (20 a second);
- M sessions (default :data:`~camelpy.gui.session.MAX_SEARCHES` + 2) each start an analysis: the first
  ``MAX_SEARCHES`` run, each one beyond gets an ``error``;
- one more page measures the server's answer time, K times (default 50): an op (``goto``) sent, its
  ``line`` back, while the searches and the feed run;
- then the caps are filled: sessions up to ``MAX_SESSIONS`` (the next is refused), sockets up to
  ``MAX_SOCKETS`` (the next is refused, as is one beyond ``MAX_SOCKETS_PER_SESSION``).

It prints the server's resident memory before, at the peak and after the pages have gone, and the
answer time's median and 95th percentile, and asserts every cap held.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
from camelpy.arena.events import EventLog
from camelpy.gui.session import MAX_SEARCHES, MAX_SESSIONS
from camelpy.gui.transport import MAX_SOCKETS, MAX_SOCKETS_PER_SESSION
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benches.bench_gui import start_server, stop_server

POSITION = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
"""What the searching sessions analyse."""

MOVES_PER_S = 20
"""How fast the writer appends moves to the watched run's events file."""


@dataclass
class Figures:
    """What one run measured."""

    watchers: int
    searchers: int
    searches_running: int
    searches_refused: int
    rss_before_mb: float
    rss_peak_mb: float
    rss_after_mb: float
    latency_median_ms: float
    latency_p95_ms: float
    watch_messages: int
    sessions_refused: bool
    sockets_refused: bool
    session_sockets_refused: bool

    def report(self) -> str:
        return (
            f"{self.watchers} watching pages, {self.searchers} searching sessions: "
            f"{self.searches_running} searches ran, {self.searches_refused} refused (cap {MAX_SEARCHES})\n"
            f"server RSS: {self.rss_before_mb:.0f} MB before, {self.rss_peak_mb:.0f} MB at the peak, "
            f"{self.rss_after_mb:.0f} MB after the pages went\n"
            f"answer time (goto → line) under load: median {self.latency_median_ms:.1f} ms, "
            f"95th percentile {self.latency_p95_ms:.1f} ms\n"
            f"watch messages received: {self.watch_messages}\n"
            f"session beyond {MAX_SESSIONS} refused: {self.sessions_refused}; socket beyond {MAX_SOCKETS} "
            f"refused: {self.sockets_refused}; socket beyond {MAX_SOCKETS_PER_SESSION} per session "
            f"refused: {self.session_sockets_refused}"
        )


def rss_mb(pid: int) -> float:
    """A process's resident memory (Linux)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def write_run(folder: Path, stop: threading.Event) -> None:
    """A run's events file growing as a match's does: games of random legal moves."""
    log = EventLog(folder)
    log.emit("run", kind="match", event="a vs b", engines=["a", "b"], games=100, sprt=None, version=1)
    game = 0
    while not stop.is_set():
        game += 1
        board = chess.Board()
        game_id = f"{game}.1"
        log.emit("game", id=game_id, white="a", black="b", fen=board.fen(), book=[], clock=None)
        while not board.is_game_over() and board.ply() < 80 and not stop.is_set():
            move = sorted(board.legal_moves, key=lambda m: hash((game, board.ply(), m.uci())))[0]
            board.push(move)
            log.emit("move", id=game_id, uci=move.uci(), score="+0.10", cp=10, depth=5, time=0.05, clock=None)
            time.sleep(1 / MOVES_PER_S)


async def receive(ws: ClientConnection, kinds: tuple[str, ...], timeout: float = 60) -> dict[str, Any]:
    """The next message of one of *kinds*."""
    async with asyncio.timeout(timeout):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] in kinds:
                return message


async def refused(url: str, session: str) -> bool:
    """Whether a new socket of *session* is refused (an ``error``, then closed with 1013)."""
    async with connect(f"{url}&session={session}") as ws:
        first = json.loads(await ws.recv())
        if first["type"] != "error":
            return False
        await ws.wait_closed()
        return ws.close_code == 1013


async def load(url: str, folder: Path, watchers: int, searchers: int, samples: int, pid: int) -> Figures:
    rss_before = rss_mb(pid)
    opened: list[ClientConnection] = []
    received = 0

    async def follow(ws: ClientConnection) -> None:
        nonlocal received
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                if json.loads(text)["type"] in ("watch_events", "watch_snapshot"):
                    received += 1

    tasks = []
    for i in range(watchers):
        ws = await connect(f"{url}&session=watch-{i}")
        opened.append(ws)
        await ws.send(json.dumps({"op": "watch", "folder": str(folder)}))
        await receive(ws, ("watch_snapshot",))
        tasks.append(asyncio.ensure_future(follow(ws)))
    running = refused_searches = 0
    searching = []
    for i in range(searchers):
        ws = await connect(f"{url}&session=search-{i}")
        opened.append(ws)
        searching.append(ws)
        await ws.send(json.dumps({"op": "load", "text": POSITION}))
        await ws.send(json.dumps({"op": "analyse"}))
        while True:
            message = await receive(ws, ("analysis", "error"))
            if message["type"] == "error":
                refused_searches += 1
                break
            if message["running"] and message["lines"]:
                running += 1
                break
    probe = await connect(f"{url}&session=probe")
    opened.append(probe)
    await receive(probe, ("analysis",))
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        await probe.send(json.dumps({"op": "goto", "ply": 0}))
        await receive(probe, ("line",))
        times.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.02)
    rss_peak = rss_mb(pid)
    for ws in searching:
        await ws.send(json.dumps({"op": "stop"}))
    # Fill the sessions to the cap (each with a page): the next is refused.
    extra = MAX_SESSIONS - (watchers + searchers + 1)
    for i in range(extra):
        ws = await connect(f"{url}&session=fill-{i}")
        opened.append(ws)
        await receive(ws, ("hello",))
    sessions_refused = await refused(url, "one-too-many")
    # Fill the sockets to the cap with second pages of the sessions: the next is refused.
    names = [f"watch-{i}" for i in range(watchers)] + [f"search-{i}" for i in range(searchers)]
    names += ["probe"] + [f"fill-{i}" for i in range(extra)]
    socket_count = len(opened)
    index = 0
    while socket_count < MAX_SOCKETS:
        ws = await connect(f"{url}&session={names[index % len(names)]}")
        opened.append(ws)
        await receive(ws, ("hello",))
        socket_count += 1
        index += 1
    sockets_refused = await refused(url, names[-1])
    for ws in opened[:MAX_SOCKETS_PER_SESSION]:  # room below the total cap
        await ws.close()
    await asyncio.sleep(0.2)
    crowded = names[MAX_SOCKETS_PER_SESSION]  # a session with two pages: up to its own cap
    for _ in range(MAX_SOCKETS_PER_SESSION - 2):
        ws = await connect(f"{url}&session={crowded}")
        opened.append(ws)
        await receive(ws, ("hello",))
    session_sockets_refused = await refused(url, crowded)
    for ws in opened:
        await ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.sleep(1.0)
    times.sort()
    return Figures(
        watchers=watchers,
        searchers=searchers,
        searches_running=running,
        searches_refused=refused_searches,
        rss_before_mb=rss_before,
        rss_peak_mb=rss_peak,
        rss_after_mb=rss_mb(pid),
        latency_median_ms=statistics.median(times),
        latency_p95_ms=times[max(0, int(len(times) * 0.95) - 1)],
        watch_messages=received,
        sessions_refused=sessions_refused,
        sockets_refused=sockets_refused,
        session_sockets_refused=session_sockets_refused,
    )


def run(watchers: int = 24, searchers: int = MAX_SEARCHES + 2, samples: int = 50) -> Figures:
    """One run: the server started, loaded, measured and stopped."""
    assert watchers + searchers + 1 <= MAX_SESSIONS, "the load itself must fit the session cap"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        folder.mkdir()
        stop = threading.Event()
        writer = threading.Thread(target=write_run, args=(folder, stop), daemon=True)
        writer.start()
        server, url = start_server(tmp)
        try:
            return asyncio.run(load(url, folder, watchers, searchers, samples, server.pid))
        finally:
            stop.set()
            stop_server(server)
            writer.join(10)


def check(figures: Figures) -> None:
    """The caps held."""
    assert figures.searches_running == min(figures.searchers, MAX_SEARCHES)
    assert figures.searches_refused == max(0, figures.searchers - MAX_SEARCHES)
    assert figures.sessions_refused and figures.sockets_refused and figures.session_sockets_refused
    assert figures.watch_messages >= figures.watchers  # every page got its snapshot and more


def bench_gui_load(benchmark: Any) -> None:
    figures: list[Figures] = []
    benchmark.pedantic(lambda: figures.append(run()), rounds=1, iterations=1)
    check(figures[0])
    benchmark.extra_info.update(vars(figures[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=24)
    parser.add_argument("--searchers", type=int, default=MAX_SEARCHES + 2)
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    figures = run(args.watchers, args.searchers, args.samples)
    print(figures.report())
    check(figures)
    print("every cap held")


if __name__ == "__main__":
    main()

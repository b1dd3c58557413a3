"""The GUI server under load: how soon a move's answer starts to show, and whether watchers slow a match.

``python -m benches.bench_gui [--moves M] [--watchers W] [--pairs P]`` starts ``camelpy gui`` as a user
does (``--no-browser --port 0``) and talks to it over WebSockets, as the page does:

- **latency**: M times (default 40), a move is sent and the time until the engine's first ``info``
  arrives is measured (the engine searches 20,000 nodes a move from the start of a fresh game; the game
  starts again when it ends); also the time until the ``game`` message that echoes the move;
- **watchers**: the same match (camelpy against itself, P pairs (default 10) at 5,000 nodes a move
  from ``balanced.epd``, C games at once (default 1)) played three times into fresh folders (below the
  server's ``--watch-root``): unwatched, with W pages (default 30: each a session, within the server's
  32) watching it through the server, then unwatched again; games per hour each way, the messages the
  pages received, and the CPU time the server and the pages (one process) used.

It is not collected by pytest (it takes minutes); ``tests/test_gui.py`` and
``tests/test_gui_browser.py`` check the behaviour.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from camelpy.arena.engines import parse_engine
from camelpy.arena.match import run_match
from camelpy.arena.openings import load_openings

BALANCED_EPD = Path(__file__).resolve().parent.parent / "tests" / "data" / "balanced.epd"
CAMELPY = f"{shlex.quote(sys.executable)} -m camelpy"
ENGINE_NODES = 20_000
MATCH_NODES = 5_000


def start_server(watch_root: str) -> tuple[subprocess.Popen[str], str]:
    """``camelpy gui`` watching below *watch_root*; the socket's address with the run's token (add
    ``&session=…``)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "camelpy", "gui", "--no-browser", "--port", "0", "--watch-root", watch_root],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    address, token = line.split()[3].removeprefix("http://").split("/?token=")
    return process, f"ws://{address}/ws?token={token}"


def stop_server(process: subprocess.Popen[str]) -> None:
    """Ends a server from :func:`start_server` and closes its output pipe."""
    with process:  # leaving the block closes the pipe (and waits)
        process.terminate()
        process.wait(timeout=30)


async def receive_until(ws: Any, kind: str, check: Any = lambda m: True) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == kind and check(message):
            return message


async def latency(url: str, moves: int) -> tuple[list[float], list[float]]:
    first_info: list[float] = []
    echoed: list[float] = []
    async with websockets.connect(f"{url}&session=bench-latency", max_size=None) as ws:
        game: dict[str, Any] | None = None
        while len(first_info) < moves:
            if game is None or game["result"] is not None:
                strength = {"kind": "nodes", "value": ENGINE_NODES}
                await ws.send(json.dumps({"op": "new_game", "human": "white", "strength": strength}))
                game = (await receive_until(ws, "game", lambda m: m["game"] is not None))["game"]
            assert game is not None
            legal = sorted(uci for moves_ in game["board"]["legal"].values() for uci in moves_)
            move = legal[len(first_info) * 7 % len(legal)]
            plies = len(game["moves"])
            started = time.perf_counter()
            await ws.send(json.dumps({"op": "move", "uci": move}))
            got_echo = got_info = False
            while True:
                message = json.loads(await ws.recv())
                now = time.perf_counter()
                if message["type"] == "game" and len(message["game"]["moves"]) == plies + 1 and not got_echo:
                    echoed.append((now - started) * 1000)
                    got_echo = True
                    if message["game"]["result"] is not None:
                        game = message["game"]
                        break
                elif message["type"] == "engine_info" and not got_info:
                    first_info.append((now - started) * 1000)
                    got_info = True
                elif message["type"] == "game" and not message["thinking"]:
                    if len(message["game"]["moves"]) >= plies + 2:  # camelpy answered
                        game = message["game"]
                        break
    return first_info, echoed


def process_cpu(pid: int) -> float:
    """A process's user and system CPU seconds so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watch_process(url: str, folder: Path, count: int, stop: Any, out: Any) -> None:
    """The pages, in a process of their own (so that they do not hold the match's Python back)."""
    out.put(asyncio.run(watchers(url, folder, count, stop)))


async def watchers(url: str, folder: Path, count: int, stop: Any) -> tuple[int, float]:
    received = 0
    cpu = time.process_time()

    async def watcher(index: int) -> None:
        nonlocal received
        async with websockets.connect(f"{url}&session=bench-watch-{index}", max_size=None) as ws:
            await ws.send(json.dumps({"op": "watch", "folder": str(folder)}))
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.2)
                    received += 1
                except asyncio.TimeoutError:
                    pass

    await asyncio.gather(*(watcher(i) for i in range(count)))
    return received, time.process_time() - cpu


def play(folder: Path, pairs: int, concurrency: int) -> float:
    engine = parse_engine(["camelpy", f"cmd={CAMELPY}", f"nodes={MATCH_NODES}", "option.Hash=16"])
    openings = load_openings(str(BALANCED_EPD))
    started = time.perf_counter()
    result = run_match(engine, engine, rounds=pairs, openings=openings, out=folder, concurrency=concurrency)
    seconds = time.perf_counter() - started
    return result.games / seconds * 3600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=30)  # each a session: within MAX_SESSIONS
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args, tmp)


def run(args: argparse.Namespace, tmp: str) -> None:
    server, url = start_server(tmp)
    try:
        first, echo = asyncio.run(latency(url, args.moves))
        print(f"latency over {len(first)} moves ({ENGINE_NODES} nodes a move), from sending the move:")
        for label, values in (("first engine info", first), ("the move's echo", echo)):
            values = sorted(values)
            print(
                f"  {label}: median {statistics.median(values):.1f} ms, "
                f"90th percentile {values[int(len(values) * 0.9) - 1]:.1f} ms, max {values[-1]:.1f} ms"
            )
        alone = play(Path(tmp) / "alone", args.pairs, args.concurrency)
        print(f"match unwatched ({args.concurrency} at once): {alone:,.0f} games/h", flush=True)
        watched_folder = Path(tmp) / "watched"
        watched_folder.mkdir()
        stop = multiprocessing.Event()
        results: Any = multiprocessing.Queue()
        pages = multiprocessing.Process(
            target=watch_process, args=(url, watched_folder, args.watchers, stop, results)
        )
        pages.start()
        time.sleep(2)  # every page connected and watching before the first game
        server_cpu = process_cpu(server.pid)
        started = time.perf_counter()
        watched = play(watched_folder, args.pairs, args.concurrency)
        seconds = time.perf_counter() - started
        server_cpu = process_cpu(server.pid) - server_cpu
        stop.set()
        messages, pages_cpu = results.get()
        pages.join()
        again = play(Path(tmp) / "again", args.pairs, args.concurrency)
        print(f"match unwatched again: {again:,.0f} games/h (the run-to-run spread)", flush=True)
        alone = (alone + again) / 2
        print(
            f"match watched by {args.watchers} pages: {watched:,.0f} games/h ({watched / alone:.3f} of "
            f"the unwatched runs' mean; the pages received {messages:,} messages); over its "
            f"{seconds:.1f} s the server used {server_cpu:.2f} s of CPU and the pages {pages_cpu:.2f} s"
        )
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()

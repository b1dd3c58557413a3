"""Ctrl-C stops every long native call promptly (GIL released; the bindings' one `interrupt` path polls
for signals between the callbacks it runs on the calling thread) and raises ``KeyboardInterrupt``."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from typing import Callable

import camelpy
import pytest
from camelpy import leiserchess, minichess

# One Ctrl-C path (the bindings' `interrupt` module) serves every long call: the same script shape for
# a deep perft, an unlimited search (with and without a Python callback), a bench far too deep to
# finish, and a batch.
CALLS = {
    "perft": "camelpy.perft(camelpy.STARTING_FEN, 9)\n",  # 2.4e12 leaves: hours
    "search": "camelpy.Engine().search(camelpy.STARTING_FEN)\n",  # no limit: runs until stopped
    "search with an info callback": (
        "seen = []\n"
        "camelpy.Engine().search(camelpy.STARTING_FEN, info=lambda i: seen.append(threading.get_ident()))\n"
    ),
    "bench": "camelpy.bench(60)\n",
    "analyse_many": (
        "import chess.engine\n"
        "fens = [camelpy.STARTING_FEN] * 200\n"
        "camelpy.Engine().analyse_many(fens, chess.engine.Limit(depth=40), threads=2)\n"
    ),
}

INTERRUPT_SCRIPT = """
import sys, threading, time, camelpy, camelpy.batch
print("ready", flush=True)
try:
{call}
except KeyboardInterrupt:
    seen = globals().get("seen")
    assert seen is None or set(seen) == {{threading.get_ident()}}, "callback off the main thread"
    print("interrupted", flush=True)
    sys.exit(0)
sys.exit(1)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_stops_every_long_call_the_same_way(name: str) -> None:
    body = "".join(f"    {line}\n" for line in CALLS[name].splitlines())
    script = INTERRUPT_SCRIPT.format(call=body)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out.strip() == "interrupted", out
    # Generous bound for a loaded 2-core CI machine; typical is ~0.05 s.
    assert time.perf_counter() - sent < 5.0


# A deep count of each game, and the event that stops it from another thread (a protocol's `stop`).
DEEP_COUNTS: dict[str, Callable[[threading.Event], object]] = {
    "perft": lambda stop: camelpy.perft(camelpy.STARTING_FEN, 9, stop=stop),
    "divide": lambda stop: camelpy.divide(camelpy.STARTING_FEN, 9, stop=stop),
    "minichess": lambda stop: minichess.perft(minichess.Board(), 15, stop=stop),
    "leiserchess": lambda stop: leiserchess.perft(leiserchess.Board(), 10, stop=stop),
}


@pytest.mark.parametrize("name", DEEP_COUNTS)
def test_a_deep_count_stops_when_its_event_is_set(name: str) -> None:
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    began = time.monotonic()
    with pytest.raises(ValueError, match="perft was stopped"):
        DEEP_COUNTS[name](stop)
    timer.join()
    assert time.monotonic() - began < 30  # hours otherwise; about 0.25 s measured


def test_stop_must_be_an_event() -> None:
    with pytest.raises(
        TypeError, match=r"stop must have an is_set\(\) method \(a threading.Event\), got int"
    ):
        camelpy.perft(camelpy.STARTING_FEN, 6, stop=1)  # type: ignore[arg-type]
    assert camelpy.perft(camelpy.STARTING_FEN, 3, stop=threading.Event()) == 8902

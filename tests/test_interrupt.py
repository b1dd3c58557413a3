"""Ctrl-C stops a long perft promptly (GIL released during the count; the bindings poll for signals)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

SCRIPT = """
import sys, time, camelpy
print("ready", flush=True)
start = time.perf_counter()
try:
    camelpy.perft(camelpy.STARTING_FEN, 9)   # 2.4e12 leaves: hours
except KeyboardInterrupt:
    print(f"interrupted {time.perf_counter() - start:.3f}", flush=True)
    sys.exit(0)
print("finished?", flush=True)
sys.exit(1)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
def test_ctrl_c_interrupts_deep_perft() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.3)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=10)
    finally:
        proc.kill()
    latency = time.perf_counter() - sent
    assert proc.returncode == 0, out
    assert out.startswith("interrupted"), out
    # Generous bound for a loaded 2-core CI machine; typical is ~0.05 s.
    assert latency < 5.0, f"took {latency:.2f} s to stop"


SEARCH_SCRIPT = """
import sys, time, camelpy
print("ready", flush=True)
start = time.perf_counter()
try:
    camelpy.Engine().search(camelpy.STARTING_FEN)   # no limit: runs until stopped
except KeyboardInterrupt:
    print(f"interrupted {time.perf_counter() - start:.3f}", flush=True)
    sys.exit(0)
sys.exit(1)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
def test_ctrl_c_stops_an_infinite_search() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SEARCH_SCRIPT], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out.startswith("interrupted"), out


# One Ctrl-C path (the bindings' `interrupt` module) serves every long call: the same script shape
# for a search reporting to a Python callback, a bench far too deep to finish, and a batch.
CALLS = {
    "search with an info callback": (
        "seen = []\n"
        "camelpy.Engine().search(camelpy.STARTING_FEN, info=lambda i: seen.append(threading.get_ident()))\n"
    ),
    "bench": "camelpy.bench(60)\n",
    "analyse_many": (
        "import chess.engine\n"
        "camelpy.batch.analyse_many([camelpy.STARTING_FEN] * 4, chess.engine.Limit(depth=60), threads=2)\n"
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
    assert time.perf_counter() - sent < 5.0

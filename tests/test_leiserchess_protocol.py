"""``camelpy leiserchess`` as a hostile client drives it: bad options, commands that arrive while a
search or a perft runs, and input that is not text. The engine must answer ``isready`` at once,
stop what runs before anything that changes it, and never die (issue 37)."""

from __future__ import annotations

import contextlib
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

PROMPT = 10.0
"""Seconds an answer may take on a loaded machine: a stopped search answers in milliseconds."""


class Engine:
    """``camelpy leiserchess`` in a subprocess, its output read line by line on a thread."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "camelpy", "leiserchess"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str | bytes) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.proc.stdin.flush()

    def expect(self, wanted: str, timeout: float = PROMPT) -> list[str]:
        """The lines up to the first one starting with *wanted* (which is the last), within *timeout*."""
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                pytest.fail(f"no {wanted!r} within {timeout} s; got {got[-10:]}")
            if line is None:
                pytest.fail(f"the engine exited before {wanted!r}; got {got[-10:]}; stderr {self.stderr()}")
            got.append(line)
            self.seen.append(line)
            if line.startswith(wanted):
                return got

    def ready(self) -> list[str]:
        self.send("isready")
        return self.expect("readyok")

    def stderr(self) -> str:
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "(running)"
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def quit(self) -> tuple[int, str]:
        self.send("quit")
        try:
            code = self.proc.wait(timeout=PROMPT)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail("the engine did not exit after quit")
        return code, self.stderr()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        """Kills the engine if it runs, and closes its pipes once the reader has seen the end."""
        self.kill()
        self.reader.join(PROMPT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # stdin of a killed engine: nothing left to flush
                    stream.close()


@pytest.fixture
def engine() -> Iterator[Engine]:
    e = Engine()
    yield e
    e.close()


def test_a_bad_book_is_an_info_string(engine: Engine, tmp_path: Path) -> None:
    engine.send("setoption name Book value /nonexistent/book.txt")
    lines = engine.ready()
    assert any(
        line.startswith("info string setoption: ") and "'/nonexistent/book.txt'" in line for line in lines
    ), lines
    engine.send(f"setoption name Book value {tmp_path}")
    lines = engine.ready()
    assert any(f"'{tmp_path}'" in line and "not a regular file" in line for line in lines), lines
    engine.send("setoption name Book value /dev/zero", "setoption name Hash value 1000000000")
    lines = engine.ready()
    assert any("'/dev/zero'" in line for line in lines), lines
    assert any("option 'Hash' takes an integer from 1" in line for line in lines), lines
    engine.send(b"\xff\xfe setoption \x00\n", b"go depth 1\n")  # not UTF-8, then still playing
    engine.expect("bestmove ")
    code, err = engine.quit()
    assert code == 0 and "Traceback" not in err, err


@pytest.mark.parametrize(
    "command",
    ["position startpos moves f4f5", "setoption name Hash value 2", "ucinewgame", "go depth 1", "perft 1"],
)
def test_commands_during_go_infinite_stop_it_first(engine: Engine, command: str) -> None:
    engine.send("position startpos", "go infinite")
    engine.expect("info depth 2 ")
    engine.ready()  # at once, mid-search
    engine.send(command)
    lines = engine.ready()
    assert any(line.startswith("bestmove ") for line in lines), lines  # the infinite search answered
    if command.startswith("go") and sum(line.startswith("bestmove ") for line in lines) < 2:
        engine.expect("bestmove ")  # a depth-1 search may also answer before the readyok
    if command.startswith("perft"):
        engine.send("wait")
        lines += engine.ready()  # a count this small may answer before the first readyok
        assert any("perft 1: " in line for line in lines), lines
    code, err = engine.quit()
    assert code == 0 and "Traceback" not in err, err


def test_eval_and_quit_during_go_infinite(engine: Engine) -> None:
    engine.send("go infinite")
    engine.expect("info depth 1 ")
    engine.send("eval", "wait")
    lines = engine.ready()
    assert any(line.startswith("info string eval: not while searching") for line in lines), lines
    assert any(line.startswith("info string wait: ") for line in lines), lines
    began = time.monotonic()
    code, err = engine.quit()
    assert code == 0 and "Traceback" not in err, err
    assert time.monotonic() - began < PROMPT
    assert any(line.startswith("bestmove ") for line in engine.seen + list(_rest(engine)))


def _rest(engine: Engine) -> list[str]:
    rest: list[str] = []
    while True:
        line = engine.lines.get(timeout=PROMPT)
        if line is None:
            return rest
        rest.append(line)


def test_perft_runs_on_the_worker_and_stops(engine: Engine) -> None:
    engine.send("perft 12")
    engine.ready()  # answered while the count runs
    began = time.monotonic()
    engine.send("stop")
    lines = engine.ready()
    assert time.monotonic() - began < PROMPT
    assert any(line.startswith("info string perft 12 stopped after ") for line in lines), lines
    engine.send("perft 12", "position startpos moves f4f5")  # any command that stops a search stops it
    lines = engine.ready()
    assert any(line.startswith("info string perft 12 stopped after ") for line in lines), lines
    engine.send("perft 2", "wait")
    assert any(line.startswith("info string perft 2: ") for line in engine.ready())
    engine.send("perft 12")
    engine.ready()
    began = time.monotonic()
    code, err = engine.quit()
    assert code == 0 and "Traceback" not in err, err
    assert time.monotonic() - began < PROMPT

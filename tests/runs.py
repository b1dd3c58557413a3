"""Helpers for tests that stop a long run the way a user does."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def logged_games(log: Path) -> int:
    """The games in a run's ``games.jsonl`` (its first line is the header); 0 before it exists."""
    return len(log.read_text().splitlines()) - 1 if log.exists() else 0


def terminate_after_a_game(command: list[str], log: Path) -> tuple[int, str]:
    """Starts *command*, sends it SIGTERM once *log* holds a game, and returns its exit status and
    stderr (a run that logs no game in two minutes, or ends first, fails the test)."""
    return terminate_when(command, lambda: logged_games(log) >= 1)


def terminate_when(command: list[str], ready: Callable[[], bool]) -> tuple[int, str]:
    """Starts *command*, sends it SIGTERM once *ready()* is true, and returns its exit status and
    stderr (a run that is not ready in two minutes, or ends first, fails the test)."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not ready():
            assert proc.poll() is None and time.monotonic() < deadline, "the run never got ready"
            time.sleep(0.1)
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, err

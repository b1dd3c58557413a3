"""The command line: ``python -m camelpy perft`` (the README's first command)."""

from __future__ import annotations

import subprocess
import sys


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "camelpy", *args], capture_output=True, text=True, timeout=60
    )


def test_perft_prints_nodes_and_speed() -> None:
    result = _run("perft", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Nodes searched: 197281"
    assert lines[1].startswith("Nodes/second: ") and int(lines[1].split()[-1]) > 0


def test_divide_chess960() -> None:
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    result = _run("perft", "2", "--divide", "--chess960", "--fen", fen)
    assert result.returncode == 0, result.stderr
    moves = [line for line in result.stdout.splitlines() if ": " in line and not line.startswith("Nodes")]
    assert len(moves) == 21
    assert "Nodes searched: 528" in result.stdout


def test_bad_fen_is_a_clear_error_not_a_traceback() -> None:
    result = _run("perft", "2", "--fen", "8/8/8 w - - 0 1")
    assert result.returncode == 2
    assert "expected 8 ranks" in result.stderr and "Traceback" not in result.stderr

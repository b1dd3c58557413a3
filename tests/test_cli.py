"""The command line: the console script's usage, version and dispatch (``camelpy.__main__.main`` called
with an argv, and as a real process), and ``python -m camelpy perft`` (the README's first command)."""

from __future__ import annotations

import subprocess
import sys
import time

import camelpy
import pytest
from camelpy.__main__ import main
from camelpy.tools import cli


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


# The console script --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["help"], ["-h", "bench"]])
def test_help_prints_the_usage_listing_every_command(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr()
    assert out.out.startswith("usage: camelpy ") and out.err == ""
    listed = [line.split()[0] for line in out.out.split("commands:\n")[1].split("\n\n")[0].splitlines()]
    assert listed == [command.name for command in cli.COMMANDS] + ["help"]
    assert {"bench", "perft", "match", "tournament", "epd", "datagen", "book", "tune"} <= set(listed)
    assert "--version" in out.out and "UCI engine" in out.out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"camelpy {camelpy.__version__}\n" == "camelpy 0.1.0\n"


@pytest.mark.parametrize("name", [command.name for command in cli.COMMANDS])
def test_every_command_has_its_own_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    own = capsys.readouterr().out
    assert own.startswith(f"usage: camelpy {name} ")
    assert main(["help", name]) == 0
    assert capsys.readouterr().out == own


def test_help_for_an_unknown_command_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "nosuch"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == "camelpy: error: no command called 'nosuch'"


def test_a_command_is_one_entry(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A later tool (datagen, tune) plugs in by adding one Command: listed, dispatched, with --help."""
    extra = cli.Command("bench2", "the bench again, under another name", "camelpy.tools.chess.bench")
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, extra))
    monkeypatch.setattr(cli, "_BY_NAME", {c.name: c for c in cli.COMMANDS})
    assert main(["--help"]) == 0 and "  bench2       the bench again" in capsys.readouterr().out
    assert main(["bench2", "--help"]) == 0 and capsys.readouterr().out.startswith("usage: camelpy bench2")
    assert main(["bench2", "1"]) == 0 and "Nodes searched: " in capsys.readouterr().out


def test_other_first_words_still_start_the_uci_engine(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No arguments, lichess-bot's --key=value flags and stray words go to the UCI engine, as before."""
    seen: list[list[str]] = []

    def uci_main(argv: list[str]) -> int:
        seen.append(argv)
        return 0

    monkeypatch.setattr("camelpy.protocols.uci.main", uci_main)
    for argv in ([], ["--Hash=8", "--Move_Overhead=50"], ["--no-such=1"], ["stray"], ["--helpful"]):
        assert main(argv) == 0
    assert seen == [[], ["--Hash=8", "--Move_Overhead=50"], ["--no-such=1"], ["stray"], ["--helpful"]]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["--help"], subprocess.DEVNULL),
        (["--help"], subprocess.PIPE),
        (["-h"], subprocess.PIPE),
        (["help"], subprocess.PIPE),
        (["--version"], subprocess.PIPE),
        (["bench", "--help"], subprocess.PIPE),
    ],
    ids=["help-stdin-closed", "help-stdin-open", "h", "help-word", "version", "bench-help"],
)
def test_help_and_version_never_wait_for_stdin(argv: list[str], stdin: int) -> None:
    """A real process, its stdin closed or left open (a GUI that never writes): it answers and exits
    within a few seconds, without starting the UCI engine."""
    start = time.monotonic()
    with subprocess.Popen(
        [sys.executable, "-m", "camelpy", *argv],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            status = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail(f"camelpy {' '.join(argv)} waited on stdin")
        out, err = proc.communicate()
    assert status == 0, err
    assert out.startswith(("usage: camelpy", "camelpy 0.1.0\n")) and err == ""
    assert "uciok" not in out and "ignoring" not in err
    assert time.monotonic() - start < 10

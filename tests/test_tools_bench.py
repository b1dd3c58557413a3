"""``camelpy bench [depth]`` (camelpy.tools.chess.bench): an ordinary tool subcommand with ``--help`` and a
clear error for a bad depth, printing exactly the lines OpenBench reads; the UCI ``bench`` command prints the
same lines from the same function."""

from __future__ import annotations

import re

import pytest
from camelpy import _core
from camelpy.__main__ import main
from camelpy.protocols.uci import UciEngine
from camelpy.tools.chess import bench


def test_bench_prints_the_openbench_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    nodes = _core.bench(3)[0]
    assert len(lines) == 4 and re.fullmatch(r"Total time \(ms\) : \d+", lines[0])
    assert lines[1] == f"Nodes searched: {nodes}"
    assert re.fullmatch(r"Nodes/second: \d+", lines[2])
    assert re.fullmatch(rf"{nodes} nodes \d+ nps", lines[3])


@pytest.mark.parametrize("word", ["--help", "-h"])
def test_bench_help_is_its_usage(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", word]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("usage: camelpy bench [-h] [depth]") and "expected a depth" not in out.out
    assert out.err == ""


@pytest.mark.parametrize("depth", ["x", "0", "-3", "2.5", ""])
def test_bad_depth_is_one_error_line_and_status_2(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", depth]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("usage: camelpy bench")
    assert err[1] == (
        f"camelpy bench: error: argument depth: expected a depth (an integer of at least 1), got {depth!r}"
    )


def test_depth_beyond_the_core_limit_is_an_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "1000"]) == 2
    assert capsys.readouterr().err.startswith(
        f"error: depth must be between 1 and {_core.MAX_BENCH_DEPTH}, got 1000"
    )


def test_the_uci_bench_command_prints_the_same_lines() -> None:
    lines: list[str] = []
    UciEngine(lines.append).handle("bench 2")
    shape = re.compile(r"\d+")
    assert [shape.sub("N", line) for line in lines] == [shape.sub("N", line) for line in bench.bench_lines(2)]
    assert lines[1] == f"Nodes searched: {_core.bench(2)[0]}"
    lines.clear()
    UciEngine(lines.append).handle("bench zero")
    assert lines == ["info string bench: expected a depth (an integer of at least 1), got 'zero'"]

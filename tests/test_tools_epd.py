"""camelpy epd: bm/am and STS-style c0 points, in-process and over UCI, with a comparison column."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from camelpy.tools.chess import epd

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "tools"
FAKE_FIRST = f"{sys.executable} {DATA / 'fake_engine.py'} first"

# camelpy at 2000 nodes per position solved 9 of WAC.001-010 when this test was written (all but
# WAC.002); the bound leaves room for search changes without letting a broken search through.
WAC_10_MIN_SOLVED = 7


def test_shipped_suites_parse() -> None:
    wac = epd.read_epd(ROOT / "suites" / "wac.epd")
    bk = epd.read_epd(ROOT / "suites" / "bratko_kopec.epd")
    assert (len(wac), len(bk)) == (300, 24)
    assert wac[0].id == "WAC.001" and wac[0].expected() == "bm Qg6"
    assert all(p.bm or p.am for p in wac + bk)


def test_ten_wac_positions_in_process() -> None:
    suite = epd.read_epd(ROOT / "suites" / "wac.epd")[:10]
    result = epd.run_epd(suite, "camelpy", nodes=2000)
    assert result.total == 10 and result.solved >= WAC_10_MIN_SOLVED
    for position, r in zip(suite, result.results):
        assert r.id == position.id and r.move is not None and r.move in chess.Board(position.fen).legal_moves
        assert r.solved == (r.move in position.bm)
        assert r.nodes is not None and r.nodes > 0


def test_points_avoid_moves_and_a_uci_engine_column() -> None:
    suite = epd.read_epd(DATA / "sts_style.epd")
    assert dict(suite[0].points) == {
        chess.Move.from_uci("d1d8"): 10,
        chess.Move.from_uci("d1d7"): 3,
        chess.Move.from_uci("g2g3"): 1,
    }
    mine = epd.run_epd(suite, "camelpy", depth=3)
    assert (mine.solved, mine.points, mine.max_points) == (2, 10, 10)
    # The fake engine plays the first legal move in UCI order: d1a1, neither bm, am nor scored.
    other = epd.run_epd(suite, FAKE_FIRST, nodes=1, name="first")
    assert [r.move for r in other.results] == [chess.Move.from_uci("d1a1")] * 2
    assert (other.solved, other.points) == (1, 0)  # avoiding Rd7 is enough for the am line
    table = epd.report(suite, [mine, other])
    assert "ok Rd8# 10p" in table and "-- Ra1 0p" in table
    assert "camelpy: solved 2/2 (100.0%), points 10/10" in table and "first: solved 1/2" in table


def test_cli_with_two_engines() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "camelpy",
            "epd",
            str(DATA / "sts_style.epd"),
            "--depth",
            "2",
            "--engine2",
            FAKE_FIRST,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "sts.mate" in done.stdout
        and "camelpy: solved 2/2" in done.stdout
        and f"{os.path.basename(sys.executable)}: solved 1/2" in done.stdout
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["no/such.epd", "--depth", "1"], "cannot read EPD suite"),
        ([str(DATA / "sts_style.epd")], "limit"),
        (
            [str(DATA / "sts_style.epd"), "--depth", "1", "--engine", "/nonexistent/engine"],
            "cannot start engine",
        ),
    ],
)
def test_cli_errors(args: list[str], needle: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "epd", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and needle in done.stderr and "Traceback" not in done.stderr


def test_bad_epd_line_is_quoted() -> None:
    with pytest.raises(ValueError, match="'not an epd line'"):
        epd.parse_epd_lines(["not an epd line"])

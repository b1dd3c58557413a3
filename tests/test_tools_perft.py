"""camelpy perft with a suite file: node cap, totals, and the divide of the first wrong position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from camelpy.tools import perft

ROOT = Path(__file__).resolve().parent.parent
QUICK = ROOT / "perft_suites" / "quick.epd"
QUICK_FISCHER = ROOT / "perft_suites" / "quick_fischer.epd"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "camelpy", "perft", *args], capture_output=True, text=True, timeout=120
    )


def test_quick_suite_with_a_cap_matches() -> None:
    cases = perft.read_suite(QUICK)
    assert len(cases) == 32
    report = perft.run_suite(cases, max_nodes=200_000)
    listed = sum(len(c.counts) for c in cases)
    assert report.mismatches == () and report.checked + report.skipped == listed
    assert report.skipped > 0 and report.checked > 100
    assert report.nodes == sum(n for c in cases for n in c.counts.values() if n <= 200_000)


def test_fischer_suite_is_read_as_chess960() -> None:
    cases = perft.read_suite(QUICK_FISCHER)
    assert all(c.chess960 for c in cases)
    assert perft.run_suite(cases, max_nodes=10_000).mismatches == ()


def test_cli_suite_reports_totals() -> None:
    done = _cli(str(QUICK), "--max-nodes", "50000")
    assert done.returncode == 0, done.stderr
    assert "Mismatches: 0" in done.stdout and "Positions: 32" in done.stdout
    assert int(done.stdout.split("Nodes searched: ")[1].split()[0]) > 0
    assert int(done.stdout.split("Nodes/second: ")[1].split()[0]) > 0


def test_cli_reports_mismatch_with_divide(tmp_path: Path) -> None:
    suite = tmp_path / "wrong.epd"
    # Kiwipete's depth-2 count is 2039; 2040 is wrong on purpose.
    suite.write_text(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n"
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2040\n"
    )
    done = _cli(str(suite))
    assert done.returncode == 1
    assert "MISMATCH wrong.epd:2 depth 2: expected 2040, got 2039" in done.stdout
    assert "divide of wrong.epd:2 at depth 2" in done.stdout
    divide = [line for line in done.stdout.splitlines() if line.startswith(("e1g1:", "e1c1:", "a2a3:"))]
    assert len(divide) == 3
    assert "Mismatches: 1" in done.stdout


@pytest.mark.parametrize(
    ("line", "needle"), [("8/8 w - - ;D1 x", "D1 x"), ("8/8/8/8/8/8/8/K6k w - -", "no ';Dn")]
)
def test_bad_suite_lines(line: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        perft.parse_suite_line(line)


def test_cli_bad_suite_path_is_an_error_line() -> None:
    done = _cli("no/such/suite.epd")
    assert (
        done.returncode == 2 and "cannot read perft suite" in done.stderr and "Traceback" not in done.stderr
    )

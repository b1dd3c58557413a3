"""camelpy perft with a suite file: node cap, totals, and the divide of the first wrong position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from camelpy.tools.chess import perft

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


# The same lines and reasons as the core's parser test (rust/core/src/perft.rs, `suite_lines`).
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("8/8 w - - ;D1 x", "bad perft tag 'D1 x' at line: '8/8 w - - ;D1 x'"),
        ("8/8 w - - ;D1 1 2", "bad perft tag 'D1 1 2' at"),
        ("8/8 w - - ;E1 1", "bad perft tag 'E1 1' at"),
        ("8/8 w - - ;D-1 1", "bad perft tag 'D-1 1' at"),
        ("8/8 w - - ;D1 +1", "bad perft tag 'D1 +1' at"),
        ("8/8 w - - ;D1 \u00b2", "bad perft tag 'D1 \u00b2' at"),
        ("8/8 w - - ;", "bad perft tag '' at"),
        ("8/8 w - - ;D1 1 ;D1 1", "depth 1 listed twice at"),
        ("8/8/8/8/8/8/8/K6k w - -", "no ';Dn count' tags at"),
        (" ;D1 1", "no fen before the first ';' at"),
        ("k ;D1 x\x07'", "at line: 'k ;D1 x\\x07\\''"),
    ],
)
def test_bad_suite_lines(line: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        perft.parse_suite_line(line)
    text = str(info.value)
    assert text.startswith(message) or text.endswith(message), text


def test_suite_lines_keep_their_order_and_source() -> None:
    line = "  4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66  ;D6 764643\n"
    case = perft.parse_suite_line(line, source="s:3")
    assert case.fen == "4k3/8/8/8/8/8/8/4K2R w K - 0 1" and case.source == "s:3"
    assert list(case.counts.items()) == [(1, 15), (2, 66), (6, 764643)]
    assert case.capped(100) == {1: 15, 2: 66} and case.capped(None) == case.counts


def test_cli_bad_suite_path_is_an_error_line() -> None:
    done = _cli("no/such/suite.epd")
    assert (
        done.returncode == 2 and "cannot read perft suite" in done.stderr and "Traceback" not in done.stderr
    )

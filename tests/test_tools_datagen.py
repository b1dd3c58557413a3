"""``camelpy datagen`` (camelpy.tools.chess.datagen): generate, export, resume, Ctrl-C, and bad input as one
``error: …`` line with exit status 2."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import camelpy.data
import chess
import pytest
from camelpy.__main__ import main
from camelpy.arena import runner

REPO = Path(__file__).resolve().parent.parent


def test_generate_then_read_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, text = tmp_path / "g.bin", tmp_path / "g.txt"
    args = ["datagen", "--games", "4", "--nodes", "500", "--seed", "3", "--threads", "2", "--out", str(out)]
    assert main([*args, "--text", str(text)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("wrote 4 games (") and f"to {str(out)!r}: 4 new in" in printed[0]
    samples = list(camelpy.data.read(out))
    assert len(samples) > 4 and all(s.best_move in s.board.legal_moves for s in samples)
    assert printed[1] == f"wrote {len(samples):,} lines to {str(text)!r}"
    first = text.read_text().splitlines()[0].split(" | ")
    assert chess.Board(first[0]) == samples[0].board and int(first[1]) == samples[0].score
    # The same command again: nothing to do. More games: appended.
    assert main(args) == 0
    assert "0 new in" in capsys.readouterr().out
    assert main([*args[:2], "6", *args[3:]]) == 0
    assert "wrote 6 games" in capsys.readouterr().out
    # The export alone.
    assert main(["datagen", "--out", str(out), "--text", str(text)]) == 0
    assert len(text.read_text().splitlines()) == camelpy.data.info(out).records


def test_openings_from_a_pgn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.bin"
    book = REPO / "tests" / "data" / "tools" / "openings.pgn"
    args = ["--openings", str(book), "--plies", "4", "--random-plies", "0", "--max-plies", "30"]
    assert main(["datagen", "--out", str(out), "--games", "2", "--nodes", "300", *args]) == 0
    assert "wrote 2 games" in capsys.readouterr().out
    first = next(camelpy.data.read(out))
    assert first.board.fullmove_number == 3, "the first record is the book position after 4 plies"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "-3"], "error: --games must be at least 0, got -3"),
        (["--games", "2", "--threads", "0"], "error: --threads must be between 1 and 256, got 0"),
        (["--games", "2", "--random-plies", "500"], "error: --max-plies (400) must be more than"),
        (["--games", "2", "--nodes", "0"], "error: --nodes must be at least 1, got 0"),
        ([], "error: nothing to do: give --games N (and/or --text FILE)"),
        (["--games", "1", "--openings", "missing.epd"], "error: cannot read openings 'missing.epd'"),
    ],
)
def test_bad_input_is_one_error_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["datagen", "--out", str(tmp_path / "g.bin"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


def test_bad_files_and_chess960_openings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no" / "g.bin")
    assert main(["datagen", "--out", missing, "--games", "1"]) == 2
    assert capsys.readouterr().err == f"error: No such file or directory: {missing!r}\n"
    notes = tmp_path / "notes.txt"
    notes.write_text("some notes, not a data file")
    assert main(["datagen", "--out", str(notes), "--games", "1"]) == 2
    assert "is not a camelpy data file" in capsys.readouterr().err
    epd = tmp_path / "c960.epd"
    epd.write_text("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -\n")
    assert main(["datagen", "--out", str(tmp_path / "g.bin"), "--games", "1", "--openings", str(epd)]) == 2
    assert "Chess960 openings are refused" in capsys.readouterr().err
    pgn = tmp_path / "c960.pgn"
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    pgn.write_text(f'[Variant "Chess960"]\n[FEN "{fen}"]\n\n1. a4 *\n')
    assert main(["datagen", "--out", str(tmp_path / "g.bin"), "--games", "1", "--openings", str(pgn)]) == 2
    assert "castling rights that only Chess960 allows" in capsys.readouterr().err
    assert not (tmp_path / "g.bin").exists()


def test_a_run_logged_to_a_file_writes_a_status_line_a_minute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Standard error redirected (not a terminal, as for a generation left in the background): whole
    # lines with the time of day, at most one per interval; here the interval is 0, so one per update.
    monkeypatch.setattr(runner, "PROGRESS_LOG_INTERVAL_S", 0.0)
    out = tmp_path / "g.bin"
    args = ["datagen", "--out", str(out), "--nodes", "300", "--seed", "3", "--threads", "1"]
    assert main([*args, "--games", "3"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines and lines[-1][9:].startswith("datagen: 3/3 games, ")
    assert all(re.fullmatch(r"\d\d:\d\d:\d\d datagen: .* positions/s, \d+\.\d s", line) for line in lines)
    # A resumed run says so first; --quiet writes nothing; an hour's interval, nothing within it.
    assert main([*args, "--games", "4"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"datagen: resuming {str(out)!r} after its 3 games"
    assert err[-1][9:].startswith("datagen: 4/4 games, ")
    assert main([*args, "--games", "5", "--quiet"]) == 0
    monkeypatch.setattr(runner, "PROGRESS_LOG_INTERVAL_S", 3600.0)
    assert main([*args, "--games", "6"]) == 0
    assert capsys.readouterr().err == f"datagen: resuming {str(out)!r} after its 5 games\n"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "kill"])
def test_ctrl_c_or_kill_writes_every_finished_game_and_the_command_resumes(
    signum: signal.Signals, tmp_path: Path
) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "g.bin"
    command = [sys.executable, "-m", "camelpy", "datagen", "--out", str(out), "--nodes", "500", "--seed", "4"]
    proc = subprocess.Popen([*command, "--games", "100000"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 32 + 40 * 32):
        time.sleep(0.05)
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "every finished game is in" in err and "run the same command to continue" in err
    last = camelpy.data.to_numpy(out)["last"]
    games = int(last.sum())
    assert bool(last[-1]), "the file ends with a whole game"
    assert 1 <= games < 100000
    done = subprocess.run([*command, "--games", str(games + 1)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and f"wrote {games + 1} games" in done.stdout, done.stderr

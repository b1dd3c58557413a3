"""``camelpy leiserchess match``: real engine processes, the referee's adjudication, the records and the
resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from camelpy.leiserchess import Board
from camelpy.tools.engines import parse_engine
from camelpy.tools.leiserchess_match import opening_for, run_match

ENGINE = f"{sys.executable} -m camelpy leiserchess"

# A protocol engine that answers the handshake and then, on go, does what *behaviour* says.
FAKE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name fake"); print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        BEHAVIOUR
    elif word == "quit":
        break
"""


def fake(tmp_path: Path, name: str, behaviour: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(FAKE.replace("BEHAVIOUR", behaviour))
    return f"{sys.executable} {script}"


def test_a_deeper_search_wins_and_the_match_resumes(tmp_path: Path) -> None:
    engines = (
        parse_engine([ENGINE, "name=deep", "depth=3"]),
        parse_engine([ENGINE, "name=shallow", "depth=1"]),
    )
    lines: list[str] = []
    summary = run_match(engines, pairs=2, out=tmp_path / "m", concurrency=2, report=lines.append)
    assert summary["games"] == 4 and len(lines) == 4
    assert summary["wins"] >= 3 and summary["time_forfeits"] == 0
    assert sum(summary["pentanomial"]) == 2
    log = (tmp_path / "m" / "games.jsonl").read_text().splitlines()
    assert json.loads(log[0])["version"] == 1 and len(log) == 5
    # Every recorded game replays under the rules to its recorded end.
    for line in log[1:]:
        game = json.loads(line)
        board = Board()
        for move in game["opening"] + game["moves"]:
            board.push(move)
        if game["termination"] == "king_hit":
            assert board.result() == game["result"]
        assert tuple(game["opening"]) == opening_for(0, game["pair"], 2, 2016)
    text = (tmp_path / "m" / "games.txt").read_text()
    assert text.count('[Event "camelpy leiserchess match"]') == 4 and "{book}" in text
    again = run_match(engines, pairs=2, out=tmp_path / "m", report=lines.append)
    assert again["games"] == 4 and len(lines) == 4  # nothing replayed
    other = (parse_engine([ENGINE, "name=deep", "depth=2"]), engines[1])
    try:
        run_match(other, pairs=2, out=tmp_path / "m")
        raise AssertionError("a different match in the same folder must be refused")
    except ValueError as err:
        assert "another match" in str(err)


def test_bad_engines_lose_and_the_referee_goes_on(tmp_path: Path) -> None:
    garbage = fake(tmp_path, "garbage", 'print("bestmove zz99", flush=True)')
    illegal = fake(tmp_path, "illegal", 'print("bestmove h0h0", flush=True)')  # Ko at the start
    silent = fake(tmp_path, "silent", "pass")
    for command, name, extra, termination in (
        (garbage, "garbage", "depth=1", "illegal_move"),
        (illegal, "illegal", "depth=1", "illegal_move"),
        (silent, "silent", "st=0.2", "time"),
    ):
        engines = (
            parse_engine([ENGINE, "name=camelpy", "depth=1"]),
            parse_engine([command, f"name={name}", extra]),
        )
        summary = run_match(engines, pairs=1, out=tmp_path / name, random_plies=0, report=lambda _: None)
        assert summary["wins"] == 2 and summary["terminations"] == {termination: 2}, summary


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "match", "--engine", ENGINE, "depth=2",
         "--engine", ENGINE, "depth=1", "--rounds", "1", "--rules", "2018", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "(2018 rules)" in done.stdout and "Ptnml(0-2):" in done.stdout and "Games: 2" in done.stdout
    assert json.loads((out / "summary.json").read_text())["games"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "match", "--engine", "/no/such/engine", "depth=1",
         "--engine", ENGINE, "depth=1", "--rounds", "1", "--out", str(tmp_path / "bad")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "cannot start engine" in bad.stderr and "Traceback" not in bad.stderr

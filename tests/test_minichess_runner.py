"""The MiniChess file protocol end to end, with real subprocesses: ``camelpy minichess runner`` and
``camelpy minichess player``, and players that misbehave (garbage, half lines, nothing, overrunning the
time limit). Misbehaving players are small shell scripts and run at 0.5 s per move, so these tests are
fast; games between real ``camelpy`` players start a few plies before the 50-ply count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from camelpy.arena.minichess import last_complete_line, play_game
from camelpy.arena.referee import GameRecord
from camelpy.minichess import BLACK, STARTING_STATE, WHITE, Board, Move

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the runner is POSIX code")

FAST = 0.5
"""Seconds per move for the shell-script players."""

RANDOM = f"{sys.executable} -m camelpy minichess player --random"
"""Our random player (a Python process per move: allow it a few seconds on a loaded machine)."""


def played(game: GameRecord) -> list[Move]:
    """The moves of a runner game, as moves."""
    return [Move.parse(m.uci) for m in game.moves]


def script(tmp_path: Path, name: str, body: str) -> str:
    """A shell-script player; returns its command line."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def scripted(tmp_path: Path, name: str, moves: list[str]) -> str:
    """A player that plays *moves* in turn (counting its moves in a file in its working directory,
    which persists from move to move)."""
    listing = tmp_path / f"{name}.moves"
    listing.write_text("".join(m + "\n" for m in moves))
    return script(
        tmp_path,
        name,
        "n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > count\n"
        f'sed -n "${{n}}p" {listing} > action',
    )


def test_last_complete_line() -> None:
    assert last_complete_line(b"", finished=True) is None
    assert last_complete_line(b"4 0 3 0", finished=False) is None
    assert last_complete_line(b"4 0 3 0", finished=True) == "4 0 3 0"
    assert last_complete_line(b"4 0 3 0\n4 1 3 1\n\n  \n", finished=False) == "4 1 3 1"
    assert last_complete_line(b"4 0 3 0\r\n4 1", finished=False) == "4 0 3 0"
    assert last_complete_line(b"\xff\xfe\n", finished=True) == "\ufffd\ufffd"


def test_king_capture_wins(tmp_path: Path) -> None:
    white = scripted(tmp_path, "white", ["2 1 1 2"])
    black = scripted(tmp_path, "black", [])
    lines: list[str] = []
    game = play_game([white, black], 2.0, start=Board("5/2k2/1Q3/3q1/2K2/5 w 20"), out=lines.append)
    assert (game.result, game.winner, game.reason) == ("1-0", WHITE, "king captured")
    assert played(game) == [Move(2, 1, 1, 2)]
    assert lines[-1] == "\nresult: 1-0 (White wins: king captured)"
    assert any(line.startswith("\nply 21: White plays 2 1 1 2 (") for line in lines)


def test_promotion_and_the_50_ply_count(tmp_path: Path) -> None:
    white = scripted(tmp_path, "white", ["1 3 0 2"])
    black = scripted(tmp_path, "black", ["4 1 5 0"])
    game = play_game([white, black], 2.0, start=Board("k1n1r/1P1P1/5/5/1p1p1/R1N1K w 48"), out=None)
    # White: queen 20 + pawn 2 + knight 7; Black: queen 20 + rook 6 + pawn 2.
    assert (game.result, game.reason) == ("1-0", "material count 29-28 after 50 plies")
    final = Board(game.final)
    assert final.piece_at(0, 2) == "Q" and final.piece_at(5, 0) == "q" and final.ply == 50


def test_a_whole_scripted_game_keeps_each_players_directory(tmp_path: Path) -> None:
    white = scripted(tmp_path, "white", ["4 2 3 2", "5 3 2 0"])
    black = scripted(tmp_path, "black", ["1 1 2 1", "0 1 1 1"])
    game = play_game([white, black], 2.0, workdir=tmp_path / "games", out=None)
    # White's list is used up at its third move: it writes an empty action file and loses.
    assert played(game) == [Move.parse(m) for m in ["4 2 3 2", "1 1 2 1", "5 3 2 0", "0 1 1 1"]]
    assert game.reason.startswith("White wrote no move in its action file (") and game.result == "0-1"
    assert (tmp_path / "games" / "white" / "count").read_text() == "3\n"
    assert (tmp_path / "games" / "black" / "count").read_text() == "2\n"
    assert Board.read_state(tmp_path / "games" / "white" / "state", ply=4) == Board(game.final)
    assert (tmp_path / "games" / "white" / "state").exists()


def test_garbage_loses(tmp_path: Path) -> None:
    garbage = script(tmp_path, "garbage", "echo 'e2e4 please' > action")
    game = play_game([garbage, RANDOM], FAST, out=None)
    assert (game.result, game.winner) == ("0-1", BLACK)
    assert game.reason == "White wrote a malformed move 'e2e4 please'" and played(game) == []


def test_only_the_tail_of_a_huge_action_file_is_read(tmp_path: Path) -> None:
    """A player that writes a 1 MB line ending in a move: the runner reads the last 64 KiB and does not
    take the end of that line for a move; a move on a line of its own after it counts."""
    filler = tmp_path / "filler"
    filler.write_text("x" * 1_000_000 + " 4 0 3 0\n")
    huge = script(tmp_path, "huge", f"cat {filler} > action")
    game = play_game([huge, RANDOM], FAST, out=None)
    assert game.result == "0-1" and game.reason.startswith("White wrote no move in its action file")
    (tmp_path / "filler").write_text("x" * 1_000_000 + "\n4 1 3 1\n")
    silent = script(tmp_path, "silent", "exit 0")
    game = play_game([huge, silent], FAST, out=None)
    assert played(game) == [Move(4, 1, 3, 1)]


def test_illegal_move_loses(tmp_path: Path) -> None:
    white = scripted(tmp_path, "white", ["4 0 3 0"])
    illegal = script(tmp_path, "illegal", "echo '1 0 3 0' > action")  # a double step
    game = play_game([white, illegal], FAST, out=None)
    assert (game.result, game.reason) == ("1-0", "Black played an illegal move '1 0 3 0'")


def test_half_line_is_ignored_when_killed(tmp_path: Path) -> None:
    """A player killed while writing: its last complete line is its move, the half line is not."""
    half = script(tmp_path, "half", "printf '4 0 3 0\\n4 1' > action; exec sleep 30")
    garbage = script(tmp_path, "garbage", "echo '9 9 9 9' > action")
    start = time.monotonic()
    game = play_game([half, garbage], FAST, out=None)
    assert time.monotonic() - start < 10
    assert played(game) == [Move(4, 0, 3, 0)]
    assert (game.result, game.reason) == ("1-0", "Black wrote a malformed move '9 9 9 9'")


def test_only_a_half_line_loses(tmp_path: Path) -> None:
    half = script(tmp_path, "half", "printf '4 0 3' > action; exec sleep 30")
    game = play_game([half, RANDOM], FAST, out=None)
    assert game.result == "0-1"
    assert game.reason.startswith("White wrote no move before the time limit (")
    assert game.reason.endswith("s, killed at the time limit)")


def test_a_last_line_without_newline_counts_when_the_player_exits(tmp_path: Path) -> None:
    plain = script(tmp_path, "plain", "printf '4 0 3 0' > action")
    garbage = script(tmp_path, "garbage", "printf '4 0 3' > action")
    game = play_game([plain, garbage], FAST, out=None)
    assert played(game) == [Move(4, 0, 3, 0)]
    assert game.reason == "Black wrote a malformed move '4 0 3'"


def test_a_player_that_never_writes_loses(tmp_path: Path) -> None:
    silent = script(tmp_path, "silent", "exit 0")
    game = play_game([RANDOM, silent], 10.0, start=Board("kqbnr/ppppp/5/5/PPPPP/RNBQK w 40"), out=None)
    assert game.result == "1-0" and len(played(game)) == 1
    assert game.reason.startswith("Black wrote no move in its action file (")


def test_overrunning_the_time_limit(tmp_path: Path) -> None:
    """A player that sleeps past the limit is killed at it, with every process it started; without a
    move it loses, with one its last complete move is played."""
    pid_file = tmp_path / "child.pid"
    sleeper = script(tmp_path, "sleeper", f"sleep 30 & echo $! > {pid_file}; wait")
    start = time.monotonic()
    game = play_game([sleeper, RANDOM], FAST, out=None)
    assert time.monotonic() - start < 10
    assert game.result == "0-1" and game.reason.startswith("White wrote no move before the time limit (0.")
    child = int(pid_file.read_text())
    time.sleep(0.2)
    stat = Path(f"/proc/{child}/stat")
    if stat.exists():  # killed but perhaps not yet reaped by init
        assert stat.read_text().split(")")[1].split()[0] in ("Z", "X")

    thinker = script(tmp_path, "thinker", "echo '4 4 3 4' > action; exec sleep 30")
    silent = script(tmp_path, "silent", "exit 0")
    game = play_game([thinker, silent], FAST, out=None)
    assert played(game) == [Move(4, 4, 3, 4)] and game.winner == WHITE


def test_two_random_players_through_the_cli(tmp_path: Path) -> None:
    seeded = [f"{RANDOM} --seed {n}" for n in (1, 2)]
    command = [sys.executable, "-m", "camelpy", "minichess", "runner", *seeded, "--time-per-move", "20"]
    command += ["--start", "kqbnr/ppppp/5/5/PPPPP/RNBQK w 44", "--workdir", str(tmp_path / "g")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("0  k q b n r\n") and "\nresult: " in out
    plies = [line for line in out.splitlines() if line.startswith("ply ")]
    assert 1 <= len(plies) <= 6
    # Replaying the printed moves reaches a finished game whose result the runner printed.
    board = Board("kqbnr/ppppp/5/5/PPPPP/RNBQK w 44")
    for line in plies:
        board.push(line.split(" plays ")[1].split(" (")[0])
    assert board.is_game_over() and f"result: {board.result()} (" in out
    # Seeded: the same game again.
    again = subprocess.run(command[:-2] + ["--quiet"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout == out.splitlines()[-1] + "\n"


def test_the_random_player_writes_one_legal_move_atomically(tmp_path: Path) -> None:
    (tmp_path / "state").write_text(STARTING_STATE)
    command = [sys.executable, "-m", "camelpy", "minichess", "player", "--random", "--seed", "7"]
    first = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    text = (tmp_path / "action").read_text()
    assert text.endswith("\n") and text.count("\n") == 1
    assert Move.parse(text) in Board().legal_moves
    assert sorted(p.name for p in tmp_path.iterdir()) == ["action", "state"]  # no temporary file left
    subprocess.run(command, cwd=tmp_path, check=True, timeout=60)
    assert (tmp_path / "action").read_text() == text  # seeded: the same move


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["player", "--random"], "error: cannot read state file 'state': No such file or directory"),
        (["runner", "a", "b", "--start", "kqbnr w 0"], "error: expected 6 rows separated by '/', got 1"),
        (["runner", "./no/such/player", "b", "--time-per-move", "1"], "error: cannot start player"),
        (["runner", "a", "b", "--time-per-move", "0"], "error: time_per_move must be above 0, got 0.0"),
        (["perft", "16"], "error: depth must be between 0 and 15, got 16"),
    ],
)
def test_bad_input_is_one_error_line(tmp_path: Path, argv: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "camelpy", "minichess", *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(message) and "Traceback" not in result.stderr


def test_perft_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "camelpy", "minichess", "perft", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Nodes searched: 4230"


def test_the_runner_needs_two_players() -> None:
    with pytest.raises(ValueError, match="expected 2 players, got 1"):
        play_game(["a"], 1.0, out=None)
    assert os.path.exists(sys.executable)


def test_a_match_alternates_colours_records_and_resumes(tmp_path: Path) -> None:
    players = [f"{RANDOM} --seed {{game}}", f"{RANDOM} --seed 100{{game}}"]
    start = "kqbnr/ppppp/5/5/PPPPP/RNBQK w 46"
    command = [sys.executable, "-m", "camelpy", "minichess", "match", *players, "--time-per-move", "20"]
    command += ["--start", start, "--out", str(tmp_path / "m")]
    first = subprocess.run([*command, "--games", "2"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("game 1: PLAYER1 White, ") and lines[1].startswith("game 2: PLAYER1 Black, ")
    assert lines[2].startswith("PLAYER1 ") and lines[2].endswith("/2: +" + lines[2].split("+")[1])
    log = (tmp_path / "m" / "games.jsonl").read_text().splitlines()
    assert len(log) == 2
    events = [json.loads(line) for line in (tmp_path / "m" / "events.jsonl").read_text().splitlines()]
    assert [e["type"] for e in events] == ["run", "result", "result", "end"]
    assert events[0]["engines"] == players and [e["id"] for e in events[1:3]] == ["1.1", "1.2"]
    assert [e["result"] for e in events[1:3]] == [json.loads(line)["result"] for line in log]
    # Resumed: games 1 and 2 are read back, not replayed; game 3 is played.
    again = subprocess.run([*command, "--games", "3"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[:2] == lines[:2]
    assert (tmp_path / "m" / "games.jsonl").read_text().splitlines()[:2] == log
    assert len((tmp_path / "m" / "games.jsonl").read_text().splitlines()) == 3
    # Another match's players in the same folder: refused, nothing lost.
    other = subprocess.run(
        [*command[:5], "b", *command[6:], "--games", "3"], capture_output=True, text=True, timeout=60
    )
    assert other.returncode == 2 and "holds another match's games" in other.stderr
    assert len((tmp_path / "m" / "games.jsonl").read_text().splitlines()) == 3


def test_camelpy_match_plays_minichess_programs(tmp_path: Path) -> None:
    """``camelpy match --game minichess`` is ``camelpy minichess match``: --rounds pairs, st= seconds a
    move, the same lines printed and the same games recorded."""
    players = [f"{RANDOM} --seed 7", f"{RANDOM} --seed 8"]
    arena = [sys.executable, "-m", "camelpy", "match", "--game", "minichess", "--engine", players[0]]
    arena += ["--engine", players[1], "--each", "st=20", "--rounds", "1", "--out", str(tmp_path / "a")]
    runner = [sys.executable, "-m", "camelpy", "minichess", "match", *players, "--games", "2"]
    runner += ["--time-per-move", "20", "--out", str(tmp_path / "r")]
    done = [subprocess.run(c, capture_output=True, text=True, timeout=300) for c in (arena, runner)]
    assert [d.returncode for d in done] == [0, 0], done[0].stderr + done[1].stderr
    assert done[0].stdout == done[1].stdout and len(done[0].stdout.splitlines()) == 3
    assert (tmp_path / "a" / "games.jsonl").read_text() == (tmp_path / "r" / "games.jsonl").read_text()


TWO = ["--engine", "a", "st=1", "--engine", "b", "st=1"]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([*TWO, "--sprt", "elo0=0", "elo1=5"], "--sprt is not for MiniChess"),
        ([*TWO, "--rules", "2018"], "--rules is not for MiniChess"),
        ([*TWO, "--openings", "x.epd"], "--openings is not for MiniChess"),
        ([*TWO, "--ray"], "--ray plays chess matches; a MiniChess match runs on this machine"),
        (["--engine", "a", "depth=3", "--engine", "b", "depth=3"], "depth= is not for MiniChess"),
        (["--engine", "a", "st=1", "--engine", "b", "st=2"], "both programs the same time"),
    ],
)
def test_camelpy_match_refuses_what_minichess_does_not_have(
    words: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from camelpy.tools import cli

    assert cli.main(["match", "--game", "minichess", *words]) == 2
    assert message in capsys.readouterr().err


# Players that attack the runner through their protocol files (issue 37): nothing there may hang the
# runner or crash it; each is that player's missing move, said plainly. Run through the command line with
# a timeout, so that a hang fails the test instead of stopping the suite.

BLACK_FIRST = "1 0 2 0"
"""A legal first move for Black after any White first move these tests play."""


def runner(tmp_path: Path, white: str, black: str, *extra: str) -> str:
    """``camelpy minichess runner`` at 1 s per move; its result line (it must finish, and in seconds)."""
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "minichess", "runner", white, black, "--quiet"]
        + ["--time-per-move", "1", *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("attack", "why"),
    [
        ("mkfifo action", "its action is not a regular file (a named pipe)"),
        ("mkdir action", "its action is not a regular file (a directory)"),
        ("ln -s /etc/passwd action", "its action is not a regular file (a symbolic link)"),
        ("ln -s /dev/zero action", "its action is not a regular file (a symbolic link)"),
    ],
)
def test_an_action_that_is_not_a_regular_file_is_no_move(tmp_path: Path, attack: str, why: str) -> None:
    player = script(tmp_path, "attacker", attack)
    black = scripted(tmp_path, "black", [BLACK_FIRST])
    assert runner(tmp_path, player, black) == f"result: 0-1 (Black wins: White has no move: {why})"


def test_a_player_log_turned_into_a_pipe_is_no_move(tmp_path: Path) -> None:
    """White plays, then replaces its player.log with a named pipe: the runner, opening it for the next
    move, would wait for a reader for ever."""
    white = script(
        tmp_path,
        "white",
        "n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > count\n"
        "if [ $n = 1 ]; then echo '4 0 3 0' > action; rm -f player.log; mkfifo player.log; fi",
    )
    black = scripted(tmp_path, "black", [BLACK_FIRST])
    assert runner(tmp_path, white, black) == (
        "result: 0-1 (Black wins: White has no move: its player.log cannot be opened (it is a named pipe))"
    )


def test_a_state_or_action_the_runner_cannot_replace_is_no_move(tmp_path: Path) -> None:
    # A directory where the state goes: it cannot be written.
    white = script(
        tmp_path,
        "white",
        "n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > count\n"
        "if [ $n = 1 ]; then echo '4 0 3 0' > action; rm state; mkdir -p state/x; fi",
    )
    black = scripted(tmp_path, "black", [BLACK_FIRST])
    assert runner(tmp_path, white, black) == (
        "result: 0-1 (Black wins: White has no move: its state cannot be written (Is a directory))"
    )
    # A directory left as action in a kept working directory: an empty one is removed, a full one is
    # the player's missing move (it was a traceback).
    (tmp_path / "kept" / "white" / "action").mkdir(parents=True)
    (tmp_path / "kept" / "black" / "action" / "x").mkdir(parents=True)
    first = scripted(tmp_path, "first", ["4 0 3 0"])
    result = runner(tmp_path, first, black, "--workdir", str(tmp_path / "kept"))
    assert result == (
        "result: 1-0 (White wins: Black has no move: its action cannot be removed before the move "
        "(Directory not empty))"
    )


def test_the_player_never_opens_a_pipe(tmp_path: Path) -> None:
    """camelpy's player reads state and its memory file: a named pipe as either is refused, not read."""
    os.mkfifo(tmp_path / "state")
    command = [sys.executable, "-m", "camelpy", "minichess", "player"]
    done = subprocess.run([*command, "--random"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: cannot read state file 'state': it is not a regular file (a named pipe)"
    )
    (tmp_path / "state").unlink()
    (tmp_path / "state").write_text(STARTING_STATE)
    os.mkfifo(tmp_path / ".camelpy-minichess")  # the memory: taken for a new game
    done = subprocess.run(
        [*command, "--time", "0.5"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert Move.parse((tmp_path / "action").read_text()) in Board().legal_moves

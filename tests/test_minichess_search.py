"""The MiniChess player (``camelpy.minichess.search``/``Searcher``), the course's baselines
(``baseline_move``), the evaluation, and the player and ``play`` commands. Searches run to fixed depths
or node counts, so the tests are deterministic; the few with a time limit check only that it ends."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from camelpy.minichess import (
    BASELINES,
    STARTING_STATE,
    Board,
    Move,
    Searcher,
    SearchInfo,
    baseline_move,
    evaluate,
    search,
)
from camelpy.tools.minichess import MEMORY, player_ply

HANGING_KING = "k4/5/5/5/5/Q3K w 7"
"""White's queen on (5, 0) takes Black's king on (0, 0)."""


def test_takes_a_hanging_king_and_reports_a_proven_win() -> None:
    result = search(Board(HANGING_KING), depth=5)
    assert result.move == Move(5, 0, 0, 0)
    assert result.info.win_in == 1 and result.info.score is None
    assert result.info.pv[0] == result.move


def test_a_threatened_king_is_saved() -> None:
    # Black's rook on (5, 0) attacks White's king on (5, 4) along row 5: White must answer.
    board = Board("k4/5/5/5/P4/r3K w 7")
    result = search(board, depth=4)
    assert result.move is not None
    board.push(result.move)
    replies = board.legal_moves
    assert not any(board.piece_at(m.to_row, m.to_col) == "K" for m in replies)


def test_the_count_is_decided_inside_the_search() -> None:
    # Ply 49: the rook takes the knight and the count (6 to 0) wins at ply 50.
    result = search(Board("k4/5/5/n4/5/R3K w 49"), depth=3)
    assert result.move == Move(5, 0, 3, 0) and result.info.win_in == 1
    # The same pieces at ply 10: still the best move, but no proven result yet.
    early = search(Board("k4/5/5/n4/5/R3K w 10"), depth=3)
    assert early.move == Move(5, 0, 3, 0) and early.info.win_in is None and early.info.score is not None


def test_a_finished_game_has_no_move() -> None:
    result = search(Board("k4/5/5/5/5/4K w 50"), depth=3)
    assert result.move is None and result.info.depth == 0 and result.info.pv == ()


def test_deterministic_with_iterations_reported_in_order() -> None:
    seen: list[SearchInfo] = []
    first = Searcher(hash_mb=1).search(Board(), depth=7, on_iteration=seen.append)
    second = Searcher(hash_mb=1).search(Board(), depth=7)
    assert [i.depth for i in seen] == list(range(1, 8))
    assert seen[-1] == first.info
    assert (first.move, first.info.pv, first.info.nodes) == (second.move, second.info.pv, second.info.nodes)
    assert first.move in Board().legal_moves
    # Every move of the principal variation is legal in turn.
    board = Board()
    for move in first.info.pv:
        board.push(move)


def test_the_table_is_kept_between_searches_until_cleared() -> None:
    searcher = Searcher(hash_mb=1)
    cold = searcher.search(Board(), depth=8).info.nodes
    warm = searcher.search(Board(), depth=8).info.nodes
    searcher.clear()
    again = searcher.search(Board(), depth=8).info.nodes
    assert warm < cold and again == cold


def test_node_and_time_limits_end_the_search() -> None:
    result = search(Board(), nodes=20_000)
    assert 1 <= result.info.depth and result.info.nodes < 200_000
    result = search(Board(), time=0.2)
    assert result.move in Board().legal_moves and result.info.time < 10


def test_an_exception_in_the_callback_stops_the_search() -> None:
    def fail(info: SearchInfo) -> None:
        if info.depth == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        search(Board(), on_iteration=fail)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"depth": 0}, ValueError, "depth must be between 1 and"),
        ({"depth": 2.0}, TypeError, "depth must be an integer"),
        ({"nodes": -1}, ValueError, "nodes must be at least 1"),
        ({"time": -1}, ValueError, "time must be at least 0"),
        ({"time": math.nan}, ValueError, "time must be a finite number"),
        ({"time": "1"}, TypeError, "time must be a number"),
        ({"hash_mb": 0}, ValueError, "hash_mb must be between 1 and"),
        ({"hash_mb": 1 << 40}, ValueError, "hash_mb must be between 1 and"),
        ({"on_iteration": 3}, TypeError, "on_iteration must be callable"),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        search(Board(), **kwargs)  # type: ignore[arg-type]


def test_search_needs_a_minichess_board() -> None:
    import chess

    with pytest.raises(TypeError, match="board must be a camelpy.minichess.Board, got Board"):
        search(chess.Board(), depth=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", BASELINES)
def test_every_baseline_plays_legal_seeded_moves(name: str) -> None:
    board = Board()
    move = baseline_move(board, name, time=5, seed=3)
    assert move in board.legal_moves
    if name != "alpha-beta":  # fixed depth: the seed decides
        assert baseline_move(board, name, time=5, seed=3) == move
    assert baseline_move(Board("k4/5/5/5/5/4K w 50"), name, seed=1) is None


@pytest.mark.parametrize("name", BASELINES[1:])
def test_the_searching_baselines_take_a_hanging_king_and_a_free_knight(name: str) -> None:
    assert baseline_move(Board(HANGING_KING), name, seed=1) == Move(5, 0, 0, 0)
    assert baseline_move(Board("k4/5/5/n4/5/R3K w 10"), name, seed=1) == Move(5, 0, 3, 0)


def test_baseline_bad_input() -> None:
    with pytest.raises(
        ValueError,
        match="name must be 'random', 'weak-minimax', 'strong-minimax' or 'alpha-beta', got 'minimax'",
    ):
        baseline_move(Board(), "minimax")
    with pytest.raises(ValueError, match="time must be at least 0"):
        baseline_move(Board(), "alpha-beta", time=-1)
    with pytest.raises(ValueError, match="seed must be between 0 and"):
        baseline_move(Board(), "random", seed=-1)


def test_evaluation_terms() -> None:
    start = evaluate(Board())
    assert start.value == 10  # level, plus the tempo
    names = [t.name for t in start.terms]
    assert names[:5] == ["pawn", "knight", "bishop", "rook", "queen"] and names[-2:] == ["count", "tempo"]
    queen_up = evaluate(Board("k4/5/5/5/5/Q3K w 10"))
    assert queen_up.value > 800
    # Half a turn and colours swapped: the same for the side to move.
    assert evaluate(Board("k3q/5/5/5/5/4K b 10")).value == queen_up.value


def test_player_ply_follows_the_game() -> None:
    board = Board()
    board.push("4 2 3 2")
    memory = board.fen()
    board.push("1 1 2 1")
    assert player_ply(Board.from_state(board.state()), memory) == 2
    assert player_ply(Board.from_state(board.state()), "garbage") == 0
    assert player_ply(Board.from_state(board.state()), None) == 0


def _player(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "camelpy", "minichess", "player", *args]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_the_player_writes_its_move_and_remembers_the_position(tmp_path: Path) -> None:
    (tmp_path / "state").write_text(STARTING_STATE)
    result = _player(tmp_path, "--time", "1")
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "action").read_text()
    move = Move.parse(text)
    assert text.endswith("\n") and text.count("\n") == 1 and move in Board().legal_moves
    after = Board()
    after.push(move)
    assert (tmp_path / MEMORY).read_text().strip() == after.fen()
    assert result.stdout.startswith(f"ply 0: {move} depth ")
    # The opponent answers; the player knows it is ply 2 now.
    reply = after.legal_moves[0]
    after.push(reply)
    (tmp_path / "state").write_text(after.state())
    result = _player(tmp_path, "--time", "1")
    assert result.returncode == 0 and result.stdout.startswith("ply 2: "), result.stdout + result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [MEMORY, "action", "state"]


def test_the_player_counts_the_ply_it_is_told(tmp_path: Path) -> None:
    # Ply 49: the capture wins the count at once.
    board = Board("k4/5/5/n4/5/R3K w 49")
    (tmp_path / "state").write_text(board.state())
    result = _player(tmp_path, "--time", "1", "--ply", "49")
    assert result.returncode == 0, result.stderr
    assert Move.parse((tmp_path / "action").read_text()) == Move(5, 0, 3, 0)
    assert "win in 1" in result.stdout


@pytest.mark.parametrize("name", BASELINES)
def test_the_baseline_players(tmp_path: Path, name: str) -> None:
    (tmp_path / "state").write_text(STARTING_STATE)
    result = _player(tmp_path, "--baseline", name, "--seed", "5", "--time", "1")
    assert result.returncode == 0, result.stderr
    assert Move.parse((tmp_path / "action").read_text()) in Board().legal_moves


def test_the_player_on_a_finished_game_says_so(tmp_path: Path) -> None:
    (tmp_path / "state").write_text(Board("k4/5/5/5/5/Q3K w 7").state().replace("6", "0", 1))
    result = _player(tmp_path, "--time", "1")
    assert result.returncode == 1 and "error: the game is over" in result.stderr


def test_play_in_the_terminal() -> None:
    lines = "nonsense\n4 0 2 0\n4 2 3 2\nundo\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "camelpy", "minichess", "play", "--time", "0.05"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "error: invalid move" in out and "error: illegal move" in out
    assert out.count("camelpy plays ") == 1
    # The start is shown first, after each of the two bad inputs, and after the undo.
    assert out.count("4  P P P P P\n5  R N B Q K") == 4

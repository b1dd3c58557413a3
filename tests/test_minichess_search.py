"""The MiniChess player (``camelpy.minichess.search``/``Searcher``), the course's baselines
(``baseline_move``), the evaluation, and the player and ``play`` commands. Searches run to fixed depths
or node counts, so the tests are deterministic; the few with a time limit check only that it ends."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest
from camelpy.minichess import (
    BASELINES,
    DEFAULT_WEIGHTS,
    STARTING_STATE,
    WEIGHT_NAMES,
    Board,
    Move,
    Samples,
    Searcher,
    SearchInfo,
    baseline_move,
    compare_weights,
    evaluate,
    search,
    selfplay_samples,
)
from camelpy.protocols.minichess import MEMORY, player_ply

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


def test_a_baseline_reports_every_finished_iteration() -> None:
    seen: list[tuple[Move, int]] = []
    move = baseline_move(Board(), "strong-minimax", seed=2, on_iteration=lambda m, d: seen.append((m, d)))
    assert [d for _, d in seen] == [1, 2, 3, 4] and seen[-1][0] == move
    assert all(m in Board().legal_moves for m, _ in seen)
    picked: list[tuple[Move, int]] = []
    move = baseline_move(Board(), "random", seed=2, on_iteration=lambda m, d: picked.append((m, d)))
    assert picked == [(move, 0)]
    with pytest.raises(TypeError, match="on_iteration must be callable, got int"):
        baseline_move(Board(), "weak-minimax", on_iteration=3)  # type: ignore[arg-type]


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
    assert start.value == DEFAULT_WEIGHTS["tempo"]  # level, plus the tempo
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


def test_a_baseline_player_killed_mid_search_has_written_a_move(tmp_path: Path) -> None:
    # Ten minutes a move: the alpha-beta baseline would search for five; it has written the move of
    # its first iterations long before, so a runner that kills it at its limit finds a move.
    (tmp_path / "state").write_text(STARTING_STATE)
    command = [sys.executable, "-m", "camelpy", "minichess", "player", "--baseline", "alpha-beta"]
    player = subprocess.Popen([*command, "--time", "600"], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "action").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        player.kill()
        player.wait()
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


def test_weights_by_name() -> None:
    assert WEIGHT_NAMES[0] == "pawn" and DEFAULT_WEIGHTS["queen"] == 900
    searcher = Searcher(hash_mb=1, weights={"tempo": 0})
    assert searcher.weights == {**DEFAULT_WEIGHTS, "tempo": 0}
    searcher.weights = {"queen": 1000}
    assert searcher.weights["queen"] == 1000 and searcher.weights["tempo"] == 0
    assert evaluate(Board(), {"tempo": 7}).value == 7
    with pytest.raises(ValueError, match="unknown weight 'queenn': expected one of pawn, knight"):
        Searcher(weights={"queenn": 1})
    with pytest.raises(ValueError, match="queen must be between -100000 and 100000, got 1000000"):
        search(Board(), depth=1, weights={"queen": 10**6})
    with pytest.raises(TypeError, match="queen must be an integer, got float 1.5"):
        evaluate(Board(), {"queen": 1.5})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="weights must be a mapping"):
        evaluate(Board(), [1, 2])  # type: ignore[arg-type]


def test_selfplay_samples_are_reproducible_and_labelled() -> None:
    one = selfplay_samples(4, nodes=300, seed=3, threads=1)
    two = selfplay_samples(4, nodes=300, seed=3, threads=2)
    assert one == two
    assert len(one.features) == len(one.plies) == len(one.white_to_move) == len(one.results) > 20
    assert all(len(f) == len(WEIGHT_NAMES) for f in one.features)
    assert selfplay_samples(4, nodes=300, seed=4) != one
    with pytest.raises(ValueError, match="nodes must be at least 1, got 0"):
        selfplay_samples(1, nodes=0)


def test_compare_weights_finds_the_blunderer() -> None:
    results = compare_weights({}, {"queen": -900}, 4, nodes=300, seed=2, threads=2)
    assert len(results) == 4 and sum(a + b for a, b in results) >= 6


def test_the_tuner_recovers_known_weights() -> None:
    import numpy as np  # in the test extra: a missing NumPy fails here, it is not skipped
    from camelpy.tools.games.minichess_tune import coefficients, fit

    # Synthetic positions whose results come from known weights: the fit must find them again.
    rng = np.random.default_rng(5)
    n = 40_000
    truth = {**DEFAULT_WEIGHTS, "pawn": 150, "knight": 250, "mobility": 10, "tempo": 30}
    # Feature ranges like real positions' (a piece or two up or down, mobility in tens), so that the
    # prediction is not saturated and every weight leaves its mark on the results.
    spread = {"pawn": 2, "knight": 1, "bishop": 1, "rook": 1, "queen": 1, "mobility": 12, "count": 10}
    columns = [rng.integers(-spread.get(m, 3), spread.get(m, 3) + 1, size=n) for m in WEIGHT_NAMES]
    features = np.stack(columns, axis=1).tolist()
    plies = rng.integers(0, 50, size=n).tolist()
    white = (rng.random(n) < 0.5).tolist()
    samples = Samples(features, plies, white, [0.0] * n)
    c = coefficients(samples)
    w = np.asarray([truth[name] for name in WEIGHT_NAMES], dtype=float)
    k, bias = 1.3, -60.0  # Black's advantage, which the fit must put in the bias, not in the weights
    p = 1 / (1 + 10 ** (-k * (c @ w + bias) / 400))  # chess's sigmoid, as the tuner's
    samples = Samples(features, plies, white, (rng.random(n) < p).astype(float).tolist())
    result = fit(samples)
    assert abs(result.k - k) < 0.6
    assert abs(result.bias / (result.weights["pawn"] / truth["pawn"]) - bias) < 15, result.bias
    # The ratios are what the data determine (K and the weights trade off): compare relative to pawn.
    scale = result.weights["pawn"] / truth["pawn"]
    for name in ("knight", "queen", "mobility", "tempo"):
        assert abs(result.weights[name] / scale - truth[name]) <= 0.15 * abs(truth[name]) + 4, name
    assert result.loss[1] <= result.start_loss[1]
    frozen = fit(samples, epochs=20, freeze=frozenset({"pawn", "queen"}))
    assert (
        frozen.weights["pawn"] == DEFAULT_WEIGHTS["pawn"]
        and frozen.weights["queen"] == DEFAULT_WEIGHTS["queen"]
    )
    assert frozen.weights["knight"] != DEFAULT_WEIGHTS["knight"]
    with pytest.raises(ValueError, match="unknown weight 'king' to freeze"):
        fit(samples, epochs=1, freeze=frozenset({"king"}))


def test_tune_command_writes_weights_the_player_reads(tmp_path: Path) -> None:
    out = tmp_path / "t"
    command = [sys.executable, "-m", "camelpy", "minichess", "tune", "--games", "20", "--nodes", "300"]
    command += ["--threads", "2", "--compare", "2", "--compare-nodes", "200", "--freeze", "pawn, queen"]
    result = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "positions from 20 games" in result.stdout and "tuned against the defaults: " in result.stdout
    weights = json.loads((out / "weights.json").read_text())
    assert set(weights) == set(WEIGHT_NAMES)
    record = json.loads((out / "tune.json").read_text())
    assert record["games"] == 20 and record["compare"]["pairs"] == 2 and record["weights"] == weights
    assert record["compare"]["nodes"] == 200 and record["freeze"] == ["pawn", "queen"]
    assert weights["pawn"] == DEFAULT_WEIGHTS["pawn"] and weights["queen"] == DEFAULT_WEIGHTS["queen"]
    unknown = subprocess.run(
        [*command[:5], "--freeze", "pawn,kings", "--out", str(out)], capture_output=True, text=True
    )
    assert unknown.returncode == 2 and "--freeze: unknown weight 'kings'" in unknown.stderr
    (tmp_path / "state").write_text(STARTING_STATE)
    played = _player(tmp_path, "--time", "1", "--weights", str(out / "weights.json"))
    assert played.returncode == 0, played.stderr
    (tmp_path / "bad.json").write_text("[1, 2]")
    bad = _player(tmp_path, "--time", "1", "--weights", str(tmp_path / "bad.json"))
    assert bad.returncode == 2 and "must hold an object of names to integers" in bad.stderr

"""Leiserchess self-play and ``camelpy leiserchess tune`` (the small games' tuner, shared with
MiniChess): reproducible data, comparisons that find a blunderer, weights the engine reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from camelpy.leiserchess import (
    WEIGHT_LIMITS,
    WEIGHT_NAMES,
    Board,
    Samples,
    compare_weights,
    evaluate,
    selfplay_samples,
)


def test_selfplay_samples_are_reproducible_and_labelled() -> None:
    one = selfplay_samples(3, nodes=300, seed=3, threads=1)
    two = selfplay_samples(3, nodes=300, seed=3, threads=2)
    assert one == two
    assert len(one.features) == len(one.tangerine_to_move) == len(one.results) > 15
    assert all(len(f) == len(WEIGHT_NAMES) for f in one.features)
    assert set(one.results) <= {0.0, 0.5, 1.0} and set(one.tangerine_to_move) == {True, False}
    assert selfplay_samples(3, nodes=300, seed=4) != one
    assert selfplay_samples(1, nodes=300, seed=3, rules=2018).results
    with pytest.raises(ValueError, match="nodes must be at least 1, got 0"):
        selfplay_samples(1, nodes=0)
    with pytest.raises(ValueError, match="rules must be 2016 or 2018, got 2017"):
        selfplay_samples(1, rules=2017)
    with pytest.raises(ValueError, match="unknown weight 'queen'"):
        selfplay_samples(1, weights={"queen": 1})


def test_compare_weights_finds_the_blunderer() -> None:
    # A player that likes its laser pointing away from the enemy king loses.
    away = {"king_face": -200, "laser_coverage": -100}
    results = compare_weights({}, away, 4, nodes=300, seed=2, threads=2)
    assert len(results) == 4 and sum(a + b for a, b in results) >= 7
    with pytest.raises(ValueError, match="weight pawn must be between 0 and 1000, got -5000"):
        compare_weights({"pawn": -5000}, {}, 1)


def test_the_tuner_recovers_known_weights_within_their_limits() -> None:
    import numpy as np  # in the test extra: a missing NumPy fails here, it is not skipped
    from camelpy.tools.games.leiserchess_tune import coefficients
    from camelpy.tools.games.selfplay_tune import fit

    rng = np.random.default_rng(11)
    n = 30_000
    # Explicit weights (not the defaults, which tuning moves): the start, and the truth to recover.
    begin = {
        **dict.fromkeys(WEIGHT_NAMES, 3),
        **dict(pawn=100, pawn_central=4, pawn_between=10, king_face=20, king_centre=6, king_mobility=4),
        **dict(laser_coverage=2, tempo=10),
    }
    truth = {**begin, "king_face": 60, "laser_coverage": 8, "tempo": 25}
    spread = {"pawn": 2, "laser_coverage": 8, "king_mobility": 5, "pawn_central": 6}
    features = np.stack(
        [rng.integers(-spread.get(m, 2), spread.get(m, 2) + 1, size=n) for m in WEIGHT_NAMES], axis=1
    ).tolist()
    tangerine = (rng.random(n) < 0.5).tolist()
    c = coefficients(Samples(features, tangerine, [0.0] * n))
    w = np.asarray([truth[name] for name in WEIGHT_NAMES], dtype=float)
    p = 1 / (1 + np.exp(-(c @ w + 40.0) / 400))
    y = (rng.random(n) < p).astype(float)
    start = [begin[name] for name in WEIGHT_NAMES]
    result = fit(c, y, WEIGHT_NAMES, start, freeze=frozenset({"pawn"}), limits=WEIGHT_LIMITS)
    assert result.weights["pawn"] == 100 and result.loss[1] <= result.start_loss[1]
    scale = 1.0  # the pawn is frozen at its true value, so K takes up no scale
    for name in ("king_face", "laser_coverage", "tempo"):
        assert abs(result.weights[name] * scale - truth[name]) <= 0.25 * truth[name] + 4, (name, result)
    # A weight whose best value lies outside its limits stops at the limit.
    low = {"king_face": (-200, 30)}
    capped = fit(c, y, WEIGHT_NAMES, start, epochs=30, freeze=frozenset({"pawn"}), limits=low)
    assert capped.weights["king_face"] == 30
    n_weights = len(WEIGHT_NAMES)
    with pytest.raises(ValueError, match=f"{n_weights} weights need positions × {n_weights} coefficients"):
        fit(c[:, :3], y, WEIGHT_NAMES, start)


def test_tune_command_writes_weights_the_engine_reads(tmp_path: Path) -> None:
    out = tmp_path / "t"
    command = [sys.executable, "-m", "camelpy", "leiserchess", "tune", "--games", "12", "--nodes", "300"]
    command += ["--threads", "2", "--compare", "1", "--compare-nodes", "200", "--freeze", "pawn"]
    result = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "positions from 12 games" in result.stdout and "tuned against the defaults: " in result.stdout
    weights = json.loads((out / "weights.json").read_text())
    assert set(weights) == set(WEIGHT_NAMES) and weights["pawn"] == 100
    assert all(WEIGHT_LIMITS[n][0] <= v <= WEIGHT_LIMITS[n][1] for n, v in weights.items())
    record = json.loads((out / "tune.json").read_text())
    assert record["games"] == 12 and record["rules"] == 2016 and record["compare"]["pairs"] == 1
    assert record["weights"] == weights and record["freeze"] == ["pawn"]
    # The protocol engine takes every tuned weight by setoption.
    lines = [f"setoption name {n} value {v}" for n, v in weights.items()] + ["eval", "quit"]
    engine = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    expected = evaluate(Board(), weights).value
    assert (
        engine.returncode == 0
        and engine.stdout.splitlines()
        == [line for line in engine.stdout.splitlines() if line.startswith(f"info string eval {expected} ")]
        != []
    ), engine.stdout
    unknown = subprocess.run(
        [*command[:5], "--freeze", "pawn,queen", "--out", str(out)], capture_output=True, text=True
    )
    assert unknown.returncode == 2 and "--freeze: unknown weight 'queen'" in unknown.stderr
    rules = subprocess.run(
        [*command[:5], "--rules", "2017", "--out", str(out)], capture_output=True, text=True
    )
    assert rules.returncode == 2 and "invalid choice" in rules.stderr


def test_threads_search_in_parallel_and_the_engine_takes_them() -> None:
    from camelpy.leiserchess import Searcher

    searcher = Searcher(hash_mb=4, threads=2)
    assert searcher.threads == 2
    result = searcher.search(Board(), depth=5)
    assert result.move in Board().legal_moves and result.info.depth == 5
    searcher.threads = 1
    with pytest.raises(ValueError, match="threads must be between 1 and 256, got 1000"):
        searcher.threads = 1000
    assert searcher.threads == 1
    lines = ["uci", "setoption name Threads value 2", "setoption name Hash value 8", "go depth 4", "wait"]
    engine = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess"],
        input="\n".join([*lines, "setoption name Threads value 0", "quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = engine.stdout.splitlines()
    assert "option name Threads type spin default 1 min 1 max 256" in out
    assert any(line.startswith("info depth 4 ") for line in out) and out[-2].startswith("bestmove ")
    assert out[-1] == "info string setoption: option 'Threads' takes an integer from 1 to 256, got '0'"

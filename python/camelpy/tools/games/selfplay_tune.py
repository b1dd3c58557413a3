"""The small games' tuner: fits an evaluation that is linear in its weights to self-play results.

MiniChess (``camelpy minichess tune``) and Leiserchess (``camelpy leiserchess tune``) both evaluate as
``Σ wᵢ·cᵢ`` over per-position coefficients ``c`` (the features, White or Tangerine minus the other
side, with the game's own adjustments: a ply-weighted count, a tempo of ±1), so chess's tuner
(:func:`camelpy.tools.chess.tune.tune`, Texel's method) fits them as it is: the coefficients are the slopes.
First the scale ``K`` and a colour bias ``b`` that make ``1 / (1 + 10^(−K · (c·w + b) / 400))`` predict
the game results best at the starting weights (the bias takes up the game's advantage for one colour,
which no colour-symmetric weight should imitate; it is fitted as one more weight on a column of ones
and reported, not exported: a constant changes no move the search prefers), then the mean squared
error between that prediction and the result is minimised over the weights by chess's Adam (each
step within the weights' limits, the rate halved every ten epochs), holding out a tenth of the
positions in whole blocks of games and keeping the epoch with the lowest error on them. Frozen weights
keep their starting values.

The data is generated, never committed: ``--games``, ``--nodes``, ``--random-plies`` and ``--seed``
(and the game's own settings) regenerate it exactly. With ``--compare PAIRS`` the tuned weights then
play the starting ones (other openings: seed + 1; ``--compare-nodes`` for a deeper search than the
data's) and the score, Elo ± 95 % and pentanomial are printed and recorded. Needs NumPy (``pip install
'camelpy[tune]'``).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> c = rng.integers(-3, 4, size=(20_000, 2)).astype(float)
>>> y = (rng.random(len(c)) < 1 / (1 + np.exp(-(c @ [100.0, 40.0]) / 400))).astype(float)
>>> result = fit(c, y, ("a", "b"), [100, 0], epochs=400, freeze=frozenset({"a"}))
>>> result.weights["a"], 25 <= result.weights["b"] <= 55, result.loss[1] < result.start_loss[1]
(100, True, True)
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from camelpy._args import int_arg, path_arg, str_arg
from camelpy.arena.stats import elo_estimate, pentanomial
from camelpy.tools.chess import tune as chess_tune

__all__ = ["TuneGame", "TuneResult", "add_arguments", "fit", "main"]

VALIDATION_EVERY = 10
"""Every tenth block of positions is held out for validation."""
VALIDATION_BLOCK = 256
"""Positions per block, in generation order: several whole games, so that held-out positions do not
sit in the same games as training ones (a game's positions share its result)."""
LEARNING_RATE = 2.0
"""Adam's first step, in centipawns (halved every ten epochs by chess's schedule): weights are tens to
hundreds, so steps of one or two move them at a useful pace without jitter."""
EPOCHS = 60
"""Passes over the positions: the learning rate has halved six times by then and the loss is flat."""
BATCH = 4096
"""Positions per Adam step: tens of steps an epoch on the hundred thousand positions of a run."""
K_RANGE = (0.01, 10.0)
"""Where ``K`` is searched (chess's sigmoid, base 10)."""
BIAS = "colour_bias"
"""The name the colour bias has while it is fitted as one more weight."""
BIAS_ROUNDS = 4
"""Turns of fitting K, then the colour bias, at the starting weights (they settle in two or three)."""
MAX_BIAS = 400.0
"""The colour bias is searched in ±this many centipawns (four pawns: far more than any opening gives)."""


def numpy(command: str) -> Any:
    """NumPy, or a :exc:`ValueError` saying how to install it for *command*."""
    try:
        import numpy
    except ImportError:
        raise ValueError(f"{command} needs NumPy: pip install 'camelpy[tune]'") from None
    return numpy


@dataclasses.dataclass(frozen=True)
class TuneResult:
    """What :func:`fit` found."""

    weights: dict[str, int]
    """The fitted weights, rounded."""
    k: float
    """The sigmoid scale fitted at the starting weights."""
    bias: float
    """The colour bias kept with the weights: the first side's advantage no weight explains, in
    centipawns (negative: the second side's). Reported, not part of the evaluation."""
    start_loss: tuple[float, float]
    """Training and validation loss at the starting weights."""
    loss: tuple[float, float]
    """Training and validation loss at the kept epoch."""
    epoch: int
    """The kept epoch (lowest validation loss)."""


def _golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 60) -> float:
    """The minimum of the unimodal *f* on [*lo*, *hi*] by golden-section search."""
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(steps):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(
    c: Any,
    y: Any,
    names: Sequence[str],
    start: Sequence[float],
    *,
    epochs: int = EPOCHS,
    freeze: frozenset[str] = frozenset(),
    limits: Mapping[str, tuple[int, int]] | None = None,
) -> TuneResult:
    """Fits the weights *names* (starting at *start*) to the coefficient matrix *c* (positions ×
    weights: the first side's evaluation is ``c @ w``) and the first side's results *y* (1, ½, 0),
    with chess's tuner (:func:`camelpy.tools.chess.tune.tune` on the results alone, the colour bias one more
    weight on a column of ones, whole blocks of games held out, the best epoch kept). The weights named
    in *freeze* keep their starting values; *limits* bound the others (least, largest).

    :raises: :exc:`ValueError` with fewer than 20 positions, shapes that do not agree, or an unknown
        name in *freeze*.
    """
    np = numpy("tuning")
    names = tuple(names)
    unknown = sorted(set(freeze) - set(names))
    if unknown:
        raise ValueError(f"unknown weight {unknown[0]!r} to freeze: expected one of {', '.join(names)}")
    c = np.asarray(c, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if c.ndim != 2 or c.shape[1] != len(names) or len(start) != len(names) or len(y) != len(c):
        raise ValueError(
            f"{len(names)} weights need positions × {len(names)} coefficients and one result each, "
            f"got {c.shape} coefficients, {len(y)} results and {len(start)} starting weights"
        )
    if len(y) < 2 * VALIDATION_EVERY:
        raise ValueError(f"too few positions to tune: {len(y)} (at least {2 * VALIDATION_EVERY})")
    held = (np.arange(len(y)) // VALIDATION_BLOCK) % VALIDATION_EVERY == 0
    if held.all() or not held.any():  # fewer positions than two blocks: fall back to every tenth one
        held = np.arange(len(y)) % VALIDATION_EVERY == 0
    # The weights, then the bias (a column of ones), which is always free.
    bounds = limits or {}
    lows = [bounds.get(n, (-math.inf, math.inf))[0] for n in names] + [-MAX_BIAS]
    highs = [bounds.get(n, (-math.inf, math.inf))[1] for n in names] + [MAX_BIAS]
    gradients = np.hstack([c, np.ones((len(c), 1))])
    theta0 = np.asarray([*start, 0.0], dtype=np.float64)
    data = chess_tune.Dataset(
        values=gradients @ theta0,
        gradients=gradients,
        results=y,
        scores=np.full(len(y), np.nan),
        theta0=theta0,
        names=(*names, BIAS),
        lows=np.asarray(lows, dtype=np.float64),
        highs=np.asarray(highs, dtype=np.float64),
    )
    train = ~held

    def loss(theta: Any, k: float, rows: Any) -> float:
        p = chess_tune.win_probability(gradients[rows] @ theta, k)
        return float(np.mean((p - y[rows]) ** 2))

    # K and the bias at the starting weights: golden-section searches, each in turn.
    theta = theta0.copy()
    k = 1.0

    def bias_loss(b: float, k: float) -> float:
        return loss(np.append(theta[:-1], b), k, train)

    for _ in range(BIAS_ROUNDS):
        k = _golden(lambda x: loss(theta, x, train), *K_RANGE)
        theta[-1] = _golden(functools.partial(bias_loss, k=k), -MAX_BIAS, MAX_BIAS)
    result = chess_tune.tune(
        data,
        k=k,
        blend=1.0,
        epochs=epochs,
        batch_size=BATCH,
        learning_rate=LEARNING_RATE,
        theta=theta,
        frozen=freeze,
        held_out=held,
        keep_best=True,
    )
    kept = np.append(np.clip(np.round(result.theta[:-1]), lows[:-1], highs[:-1]), result.theta[-1])
    weights = {n: int(x) for n, x in zip(names, kept[:-1])}
    start_loss = (loss(theta, k, train), loss(theta, k, held))
    final = (loss(kept, k, train), loss(kept, k, held))
    epoch = int(np.argmin(result.val_losses))
    return TuneResult(weights, k, float(kept[-1]), start_loss, final, epoch)


@dataclasses.dataclass(frozen=True)
class TuneGame:
    """What the tuner needs of a game: its weights, and how to make data and play comparisons."""

    command: str
    """The command, for messages (``camelpy minichess tune``)."""
    names: tuple[str, ...]
    """The weights, in the evaluation's order."""
    defaults: dict[str, int]
    """The starting weights."""
    selfplay: Callable[..., Any]
    """``selfplay(games, **settings)``: the game's self-play samples (with ``results``, the first
    side's)."""
    coefficients: Callable[[Any], Any]
    """The samples' coefficient matrix (positions × weights: the first side's evaluation ``c @ w``)."""
    compare: Callable[..., list[tuple[float, float]]]
    """``compare(a, b, pairs, **settings)``: *a*'s points in the two games of each pair."""
    limits: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    """Each weight's least and largest value, where the game bounds them."""


def add_arguments(parser: argparse.ArgumentParser, *, random_plies: int) -> None:
    """The ``tune`` subcommand's shared options (a game adds its own, such as ``--rules``)."""
    parser.add_argument("--games", type=int, default=2000, metavar="N", help="self-play games (default 2000)")
    parser.add_argument("--nodes", type=int, default=2000, metavar="N", help="nodes per move (default 2000)")
    parser.add_argument(
        "--random-plies",
        type=int,
        default=random_plies,
        metavar="N",
        help=f"random moves opening each game (default {random_plies})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the games' seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, metavar="N", help="threads (default 1)")
    parser.add_argument(
        "--compare",
        type=int,
        default=0,
        metavar="PAIRS",
        help="then play PAIRS game pairs against the defaults",
    )
    parser.add_argument(
        "--freeze",
        default="",
        metavar="NAMES",
        help="comma-separated weights that keep their default values (e.g. the material values)",
    )
    parser.add_argument(
        "--compare-nodes",
        type=int,
        metavar="N",
        help="nodes per move in the comparison games (default: --nodes)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="write weights.json and tune.json here")


def main(
    args: argparse.Namespace,
    game: TuneGame,
    *,
    max_random_plies: int,
    extra: Mapping[str, Any] | None = None,
) -> int:
    """Runs a game's ``tune`` command: *extra* settings (already checked) join the shared ones in
    what :attr:`TuneGame.selfplay` and :attr:`TuneGame.compare` receive and in ``tune.json``."""
    out = Path(path_arg(args.out, "--out"))
    games = int_arg(args.games, "--games", 1, 10_000_000)
    pairs = int_arg(args.compare, "--compare", 0, 10_000_000)
    settings: dict[str, Any] = {
        "nodes": int_arg(args.nodes, "--nodes", 1, 10**9),
        "random_plies": int_arg(args.random_plies, "--random-plies", 0, max_random_plies),
        "seed": int_arg(args.seed, "--seed", 0, 2**63),
        "threads": int_arg(args.threads, "--threads", 1, 256),
        **(extra or {}),
    }
    freeze = frozenset(name.strip() for name in str_arg(args.freeze, "--freeze").split(",") if name.strip())
    unknown = sorted(freeze - set(game.names))
    if unknown:
        raise ValueError(f"--freeze: unknown weight {unknown[0]!r}: expected one of {', '.join(game.names)}")
    compare_nodes = (
        settings["nodes"]
        if args.compare_nodes is None
        else int_arg(args.compare_nodes, "--compare-nodes", 1, 10**9)
    )
    numpy(game.command)
    out.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    samples = game.selfplay(games, **settings)
    c, y = game.coefficients(samples), samples.results
    generated = time.monotonic() - began
    print(f"{len(y)} positions from {games} games in {generated:.1f} s")
    start = [game.defaults[n] for n in game.names]
    result = fit(c, y, game.names, start, freeze=freeze, limits=game.limits)
    print(
        f"K {result.k:.3f}, colour bias {result.bias:+.1f}; loss (train / validation) "
        f"{result.start_loss[0]:.5f} / "
        f"{result.start_loss[1]:.5f} -> {result.loss[0]:.5f} / {result.loss[1]:.5f} at epoch {result.epoch}"
    )
    for name in game.names:
        print(f"  {name:16} {game.defaults[name]:6} -> {result.weights[name]:6}")
    record: dict[str, object] = {
        "games": games,
        **settings,
        "positions": len(y),
        "generation_seconds": round(generated, 1),
        "k": result.k,
        "bias": round(result.bias, 1),
        "start_loss": result.start_loss,
        "loss": result.loss,
        "epoch": result.epoch,
        "freeze": sorted(freeze),
        "weights": result.weights,
    }
    (out / "weights.json").write_text(json.dumps(result.weights, indent=2) + "\n", encoding="utf-8")
    if pairs:
        compared = {**settings, "seed": settings["seed"] + 1, "nodes": compare_nodes}
        results = game.compare(result.weights, game.defaults, pairs, **compared)
        pairs_scores = [a + b for a, b in results]
        ptnml = pentanomial(pairs_scores)
        elo = elo_estimate(ptnml)
        points = sum(pairs_scores)
        games = 2 * len(results)
        print(f"tuned against the defaults: {points:g}/{games}, Elo {elo}, pentanomial {list(ptnml)}")
        record["compare"] = {
            "pairs": len(results),
            "seed": compared["seed"],
            "nodes": compared["nodes"],
            "points": points,
            "elo": round(elo.elo, 1),
            "error": round(elo.error, 1),
            "pentanomial": list(ptnml),
        }
    (out / "tune.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0

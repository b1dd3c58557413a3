"""``camelpy minichess tune``: fits the MiniChess player's evaluation weights to self-play results.

The evaluation is linear in its weights (:func:`camelpy.minichess.evaluate`): for a position with
features ``f`` (White minus Black), ply ``p`` and White to move or not, White's evaluation is
``Σ wᵢ·cᵢ`` with ``cᵢ = fᵢ``, except ``c_count = f_count · p / 50`` and ``c_tempo = ±1``. The tuner
(as ``camelpy tune`` does for chess, Texel's method) first fits the scale ``K`` and a colour bias
``b`` that make ``sigmoid(K · (eval + b) / 400)`` predict the game results best at the starting weights
(the bias takes up the game's advantage for one colour, which no colour-symmetric weight should
imitate; it is reported, not exported), then minimises the
mean squared error between that prediction and the result over the weights with Adam, full batch, and
keeps the weights at the epoch with the lowest error on a held-out tenth of the positions (whole blocks
of games). ``--freeze NAMES`` keeps the named weights at their default values (for example the piece
values, which the count and the piece values can trade between them).

The data is generated, never committed: ``--games``, ``--nodes``, ``--random-plies`` and ``--seed``
regenerate it exactly (:func:`camelpy.minichess.selfplay_samples`). With ``--compare PAIRS`` the tuned
weights then play the defaults (:func:`camelpy.minichess.compare_weights`, other openings: seed
+ 1; ``--compare-nodes`` for a deeper search than the data's) and the score, Elo ± 95 % and
pentanomial are printed and recorded. Needs NumPy
(``pip install 'camelpy[tune]'``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import time
from pathlib import Path
from typing import Any

from camelpy._args import int_arg, path_arg, str_arg
from camelpy.minichess import (
    DEFAULT_WEIGHTS,
    MAX_PLIES,
    WEIGHT_NAMES,
    Samples,
    compare_weights,
    selfplay_samples,
)
from camelpy.tools.stats import elo_estimate, pentanomial

__all__ = ["TuneResult", "add_arguments", "coefficients", "fit", "main"]

COUNT = WEIGHT_NAMES.index("count")
TEMPO = WEIGHT_NAMES.index("tempo")
VALIDATION_EVERY = 10
"""Every tenth block of positions is held out for validation."""
VALIDATION_BLOCK = 256
"""Positions per block, in generation order: several whole games, so that held-out positions do not
sit in the same games as training ones (a game's positions share its result)."""
LEARNING_RATE = 1.0
"""Adam's step, in centipawns: weights are tens to hundreds, so a step of about one moves them at a
useful pace without jitter."""
EPOCHS = 3000
"""Full-batch Adam steps: a 12-weight fit converges in well under this (the loss flattens)."""
BIAS_ROUNDS = 4
"""Turns of fitting K, then the colour bias, at the starting weights (they settle in two or three)."""
MAX_BIAS = 400.0
"""The colour bias is searched in ±this many centipawns (four pawns: far more than any opening gives)."""


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ValueError("camelpy minichess tune needs NumPy: pip install 'camelpy[tune]'") from None
    return numpy


def coefficients(samples: Samples) -> Any:
    """The (positions × weights) matrix ``c`` with White's evaluation ``c @ w`` (see the module)."""
    np = _numpy()
    c = np.asarray(samples.features, dtype=np.float64).reshape(-1, len(WEIGHT_NAMES))
    plies = np.minimum(np.asarray(samples.plies, dtype=np.float64), MAX_PLIES)
    c[:, COUNT] *= plies / MAX_PLIES
    c[:, TEMPO] = np.where(np.asarray(samples.white_to_move), 1.0, -1.0)
    return c


@dataclasses.dataclass(frozen=True)
class TuneResult:
    """What :func:`fit` found."""

    weights: dict[str, int]
    """The fitted weights, rounded."""
    k: float
    """The sigmoid scale fitted at the starting weights."""
    bias: float
    """The colour bias kept with the weights: White's advantage no weight explains, in centipawns
    (negative: Black's). Reported, not part of the evaluation."""
    start_loss: tuple[float, float]
    """Training and validation loss at the starting weights."""
    loss: tuple[float, float]
    """Training and validation loss at the kept epoch."""
    epoch: int
    """The kept epoch (lowest validation loss)."""


def _loss(np: Any, c: Any, y: Any, w: Any, k: float) -> float:
    p = 1.0 / (1.0 + np.exp(-k * (c @ w) / 400.0))
    return float(np.mean((p - y) ** 2))


def _golden(f: Any, lo: float, hi: float, steps: int = 60) -> float:
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
    samples: Samples,
    start: dict[str, int] | None = None,
    *,
    epochs: int = EPOCHS,
    freeze: frozenset[str] = frozenset(),
) -> TuneResult:
    """Fits the weights to *samples* from *start* (default: the default weights); the weights named
    in *freeze* keep their starting values. A colour bias (a constant in White's favour, in
    centipawns) is fitted with them and reported, not exported: MiniChess favours one colour by more
    than the tempo can say, and no colour-symmetric weight should be bent to say it instead (a
    constant does not change which move the search prefers).

    :raises: :exc:`ValueError` with fewer than 20 positions, an unknown name in *freeze*, or without
        NumPy.
    """
    np = _numpy()
    unknown = sorted(set(freeze) - set(WEIGHT_NAMES))
    if unknown:
        raise ValueError(
            f"unknown weight {unknown[0]!r} to freeze: expected one of {', '.join(WEIGHT_NAMES)}"
        )
    if len(samples.results) < 2 * VALIDATION_EVERY:
        raise ValueError(
            f"too few positions to tune: {len(samples.results)} (at least {2 * VALIDATION_EVERY})"
        )
    # The weights, then the bias (a column of ones), which is always free.
    free = np.asarray([name not in freeze for name in WEIGHT_NAMES] + [True], dtype=np.float64)
    c = coefficients(samples)
    c = np.hstack([c, np.ones((len(c), 1))])
    y = np.asarray(samples.results, dtype=np.float64)
    held = (np.arange(len(y)) // VALIDATION_BLOCK) % VALIDATION_EVERY == 0
    if held.all() or not held.any():  # fewer positions than two blocks: fall back to every tenth one
        held = np.arange(len(y)) % VALIDATION_EVERY == 0
    ct, yt, cv, yv = c[~held], y[~held], c[held], y[held]
    w0 = np.asarray([(start or DEFAULT_WEIGHTS)[n] for n in WEIGHT_NAMES] + [0.0], dtype=np.float64)
    # K and the bias at the starting weights: golden-section searches, each in turn.
    k = 1.0

    def bias_loss(b: float, k: float) -> float:
        return _loss(np, ct, yt, np.append(w0[:-1], b), k)

    for _ in range(BIAS_ROUNDS):
        k = _golden(lambda x: _loss(np, ct, yt, w0, x), 0.01, 10.0)
        w0[-1] = _golden(functools.partial(bias_loss, k=k), -MAX_BIAS, MAX_BIAS)
    start_loss = (_loss(np, ct, yt, w0, k), _loss(np, cv, yv, w0, k))
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    best = (start_loss[1], 0, w0.copy())
    for epoch in range(1, epochs + 1):
        p = 1.0 / (1.0 + np.exp(-k * (ct @ w) / 400.0))
        grad = free * (ct.T @ (2.0 * (p - yt) * p * (1.0 - p) * k / 400.0)) / len(yt)
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad**2
        w -= LEARNING_RATE * (m / (1 - beta1**epoch)) / (np.sqrt(v / (1 - beta2**epoch)) + eps)
        validation = _loss(np, cv, yv, w, k)
        if validation < best[0]:
            best = (validation, epoch, w.copy())
    kept = np.append(np.round(best[2][:-1]), best[2][-1])
    weights = {n: int(x) for n, x in zip(WEIGHT_NAMES, kept[:-1])}
    final = (_loss(np, ct, yt, kept, k), _loss(np, cv, yv, kept, k))
    return TuneResult(weights, k, float(kept[-1]), start_loss, final, best[1])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tune`` subcommand's options."""
    parser.add_argument("--games", type=int, default=2000, metavar="N", help="self-play games (default 2000)")
    parser.add_argument("--nodes", type=int, default=2000, metavar="N", help="nodes per move (default 2000)")
    parser.add_argument(
        "--random-plies", type=int, default=4, metavar="N", help="random moves opening each game (default 4)"
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


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy minichess tune``."""
    out = Path(path_arg(args.out, "--out"))
    games = int_arg(args.games, "--games", 1, 10_000_000)
    pairs = int_arg(args.compare, "--compare", 0, 10_000_000)
    settings = {
        "nodes": int_arg(args.nodes, "--nodes", 1, 10**9),
        "random_plies": int_arg(args.random_plies, "--random-plies", 0, MAX_PLIES),
        "seed": int_arg(args.seed, "--seed", 0, 2**63),
        "threads": int_arg(args.threads, "--threads", 1, 256),
    }
    freeze = frozenset(name.strip() for name in str_arg(args.freeze, "--freeze").split(",") if name.strip())
    unknown = sorted(freeze - set(WEIGHT_NAMES))
    if unknown:
        raise ValueError(
            f"--freeze: unknown weight {unknown[0]!r}: expected one of {', '.join(WEIGHT_NAMES)}"
        )
    compare_nodes = (
        settings["nodes"]
        if args.compare_nodes is None
        else int_arg(args.compare_nodes, "--compare-nodes", 1, 10**9)
    )
    _numpy()
    out.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    samples = selfplay_samples(
        games,
        nodes=settings["nodes"],
        random_plies=settings["random_plies"],
        seed=settings["seed"],
        threads=settings["threads"],
    )
    generated = time.monotonic() - began
    print(f"{len(samples.results)} positions from {games} games in {generated:.1f} s")
    result = fit(samples, freeze=freeze)
    print(
        f"K {result.k:.3f}, colour bias {result.bias:+.1f}; loss (train / validation) "
        f"{result.start_loss[0]:.5f} / "
        f"{result.start_loss[1]:.5f} -> {result.loss[0]:.5f} / {result.loss[1]:.5f} at epoch {result.epoch}"
    )
    for name in WEIGHT_NAMES:
        print(f"  {name:16} {DEFAULT_WEIGHTS[name]:6} -> {result.weights[name]:6}")
    record: dict[str, object] = {
        "games": games,
        **settings,
        "positions": len(samples.results),
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
        results = compare_weights(
            result.weights,
            DEFAULT_WEIGHTS,
            pairs,
            nodes=compared["nodes"],
            random_plies=compared["random_plies"],
            seed=compared["seed"],
            threads=compared["threads"],
        )
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

"""``camelpy tune``: fits every weight of the evaluation to labelled positions (Texel's method, by gradient).

The model. For each position the core's ``linearize`` gives the evaluation ``E0`` (White's point of view,
unrounded) at the current weights ``θ0`` and its slope ``g`` in every weight, so that
``E(θ) ≈ E0 + g·(θ − θ0)``: exact for the weights the evaluation is linear in (nearly all of them: a weight
times a count, tapered by phase and scaled), a local expansion for the few that are not (king danger,
thresholds, scale factors), which is why a run re-linearizes at the new weights for a second *round*. The
predicted result is ``σ(E) = 1 / (1 + 10^(−K·E/400))``; the target blends the game result and the search
score, ``t = λ·result + (1 − λ)·σ(score)``; the loss is the mean squared error ``(σ(E) − t)²``.

The fit. ``K`` is fitted first (the scale that best turns the current evaluation into results), then the
weights by Adam on mini-batches, each step clipped to the weight's range, with a held-out validation split
whose loss is reported per epoch alongside the training loss. Weights the data cannot teach are frozen
(``FROZEN_BY_DEFAULT``; ``--freeze``): their gradient is zeroed, so Adam never moves them.

Why Python with numpy: what must be fast per position, the evaluation and its slope in every weight, is
in the core (multi-threaded, in Rust); what remains is dense arithmetic on an N × P matrix (P = 94 weights)
that numpy runs at memory speed, and an optimizer, schedule and outputs that are clearer and easier to test
in Python. A million positions take about a minute to linearize on two cores and seconds per epoch.

Outputs: the weights as JSON (``Engine.set_params`` and the UCI ``setoption`` of each name load them), the
core's parameter table rewritten with them as defaults (``--write-source``, so the change is one reviewed
commit with ``Bench: N``), a PNG of the training and validation loss per epoch, and a table of the weights
that moved most.

>>> import numpy as np
>>> data = synthetic(positions=4000, weights=3, seed=1)  # known best weights: data.truth
>>> result = tune(data, blend=0.0, epochs=30, batch_size=256, learning_rate=2.0, seed=1)
>>> bool(np.allclose(result.theta, data.truth, atol=0.01)), result.val_losses[-1] < result.val_losses[0]
(True, True)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from camelpy import _core
from camelpy._args import check_file, open_regular, read_lines
from camelpy._args import read_text as _read_text
from camelpy._quote import quote

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]
else:
    FloatArray = Any

__all__ = [
    "DEFAULT_BLEND",
    "FROZEN_BY_DEFAULT",
    "linearize_file",
    "Dataset",
    "TuneResult",
    "add_arguments",
    "fit_k",
    "linearize",
    "main",
    "moved_table",
    "read_text",
    "rewrite_source",
    "synthetic",
    "tune",
    "win_probability",
]

DEFAULT_BLEND = 0.5
"""Weight of the game result in the target (the rest is the search score): results alone are noisy
(one blunder decides a game), scores alone teach the search's own opinion back to it."""

DEFAULT_EPOCHS = 30
"""Passes over the training positions: the validation loss has flattened by then on a million positions."""

DEFAULT_BATCH = 16384
"""Positions per Adam step: large enough for a steady gradient, small enough for ~100 steps per epoch."""

DEFAULT_LEARNING_RATE = 1.0
"""Adam's step in weight units (centipawns for most weights)."""

LEARNING_RATE_DECAY = 0.5
"""The learning rate is multiplied by this every ``DECAY_EPOCHS`` epochs, to settle at the end."""

DECAY_EPOCHS = 10
"""Epochs between two learning-rate decays."""

DEFAULT_VALIDATION = 0.1
"""Share of the positions held out to measure the fit on positions it was not fitted to."""

ADAM_BETAS = (0.9, 0.999)
"""Adam's decay rates of the gradient's mean and square (Kingma and Ba's defaults)."""

ADAM_EPSILON = 1e-8
"""Adam's guard against division by zero."""

K_RANGE = (0.05, 5.0)
"""Where ``K`` is searched: from almost flat to a step function."""

FROZEN_BY_DEFAULT = ("mopup_threshold", "mopup_edge", "mopup_proximity")
"""Weights kept as they are unless ``--freeze`` says otherwise: the mop-up terms steer the search towards
mate with a lone king, they do not predict results, and self-play data (adjudicated long before such
endings) taught run 1 to zero them, after which KRK and KBBK were drawn by the fifty-move rule
(``tests/test_endgames.py``)."""

MAX_TEXT_DATA_BYTES = 4 << 30
"""Largest ``FEN | score | result`` text file read (4 GiB, some 50 M positions): far beyond the public
tuning sets (a few hundred MB); the positions are held in memory, so a bigger file is a mistake."""

MAX_SOURCE_BYTES = 1 << 20
"""Largest weights source ``--write-source`` rewrites (1 MiB; the evaluation's weights file is tens of
kilobytes)."""

LN10_OVER_400 = math.log(10) / 400


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as err:  # pragma: no cover - numpy is in the tune and test extras
        raise ImportError("camelpy tune needs numpy: pip install 'camelpy[tune]'") from err
    return numpy


@dataclasses.dataclass
class Dataset:
    """Labelled positions, made linear in the weights at ``theta0``."""

    values: FloatArray
    """Per position, the evaluation at ``theta0`` (White's view, centipawns, unrounded)."""
    gradients: FloatArray
    """Per position and weight, the evaluation's slope in that weight (N × P)."""
    results: FloatArray
    """Per position, the game result from White's view: 1, 0.5 or 0."""
    scores: FloatArray
    """Per position, the search score from White's view in centipawns (NaN where there is none)."""
    theta0: FloatArray
    """The weights the positions were linearized at."""
    names: tuple[str, ...]
    """The weights' names, in the core's order."""
    lows: FloatArray
    """Each weight's smallest allowed value."""
    highs: FloatArray
    """Each weight's largest allowed value."""
    fens: tuple[str, ...] = ()
    """The positions, to linearize again at new weights (empty for synthetic data)."""
    truth: FloatArray | None = None
    """For synthetic data: the weights that generated it."""

    def __len__(self) -> int:
        return len(self.values)

    def predict(self, theta: FloatArray) -> FloatArray:
        """The evaluations at weights *theta* (the linear model)."""
        result: FloatArray = self.values + self.gradients @ (theta - self.theta0)
        return result


@dataclasses.dataclass
class TuneResult:
    """What :func:`tune` found."""

    theta: FloatArray
    """The fitted weights (floats; :meth:`weights` rounds them)."""
    theta0: FloatArray
    """The weights it started from."""
    names: tuple[str, ...]
    """The weights' names."""
    k: float
    """The fitted sigmoid scale."""
    train_losses: list[float]
    """Training loss before the first epoch and after each."""
    val_losses: list[float]
    """Validation loss before the first epoch and after each."""

    def weights(self) -> dict[str, int]:
        """The fitted weights, rounded, by name."""
        return {name: int(round(float(v))) for name, v in zip(self.names, self.theta)}


def win_probability(cp: FloatArray, k: float) -> FloatArray:
    """The expected result for a White-view evaluation *cp* in centipawns: ``1 / (1 + 10^(−k·cp/400))``.

    >>> import numpy as np
    >>> [round(float(p), 3) for p in win_probability(np.array([-400.0, 0.0, 400.0]), 1.0)]
    [0.091, 0.5, 0.909]
    """
    np = _numpy()
    result: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * LN10_OVER_400 * k * cp))
    return result


def _targets(data: Dataset, k: float, blend: float) -> FloatArray:
    np = _numpy()
    from_score = np.where(np.isnan(data.scores), data.results, win_probability(np.nan_to_num(data.scores), k))
    result: FloatArray = blend * data.results + (1.0 - blend) * from_score
    return result


def fit_k(data: Dataset) -> float:
    """The scale ``K`` that best turns the current evaluations into the game results (least squares), by
    golden-section search over ``K_RANGE``.

    >>> data = synthetic(positions=20000, weights=2, k=1.3, seed=2, offset=0.0)
    >>> abs(fit_k(data) - 1.3) < 0.1
    True
    """
    np = _numpy()

    def loss(k: float) -> float:
        return float(np.mean((win_probability(data.values, k) - data.results) ** 2))

    low, high = K_RANGE
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    la, lb = loss(a), loss(b)
    for _ in range(60):
        if la < lb:
            high, b, lb = b, a, la
            a = high - ratio * (high - low)
            la = loss(a)
        else:
            low, a, la = a, b, lb
            b = low + ratio * (high - low)
            lb = loss(b)
    return (low + high) / 2


def tune(
    data: Dataset,
    *,
    k: float | None = None,
    blend: float = DEFAULT_BLEND,
    epochs: int = DEFAULT_EPOCHS,
    batch_size: int = DEFAULT_BATCH,
    learning_rate: float = DEFAULT_LEARNING_RATE,
    validation: float = DEFAULT_VALIDATION,
    seed: int = 0,
    theta: FloatArray | None = None,
    frozen: Iterable[str] = (),
    progress: Callable[[int, float, float], object] | None = None,
    held_out: Any = None,
    keep_best: bool = False,
) -> TuneResult:
    """Fits the weights to *data* (see the module documentation): ``K`` first unless given, then Adam on
    mini-batches of *batch_size* for *epochs* passes, starting from *theta* (default: ``data.theta0``).
    *validation* of the positions (drawn with *seed*) are held out, or those *held_out* marks (a
    boolean array: whole games, say, so that no game has positions on both sides). *progress* gets
    ``(epoch, train_loss, val_loss)`` after each epoch. The weights named in *frozen* keep their
    starting values. With *keep_best* the weights returned are those after the epoch with the lowest
    validation loss (the start counts as epoch 0), not the last ones.

    >>> data = synthetic(positions=2000, weights=3, seed=3)
    >>> result = tune(data, epochs=5, batch_size=256, learning_rate=2.0, frozen=["w1"])
    >>> bool(result.theta[1] == data.theta0[1]), bool(result.theta[0] != data.theta0[0])
    (True, True)

    :raises: :exc:`ValueError` for a blend outside [0, 1], a validation share outside [0, 1), fewer than
        two positions, a non-positive epoch count, batch size or learning rate, or an unknown name in
        *frozen*.
    """
    np = _numpy()
    if not 0.0 <= blend <= 1.0:
        raise ValueError(f"blend must be between 0 and 1, got {blend!r}")
    if not 0.0 <= validation < 1.0:
        raise ValueError(f"validation must be in [0, 1), got {validation!r}")
    if epochs < 1 or batch_size < 1 or not learning_rate > 0:
        raise ValueError(
            f"epochs, batch_size and learning_rate must be positive, got {epochs!r}, {batch_size!r}, "
            f"{learning_rate!r}"
        )
    if len(data) < 2:
        raise ValueError(f"tuning needs at least 2 positions, got {len(data)}")
    if isinstance(frozen, str):
        raise TypeError(f"frozen must be a collection of weight names, not the string {quote(frozen)}")
    unknown = [name for name in frozen if name not in data.names]
    if unknown:
        raise ValueError(f"cannot freeze unknown weight {quote(unknown[0])}")
    movable = np.array([name not in set(frozen) for name in data.names], dtype=np.float64)
    k = fit_k(data) if k is None else k
    targets = _targets(data, k, blend)
    rng = np.random.default_rng(seed)
    if held_out is None:
        order = rng.permutation(len(data))
        held = int(len(data) * validation)
        val_idx, train_idx = order[:held], order[held:]
    else:
        mask = np.asarray(held_out, dtype=bool)
        if mask.shape != (len(data),):
            raise ValueError(f"held_out must mark each of the {len(data)} positions, got shape {mask.shape}")
        val_idx, train_idx = np.flatnonzero(mask), np.flatnonzero(~mask)
        if len(train_idx) == 0:
            raise ValueError("held_out holds out every position: nothing is left to train on")
    if len(val_idx) == 0:
        val_idx = train_idx

    slopes = data.gradients
    # The slopes stay float32 and are multiplied by float32 vectors: a float64 vector would make numpy
    # convert (copy) every row it touches, doubling the memory traffic that bounds each epoch.
    dtype = slopes.dtype

    def losses(theta: FloatArray) -> tuple[float, float]:
        """The training and validation loss, from one pass over every position (no row copies)."""
        pred = win_probability(data.values + slopes @ (theta - data.theta0).astype(dtype), k)
        sq = (pred - targets) ** 2
        return float(np.mean(sq[train_idx])), float(np.mean(sq[val_idx]))

    current = np.array(data.theta0 if theta is None else theta, dtype=np.float64)
    m = np.zeros_like(current)
    v = np.zeros_like(current)
    beta1, beta2 = ADAM_BETAS
    step = 0
    first = losses(current)
    train_losses = [first[0]]
    val_losses = [first[1]]
    best = (first[1], current.copy())
    rate = learning_rate
    for epoch in range(1, epochs + 1):
        shuffled = rng.permutation(train_idx)
        for start in range(0, len(shuffled), batch_size):
            idx = shuffled[start : start + batch_size]
            rows = slopes[idx]
            pred = win_probability(data.values[idx] + rows @ (current - data.theta0).astype(dtype), k)
            # d/dθ of mean((σ − t)²), with dσ/dE = σ(1 − σ)·K·ln10/400.
            error = 2.0 * (pred - targets[idx]) * pred * (1.0 - pred) * (k * LN10_OVER_400)
            grad = movable * (rows.T @ error.astype(dtype)) / len(idx)
            step += 1
            m = beta1 * m + (1 - beta1) * grad
            v = beta2 * v + (1 - beta2) * grad * grad
            m_hat = m / (1 - beta1**step)
            v_hat = v / (1 - beta2**step)
            current = np.clip(current - rate * m_hat / (np.sqrt(v_hat) + ADAM_EPSILON), data.lows, data.highs)
        if epoch % DECAY_EPOCHS == 0:
            rate *= LEARNING_RATE_DECAY
        train, val = losses(current)
        train_losses.append(train)
        val_losses.append(val)
        if val < best[0]:
            best = (val, current.copy())
        if progress is not None:
            progress(epoch, train_losses[-1], val_losses[-1])
    kept = best[1] if keep_best else current
    return TuneResult(kept, np.array(data.theta0), data.names, k, train_losses, val_losses)


def synthetic(
    *, positions: int, weights: int, k: float = 1.0, seed: int = 0, noise: float = 0.0, offset: float = 30.0
) -> Dataset:
    """Labelled positions whose best weights are known: random slopes, true weights ``truth``, results
    drawn as wins and losses with the model's own probabilities (*noise* adds Gaussian noise to
    the scores). Starts ``theta0`` away from the truth (Gaussian, *offset* centipawns). For tests and
    examples.
    """
    np = _numpy()
    rng = np.random.default_rng(seed)
    gradients = rng.normal(0.0, 1.0, size=(positions, weights))
    truth = rng.uniform(50.0, 150.0, size=weights)
    values_true = gradients @ truth
    p = win_probability(values_true, k)
    # Wins and losses only, with E[result] = p: the least-squares optimum is the truth itself.
    results = (rng.uniform(size=positions) < p).astype(np.float64)
    theta0 = truth + rng.normal(0.0, offset, size=weights)
    scores = values_true + rng.normal(0.0, noise, size=positions) if noise else values_true.copy()
    return Dataset(
        values=gradients @ theta0,
        gradients=gradients,
        results=results,
        scores=scores,
        theta0=theta0,
        names=tuple(f"w{i}" for i in range(weights)),
        lows=np.full(weights, -1e9),
        highs=np.full(weights, 1e9),
        truth=truth,
    )


def linearize(
    fens: Sequence[str],
    results: Sequence[float],
    scores: Sequence[float | None],
    *,
    params: dict[str, int] | None = None,
    threads: int | None = None,
) -> Dataset:
    """Labelled positions (FENs, White-view results and scores) made linear in the weights at *params*
    (default: the core's defaults), by the core on *threads* threads.

    >>> data = linearize(["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"], [1.0], [None])
    >>> float(data.gradients[0][data.names.index("pawn_value_eg")]), len(data.names) == len(data.theta0)
    (1.0, True)
    """
    np = _numpy()
    table = _core.default_params()
    current = dict(params or {})
    items: list[tuple[str, list[str], bool]] = [(fen, [], False) for fen in fens]
    values, gradients = _core.linearize(
        items, params=[(n, current.get(n, v)) for n, v, _, _ in table], threads=threads
    )
    return Dataset(
        values=np.frombuffer(values, dtype=np.float64),
        gradients=np.frombuffer(gradients, dtype=np.float32).reshape(len(fens), len(table)),
        results=np.asarray(results, dtype=np.float64),
        scores=np.asarray([math.nan if s is None else s for s in scores], dtype=np.float64),
        theta0=np.array([current.get(n, v) for n, v, _, _ in table], dtype=np.float64),
        names=tuple(n for n, _, _, _ in table),
        lows=np.array([lo for _, _, lo, _ in table], dtype=np.float64),
        highs=np.array([hi for _, _, _, hi in table], dtype=np.float64),
        fens=tuple(fens),
    )


def linearize_file(
    path: str | Path,
    *,
    params: dict[str, int] | None = None,
    threads: int | None = None,
    every: int = 1,
    limit: int | None = None,
    quiet_margin: int | None = None,
) -> Dataset:
    """The quiet positions of a ``camelpy datagen`` file (not in check, best move neither a capture nor a
    promotion; with *quiet_margin*, also static evaluation within that many centipawns of the quiescence
    score), every *every*-th of them and at most *limit*, made linear in the weights at *params*, all
    in the core: the records never become Python objects.

    :raises: :class:`camelpy.errors.DataFileError` for a file that is not a camelpy data file.
    """
    np = _numpy()
    table = _core.default_params()
    current = dict(params or {})
    values, gradients, results, scores = _core.linearize_file(
        path,
        params=[(n, current.get(n, v)) for n, v, _, _ in table],
        threads=threads,
        every=every,
        limit=limit,
        quiet_margin=quiet_margin,
    )
    count = len(values) // 8
    return Dataset(
        values=np.frombuffer(values, dtype=np.float64),
        gradients=np.frombuffer(gradients, dtype=np.float32).reshape(count, len(table)),
        results=np.frombuffer(results, dtype=np.float32).astype(np.float64),
        scores=np.frombuffer(scores, dtype=np.float32).astype(np.float64),
        theta0=np.array([current.get(n, v) for n, v, _, _ in table], dtype=np.float64),
        names=tuple(n for n, _, _, _ in table),
        lows=np.array([lo for _, _, lo, _ in table], dtype=np.float64),
        highs=np.array([hi for _, _, _, hi in table], dtype=np.float64),
    )


def _concat(parts: list[Dataset]) -> Dataset:
    np = _numpy()
    return dataclasses.replace(
        parts[0],
        values=np.concatenate([p.values for p in parts]),
        gradients=np.concatenate([p.gradients for p in parts]),
        results=np.concatenate([p.results for p in parts]),
        scores=np.concatenate([p.scores for p in parts]),
        fens=tuple(f for p in parts for f in p.fens),
    )


def read_text(
    lines: Iterable[str], source: str = "<text>"
) -> tuple[list[str], list[float], list[float | None]]:
    """Reads ``FEN | score | result`` lines (``camelpy datagen``'s text export: the score in centipawns
    from the side to move's view or ``-`` for none, the result from White's view as 1.0, 0.5 or 0.0) into
    FENs, White-view results and White-view scores. Blank lines and ``#`` comments are skipped.

    >>> read_text(["8/8/8/8/8/8/4P3/k3K3 b - - 0 1 | -120 | 1.0"])
    (['8/8/8/8/8/8/4P3/k3K3 b - - 0 1'], [1.0], [120.0])

    :raises: :exc:`ValueError` naming the line for a malformed one.
    """
    fens: list[str] = []
    results: list[float] = []
    scores: list[float | None] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parts = [p.strip() for p in text.split("|")]
        try:
            if len(parts) != 3:
                raise ValueError("expected 'FEN | score | result'")
            fen, score_text, result_text = parts
            result = float(result_text)
            if result not in (0.0, 0.5, 1.0):
                raise ValueError(f"result must be 1.0, 0.5 or 0.0, got {quote(result_text)}")
            score = None if score_text == "-" else float(score_text)
            if score is not None and not math.isfinite(score):
                raise ValueError(f"score must be a finite number, got {quote(score_text)}")
            black = fen.split()[1:2] == ["b"]
        except ValueError as err:
            raise ValueError(f"{source}:{number}: {err}: {quote(text)}") from None
        fens.append(fen)
        results.append(result)
        scores.append(None if score is None else (-score if black else score))
    return fens, results, scores


def moved_table(result: TuneResult, top: int = 20) -> str:
    """A markdown table of the *top* weights that moved most (by absolute change).

    >>> import numpy as np
    >>> r = TuneResult(np.array([10.4, 3.0]), np.array([5.0, 3.0]), ("a", "b"), 1.0, [], [])
    >>> print(moved_table(r))
    | weight | before | after | change |
    |---|---:|---:|---:|
    | a | 5 | 10 | +5 |
    | b | 3 | 3 | +0 |
    """
    rows = sorted(
        zip(result.names, result.theta0, result.theta),
        key=lambda row: -abs(round(float(row[2])) - round(float(row[1]))),
    )
    lines = ["| weight | before | after | change |", "|---|---:|---:|---:|"]
    for name, before, after in rows[:top]:
        b, a = int(round(float(before))), int(round(float(after)))
        lines.append(f"| {name} | {b} | {a} | {a - b:+d} |")
    return "\n".join(lines)


_PAIR = re.compile(r"^(\s*)(\w+): \((-?\d+), (-?\d+)\), \[(-?\d+), (-?\d+)\];$")
_SCALAR = re.compile(r"^(\s*)(\w+): (-?\d+), \[(-?\d+), (-?\d+)\];$")
_TABLE = re.compile(r"^(\s*)(\w+): \[(-?\d+), (-?\d+)\] \{$")
_TABLE_END = re.compile(r"^\s*\}$")
_SQUARE = re.compile(r"\b([a-h][1-8]): \((-?\d+), (-?\d+)\)")


def rewrite_source(text: str, weights: dict[str, int]) -> str:
    """The core's parameter table (``rust/core/src/eval/params.rs``) with *weights* as the new defaults,
    everything else (reasons, ranges, order, layout) kept. A weight outside its range is clamped to it.
    Pairs, scalars and piece-square tables (``psqt_knight: [lo, hi] {`` with ``c3: (mg, eg)`` entries,
    named ``psqt_knight_c3_mg``) are rewritten alike.

    >>> print(rewrite_source("        knight_value: (330, 310), [0, 1500];", {"knight_value_mg": 341}))
            knight_value: (341, 310), [0, 1500];
    >>> table = "    psqt_rook: [-300, 300] {\\n        a1: (0, 0), b1: (8, -2),\\n    }\\n"
    >>> print(rewrite_source(table, {"psqt_rook_b1_eg": 5, "psqt_rook_a1_mg": -999}), end="")
        psqt_rook: [-300, 300] {
            a1: (-300, 0), b1: (8, 5),
        }

    :raises: :exc:`ValueError` for a weight that is not in the table.
    """
    seen: set[str] = set()
    out = []
    table: tuple[str, int, int] | None = None

    def clamped(name: str, value: str, lo: int, hi: int) -> str:
        seen.add(name)
        return str(min(hi, max(lo, weights.get(name, int(value)))))

    def square(match: re.Match[str]) -> str:
        assert table is not None
        prefix, lo, hi = table
        sq, mg, eg = match.groups()
        mg = clamped(f"{prefix}_{sq}_mg", mg, lo, hi)
        eg = clamped(f"{prefix}_{sq}_eg", eg, lo, hi)
        return f"{sq}: ({mg}, {eg})"

    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        pair, scalar, start = _PAIR.match(body), _SCALAR.match(body), _TABLE.match(body)
        if table is not None:
            if _TABLE_END.match(body):
                table = None
            else:
                body = _SQUARE.sub(square, body)
        elif start:
            table = (start.group(2), int(start.group(3)), int(start.group(4)))
        elif pair:
            indent, name, mg, eg, low, high = pair.groups()
            lo, hi = int(low), int(high)
            mg = clamped(f"{name}_mg", mg, lo, hi)
            eg = clamped(f"{name}_eg", eg, lo, hi)
            body = f"{indent}{name}: ({mg}, {eg}), [{low}, {high}];"
        elif scalar:
            indent, name, value, low, high = scalar.groups()
            value = clamped(name, value, int(low), int(high))
            body = f"{indent}{name}: {value}, [{low}, {high}];"
        out.append(body + ("\n" if line.endswith("\n") else ""))
    unknown = sorted(set(weights) - seen)
    if unknown:
        raise ValueError(f"not in the parameter table: {', '.join(quote(n) for n in unknown)}")
    return "".join(out)


def plot_losses(result: TuneResult, path: str | Path) -> None:
    """Writes a PNG of the training and validation loss per epoch (matplotlib, the tune extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - matplotlib is in the tune and test extras
        raise ImportError("the loss plot needs matplotlib: pip install 'camelpy[tune]'") from err
    figure, axes = plt.subplots(figsize=(6, 4))
    epochs = range(len(result.train_losses))
    axes.plot(epochs, result.train_losses, label="training")
    axes.plot(epochs, result.val_losses, label="validation")
    axes.set_xlabel("epoch")
    axes.set_ylabel("mean squared error")
    axes.set_title(f"camelpy tune (K = {result.k:.3f})")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy tune`` options."""
    p.add_argument(
        "data",
        nargs="+",
        help="labelled positions: camelpy datagen files, or their text exports (FEN | score | result)",
    )
    p.add_argument("--out", required=True, help="folder for weights.json, loss.png and moved.md")
    p.add_argument(
        "--blend", type=float, default=DEFAULT_BLEND, help="weight of the game result in the target"
    )
    p.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH)
    p.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE)
    p.add_argument("--validation", type=float, default=DEFAULT_VALIDATION)
    p.add_argument("--rounds", type=int, default=2, help="linearize again at the new weights this many times")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--every", type=int, default=1, help="of a data file's quiet positions, keep every N-th")
    p.add_argument("--max-positions", type=int, default=None, help="at most this many positions per file")
    p.add_argument(
        "--quiet-margin",
        type=int,
        default=None,
        help="also drop positions whose static eval is further than this from quiescence",
    )
    p.add_argument("--write-source", metavar="PARAMS_RS", help="rewrite the core's parameter table in place")
    p.add_argument(
        "--freeze",
        type=_names,
        default=FROZEN_BY_DEFAULT,
        metavar="NAMES",
        help=f"comma-separated weights to keep (default: {','.join(FROZEN_BY_DEFAULT)}; '' fits all)",
    )


def _names(text: str) -> tuple[str, ...]:
    """``--freeze``'s value: comma-separated weight names, checked against the core's table."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    known = {name for name, _, _, _ in _core.default_params()}
    for name in names:
        if name not in known:
            raise argparse.ArgumentTypeError(f"unknown weight {quote(name)}")
    return names


def _is_data_file(path: str) -> bool:
    check_file(path, "data", "training data", limit=None)  # a regular file (the readers check its size)
    try:
        with os.fdopen(open_regular(path), "rb") as handle:
            return handle.read(8) == b"CAMELPYD"
    except OSError as err:
        raise ValueError(f"cannot read training data {quote(path)}: {err.strerror or err}") from None


def _load(args: argparse.Namespace, weights: dict[str, int] | None) -> Dataset:
    """Every input of the command, made linear at *weights*."""
    parts = []
    for path in args.data:
        if _is_data_file(path):
            parts.append(
                linearize_file(
                    path,
                    params=weights,
                    threads=args.threads,
                    every=args.every,
                    limit=args.max_positions,
                    quiet_margin=args.quiet_margin,
                )
            )
            continue
        lines = read_lines(path, "data", "training text", limit=MAX_TEXT_DATA_BYTES)
        fens, results, scores = read_text(lines, source=path)
        if args.max_positions is not None:
            fens, results, scores = (
                fens[: args.max_positions],
                results[: args.max_positions],
                scores[: args.max_positions],
            )
        parts.append(linearize(fens, results, scores, params=weights, threads=args.threads))
    return _concat(parts)


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy tune``; returns the exit status (bad input raises ``ValueError``: one error line)."""
    if args.rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {args.rounds}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    weights: dict[str, int] | None = None
    result: TuneResult | None = None
    for round_number in range(1, args.rounds + 1):
        data = _load(args, weights)
        print(f"round {round_number}: {len(data)} positions", file=sys.stderr, flush=True)
        result = tune(
            data,
            blend=args.blend,
            epochs=args.epochs,
            batch_size=args.batch_size,
            learning_rate=args.learning_rate,
            validation=args.validation,
            seed=args.seed,
            theta=None,
            frozen=args.freeze,
            progress=lambda e, t, v: print(f"  epoch {e}: train {t:.6f} validation {v:.6f}", file=sys.stderr),
        )
        weights = result.weights()
    assert result is not None and weights is not None
    (out / "weights.json").write_text(json.dumps(weights, indent=1) + "\n", encoding="utf-8")
    np = _numpy()
    defaults = {name: value for name, value, _, _ in _core.default_params()}
    result.theta0 = np.array([defaults[n] for n in result.names], dtype=np.float64)  # against the defaults
    (out / "moved.md").write_text(moved_table(result) + "\n", encoding="utf-8")
    plot_losses(result, out / "loss.png")
    if args.write_source:
        source = Path(args.write_source)
        text = _read_text(source, "source", "weights source", limit=MAX_SOURCE_BYTES)
        source.write_text(rewrite_source(text, weights), encoding="utf-8")
    print(f"K = {result.k:.4f}; validation loss {result.val_losses[0]:.6f} -> {result.val_losses[-1]:.6f}")
    print(f"wrote {out / 'weights.json'}, {out / 'moved.md'}, {out / 'loss.png'}")
    return 0

"""``camelpy minichess tune``: fits the MiniChess player's evaluation weights to self-play results.

The evaluation is linear in its weights (:func:`camelpy.minichess.evaluate`): for a position with
features ``f`` (White minus Black), ply ``p`` and White to move or not, White's evaluation is
``Σ wᵢ·cᵢ`` with ``cᵢ = fᵢ``, except ``c_count = f_count · p / 50`` and ``c_tempo = ±1``. The fit is the
small games' tuner (:mod:`camelpy.tools.games.selfplay_tune`: Texel's method with a fitted colour bias, Adam,
a held-out tenth); ``--freeze NAMES`` keeps the named weights at their default values (for example the
piece values, which the count and the piece values can trade between them).

The data is generated, never committed: ``--games``, ``--nodes``, ``--random-plies`` and ``--seed``
regenerate it exactly (:func:`camelpy.minichess.selfplay_samples`). With ``--compare PAIRS`` the tuned
weights then play the defaults (:func:`camelpy.minichess.compare_weights`). Needs NumPy (``pip install
'camelpy[tune]'``).
"""

from __future__ import annotations

import argparse
from typing import Any

from camelpy.minichess import (
    DEFAULT_WEIGHTS,
    MAX_PLIES,
    WEIGHT_NAMES,
    Samples,
    compare_weights,
    selfplay_samples,
)
from camelpy.tools.games import selfplay_tune, weights_spsa
from camelpy.tools.games.selfplay_tune import EPOCHS, TuneResult

__all__ = ["TuneResult", "add_arguments", "add_spsa_arguments", "coefficients", "fit", "main", "spsa_main"]

COUNT = WEIGHT_NAMES.index("count")
TEMPO = WEIGHT_NAMES.index("tempo")


def coefficients(samples: Samples) -> Any:
    """The (positions × weights) matrix ``c`` with White's evaluation ``c @ w`` (see the module).

    >>> features = [[0] * len(WEIGHT_NAMES)]
    >>> features[0][COUNT] = 2
    >>> c = coefficients(Samples(features, [25], [False], [0.0]))
    >>> c[0, COUNT].item(), c[0, TEMPO].item()
    (1.0, -1.0)
    """
    np = selfplay_tune.numpy("camelpy minichess tune")
    c = np.asarray(samples.features, dtype=np.float64).reshape(-1, len(WEIGHT_NAMES))
    plies = np.minimum(np.asarray(samples.plies, dtype=np.float64), MAX_PLIES)
    c[:, COUNT] *= plies / MAX_PLIES
    c[:, TEMPO] = np.where(np.asarray(samples.white_to_move), 1.0, -1.0)
    return c


def fit(
    samples: Samples,
    start: dict[str, int] | None = None,
    *,
    epochs: int = EPOCHS,
    freeze: frozenset[str] = frozenset(),
) -> TuneResult:
    """Fits the weights to *samples* from *start* (default: the default weights); the weights named
    in *freeze* keep their starting values; a colour bias is fitted with them and reported
    (:func:`camelpy.tools.games.selfplay_tune.fit`).

    :raises: :exc:`ValueError` with fewer than 20 positions, an unknown name in *freeze*, or without
        NumPy.
    """
    weights = start or DEFAULT_WEIGHTS
    return selfplay_tune.fit(
        coefficients(samples),
        samples.results,
        WEIGHT_NAMES,
        [weights[n] for n in WEIGHT_NAMES],
        epochs=epochs,
        freeze=freeze,
    )


GAME = selfplay_tune.TuneGame(
    "camelpy minichess tune",
    WEIGHT_NAMES,
    dict(DEFAULT_WEIGHTS),
    selfplay_samples,
    coefficients,
    compare_weights,
)
"""MiniChess for the tuner."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tune`` subcommand's options."""
    selfplay_tune.add_arguments(parser, random_plies=4)


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy minichess tune``."""
    return selfplay_tune.main(args, GAME, max_random_plies=MAX_PLIES)


def add_spsa_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``minichess spsa`` subcommand's options (:mod:`camelpy.tools.games.weights_spsa`)."""
    weights_spsa.add_arguments(parser, random_plies=4)


def spsa_main(args: argparse.Namespace) -> int:
    """Runs ``camelpy minichess spsa``: the weights tuned by playing games."""
    return weights_spsa.main(args, GAME, command="camelpy minichess spsa", max_random_plies=MAX_PLIES)

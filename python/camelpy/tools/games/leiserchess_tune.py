"""``camelpy leiserchess tune``: fits the Leiserchess player's evaluation weights to self-play results.

The evaluation is linear in its weights (:func:`camelpy.leiserchess.evaluate`): for a position with
features ``f`` (Tangerine minus Lavender), Tangerine's evaluation is ``Σ wᵢ·cᵢ`` with ``cᵢ = fᵢ``,
except the tempo's ``c = ±1`` (+1 with Tangerine to move). The fit is the small games' tuner
(:mod:`camelpy.tools.games.selfplay_tune`, shared with ``camelpy minichess tune``: Texel's method with a
fitted colour bias, Adam within each weight's limits, a held-out tenth); ``--freeze pawn`` keeps the
pawn at 100 so that the other weights stay in centipawns.

The data is generated, never committed: ``--games``, ``--nodes``, ``--random-plies``, ``--seed`` and
``--rules`` regenerate it exactly (:func:`camelpy.leiserchess.selfplay_samples`). With ``--compare
PAIRS`` the tuned weights then play the defaults (:func:`camelpy.leiserchess.compare_weights`). Needs
NumPy (``pip install 'camelpy[tune]'``).
"""

from __future__ import annotations

import argparse
from typing import Any

from camelpy.leiserchess import (
    DEFAULT_WEIGHTS,
    RULES,
    WEIGHT_LIMITS,
    WEIGHT_NAMES,
    Samples,
    compare_weights,
    selfplay_samples,
)
from camelpy.tools.games import selfplay_tune, weights_spsa

__all__ = ["GAME", "add_arguments", "add_spsa_arguments", "coefficients", "main", "spsa_main"]

TEMPO = WEIGHT_NAMES.index("tempo")
MAX_RANDOM_PLIES = 100
"""Random opening plies accepted (the core's bound)."""


def coefficients(samples: Samples) -> Any:
    """The (positions × weights) matrix ``c`` with Tangerine's evaluation ``c @ w`` (see the module).

    >>> c = coefficients(Samples([[1, 0, 0, 0, 0, 0, 2, 5, 0, 0, 1]], [False], [1.0]))
    >>> c.tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 5.0, 0.0, 0.0, -1.0]]
    """
    np = selfplay_tune.numpy("camelpy leiserchess tune")
    c = np.asarray(samples.features, dtype=np.float64).reshape(-1, len(WEIGHT_NAMES))
    c[:, TEMPO] = np.where(np.asarray(samples.tangerine_to_move), 1.0, -1.0)
    return c


GAME = selfplay_tune.TuneGame(
    "camelpy leiserchess tune",
    WEIGHT_NAMES,
    dict(DEFAULT_WEIGHTS),
    selfplay_samples,
    coefficients,
    compare_weights,
    dict(WEIGHT_LIMITS),
)
"""Leiserchess for the tuner."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``leiserchess tune`` subcommand's options."""
    selfplay_tune.add_arguments(parser, random_plies=2)
    parser.add_argument("--rules", type=int, choices=RULES, default=2016, help="the rule set (default 2016)")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess tune``."""
    return selfplay_tune.main(args, GAME, max_random_plies=MAX_RANDOM_PLIES, extra={"rules": args.rules})


def add_spsa_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``leiserchess spsa`` subcommand's options (:mod:`camelpy.tools.games.weights_spsa`)."""
    weights_spsa.add_arguments(parser, random_plies=2)
    parser.add_argument("--rules", type=int, choices=RULES, default=2016, help="the rule set (default 2016)")


def spsa_main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess spsa``: the weights tuned by playing games."""
    return weights_spsa.main(
        args,
        GAME,
        command="camelpy leiserchess spsa",
        max_random_plies=MAX_RANDOM_PLIES,
        extra={"rules": args.rules},
    )

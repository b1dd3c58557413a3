"""``camelpy leiserchess spsa`` and ``camelpy minichess spsa``: tune a small game's evaluation weights by
playing games in process (SPSA).

The optimiser is ``camelpy spsa``'s (:class:`camelpy.tools.chess.spsa.Spsa`: Spall's SPSA with OpenBench's
schedule, and its parameters, state file, resumption and outputs); only the games differ. Each iteration
plays ``--pairs`` game pairs between the weights ``θ + c_k·Δ`` and ``θ − c_k·Δ`` with the game's
``compare_weights`` (its native self-play: ``--nodes`` a move, one random opening a pair, colours
swapped, on ``--threads`` threads), the openings drawn from ``--seed`` and the iteration, so the same
command replays a run exactly and, rerun, resumes it from ``state.json``. No engine process is started:
at 4,000 nodes a move the two cores of the reference machine play about ten Leiserchess games a second.

A weight named alone (``--param king_face``) starts at the game's default and stays within the game's
bounds (:data:`camelpy.leiserchess.WEIGHT_LIMITS`), its perturbation ``c_end`` a twentieth of that
range; a weight the game does not bound (every MiniChess weight) needs ``NAME=DEFAULT,MIN,MAX``.

>>> from camelpy.tools.games.leiserchess_tune import GAME
>>> tunable(GAME)["king_face"]
(127, -200, 200)
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from camelpy._args import int_arg, path_arg
from camelpy._quote import quote
from camelpy.arena.stats import pentanomial
from camelpy.tools.chess import spsa
from camelpy.tools.games.selfplay_tune import TuneGame

__all__ = ["DEFAULT_NODES", "MAX_SEED", "add_arguments", "main", "play_record", "tunable"]

DEFAULT_NODES = 4000
"""Nodes a move by default: Leiserchess's depth 5 or so, where the tuned weights of ``camelpy leiserchess
tune`` were compared (``docs/guide/leiserchess.md``), and ten games a second on two cores."""

MAX_SEED = 2**31 - 1
"""The largest ``--seed``: an iteration's openings come from ``seed · 2³² + iteration``, within the
native self-play's 64-bit seed."""


def tunable(game: TuneGame) -> dict[str, tuple[int, int, int]]:
    """The weights a bare ``--param NAME`` may name, as ``name: (default, min, max)``: those *game*
    bounds."""
    return {name: (game.defaults[name], *game.limits[name]) for name in game.names if name in game.limits}


def add_arguments(parser: argparse.ArgumentParser, *, random_plies: int) -> None:
    """A game's ``spsa`` options (a game adds its own, such as ``--rules``)."""
    spsa.add_run_arguments(parser, what="the game's default weights and bounds")
    parser.add_argument(
        "--nodes", type=int, default=DEFAULT_NODES, metavar="N", help=f"nodes a move ({DEFAULT_NODES})"
    )
    parser.add_argument(
        "--random-plies",
        type=int,
        default=random_plies,
        metavar="N",
        help=f"random moves opening each game pair (default {random_plies})",
    )
    parser.add_argument(
        "--threads", type=int, default=1, metavar="N", help="threads playing the games (default 1)"
    )


def play_record(results: list[tuple[float, float]]) -> dict[str, Any]:
    """The record of an iteration's pairs (the ``+`` side's points in each pair's two games): its wins,
    draws and losses and the pentanomial.

    >>> play_record([(1.0, 0.5), (0.0, 1.0)])
    {'wins': 2, 'draws': 1, 'losses': 1, 'pentanomial': [0, 0, 1, 1, 0]}
    """
    points = [p for pair in results for p in pair]
    return {
        "wins": points.count(1.0),
        "draws": points.count(0.5),
        "losses": points.count(0.0),
        "pentanomial": list(pentanomial([a + b for a, b in results])),
    }


def main(
    args: argparse.Namespace,
    game: TuneGame,
    *,
    command: str,
    max_random_plies: int,
    extra: Mapping[str, Any] | None = None,
) -> int:
    """Runs a game's ``spsa`` command (*command* for messages); *extra* settings (already checked, such
    as Leiserchess's rules) go to :attr:`TuneGame.compare` and into the saved run."""
    out = Path(path_arg(args.out, "--out"))
    if args.plot:
        return spsa.plot_saved(out)
    settings = spsa.settings_from_args(args)
    seed = int_arg(args.seed, "--seed", 0, MAX_SEED)
    games: dict[str, Any] = {
        "nodes": int_arg(args.nodes, "--nodes", 1, 10**9),
        "random_plies": int_arg(args.random_plies, "--random-plies", 0, max_random_plies),
        **(extra or {}),
    }
    threads = int_arg(args.threads, "--threads", 1, 256)
    params = spsa.params_from_args(args, {**tunable(game), **_unbounded(args, game)})
    optimiser = spsa.Spsa(params, settings, seed=seed)
    spsa.carry_from_args(optimiser, args.carry)
    run = {"game": command, **games}
    records = spsa.resume(optimiser, out, run)

    def play(trial: spsa.Trial) -> dict[str, Any]:
        iteration_seed = seed * 2**32 + trial.iteration
        results = game.compare(
            trial.plus, trial.minus, settings.pairs, seed=iteration_seed, threads=threads, **games
        )
        if len(results) != settings.pairs:
            raise ValueError(f"iteration {trial.iteration + 1}: only {len(results)} pairs were played")
        return {**play_record(results), "seed": iteration_seed}

    spsa.play_iterations(optimiser, out, run, records, play, quiet=args.quiet)
    return 0


def _unbounded(args: argparse.Namespace, game: TuneGame) -> dict[str, tuple[int, int, int]]:
    """Ranges for the weights *game* does not bound that ``--param``/``--params`` give in full (a bare
    name among them is refused with a hint)."""
    unbounded = {name.lower(): name for name in game.names if name not in game.limits}
    for word in args.param:
        name = unbounded.get(word.partition("=")[0].strip().lower())
        if "=" not in word and name is not None:
            raise ValueError(
                f"--param {quote(word)}: the game does not bound {quote(name)}: give "
                f"{name}=DEFAULT,MIN,MAX[,C_END[,R_END]] (its default is {game.defaults[name]})"
            )
    widest = (-(2**31), 2**31 - 1)
    return {name: (game.defaults[name], *widest) for name in game.names if name not in game.limits}

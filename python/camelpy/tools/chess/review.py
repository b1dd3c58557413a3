"""``camelpy review GAME.pgn``: every game of a PGN reviewed in one batch (:mod:`camelpy.review`), a
summary table per game and per player, the annotated PGN and a plot of each game's evaluation.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="camelpy review")
>>> add_arguments(parser)
>>> parser.parse_args(["games.pgn", "--depth", "8"]).depth
8
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import chess
import chess.engine

from camelpy._quote import quote
from camelpy.review import (
    DEFAULT_LIMIT,
    GameReview,
    MoveReview,
    annotate,
    plot_review,
    read_games,
    review_many,
)

__all__ = ["add_arguments", "main"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``camelpy review``'s arguments."""
    parser.add_argument("pgn", help="the PGN file: every game in it is reviewed")
    parser.add_argument("--out", default=".", help="folder for the annotated PGN and the plots (default: .)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--depth", type=int, help="search each position to this depth")
    group.add_argument("--nodes", type=int, help=f"nodes per position (default {DEFAULT_LIMIT.nodes})")
    group.add_argument("--time", type=float, help="seconds per position")
    parser.add_argument("--threads", type=int, help="positions searched at once (default: one per CPU)")


def _summary(reviews: Sequence[GameReview]) -> str:
    def acc(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    def counts(r: GameReview, color: chess.Color) -> str:
        return "/".join(str(r.count(color, j)) for j in ("inaccuracy", "mistake", "blunder"))

    lines = [
        f"{'game':>4}  {'white':<20} {'black':<20} {'result':<7} {'acc W':>6} {'acc B':>6}  "
        "?!/?/?? W  ?!/?/?? B"
    ]
    for n, r in enumerate(reviews, 1):
        lines.append(
            f"{n:>4}  {r.white[:20]:<20} {r.black[:20]:<20} {r.result:<7} {acc(r.accuracy(chess.WHITE)):>6} "
            f"{acc(r.accuracy(chess.BLACK)):>6}  {counts(r, chess.WHITE):>9}  {counts(r, chess.BLACK):>9}"
        )
        critical = ", ".join(f"{m.label} ({-m.loss:+.0f}%, {m.best_san} best)" for m in r.critical_moves())
        if critical:
            lines.append(f"      critical: {critical}")
    players: dict[str, list[MoveReview]] = {}
    games: dict[str, int] = {}
    for r in reviews:
        for name, color in ((r.white, chess.WHITE), (r.black, chess.BLACK)):
            players.setdefault(name, []).extend(m for m in r.moves if m.turn == color)
            games[name] = games.get(name, 0) + 1
    lines += ["", f"{'player':<20} {'games':>5} {'moves':>5} {'accuracy':>8} {'?!':>4} {'?':>4} {'??':>4}"]
    for name in sorted(players):
        moved = players[name]
        mean = sum(m.accuracy for m in moved) / len(moved) if moved else None
        tally = [sum(1 for m in moved if m.judgement == j) for j in ("inaccuracy", "mistake", "blunder")]
        lines.append(
            f"{name[:20]:<20} {games[name]:>5} {len(moved):>5} {acc(mean):>8} "
            + " ".join(f"{t:>4}" for t in tally)
        )
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy review``; returns the exit status."""
    if args.depth is not None:
        limit = chess.engine.Limit(depth=args.depth)
    elif args.time is not None:
        limit = chess.engine.Limit(time=args.time)
    else:
        limit = chess.engine.Limit(nodes=args.nodes if args.nodes is not None else DEFAULT_LIMIT.nodes)
    games = read_games(args.pgn)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {quote(str(out))} is not a folder")
    started = time.monotonic()
    reviews = review_many(games, limit=limit, threads=args.threads)
    seconds = time.monotonic() - started
    print(_summary(reviews))
    stem = Path(args.pgn).stem
    annotated = out / f"{stem}.reviewed.pgn"
    plots = [out / f"{stem}.{n}.png" for n in range(1, len(reviews) + 1)]
    try:
        out.mkdir(parents=True, exist_ok=True)
        with open(annotated, "w", encoding="utf-8") as f:
            for game, reviewed in zip(games, reviews):
                print(annotate(game, reviewed), file=f, end="\n\n")
        for reviewed, plot in zip(reviews, plots):
            plot_review(reviewed, plot)
    except OSError as err:
        raise ValueError(f"cannot write to {quote(str(out))}: {err.strerror or err}") from None
    positions = sum(len(r.moves) + 1 for r in reviews)
    print(
        f"\nreviewed {len(reviews)} game(s), {positions} positions in {seconds:.1f} s; wrote {annotated}"
        f" and {len(plots)} plot(s) {plots[0].name if len(plots) == 1 else f'{stem}.N.png'}",
        file=sys.stderr,
    )
    return 0

"""``camelpy review GAME.pgn …``: every game of the PGN files (or of the ``.pgn`` files of a folder)
reviewed in one batch (:mod:`camelpy.review`) on every core, or on a Ray cluster with ``--ray``; a summary
table per game and per player over all of them, each file's games annotated in a PGN, and a plot of each
game's evaluation. A live line on standard error shows the positions searched (a tqdm bar when the
``progress`` extra is installed), on a terminal and without ``--quiet``.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="camelpy review")
>>> add_arguments(parser)
>>> args = parser.parse_args(["games.pgn", "club/", "--depth", "8", "--ray"])
>>> args.pgn, args.depth, args.ray
(['games.pgn', 'club/'], 8, '')
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from camelpy import cluster
from camelpy._quote import quote
from camelpy.arena.runner import Progress
from camelpy.review import (
    DEFAULT_LIMIT,
    MAX_PGN_BYTES,
    GameReview,
    MoveReview,
    annotate,
    plot_review,
    read_games,
    review_many,
)

__all__ = ["PLOT_FORMATS", "add_arguments", "main"]

PLOT_FORMATS = ("png", "svg", "none")
"""``--plot``'s choices: the plot's file format, or no plot."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``camelpy review``'s arguments."""
    parser.add_argument(
        "pgn",
        nargs="+",
        help="PGN files, or folders whose .pgn files are read: every game in them is reviewed",
    )
    parser.add_argument("--out", default=".", help="folder for the annotated PGN and the plots (default: .)")
    parser.add_argument(
        "--plot",
        choices=PLOT_FORMATS,
        default=PLOT_FORMATS[0],
        help="each game's evaluation plot as a PNG (the default) or an SVG, or none (a large batch's "
        "plots take a while)",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--depth", type=int, help="search each position to this depth")
    group.add_argument("--nodes", type=int, help=f"nodes per position (default {DEFAULT_LIMIT.nodes})")
    group.add_argument("--time", type=float, help="seconds per position")
    parser.add_argument(
        "--threads", type=int, help="positions searched at once (default: one per CPU; ignored with --ray)"
    )
    cluster.add_ray_argument(parser, "search the positions")
    parser.add_argument("--quiet", action="store_true", help="no live progress line")


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


def _pgn_files(names: Sequence[str]) -> list[Path]:
    """The PGN files named: each file as it is, each folder's ``.pgn`` files in name order.

    :raises: :exc:`ValueError` quoting a folder without a ``.pgn`` file, or two files whose outputs
        would have one name (the same stem).
    """
    files: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() == ".pgn" and p.is_file())
            if not found:
                raise ValueError(f"folder {quote(name)} holds no .pgn file")
            files.extend(found)
        else:
            files.append(path)
    stems: dict[str, Path] = {}
    for path in files:
        other = stems.setdefault(path.stem, path)
        if other != path:
            raise ValueError(
                f"PGN files {quote(str(other))} and {quote(str(path))} would write the same "
                f"{path.stem}.reviewed.pgn: review them apart or rename one"
            )
    return files


def _read(files: Sequence[Path]) -> list[tuple[Path, list[chess.pgn.Game]]]:
    """Each file's games, the files together at most :data:`~camelpy.review.MAX_PGN_BYTES`."""
    read = []
    size = 0
    for path in files:
        games = read_games(path)
        size += path.stat().st_size
        if size > MAX_PGN_BYTES:
            raise ValueError(
                f"the PGN files hold more than {MAX_PGN_BYTES:,} bytes together (at {quote(str(path))}): "
                "review them in parts"
            )
        read.append((path, games))
    return read


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy review``; returns the exit status."""
    if args.depth is not None:
        limit = chess.engine.Limit(depth=args.depth)
    elif args.time is not None:
        limit = chess.engine.Limit(time=args.time)
    else:
        limit = chess.engine.Limit(nodes=args.nodes if args.nodes is not None else DEFAULT_LIMIT.nodes)
    files = _read(_pgn_files(args.pgn))
    games = [game for _, file_games in files for game in file_games]
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {quote(str(out))} is not a folder")
    backend = cluster.ray_backend(args.ray, "camelpy review --ray")
    total = sum(sum(1 for _ in game.mainline_moves()) + 1 for game in games)
    shown = Progress(total, quiet=args.quiet, label="review", unit="positions")
    started = time.monotonic()
    try:
        reviews = review_many(
            games,
            limit=limit,
            threads=None if backend == "ray" else args.threads,
            backend=backend,
            progress=lambda done, _: shown.update(done, "positions"),
        )
    finally:
        shown.close()
    seconds = time.monotonic() - started
    print(_summary(reviews))
    written: list[str] = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        first = 0
        for path, file_games in files:
            mine = reviews[first : first + len(file_games)]
            first += len(file_games)
            annotated = out / f"{path.stem}.reviewed.pgn"
            with open(annotated, "w", encoding="utf-8") as f:
                for game, reviewed in zip(file_games, mine):
                    print(annotate(game, reviewed), file=f, end="\n\n")
            if args.plot == "none":
                written.append(str(annotated))
                continue
            for n, reviewed in enumerate(mine, 1):
                plot_review(reviewed, out / f"{path.stem}.{n}.{args.plot}")
            plots = f"{path.stem}.{1 if len(mine) == 1 else 'N'}.{args.plot}"
            written.append(f"{annotated} and {len(mine)} plot(s) {plots}")
    except OSError as err:
        raise ValueError(f"cannot write to {quote(str(out))}: {err.strerror or err}") from None
    positions = sum(len(r.moves) + 1 for r in reviews)
    where = " on the Ray cluster" if backend == "ray" else ""
    print(
        f"\nreviewed {len(reviews)} game(s), {positions} positions in {seconds:.1f} s{where}; wrote "
        + "; ".join(written),
        file=sys.stderr,
    )
    return 0

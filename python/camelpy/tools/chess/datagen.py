"""``camelpy datagen``: self-play training data (:mod:`camelpy.data`) from the command line.

``camelpy datagen --out games.bin --games 1000 --seed 1`` plays 1,000 games on every core at 5,000
nodes per move and writes every searched position; ``--text games.txt`` also writes the text export
(``FEN | score | result`` lines). Running the same command again after an interruption (Ctrl-C, a
crash) continues the file where it stopped, and gives the file an uninterrupted run would have; a
larger ``--games`` appends more games to a finished file. A one-line display on standard error shows
the games, positions and positions per second while it runs; with standard error redirected to a file
(a run left in the background), the same as a whole line with the time of day once a minute.

>>> import os, tempfile
>>> out = os.path.join(tempfile.mkdtemp(), "games.bin")
>>> from camelpy.tools.cli import main
>>> main(["datagen", "--out", out, "--games", "2", "--nodes", "300", "--seed", "7", "--quiet"])
wrote 2 games (... positions) to '...games.bin': 2 new in ... s, ... positions/s, ... nodes/s;
White +..., draws ..., Black +...
0
>>> main(["datagen", "--out", out, "--games", "-3"])  # "error: --games must be at least 0, got -3"
2
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import IO

import chess

from camelpy import _core, cluster
from camelpy.arena import runner
from camelpy.arena.openings import load_openings
from camelpy.arena.runner import stop_on_terminate
from camelpy.data import DEFAULTS, Summary, export_text, generate

__all__ = ["Display", "add_arguments", "flag_words", "main", "progress_line", "summary_line"]


def progress_line(games: int, target: int, positions: int, rate: float, seconds: float) -> str:
    """The live display's line.

    >>> progress_line(120, 1000, 12840, 4210.4, 3.05)
    'datagen: 120/1000 games, 12,840 positions, 4,210 positions/s, 3.0 s'
    """
    return (
        f"datagen: {games}/{target} games, {positions:,} positions, {rate:,.0f} positions/s, {seconds:.1f} s"
    )


def summary_line(summary: Summary, path: str) -> str:
    """The line printed when a run ends.

    >>> s = Summary(4, 430, 4, 430, 2150000, 0.75, False, 1, 2, 1, {})
    >>> print(summary_line(s, "games.bin"))
    wrote 4 games (430 positions) to 'games.bin': 4 new in 0.75 s, 573 positions/s, 2.87 M nodes/s;
    White +1, draws 2, Black +1
    """
    s = summary
    return (
        f"wrote {s.games} games ({s.positions:,} positions) to {path!r}: {s.new_games} new in "
        f"{s.seconds:.2f} s, {s.positions_per_second:,.0f} positions/s, {s.nodes_per_second / 1e6:.2f} M "
        f"nodes/s; White +{s.white_wins}, draws {s.draws}, Black +{s.black_wins}"
    )


class Display:
    """The live one-line display: redrawn in place on a terminal; with *log* (standard error redirected
    to a file, as for a generation left running in the background), a whole line with the time of day
    at most every :data:`camelpy.arena.runner.PROGRESS_LOG_INTERVAL_S` seconds instead; silent with
    neither. Rates count this run's positions only (not those of a resumed file).

    >>> import io
    >>> log = io.StringIO()
    >>> shown = Display(1000, log, "games.bin", log=True)
    >>> shown(0, 0, 0.01)  # less than a minute since the start: nothing yet
    >>> shown.logged_at -= runner.PROGRESS_LOG_INTERVAL_S  # as if a minute had passed
    >>> shown(250, 26000, 61.0)
    >>> log.getvalue()[9:]  # after the time of day
    'datagen: 250/1000 games, 26,000 positions, 426 positions/s, 61.0 s\\n'
    """

    def __init__(self, target: int, stream: IO[str] | None, path: str, *, log: bool = False) -> None:
        self.target = target
        self.stream = stream
        self.path = path
        self.log = log
        self.logged_at = time.monotonic()
        self.first: tuple[int, int] | None = None
        self.width = 0

    def __call__(self, games: int, positions: int, seconds: float) -> None:
        if self.first is None:
            self.first = (games, positions)
            if games and self.stream is not None:
                print(f"datagen: resuming {self.path!r} after its {games} games", file=self.stream)
        if self.stream is None:
            return
        rate = (positions - self.first[1]) / seconds if seconds > 0 else 0.0
        line = progress_line(games, self.target, positions, rate, seconds)
        if self.log:
            if time.monotonic() - self.logged_at >= runner.PROGRESS_LOG_INTERVAL_S:
                self.logged_at = time.monotonic()
                self.stream.write(f"{time.strftime('%H:%M:%S')} {line}\n")
                self.stream.flush()
            return
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        """Ends the display's line."""
        if self.stream is not None and self.width:
            self.stream.write("\n")
            self.stream.flush()


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy datagen`` arguments."""
    d = DEFAULTS
    p.add_argument("--out", required=True, metavar="FILE", help="the data file (created, or resumed)")
    p.add_argument("--games", type=int, help="games the file should hold at the end")
    p.add_argument("--seed", type=int, default=0, help="generation seed (default 0)")
    cores = _core.default_threads()
    p.add_argument(
        "--threads",
        type=int,
        help=f"worker threads (default: all cores, here {cores}); with --ray, tasks at once (default: the "
        "cluster's CPUs)",
    )
    p.add_argument("--nodes", type=int, help=f"nodes per move (default {d['nodes']}, unless only --depth)")
    p.add_argument("--depth", type=int, help="depth per move (with or instead of --nodes)")
    p.add_argument(
        "--random-plies", type=int, help=f"random plies after each opening (default {d['random_plies']})"
    )
    p.add_argument("--openings", metavar="FILE", help="EPD or PGN openings, used in turn (default: startpos)")
    p.add_argument("--plies", type=int, help="cut PGN openings after this many plies")
    p.add_argument("--hash", type=int, dest="hash_mb", help=f"table MiB per worker (default {d['hash_mb']})")
    p.add_argument("--win-score", type=int, help=f"win adjudication, cp (default {d['win_score']})")
    p.add_argument("--win-plies", type=int, help=f"... for this many searches (default {d['win_plies']})")
    p.add_argument("--draw-score", type=int, help=f"draw adjudication, cp (default {d['draw_score']})")
    p.add_argument("--draw-plies", type=int, help=f"... for this many searches (default {d['draw_plies']})")
    p.add_argument("--draw-after", type=int, help=f"... from this ply on (default {d['draw_after']})")
    p.add_argument("--max-plies", type=int, help=f"longest game, then a draw (default {d['max_plies']})")
    p.add_argument(
        "--eval-file",
        metavar="NET",
        help="evaluate with this network (camelpy train's net.nnue, or a built-in one by name,"
        " camelpy-4.nnue, camelpy-3.nnue, camelpy-2.nnue or camelpy-1.nnue); default: the classical"
        " evaluation, so that older files resume and regenerate as they were",
    )
    p.add_argument("--text", metavar="FILE", help="also write the text export (FEN | score | result) here")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no live display (and, with standard error redirected to a file, no status line a minute)",
    )
    cluster.add_ray_argument(p, "play the games (the same file as here)")


_FLAGS = {
    "games": "--games",
    "seed": "--seed",
    "workers": "--threads",
    "nodes": "--nodes",
    "depth": "--depth",
    "random_plies": "--random-plies",
    "hash_mb": "--hash",
    "win_score": "--win-score",
    "win_plies": "--win-plies",
    "draw_score": "--draw-score",
    "draw_plies": "--draw-plies",
    "draw_after": "--draw-after",
    "max_plies": "--max-plies",
}
"""The API's argument names as this command's flags, for error messages."""


def flag_words(message: str) -> str:
    """An API error message with the argument names written as this command's flags.

    >>> flag_words("workers must be between 1 and 256, got 0")
    '--threads must be between 1 and 256, got 0'
    >>> flag_words("max_plies (8) must be more than random_plies (8): no position would be searched")
    '--max-plies (8) must be more than --random-plies (8): no position would be searched'
    """
    return " ".join(_FLAGS.get(word, word) for word in message.split(" "))


def _openings(args: argparse.Namespace) -> list[str] | None:
    if args.openings is None:
        return None
    try:
        book = load_openings(args.openings, plies=args.plies)
    except ValueError as err:
        if str(err).startswith("impossible position"):  # python-chess refuses Chess960 castling rights
            raise ValueError(f"{err} (datagen plays standard chess: Chess960 openings are refused)") from None
        raise
    fens = []
    for number, opening in enumerate(book, start=1):
        if chess.Board(opening.fen).status() & chess.STATUS_BAD_CASTLING_RIGHTS:
            raise ValueError(
                f"opening {number} of {args.openings!r} ({opening.fen!r}) has castling rights that only "
                "Chess960 allows: datagen plays standard chess"
            )
        fens.append(opening.board().fen())
    return fens


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy datagen`` from parsed arguments."""
    if args.games is None and args.text is None:
        raise ValueError("nothing to do: give --games N (and/or --text FILE)")
    backend = cluster.ray_backend(args.ray, "camelpy datagen --ray")
    try:
        if args.games is not None:
            display = Display(
                args.games, None if args.quiet else sys.stderr, args.out, log=not sys.stderr.isatty()
            )
            started = time.perf_counter()
            try:
                with stop_on_terminate():  # `kill` stops it as Ctrl-C does
                    summary = generate(
                        args.out,
                        games=args.games,
                        seed=args.seed,
                        workers=args.threads,
                        nodes=args.nodes,
                        depth=args.depth,
                        random_plies=args.random_plies,
                        openings=_openings(args),
                        hash_mb=args.hash_mb,
                        win_score=args.win_score,
                        win_plies=args.win_plies,
                        draw_score=args.draw_score,
                        draw_plies=args.draw_plies,
                        draw_after=args.draw_after,
                        max_plies=args.max_plies,
                        eval_file=args.eval_file,
                        progress=display,
                        backend=backend,
                    )
            except KeyboardInterrupt:
                display.close()
                seconds = time.perf_counter() - started
                print(
                    f"stopped after {seconds:.1f} s: every finished game is in {args.out!r}; "
                    "run the same command to continue",
                    file=sys.stderr,
                )
                return 130
            display.close()
            print(summary_line(summary, args.out))
        if args.text is not None:
            lines = export_text(args.out, args.text)
            print(f"wrote {lines:,} lines to {args.text!r}")
    except OSError as err:
        name = f" {err.filename!r}" if err.filename else ""
        print(f"error: {err.strerror or err}{':' + name if name else ''}", file=sys.stderr)
        return 2
    except MemoryError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"error: {flag_words(str(err))}", file=sys.stderr)
        return 2
    return 0

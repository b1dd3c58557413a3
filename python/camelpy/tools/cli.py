"""``camelpy <tool> …``: the tool subcommands' argument parsing (the UCI engine is ``camelpy`` alone).

Each tool reports bad input (a bad FEN, an engine that will not start, a malformed book or config) as
one ``error: …`` line on stderr and exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys

from camelpy.tools import bench, epd, match, perft, tournament

COMMANDS = ("bench", "perft", "match", "tournament", "epd")
"""The first command-line words that select a tool rather than the UCI engine."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="camelpy", description="camelpy chess engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    bench.add_arguments(sub.add_parser("bench", help="run the fixed search benchmark (node count and speed)"))
    perft.add_arguments(
        sub.add_parser("perft", help="count the leaves of the legal move tree, or run a perft suite")
    )
    match.add_arguments(sub.add_parser("match", help="play two engines against each other (with SPRT)"))
    tournament.add_arguments(
        sub.add_parser("tournament", help="a gauntlet or round-robin from a TOML config")
    )
    epd.add_arguments(sub.add_parser("epd", help="run an EPD test suite (bm/am, STS c0 points)"))
    return parser


def main(argv: list[str]) -> int:
    """Runs the tool named by ``argv[0]`` with the rest of ``argv``; returns the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help (0) or a usage error (2), already printed by argparse
        return done.code if isinstance(done.code, int) else 2
    tools = {
        "bench": bench.main,
        "perft": perft.main,
        "match": match.main,
        "tournament": tournament.main,
        "epd": epd.main,
    }
    try:
        return tools[args.command](args)
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stderr.close()
        return 0
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130

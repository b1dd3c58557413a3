"""``camelpy perft …``: the tool subcommands' argument parsing (the UCI engine is ``camelpy`` alone)."""

from __future__ import annotations

import argparse
import sys

import camelpy
from camelpy.tools import perft

COMMANDS = ("perft",)
"""The first command-line words that select a tool rather than the UCI engine."""


def main(argv: list[str]) -> int:
    """Runs the tool named by ``argv[0]`` with the rest of ``argv``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="camelpy", description="camelpy chess engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count the leaves of the legal move tree")
    p.add_argument("depth", type=int, nargs="?", default=5, help="plies (default 5)")
    p.add_argument("--fen", default=camelpy.STARTING_FEN, help="position (default: the start position)")
    p.add_argument("--chess960", action="store_true", help="Chess960 castling rules")
    p.add_argument("--divide", action="store_true", help="print the count below each root move")
    args = parser.parse_args(argv)
    try:
        return perft.run(args.fen, args.depth, chess960=args.chess960, divide=args.divide)
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stderr.close()
        return 0

"""Command line: ``python -m camelpy perft [depth] [--fen FEN] [--chess960] [--divide]``.

(The UCI engine loop arrives with a later issue; this stage offers perft.)
"""

from __future__ import annotations

import argparse
import sys
import time

import camelpy


def _perft(args: argparse.Namespace) -> int:
    try:
        start = time.perf_counter()
        if args.divide:
            counts = camelpy.divide(args.fen, args.depth, chess960=args.chess960)
            for move, n in sorted(counts.items(), key=lambda item: item[0].uci()):
                print(f"{move.uci()}: {n}")
            nodes = sum(counts.values())
        else:
            nodes = camelpy.perft(args.fen, args.depth, chess960=args.chess960)
        elapsed = time.perf_counter() - start
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {nodes / max(elapsed, 1e-9):.0f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="camelpy", description="camelpy chess engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count the leaves of the legal move tree")
    p.add_argument("depth", type=int, nargs="?", default=5, help="plies (default 5)")
    p.add_argument("--fen", default=camelpy.STARTING_FEN, help="position (default: the start position)")
    p.add_argument("--chess960", action="store_true", help="Chess960 castling rules")
    p.add_argument("--divide", action="store_true", help="print the count below each root move")
    args = parser.parse_args(argv)
    try:
        return _perft(args)
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""``camelpy leiserchess``: Leiserchess from the command line. With no subcommand, camelpy's player as
an engine on the course's UCI-like protocol on standard input and output (the loop is
:mod:`camelpy.protocols.leiserchess`, ``--book`` an opening book of
:mod:`camelpy.protocols.leiserchess_book`); ``--perft N`` counts perft instead; ``camelpy leiserchess
match`` plays two such engines against each other (the arena's :mod:`camelpy.arena.leiserchess`, also
``camelpy match --game leiserchess``), ``camelpy leiserchess tune`` fits the evaluation's weights to
self-play (:mod:`camelpy.tools.games.leiserchess_tune`) and ``camelpy leiserchess book`` builds an opening
book (:mod:`camelpy.tools.games.leiserchess_book`).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="camelpy leiserchess")
>>> add_arguments(parser)
>>> main(parser.parse_args(["--perft", "1"]))  # doctest: +ELLIPSIS
perft 1 (2016 rules): 78 in ... s
0
"""

from __future__ import annotations

import argparse
import sys
import time

from camelpy._args import int_arg
from camelpy.leiserchess import DEFAULT_HASH_MB, RULES, Board, perft
from camelpy.protocols.leiserchess import MAX_HASH_MB, MAX_PERFT_DEPTH, LeiserEngine
from camelpy.protocols.leiserchess_book import LeiserBook

__all__ = ["add_arguments", "main"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``leiserchess`` subcommand's options, and its ``match``, ``tune``, ``spsa`` and ``book``'s."""
    from camelpy.arena import leiserchess as leiserchess_match
    from camelpy.tools.games import leiserchess_book, leiserchess_tune

    sub = parser.add_subparsers(dest="mode", metavar="[match|tune|spsa|book]")
    leiserchess_match.add_arguments(
        sub.add_parser("match", prog="camelpy leiserchess match", help="a match between two protocol engines")
    )
    leiserchess_tune.add_arguments(
        sub.add_parser("tune", prog="camelpy leiserchess tune", help="fit the evaluation to self-play")
    )
    leiserchess_tune.add_spsa_arguments(
        sub.add_parser("spsa", prog="camelpy leiserchess spsa", help="tune the evaluation by playing games")
    )
    leiserchess_book.add_arguments(
        sub.add_parser("book", prog="camelpy leiserchess book", help="build an opening book by search")
    )
    parser.add_argument("--rules", type=int, default=2016, choices=RULES, help="the rule set (default 2016)")
    parser.add_argument("--hash", type=int, default=DEFAULT_HASH_MB, metavar="MB", help="table size in MiB")
    parser.add_argument("--perft", type=int, metavar="N", help="print perft N from --fen and exit")
    parser.add_argument("--fen", metavar="FEN", help="the position for --perft (default: the start)")
    parser.add_argument("--book", metavar="FILE", help="an opening book (`camelpy leiserchess book`)")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess`` (the engine, ``--perft``, ``match``, ``tune``, ``spsa`` or ``book``)."""
    if getattr(args, "mode", None) == "match":
        from camelpy.arena import leiserchess as leiserchess_match

        return leiserchess_match.main(args)
    if getattr(args, "mode", None) == "tune":
        from camelpy.tools.games import leiserchess_tune

        return leiserchess_tune.main(args)
    if getattr(args, "mode", None) == "spsa":
        from camelpy.tools.games import leiserchess_tune

        return leiserchess_tune.spsa_main(args)
    if getattr(args, "mode", None) == "book":
        from camelpy.tools.games import leiserchess_book

        return leiserchess_book.main(args)
    if args.perft is not None:
        depth = int_arg(args.perft, "--perft", 0, MAX_PERFT_DEPTH)
        board = Board(args.fen, rules=args.rules) if args.fen else Board(rules=args.rules)
        began = time.monotonic()
        count = perft(board, depth)
        print(f"perft {depth} ({args.rules} rules): {count} in {time.monotonic() - began:.3f} s")
        return 0
    engine = LeiserEngine(sys.stdout, rules=args.rules, hash_mb=int_arg(args.hash, "--hash", 1, MAX_HASH_MB))
    if args.book:
        engine.book = LeiserBook.load(args.book)
    return engine.run(sys.stdin.buffer)

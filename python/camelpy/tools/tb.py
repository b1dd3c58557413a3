"""``camelpy tb``: endgame tablebases (:mod:`camelpy.tablebase`).

* ``camelpy tb generate [ENDING ...] --out DIR [--threads N]``: solves the endings (default: every 3-
  and 4-man ending) and all they lead to into *DIR*, one file each, printing each ending's time,
  file size and working memory, and the totals. Run again, it reads the tables already there and
  solves only what is missing (Ctrl-C loses at most the ending being solved).
* ``camelpy tb probe DIR FEN``: the position's distance to mate and result, and each legal move's.
"""

from __future__ import annotations

import argparse
import time

import chess

from camelpy._args import int_arg
from camelpy.tablebase import generate, open_tablebase

__all__ = ["add_arguments", "main"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tb`` subcommands."""
    sub = parser.add_subparsers(dest="tool", required=True, metavar="<generate|probe>")
    gen = sub.add_parser("generate", prog="camelpy tb generate", help="solve endings into a folder")
    gen.add_argument(
        "endings", nargs="*", metavar="ENDING", help="e.g. KQvKR (default: every 3-4-man ending)"
    )
    gen.add_argument("--out", required=True, metavar="DIR", help="the tables' folder (created if need be)")
    gen.add_argument("--threads", type=int, metavar="N", help="threads (default: every core)")
    probe = sub.add_parser("probe", prog="camelpy tb probe", help="a position's value and its moves'")
    probe.add_argument("path", metavar="DIR", help="the tables' folder")
    probe.add_argument("fen", metavar="FEN", help="the position")


def _describe(dtm: int) -> str:
    if dtm > 0:
        return f"win, mate in {(dtm + 1) // 2} (DTM {dtm})"
    if dtm < 0:
        return f"loss, mated in {-dtm // 2} (DTM {dtm})"
    return "draw (DTM 0)"


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy tb``."""
    if args.tool == "generate":
        threads = None if args.threads is None else int_arg(args.threads, "--threads", 1, 1024)
        began = time.monotonic()
        solved: list[float] = []
        total = {"bytes": 0, "memory": 0}

        def report(ending: str, fresh: bool, seconds: float, size: int, memory: int, layers: int) -> None:
            total["bytes"] += size
            total["memory"] = max(total["memory"], memory)
            if fresh:
                solved.append(seconds)
                print(
                    f"{ending:8} solved in {seconds:7.2f} s, {layers:3} plies deep,"
                    f" file {size / 1e6:7.2f} MB, memory {memory / 1e6:7.1f} MB",
                    flush=True,
                )
            else:
                print(f"{ending:8} read ({size / 1e6:.2f} MB): already there", flush=True)

        endings = generate(args.out, args.endings or None, threads=threads, progress=report)
        tables = f"{len(endings)} table{'' if len(endings) == 1 else 's'}"
        elapsed = time.monotonic() - began
        print(
            f"{tables} in {args.out} ({len(solved)} solved in {elapsed:.1f} s),"
            f" {total['bytes'] / 1e6:.1f} MB; most working memory {total['memory'] / 1e6:.1f} MB"
        )
        return 0
    board = chess.Board(args.fen)
    with open_tablebase(args.path) as tablebase:
        print(f"{board.fen()}: {_describe(tablebase.probe_dtm(board))}")
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            board.push(move)
            dtm = tablebase.get_dtm(board)
            board.pop()
            text = "no table" if dtm is None else _describe(-dtm)
            print(f"  {move.uci():6} {text}")
    return 0

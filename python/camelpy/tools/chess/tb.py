"""``camelpy tb``: endgame tablebases (:mod:`camelpy.tablebase`).

* ``camelpy tb generate [ENDING ...] --out DIR [--threads N]``: solves the endings (default: every 3-
  and 4-man ending) and all they lead to into *DIR*, one file each, printing each ending's time,
  file size and working memory, and the totals. Run again, it reads the tables already there and
  solves only what is missing (Ctrl-C loses at most the ending being solved).
* ``camelpy tb probe DIR FEN``: the position's distance to mate and result, and each legal move's.
* ``camelpy tb positions DIR ENDING --count N [--seed S] [--min-dtm PLIES]``: random positions of
  *ENDING* won for the side to move, as EPD with their DTM (``c0 "dtm 29"``), seeded.
* ``camelpy tb verify DIR ENDING [--samples N] [--seed S]``: random positions of *ENDING*, each
  value checked against its moves' values by python-chess's move generator (:func:`verify`).
* ``camelpy tb check DIR [ENDING ...] [--threads N]``: every position of each ending (default: every
  table in *DIR*) checked against its moves by the core's move generator
  (:meth:`camelpy.tablebase.Tablebase.check`); exit status 1 if any disagrees.
* ``camelpy tb convert DIR EPD [--nodes N]``: plays each position of *EPD* out with camelpy on the
  winning side, once with the tables and once without, against the tables' best defence (the move
  that resists longest), under the rules (fifty moves, repetition); prints, for both, the wins
  converted and the plies to mate against the DTM (:func:`play_out`).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time

import chess
import chess.engine

from camelpy._args import int_arg, read_text
from camelpy.engine import Engine
from camelpy.tablebase import Tablebase, generate, open_tablebase

__all__ = ["Conversion", "add_arguments", "convert", "main", "play_out", "verify", "won_positions"]

MAX_EPD_BYTES = 16 << 20
"""Largest ``convert`` EPD file read (16 MiB, some 200,000 positions): each is played out twice."""

MAX_TRIES_PER_POSITION = 10_000
"""Random placements drawn per position asked for before :func:`won_positions` gives up (a won
position of a winning ending turns up within a few dozen)."""


def _ending_pieces(ending: str) -> list[chess.Piece]:
    """The pieces of *ending* (``"KQvKR"``: White's first)."""
    sides = ending.upper().split("V")
    if len(sides) != 2 or not all(side.startswith("K") for side in sides):
        raise ValueError(f"bad ending {ending!r}: expected e.g. 'KQvKR'")
    try:
        return [chess.Piece.from_symbol(c) for c in sides[0]] + [
            chess.Piece.from_symbol(c.lower()) for c in sides[1]
        ]
    except ValueError:
        raise ValueError(f"bad ending {ending!r}: expected e.g. 'KQvKR'") from None


def _random_board(pieces: list[chess.Piece], rng: random.Random) -> chess.Board | None:
    """*pieces* on random squares, a random side to move; ``None`` if that is not a legal position."""
    board = chess.Board(None)
    for square, piece in zip(rng.sample(chess.SQUARES, len(pieces)), pieces):
        board.set_piece_at(square, piece)
    board.turn = rng.random() < 0.5
    return board if board.is_valid() else None


def _ranked(wdl: int, dtm: int) -> tuple[int, int]:
    """Orders (WDL, DTM) for the side to move: wins first and quickest, losses longest first."""
    return (wdl, -dtm if wdl > 0 else -dtm if wdl < 0 else 0)


def verify(tablebase: Tablebase, ending: str, samples: int, *, seed: int = 0) -> list[str]:
    """Checks *samples* random positions of *ending*: each one's DTM must be what its legal moves
    give by python-chess's move generator (independent of the solver's): 0 for a stalemate or a
    checkmate, otherwise the best of the moves' values one ply on. Returns the FENs that disagree
    (none, for a sound table).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp(); _ = generate(folder, ["KQvK"])
    >>> verify(open_tablebase(folder), "KQvK", 200)
    []
    """
    samples = int_arg(samples, "samples", 1, 10**12)
    rng = random.Random(int_arg(seed, "seed", 0, 2**64 - 1))
    pieces = _ending_pieces(ending)
    wrong = []
    checked = 0
    while checked < samples:
        board = _random_board(pieces, rng)
        if board is None:
            continue
        checked += 1
        value = (tablebase.probe_wdl(board), tablebase.probe_dtm(board))
        if board.is_checkmate():
            expected = (-1, 0)
        elif board.is_stalemate():
            expected = (0, 0)
        else:
            options = []
            for move in board.legal_moves:
                board.push(move)
                wdl, dtm = tablebase.probe_wdl(board), tablebase.probe_dtm(board)
                board.pop()
                # One ply on: the opponent's loss in n plies is a win in n + 1, and the reverse.
                options.append((-wdl, -dtm + (1 if wdl < 0 else -1 if wdl > 0 else 0)))
            expected = max(options, key=lambda o: _ranked(*o))
        if value != expected:
            wrong.append(board.fen())
    return wrong


def won_positions(
    tablebase: Tablebase, ending: str, count: int, *, seed: int = 0, min_dtm: int = 1
) -> list[tuple[chess.Board, int]]:
    """*count* random positions of *ending* (``"KQvKR"``: White's pieces first) won for the side to
    move in at least *min_dtm* plies, with their DTM; the same *seed* gives the same positions.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp(); _ = generate(folder, ["KRvK"])
    >>> [(b.fen(), dtm) for b, dtm in won_positions(open_tablebase(folder), "KRvK", 1, seed=3)]
    [('4K3/8/8/1R6/5k2/8/8/8 w - - 0 1', 27)]

    :raises: :exc:`ValueError` for a bad ending or if too few such positions turn up.
    """
    count = int_arg(count, "count", 1, 1_000_000)
    min_dtm = int_arg(min_dtm, "min_dtm", 1, 10_000)
    rng = random.Random(int_arg(seed, "seed", 0, 2**64 - 1))
    pieces = _ending_pieces(ending)
    found: list[tuple[chess.Board, int]] = []
    for _ in range(count * MAX_TRIES_PER_POSITION):
        if len(found) == count:
            return found
        board = _random_board(pieces, rng)
        if board is None:
            continue
        dtm = tablebase.get_dtm(board)
        if dtm is not None and dtm >= min_dtm:
            found.append((board, dtm))
    raise ValueError(f"found {len(found)} of {count} won {ending} positions with DTM >= {min_dtm}")


def play_out(
    board: chess.Board,
    engine: Engine,
    tablebase: Tablebase,
    limit: chess.engine.Limit,
    *,
    max_plies: int = 500,
) -> int | None:
    """Plays *board* out with *engine* for the side to move and the tables' best defence (the move
    whose DTM is longest) for the other, under the rules (checkmate, stalemate, fifty moves,
    threefold repetition, insufficient material); the plies to mate, or ``None`` if the engine did
    not mate (within *max_plies*)."""
    board = board.copy(stack=False)
    winner = board.turn
    for plies in range(max_plies + 1):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return plies if outcome.winner == winner else None
        if board.turn == winner:
            move = engine.play(board, limit).move
            assert move is not None
        else:

            def resistance(m: chess.Move) -> int:
                board.push(m)
                dtm = tablebase.probe_dtm(board)
                board.pop()
                return dtm

            move = max(board.legal_moves, key=resistance)
        board.push(move)
    return None


@dataclasses.dataclass(frozen=True)
class Conversion:
    """How an engine did on a set of won positions (:func:`convert`)."""

    positions: int
    """Positions played out."""
    converted: int
    """Positions mated."""
    plies: int
    """Plies to mate, summed over the converted positions."""
    dtm: int
    """The DTM, summed over the converted positions (the fewest plies possible)."""
    shortest: int
    """Converted positions mated in exactly DTM plies."""


def convert(
    boards: list[chess.Board], engine: Engine, tablebase: Tablebase, limit: chess.engine.Limit
) -> Conversion:
    """:func:`play_out` on each of *boards* (a new game each), summed."""
    converted = plies = dtm = shortest = 0
    for board in boards:
        engine.new_game()
        best = tablebase.probe_dtm(board)
        taken = play_out(board, engine, tablebase, limit)
        if taken is not None:
            converted += 1
            plies += taken
            dtm += best
            shortest += taken == best
    return Conversion(len(boards), converted, plies, dtm, shortest)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tb`` subcommands."""
    sub = parser.add_subparsers(
        dest="tool", required=True, metavar="<generate|probe|positions|verify|check|convert>"
    )
    gen = sub.add_parser("generate", prog="camelpy tb generate", help="solve endings into a folder")
    gen.add_argument(
        "endings", nargs="*", metavar="ENDING", help="e.g. KQvKR (default: every 3-4-man ending)"
    )
    gen.add_argument("--out", required=True, metavar="DIR", help="the tables' folder (created if need be)")
    gen.add_argument("--threads", type=int, metavar="N", help="threads (default: every core)")
    probe = sub.add_parser("probe", prog="camelpy tb probe", help="a position's value and its moves'")
    probe.add_argument("path", metavar="DIR", help="the tables' folder")
    probe.add_argument("fen", metavar="FEN", help="the position")
    pos = sub.add_parser("positions", prog="camelpy tb positions", help="random won positions as EPD")
    pos.add_argument("path", metavar="DIR", help="the tables' folder")
    pos.add_argument("ending", metavar="ENDING", help="e.g. KQvKR (White's pieces first)")
    pos.add_argument("--count", type=int, default=100, metavar="N", help="positions (default 100)")
    pos.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    pos.add_argument("--min-dtm", type=int, default=1, metavar="PLIES", help="least DTM (default 1)")
    ver = sub.add_parser("verify", prog="camelpy tb verify", help="check random positions by python-chess")
    ver.add_argument("path", metavar="DIR", help="the tables' folder")
    ver.add_argument("ending", metavar="ENDING", help="e.g. KQvKR (White's pieces first)")
    ver.add_argument("--samples", type=int, default=10_000, metavar="N", help="positions (default 10000)")
    ver.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    chk = sub.add_parser("check", prog="camelpy tb check", help="check every position of tables")
    chk.add_argument("path", metavar="DIR", help="the tables' folder")
    chk.add_argument("endings", nargs="*", metavar="ENDING", help="e.g. KQvKR (default: every table in DIR)")
    chk.add_argument("--threads", type=int, metavar="N", help="threads (default: every core)")
    conv = sub.add_parser(
        "convert", prog="camelpy tb convert", help="play won positions out with and without"
    )
    conv.add_argument("path", metavar="DIR", help="the tables' folder")
    conv.add_argument("epd", metavar="EPD", help="positions (e.g. from camelpy tb positions)")
    conv.add_argument("--nodes", type=int, default=20_000, metavar="N", help="nodes a move (default 20000)")


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
    if args.tool == "positions":
        count = int_arg(args.count, "--count", 1, 1_000_000)
        with open_tablebase(args.path) as tablebase:
            found = won_positions(tablebase, args.ending, count, seed=args.seed, min_dtm=args.min_dtm)
        for board, dtm in found:
            print(f'{board.epd()} c0 "dtm {dtm}";')
        return 0
    if args.tool == "verify":
        samples = int_arg(args.samples, "--samples", 1, 10**9)
        with open_tablebase(args.path) as tablebase:
            wrong = verify(tablebase, args.ending, samples, seed=args.seed)
        for fen in wrong:
            print(f"disagrees: {fen}")
        print(f"{samples} {args.ending} positions checked by python-chess's moves: {len(wrong)} disagree")
        return 1 if wrong else 0
    if args.tool == "check":
        threads = None if args.threads is None else int_arg(args.threads, "--threads", 1, 1024)
        began = time.monotonic()
        positions = mismatches = 0
        with open_tablebase(args.path) as tablebase:
            for ending in args.endings or tablebase.endings:
                start = time.monotonic()
                c = tablebase.check(ending, threads=threads)
                positions += c.positions
                mismatches += c.mismatches
                print(
                    f"{c.ending:8} {c.positions:11,} positions ({c.decisive:,} decisive),"
                    f" {c.mismatches} disagree, {time.monotonic() - start:6.1f} s",
                    flush=True,
                )
                for example in c.examples:
                    print(f"  disagrees: {example}")
        print(
            f"{positions:,} positions checked by the core's moves in {time.monotonic() - began:.1f} s:"
            f" {mismatches} disagree"
        )
        return 1 if mismatches else 0
    if args.tool == "convert":
        nodes = int_arg(args.nodes, "--nodes", 1, 10**12)
        epd = read_text(args.epd, "--epd", "EPD file", limit=MAX_EPD_BYTES).splitlines()
        boards = [chess.Board.from_epd(line)[0] for line in epd if line.strip()]
        with open_tablebase(args.path) as tablebase:
            limit = chess.engine.Limit(nodes=nodes)
            for name, engine in (("with tables", Engine(tablebases=tablebase)), ("without", Engine())):
                r = convert(boards, engine, tablebase, limit)
                extra = f"{r.plies / max(r.dtm, 1):.2f}x the DTM" if r.converted else "-"
                print(
                    f"{name:12} converted {r.converted}/{r.positions}, mated in {r.plies} plies against"
                    f" a DTM of {r.dtm} ({extra}), {r.shortest} in exactly the DTM"
                )
        return 0
    board = chess.Board(args.fen)
    with open_tablebase(args.path) as tablebase:
        print(f"{board.fen()}: {_describe(tablebase.probe_dtm(board))}")
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            board.push(move)
            child = tablebase.get_dtm(board)
            board.pop()
            text = "no table" if child is None else _describe(-child)
            print(f"  {move.uci():6} {text}")
    return 0

"""``camelpy minichess``: MiniChess (6×5, :mod:`camelpy.minichess`) from the command line: the runner and
the match (the arena's, :mod:`camelpy.arena.minichess`), our player and the course's baselines (the file
protocol's player side, :mod:`camelpy.protocols.minichess`), a terminal game, the tuner
(:mod:`camelpy.tools.games.minichess_tune`) and perft.

* ``camelpy minichess runner PLAYER1 PLAYER2 [--time-per-move S]``: one game between two file-protocol
  players (:func:`camelpy.arena.minichess.play_game`).
* ``camelpy minichess match PLAYER1 PLAYER2 --games N [--time-per-move S] [--out DIR]``: *N* runner games,
  resumable (:func:`camelpy.arena.minichess.play_match`).
* ``camelpy minichess player [--time S] [--ply N]`` and ``camelpy minichess player --baseline NAME [--seed N]
  [--time S]``: a file-protocol player (:func:`camelpy.protocols.minichess.play_move`).
* ``camelpy minichess play [--color white|black] [--time S] [--start TEXT]``: play camelpy in the
  terminal (moves typed as ``from_row from_col to_row to_col``; ``undo``, ``quit``).
* ``camelpy minichess perft DEPTH [--text T]``: counts the leaves of the move tree (as ``camelpy perft``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="camelpy minichess")
>>> add_arguments(parser)
>>> main(parser.parse_args(["perft", "3"]))  # doctest: +ELLIPSIS
Nodes searched: ...
Nodes/second: ...
0
"""

from __future__ import annotations

import argparse
import time

from camelpy._args import int_arg, real_arg
from camelpy.arena.minichess import DEFAULT_TIME_PER_MOVE, describe, play_game, play_match
from camelpy.minichess import BASELINES, Board, Searcher, perft
from camelpy.protocols.minichess import play_move
from camelpy.tools.games import minichess_tune

__all__ = ["add_arguments", "main"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``camelpy minichess <runner|player|play|match|tune|spsa|perft> …``."""
    sub = parser.add_subparsers(
        dest="tool", required=True, metavar="<runner|player|play|match|tune|spsa|perft>"
    )
    runner = sub.add_parser(
        "runner",
        prog="camelpy minichess runner",
        help="play two file-protocol players against each other (PLAYER1 is White)",
        description="Plays one game between two file-protocol players (command lines; PLAYER1 is White).",
    )
    runner.add_argument("player1", metavar="PLAYER1", help="White's command line")
    runner.add_argument("player2", metavar="PLAYER2", help="Black's command line")
    _add_clock_and_start(
        runner,
        "seconds per move before a player is killed",
        "start from this one-line board (default: the start)",
    )
    runner.add_argument("--workdir", metavar="DIR", help="keep the players' directories under DIR")
    runner.add_argument("--quiet", action="store_true", help="print only the result")
    player = sub.add_parser(
        "player",
        prog="camelpy minichess player",
        help="a file-protocol player: reads ./state, writes its move to ./action",
        description="A file-protocol player: reads ./state and writes its move to ./action atomically.",
    )
    kind = player.add_mutually_exclusive_group()
    kind.add_argument(
        "--random", action="store_true", help="a random legal move (the course's random baseline)"
    )
    kind.add_argument(
        "--baseline",
        choices=BASELINES,
        metavar="NAME",
        help=f"play one of the course's baselines ({', '.join(BASELINES)}) instead of camelpy",
    )
    player.add_argument("--seed", type=int, metavar="N", help="make a baseline's choice reproducible")
    player.add_argument(
        "--time",
        type=float,
        default=DEFAULT_TIME_PER_MOVE,
        metavar="S",
        help=f"the runner's time per move in seconds (default {DEFAULT_TIME_PER_MOVE:g})",
    )
    player.add_argument(
        "--ply", type=int, metavar="N", help="plies played before this state (default: remembered)"
    )
    player.add_argument(
        "--hash", type=int, default=16, metavar="MB", help="camelpy's table size (default 16)"
    )
    player.add_argument(
        "--weights", metavar="FILE", help="evaluation weights (JSON, as camelpy minichess tune writes)"
    )
    play = sub.add_parser(
        "play",
        prog="camelpy minichess play",
        help="play camelpy in the terminal",
        description="Play MiniChess against camelpy in the terminal.",
    )
    play.add_argument(
        "--color", choices=("white", "black"), default="white", help="your side (default white)"
    )
    play.add_argument(
        "--time", type=float, default=1.0, metavar="S", help="camelpy's seconds per move (default 1)"
    )
    play.add_argument("--start", metavar="TEXT", help="start from this one-line board (default: the start)")
    tune = sub.add_parser(
        "tune",
        prog="camelpy minichess tune",
        help="fit the player's evaluation weights to self-play games",
        description="Generates self-play games and fits the player's evaluation weights to their results.",
    )
    minichess_tune.add_arguments(tune)
    minichess_tune.add_spsa_arguments(
        sub.add_parser(
            "spsa",
            prog="camelpy minichess spsa",
            help="tune the evaluation weights by playing games (SPSA, in process)",
            description="Tunes the player's evaluation weights by SPSA over self-play game pairs.",
        )
    )
    match = sub.add_parser(
        "match",
        prog="camelpy minichess match",
        help="several runner games between two players, colours alternating; resumable",
        description="Plays --games runner games between two file-protocol players, PLAYER1 White in the "
        "odd games; {game} in a command becomes the game's number.",
    )
    match.add_argument("player1", metavar="PLAYER1", help="a command line")
    match.add_argument("player2", metavar="PLAYER2", help="a command line")
    match.add_argument("--games", type=int, required=True, metavar="N", help="games to play")
    _add_clock_and_start(match, "seconds per move", "start every game here (default: the start)")
    match.add_argument("--out", metavar="DIR", help="record games in DIR/games.jsonl and resume from it")
    count = sub.add_parser(
        "perft",
        prog="camelpy minichess perft",
        help="count the leaves of the move tree",
        description="Counts the leaves of the MiniChess move tree DEPTH plies deep.",
    )
    count.add_argument("depth", type=int, help="plies")
    count.add_argument("--text", default=None, metavar="TEXT", help="the one-line board (default: the start)")


def _add_clock_and_start(parser: argparse.ArgumentParser, seconds: str, start: str) -> None:
    """``--time-per-move S`` and ``--start TEXT``, as ``runner`` and ``match`` take them."""
    parser.add_argument(
        "--time-per-move",
        type=float,
        default=DEFAULT_TIME_PER_MOVE,
        metavar="S",
        help=f"{seconds} (default {DEFAULT_TIME_PER_MOVE:g})",
    )
    parser.add_argument("--start", metavar="TEXT", help=start)


def main(args: argparse.Namespace) -> int:
    """Runs the subcommand; returns the exit status."""
    if args.tool == "runner":
        start = Board(args.start) if args.start is not None else None
        game = play_game(
            [args.player1, args.player2],
            args.time_per_move,
            start=start,
            workdir=args.workdir,
            out=None if args.quiet else print,
        )
        if args.quiet:
            print(f"result: {describe(game)}")
        return 0
    if args.tool == "player":
        return play_move(
            args.time,
            baseline="random" if args.random else args.baseline,
            seed=args.seed,
            ply=args.ply,
            weights=args.weights,
            hash_mb=args.hash,
        )
    if args.tool == "play":
        return _play(args)
    if args.tool == "tune":
        return minichess_tune.main(args)
    if args.tool == "spsa":
        return minichess_tune.spsa_main(args)
    if args.tool == "match":
        start = Board(args.start) if args.start is not None else None
        play_match([args.player1, args.player2], args.games, args.time_per_move, start=start, out=args.out)
        return 0
    board = Board() if args.text is None else Board(args.text)
    depth = int_arg(args.depth, "depth", 0, 15)
    begin = time.perf_counter()
    nodes = perft(board, depth)
    seconds = time.perf_counter() - begin
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {int(nodes / max(seconds, 1e-9))}")
    return 0


def _play(args: argparse.Namespace) -> int:
    """Human against camelpy in the terminal."""
    limit = real_arg(args.time, "--time", above=0)
    board = Board() if args.start is None else Board(args.start)
    human = args.color == "white"
    searcher = Searcher()
    print("Moves are 'from_row from_col to_row to_col' (e.g. 4 2 3 2); 'undo' takes back, 'quit' ends.")
    while board.outcome() is None:
        print(f"\n{board}\n")
        if board.turn == human:
            try:
                line = input("your move: ").strip()
            except EOFError:
                print()
                return 0
            if line in ("quit", "exit"):
                return 0
            if line == "undo":
                if len(board.move_stack) >= 2:
                    board.pop()
                    board.pop()
                else:
                    print("nothing to take back")
                continue
            try:
                board.push(line)
            except ValueError as err:
                print(f"error: {err}")
            continue
        result = searcher.search(board, time=limit)
        assert result.move is not None  # the game is not over
        info = result.info
        score = f"win in {info.win_in}" if info.score is None else f"{info.score / 100:+.2f}"
        print(f"camelpy plays {result.move} (depth {info.depth}, {score})")
        board.push(result.move)
    print(f"\n{board}\n\nresult: {board.result()} ({board.outcome()})")
    return 0

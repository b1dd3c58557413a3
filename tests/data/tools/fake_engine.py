"""A tiny UCI engine for the match-manager tests: it plays a pseudo-random legal move at once, and
can misbehave on request.

    python fake_engine.py [MODE] [--after N] [--seed S]

MODE: ``random`` (default; a legal move chosen by a hash of the position and the seed), ``first`` (the
first legal move in UCI order), ``illegal`` (an illegal move), ``crash`` (exits with status 3),
``hang`` (never answers and ignores ``stop``), ``nobestmove`` (``bestmove (none)``), ``slow`` (answers
only after its clock has run out). A misbehaving mode misbehaves from its N-th ``go`` of the process
(``--after``, default 3); before that it plays like ``random``. Scores are the material balance in
centipawns from the side to move's view, so resign adjudication has something to read.
"""

from __future__ import annotations

import hashlib
import sys
import time

import chess

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def material(board: chess.Board) -> int:
    total = 0
    for piece_type, value in VALUES.items():
        total += value * len(board.pieces(piece_type, board.turn))
        total -= value * len(board.pieces(piece_type, not board.turn))
    return total


def pick(board: chess.Board, mode: str, seed: str) -> chess.Move:
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    if mode == "first":
        return moves[0]
    digest = hashlib.sha256((board.fen() + seed).encode()).digest()
    return moves[int.from_bytes(digest[:4], "big") % len(moves)]


def illegal_move(board: chess.Board) -> str:
    for from_square in chess.SQUARES:
        for to_square in chess.SQUARES:
            move = chess.Move(from_square, to_square)
            if from_square != to_square and move not in board.legal_moves:
                return move.uci()
    raise AssertionError("unreachable")


def main(argv: list[str]) -> int:
    mode = argv[0] if argv and not argv[0].startswith("--") else "random"
    after = int(argv[argv.index("--after") + 1]) if "--after" in argv else 3
    seed = argv[argv.index("--seed") + 1] if "--seed" in argv else ""
    board = chess.Board()
    searches = 0

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            say(f"id name fake-{mode}")
            say("id author camelpy tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            if tokens[1] == "startpos":
                board = chess.Board()
                rest = tokens[2:]
            else:
                end = tokens.index("moves") if "moves" in tokens else len(tokens)
                board = chess.Board(" ".join(tokens[2:end]))
                rest = tokens[end:]
            for uci in rest[1:]:
                board.push_uci(uci)
        elif command == "go":
            searches += 1
            misbehave = mode not in ("random", "first") and searches >= after
            if misbehave and mode == "crash":
                return 3
            if misbehave and mode == "hang":
                while True:
                    time.sleep(60)
            if misbehave and mode == "nobestmove":
                say("bestmove (none)")
                continue
            if misbehave and mode == "slow":
                key = "wtime" if board.turn == chess.WHITE else "btime"
                clock_ms = int(tokens[tokens.index(key) + 1]) if key in tokens else 1000
                time.sleep(clock_ms / 1000 + 0.5)
            if misbehave and mode == "illegal":
                say(f"bestmove {illegal_move(board)}")
                continue
            if board.is_game_over():
                say("bestmove (none)")
                continue
            move = pick(board, mode, seed)
            say(f"info depth 1 seldepth 1 score cp {material(board)} nodes 1 time 0 pv {move.uci()}")
            say(f"bestmove {move.uci()}")
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Boards as the page draws them: python-chess boards to views (FEN, legal moves by from-square, last
move, check, the end), scores to White's side, and the one parser of a page's move on a chess board.

>>> board_view(chess.Board())["legal"]["g1"]
['g1h3', 'g1f3']
"""

from __future__ import annotations

from typing import Any

import chess
import chess.engine

from camelpy._quote import quote
from camelpy.errors import IllegalMoveError, InvalidMoveError

__all__ = ["board_view", "parse_move", "score_view"]


def parse_move(board: chess.Board, uci: str) -> chess.Move:
    """*uci* as a legal move on *board*.

    :raises: :exc:`camelpy.IllegalMoveError` quoting a move that is not legal there,
        :exc:`camelpy.InvalidMoveError` quoting one that is not UCI.
    """
    try:
        return board.parse_uci(uci)
    except chess.IllegalMoveError:
        raise IllegalMoveError(f"illegal move {quote(uci)} in {quote(board.fen())}") from None
    except chess.InvalidMoveError:
        raise InvalidMoveError(f"{quote(uci)} is not a move in UCI notation (e2e4, e7e8q)") from None


def board_view(board: chess.Board, *, playable: bool = True) -> dict[str, Any]:
    """A board as the page draws it: the FEN, whose turn, the legal moves (UCI) by from-square, the
    last move, the checked king's square and the game's end if it is over. Without *playable* (a board
    only watched) the legal moves and the end are left out: they cost more than the rest together.

    >>> board_view(chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))["outcome"]
    'White wins: checkmate'
    """
    legal: dict[str, list[str]] = {}
    if playable:
        for move in board.legal_moves:
            legal.setdefault(chess.square_name(move.from_square), []).append(board.uci(move))
    last = board.move_stack[-1] if board.move_stack else None
    king = board.king(board.turn)
    outcome = board.outcome(claim_draw=True) if playable else None
    return {
        "fen": board.fen(shredder=board.chess960),
        "turn": "white" if board.turn == chess.WHITE else "black",
        "legal": legal,
        "lastmove": last.uci() if last is not None else None,
        "check": chess.square_name(king) if king is not None and board.is_check() else None,
        "outcome": _outcome_text(outcome) if outcome is not None else None,
    }


def _outcome_text(outcome: chess.Outcome) -> str:
    reason = outcome.termination.name.lower().replace("_", " ")
    if outcome.winner is None:
        return f"Draw: {reason}"
    return f"{'White' if outcome.winner == chess.WHITE else 'Black'} wins: {reason}"


def score_view(score: chess.engine.PovScore) -> dict[str, Any]:
    """A score from White's side as the page shows it: ``cp`` or ``mate``, and the text.

    >>> import chess.engine
    >>> score_view(chess.engine.PovScore(chess.engine.Cp(-35), chess.BLACK))
    {'cp': 35, 'mate': None, 'text': '+0.35'}
    >>> score_view(chess.engine.PovScore(chess.engine.Mate(2), chess.BLACK))
    {'cp': None, 'mate': -2, 'text': '#-2'}
    """
    white = score.white()
    mate = white.mate()
    if mate is not None:
        return {"cp": None, "mate": mate, "text": f"#{mate}"}
    cp = white.score()
    assert cp is not None
    return {"cp": cp, "mate": None, "text": f"{cp / 100:+.2f}"}

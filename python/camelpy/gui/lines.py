"""The analysis board's line: a start position, the moves played from it, and the ply on show.

A line is loaded from a FEN or a PGN pasted into the page (:func:`load_text`), grows by moves played on
the board (:meth:`Line.play`) and is walked ply by ply; :meth:`Line.view` is what the page draws.

>>> line = load_text("1. e4 e5 2. Nf3 Nc6 *")
>>> line.sans(), line.ply
(['e4', 'e5', 'Nf3', 'Nc6'], 0)
>>> line = line.goto(2).play(["b1c3"])
>>> line.sans()
['e4', 'e5', 'Nc3']
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import chess
import chess.pgn

from camelpy._args import int_arg, items_arg, str_arg
from camelpy._quote import quote
from camelpy.errors import IllegalMoveError, InvalidMoveError
from camelpy.types import board_root

__all__ = ["MAX_TEXT", "Line", "board_view", "load_text", "parse_move", "score_view"]

MAX_TEXT = 1_000_000
"""Characters of pasted FEN or PGN accepted: a long game's PGN is a few KB; this bounds the work a
pasted novel can cause."""


@dataclasses.dataclass(frozen=True)
class Line:
    """A start position (*fen*, *chess960*), moves from it (UCI) and the ply on show (0 = the start).

    :raises: :exc:`camelpy.InvalidFenError` for a bad FEN, :exc:`camelpy.IllegalMoveError` or
        :exc:`camelpy.InvalidMoveError` for a move that cannot be played, :exc:`ValueError` for a ply
        outside the line.
    """

    fen: str = chess.STARTING_FEN
    """The start position."""
    chess960: bool = False
    """Whether the moves are Chess960 moves (castling written king-takes-rook)."""
    moves: tuple[str, ...] = ()
    """The moves from the start, in UCI."""
    ply: int = 0
    """How many of *moves* are played on the board on show."""

    def __post_init__(self) -> None:
        str_arg(self.fen, "fen")
        object.__setattr__(self, "moves", tuple(items_arg(self.moves, "moves", str)))
        int_arg(self.ply, "ply", 0, len(self.moves))
        self.board(len(self.moves))  # every move must be legal

    def board(self, ply: int | None = None) -> chess.Board:
        """The board after *ply* moves (default: :attr:`ply`), with the moves on its stack."""
        board = board_root(self.fen, self.chess960).board()
        board.chess960 = self.chess960
        for uci in self.moves[: self.ply if ply is None else ply]:
            board.push(parse_move(board, uci))
        return board

    def sans(self) -> list[str]:
        """The moves in SAN."""
        board = self.board(0)
        sans = []
        for uci in self.moves:
            move = board.parse_uci(uci)
            sans.append(board.san(move))
            board.push(move)
        return sans

    def goto(self, ply: int) -> Line:
        """The same line showing *ply*.

        :raises: :exc:`ValueError` for a ply outside 0 … the number of moves.
        """
        return dataclasses.replace(self, ply=ply)

    def play(self, ucis: list[str]) -> Line:
        """The line with *ucis* played from the ply on show: a move that is the line's next one just
        steps forward; another replaces the rest of the line.

        :raises: :exc:`camelpy.IllegalMoveError` (or :exc:`camelpy.InvalidMoveError`) quoting a move
            that cannot be played there; the line is unchanged.
        """
        moves, ply = list(self.moves), self.ply
        board = self.board()
        for uci in items_arg(ucis, "moves", str):
            move = parse_move(board, uci)
            uci = board.uci(move, chess960=self.chess960)
            if ply < len(moves) and moves[ply] == uci:
                ply += 1
            else:
                moves[ply:] = [uci]
                ply += 1
            board.push(move)
        return Line(self.fen, self.chess960, tuple(moves), ply)

    def pgn(self) -> str:
        """The line as a PGN game."""
        game = chess.pgn.Game.from_board(self.board(len(self.moves)))
        game.headers["Event"] = "camelpy analysis"
        if self.chess960:
            game.headers["Variant"] = "Chess960"
        return str(game)

    def view(self) -> dict[str, Any]:
        """What the page needs: the line (``moves``, ``sans``, ``ply``) and the board on show."""
        return {
            "fen": self.fen,
            "chess960": self.chess960,
            "moves": list(self.moves),
            "sans": self.sans(),
            "ply": self.ply,
            "board": board_view(self.board()),
            "pgn": self.pgn(),
        }


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


def load_text(text: str, *, chess960: bool = False) -> Line:
    """A line from a FEN (shown at its start) or a PGN's main line (shown at its start); a PGN's
    ``FEN`` and ``Variant`` headers are honoured.

    >>> load_text("8/8/8/4k3/8/8/8/4K2R w K - 0 1").moves
    ()

    :raises: :exc:`ValueError` quoting the text when it is neither, or the PGN's first error (an
        illegal move, a bad FEN header).
    """
    str_arg(text, "text")
    if len(text) > MAX_TEXT:
        raise ValueError(f"the text is longer than {MAX_TEXT} characters ({len(text)})")
    stripped = text.strip()
    if not stripped:
        raise ValueError("paste a FEN or a PGN: the text is empty")
    if "/" in stripped.split()[0] and not stripped.startswith("["):
        return Line(stripped, chess960)
    try:
        game = chess.pgn.read_game(io.StringIO(stripped))
    except (ValueError, KeyError) as err:  # a broken FEN header or variant
        raise ValueError(f"not a PGN: {quote(stripped)} ({err})") from None
    if game is None:
        raise ValueError(f"neither a FEN nor a PGN: {quote(stripped)}")
    if game.errors:
        raise ValueError(f"cannot read the PGN {quote(stripped)}: {game.errors[0]}")
    moves = list(game.mainline_moves())
    if not moves and "FEN" not in game.headers and not stripped.startswith("["):
        raise ValueError(f"neither a FEN nor a PGN: {quote(stripped)}")
    board = game.board()
    start = board.fen(shredder=board.chess960)
    ucis = []
    for move in moves:
        ucis.append(board.uci(move, chess960=board.chess960))
        board.push(move)
    return Line(start, board.chess960 or chess960, tuple(ucis), 0)

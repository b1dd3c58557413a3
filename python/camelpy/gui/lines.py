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

from camelpy._args import int_arg, items_arg, shown, str_arg
from camelpy._quote import quote
from camelpy.gui.variants import VARIANTS, Variant

__all__ = ["MAX_PLIES", "MAX_TEXT", "Line", "load_text"]

MAX_TEXT = 65_536
"""Characters of pasted FEN or PGN accepted: a long game's PGN, with a clock and an evaluation
comment on every move, is under 30 KB; this bounds the work one paste causes (a megabyte of PGN kept
the server busy for minutes)."""

MAX_PLIES = 1_000
"""Moves (plies) a line may hold: the longest tournament game had 538; each change to the line
replays it, so its length bounds the work of every op on it."""


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
    variant: str = "chess"
    """The game: ``chess`` or ``minichess`` (moves from square to square, a 5 × 6 board)."""

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown game {shown(self.variant)}; expected one of {', '.join(VARIANTS)}")
        str_arg(self.fen, "fen")
        object.__setattr__(self, "moves", tuple(items_arg(self.moves, "moves", str)))
        if len(self.moves) > MAX_PLIES:
            raise ValueError(f"a line holds at most {MAX_PLIES} moves, got {len(self.moves)}")
        int_arg(self.ply, "ply", 0, len(self.moves))
        self.board(len(self.moves))  # every move must be legal

    @property
    def rules(self) -> Variant:
        """The game's rules (:mod:`camelpy.gui.variants`)."""
        return VARIANTS[self.variant]

    def board(self, ply: int | None = None) -> Any:
        """The board after *ply* moves (default: :attr:`ply`), with the moves on its stack: a
        ``chess.Board`` or a :class:`camelpy.minichess.Board`."""
        rules = self.rules
        board = rules.line_board(self.fen, self.chess960)
        for uci in self.moves[: self.ply if ply is None else ply]:
            board.push(rules.parse(board, uci))
        return board

    def sans(self) -> list[str]:
        """The moves in SAN."""
        board, rules = self.board(0), self.rules
        sans = []
        for uci in self.moves:
            move = rules.parse(board, uci)
            sans.append(rules.san(board, move))
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
            that cannot be played there, :exc:`ValueError` when the line would pass :data:`MAX_PLIES`;
            the line is unchanged.
        """
        ucis = items_arg(ucis, "moves", str)
        if len(ucis) > MAX_PLIES:
            raise ValueError(f"a line holds at most {MAX_PLIES} moves, got {len(ucis)} to play")
        moves, ply = list(self.moves), self.ply
        board, rules = self.board(), self.rules
        for uci in ucis:
            move = rules.parse(board, uci)
            uci = rules.uci(board, move)
            if ply < len(moves) and moves[ply] == uci:
                ply += 1
            else:
                moves[ply:] = [uci]
                ply += 1
            board.push(move)
            if len(moves) > MAX_PLIES:
                raise ValueError(f"a line holds at most {MAX_PLIES} moves")
        return Line(self.fen, self.chess960, tuple(moves), ply, self.variant)

    def pgn(self) -> str:
        """The line as a PGN game."""
        return self.rules.record(self.board(len(self.moves)), {"Event": "camelpy analysis"}, [])

    def view(self) -> dict[str, Any]:
        """What the page needs: the line (``moves``, ``sans``, ``ply``) and the board on show."""
        rules = self.rules
        return {
            "variant": rules.name,
            "files": rules.files,
            "ranks": rules.ranks,
            "fen": self.fen,
            "chess960": self.chess960,
            "moves": list(self.moves),
            "sans": self.sans(),
            "ply": self.ply,
            "board": rules.view(self.board()),
            "pgn": self.pgn(),
        }


def load_text(text: str, *, chess960: bool = False, variant: str = "chess") -> Line:
    """A line from a FEN (shown at its start) or a PGN's main line (shown at its start); a PGN's
    ``FEN`` and ``Variant`` headers are honoured. For MiniChess (*variant* ``minichess``), the one-line
    form (:meth:`camelpy.minichess.Board.fen`).

    >>> load_text("8/8/8/4k3/8/8/8/4K2R w K - 0 1").moves
    ()

    :raises: :exc:`ValueError` quoting the text when it is neither, or the PGN's first error (an
        illegal move, a bad FEN header); for text longer than :data:`MAX_TEXT` or a game longer than
        :data:`MAX_PLIES`.
    """
    str_arg(text, "text")
    if len(text) > MAX_TEXT:
        raise ValueError(f"the text is longer than {MAX_TEXT} characters ({len(text)})")
    stripped = text.strip()
    if not stripped:
        raise ValueError("paste a FEN or a PGN: the text is empty")
    rules = VARIANTS.get(variant)
    if rules is None or not rules.reads_pgn:  # its one-line form (an unknown game is refused by Line)
        return Line(stripped, variant=variant)
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

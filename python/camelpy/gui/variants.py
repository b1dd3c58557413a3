"""The games the GUI plays, behind one interface: chess (python-chess's ``chess.Board``, Chess960
included) and MiniChess (6 rows × 5 columns, :class:`camelpy.minichess.Board`). A :class:`Variant`
turns a board and its moves into what the page shows: square names (files ``a…``, ranks from White's
side, so MiniChess's row 5 is rank 1), moves as from-square and to-square (``b1c3``), SAN, the board
view, the end of the game and the record of the game.

>>> from camelpy import minichess
>>> board = MINICHESS.new_board(None)
>>> move = MINICHESS.parse(board, "b1c3")
>>> move, MINICHESS.san(board, move)
(Move(5, 1, 3, 2), 'Nc3')
>>> sorted(MINICHESS.view(board)["legal"])[:3]
['a2', 'b1', 'b2']
"""

from __future__ import annotations

from typing import Any

import chess
import chess.pgn

from camelpy import minichess
from camelpy._quote import quote
from camelpy.errors import IllegalMoveError, InvalidMoveError
from camelpy.gui.boards import board_view, parse_move
from camelpy.types import board_root

__all__ = ["CHESS", "MINICHESS", "VARIANTS", "Variant"]

_FILES = "abcdefgh"

_MINI_TERMINATIONS = {
    minichess.Termination.KING_CAPTURED: "king captured",
    minichess.Termination.MATERIAL_COUNT: f"material count after {minichess.MAX_PLIES} plies",
    minichess.Termination.NO_MOVES: "no move left",
}


class Variant:
    """One game's rules as the GUI needs them."""

    name = ""
    """``chess`` or ``minichess``."""
    title = ""
    """For people and the record's ``Variant`` header."""
    files = 8
    """Columns."""
    ranks = 8
    """Rows."""

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> Any:
        """The start position: *fen* or the standard one (chess: or Chess960 start *chess960_pos*).

        :raises: :exc:`ValueError` quoting a FEN that cannot be played from.
        """
        raise NotImplementedError

    def parse(self, board: Any, uci: str) -> Any:
        """*uci* (from-square and to-square) as a legal move on *board*.

        :raises: :exc:`camelpy.IllegalMoveError`, :exc:`camelpy.InvalidMoveError` quoting it.
        """
        raise NotImplementedError

    def uci(self, board: Any, move: Any) -> str:
        """*move* as from-square and to-square (chess: UCI as *board* writes it)."""
        raise NotImplementedError

    def san(self, board: Any, move: Any) -> str:
        """*move* (legal on *board*, before it is played) in SAN."""
        raise NotImplementedError

    def view(self, board: Any) -> dict[str, Any]:
        """The board as the page draws it (see :func:`camelpy.gui.boards.board_view`)."""
        raise NotImplementedError

    def outcome(self, board: Any) -> tuple[str, str] | None:
        """The result and a sentence, once the game is over."""
        raise NotImplementedError

    def fen(self, board: Any) -> str:
        """The position as text."""
        raise NotImplementedError

    def record(self, board: Any, headers: dict[str, str], comments: list[str | None]) -> str:
        """The game as PGN, *comments* after the moves."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name.upper()


class _Chess(Variant):
    name, title, files, ranks = "chess", "Standard", 8, 8

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> chess.Board:
        if chess960_pos is not None:
            if fen is not None:
                raise ValueError("give a FEN or a Chess960 position number, not both")
            return chess.Board.from_chess960_pos(chess960_pos)
        if fen is None:
            return chess.Board()
        board = board_root(fen.strip()).board()
        board = chess.Board(board.fen(), chess960=board.has_chess960_castling_rights())
        status = board.status()
        if status != chess.STATUS_VALID:
            flags = [(f.name or "").lower().replace("_", " ") for f in chess.Status if f and f in status]
            raise ValueError(f"cannot play from {quote(fen)}: {', '.join(flags) or 'not a legal position'}")
        return board

    def parse(self, board: chess.Board, uci: str) -> chess.Move:
        return parse_move(board, uci)

    def uci(self, board: chess.Board, move: chess.Move) -> str:
        return board.uci(move)

    def san(self, board: chess.Board, move: chess.Move) -> str:
        return board.san(move)

    def view(self, board: chess.Board) -> dict[str, Any]:
        return board_view(board)

    def outcome(self, board: chess.Board) -> tuple[str, str] | None:
        found = board.outcome(claim_draw=True)  # draws are claimed at once
        return None if found is None else (found.result(), str(board_view(board)["outcome"]))

    def fen(self, board: chess.Board) -> str:
        return board.fen(shredder=board.chess960)

    def record(self, board: chess.Board, headers: dict[str, str], comments: list[str | None]) -> str:
        game = chess.pgn.Game.from_board(board)
        game.headers.update(headers)
        if board.chess960:
            game.headers["Variant"] = "Chess960"
        node: chess.pgn.GameNode = game
        for comment in comments:
            node = node.variations[0]
            if comment:
                node.comment = comment
        return str(game)


class _MiniChess(Variant):
    name, title, files, ranks = "minichess", "MiniChess 6x5", minichess.COLS, minichess.ROWS

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> minichess.Board:
        if chess960_pos is not None:
            raise ValueError("Chess960 starts are for chess, not MiniChess")
        return minichess.Board(fen.strip()) if fen else minichess.Board()

    def square(self, row: int, col: int) -> str:
        """A square's name (row 0 is the top: rank 6)."""
        return f"{_FILES[col]}{self.ranks - row}"

    def parse(self, board: minichess.Board, uci: str) -> minichess.Move:
        names = {self.square(r, c): (r, c) for r in range(self.ranks) for c in range(self.files)}
        if len(uci) != 4 or uci[:2] not in names or uci[2:] not in names:
            raise InvalidMoveError(f"{quote(uci)} is not a move from square to square (b1c3) on this board")
        move = minichess.Move(*names[uci[:2]], *names[uci[2:]])
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {quote(uci)} in {quote(board.fen())}")
        return move

    def uci(self, board: minichess.Board, move: minichess.Move) -> str:
        return self.square(move.from_row, move.from_col) + self.square(move.to_row, move.to_col)

    def san(self, board: minichess.Board, move: minichess.Move) -> str:
        piece = board.piece_at(move.from_row, move.from_col) or "?"
        target = board.piece_at(move.to_row, move.to_col)
        to = self.square(move.to_row, move.to_col)
        if piece.upper() == "P":
            text = f"{_FILES[move.from_col]}x{to}" if target else to
            return text + ("=Q" if move.to_row in (0, self.ranks - 1) else "")
        rivals = [
            m
            for m in board.legal_moves
            if m != move
            and (m.to_row, m.to_col) == (move.to_row, move.to_col)
            and board.piece_at(m.from_row, m.from_col) == piece
        ]
        hint = ""
        if rivals:
            same_file = any(m.from_col == move.from_col for m in rivals)
            hint = self.square(move.from_row, move.from_col)[1] if same_file else _FILES[move.from_col]
        return f"{piece.upper()}{hint}{'x' if target else ''}{to}"

    def view(self, board: minichess.Board) -> dict[str, Any]:
        legal: dict[str, list[str]] = {}
        for move in board.legal_moves:
            legal.setdefault(self.square(move.from_row, move.from_col), []).append(self.uci(board, move))
        stack = board.move_stack
        outcome = self.outcome(board)
        return {
            "fen": board.fen(),
            "turn": "white" if board.turn else "black",
            "legal": legal,
            "lastmove": self.uci(board, stack[-1]) if stack else None,
            "check": None,  # no check rule: a king is captured
            "outcome": None if outcome is None else outcome[1],
        }

    def outcome(self, board: minichess.Board) -> tuple[str, str] | None:
        ended = board.outcome()
        if ended is None:
            return None
        how = _MINI_TERMINATIONS[ended.termination]
        if ended.winner is None:
            return ended.result(), f"Draw: {how}"
        return ended.result(), f"{'White' if ended.winner else 'Black'} wins: {how}"

    def fen(self, board: minichess.Board) -> str:
        return board.fen()

    def record(self, board: minichess.Board, headers: dict[str, str], comments: list[str | None]) -> str:
        moves = board.move_stack
        replay = board.copy()
        for _ in moves:
            replay.pop()
        tags = {**headers, "Variant": self.title, "FEN": replay.fen()}
        words = []
        for index, move in enumerate(moves):
            if replay.turn or index == 0:
                words.append(f"{index // 2 + 1}." if replay.turn else f"{index // 2 + 1}...")
            words.append(self.san(replay, move))
            if index < len(comments) and comments[index]:
                words.append(f"{{ {comments[index]} }}")
            replay.push(move)
        words.append(headers.get("Result", "*"))
        header = "\n".join(f'[{key} "{value}"]' for key, value in tags.items())
        return f"{header}\n\n{' '.join(words)}\n"


CHESS: Variant = _Chess()
"""Chess (and Chess960)."""

MINICHESS: Variant = _MiniChess()
"""MiniChess on 6 rows × 5 columns (:mod:`camelpy.minichess`)."""

VARIANTS = {variant.name: variant for variant in (CHESS, MINICHESS)}
"""The games by name."""

"""The ``camelpy.Position`` API: python-chess conversions, copies, pickling, repr, equality,
castling and promotion conventions, and the game-over rules python-chess applies."""

from __future__ import annotations

import copy
import pickle
from typing import Callable

import camelpy
import chess
import chess.polyglot
import pytest
from camelpy import Position

from tests.conftest import KIWIPETE_FEN

# King on b1: O-O-O (b1a1) moves the king *right*, to c1.
CHESS960_FEN = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"


def _board_with_history() -> chess.Board:
    """A game from the start position with castling, an en-passant capture and a promotion."""
    board = chess.Board()
    sans = [
        "e4",
        "d5",
        "e5",
        "f5",
        "exf6",
        "Qd6",
        "fxg7",
        "Bd7",
        "gxh8=Q",
        "Nc6",
        "Nf3",
    ]
    sans += ["O-O-O", "Bc4", "e5", "O-O"]
    for san in sans:
        board.push_san(san)
    return board


def _midgame_position() -> Position:
    pos = Position()
    for uci in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]:
        pos.push(uci)
    return pos


def _stack(pos: Position) -> list[chess.Move]:
    return pos.to_board().move_stack


def test_default_position() -> None:
    pos = Position()
    assert pos.fen() == chess.STARTING_FEN == camelpy.STARTING_FEN
    assert pos.turn is chess.WHITE
    assert pos.chess960 is False
    assert len(pos.legal_moves()) == 20
    assert all(type(m) is chess.Move for m in pos.legal_moves())
    assert pos == Position(chess.STARTING_FEN)
    assert Position(KIWIPETE_FEN).fen() == KIWIPETE_FEN


def test_push_returns_none_and_turn_alternates() -> None:
    pos = Position()
    # mypy refuses to use the value of a call typed ``-> None``, and that value is what this test checks:
    # call push through a view that returns ``object``.
    push: Callable[[chess.Move | str], object] = pos.push
    assert push("e2e4") is None
    assert pos.turn is chess.BLACK
    assert push(chess.Move.from_uci("e7e5")) is None
    assert pos.turn is chess.WHITE
    assert pos.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


# --- python-chess conversions ---------------------------------------------------------


def test_from_board_replays_move_stack() -> None:
    board = _board_with_history()
    before = (board.fen(), list(board.move_stack))
    pos = Position.from_board(board)
    assert (board.fen(), list(board.move_stack)) == before, "from_board changed the board"
    assert pos.fen() == board.fen()
    assert _stack(pos) == board.move_stack
    while board.move_stack:
        assert pos.pop() == board.pop()
        assert pos.fen() == board.fen()
    assert pos.fen() == chess.STARTING_FEN
    with pytest.raises(IndexError):
        pos.pop()


def test_from_board_with_custom_root_and_chess960() -> None:
    board = chess.Board(CHESS960_FEN, chess960=True)
    # O-O-O (king b1 -> c1), a rook move, a king move
    for uci in ["b1a1", "h8g8", "c1b1"]:
        board.push_uci(uci)
    pos = Position.from_board(board)
    assert pos.chess960 is True
    assert pos.fen() == board.fen()
    assert pos.fen(shredder=True) == board.fen(shredder=True)
    out = pos.to_board()
    assert out.chess960 is True
    assert out.move_stack == board.move_stack
    assert out.root().fen(shredder=True) == CHESS960_FEN
    for _ in range(3):
        pos.pop()
    assert pos.fen(shredder=True) == CHESS960_FEN


def test_to_board_round_trip_and_independence() -> None:
    pos = _midgame_position()
    board = pos.to_board()
    assert isinstance(board, chess.Board)
    assert board.fen() == pos.fen()
    assert [m.uci() for m in board.move_stack] == [
        "e2e4",
        "c7c5",
        "g1f3",
        "d7d6",
        "d2d4",
        "c5d4",
    ]
    assert board.root().fen() == chess.STARTING_FEN
    board.push_uci("f3d4")  # changing the board leaves the position alone
    assert pos.fen() == "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"
    again = Position.from_board(pos.to_board())
    assert again == pos and _stack(again) == _stack(pos)


# --- copy, pickle, repr, equality -----------------------------------------------------


def test_copy_is_independent() -> None:
    pos = _midgame_position()
    dup = pos.copy()
    assert dup is not pos
    assert dup == pos and dup.zobrist_key == pos.zobrist_key
    dup.push("f3d4")
    assert pos.fen() == "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"
    pos.push("d1d4")
    assert dup.fen() == "rnbqkbnr/pp2pppp/3p4/8/3NP3/8/PPP2PPP/RNBQKB1R b KQkq - 0 4"
    assert dup.pop() == chess.Move.from_uci("f3d4")
    assert pos.pop() == chess.Move.from_uci("d1d4")


def test_copy_keeps_move_stack() -> None:
    """Like ``chess.Board.copy()``, the copy can pop back to the root."""
    pos = _midgame_position()
    dup = pos.copy()
    assert _stack(dup) == _stack(pos)
    for _ in range(6):
        dup.pop()
    assert dup.fen() == chess.STARTING_FEN
    assert len(_stack(pos)) == 6


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_keeps_move_stack(protocol: int) -> None:
    pos = Position.from_board(_board_with_history())
    clone = pickle.loads(pickle.dumps(pos, protocol=protocol))
    assert type(clone) is Position
    assert clone == pos and clone.zobrist_key == pos.zobrist_key
    assert _stack(clone) == _stack(pos)
    while _stack(pos):
        assert clone.pop() == pos.pop()
        assert clone.fen() == pos.fen() and clone.zobrist_key == pos.zobrist_key


def test_pickle_chess960_and_deepcopy() -> None:
    pos = Position(CHESS960_FEN, chess960=True)
    pos.push("b1h1")
    clone = pickle.loads(pickle.dumps(pos))
    assert clone.chess960 is True
    assert clone.fen(shredder=True) == pos.fen(shredder=True) == "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1"
    assert clone.pop() == chess.Move.from_uci("b1h1")
    deep = copy.deepcopy(pos)
    assert deep == pos and _stack(deep) == _stack(pos)
    deep.pop()
    assert pos.fen(shredder=True) == "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1"


@pytest.mark.parametrize(
    ("fen", "chess960"),
    [
        (chess.STARTING_FEN, False),
        (KIWIPETE_FEN, False),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", False),
        (CHESS960_FEN, True),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", True),
    ],
)
def test_repr_round_trips_through_eval(fen: str, chess960: bool) -> None:
    pos = Position(fen, chess960=chess960)
    text = repr(pos)
    if chess960:
        assert text.startswith("Position('") and text.endswith("', chess960=True)"), text
    else:
        assert text == f"Position({pos.fen()!r})"
    # An eval-able repr is the point of this test.
    again = eval(text, {"Position": Position})
    assert again == pos
    assert again.chess960 is chess960
    assert again.fen(shredder=True) == pos.fen(shredder=True)


def test_repr_exact() -> None:
    assert repr(Position()) == "Position('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')"


def test_equality_and_hash() -> None:
    a = _midgame_position()
    b = Position("rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4")
    assert a == b and hash(a) == hash(b)  # the move stack is not part of the position
    assert len({a, b, a.copy()}) == 1
    assert {a: 1}[b] == 1
    # Same placement, different clocks: not equal (python-chess ``Board.__eq__`` agrees).
    c = Position("rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 5 9")
    assert a != c
    assert Position() != _midgame_position()
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1") != Position("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert (Position() == chess.STARTING_FEN) is False
    assert (Position() == chess.Board()) is False
    nothing: object = None
    assert Position() != nothing  # comparing with a foreign type must not raise


# --- keys -----------------------------------------------------------------------------


def test_zobrist_key_is_a_64_bit_int_and_not_polyglot() -> None:
    pos = Position()
    key = pos.zobrist_key
    assert type(key) is int and 0 <= key < 2**64
    # Our own keys (conventions: no tables copied from other projects).
    assert key != chess.polyglot.zobrist_hash(chess.Board())
    pos.push("e2e4")
    assert pos.zobrist_key != key
    pos.pop()
    assert pos.zobrist_key == key


# --- castling and promotion -----------------------------------------------------------


def test_standard_castling_e1g1_and_e1h1() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    legal = Position(fen).legal_moves()
    assert chess.Move.from_uci("e1g1") in legal and chess.Move.from_uci("e1c1") in legal
    assert chess.Move.from_uci("e1h1") not in legal and chess.Move.from_uci("e1a1") not in legal
    expected = chess.Board(fen)
    expected.push_uci("e1g1")
    spellings: list[chess.Move | str] = [
        "e1g1",
        "e1h1",
        chess.Move.from_uci("e1g1"),
        chess.Move.from_uci("e1h1"),
    ]
    for spelled in spellings:
        pos = Position(fen)
        pos.push(spelled)
        assert pos.fen() == expected.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1", spelled
        assert pos.zobrist_key == Position(expected.fen()).zobrist_key
        # pop() gives python-chess's normalised form
        assert pos.pop() == chess.Move.from_uci("e1g1")
        assert pos.fen() == fen
    pos = Position(fen)
    pos.push("e1a1")
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    pos.push("e8h8")
    assert pos.fen() == "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2"


@pytest.mark.parametrize(
    ("fen", "castles"),
    [
        (
            CHESS960_FEN,
            {
                "b1h1": "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1",
                "b1a1": "rk5r/8/8/8/8/8/8/2KR3R b ha - 1 1",
            },
        ),
        # The king already stands on its castled square: only the rook moves.
        (
            "1k5r/8/8/8/8/8/8/6KR w Hh - 0 1",
            {"g1h1": "1k5r/8/8/8/8/8/8/5RK1 b h - 1 1"},
        ),
        # Standard setup in Chess960 mode: castling is king-takes-rook too.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            {
                "e1h1": "r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1",
                "e1a1": "r3k2r/8/8/8/8/8/8/2KR3R b ha - 1 1",
            },
        ),
    ],
    ids=["king-b1", "king-on-g1", "standard-setup"],
)
def test_chess960_castling_is_king_takes_rook(fen: str, castles: dict[str, str]) -> None:
    pos = Position(fen, chess960=True)
    board = chess.Board(fen, chess960=True)
    assert set(pos.legal_moves()) == set(board.legal_moves)
    castling = {m.uci() for m in pos.legal_moves() if board.is_castling(m)}
    assert castling == set(castles)
    for uci, after in castles.items():
        pos.push(uci)
        assert pos.fen(shredder=True) == after
        board.push_uci(uci)
        assert pos.fen() == board.fen()
        board.pop()
        assert pos.pop() == chess.Move.from_uci(uci)
        assert pos.fen(shredder=True) == fen


def test_promotions() -> None:
    fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    pos = Position(fen)
    promotions = {m.uci() for m in pos.legal_moves() if m.promotion}
    assert promotions == {f"a7{to}{p}" for to in ("a8", "b8") for p in "qrbn"}
    for uci in sorted(promotions):
        for spelled in (uci, chess.Move.from_uci(uci)):
            board = chess.Board(fen)
            board.push_uci(uci)
            pos.push(spelled)
            assert pos.fen() == board.fen(), uci
            assert pos.is_check() == board.is_check(), uci
            assert pos.zobrist_key == Position(board.fen()).zobrist_key, uci
            assert pos.pop() == chess.Move.from_uci(uci)
            assert pos.fen() == fen


def test_black_promotion_with_check() -> None:
    pos = Position("4k3/8/8/8/8/8/p7/4K3 b - - 0 1")
    pos.push("a2a1q")
    assert pos.is_check() and pos.fen() == "4k3/8/8/8/8/8/8/q3K3 w - - 0 2"
    pos.pop()
    pos.push("a2a1n")
    assert not pos.is_check()


# --- game over ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",  # K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",  # K+N v K
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",  # K+B v K
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",  # bishops on the same colour
        "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",  # bishops on opposite colours: mate possible
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",  # two knights
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",  # a rook
        "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",  # a pawn
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # checkmate
        "4k3/8/8/8/8/8/8/4K2R w - - 149 100",  # 75-move rule not yet
        "4k3/8/8/8/8/8/8/4K2R w - - 150 100",  # 75-move rule
        "7k/5Q2/6K1/8/8/8/8/8 b - - 150 100",  # stalemate and 150 plies
    ],
)
def test_game_over_flags_match_python_chess(fen: str) -> None:
    pos, board = Position(fen), chess.Board(fen)
    assert pos.is_check() == board.is_check()
    assert pos.is_checkmate() == board.is_checkmate()
    assert pos.is_stalemate() == board.is_stalemate()
    assert pos.is_insufficient_material() == board.is_insufficient_material()
    assert pos.is_game_over() == board.is_game_over()


def test_seventy_five_move_rule_after_a_move() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4K2R w - - 149 100")
    assert not pos.is_game_over()
    pos.push("h1h2")
    assert pos.fen().split()[4] == "150"
    assert pos.is_game_over() and not pos.is_checkmate()
    pos.pop()
    assert not pos.is_game_over()


def test_fivefold_repetition() -> None:
    pos, board = Position(), chess.Board()
    dance = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for round_ in range(4):
        for uci in dance:
            assert pos.is_game_over() == board.is_game_over() is False, (round_, uci)
            pos.push(uci)
            board.push_uci(uci)
    # The start position has now occurred five times.
    assert board.is_fivefold_repetition()
    assert pos.is_game_over() is True
    assert not pos.is_checkmate() and not pos.is_stalemate()
    # Replaying the same history through from_board keeps the repetition count.
    assert Position.from_board(board).is_game_over() is True
    pos.pop()
    assert pos.is_game_over() is False


# --- divide ---------------------------------------------------------------------------


def test_divide_types() -> None:
    split = camelpy.divide(chess.STARTING_FEN, 2)
    assert type(split) is dict and len(split) == 20
    assert all(type(k) is chess.Move and type(v) is int for k, v in split.items())
    assert split[chess.Move.from_uci("e2e4")] == 20
    assert sum(split.values()) == 400
    assert camelpy.divide(chess.Board(), 2) == split

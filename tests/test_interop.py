"""Differential tests against python-chess: seeded random playouts, checked at every ply.

Each game starts from a fixed position (balanced openings, the perft-suite positions and
100 Chess960 ones), picks moves with its own seeded ``random.Random`` and plays the same
move on a ``camelpy.Position`` and a ``chess.Board``. At every ply the legal move sets,
FENs, check/mate/stalemate/insufficient-material/game-over flags and turn must agree, and
the incrementally updated Zobrist key must equal the key of the same position built from
its FEN. At the end the game is popped back to its root, and each pop must restore the
FEN and key seen on the way in. A failure message names the root FEN and the move list.
"""

from __future__ import annotations

import dataclasses
import random

import camelpy
import chess
import pytest

from tests.conftest import (
    FISCHER_EPD,
    QUICK_EPD,
    STANDARD_EPD,
    read_balanced_openings,
    read_perft_suite,
)

MAX_PLIES = 80


@dataclasses.dataclass(frozen=True)
class Start:
    id: str
    board: chess.Board
    seed: str

    def __repr__(self) -> str:  # keeps pytest's output short
        return self.id


def _starts() -> list[Start]:
    starts = []
    openings = read_balanced_openings()
    for i in range(0, len(openings), 5):  # 200 of the 1000 openings
        board = chess.Board.from_epd(openings[i])[0]
        starts.append(Start(f"balanced:{i + 1}", board, f"balanced-{i}"))
    seen = set()
    for case in read_perft_suite(STANDARD_EPD) + read_perft_suite(QUICK_EPD):
        if case.fen not in seen:
            seen.add(case.fen)
            board = chess.Board(case.fen)
            starts.append(Start(case.source, board, case.source))
    fischer = read_perft_suite(FISCHER_EPD)
    for i in range(100):
        case = fischer[i * len(fischer) // 100]
        board = chess.Board(case.fen, chess960=True)
        starts.append(Start(case.source, board, case.source))
    return starts


STARTS = _starts()


def _king_takes_rook(board: chess.Board, move: chess.Move) -> chess.Move:
    """Standard-chess castling e1g1/e1c1 written as king-takes-rook e1h1/e1a1."""
    rook_file = 7 if chess.square_file(move.to_square) == 6 else 0
    rank = chess.square_rank(move.from_square)
    return chess.Move(move.from_square, chess.square(rook_file, rank))


class _Where:
    """Names the game and ply in a failure message; built only when an assertion fails."""

    def __init__(self, start: Start, board: chess.Board) -> None:
        self.start, self.board = start, board

    def __str__(self) -> str:
        moves = " ".join(m.uci() for m in self.board.move_stack)
        return (
            f"in {self.start.id} at ply {len(self.board.move_stack)}: "
            f"root {self.start.board.fen()!r}, moves [{moves}]"
        )


def _assert_agree(
    pos: camelpy.Position, board: chess.Board, fen: str, shredder_fen: str, where: _Where
) -> None:
    moves = pos.legal_moves()
    assert len(moves) == len(set(moves)), f"duplicate legal moves {where}"
    assert set(moves) == set(board.legal_moves), f"legal moves differ {where}"
    assert pos.fen() == fen, f"fen differs {where}"
    assert pos.fen(shredder=True) == shredder_fen, f"shredder fen differs {where}"
    assert pos.turn == board.turn, where
    assert pos.chess960 == board.chess960, where
    assert pos.is_check() == board.is_check(), f"is_check differs {where}"
    assert pos.is_checkmate() == board.is_checkmate(), f"is_checkmate differs {where}"
    assert pos.is_stalemate() == board.is_stalemate(), f"is_stalemate differs {where}"
    assert pos.is_insufficient_material() == board.is_insufficient_material(), (
        f"is_insufficient_material differs {where}"
    )


# Zobrist keys seen by every game of the run, per mode: 4-field FEN <-> key.
_KEY_OF: dict[tuple[bool, str], int] = {}
_FEN_OF: dict[tuple[bool, int], str] = {}


def _record_key(chess960: bool, shredder_fen: str, key: int, where: _Where) -> None:
    fen4 = " ".join(shredder_fen.split()[:4])
    known_key = _KEY_OF.setdefault((chess960, fen4), key)
    assert known_key == key, f"same position, different zobrist key {where}"
    known_fen = _FEN_OF.setdefault((chess960, key), fen4)
    assert known_fen == fen4, f"zobrist collision: {known_fen!r} and {fen4!r} share key {key:#x}"


@pytest.mark.parametrize("start", STARTS, ids=[s.id for s in STARTS])
def test_random_playout(start: Start) -> None:
    rng = random.Random(start.seed)
    board = start.board.copy()
    chess960 = board.chess960
    pos = camelpy.Position(board.fen(), chess960=chess960)
    trail: list[tuple[str, int]] = []  # (fen, zobrist_key) before each push
    where = _Where(start, board)

    for ply in range(MAX_PLIES + 1):
        fen, shredder_fen = board.fen(), board.fen(shredder=True)
        _assert_agree(pos, board, fen, shredder_fen, where)
        game_over = board.is_game_over()
        assert pos.is_game_over() == game_over, f"is_game_over differs {where}"
        key = pos.zobrist_key
        assert isinstance(key, int) and 0 <= key < 2**64, where
        fresh = camelpy.Position(fen, chess960=chess960)
        assert fresh.zobrist_key == key, f"incremental key != key from fen {where}"
        assert fresh == pos and hash(fresh) == hash(pos), where
        _record_key(chess960, shredder_fen, key, where)
        if ply == MAX_PLIES or game_over:
            break

        move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
        trail.append((fen, key))
        style = rng.randrange(3)
        if style == 0:
            pos.push(move)
        elif style == 1 and board.is_castling(move) and not chess960:
            pos.push(_king_takes_rook(board, move).uci())  # e1h1 accepted for e1g1
        else:
            pos.push(move.uci())
        board.push(move)

    # Both directions of the python-chess conversion keep the whole game.
    as_board = pos.to_board()
    assert as_board.move_stack == board.move_stack, where
    assert as_board.fen() == board.fen() and as_board.chess960 == chess960, where
    assert as_board.root().fen() == start.board.fen(), where
    rebuilt = camelpy.Position.from_board(board)
    assert rebuilt.fen() == pos.fen() and rebuilt.zobrist_key == pos.zobrist_key, where

    while trail:
        fen, key = trail.pop()
        expected_move = board.pop()
        assert pos.pop() == expected_move, where
        assert pos.fen() == fen, f"pop did not restore the fen {where}"
        assert pos.zobrist_key == key, f"pop did not restore the key {where}"
    assert pos.fen() == start.board.fen()
    with pytest.raises(IndexError):
        pos.pop()


# --- transpositions -------------------------------------------------------------------


def _play(ucis: str, fen: str = chess.STARTING_FEN, chess960: bool = False) -> camelpy.Position:
    pos = camelpy.Position(fen, chess960=chess960)
    for uci in ucis.split():
        pos.push(uci)
    return pos


def test_knight_dance_returns_to_start_key() -> None:
    start = camelpy.Position()
    pos = _play("g1f3 g8f6 f3g1 f6g8")
    assert pos.zobrist_key == start.zobrist_key
    # Clocks differ, so the positions are not equal, but the board part of the FEN is.
    assert pos.fen().split()[:4] == start.fen().split()[:4]
    assert pos.fen() != start.fen()
    assert pos != start
    # One ply less is a different position (other side to move).
    pos.pop()
    assert pos.zobrist_key != start.zobrist_key


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("e2e4 e7e5 g1f3 b8c6", "g1f3 b8c6 e2e4 e7e5"),
        ("d2d4 g8f6 c2c4 e7e6 b1c3 f8b4", "c2c4 e7e6 b1c3 g8f6 d2d4 f8b4"),
        # ends on a double push with a legal en-passant capture (e5xd6) in both orders
        ("e2e4 g8f6 e4e5 f6g8 g1f3 d7d5", "g1f3 g8f6 e2e4 f6g8 e4e5 d7d5"),
        # kingside castling rights lost by rook trips, reached with different clocks
        (
            "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8",
            "g1h3 g8h6 h1g1 h8g8 g1h1 g8h8 h3g1 h6g8 g1f3 g8f6",
        ),
    ],
    ids=["open-game", "nimzo", "en-passant", "rook-trips"],
)
def test_transpositions_share_key(first: str, second: str) -> None:
    a, b = _play(first), _play(second)
    assert a.fen().split()[:4] == b.fen().split()[:4]
    assert a.zobrist_key == b.zobrist_key
    if a.fen() == b.fen():
        assert a == b and hash(a) == hash(b)
    else:  # the clocks differ: the same key, but not equal positions
        assert a != b


def test_key_depends_on_castling_rights_turn_and_en_passant() -> None:
    walked = _play("e2e4 e7e5 e1e2 e8e7 e2e1 e7e8")  # same pieces, no castling rights
    direct = _play("e2e4 e7e5")
    assert walked.fen().split()[0] == direct.fen().split()[0]
    assert walked.fen().split()[2] == "-" and direct.fen().split()[2] == "KQkq"
    assert walked.zobrist_key != direct.zobrist_key

    white = camelpy.Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    black = camelpy.Position("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert white.zobrist_key != black.zobrist_key

    with_ep = camelpy.Position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    without_ep = camelpy.Position("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2")
    assert with_ep.fen() != without_ep.fen()
    assert with_ep.zobrist_key != without_ep.zobrist_key
    assert with_ep != without_ep


def test_unusable_en_passant_square_is_ignored() -> None:
    """Like python-chess, an ep square without a legal capture is not part of the position."""
    fen = "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2"  # no white pawn can take on d6
    board = chess.Board(fen)
    pos = camelpy.Position(fen)
    plain = camelpy.Position("4k3/8/8/3p4/8/8/8/4K3 w - - 0 2")
    assert pos.fen() == board.fen() == plain.fen()
    assert pos.zobrist_key == plain.zobrist_key
    assert pos == plain and hash(pos) == hash(plain)

    # exd6 e.p. would empty the fifth rank between the rook on h5 and the king on a5:
    # the capture is illegal, so python-chess drops the square from the FEN.
    pinned = "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2"
    assert chess.Board(pinned).fen().split()[3] == "-"
    pos = camelpy.Position(pinned)
    assert pos.fen() == chess.Board(pinned).fen()
    assert pos.zobrist_key == camelpy.Position("8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2").zobrist_key


def test_chess960_castling_keeps_keys_consistent() -> None:
    """Castle king-takes-rook in Chess960 and compare with the same position set up by FEN."""
    fen = "1r2k2r/8/8/8/8/8/8/1R2K1R1 w GBhb - 0 1"
    pos = camelpy.Position(fen, chess960=True)
    board = chess.Board(fen, chess960=True)
    # X-FEN writes KQkq because every castling rook is the outermost one on its side.
    assert pos.fen() == "1r2k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"
    assert pos.fen(shredder=True) == fen
    for uci in ["e1g1", "e8b8"]:  # O-O for white (king takes g1 rook), O-O-O for black
        move = chess.Move.from_uci(uci)
        assert board.is_castling(move), uci
        pos.push(uci)
        board.push(move)
        assert pos.fen() == board.fen()
        assert pos.fen(shredder=True) == board.fen(shredder=True)
        assert pos.zobrist_key == camelpy.Position(board.fen(), chess960=True).zobrist_key
    assert pos.fen() == "2kr3r/8/8/8/8/8/8/1R3RK1 w - - 2 2"
    assert pos.pop() == chess.Move.from_uci("e8b8")
    assert pos.fen(shredder=True) == "1r2k2r/8/8/8/8/8/8/1R3RK1 b hb - 1 1"

"""camelpy.minichess: the rules, perft cross-checked by an independent pure-Python move generator, the
board's texts, make/unmake, and bad input.

The reference generator below is written from the rules of issue 18 alone, as plainly as possible (a
dict of squares, step loops), and shares nothing with the Rust core: not its square numbering, its
move order, its text parser or its end-of-game rule.
"""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import camelpy.errors
import pytest
from camelpy.minichess import (
    BLACK,
    MAX_PLIES,
    STARTING_STATE,
    STARTING_TEXT,
    WHITE,
    Board,
    Move,
    Outcome,
    Termination,
    perft,
)

# The independent reference ---------------------------------------------------------------------------

VALUES = {"q": 20, "b": 8, "n": 7, "r": 6, "p": 2, "k": 0}
KNIGHT = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ROOK_DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]
BISHOP_DIRS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


class Ref:
    """A position: ``cells[(row, col)]`` a letter (upper White, lower Black), ``white`` to move, ``ply``."""

    def __init__(self, text: str) -> None:
        rows, side, ply = text.split()
        self.cells: dict[tuple[int, int], str] = {}
        for r, row in enumerate(rows.split("/")):
            c = 0
            for ch in row:
                if ch.isdigit():
                    c += int(ch)
                else:
                    self.cells[(r, c)] = ch
                    c += 1
        self.white = side == "w"
        self.ply = int(ply)

    def over(self) -> bool:
        letters = set(self.cells.values())
        return "K" not in letters or "k" not in letters or self.ply >= 50

    def mine(self, piece: str) -> bool:
        return piece.isupper() == self.white

    def moves(self) -> list[tuple[int, int, int, int]]:
        """Every move by the rules (ignoring the end of the game)."""
        out = []
        for (r, c), piece in self.cells.items():
            if not self.mine(piece):
                continue
            kind = piece.lower()
            targets: list[tuple[int, int]] = []
            if kind == "p":
                ahead = -1 if self.white else 1
                if 0 <= r + ahead < 6 and (r + ahead, c) not in self.cells:
                    targets.append((r + ahead, c))
                for dc in (-1, 1):
                    t = (r + ahead, c + dc)
                    if t in self.cells and not self.mine(self.cells[t]):
                        targets.append(t)
            elif kind in "nk":
                for dr, dc in KNIGHT if kind == "n" else KING:
                    t = (r + dr, c + dc)
                    if 0 <= t[0] < 6 and 0 <= t[1] < 5 and not (t in self.cells and self.mine(self.cells[t])):
                        targets.append(t)
            else:
                dirs = {"r": ROOK_DIRS, "b": BISHOP_DIRS, "q": ROOK_DIRS + BISHOP_DIRS}[kind]
                for dr, dc in dirs:
                    t = (r + dr, c + dc)
                    while 0 <= t[0] < 6 and 0 <= t[1] < 5:
                        if t in self.cells:
                            if not self.mine(self.cells[t]):
                                targets.append(t)
                            break
                        targets.append(t)
                        t = (t[0] + dr, t[1] + dc)
            out += [(r, c, tr, tc) for tr, tc in targets]
        return out

    def legal(self) -> list[tuple[int, int, int, int]]:
        return [] if self.over() else self.moves()

    def play(self, mv: tuple[int, int, int, int]) -> tuple[str, str | None]:
        r, c, tr, tc = mv
        piece = self.cells.pop((r, c))
        taken = self.cells.get((tr, tc))
        last = 0 if piece.isupper() else 5
        self.cells[(tr, tc)] = ("Q" if piece.isupper() else "q") if piece in "Pp" and tr == last else piece
        self.white = not self.white
        self.ply += 1
        return piece, taken

    def unplay(self, mv: tuple[int, int, int, int], undo: tuple[str, str | None]) -> None:
        r, c, tr, tc = mv
        piece, taken = undo
        del self.cells[(tr, tc)]
        if taken is not None:
            self.cells[(tr, tc)] = taken
        self.cells[(r, c)] = piece
        self.white = not self.white
        self.ply -= 1

    def result(self) -> str | None:
        letters = set(self.cells.values())
        if "K" not in letters:
            return "0-1"
        if "k" not in letters:
            return "1-0"
        if self.ply >= 50:
            score = sum(VALUES[p.lower()] * (1 if p.isupper() else -1) for p in self.cells.values())
            return "1-0" if score > 0 else "0-1" if score < 0 else "1/2-1/2"
        if not self.moves():
            return "0-1" if self.white else "1-0"
        return None


def ref_perft(pos: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for mv in pos.legal():
        undo = pos.play(mv)
        total += ref_perft(pos, depth - 1)
        pos.unplay(mv, undo)
    return total


# Perft ----------------------------------------------------------------------------------------------

PERFT = [
    # The start.
    (STARTING_TEXT, [7, 49, 452, 4230, 47102]),
    # Black to move after 1. 4 2 3 2.
    ("kqbnr/ppppp/5/2P2/PP1PP/RNBQK b 1", [7, 63, 594, 7157]),
    # Promotions for both sides, by steps and by captures (onto the rooks and the knight).
    ("k1n1r/1P1P1/5/5/1p1p1/R1N1K w 10", [19, 289, 5102, 85014]),
    # Kings in reach at once: captures of kings end lines at every depth.
    ("5/2k2/1Q3/3q1/2K2/5 w 20", [23, 485, 8953, 165611]),
    # Crowded: every square of rows 1-4 taken, queens against queens.
    ("kqbnr/ppppp/QQQQQ/qqqqq/PPPPP/RNBQK w 0", [36, 1223, 40090]),
    # A middle game with every kind of piece.
    ("k1b1r/p1p1p/1p1n1/1PqP1/P1N1P/R1BQK b 12", [22, 282, 6285]),
    # Two plies before the count: nothing below ply 50.
    ("kqbnr/ppppp/5/5/PPPPP/RNBQK w 48", [7, 49, 0]),
    # No move for White: it has lost, and there is nothing to count.
    ("k4/5/3p1/2pPp/2PRP/3BK w 10", [0, 0]),
]


@pytest.mark.parametrize(("text", "counts"), PERFT, ids=[text for text, _ in PERFT])
def test_perft_matches_the_reference(text: str, counts: list[int]) -> None:
    board = Board(text)
    for depth, want in enumerate(counts, start=1):
        assert perft(board, depth) == want, f"core, depth {depth}"
    ref = Ref(text)
    for depth, want in enumerate(counts, start=1):
        assert ref_perft(ref, depth) == want, f"reference, depth {depth}"
    assert perft(board, 0) == 1
    assert board.fen() == text  # perft leaves the board as it was


def test_walks_agree_with_the_reference_move_by_move() -> None:
    """Seeded random games from several positions: at every ply the core and the reference list the
    same moves and agree on the result, and popping every move restores the start exactly."""
    rng = random.Random(18)
    for text, _ in PERFT:
        for _ in range(20):
            board, ref = Board(text), Ref(text)
            start_key = board.zobrist_key
            while True:
                moves = sorted((m.from_row, m.from_col, m.to_row, m.to_col) for m in board.legal_moves)
                assert moves == sorted(ref.legal()), board.fen()
                assert board.result() == (ref.result() or "*"), board.fen()
                if not moves:
                    break
                mv = rng.choice(moves)
                board.push(Move(*mv))
                ref.play(mv)
            for _ in range(len(board.move_stack)):
                board.pop()
            assert board.fen() == text and board.zobrist_key == start_key and board.move_stack == []


# Make/unmake, keys, texts ---------------------------------------------------------------------------


def test_push_pop_restores_everything() -> None:
    board = Board()
    before = (board.fen(), board.state(), board.zobrist_key, board.turn, board.ply)
    played = []
    for text in ["4 2 3 2", "1 1 2 1", "5 3 2 0", "2 1 3 2", "4 1 3 2"]:
        board.push(text)
        played.append(Move.parse(text))
    assert board.move_stack == played and board.peek() == played[-1]
    assert board.ply == 5 and board.turn is BLACK
    for mv in reversed(played):
        assert board.pop() == mv
    assert (board.fen(), board.state(), board.zobrist_key, board.turn, board.ply) == before
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_zobrist_key_depends_on_the_position_only() -> None:
    a = Board()
    a.push("4 0 3 0")
    a.push("1 0 2 0")
    b = Board()
    b.push("4 0 3 0")
    b.push("1 4 2 4")
    assert a.zobrist_key != b.zobrist_key
    # The same position reached by two move orders has the same key; the ply count is not in it.
    c, d = Board(), Board()
    for mv in ["4 0 3 0", "1 0 2 0", "4 4 3 4"]:
        c.push(mv)
    for mv in ["4 4 3 4", "1 0 2 0", "4 0 3 0"]:
        d.push(mv)
    assert c.fen() == d.fen() and c.zobrist_key == d.zobrist_key
    assert Board(c.fen().replace(" 3", " 17")).zobrist_key == c.zobrist_key


def test_state_file_round_trip(tmp_path: Path) -> None:
    assert STARTING_STATE.splitlines() == [
        "0",
        *["0 0 0 0 0"] * 4,
        "1 1 1 1 1",
        "2 3 4 5 6",
        "6 5 4 3 2",
        "1 1 1 1 1",
        *["0 0 0 0 0"] * 4,
    ]
    board = Board("k1b1r/p1p1p/1p1n1/1PqP1/P1N1P/R1BQK b 12")
    path = tmp_path / "state"
    board.write_state(path)
    assert path.read_text() == board.state()
    assert Board.read_state(path, ply=12) == board
    assert Board.read_state(path).ply == 0
    assert [p.name for p in tmp_path.iterdir()] == ["state"]  # no temporary file left behind


def test_repr_rebuilds_and_copies_are_independent() -> None:
    board = Board("k1n1r/1P1P1/5/5/1p1p1/R1N1K w 10")
    assert eval(repr(board), {"Board": Board}) == board
    other = board.copy()
    other.push("1 1 0 1")
    assert other != board and other.piece_at(0, 1) == "Q" and board.piece_at(1, 1) == "P"
    assert copy.copy(board) == board
    board.push("1 3 0 2")
    for clone in (copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert clone == board and clone.move_stack == [Move(1, 3, 0, 2)]
        assert clone.pop() == Move(1, 3, 0, 2) and clone.fen() == "k1n1r/1P1P1/5/5/1p1p1/R1N1K w 10"
    mv = Move(4, 0, 3, 0)
    assert eval(repr(mv), {"Move": Move}) == mv and pickle.loads(pickle.dumps(mv)) == mv
    assert Move.parse(str(mv)) == mv and hash(mv) == hash(Move(4, 0, 3, 0))
    with pytest.raises(TypeError):
        hash(board)


# The rules ------------------------------------------------------------------------------------------


def test_king_capture_wins() -> None:
    board = Board("5/2k2/1Q3/3q1/2K2/5 w 20")
    board.push("2 1 1 2")
    assert board.outcome() == Outcome(Termination.KING_CAPTURED, WHITE)
    assert board.is_game_over() and board.result() == "1-0" and board.legal_moves == []
    board.pop()
    board.push("4 2 3 2")  # White's king walks next to the black queen: legal, no check rule
    board.push("3 3 3 2")
    assert board.outcome() == Outcome(Termination.KING_CAPTURED, BLACK) and board.result() == "0-1"
    with pytest.raises(camelpy.errors.IllegalMoveError):
        board.push("2 1 1 2")


def test_promotion_to_queen_only() -> None:
    board = Board("k1n1r/1P1P1/5/5/1p1p1/R1N1K w 10")
    board.push("1 3 0 2")  # a capture that promotes
    assert board.piece_at(0, 2) == "Q"
    board.push("4 1 5 0")
    assert board.piece_at(5, 0) == "q"
    assert board.pop() == Move(4, 1, 5, 0) and board.piece_at(4, 1) == "p" and board.piece_at(5, 0) == "R"
    assert board.pop() == Move(1, 3, 0, 2) and board.piece_at(1, 3) == "P" and board.piece_at(0, 2) == "n"


def test_the_50_ply_count() -> None:
    assert MAX_PLIES == 50
    # White: queen 20 + pawn 2 = 22; Black: rook 6 + knight 7 + bishop 8 = 21.
    board = Board("k3r/1nb2/5/5/1P3/Q3K w 49")
    assert board.material(WHITE) == 22 and board.material(BLACK) == 21 and not board.is_game_over()
    board.push("4 1 3 1")
    assert board.ply == 50
    assert board.outcome() == Outcome(Termination.MATERIAL_COUNT, WHITE) and board.legal_moves == []
    board.pop()
    board.push("5 0 2 0")  # any move on ply 49 ends the game by the count
    assert board.outcome() == Outcome(Termination.MATERIAL_COUNT, WHITE)
    assert Board("k4/5/5/5/5/4K b 50").result() == "1/2-1/2"
    assert Board("k3r/5/5/5/5/4K w 50").result() == "0-1"
    # Played from the start, the game ends on the 50th ply whatever happens.
    board = Board()
    while not board.is_game_over():
        board.push(board.legal_moves[len(board.legal_moves) // 2])
    assert board.ply <= 50


def test_no_moves_loses() -> None:
    board = Board("k4/5/3p1/2pPp/2PRP/3BK w 10")
    assert board.legal_moves == []
    assert board.outcome() == Outcome(Termination.NO_MOVES, BLACK) and board.result() == "0-1"


def test_no_double_step_no_castling() -> None:
    board = Board()
    assert Move(4, 0, 2, 0) not in board.legal_moves
    assert all(m.from_row != 5 or m.from_col == 1 for m in board.legal_moves)  # only the knight
    assert not board.is_legal(Move(5, 4, 5, 2))


# Bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected 'rows side [ply]' (2 or 3 fields), got 0 fields: ''"),
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK x 0", "side to move must be 'w' or 'b', got \"x\""),
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK w -3", "ply count must be a number from 0 to 1000000"),
        ("kqbnr/ppppp/5/5/PPPPP/RNBQX w 0", "unexpected character 'X' in row 5"),
        ("5/5/5/5/5/5 w 0", "no king on the board"),
        ("kP3/5/5/5/5/4K w 0", "white pawn on its promotion row 0"),
    ],
)
def test_bad_text_is_an_invalid_state_error(text: str, message: str) -> None:
    with pytest.raises(camelpy.errors.InvalidStateError) as info:
        Board(text)
    assert str(info.value).startswith(message)
    assert str(info.value).endswith(repr(text) if "'" not in text else "")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2\n" + "0 0 0 0 0\n" * 12, 'line 1 must be 0 (White to move) or 1 (Black), got "2"'),
        (STARTING_STATE.replace("2 3 4 5 6", "2 3 4 5 9"), 'line 7: "9" is not a piece number 0-6'),
        (STARTING_STATE.replace("2 3 4 5 6", "2 3 4 5 -6"), 'line 7: "-6" is not a piece number 0-6'),
        (STARTING_STATE.replace("2 3 4 5 6", "2 3 4 5 x"), 'line 7: "x" is not a piece number 0-6'),
        (STARTING_STATE.replace("2 3 4 5 6", "2 3 4 5 6 0"), "line 7 must hold 5 numbers, got 6"),
        ("0\n", "expected 13 lines (side to move, then 6 rows for each side), got 1"),
        (
            STARTING_STATE.replace(
                "0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0", "0\n0 0 0 0 0\n0 0 0 0 0\n0 0 6 0 0", 1
            ),
            "more than one white king",
        ),
        (
            STARTING_STATE.replace("0\n0 0 0 0 0", "0\n2 0 0 0 0", 1),
            "row 0 column 0 holds both a white and a black piece (line 8)",
        ),
    ],
)
def test_bad_state_is_an_invalid_state_error(text: str, message: str) -> None:
    with pytest.raises(camelpy.errors.InvalidStateError) as info:
        Board.from_state(text)
    assert str(info.value).startswith(message + ":")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="ply must be between 0 and 1000000, got -1"):
        Board.from_state(STARTING_STATE, -1)
    with pytest.raises(TypeError):
        Board(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Board.from_state(STARTING_STATE, 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot read state file '/nonexistent/state'"):
        Board.read_state("/nonexistent/state")
    with pytest.raises(ValueError, match="depth must be between 0 and 15, got 99"):
        perft(Board(), 99)
    with pytest.raises(TypeError):
        perft("kqbnr/ppppp/5/5/PPPPP/RNBQK w 0", 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="row must be between 0 and 5, got 6"):
        Board().piece_at(6, 0)
    with pytest.raises(TypeError, match="color must be WHITE"):
        # 0, the course's number for White: refused, it would read as Black
        Board().material(0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["4 0 3", "4 0 3 0 1", "a b c d", "4 0 3 9", "-1 0 3 0", "4,0,3,0", "４ 0 3 0", ""]
)
def test_bad_move_text_is_an_invalid_move_error(text: str) -> None:
    with pytest.raises(camelpy.errors.InvalidMoveError) as info:
        Board().push(text)
    assert str(info.value) == (
        "invalid move (expected 'from_row from_col to_row to_col' on the 6x5 board): " + repr(text)
    )


def test_illegal_move_leaves_the_board_unchanged() -> None:
    board = Board()
    with pytest.raises(camelpy.errors.IllegalMoveError) as info:
        board.push(Move(3, 0, 2, 0))
    assert str(info.value) == "illegal move: '3 0 2 0' in 'kqbnr/ppppp/5/5/PPPPP/RNBQK w 0'"
    assert isinstance(info.value, ValueError)
    assert board == Board() and board.move_stack == []
    with pytest.raises(TypeError):
        board.push((4, 0, 3, 0))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Move(4.0, 0, 3, 0)  # type: ignore[arg-type]

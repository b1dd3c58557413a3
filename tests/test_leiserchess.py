"""camelpy.leiserchess against a straightforward pure-Python move generator written here from the
rules page (``docs/leiserchess.md``), on the published perft counts, hand-made positions (zaps,
pinned pawns, kings at the edges, exchanges with kings, the 2018 swaps) and random games under both
rule sets."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from camelpy.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from camelpy.leiserchess import STARTING_FEN, Board, Laser, Move, Outcome, Termination, perft

# ---- The reference: the rules, square by square ---------------------------------------------------

FILES = "abcdefgh"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
KING_FIRES = {"NN": "N", "EE": "E", "SS": "S", "WW": "W"}
# The rules page's table: (beam travelling, pawn facing) -> new direction, None for a zap.
REFLECT = {
    ("N", "NW"): None, ("N", "NE"): None, ("N", "SE"): "E", ("N", "SW"): "W",
    ("E", "NW"): "N", ("E", "NE"): None, ("E", "SE"): None, ("E", "SW"): "S",
    ("S", "NW"): "W", ("S", "NE"): "E", ("S", "SE"): None, ("S", "SW"): None,
    ("W", "NW"): None, ("W", "NE"): "N", ("W", "SE"): "S", ("W", "SW"): None,
}  # fmt: skip
CLOCKWISE = {"K": ["NN", "EE", "SS", "WW"], "P": ["NW", "NE", "SE", "SW"]}
TURNS = {"R": 1, "U": 2, "L": 3}
NEIGHBOURS = [(df, dr) for dr in (1, 0, -1) for df in (-1, 0, 1) if (df, dr) != (0, 0)]

Piece = tuple[str, str, str]  # side ("T" or "L"), kind ("K" or "P"), orientation ("NN", "SE", ...)
Squares = dict[tuple[int, int], Piece]


def name(sq: tuple[int, int]) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def parse(fen: str) -> tuple[Squares, str]:
    placement, turn = fen.split()
    squares: Squares = {}
    for i, row in enumerate(placement.split("/")):
        rank, file, j = 7 - i, 0, 0
        while j < len(row):
            if row[j].isdigit():
                file += int(row[j])
                j += 1
            else:
                code = row[j : j + 2]
                kind = "K" if code.upper() in KING_FIRES else "P"
                squares[(file, rank)] = ("T" if code.isupper() else "L", kind, code.upper())
                file += 1
                j += 2
    return squares, "T" if turn == "W" else "L"


def render(squares: Squares, side: str) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = squares.get((file, rank))
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + (piece[2] if piece[0] == "T" else piece[2].lower())
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" W" if side == "T" else " B")


def on_board(sq: tuple[int, int]) -> bool:
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def king_of(squares: Squares, side: str) -> tuple[int, int]:
    return next(sq for sq, p in squares.items() if p[0] == side and p[1] == "K")


def beam(squares: Squares, side: str) -> tuple[list[tuple[int, int]], str, tuple[int, int] | None]:
    """The squares one shot of *side*'s king enters, and how it ends."""
    sq = king_of(squares, side)
    direction = KING_FIRES[squares[sq][2]]
    path: list[tuple[int, int]] = []
    while True:
        sq = (sq[0] + STEP[direction][0], sq[1] + STEP[direction][1])
        if not on_board(sq):
            return path, "edge", None
        path.append(sq)
        piece = squares.get(sq)
        if piece is None:
            continue
        if piece[1] == "K":
            return path, "king", sq
        turned = REFLECT[(direction, piece[2])]
        if turned is None:
            return path, "zap", sq
        direction = turned


def rotate(piece: Piece, quarters: int) -> Piece:
    order = CLOCKWISE[piece[1]]
    return (piece[0], piece[1], order[(order.index(piece[2]) + quarters) % 4])


def moves(squares: Squares, side: str, rules: int) -> list[str]:
    """Every move of *side* by the rules (Ko aside)."""
    other = "L" if side == "T" else "T"
    pinned = set(beam(squares, other)[0])
    out = []
    for sq, piece in squares.items():
        if piece[0] != side or (piece[1] == "P" and sq in pinned):
            continue
        for df, dr in NEIGHBOURS:
            to = (sq[0] + df, sq[1] + dr)
            if not on_board(to):
                continue
            if rules == 2016 or to not in squares:
                out.append(name(sq) + name(to))
            if rules == 2018 and to in squares and squares[to][0] == other:
                for df2, dr2 in NEIGHBOURS:
                    then = (to[0] + df2, to[1] + dr2)
                    if on_board(then) and then != sq and then not in squares:
                        out.append(name(sq) + name(to) + name(then))
                out.extend(name(sq) + name(to) + r for r in "RUL")
        out.extend(name(sq) + r for r in "RUL")
        if piece[1] == "K":
            out.append(name(sq) + name(sq))
    return out


def square_of(text: str) -> tuple[int, int]:
    return (FILES.index(text[0]), int(text[1]))


def play(
    squares: Squares, side: str, move: str, rules: int, shots: list[Laser] | None = None
) -> tuple[Squares, int, str | None]:
    """The pieces after *move* and the shot; the pawns zapped and the side whose king was hit. Each
    beam fired goes to *shots*."""
    after = dict(squares)
    a = square_of(move)

    def exchange(x: tuple[int, int], y: tuple[int, int]) -> None:
        px, py = after.pop(x, None), after.pop(y, None)
        if py is not None:
            after[x] = py
        if px is not None:
            after[y] = px

    if len(move) == 3:
        after[a] = rotate(after[a], TURNS[move[2]])
    elif len(move) == 4 and move[:2] != move[2:]:
        exchange(a, square_of(move[2:]))
    elif len(move) == 5:
        b = square_of(move[2:4])
        exchange(a, b)
        after[b] = rotate(after[b], TURNS[move[4]])
    elif len(move) == 6:
        b = square_of(move[2:4])
        exchange(a, b)
        exchange(b, square_of(move[4:]))
    zapped = 0
    while True:
        path, end, at = beam(after, side)
        if shots is not None:
            shots.append(Laser(tuple(map(name, path)), end, None if at is None else name(at)))
        if end == "edge":
            return after, zapped, None
        assert at is not None
        if end == "king":
            return after, zapped, after[at][0]
        del after[at]
        zapped += 1
        if rules == 2018:
            return after, zapped, None


def reference_perft(squares: Squares, side: str, depth: int, rules: int) -> int:
    if depth == 0:
        return 1
    generated = moves(squares, side, rules)
    if depth == 1:
        return len(generated)
    other = "L" if side == "T" else "T"
    total = 0
    for move in generated:
        after, _, hit = play(squares, side, move, rules)
        total += 1 if hit else reference_perft(after, other, depth - 1, rules)
    return total


def not_ko(squares: Squares, side: str, move: str, rules: int, earlier: list[Squares]) -> bool:
    """Ko allows *move* unless its board is one of *earlier* (the board before it and the one before
    the opponent's previous move); a shot that hits a king ends the game and is never Ko."""
    after, _, hit = play(squares, side, move, rules)
    return hit is not None or after not in earlier


# ---- The tests ---------------------------------------------------------------------------------

POSITIONS = [
    # The start.
    (STARTING_FEN, "start"),
    # Kings in the corners and at the edges, facing off the board and along it.
    ("7nn/8/8/8/8/8/8/SS7 W", "kings in corners"),
    ("3ee4/8/8/WW6sw/8/8/8/3NE4 B", "kings at the edges"),
    # Tangerine's king aims at a row of pawns whose backs face it: the 2016 king zaps them all.
    ("ss7/8/8/8/8/8/8/EE1NE1SE1nw1 W", "a row to zap"),
    # Pawns of Tangerine's on Lavender's beam (pinned), and one beside it (free).
    ("4ss3/8/4NW3/4SE1NE1/8/8/8/NN7 W", "pinned pawns"),
    # Pieces next to both kings: 2016 shifts exchange with kings, 2018 swaps with them.
    ("8/8/8/3nnSE3/3NWEE3/8/8/8 W", "exchanges with kings"),
    ("8/8/8/3nwnw3/2SE2sw2/3NN4/8/5ee2 W", "crowded centre"),
]


@pytest.mark.parametrize(("fen", "what"), POSITIONS)
@pytest.mark.parametrize("rules", [2016, 2018])
def test_perft_and_every_move_match_the_reference(fen: str, what: str, rules: int) -> None:
    board = Board(fen, rules=rules)
    squares, side = parse(fen)
    assert render(squares, side) == board.fen() == fen
    for depth in (1, 2, 3 if what != "start" else 2):
        assert perft(board, depth) == reference_perft(squares, side, depth, rules), (what, depth)
    # Every generated move, played by both: the same board, the same zaps and hits; Ko decides the
    # legal ones.
    legal = {str(m) for m in board.legal_moves}
    for move in moves(squares, side, rules):
        after, zapped, hit = play(squares, side, move, rules)
        other = "L" if side == "T" else "T"
        if after == squares and not hit:
            assert move not in legal, (what, move)  # Ko: the board as it was
            continue
        assert move in legal, (what, move)
        copy_ = board.copy()
        copy_.push(move)
        assert copy_.fen() == render(after, other), (what, move)
        outcome = copy_.outcome()
        if hit:
            assert outcome == Outcome(Termination.KING_HIT, hit != "T"), (what, move)
        else:
            assert outcome is None or outcome.termination != Termination.KING_HIT
    assert len(legal) == len(
        {m for m in moves(squares, side, rules) if play(squares, side, m, rules)[0] != squares}
    )


def test_the_published_counts() -> None:
    assert [perft(Board(), d) for d in (1, 2, 3)] == [78, 6084, 473126]


def test_the_positions_show_what_they_are_for() -> None:
    # A row to zap: one 2016 turn zaps both pawns, a 2018 turn only the first.
    for rules, left in ((2016, "ss7/8/8/8/8/8/8/EE5nw1 B"), (2018, "ss7/8/8/8/8/8/8/EE3SE1nw1 B")):
        board = Board("ss7/8/8/8/8/8/8/EE1NE1SE1nw1 W", rules=rules)
        board.push("a0a0")
        assert board.fen() == left
    # The pinned pawn may not move; its neighbour may.
    board = Board("4ss3/8/4NW3/4SE1NE1/8/8/8/NN7 W")
    assert board.laser(False) == Laser(("e6", "e5", "d5", "c5", "b5", "a5"), "edge", None)
    assert not any(str(m).startswith("e5") for m in board.legal_moves)
    assert sum(str(m).startswith("g4") for m in board.legal_moves) == 11
    # 2016: a pawn shifting onto the enemy king exchanges with it; 2018: a swap with it, then a move.
    board = Board("8/8/8/3nnSE3/3NWEE3/8/8/8 W")
    assert board.is_legal("d3d4")
    board.push("d3d4")
    assert board.fen() == "8/8/8/3NWSE3/3nnEE3/8/8/8 B"
    board = Board("8/8/8/3nnSE3/3NWEE3/8/8/8 W", rules=2018)
    assert not board.is_legal("d3d4") and board.is_legal("d3d4c5") and board.is_legal("d3d4U")
    board.push("d3d4c5")
    assert board.fen() == "8/8/2NW5/4SE3/3nnEE3/8/8/8 B"


@pytest.mark.parametrize("rules", [2016, 2018])
def test_random_games_match_the_reference(rules: int) -> None:
    rng = random.Random(rules)
    plies = 0
    for _ in range(6):
        board = Board(rules=rules)
        history = [parse(board.fen())[0]]
        while not board.is_game_over() and len(board.move_stack) < 120:
            squares, side = parse(board.fen())
            generated = moves(squares, side, rules)
            assert perft(board, 1) == len(generated)
            # Ko by the reference: not the board before this move, nor the one before the opponent's.
            earlier = history[-2:]
            legal = sorted(m for m in generated if not_ko(squares, side, m, rules, earlier))
            assert sorted(str(m) for m in board.legal_moves) == legal
            move = rng.choice(legal)
            shots: list[Laser] = []
            after, _, _ = play(squares, side, move, rules, shots)
            assert board.shots(move) == tuple(shots)  # the beams the page draws
            board.push(move)
            assert parse(board.fen())[0] == after
            history.append(after)
            plies += 1
    assert plies > 300


def test_outcomes_repetition_and_the_2018_quiet_draw() -> None:
    board = Board("ss7/8/8/8/8/8/8/7NN W")
    for _ in range(2):
        for text in ("h0R", "a7R", "h0L", "a7L"):
            assert board.outcome() is None
            board.push(text)
    assert board.outcome() == Outcome(Termination.REPETITION, None) and board.result() == "1/2-1/2"
    # Two lone kings walk without repeating a board and without hitting each other: no pawn is ever
    # zapped, so the 2018 rules draw after 100 plies; the 2016 rules play on.
    for rules in (2016, 2018):
        board = Board("ss7/8/8/8/8/8/8/7NN W", rules=rules)
        seen = {board.fen()}
        for _ in range(100):
            for move in board.legal_moves:
                trial = board.copy()
                trial.push(move)
                if trial.fen() not in seen and trial.outcome() is None:
                    break
            board.push(move)
            seen.add(board.fen())
        expected = Outcome(Termination.QUIET_MOVES, None) if rules == 2018 else None
        assert board.outcome() == expected, rules
        assert len(board.move_stack) == 100


def test_bad_input_is_refused_with_the_input_quoted() -> None:
    for fen, reason in [
        ("", "expected the placement"),
        ("ss7/8/8/8/8/8/8/7NN", "expected the placement"),
        ("ss7/8/8/8/8/8/8/7NX W", "unknown piece code"),
        ("ss7/8/8/8/8/8/8/8 W", "each side needs its king"),
        ("ss7/8/8/8/8/8/8/6NN W", "fewer than 8"),
    ]:
        with pytest.raises(InvalidFenError, match=reason) as info:
            Board(fen)
        assert repr(fen) in str(info.value) or fen == ""
    with pytest.raises(ValueError, match="rules must be 2016 or 2018"):
        Board(rules=2017)
    with pytest.raises(TypeError):
        Board(123)  # type: ignore[arg-type]
    board = Board()
    for text in ("", "e9e4", "f4f6", "f4X", "f4e5e5", "\x00\x01", "é4é5", "f4f5 junk"):
        with pytest.raises(InvalidMoveError):
            board.push(text)
    for text, reason in (("a5a6", "no piece"), ("a7a6", "not a piece of the side to move"), ("h0h0", "Ko")):
        with pytest.raises(IllegalMoveError, match=reason):
            board.push(text)
    with pytest.raises(TypeError):
        board.push(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no square 'z9'"):
        board.piece_at("z9")
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(ValueError):
        perft(board, -1)
    assert board.fen() == STARTING_FEN and board.move_stack == []


def test_board_behaves_like_python_chess() -> None:
    board = Board(rules=2018)
    board.push(Move("f4f5"))
    assert board.peek() == Move("f4f5") and board.move_stack == [Move("f4f5")]
    assert eval(repr(board), {"Board": Board}) == board
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.move_stack == board.move_stack and again.rules == 2018
    assert copy.deepcopy(board) == board and board.copy().move_stack == board.move_stack
    assert board.turn is False and isinstance(board.zobrist_key(), int)
    assert "NN" in str(board) and str(board).splitlines()[0].startswith("7")
    assert board.pop() == Move("f4f5") and board.zobrist_key() == Board(rules=2018).zobrist_key()


# ---- The player and the protocol ------------------------------------------------------------------


def test_the_search_wins_when_it_can_and_keeps_its_king() -> None:
    from camelpy.leiserchess import Searcher, evaluate, search

    aimed = Board("7nn/8/8/8/8/8/8/EE6NW W")
    result = search(aimed, depth=3)
    assert result.info.win_in == 1 and result.move is not None
    after = aimed.copy()
    after.push(result.move)
    assert after.outcome() == Outcome(Termination.KING_HIT, True)
    # From the start, at a few depths: a legal move that does not hit its own king.
    searcher = Searcher(hash_mb=2)
    for depth in (1, 3, 5):
        board = Board()
        found = searcher.search(board, depth=depth)
        assert found.move in board.legal_moves and found.info.depth == depth
        board.push(found.move)
        assert board.outcome() is None
    # A finished game has no move; the evaluation is symmetric at the start but for the tempo.
    assert search(after, depth=2).move is None
    assert evaluate(Board()).value == Searcher().weights["tempo"]
    with pytest.raises(ValueError, match="needs a depth, nodes or time"):
        search(Board())
    with pytest.raises(ValueError, match="unknown weight 'queen'"):
        Searcher(weights={"queen": 9})


def test_the_protocol_plays_and_never_exits_on_bad_input() -> None:
    import subprocess
    import sys

    script = "\n".join(
        [
            "uci",
            "setoption name Hash value 4",
            "setoption name pawn value 5000",
            "setoption name nonsense value 1",
            "position startpos moves f4f5 e7e6",
            "go depth 3",
            "isready",
            "wait",  # the next good position would stop the search (it stops any running search)
            "position fen not-a-fen W",
            "position startpos moves h0h0",
            "go",
            "\x00\xff garbage ☃",
            "position startpos",
            "perft 2",
            "eval",
            "display",
            "go time 2000 inc 100",
            "stop",
            "setoption name Rules value 2018",
            "position startpos",
            "perft 1",
            "position fen 8/8/8/8/8/8/8/NN6nn W moves a0R",
            "go depth 2",
            "quit",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess"],
        input=script + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "uciok" in lines and "readyok" in lines
    assert "option name Rules type combo default 2016 var 2016 var 2018" in lines
    bestmoves = [line.split()[1] for line in lines if line.startswith("bestmove ")]
    assert len(bestmoves) == 3 and bestmoves[-1] == "(none)"  # the last game is over: a0R hit h0
    after_two = Board()
    after_two.push("f4f5")
    after_two.push("e7e6")
    assert after_two.is_legal(bestmoves[0])
    strings = [line for line in lines if line.startswith("info string")]
    for expected in (
        "setoption: option 'pawn' takes an integer from 0 to 1000, got '5000'",
        "no such option: 'nonsense'",
        "invalid Leiserchess FEN",
        "illegal Leiserchess move 'h0h0'",
        "expected a limit",
        "unknown command",
        "perft 2: 6084",
        "perft 1: 82",
        "eval ",
        "fen ss3nw3/",
    ):
        assert any(expected in s for s in strings), expected
    assert any(line.startswith("info depth 3 score ") for line in lines)


def test_a_turns_shots_change_nothing_and_refuse_what_a_push_refuses() -> None:
    board = Board("ss7/8/8/8/SE1NE5/8/8/NN7 W")
    first, second = board.shots("a0a0")  # 2016: the king fires again after its zap
    assert (first.end, first.square, second.end) == ("zap", "c3", "edge")
    assert len(Board("ss7/8/8/8/SE1NE5/8/8/NN7 W", rules=2018).shots(Move("a0a0"))) == 1
    assert board.fen() == "ss7/8/8/8/SE1NE5/8/8/NN7 W" and board.move_stack == []
    with pytest.raises(IllegalMoveError, match="Ko"):
        Board().shots("h0h0")
    with pytest.raises(InvalidMoveError, match="'h0h9'"):
        Board().shots("h0h9")
    with pytest.raises(TypeError):
        Board().shots(7)  # type: ignore[arg-type]


LOST_TO_A_THREAT = "8/1ss1se1sw1SE/2ne1se2SW/8/2ne2NE2/nw5SW1/1NWne5/3SW1NE1NN W"
WEIGHTS_BEFORE_SPSA = {
    "pawn_central": -8,
    "pawn_between": 40,
    "king_centre": 35,
    "king_mobility": 0,
    "laser_coverage": 7,
    "laser_near_king": 0,
    "pawn_pinned": 0,
    "king_space": 0,
    "tempo": -11,
}
"""The weights before ``camelpy leiserchess spsa`` tuned them, with which the ``threats`` setting was
measured on that position (as the Rust test ``the_threats_setting_sees_a_lost_games_king_hit``)."""
"""Game 20.0 of the match against the course's reference player (build 4bf539e, ply 28): at depth 5
the default search plays h5g4, after which Lavender hits Tangerine's king by force."""


def test_the_threats_setting_through_the_protocol_changes_a_lost_games_move() -> None:
    import io

    from camelpy.arena.engines import parse_engine
    from camelpy.leiserchess import Searcher
    from camelpy.protocols.leiserchess import LeiserEngine

    # What `camelpy match ... option.Threats=1` sends: setoption name Threats value 1.
    assert parse_engine(["camelpy leiserchess", "option.Threats=1", "depth=5"]).options == (("Threats", "1"),)
    out = io.StringIO()
    engine = LeiserEngine(out)
    # Late-move pruning off and the weights of that time: the search the setting was measured against
    # (docs/guide/leiserchess.md).
    script = [
        "uci",
        "setoption name LateMoves value 0",
        *(f"setoption name {name} value {value}" for name, value in WEIGHTS_BEFORE_SPSA.items()),
        f"position fen {LOST_TO_A_THREAT}",
        "go depth 5",
        "wait",
    ]
    script += ["setoption name Threats value 1", "setoption name Hash value 8"]
    script += ["setoption name Threats value 4"]
    script += ["go depth 5", "wait"]
    assert all(engine.handle(line) for line in script)
    lines = out.getvalue().splitlines()
    assert "option name Threats type spin default 0 min 0 max 3" in lines
    assert [line.split()[1] for line in lines if line.startswith("bestmove ")] == ["h5g4", "h5g6"]
    assert engine.searcher.threats == 1  # kept across Hash; 4 refused
    assert any("Threats" in line and "4" in line for line in lines if line.startswith("info string"))
    searcher = Searcher(1)
    assert searcher.threats == 0
    with pytest.raises(ValueError, match="threats"):
        searcher.threats = 4


def test_the_aspiration_setting_through_the_protocol_is_kept_and_bounded() -> None:
    import io

    from camelpy.games import MAX_ASPIRATION
    from camelpy.leiserchess import Searcher
    from camelpy.protocols.leiserchess import LeiserEngine

    out = io.StringIO()
    engine = LeiserEngine(out)
    script = [
        "uci",
        "setoption name LateMoves value 0",
        f"position fen {LOST_TO_A_THREAT}",
        "go depth 6",
        "wait",
    ]
    script += ["setoption name Aspiration value 1", "setoption name Hash value 8", "ucinewgame"]
    script += [f"setoption name Aspiration value {MAX_ASPIRATION + 1}", "go depth 6", "wait"]
    assert all(engine.handle(line) for line in script)
    lines = out.getvalue().splitlines()
    assert f"option name Aspiration type spin default 0 min 0 max {MAX_ASPIRATION}" in lines
    # A one-centipawn window fails and widens at every iteration; the move it ends on differs here.
    assert [line.split()[1] for line in lines if line.startswith("bestmove ")] == ["h5g4", "h5g6"]
    assert engine.searcher.aspiration == 1  # kept across Hash; the value out of range refused
    refused = [line for line in lines if line.startswith("info string") and "Aspiration" in line]
    assert len(refused) == 1 and str(MAX_ASPIRATION + 1) in refused[0]
    searcher = Searcher(1)
    assert searcher.aspiration == 0
    with pytest.raises(ValueError, match="aspiration"):
        searcher.aspiration = -1


def test_the_late_moves_setting_through_the_protocol_prunes_and_is_kept() -> None:
    import io

    from camelpy.games import SEARCH_SETTINGS
    from camelpy.leiserchess import Searcher
    from camelpy.minichess import Searcher as MiniSearcher
    from camelpy.protocols.leiserchess import LeiserEngine

    top = SEARCH_SETTINGS["late_moves"]
    out = io.StringIO()
    engine = LeiserEngine(out)
    script = ["uci", "setoption name LateMoves value 0", "position startpos", "go depth 6", "wait"]
    script += ["setoption name latemoves value 1"]
    script += ["setoption name Hash value 8", "ucinewgame", "go depth 6", "wait"]
    script += [f"setoption name LateMoves value {top + 1}"]
    assert all(engine.handle(line) for line in script)
    lines = out.getvalue().splitlines()
    assert f"option name LateMoves type spin default 32 min 0 max {top}" in lines  # Leiserchess's default
    nodes = [int(line.split(" nodes ")[1].split()[0]) for line in lines if line.startswith("info depth 6 ")]
    assert len(nodes) == 2 and nodes[1] < nodes[0], nodes  # pruned, and kept across Hash
    assert engine.searcher.settings["late_moves"] == 1
    refused = [line for line in lines if line.startswith("info string") and "LateMoves" in line]
    assert len(refused) == 1 and str(top + 1) in refused[0]
    searcher = Searcher(1)
    with pytest.raises(ValueError, match="late_moves"):
        searcher.settings = {"late_moves": -1}
    with pytest.raises(ValueError, match='no search setting "lmp"'):
        searcher.settings = {"lmp": 1}
    assert searcher.settings == {**dict.fromkeys(SEARCH_SETTINGS, 0), "late_moves": 32}
    assert Searcher.DEFAULT_SETTINGS == searcher.settings
    assert MiniSearcher.DEFAULT_SETTINGS == MiniSearcher(1).settings == dict.fromkeys(SEARCH_SETTINGS, 0)

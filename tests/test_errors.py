"""Bad input gives a clear Python error and never a panic, a crash or a changed position.

``tests/data/bad_fens.txt`` holds 74 malformed or illegal FENs. For each of them camelpy may
either refuse the FEN with :class:`camelpy.InvalidFenError` (message non-empty, lowercase,
mentioning "fen" and quoting the input) or accept it -- but only where python-chess accepts
it too and finds it valid, and then both must agree on the position. Any other exception
type fails; a Rust panic (``pyo3_runtime.PanicException``, a ``BaseException``) fails the
test instead of escaping it (see ``call_no_panic``).
"""

from __future__ import annotations

import pickle
import re
from typing import Callable

import camelpy
import camelpy.errors
import chess
import pytest

from tests.conftest import LENIENT_STATUS, BadFen, call_no_panic, read_bad_fens

BAD_FENS = read_bad_fens()

# Move strings longer than this may be quoted truncated in error messages.
QUOTE_LIMIT = 80


def _quotes(message: str, text: str) -> bool:
    """Whether ``message`` quotes ``text`` Python-style (``repr``) or verbatim in single quotes."""
    return repr(text) in message or f"'{text}'" in message


def _quotes_part_of(message: str, text: str) -> bool:
    """Whether ``message`` single-quotes a non-empty piece of ``text``.

    python-chess quotes the whole FEN or the offending part (``... position part of fen:
    'rnbqkbnr/...'``); a very long input may be quoted truncated, with a trailing ellipsis.
    """
    for quoted in re.findall(r"'(.*?)'", message, flags=re.DOTALL):
        quoted = quoted.removesuffix("...").removesuffix("\u2026")
        if quoted and (quoted in text or quoted in repr(text)):
            return True
    return False


def _check_fen_error(err: Exception, entry: BadFen) -> None:
    assert isinstance(err, camelpy.InvalidFenError), (
        f"{entry.source} ({entry.comment}): expected InvalidFenError, got "
        f"{type(err).__module__}.{type(err).__qualname__}: {err}"
    )
    message = str(err)
    assert message, f"{entry.source}: empty message"
    assert "fen" in message.lower(), f"{entry.source}: message does not mention the fen: {message!r}"
    assert not message[0].isupper(), f"{entry.source}: message should start lowercase: {message!r}"
    if entry.fen.strip():  # python-chess says just "empty fen"
        assert _quotes_part_of(message, entry.fen), (
            f"{entry.source}: message does not quote the input: {message!r}"
        )


def _python_chess_board(entry: BadFen, chess960: bool) -> chess.Board:
    """The python-chess view of a FEN that camelpy accepted: it must be valid there too."""
    board, err = call_no_panic(chess.Board, entry.fen, chess960=chess960)
    assert err is None, f"camelpy accepts {entry.source} ({entry.comment}) but python-chess raises {err!r}"
    assert board is not None
    status = board.status() & ~LENIENT_STATUS
    assert status == chess.STATUS_VALID, (
        f"camelpy accepts {entry.source} ({entry.comment}) but python-chess status is {status!r}"
    )
    return board


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "chess960"])
@pytest.mark.parametrize("entry", BAD_FENS, ids=[e.source for e in BAD_FENS])
def test_bad_fen_position(entry: BadFen, chess960: bool) -> None:
    pos, err = call_no_panic(camelpy.Position, entry.fen, chess960=chess960)
    if err is not None:
        _check_fen_error(err, entry)
        return
    assert pos is not None
    board = _python_chess_board(entry, chess960)
    where = f"{entry.source} ({entry.comment})"
    assert set(pos.legal_moves()) == set(board.legal_moves), where
    assert pos.fen().split()[:4] == board.fen().split()[:4], where
    assert pos.fen(shredder=True).split()[:4] == board.fen(shredder=True).split()[:4], where
    assert pos.is_check() == board.is_check(), where
    assert pos.is_game_over() == board.is_game_over(), where
    assert pos.chess960 == chess960


@pytest.mark.parametrize("entry", BAD_FENS, ids=[e.source for e in BAD_FENS])
def test_bad_fen_perft_and_divide(entry: BadFen) -> None:
    accepted = call_no_panic(camelpy.Position, entry.fen)[1] is None
    for fn in (camelpy.perft, camelpy.divide):
        result, err = call_no_panic(fn, entry.fen, 1)
        if err is not None:
            _check_fen_error(err, entry)
            assert not accepted, f"Position() accepts {entry.source} but {fn.__name__}() refuses it"
            continue
        assert accepted, f"{fn.__name__}() accepts {entry.source} but Position() refuses it"
        board = _python_chess_board(entry, chess960=False)
        if fn is camelpy.perft:
            assert result == board.legal_moves.count(), entry.source
        else:
            assert isinstance(result, dict), entry.source
            assert set(result) == set(board.legal_moves), entry.source


def test_bad_fen_file_is_complete() -> None:
    assert len(BAD_FENS) == 74
    lengths = sorted(len(e.fen) for e in BAD_FENS)
    assert lengths[0] == 0 and lengths[-1] == 10_000
    assert sum("raises ValueError" in e.comment for e in BAD_FENS) == 37


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
    ],
)
def test_invalid_fen_error_is_catchable_as_value_error(fen: str) -> None:
    with pytest.raises(ValueError) as info:
        camelpy.Position(fen)
    assert type(info.value) is camelpy.InvalidFenError
    with pytest.raises(camelpy.errors.InvalidFenError):
        camelpy.perft(fen, 2)


def test_error_classes() -> None:
    assert camelpy.InvalidFenError is camelpy.errors.InvalidFenError
    assert camelpy.InvalidMoveError is camelpy.errors.InvalidMoveError
    assert camelpy.IllegalMoveError is camelpy.errors.IllegalMoveError
    assert issubclass(camelpy.InvalidFenError, ValueError)
    assert issubclass(camelpy.InvalidMoveError, chess.InvalidMoveError)
    assert issubclass(camelpy.IllegalMoveError, chess.IllegalMoveError)
    for cls in (
        camelpy.InvalidFenError,
        camelpy.InvalidMoveError,
        camelpy.IllegalMoveError,
    ):
        assert issubclass(cls, ValueError)
        assert cls.__module__ == "camelpy.errors"
        assert cls.__doc__
        err = pickle.loads(pickle.dumps(cls("invalid uci: 'e9e4'")))
        assert type(err) is cls and str(err) == "invalid uci: 'e9e4'"
    assert sorted(camelpy.errors.__all__) == [
        "DataFileError",
        "IllegalMoveError",
        "InvalidFenError",
        "InvalidMoveError",
        "InvalidStateError",
        "MissingTableError",
        "NetworkFileError",
        "TablebaseFileError",
    ]
    assert issubclass(camelpy.errors.InvalidStateError, ValueError)
    assert issubclass(camelpy.errors.TablebaseFileError, ValueError)
    # A probe of a position no loaded table holds: a KeyError, as python-chess's chess.gaviota.
    assert issubclass(camelpy.errors.MissingTableError, KeyError)


# --- moves ----------------------------------------------------------------------------


def _snapshot(pos: camelpy.Position) -> tuple[object, ...]:
    return (
        pos.fen(),
        pos.zobrist_key,
        sorted(m.uci() for m in pos.legal_moves()),
        pos.to_board().move_stack,
    )


def _midgame() -> camelpy.Position:
    pos = camelpy.Position()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6"]:
        pos.push(uci)
    return pos


INVALID_UCI = [
    "e9e4",
    "",
    "e2",
    "e2e4e5",
    "i2i4",
    "e2e4x",
    "e2-e4",
    "0000x",
    "♙e2e4",
    "\x00",
    "e2" * 500,
]


@pytest.mark.parametrize("uci", INVALID_UCI, ids=[repr(u)[:20] for u in INVALID_UCI])
@pytest.mark.parametrize("start", [camelpy.Position, _midgame], ids=["start", "midgame"])
def test_push_invalid_uci(start: Callable[[], camelpy.Position], uci: str) -> None:
    pos = start()
    before = _snapshot(pos)
    _, err = call_no_panic(pos.push, uci)
    assert isinstance(err, camelpy.InvalidMoveError), f"push({uci!r}) gave {err!r}"
    assert isinstance(err, chess.InvalidMoveError)
    message = str(err)
    assert message.startswith("invalid uci"), message
    if len(uci) <= QUOTE_LIMIT:
        assert _quotes(message, uci), message
    assert _snapshot(pos) == before, f"push({uci!r}) changed the position"


def test_invalid_uci_message() -> None:
    with pytest.raises(camelpy.InvalidMoveError) as info:
        camelpy.Position().push("e9e4")
    assert str(info.value) == "invalid uci: 'e9e4'"


MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate
ILLEGAL = [
    ("e2e5", chess.STARTING_FEN),  # a pawn cannot advance three squares
    ("e1g1", chess.STARTING_FEN),  # castling through own pieces
    ("e7e5", chess.STARTING_FEN),  # black move, white to move
    ("a7a8q", chess.STARTING_FEN),  # no pawn there
    ("e2e4q", chess.STARTING_FEN),  # promotion suffix on a non-promotion
    ("a7a8", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),  # promotion without a piece
    ("e1d1", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"),  # stays on the checking rook's rank
    ("e1f1", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"),  # same, other side
    # castling through an attacked square (f1)
    ("e1g1", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"),
    ("e1g1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),  # castling without the right
    ("e1h1", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),  # same, written king-takes-rook
    ("e5d6", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2"),  # en passant without the ep square
    # en passant without the ep square, black to move
    ("d5c4", "8/8/1k6/2b5/2pP4/8/5K2/8 b - - 0 1"),
    ("e2e4", MATED),  # no move is legal when checkmated
    ("g1f3", MATED),
]


def test_illegal_table_is_illegal_for_python_chess() -> None:
    for uci, fen in ILLEGAL:
        assert chess.Move.from_uci(uci) not in chess.Board(fen).legal_moves, (uci, fen)


@pytest.mark.parametrize(("uci", "fen"), ILLEGAL, ids=[f"{u}@{i}" for i, (u, _) in enumerate(ILLEGAL)])
@pytest.mark.parametrize("as_move", [False, True], ids=["str", "Move"])
def test_push_illegal_move(uci: str, fen: str, as_move: bool) -> None:
    pos = camelpy.Position(fen)
    before = _snapshot(pos)
    _, err = call_no_panic(pos.push, chess.Move.from_uci(uci) if as_move else uci)
    assert isinstance(err, camelpy.IllegalMoveError), f"push({uci!r}) in {fen} gave {err!r}"
    assert isinstance(err, chess.IllegalMoveError)
    message = str(err)
    assert message.startswith("illegal uci"), message
    assert _quotes(message, uci) and pos.fen() in message, message
    assert _snapshot(pos) == before, f"push({uci!r}) changed the position"


def test_illegal_move_message_and_stack_kept() -> None:
    pos = _midgame()
    fen = pos.fen()
    with pytest.raises(camelpy.IllegalMoveError) as info:
        pos.push("e4e6")
    assert str(info.value) == f"illegal uci: 'e4e6' in {fen}"
    with pytest.raises(chess.IllegalMoveError):  # python-chess code catches ours
        pos.push(chess.Move.from_uci("f3f5"))
    assert pos.pop() == chess.Move.from_uci("b8c6")
    with pytest.raises(camelpy.IllegalMoveError) as info:
        camelpy.Position().push("e2e5")
    assert str(info.value) == f"illegal uci: 'e2e5' in {chess.STARTING_FEN}"


def test_promotion_to_king_is_refused() -> None:
    """``a7a8k`` parses as UCI in python-chess but can never be legal: either error is fine."""
    pos = camelpy.Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    before = _snapshot(pos)
    _, err = call_no_panic(pos.push, "a7a8k")
    assert isinstance(err, (camelpy.InvalidMoveError, camelpy.IllegalMoveError)), repr(err)
    assert _snapshot(pos) == before


def test_push_wrong_type() -> None:
    pos = camelpy.Position()
    before = _snapshot(pos)
    for bad in (42, None, b"e2e4", ["e2e4"]):
        _, err = call_no_panic(pos.push, bad)
        assert isinstance(err, TypeError), f"push({bad!r}) gave {err!r}"
    assert _snapshot(pos) == before


def test_wrong_argument_types() -> None:
    cases: list[tuple[Callable[..., object], tuple[object, ...]]] = [
        (camelpy.Position, (42,)),
        (camelpy.perft, (42, 1)),
        (camelpy.perft, (chess.STARTING_FEN, "1")),
        (camelpy.divide, (None, 1)),
    ]
    for fn, args in cases:
        _, err = call_no_panic(fn, *args)
        assert isinstance(err, TypeError), f"{fn.__name__}{args!r} gave {err!r}"


# --- pop and depth --------------------------------------------------------------------


def test_pop_empty_stack() -> None:
    pos = camelpy.Position()
    with pytest.raises(IndexError):
        pos.pop()
    pos.push("e2e4")
    assert pos.pop() == chess.Move.from_uci("e2e4")
    _, err = call_no_panic(pos.pop)
    assert isinstance(err, IndexError), repr(err)
    assert pos.fen() == chess.STARTING_FEN
    # A position set up from a FEN has nothing to pop either.
    with pytest.raises(IndexError):
        camelpy.Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").pop()


@pytest.mark.parametrize("depth", [-1, -2, -(2**31)])
def test_negative_depth(depth: int) -> None:
    for fn in (camelpy.perft, camelpy.divide):
        _, err = call_no_panic(fn, chess.STARTING_FEN, depth)
        assert isinstance(err, ValueError), f"{fn.__name__}(start, {depth}) gave {err!r}"
        assert not isinstance(err, camelpy.InvalidFenError)
        _, err = call_no_panic(fn, chess.Board(), depth)
        assert isinstance(err, ValueError), f"{fn.__name__}(Board(), {depth}) gave {err!r}"


@pytest.mark.parametrize(
    ("move", "needle"),
    [
        (chess.Move(0, 64), "to_square=64"),
        (chess.Move(12, 28, drop=chess.PAWN), "drop=1"),
        (chess.Move(52, 60, promotion=chess.KING), "promotion=6"),
        ("\udcff", "invalid uci"),
    ],
    ids=["off-board", "drop", "king-promotion", "lone-surrogate"],
)
def test_push_malformed_move_objects(move: object, needle: str) -> None:
    pos = camelpy.Position()
    before = _snapshot(pos)
    _, err = call_no_panic(pos.push, move)
    assert isinstance(err, camelpy.InvalidMoveError), repr(err)
    assert needle in str(err)
    assert _snapshot(pos) == before

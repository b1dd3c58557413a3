"""camelpy.book (Polyglot books through python-chess) and the engine's OwnBook/BookFile/BookSeed options.

The books are written here with :func:`camelpy.book.write_book` (nothing is downloaded); each test
checks the file against python-chess's own reader as well.
"""

from __future__ import annotations

import collections
import struct
from pathlib import Path

import chess
import chess.polyglot
import pytest
from camelpy.book import Book, InvalidBookError, write_book
from camelpy.protocols.uci import UciEngine


def _line(*ucis: str) -> chess.Board:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return board


@pytest.fixture
def tiny_book(tmp_path: Path) -> Path:
    """Start position: e2e4 (weight 3), d2d4 (1); after 1.e4: c7c5 (2), e7e5 (2); after 1.e4 e5 2.Nf3 Nc6
    3.Bc4 Nf6: castling (1); and a zero-weight entry that must never be played."""
    path = tmp_path / "tiny.bin"
    castle_at = _line("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6")
    entries = [
        (chess.Board(), chess.Move.from_uci("e2e4"), 3),
        (chess.Board(), chess.Move.from_uci("d2d4"), 1),
        (chess.Board(), chess.Move.from_uci("a2a3"), 0),
        (_line("e2e4"), chess.Move.from_uci("c7c5"), 2),
        (_line("e2e4"), chess.Move.from_uci("e7e5"), 2),
        (castle_at, chess.Move.from_uci("e1g1"), 1),
    ]
    assert write_book(path, entries) == 6
    return path


def test_written_book_is_sorted_and_read_by_python_chess(tiny_book: Path) -> None:
    data = tiny_book.read_bytes()
    keys = [struct.unpack(">Q", data[i : i + 8])[0] for i in range(0, len(data), 16)]
    assert keys == sorted(keys)
    assert keys[0] <= 0x463B96181691FC9C <= keys[-1]  # the published start-position key
    with chess.polyglot.open_reader(tiny_book) as reader:
        assert {e.move.uci(): e.weight for e in reader.find_all(chess.Board())} == {"e2e4": 3, "d2d4": 1}
    # castling is stored king-takes-rook, as Polyglot requires
    castle_at = _line("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6")
    with chess.polyglot.open_reader(tiny_book) as reader:
        (entry,) = reader.find_all(castle_at)
        assert entry.raw_move & 0x3F == chess.H1


def test_weighted_random_choice_follows_the_weights(tiny_book: Path) -> None:
    with Book(tiny_book, seed=7) as book:
        counts = collections.Counter(book.pick(chess.Board()) for _ in range(2000))
        assert book.moves(chess.Board()) == {chess.Move.from_uci("e2e4"): 3, chess.Move.from_uci("d2d4"): 1}
    assert set(counts) == {chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")}  # never weight 0
    assert 0.70 < counts[chess.Move.from_uci("e2e4")] / 2000 < 0.80


def test_a_seed_replays_the_same_choices(tiny_book: Path) -> None:
    def picks(seed: int) -> list[chess.Move | None]:
        with Book(tiny_book, seed=seed) as book:
            return [book.pick(_line("e2e4")) for _ in range(40)]

    assert picks(11) == picks(11)
    assert picks(11) != picks(12)


def test_castling_comes_back_in_the_board_s_notation(tiny_book: Path) -> None:
    castle_at = _line("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6")
    with Book(tiny_book, seed=1) as book:
        assert book.pick(castle_at) == chess.Move.from_uci("e1g1")
        assert book.pick(_line("h2h3")) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot open book"), (b"", "not a polyglot book"), (b"\x00" * 17, "not a polyglot book")],
)
def test_bad_book_files_raise_a_value_error(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "bad.bin"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InvalidBookError, match=message) as info:
        Book(path)
    assert isinstance(info.value, ValueError) and str(path) in str(info.value)


def test_write_book_refuses_illegal_moves_and_bad_weights(tmp_path: Path) -> None:
    with pytest.raises(chess.IllegalMoveError):
        write_book(tmp_path / "x.bin", [(chess.Board(), chess.Move.from_uci("e2e5"), 1)])
    with pytest.raises(ValueError, match="65535"):
        write_book(tmp_path / "x.bin", [(chess.Board(), chess.Move.from_uci("e2e4"), 70000)])


def _engine() -> tuple[UciEngine, list[str]]:
    out: list[str] = []
    return UciEngine(out.append), out


def test_own_book_plays_book_moves_while_in_book_then_searches(tiny_book: Path) -> None:
    engine, out = _engine()
    for line in ("setoption name OwnBook value true", f"setoption name BookFile value {tiny_book}"):
        engine.handle(line)
    engine.handle("setoption name BookSeed value 5")
    engine.handle("position startpos moves e2e4")
    engine.handle("go wtime 1000 btime 1000")
    engine.wait()
    assert out[-2].startswith("info string book move ") and out[-1] in ("bestmove c7c5", "bestmove e7e5")
    engine.handle("position startpos moves e2e4 c7c5")  # out of book: a real search
    engine.handle("go depth 3")
    engine.wait()
    assert any(line.startswith("info depth 3") for line in out) and out[-1].startswith("bestmove ")
    # no book while pondering or analysing
    before = len(out)
    engine.handle("position startpos")
    engine.handle("go infinite")
    engine.handle("stop")
    assert any(line.startswith("info depth") for line in out[before:])


def test_book_seed_makes_games_reproducible(tiny_book: Path) -> None:
    def first_moves() -> list[str]:
        engine, out = _engine()
        for line in ("OwnBook value true", f"BookFile value {tiny_book}", "BookSeed value 42"):
            engine.handle(f"setoption name {line}")
        moves = []
        for _ in range(12):
            engine.handle("position startpos")
            engine.handle("go depth 1")
            engine.wait()
            moves.append(out[-1])
        return moves

    assert first_moves() == first_moves()
    assert set(first_moves()) == {"bestmove e2e4", "bestmove d2d4"}


def test_book_respects_searchmoves_and_castles_in_uci(tiny_book: Path) -> None:
    engine, out = _engine()
    for line in ("OwnBook value true", f"BookFile value {tiny_book}"):
        engine.handle(f"setoption name {line}")
    engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6")
    engine.handle("go depth 2")
    engine.wait()
    assert out[-1] == "bestmove e1g1"
    engine.handle("position startpos")
    engine.handle("go depth 2 searchmoves g1f3")
    engine.wait()
    assert out[-1].split()[1] == "g1f3"


def test_bad_book_file_is_reported_and_the_engine_searches(tmp_path: Path) -> None:
    engine, out = _engine()
    engine.handle("setoption name OwnBook value true")
    engine.handle(f"setoption name BookFile value {tmp_path / 'missing.bin'}")
    engine.handle("go depth 2")
    engine.wait()
    assert any(line.startswith("info string book not used: cannot open book") for line in out)
    assert out[-1].startswith("bestmove ")

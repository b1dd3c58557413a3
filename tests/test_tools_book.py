"""``camelpy book build|show|merge`` and our Polyglot key: books built from a handful of synthetic PGN
games hold exactly the expected entries and weights (read back by python-chess), per-side books,
filters, merging, showing, Ctrl-C, bad input; and the key agrees with python-chess's on every position
of ``balanced.epd`` and the perft suites, their children, and en-passant and castling cases."""

from __future__ import annotations

import io
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import TypedDict

import chess
import chess.polyglot
import pytest
from camelpy._polyglot_random import RANDOM64
from camelpy.book import MAX_WEIGHT, polyglot_key, read_entries, scaled, write_entries
from camelpy.protocols.uci import UciEngine
from camelpy.tools.chess.book import Points, _Display, build_book, merge_books, search_book
from camelpy.tools.cli import main

from tests.conftest import FISCHER_EPD, STANDARD_EPD, read_balanced_openings, read_perft_suite

# The Polyglot key ----------------------------------------------------------------------------------


def test_random64_is_the_format_table() -> None:
    assert RANDOM64 == tuple(chess.polyglot.POLYGLOT_RANDOM_ARRAY)


def _boards() -> list[chess.Board]:
    boards = [chess.Board(" ".join(line.split()[:4])) for line in read_balanced_openings()]
    for path in (STANDARD_EPD, FISCHER_EPD):
        boards += [chess.Board(case.fen, chess960=case.chess960) for case in read_perft_suite(path)]
    return boards


def test_key_agrees_with_python_chess_on_every_suite_position_and_its_children() -> None:
    boards = _boards()
    assert len(boards) == 1000 + 128 + 960
    checked = 0
    for board in boards:
        assert polyglot_key(board) == chess.polyglot.zobrist_hash(board), board.fen()
        for move in board.legal_moves:  # double steps (en passant), castling and rook moves (rights)
            board.push(move)
            assert polyglot_key(board) == chess.polyglot.zobrist_hash(board), board.fen()
            board.pop()
            checked += 1
    assert checked > 60_000


@pytest.mark.parametrize(
    ("fen", "key"),
    [  # the worked examples of the Polyglot specification
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463B96181691FC9C),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823C9B50FD114196),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756B94461C50FB0),
        ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662FAFB965DB29D4),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22A48B5A8E47FF78),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652A607CA3F242C1),
        ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00FDD303C946BDD9),
        ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3C8123EA7B067637),
        ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5C3F9B829B279560),
    ],
)
def test_key_of_the_specification_examples(fen: str, key: int) -> None:
    assert polyglot_key(chess.Board(fen)) == key


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",  # en passant possible
        "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2",  # no pawn beside: the file does not count
        "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2",  # pinned capturer: counts all the same (pseudo-legal)
        "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",  # black to capture
        "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",  # partial castling rights
        "r3k2r/8/8/8/8/8/8/1R2K2R b KQkq - 0 1",  # a right without its rook: not counted
    ],
)
def test_key_en_passant_and_castling_cases(fen: str) -> None:
    board = chess.Board(fen)
    assert polyglot_key(board) == chess.polyglot.zobrist_hash(board)


# Building from games -------------------------------------------------------------------------------

GAMES = """\
[Event "g1"]
[WhiteElo "2000"]
[BlackElo "1800"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "g2"]
[WhiteElo "2100"]
[BlackElo "2200"]
[Result "0-1"]

1. e4 c5 2. Nf3 0-1

[Event "g3"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "g4 unfinished"]
[Result "*"]

1. c4 *

[Event "g5 with a variation, a comment and a NAG"]
[Result "1-0"]

1. e4 (1. d4 d5) e5 {a comment} 2. Bc4 $1 1-0

[Event "g6 garbled"]
[Result "1-0"]

1. e4 Qh4 1-0

[Event "g7 another variant"]
[Variant "Atomic"]
[Result "1-0"]

1. e4 1-0
"""


def _after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


POSITIONS = [(), ("e4",), ("e4", "e5"), ("e4", "e5", "Nf3"), ("e4", "c5"), ("d4",)]
"""Every position the games reach within their first two moves, as SAN from the start."""


def _book(path: Path) -> dict[tuple[str, ...], dict[str, int]]:
    """The book read back by python-chess: SAN moves and weights by position (only positions it holds),
    after checking that every entry of the file belongs to one of :data:`POSITIONS`."""
    found = {}
    with chess.polyglot.open_reader(path) as reader:
        for sans in POSITIONS:
            board = _after(*sans)
            entries = {board.san(e.move): e.weight for e in reader.find_all(board, minimum_weight=0)}
            if entries:
                found[sans] = entries
        assert len(reader) == sum(len(moves) for moves in found.values())
    return found


@pytest.fixture
def pgn(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(GAMES)
    return path


def test_book_from_games_has_exactly_the_expected_entries(pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    summary = build_book([pgn], out=out, min_games=1)
    assert (summary.games, summary.used, summary.unfinished, summary.other_variant, summary.garbled) == (
        7,
        4,
        1,
        1,
        1,
    )
    assert summary.first_error is not None and "game 6" in summary.first_error
    assert "Qh4" in summary.first_error
    assert summary.entries == {str(out): (6, 4)}
    # win 2, draw 1, loss 0 for the side that moved; lost moves (weight 0) left out
    assert _book(out) == {
        (): {"e4": 4, "d4": 1},
        ("e4",): {"c5": 2},
        ("e4", "e5"): {"Nf3": 2, "Bc4": 2},
        ("d4",): {"d5": 1},
    }
    data = out.read_bytes()
    keys = [struct.unpack_from(">Q", data, i)[0] for i in range(0, len(data), 16)]
    assert keys == sorted(keys)


def test_per_side_books_keep_that_side_s_moves(pgn: Path, tmp_path: Path) -> None:
    white, black = tmp_path / "white.bin", tmp_path / "black.bin"
    build_book([pgn], white=white, black=black, min_games=1)
    assert _book(white) == {(): {"e4": 4, "d4": 1}, ("e4", "e5"): {"Nf3": 2, "Bc4": 2}}
    assert _book(black) == {("e4",): {"c5": 2}, ("d4",): {"d5": 1}}


def test_points_are_configurable(pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    build_book([pgn], out=out, min_games=1, points=Points(win=1, draw=1, loss=1))
    assert _book(out) == {
        (): {"e4": 3, "d4": 1},
        ("e4",): {"e5": 2, "c5": 1},
        ("e4", "e5"): {"Nf3": 1, "Bc4": 1},
        ("e4", "e5", "Nf3"): {"Nc6": 1},
        ("e4", "c5"): {"Nf3": 1},
        ("d4",): {"d5": 1},
    }


class _Filters(TypedDict, total=False):
    """The filters of :func:`build_book` a row of :func:`test_filters` sets."""

    min_elo: int
    min_games: int
    max_ply: int


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"min_games": 2}, {(): {"e4": 4}}),
        # moves after the ply limit are not read: g6's illegal second move goes unnoticed
        ({"max_ply": 1}, {(): {"e4": 6, "d4": 1}}),
        # a move counts when its player is rated 2000+ (g3 and g5 have no ratings)
        ({"min_elo": 2000}, {(): {"e4": 2}, ("e4",): {"c5": 2}, ("e4", "e5"): {"Nf3": 2}}),
    ],
)
def test_filters(pgn: Path, tmp_path: Path, options: _Filters, expected: object) -> None:
    out = tmp_path / "book.bin"
    filters: _Filters = {"min_games": 1, **options}
    build_book([pgn], out=out, **filters)
    assert _book(out) == expected


def test_several_files_and_a_repeated_position_counts_once_per_game(tmp_path: Path) -> None:
    one, two = tmp_path / "one.pgn", tmp_path / "two.pgn"
    one.write_text('[Result "1-0"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 1-0\n')
    two.write_text('[Result "1-0"]\n\n1. Nf3 1-0\n')
    out = tmp_path / "book.bin"
    build_book([one, two], out=out, min_games=2, points=Points(1, 1, 1))
    assert _book(out) == {(): {"Nf3": 2}}


def test_ctrl_c_keeps_the_games_read(pgn: Path, tmp_path: Path) -> None:
    def stop_after_two(games: int, done: int, total: int) -> None:
        assert 0 < done <= total == os.path.getsize(pgn)
        if games == 2:
            raise KeyboardInterrupt

    out = tmp_path / "book.bin"
    summary = build_book([pgn], out=out, min_games=1, progress=stop_after_two)
    assert summary.interrupted and summary.games == 2
    assert _book(out) == {(): {"e4": 2}, ("e4",): {"c5": 2}, ("e4", "e5"): {"Nf3": 2}}


# Writing, scaling and merging ----------------------------------------------------------------------


def test_weights_are_scaled_into_u16_keeping_order(tmp_path: Path) -> None:
    assert scaled([100_000, 99_999, 50_000, 1, 0]) == [65535, 65534, 32768, 1, 0]
    out = tmp_path / "big.bin"
    assert write_entries(out, [(5, 1, 70_000), (5, 2, 35_000), (5, 1, 70_000), (3, 7, 9)]) == 3
    assert [(k, r, w) for k, r, w, _ in read_entries(out)] == [(3, 7, 9), (5, 1, MAX_WEIGHT), (5, 2, 16384)]


def test_merge_adds_books_and_white_plus_black_is_the_whole_book(pgn: Path, tmp_path: Path) -> None:
    whole, white, black = tmp_path / "whole.bin", tmp_path / "white.bin", tmp_path / "black.bin"
    build_book([pgn], out=whole, white=white, black=black, min_games=1)
    merged = tmp_path / "merged.bin"
    assert merge_books(merged, [white, black]) == (6, 4)
    assert merged.read_bytes() == whole.read_bytes()
    assert main(["book", "merge", str(merged), str(whole), str(whole)]) == 0
    assert _book(merged)[()] == {"e4": 8, "d4": 2}


def test_merge_scales_overflowing_sums(tmp_path: Path) -> None:
    one = tmp_path / "one.bin"
    write_entries(one, [(1, 10, 60_000), (1, 11, 30_000), (2, 10, 5)])
    merged = tmp_path / "merged.bin"
    merge_books(merged, [one, one])
    assert [(k, r, w) for k, r, w, _ in read_entries(merged)] == [(1, 10, 65535), (1, 11, 32768), (2, 10, 10)]


# The command line ----------------------------------------------------------------------------------


def test_cli_build_and_show(pgn: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "book.bin"
    assert main(["book", "build", str(pgn), "--out", str(out), "--min-games", "1", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("read 7 games (4 used, skipped 1 unfinished, 1 other variants, 1 garbled)")
    assert lines[1] == f"wrote 6 entries (4 positions) to {str(out)!r}"
    assert main(["book", "show", str(out), chess.STARTING_FEN]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "move  uci    weight   share",
        "e4    e2e4        4   80.0%",
        "d4    d2d4        1   20.0%",
    ]
    assert main(["book", "show", str(out), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"]) == 0
    assert capsys.readouterr().out == "position not in book\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["build", "{missing}", "--out", "{out}"],
            "error: cannot read PGN '{missing}': No such file or directory",
        ),
        (
            ["build", "{tmp}", "--out", "{out}"],
            "error: cannot read PGN '{tmp}': it is not a regular file (a directory)",
        ),
        (["build", "{pgn}"], "error: no book to write: give --out, --white or --black"),
        (
            ["build", "{pgn}", "--white", ""],
            "error: --white must be a non-empty path without NUL characters, got ''",
        ),
        (
            ["build", "{pgn}", "--out", "{tmp}/no/such/book.bin"],
            "error: cannot write book '{tmp}/no/such/book.bin'",
        ),
        (
            ["build", "{pgn}", "--out", "{out}", "--min-games", "0"],
            "error: --min-games must be at least 1, got 0",
        ),
        (
            ["build", "{pgn}", "--out", "{out}", "--max-ply", "-1"],
            "error: --max-ply must be at least 1, got -1",
        ),
        (
            ["build", "{pgn}", "--out", "{out}", "--min-elo", "-5"],
            "error: --min-elo must be at least 0, got -5",
        ),
        (
            ["build", "{pgn}", "--out", "{out}", "--win", "-1"],
            "error: --win must be between 0 and 65535, got -1",
        ),
        (["show", "{missing}", "startpos"], "error: cannot open book '{missing}': No such file or directory"),
        (["show", "{pgn}", "startpos"], "error: not a polyglot book (size"),
        (["show", "{book}", "8/8/8 w - - 0 1"], "error: bad FEN '8/8/8 w - - 0 1': "),
        (
            ["show", "{book}", "k7/8/8/8/8/8/8/8 w - - 0 1"],
            "error: impossible position in FEN 'k7/8/8/8/8/8/8/8 w - - 0 1'",
        ),
        (["merge", "{out}", "{missing}"], "error: cannot open book '{missing}': No such file or directory"),
        (["merge", "{out}", "{pgn}"], "error: not a polyglot book (size"),
    ],
)
def test_bad_input_is_one_clear_error_line(
    argv: list[str], message: str, pgn: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.bin"
    write_entries(book, [(polyglot_key(chess.Board()), 796, 1)])
    names = {
        "missing": tmp_path / "missing.pgn",
        "tmp": tmp_path,
        "pgn": pgn,
        "out": tmp_path / "o.bin",
        "book": book,
    }
    assert main(["book", *(word.format(**names) for word in argv)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(**names)), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv", [["build", "x.pgn", "--min-games", "two"], ["frobnicate"], ["show", "only-one"]]
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["book", *argv]) == 2
    assert "usage: camelpy book" in capsys.readouterr().err


def test_garbage_pgn_is_read_without_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(b"\x00\xff\xfe garbage {unclosed ( [Tag \n1. e4 e5 2. Qxx9\n" * 50)
    garbled = tmp_path / "garbled.pgn"
    garbled.write_text('[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n\n' * 3)
    out = tmp_path / "book.bin"
    assert main(["book", "build", str(junk), "--out", str(out), "--min-games", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "skipped 1 unfinished" in captured.out and "warning: the book" in captured.err
    assert out.read_bytes() == b""
    assert main(["book", "build", str(garbled), "--out", str(out), "--min-games", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "3 garbled" in captured.out
    first = "illegal san: 'Ke3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert captured.err.splitlines()[0] == f"warning: first garbled game: {str(garbled)!r} game 1: {first}"


# Building by search --------------------------------------------------------------------------------


def _all_entries(path: Path) -> list[tuple[int, int, int]]:
    return [(key, raw, weight) for key, raw, weight, _ in read_entries(path)]


def test_search_book_is_deterministic_and_within_the_margin(tmp_path: Path) -> None:
    one, two, white = tmp_path / "one.bin", tmp_path / "two.bin", tmp_path / "white.bin"
    summary = search_book(chess.Board(), depth=2, plies=2, margin=20, out=one, white=white, threads=1)
    search_book(chess.Board(), depth=2, plies=2, margin=20, out=two, threads=2)
    assert one.read_bytes() == two.read_bytes() and summary.entries[str(one)][0] > 1
    by_key: dict[int, list[int]] = {}
    for key, _, weight in _all_entries(one):
        by_key.setdefault(key, []).append(weight)
    # each position's best move weighs 1 + margin, the others 1 + margin - their shortfall
    assert all(max(weights) == 21 and min(weights) >= 1 for weights in by_key.values())
    # the root and positions after its book moves (plies=2); a move first searched out of the margin
    # and not expanded can come within it once the best move's value is backed up: then it has no
    # replies in the book
    with chess.polyglot.open_reader(one) as reader:
        after = set()
        for entry in reader.find_all(chess.Board()):
            board = chess.Board()
            board.push(entry.move)
            after.add(polyglot_key(board))
    assert set(by_key) - {polyglot_key(chess.Board())} <= after and len(by_key) > 1
    assert _all_entries(white) == [e for e in _all_entries(one) if e[0] == polyglot_key(chess.Board())]


def test_search_book_finds_the_mate_and_cli_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    out = tmp_path / "mate.bin"
    argv = ["book", "build", "--search", "--fen", fen, "--depth", "1", "--plies", "1", "--margin", "0"]
    assert main([*argv, "--threads", "1", "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"wrote 1 entries (1 positions) to {str(out)!r}"
    with chess.polyglot.open_reader(out) as reader:
        assert [(e.move.uci(), e.weight) for e in reader.find_all(chess.Board(fen))] == [("d1d8", 1)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--search", "{pgn}", "--out", "{out}"],
            "error: --search builds from --fen, not from PGN files: got '{pgn}'",
        ),
        (["--out", "{out}"], "error: no PGN file given (or build from a position with --search)"),
        (["--search", "--fen", "nonsense", "--out", "{out}"], "error: bad FEN 'nonsense': "),
        (["--search", "--threads", "0", "--out", "{out}"], "error: --threads must be between 1 and "),
        (["--search", "--depth", "0", "--out", "{out}"], "error: --depth must be between 1 and 100, got 0"),
        (["--search", "--plies", "0", "--out", "{out}"], "error: --plies must be between 1 and 100, got 0"),
        (
            ["--search", "--margin", "-1", "--out", "{out}"],
            "error: --margin must be between 0 and 100000, got -1",
        ),
        (
            ["--search", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--out", "{out}"],
            "error: no legal move in ",
        ),
    ],
)
def test_search_bad_input(
    argv: list[str], message: str, pgn: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = {"pgn": pgn, "out": tmp_path / "o.bin"}
    assert main(["book", "build", *(word.format(**names) for word in argv)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(**names)), err
    assert len(err.splitlines()) == 1


def test_the_engine_plays_from_a_built_book(pgn: Path, tmp_path: Path) -> None:
    black = tmp_path / "black.bin"
    build_book([pgn], black=black, min_games=1)
    out: list[str] = []
    engine = UciEngine(out.append)
    for line in ("setoption name OwnBook value true", f"setoption name BookFile value {black}"):
        engine.handle(line)
    engine.handle("position startpos moves e2e4")
    engine.handle("go wtime 1000 btime 1000")
    engine.wait()
    assert out[-2].startswith("info string book move ") and out[-1] == "bestmove c7c5"


READ_SCRIPT = """
import sys
from camelpy.tools import cli
from camelpy.tools.chess import book
print("ready", flush=True)
sys.exit(cli.main(["book", "build", sys.argv[1], "--out", sys.argv[2], "--min-games", "1", "--quiet"]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
def test_a_real_ctrl_c_writes_the_book_of_the_games_read(tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    big.write_text((GAMES + "\n") * 30_000)  # 210,000 games: minutes to read
    out = tmp_path / "book.bin"
    proc = subprocess.Popen(
        [sys.executable, "-c", READ_SCRIPT, str(big), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    games = int(stdout.split()[1].replace(",", ""))
    assert 0 < games < 210_000 and "Traceback" not in stderr
    assert stderr.splitlines()[-1] == f"interrupted: the books hold the {games:,} games read"
    with chess.polyglot.open_reader(out) as reader:
        weights = {e.move.uci(): e.weight for e in reader.find_all(chess.Board())}
    assert weights["e2e4"] > 0 and weights["d2d4"] > 0


@pytest.mark.parametrize("tqdm", [True, False])
def test_the_live_line(pgn: Path, tmp_path: Path, tqdm: bool) -> None:
    stream = io.StringIO()
    display = _Display(stream)
    if not tqdm:
        display.tqdm = None
    build_book([pgn], out=tmp_path / "book.bin", min_games=1, progress=display)
    display.close()
    assert "1 games" in stream.getvalue()  # drawn once at the first game, then at most every 0.1 s


def test_min_games_counts_the_games_a_move_lost_too(tmp_path: Path) -> None:
    path = tmp_path / "three.pgn"
    path.write_text("".join(f'[Result "{r}"]\n\n1. e4 {r}\n\n' for r in ("1-0", "0-1", "0-1")))
    out = tmp_path / "book.bin"
    build_book([path], out=out, min_games=3)
    assert _book(out) == {(): {"e4": 2}}  # played 3 times, 2 points from its one win
    build_book([path], out=out, min_games=4)
    assert _book(out) == {}

"""camelpy's endgame tablebases (``camelpy.tablebase``, ``camelpy tb``): agreement with the Gaviota
tables in Debian's ``gaviotatb`` package (read by python-chess's ``chess.gaviota``), the probing
conventions, bad files, and the engine using the tables."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import chess.gaviota
import pytest
from camelpy import Engine
from camelpy.errors import MissingTableError, TablebaseFileError
from camelpy.tablebase import Tablebase, TableCheck, generate, open_tablebase

from tests.system_packages import GAVIOTA

THREE_MAN = {"KQvK": "Q", "KRvK": "R", "KBvK": "B", "KNvK": "N", "KPvK": "P"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tb")
    assert generate(path, ["KPvK"], threads=2) == ["KNvK", "KBvK", "KRvK", "KQvK", "KPvK"]
    return path


def _positions(piece: str, white_king_squares: list[int]) -> list[chess.Board]:
    """Every legal position with the white king on one of *white_king_squares*, White's *piece* and
    the black king anywhere, either side to move."""
    boards = []
    for wk, bk, sq in itertools.product(white_king_squares, range(64), range(64)):
        if len({wk, bk, sq}) < 3:
            continue
        board = chess.Board(None)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(sq, chess.Piece(chess.Piece.from_symbol(piece).piece_type, chess.WHITE))
        for turn in (chess.WHITE, chess.BLACK):
            board.turn = turn
            if board.is_valid():
                boards.append(board.copy())
    return boards


def _agree(folder: Path, boards: list[chess.Board]) -> int:
    decisive = 0
    with chess.gaviota.open_tablebase(str(GAVIOTA)) as gaviota, open_tablebase(folder) as ours:
        for board in boards:
            expected = gaviota.probe_dtm(board)
            assert ours.probe_dtm(board) == expected, board.fen()
            assert ours.probe_wdl(board) == gaviota.probe_wdl(board), board.fen()
            decisive += expected != 0
    return decisive


@pytest.mark.needs_gaviota
@pytest.mark.parametrize("ending", THREE_MAN)
def test_agrees_with_gaviota_on_sampled_three_man_positions(folder: Path, ending: str) -> None:
    rng = random.Random(ending)
    boards = _positions(THREE_MAN[ending], list(range(64)))
    decisive = _agree(folder, rng.sample(boards, 1500))
    assert (decisive > 0) == (ending not in ("KBvK", "KNvK"))


@pytest.mark.slow
@pytest.mark.needs_gaviota
@pytest.mark.parametrize("ending", THREE_MAN)
def test_agrees_with_gaviota_on_every_three_man_position(folder: Path, ending: str) -> None:
    # Every position with the white king in a1-d1-d4 (no pawn) or on files a-d (pawn): every 3-man
    # position up to the board's symmetries, which neither table tells apart.
    if ending == "KPvK":
        kings = [sq for sq in range(64) if chess.square_file(sq) <= 3]
    else:
        kings = [
            sq
            for sq in range(64)
            if chess.square_file(sq) <= 3 and chess.square_rank(sq) <= chess.square_file(sq)
        ]
    _agree(folder, _positions(THREE_MAN[ending], kings))


def test_probing_follows_python_chess(folder: Path) -> None:
    from camelpy.tablebase import probe_dtm, probe_wdl

    board = chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1")
    assert probe_dtm(board, folder) == -10 and probe_wdl(board, str(folder)) == -1
    with pytest.raises(MissingTableError):
        probe_dtm(chess.Board(), folder)
    with open_tablebase(folder) as tb:
        assert probe_dtm(board, tb) == -10
        assert tb.endings == ["KNvK", "KBvK", "KRvK", "KQvK", "KPvK"]
        assert repr(tb) == f"Tablebase({str(folder)!r})"
        assert tb.probe_dtm(chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1")) == -10
        assert tb.probe_wdl(chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1")) == -1
        assert tb.probe_dtm(chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")) == 0  # king against king
        mated = chess.Board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
        assert mated.is_checkmate() and (tb.probe_dtm(mated), tb.probe_wdl(mated)) == (0, -1)
        assert tb.probe_dtm(chess.Board("k7/7Q/1K6/8/8/8/8/8 w - - 0 1")) == 1
        # Colours exchanged: the same table.
        assert tb.probe_dtm(chess.Board("8/8/8/8/8/8/8/k2KR3 b - - 0 1")) == -10
        two_pieces = chess.Board("8/8/8/8/8/8/1r6/K2kr3 w - - 0 1")
        with pytest.raises(MissingTableError, match="no table for"):
            tb.probe_dtm(two_pieces)
        assert tb.get_dtm(two_pieces) is None and tb.get_wdl(chess.Board()) is None
        with pytest.raises(KeyError):
            tb.probe_wdl(chess.Board())
        with pytest.raises(TypeError, match="board must be a chess.Board, not str"):
            tb.probe_dtm("8/8/8/8/8/8/8/K2kr3 w - - 0 1")  # type: ignore[arg-type]


def test_bad_endings_and_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bad tablebase ending 'KQK': expected two sides joined by 'v'"):
        generate(tmp_path, ["KQK"])
    with pytest.raises(ValueError, match="at most 5 pieces"):
        generate(tmp_path, ["KQRBvKQ"])
    with pytest.raises(TypeError, match="endings must be a list"):
        generate(tmp_path, "KQvK")
    generate(tmp_path, ["KQvK"], threads=1)
    table = tmp_path / "KQvK.cptb"
    data = bytearray(table.read_bytes())
    data[1000] ^= 1
    table.write_bytes(bytes(data))
    with pytest.raises(
        TablebaseFileError, match="KQvK.cptb' is not a usable camelpy tablebase file: the checksum"
    ):
        open_tablebase(tmp_path)
    with pytest.raises(TablebaseFileError, match="checksum"):
        Engine(tablebases=tmp_path)
    with pytest.raises(FileNotFoundError):
        open_tablebase(tmp_path / "missing")


def _play_out(engine: Engine, tb: Tablebase, fen: str) -> int:
    """Plies until mate with the engine winning and the table defending (the longest resistance)."""
    board = chess.Board(fen)
    while not board.is_game_over():
        if board.turn == chess.Board(fen).turn:
            move = engine.play(board, chess.engine.Limit(nodes=2000)).move
            assert move is not None
        else:

            def resistance(m: chess.Move) -> int:
                board.push(m)
                dtm = tb.probe_dtm(board)
                board.pop()
                return dtm

            move = max(board.legal_moves, key=resistance)
        board.push(move)
    assert board.is_checkmate()
    return len(board.move_stack)


def test_the_engine_with_tables_mates_in_the_fewest_moves(folder: Path) -> None:
    with open_tablebase(folder) as tb:
        engine = Engine(tablebases=tb)
        assert engine.tablebases is tb and "tablebases=" in repr(engine)
        for fen in (
            "8/8/8/8/4k3/8/8/KR6 w - - 0 1",
            "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
            "7k/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ):
            dtm = tb.probe_dtm(chess.Board(fen))
            assert dtm > 0 and _play_out(engine, tb, fen) == dtm, fen
        engine.tablebases = None
        assert engine.tablebases is None


def test_batches_probe_the_tables(folder: Path) -> None:
    from camelpy.batch import analyse_many

    fens = ["8/8/8/8/4k3/8/8/KR6 w - - 0 1", "7k/8/8/8/8/8/4P3/4K3 w - - 0 1", "not a fen"]
    limit = chess.engine.Limit(nodes=200)
    with open_tablebase(folder) as tb:
        dtms = [tb.probe_dtm(chess.Board(fen)) for fen in fens[:2]]
        for results in (
            Engine(tablebases=tb).analyse_many(fens, limit, threads=2),
            analyse_many(fens, limit, threads=1, tablebases=folder),
        ):
            for fen, dtm, result in zip(fens, dtms, results):
                assert not isinstance(result, Exception)
                assert result.score.relative == chess.engine.Mate((dtm + 1) // 2), fen
                board = chess.Board(fen)
                assert result.best_move is not None
                board.push(result.best_move)
                assert tb.probe_dtm(board) == -(dtm - 1), fen  # a move on the shortest mate
            assert isinstance(results[2], ValueError)
        without = Engine().analyse_many(fens[:2], limit)
        assert not any(isinstance(r, Exception) or r.score.is_mate() for r in without)


def test_tb_command(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "camelpy", "tb"]
    done = subprocess.run(
        [*run, "generate", "KRvK", "--out", str(tmp_path), "--threads", "1"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "KRvK     solved in" in done.stdout and "1 table in" in done.stdout
    again = subprocess.run([*run, "generate", "KRvK", "--out", str(tmp_path)], capture_output=True, text=True)
    assert "KRvK     read" in again.stdout and "(0 solved" in again.stdout
    probe = subprocess.run(
        [*run, "probe", str(tmp_path), "8/8/8/8/8/8/8/K2kr3 w - - 0 1"], capture_output=True, text=True
    )
    assert probe.returncode == 0, probe.stderr
    assert "loss, mated in 5 (DTM -10)" in probe.stdout and "a1a2" in probe.stdout
    bad = subprocess.run([*run, "generate", "KXvK", "--out", str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown piece letter 'X'" in bad.stderr


def test_won_positions_and_their_conversion(folder: Path, tmp_path: Path) -> None:
    from camelpy.tools.chess.tb import convert, won_positions

    with open_tablebase(folder) as tb:
        found = won_positions(tb, "KRvK", 3, seed=1, min_dtm=15)
        assert [dtm >= 15 for _, dtm in found] == [True] * 3
        assert found == won_positions(tb, "KRvK", 3, seed=1, min_dtm=15)  # seeded
        with pytest.raises(ValueError, match="found 0 of 1 won KBvK positions"):
            won_positions(tb, "KBvK", 1)  # a bishop cannot mate
        boards = [board for board, _ in found]
        with_tables = convert(boards, Engine(tablebases=tb), tb, chess.engine.Limit(nodes=2000))
        assert with_tables.converted == with_tables.shortest == 3
        assert with_tables.plies == with_tables.dtm == sum(dtm for _, dtm in found)
    epd = tmp_path / "krk.epd"
    run = [sys.executable, "-m", "camelpy", "tb"]
    positions = subprocess.run(
        [*run, "positions", str(folder), "KQvK", "--count", "2", "--seed", "4"],
        capture_output=True,
        text=True,
    )
    assert positions.returncode == 0, positions.stderr
    epd.write_text(positions.stdout)
    assert len(positions.stdout.splitlines()) == 2 and ' c0 "dtm ' in positions.stdout
    done = subprocess.run(
        [*run, "convert", str(folder), str(epd), "--nodes", "1000"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "with tables  converted 2/2" in done.stdout and "without      converted " in done.stdout


def test_verify_and_check_find_a_wrong_entry(folder: Path, tmp_path: Path) -> None:
    from camelpy.tools.chess.tb import verify

    with open_tablebase(folder) as tb:
        assert verify(tb, "KPvK", 300, seed=2) == []
        for ending in tb.endings:
            found = tb.check(ending, threads=2)
            assert (found.ending, found.mismatches, found.examples) == (ending, 0, ())
            assert found.positions > 0 and found.positions + found.illegal <= 2 * 64**3
        kpk = tb.check("KPvK", threads=1)
        assert eval(repr(kpk), {"TableCheck": TableCheck}) == kpk
        assert kpk.decisive > 0 and kpk.illegal > 0
        assert tb.check("KBvK").decisive == 0  # a bishop cannot mate
        with pytest.raises(ValueError, match="bad tablebase ending 'KXvK'"):
            tb.check("KXvK")
        with pytest.raises(ValueError, match="needs the KQvKR table"):
            tb.check("KQvKR")
        with pytest.raises(TypeError, match="ending must be a str"):
            tb.check(["KQvK"])  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="threads"):
            tb.check("KQvK", threads=0)
    ok = subprocess.run(
        [sys.executable, "-m", "camelpy", "tb", "check", str(folder), "--threads", "1"],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert (
        "KPvK " in ok.stdout
        and "0 disagree" in ok.stdout
        and "positions checked by the core's moves" in ok.stdout
    )
    # A KQvK table with every win in one move turned into a draw, its checksum made to match: the
    # file loads, and the check by python-chess's moves finds the lie.
    generate(tmp_path, ["KQvK"], threads=1)
    path = tmp_path / "KQvK.cptb"
    data = bytearray(path.read_bytes())
    entries = data[48:]
    entries[:] = bytes(1 if b == 2 else b for b in entries)  # code 2: a win in 1 move; 1: a draw
    digest = 0xCBF29CE484222325
    for b in entries:
        digest = ((digest ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    data[48:] = entries
    data[40:48] = digest.to_bytes(8, "little")
    path.write_bytes(bytes(data))
    with open_tablebase(tmp_path) as tb:
        assert tb.probe_dtm(chess.Board("k7/7Q/1K6/8/8/8/8/8 w - - 0 1")) == 0
        assert len(verify(tb, "KQvK", 2000, seed=1)) > 0
        found = tb.check("KQvK")
        assert found.mismatches > 0 and len(found.examples) == 10
        assert "stored Draw, moves give Win(1)" in found.examples[0]
    run = [sys.executable, "-m", "camelpy", "tb", "verify", str(tmp_path), "KQvK", "--samples", "2000"]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 1 and "disagrees: " in done.stdout and "positions checked" in done.stdout
    run = [sys.executable, "-m", "camelpy", "tb", "check", str(tmp_path), "KQvK"]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 1 and "  disagrees: " in done.stdout and "stored Draw" in done.stdout

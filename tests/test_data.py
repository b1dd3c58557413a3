"""camelpy.data: self-play generation from Python, the reader and its filters, numpy arrays, the text
export, resuming, and bad input (clear exceptions, never a panic). The games are short (a few hundred
nodes per move) so that the whole module runs in a few seconds."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import camelpy.data
import chess
import chess.engine
import pytest
from camelpy.data import Sample, generate, read
from camelpy.errors import DataFileError

NODES = 400
"""Nodes per move in these tests: games of a few tens of milliseconds."""


@pytest.fixture(scope="module")
def games_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "games.bin"
    summary = generate(path, games=6, seed=5, nodes=NODES, workers=2)
    assert (summary.games, summary.new_games, summary.stopped) == (6, 6, False)
    assert summary.white_wins + summary.draws + summary.black_wins == 6 == sum(summary.ends.values())
    assert summary.nodes > summary.positions * NODES * 0.9
    return path


def _games(path: Path) -> list[list[Sample]]:
    """The file's samples split into games (by the ``last`` flags of the numpy view)."""
    np = pytest.importorskip("numpy")
    last = camelpy.data.to_numpy(path)["last"]
    samples = list(read(path))
    assert len(samples) == len(last)
    ends = [int(i) + 1 for i in np.flatnonzero(last)]
    return [samples[a:b] for a, b in zip([0, *ends[:-1]], ends)]


def test_games_replay_their_moves_and_keep_no_random_plies(games_file: Path) -> None:
    games = _games(games_file)
    assert len(games) == 6
    for game in games:
        # 8 random plies from the start position, none of them recorded: the first record is move 5.
        assert game[0].board.fullmove_number == 5 and game[0].board.turn == chess.WHITE
        board = game[0].board.copy()
        for sample in game:
            assert sample.board == board, "each record is the position after the previous best move"
            assert sample.best_move in board.legal_moves
            assert sample.result == game[0].result
            board.push(sample.best_move)


def test_decisive_games_are_labelled_for_the_side_the_search_favoured(games_file: Path) -> None:
    for game in _games(games_file):
        last = game[-1]
        white_view = last.score if last.board.turn == chess.WHITE else -last.score
        if last.result != 0.5:
            assert (white_view > 0) == (last.result == 1.0), last
            assert abs(white_view) >= camelpy.data.DEFAULTS["win_score"], last


def test_any_number_of_workers_writes_the_same_bytes(tmp_path: Path) -> None:
    one, two = tmp_path / "one.bin", tmp_path / "two.bin"
    generate(one, games=4, seed=2, nodes=NODES, workers=1)
    generate(two, games=4, seed=2, nodes=NODES, workers=2)
    assert one.read_bytes() == two.read_bytes()


def test_a_run_stopped_by_its_callback_resumes_to_the_uninterrupted_file(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.bin", tmp_path / "parts.bin"

    def stop_after_a_game(games: int, positions: int, seconds: float) -> None:
        if games >= 1:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        generate(parts, games=1000, seed=8, nodes=NODES, workers=2, progress=stop_after_a_game)
    done = len(_games(parts))
    assert 1 <= done < 1000, "every game in progress was finished and written, no more"
    generate(whole, games=done + 2, seed=8, nodes=NODES, workers=2)
    resumed = generate(parts, games=done + 2, seed=8, nodes=NODES, workers=1)
    assert (resumed.new_games, resumed.games) == (2, done + 2)
    assert parts.read_bytes() == whole.read_bytes()


def test_progress_reports_start_and_end(tmp_path: Path) -> None:
    calls: list[tuple[int, int, float]] = []
    summary = generate(tmp_path / "p.bin", games=2, seed=1, nodes=NODES, progress=lambda *a: calls.append(a))
    assert calls[0][:2] == (0, 0) and calls[-1][:2] == (2, summary.positions)
    assert all(isinstance(c[2], float) for c in calls)


def test_resume_with_another_seed_or_settings_is_refused(games_file: Path) -> None:
    with pytest.raises(DataFileError, match="generated with seed 5, not 6"):
        generate(games_file, games=7, seed=6, nodes=NODES)
    with pytest.raises(DataFileError, match="generated with other settings"):
        generate(games_file, games=7, seed=5, nodes=NODES + 1)
    with pytest.raises(DataFileError, match="generated with other settings"):
        generate(games_file, games=7, seed=5, nodes=NODES, openings=[chess.STARTING_FEN])
    assert camelpy.data.info(games_file).records == sum(1 for _ in read(games_file))


def test_filters(games_file: Path) -> None:
    everything = list(read(games_file))
    no_check = list(read(games_file, skip_in_check=True))
    quiet_moves = list(read(games_file, skip_noisy=True))
    assert all(not s.board.is_check() for s in no_check)
    assert len(no_check) == sum(not s.board.is_check() for s in everything)
    noisy = [s for s in everything if s.board.is_capture(s.best_move) or s.best_move.promotion]
    assert noisy and len(quiet_moves) == len(everything) - len(noisy)
    assert not any(s.board.is_capture(s.best_move) for s in quiet_moves)
    margin = list(read(games_file, quiet_margin=50))
    assert 0 < len(margin) < len(everything)
    assert all(not s.board.is_check() for s in margin)
    assert len(list(read(games_file, start=len(everything) - 3))) == 3


def test_samples_rebuild_and_score(games_file: Path) -> None:
    sample = next(read(games_file))
    assert eval(repr(sample), {"chess": chess, "Sample": Sample}) == sample
    assert isinstance(sample.pov_score, chess.engine.PovScore)
    mated = Sample(chess.Board(), -31996, chess.Move.from_uci("e2e4"), 0.0)
    assert mated.pov_score == chess.engine.PovScore(chess.engine.Mate(-2), chess.WHITE)


def test_numpy_view_matches_the_reader(games_file: Path) -> None:
    np = pytest.importorskip("numpy")
    rows = camelpy.data.to_numpy(games_file)
    raw = camelpy.data.to_numpy(games_file, raw=True)
    assert rows.dtype.itemsize > 32 and raw.dtype.itemsize == 32 and len(raw) == len(rows)
    symbols = {code: chess.Piece(code % 8 + 1, code < 8) for code in [*range(6), *range(8, 14)]}
    for row, sample in zip(rows, read(games_file)):
        board = sample.board
        pieces = {sq: symbols[int(code)] for sq, code in enumerate(row["board"]) if code >= 0}
        assert pieces == board.piece_map()
        assert bool(row["turn"]) == board.turn
        assert int(row["score"]) == sample.score and float(row["result"]) == sample.result
        assert camelpy.data.decode_move(int(row["best_move"])) == sample.best_move
        assert int(row["halfmove_clock"]) == board.halfmove_clock
        assert int(row["fullmove_number"]) == board.fullmove_number
        assert bool(row["in_check"]) == board.is_check()
        ep = board.ep_square if board.has_legal_en_passant() else None
        assert int(row["ep_file"]) == (-1 if ep is None else chess.square_file(ep))
        rooks = [chess.BB_H1, chess.BB_A1, chess.BB_H8, chess.BB_A8]
        rights = sum(1 << i for i, rook in enumerate(rooks) if board.castling_rights & rook)
        assert int(row["castling"]) == rights
    assert np.all(rows["noisy"] <= 1)


def test_to_numpy_without_numpy_says_how_to_get_it(games_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def no_numpy(name: str, *args: Any) -> Any:
        if name == "numpy":
            raise ImportError("No module named 'numpy'")
        return real(name, *args)

    monkeypatch.setattr("camelpy.data.importlib.import_module", no_numpy)
    with pytest.raises(ImportError, match=r"needs numpy: pip install 'camelpy\[numpy\]'"):
        camelpy.data.to_numpy(games_file)


def test_text_export(games_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "games.txt"
    lines = camelpy.data.export_text(games_file, out)
    text = out.read_text().splitlines()
    assert lines == len(text) == camelpy.data.info(games_file).records
    for line, sample in zip(text, read(games_file)):
        fen, score, result = line.split(" | ")
        assert (fen, int(score), float(result)) == (sample.board.fen(), sample.score, sample.result)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"games": -1}, ValueError, "games must be at least 0, got -1"),
        ({"games": 1.5}, TypeError, "games must be an integer, got float 1.5"),
        ({"games": 1, "nodes": 0}, ValueError, "nodes must be at least 1, got 0"),
        ({"games": 1, "workers": True}, TypeError, "workers must be an integer, got bool True"),
        ({"games": 1, "seed": -1}, ValueError, "seed must be at least 0, got -1"),
        ({"games": 1, "hash_mb": 0}, ValueError, "hash_mb must be between 1 and"),
        ({"games": 1, "win_score": 40000}, ValueError, "win_score must be between 1 and 30000"),
        ({"games": 1, "random_plies": 400}, ValueError, r"max_plies \(400\) must be more than random_plies"),
        ({"games": 1, "depth": "3"}, TypeError, "depth must be an integer, got str '3'"),
        ({"games": 1, "openings": ["not a fen"]}, ValueError, "opening 0: not a standard chess position"),
        (
            {"games": 1, "openings": ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]},
            ValueError,
            "is this Chess960",
        ),
        ({"games": 1, "openings": [chess.Board(chess960=True)]}, ValueError, "Chess960 opening"),
        ({"games": 1, "openings": ["7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]}, ValueError, r"over \(Checkmate\)"),
        ({"games": 1, "openings": [42]}, TypeError, "an opening must be a FEN string or a chess.Board"),
    ],
)
def test_bad_arguments_are_clear_exceptions(
    tmp_path: Path, kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    path = tmp_path / "bad.bin"
    with pytest.raises(error, match=match):
        generate(path, **kwargs)
    assert not path.exists(), "nothing is written for bad settings"


def test_bad_paths_and_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        generate(tmp_path / "missing" / "x.bin", games=1, nodes=NODES)
    with pytest.raises(IsADirectoryError):
        generate(tmp_path, games=1, nodes=NODES)
    with pytest.raises(FileNotFoundError):
        next(read(tmp_path / "missing.bin"))
    text = tmp_path / "text.bin"
    text.write_text("not a data file, but longer than a header")
    with pytest.raises(DataFileError, match="is not a camelpy data file"):
        list(read(text))
    with pytest.raises(DataFileError, match="is not a camelpy data file"):
        generate(text, games=1, nodes=NODES)
    short = tmp_path / "short.bin"
    short.write_bytes(b"CAMELPYD")
    with pytest.raises(DataFileError, match="8 bytes, shorter than the 32-byte header"):
        camelpy.data.info(short)


def test_damaged_records_are_named(games_file: Path, tmp_path: Path) -> None:
    data = bytearray(games_file.read_bytes())
    damaged = tmp_path / "damaged.bin"
    data[32 + 3 * 32 + 25] |= 0b1100_0000  # reserved flag bits of record 3
    damaged.write_bytes(bytes(data))
    with pytest.raises(DataFileError, match=r"bad record 3 in .*reserved flag bits"):
        list(read(damaged))
    damaged.write_bytes(bytes(data[: 32 + 10 * 32 + 5]))
    with pytest.raises(DataFileError, match=r"ends inside a record \(5 of its 32 bytes\)"):
        camelpy.data.info(damaged)
    # A resume drops a torn game (and a torn record) instead of failing.
    resumed = tmp_path / "resumed.bin"
    resumed.write_bytes(games_file.read_bytes()[:-40])
    summary = generate(resumed, games=6, seed=5, nodes=NODES, workers=2)
    assert summary.new_games == 1 and resumed.read_bytes() == games_file.read_bytes()
    os.remove(resumed)

"""The network from Python: train on self-play data, evaluate and search with the result (Engine,
analyse_many, the UCI option EvalFile), and every bad file refused with the evaluation kept."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import camelpy
import camelpy.data
import camelpy.nnue
import chess
import chess.engine
import pytest
from camelpy.errors import NetworkFileError
from camelpy.tools.cli import main

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> camelpy.nnue.TrainResult:
    folder = tmp_path_factory.mktemp("nnue")
    data = folder / "games.bin"
    camelpy.data.generate(data, games=12, nodes=400, seed=5, workers=2)
    return camelpy.nnue.train(
        [data], folder / "net", epochs=3, batch_size=128, threads=2, seed=1, valid_share=0.25
    )


def test_training_writes_a_network_that_lowers_its_loss(trained: camelpy.nnue.TrainResult) -> None:
    assert [e.epoch for e in trained.epochs] == [1, 2, 3]
    assert trained.epochs[-1].train_loss < trained.epochs[0].train_loss
    assert trained.train_positions > 300 and trained.valid_positions > 50
    assert not trained.stopped
    assert Path(trained.net_path).stat().st_size == 48 + 2 * (768 * 256 + 256 + 512) + 4
    assert (
        eval(
            repr(trained),
            {
                "TrainResult": camelpy.nnue.TrainResult,
                "EpochLoss": camelpy.nnue.EpochLoss,
                "FileRead": camelpy.nnue.FileRead,
            },
        )
        == trained
    )


def test_the_engine_evaluates_and_searches_with_the_network(trained: camelpy.nnue.TrainResult) -> None:
    classical = camelpy.Engine(eval="classical")
    net = camelpy.Engine(eval_file=trained.net_path)
    assert net.eval_file == trained.net_path and classical.eval_file is None
    assert f"eval_file={trained.net_path!r}" in repr(net)
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    values = {e: e._native.evaluate(board.fen(), [], False) for e in (classical, net)}
    assert values[classical] != values[net]
    result = net.search(board, depth=5)
    assert result.best_move is not None and result.best_move in board.legal_moves
    # A Chess960 game and a multi-threaded search with the network.
    net.threads = 2
    assert net.play(chess.Board.from_chess960_pos(518), chess.engine.Limit(nodes=3000)).move is not None
    # analyse_many passes the engine's network: same results as the engine's own searches at fixed nodes.
    many = net.analyse_many([board], chess.engine.Limit(depth=4), threads=1)
    single = camelpy.Engine(eval_file=trained.net_path).search(board, depth=4)
    assert not isinstance(many[0], Exception) and many[0].best_move == single.best_move
    # Back to the classical evaluation.
    net.eval_file = None
    assert net._native.evaluate(board.fen(), [], False) == values[classical]


def test_bad_network_files_are_refused_and_change_nothing(
    trained: camelpy.nnue.TrainResult, tmp_path: Path
) -> None:
    engine = camelpy.Engine(eval_file=trained.net_path)
    good = Path(trained.net_path).read_bytes()
    cases = {
        "short.nnue": (good[:30], "is not a camelpy network file"),
        "cut.nnue": (good[:-10], "is damaged"),
        "flipped.nnue": (good[:1000] + bytes([good[1000] ^ 1]) + good[1001:], "checksum"),
        "wide.nnue": (good[:16] + (300).to_bytes(4, "little") + good[20:], "hidden neurons is 300"),
        # The output weights' scale (QB) is the file's: the trainer writes 256, 64 and 256 are read.
        "qb.nnue": (
            good[:22] + (100).to_bytes(2, "little") + good[24:],
            "QB is 100, this build reads 64 or 256",
        ),
    }
    assert good[22:24] == (256).to_bytes(2, "little")
    for name, (content, why) in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(NetworkFileError, match=why) as err:
            engine.eval_file = tmp_path / name
        assert name in str(err.value)
        assert engine.eval_file == trained.net_path
    with pytest.raises(FileNotFoundError):
        engine.eval_file = tmp_path / "missing.nnue"
    with pytest.raises(TypeError):
        engine.eval_file = 3  # type: ignore[assignment]
    assert engine.eval_file == trained.net_path
    with pytest.raises(FileNotFoundError):
        camelpy.batch.analyse_many(
            [chess.Board()], chess.engine.Limit(depth=1), eval_file=str(tmp_path / "x")
        )


def test_the_uci_option_evalfile(trained: camelpy.nnue.TrainResult, tmp_path: Path) -> None:
    from camelpy.protocols.uci.loop import UciEngine

    lines: list[str] = []
    uci = UciEngine(lines.append)
    uci.handle("uci")
    assert f"option name EvalFile type string default {camelpy.nnue.EMBEDDED}" in lines
    assert uci._engine.eval_file == camelpy.nnue.EMBEDDED  # the default: the built-in network
    uci.handle(f"setoption name EvalFile value {trained.net_path}")
    assert uci._engine.eval_file == trained.net_path
    assert not [line for line in lines if line.startswith("info string")]
    (tmp_path / "bad.nnue").write_bytes(b"nonsense")
    for bad in (tmp_path / "bad.nnue", tmp_path / "missing.nnue"):
        uci.handle(f"setoption name EvalFile value {bad}")
        assert lines[-1].startswith("info string option 'EvalFile' not changed"), lines[-1]
        assert uci._engine.eval_file == trained.net_path
    uci.handle("position startpos moves e2e4")
    uci.handle("go depth 4")
    uci.handle("isready")
    uci.wait()
    assert any(line.startswith("bestmove ") for line in lines)
    # Use NNUE off: the classical evaluation; EvalFile is then only noted (a bad one too, refused when
    # Use NNUE comes back on, which then stays off); on again: the network of EvalFile.
    uci.handle("setoption name Use NNUE value false")
    assert uci._engine.eval_file is None
    uci.handle(f"setoption name EvalFile value {tmp_path / 'missing.nnue'}")
    assert uci._engine.eval_file is None
    uci.handle("setoption name Use NNUE value true")
    assert lines[-1].startswith("info string option 'Use NNUE' not changed"), lines[-1]
    assert uci._engine.eval_file is None and uci._options["Use NNUE"] is False
    uci.handle(f"setoption name EvalFile value {trained.net_path}")
    uci.handle("setoption name Use NNUE value true")
    assert uci._engine.eval_file == trained.net_path
    # <empty>, like the built-in network's name (no file of that name here), selects the built-in one.
    uci.handle("setoption name EvalFile value <empty>")
    assert uci._engine.eval_file == camelpy.nnue.EMBEDDED
    uci.handle(f"setoption name EvalFile value {trained.net_path}")
    uci.handle(f"setoption name EvalFile value {camelpy.nnue.EMBEDDED}")
    assert uci._engine.eval_file == camelpy.nnue.EMBEDDED
    assert uci._engine.eval_hash not in (None, trained.net_hash)


def test_a_wider_network_with_material_buckets_trains_loads_and_searches(tmp_path: Path) -> None:
    data = tmp_path / "games.bin"
    camelpy.data.generate(data, games=4, nodes=300, seed=6, workers=1)
    result = camelpy.nnue.train(
        [data], tmp_path / "wide", epochs=2, batch_size=128, threads=1, hidden=512, output_buckets=8
    )
    assert (result.hidden, result.output_buckets) == (512, 8)
    assert "hidden=512, output_buckets=8, input_buckets=1" in repr(result)
    hidden, buckets = 512, 8
    size = 48 + 2 * (768 * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
    assert Path(result.net_path).stat().st_size == size
    info = camelpy.nnue.network_info(result.net_path)
    assert info == camelpy.nnue.NetworkInfo(hidden=512, output_buckets=8, hash=result.net_hash, qb=256)
    assert info.shape == "768→512×2→1×8 material buckets"
    assert eval(repr(info), {"NetworkInfo": camelpy.nnue.NetworkInfo}) == info
    engine = camelpy.Engine(eval_file=result.net_path)
    assert engine._native.eval_hash == result.net_hash
    assert engine.search(chess.Board(), depth=4).best_move is not None
    # Its checkpoint resumes only as the same shape.
    with pytest.raises(ValueError, match="512 hidden neurons, 8 output bucket"):
        camelpy.nnue.train([data], tmp_path / "wide", epochs=2, batch_size=128, threads=1, resume=True)
    # The built-in network's shape, and a file that is no network.
    built_in = camelpy.Engine()._native.eval_hash
    assert camelpy.nnue.network_info() == camelpy.nnue.NetworkInfo(512, 8, built_in or 0, qb=256)
    assert camelpy.nnue.network_info("camelpy-2.nnue").qb == 64
    assert camelpy.nnue.network_info("camelpy-3.nnue").hidden == 256
    (tmp_path / "junk.nnue").write_bytes(b"junk")
    with pytest.raises(NetworkFileError, match="junk.nnue"):
        camelpy.nnue.network_info(tmp_path / "junk.nnue")
    # A damaged header of the new version: a width outside the set is quoted.
    good = Path(result.net_path).read_bytes()
    (tmp_path / "odd.nnue").write_bytes(good[:16] + (300).to_bytes(4, "little") + good[20:])
    with pytest.raises(NetworkFileError, match="hidden neurons is 300, this build reads 256, 512, 768, 1024"):
        camelpy.nnue.network_info(tmp_path / "odd.nnue")
    # The command's flags.
    out = tmp_path / "cli"
    args = ["train", str(data), "--out", str(out), "--epochs", "1", "--threads", "1", "--quiet"]
    assert main([*args, "--hidden", "768", "--output-buckets", "8"]) == 0
    assert camelpy.nnue.network_info(out / "net.nnue").hidden == 768
    assert "768 hidden neurons per side, 8 output bucket(s)" in (out / "provenance.md").read_text()
    kings = tmp_path / "kings"
    assert main([*args[:3], str(kings), *args[4:], "--input-buckets", "4"]) == 0
    info = camelpy.nnue.network_info(kings / "net.nnue")
    assert (info.hidden, info.output_buckets, info.input_buckets) == (256, 1, 4)
    assert info.shape == "768×4 king buckets→256×2→1"
    assert camelpy.Engine(eval_file=kings / "net.nnue").search(chess.Board(), depth=5).best_move is not None
    assert main([*args, "--hidden", "300"]) == 2


def test_train_arguments_are_checked(trained: camelpy.nnue.TrainResult, tmp_path: Path) -> None:
    data = tmp_path / "none.bin"
    for kwargs, error, why in [
        ({"hidden": 300}, ValueError, "hidden must be one of 256, 512, 768, 1024, not 300"),
        ({"output_buckets": 4}, ValueError, "output_buckets must be 1 or 8, not 4"),
        ({"input_buckets": 8}, ValueError, "input_buckets must be 1 or 4, not 8"),
        ({"epochs": 0}, ValueError, "epochs"),
        ({"lr": 0.0}, ValueError, "lr"),
        ({"wdl": 1.5}, ValueError, "wdl"),
        ({"valid_share": 1.0}, ValueError, "valid_share"),
        ({"threads": 0}, ValueError, "threads"),
        ({"batch_size": 1.5}, TypeError, "batch_size"),
    ]:
        with pytest.raises(error, match=why):
            camelpy.nnue.train([data], tmp_path / "out", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        camelpy.nnue.train([data, 5], tmp_path / "out")  # type: ignore[list-item]
    with pytest.raises(FileNotFoundError):
        camelpy.nnue.train([data], tmp_path / "out")
    (tmp_path / "text.bin").write_text("not data")
    with pytest.raises(camelpy.errors.DataFileError):
        camelpy.nnue.train([tmp_path / "text.bin"], tmp_path / "out")


def test_the_command_writes_losses_and_provenance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "games.bin"
    camelpy.data.generate(data, games=4, nodes=300, seed=9, workers=1)
    out = tmp_path / "net"
    args = ["train", str(data), "--out", str(out), "--epochs", "2", "--batch-size", "64", "--threads", "1"]
    assert main(args) == 0
    losses = json.loads((out / "losses.json").read_text())
    assert [row["epoch"] for row in losses] == [1, 2]
    note = (out / "provenance.md").read_text()
    assert "seed 9" in note and "| 2 |" in note and "checksum" in note
    assert (out / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # A finished run resumed with the same settings has nothing left to do; other settings are refused.
    assert main([*args, "--resume"]) == 0
    assert main([*args, "--resume", "--lr", "0.01"]) == 2
    assert "other settings" in capsys.readouterr().err
    # The mirror (on by default) is a setting of the run too; --no-mirror trains another net.
    assert main([*args, "--resume", "--no-mirror"]) == 2
    assert "other settings" in capsys.readouterr().err
    plain = tmp_path / "plain"
    assert main([*args[:3], str(plain), *args[4:], "--no-mirror"]) == 0
    assert (plain / "net.nnue").read_bytes() != (out / "net.nnue").read_bytes()
    assert "--no-mirror" in (plain / "provenance.md").read_text()


def test_the_provenance_says_which_prefix_of_a_file_a_capped_run_read(tmp_path: Path) -> None:
    data = tmp_path / "games.bin"
    camelpy.data.generate(data, games=6, nodes=300, seed=9, workers=1)
    total = camelpy.data.info(data).records
    out = tmp_path / "net"
    cap = ["--keep-check", "--keep-noisy", "--valid-share", "0", "--max-positions", str(total // 2)]
    args = ["train", str(data), "--out", str(out), "--epochs", "1", "--batch-size", "64", "--threads", "1"]
    assert main([*args, *cap, "--quiet"]) == 0
    note = (out / "provenance.md").read_text()
    match = re.search(
        r"the run read the first ([\d,]+) \(([\d,]+) whole games(, and the start of the next)?\)", note
    )
    assert match is not None, note
    records, games = (int(g.replace(",", "")) for g in match.groups()[:2])
    assert records == total // 2 and 0 < games < 6
    # The first `games` games of the seed make that prefix again, byte for byte.
    again = tmp_path / "again.bin"
    camelpy.data.generate(again, games=games, nodes=300, seed=9, workers=1)
    made = list(camelpy.data.read(again))
    assert made == list(itertools.islice(camelpy.data.read(data), len(made)))
    assert (len(made) < records) == (match.group(3) is not None)
    # The API says the same; a whole file read says nothing more.
    result = camelpy.nnue.train([data], tmp_path / "whole", epochs=1, batch_size=64, threads=1)
    assert result.files == (camelpy.nnue.FileRead(str(data), total, 6, mid_game=False),)
    # One path alone is the one-file list: the same net.
    alone = camelpy.nnue.train(data, tmp_path / "alone", epochs=1, batch_size=64, threads=1)
    assert (alone.files, alone.net_hash) == (result.files, result.net_hash)
    assert main([*args[:3], str(tmp_path / "whole2"), *args[4:], "--quiet"]) == 0
    assert "the run read" not in (tmp_path / "whole2" / "provenance.md").read_text()


def test_datagen_plays_with_a_network(trained: camelpy.nnue.TrainResult, tmp_path: Path) -> None:
    path = tmp_path / "net-games.bin"
    summary = camelpy.data.generate(path, games=2, nodes=300, seed=4, workers=1, eval_file=trained.net_path)
    assert summary.games == 2 and summary.positions > 0
    # A resume must use the same network: the classical evaluation is other settings.
    with pytest.raises(camelpy.errors.DataFileError, match="other settings"):
        camelpy.data.generate(path, games=3, nodes=300, seed=4, workers=1)
    assert (
        camelpy.data.generate(path, games=3, nodes=300, seed=4, workers=1, eval_file=trained.net_path).games
        == 3
    )
    with pytest.raises(NetworkFileError):
        camelpy.data.generate(path, games=3, nodes=300, seed=4, eval_file=tmp_path / "net-games.bin")
    # The command's flag.
    out = tmp_path / "cli.bin"
    args = ["datagen", "--out", str(out), "--games", "1", "--nodes", "300", "--quiet"]
    assert main([*args, "--eval-file", trained.net_path]) == 0
    assert main([*args, "--eval-file", str(tmp_path / "missing.nnue")]) == 2


def test_evaluation_loss_measures_a_network_and_the_classical_evaluation(
    trained: camelpy.nnue.TrainResult, tmp_path: Path
) -> None:
    data = tmp_path / "unseen.bin"
    camelpy.data.generate(data, games=3, nodes=400, seed=77, workers=1)
    # From record 30 on, filtered as the trainer filters.
    samples = list(camelpy.data.read(data, skip_in_check=True, skip_noisy=True, start=30))[:40]
    for eval_file in (None, trained.net_path):
        engine = camelpy.Engine(eval_file=eval_file)
        by_hand = 0.0
        for s in samples:
            result = s.result if s.board.turn else 1 - s.result
            target = 0.3 * result + 0.7 / (1 + math.exp(-max(-3000, min(3000, s.score)) / 400))
            by_hand += (1 / (1 + math.exp(-engine.evaluate(s.board) / 300)) - target) ** 2
        measured = camelpy.nnue.evaluation_loss(data, eval_file=eval_file, start=30, count=40, scale=300)
        assert measured == pytest.approx(by_hand / 40, rel=1e-6)
    assert camelpy.nnue.evaluation_loss(data, count=40) != camelpy.nnue.evaluation_loss(
        data, eval_file=trained.net_path, count=40
    )
    for kwargs, error, why in [
        ({"count": 0}, ValueError, "count"),
        ({"wdl": 1.5}, ValueError, "wdl"),
        ({"scale": 0}, ValueError, "scale"),
        ({"start": 10**9}, ValueError, "no positions to measure"),
        ({"eval_file": tmp_path / "missing.nnue"}, FileNotFoundError, "missing.nnue"),
        ({"eval_file": data}, NetworkFileError, "unseen.bin"),
    ]:
        with pytest.raises(error, match=why):
            camelpy.nnue.evaluation_loss(data, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(camelpy.errors.DataFileError):
        camelpy.nnue.evaluation_loss(trained.net_path)


def test_training_can_start_from_a_network(tmp_path: Path) -> None:
    data = tmp_path / "games.bin"
    camelpy.data.generate(data, games=3, nodes=300, seed=8, workers=1)
    built_in = camelpy.nnue.network_info("camelpy-3.nnue")

    def run(
        out: str,
        init: str | Path | None,
        lr: float = camelpy.nnue.DEFAULT_LR,
        resume: bool = False,
    ) -> camelpy.nnue.TrainResult:
        return camelpy.nnue.train(
            data,
            tmp_path / out,
            epochs=1,
            batch_size=128,
            threads=1,
            output_buckets=8,
            lr=lr,
            init=init,
            resume=resume,
        )

    # A learning rate too small to move a weight by a quantum writes the network started from.
    still = run("still", "camelpy-3.nnue", lr=1e-12)
    assert still.net_hash == built_in.hash
    moved = run("moved", "camelpy-3.nnue")
    fresh = run("fresh", None)
    assert len({moved.net_hash, fresh.net_hash, built_in.hash}) == 3
    # A network of another shape, a file that is none, and a resume without the network are refused.
    with pytest.raises(ValueError, match="the network to start from is 768→256×2→1; this run trains"):
        run("x", "camelpy-1.nnue")
    (tmp_path / "junk.nnue").write_bytes(b"junk")
    with pytest.raises(NetworkFileError, match="junk.nnue"):
        run("x", tmp_path / "junk.nnue")
    with pytest.raises(ValueError, match="network started from"):
        run("still", None, lr=1e-12, resume=True)
    # The command line names the network and its checksum in the provenance.
    out = tmp_path / "cli"
    args = ["train", str(data), "--out", str(out), "--epochs", "1", "--threads", "1", "--quiet"]
    assert main([*args, "--output-buckets", "8", "--init", "camelpy-3.nnue"]) == 0
    assert (
        f"started from: `camelpy-3.nnue`, checksum `{built_in.hash:#018x}`"
        in (out / "provenance.md").read_text()
    )


CANDIDATES = REPO_ROOT / "rust" / "core" / "nets" / "candidates"


@pytest.mark.parametrize("net", sorted(CANDIDATES.glob("*.nnue")), ids=lambda p: p.name)
def test_each_committed_candidate_loads_and_its_provenance_names_its_checksum_and_shape(net: Path) -> None:
    info = camelpy.nnue.network_info(net)
    provenance = net.with_suffix(".md").read_text(encoding="utf-8")
    assert f"`{info.hash:#018x}`" in provenance
    assert f"{info.hidden} hidden" in provenance
    assert net.with_name(f"{net.stem}-loss.png").is_file()
    # It plays: a short search with it as the evaluation gives a legal move.
    engine = camelpy.Engine(eval_file=net)
    result = engine.search(chess.STARTING_FEN, depth=4)
    assert chess.Move.from_uci(str(result.best_move)) in chess.Board().legal_moves

"""camelpy tune: the fit finds known optima, the core's linearization is exact for linear weights, and the
command writes weights that the engine loads, the source table, the loss plot and the moved-weights table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import camelpy
import chess
import numpy as np
import pytest
from camelpy.tools import cli
from camelpy.tools.chess import tune

from tests.conftest import read_balanced_openings


def _fens(count: int) -> list[str]:
    """The first *count* balanced openings as FENs (their EPD lines' four fields and move counters)."""
    return [" ".join(line.split()[:4]) + " 0 1" for line in read_balanced_openings()[:count]]


PARAMS_RS = Path(__file__).resolve().parent.parent / "rust" / "core" / "src" / "eval" / "params.rs"


def test_scores_alone_give_the_known_optimum_exactly() -> None:
    data = tune.synthetic(positions=3000, weights=4, seed=3)
    result = tune.tune(data, blend=0.0, epochs=30, batch_size=256, learning_rate=2.0, seed=3)
    assert data.truth is not None
    np.testing.assert_allclose(result.theta, data.truth, atol=0.01)
    assert result.val_losses[-1] < 1e-10 < result.val_losses[0]


def test_results_alone_find_the_optimum_within_sampling_error() -> None:
    # Game results are wins and losses drawn with the true model's probabilities: with K known, the
    # least-squares weights approach the truth as the sample grows.
    data = tune.synthetic(positions=40000, weights=3, k=1.0, seed=1)
    result = tune.tune(data, k=1.0, blend=1.0, epochs=30, batch_size=1024, learning_rate=2.0, seed=1)
    assert data.truth is not None
    assert np.max(np.abs(result.theta - data.truth)) < 6.0
    start = np.max(np.abs(data.theta0 - data.truth))
    assert start > 20.0


def test_k_is_fitted_to_the_results() -> None:
    for seed, k in [(2, 1.3), (4, 0.7)]:
        data = tune.synthetic(positions=20000, weights=2, k=k, seed=seed, offset=0.0)
        assert abs(tune.fit_k(data) - k) < 0.1


def test_weights_stay_in_their_ranges() -> None:
    data = tune.synthetic(positions=2000, weights=2, seed=5)
    data.lows[:] = data.theta0 - 1.0
    data.highs[:] = data.theta0 + 1.0
    result = tune.tune(data, blend=0.0, epochs=5, batch_size=128, learning_rate=5.0)
    assert np.all(result.theta >= data.lows) and np.all(result.theta <= data.highs)


@pytest.mark.parametrize(
    "kwargs",
    [{"blend": 1.5}, {"validation": 1.0}, {"epochs": 0}, {"batch_size": 0}, {"learning_rate": 0.0}],
)
def test_bad_settings_are_value_errors(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        tune.tune(tune.synthetic(positions=10, weights=1), **kwargs)  # type: ignore[arg-type]


def test_frozen_weights_keep_their_values_and_the_rest_still_fit() -> None:
    data = tune.synthetic(positions=3000, weights=4, seed=3)
    result = tune.tune(data, blend=0.0, epochs=30, batch_size=256, learning_rate=2.0, seed=3, frozen=["w2"])
    assert data.truth is not None
    assert result.theta[2] == data.theta0[2] != pytest.approx(data.truth[2], abs=1.0)
    moved = [0, 1, 3]
    start = np.abs(data.theta0[moved] - data.truth[moved])
    assert np.all(np.abs(result.theta[moved] - data.truth[moved]) < start)


@pytest.mark.parametrize("frozen", [["no_such"], "w0"])
def test_freezing_an_unknown_name_or_a_bare_string_is_refused(frozen: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        tune.tune(tune.synthetic(positions=10, weights=1), frozen=frozen)  # type: ignore[arg-type]


def test_default_params_are_a_new_engines_table() -> None:
    from camelpy import _core

    assert _core.default_params() == _core.Engine(1).params()
    names = {name for name, _, _, _ in _core.default_params()}
    assert set(tune.FROZEN_BY_DEFAULT) <= names


def test_the_linear_model_matches_the_engine() -> None:
    fens = _fens(60)
    data = tune.linearize(fens, [0.5] * len(fens), [None] * len(fens), threads=2)
    engine = camelpy.Engine(hash_mb=1, eval="classical")
    for fen, value in zip(fens, data.values):
        white = engine.evaluate(fen) * (1 if chess.Board(fen).turn else -1)
        assert int(value) == white  # the evaluation is the exact value truncated
    # Moving linear weights: the prediction is the engine's new evaluation (up to its rounding).
    moved = dict(zip(data.names, (int(v) for v in data.theta0)))
    for name, delta in [("knight_value_mg", 20), ("rook_mobility_eg", 3), ("passed_rank6_mg", -9)]:
        moved[name] += delta
    theta = np.array([moved[n] for n in data.names], dtype=np.float64)
    engine.set_params(moved)
    for fen, predicted in zip(fens, data.predict(theta)):
        white = engine.evaluate(fen) * (1 if chess.Board(fen).turn else -1)
        assert abs(predicted - white) < 1.0 + 1e-3, fen


def test_text_export_lines_are_read_from_whites_view() -> None:
    fens, results, scores = tune.read_text(
        [
            "# comment",
            "",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 150 | 1.0",
            "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | - | 0.5",
        ]
    )
    assert results == [1.0, 0.5] and scores == [150.0, None] and len(fens) == 2
    for bad in ["only a fen", "fen | x | 1.0", "fen | 10 | 2.0", "fen | nan | 1.0"]:
        with pytest.raises(ValueError, match="<text>:1: "):
            tune.read_text([bad])


def test_the_source_table_is_rewritten_in_place() -> None:
    text = PARAMS_RS.read_text(encoding="utf-8")
    defaults = camelpy.Engine(hash_mb=1).params()
    assert tune.rewrite_source(text, defaults) == text
    changed = tune.rewrite_source(
        text, {"knight_value_mg": 341, "king_danger_cap": 99999, "psqt_king_b1_eg": -7}
    )
    diff = [(a, b) for a, b in zip(text.splitlines(), changed.splitlines()) if a != b]
    king_rank1 = [a.strip() for a, _ in diff if a.strip().startswith("a1:")]
    b1 = f"b1: ({defaults['psqt_king_b1_mg']}, -7)"
    assert [b.strip() for _, b in diff] == [
        f"knight_value: (341, {defaults['knight_value_eg']}), [0, 1500];",
        "king_danger_cap: 2000, [0, 2000];",  # clamped to its range
        king_rank1[0].replace(f"b1: ({defaults['psqt_king_b1_mg']}, {defaults['psqt_king_b1_eg']})", b1),
    ]
    assert b1 in changed
    with pytest.raises(ValueError, match="not in the parameter table: 'no_such'"):
        tune.rewrite_source(text, {"no_such": 1})


def test_the_command_writes_weights_the_engine_loads(tmp_path: Path) -> None:
    # A small labelled set: positions from the openings, results from a material count (so the fit has
    # something to find), scores from a depth-1 search.
    lines = []
    for fen in _fens(200):
        board = chess.Board(fen)
        material = sum(
            len(board.pieces(pt, chess.WHITE)) - len(board.pieces(pt, chess.BLACK)) for pt in range(1, 6)
        )
        result = "1.0" if material > 0 else "0.0" if material < 0 else "0.5"
        lines.append(f"{fen} | - | {result}")
    data = tmp_path / "data.txt"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    source = tmp_path / "params.rs"
    source.write_text(PARAMS_RS.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    args = [str(data), "--out", str(out), "--epochs", "3", "--batch-size", "64", "--rounds", "2"]
    assert cli.main(["tune", *args, "--threads", "2", "--write-source", str(source)]) == 0
    weights = json.loads((out / "weights.json").read_text(encoding="utf-8"))
    engine = camelpy.Engine(hash_mb=1, eval="classical")
    assert set(weights) == set(engine.params())
    engine.set_params(weights)
    assert engine.params() == weights
    assert (out / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "moved.md").read_text(encoding="utf-8").startswith("| weight | before | after | change |")
    rewritten = source.read_text(encoding="utf-8")
    pawn = re.search(r"pawn_value: \((-?\d+), (-?\d+)\)", rewritten)
    assert pawn is not None and (int(pawn[1]), int(pawn[2])) == (
        weights["pawn_value_mg"],
        weights["pawn_value_eg"],
    )


def test_the_command_keeps_the_mop_up_weights_unless_told(tmp_path: Path) -> None:
    # Lone-king positions whose results say nothing about the mop-up terms' purpose (steering the
    # search); unfrozen, the fit would move them.
    fens = ["7k/8/5K2/8/8/8/8/1Q6 w - - 0 1", "k7/8/2K5/8/8/8/8/6R1 b - - 0 1"]
    lines = [f"{fen} | - | 0.5" for fen in fens] * 50
    data = tmp_path / "data.txt"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    defaults = camelpy.Engine(hash_mb=1).params()
    common = ["--epochs", "3", "--batch-size", "16", "--rounds", "1", "--threads", "1"]
    assert cli.main(["tune", str(data), "--out", str(tmp_path / "kept"), *common]) == 0
    kept = json.loads((tmp_path / "kept" / "weights.json").read_text(encoding="utf-8"))
    assert all(kept[name] == defaults[name] for name in tune.FROZEN_BY_DEFAULT)
    assert cli.main(["tune", str(data), "--out", str(tmp_path / "all"), "--freeze", "", *common]) == 0
    fitted = json.loads((tmp_path / "all" / "weights.json").read_text(encoding="utf-8"))
    assert any(fitted[name] != defaults[name] for name in tune.FROZEN_BY_DEFAULT)


def test_the_command_refuses_an_unknown_weight_to_freeze(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["tune", "x.txt", "--out", str(tmp_path), "--freeze", "mopup_edge,no_such"]) == 2
    assert "unknown weight 'no_such'" in capsys.readouterr().err


def test_the_command_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tune", str(tmp_path / "missing.txt"), "--out", str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("not a line\n", encoding="utf-8")
    assert cli.main(["tune", str(bad), "--out", str(tmp_path)]) == 2
    assert "bad.txt:1:" in capsys.readouterr().err


def test_set_params_is_all_or_nothing() -> None:
    engine = camelpy.Engine(hash_mb=1, eval="classical")
    before = engine.params()
    with pytest.raises(ValueError):
        engine.set_params({"tempo_mg": 30, "knight_value_mg": 10**6})
    assert engine.params() == before


def test_the_uci_option_paramsfile_loads_a_weights_file(tmp_path: Path) -> None:
    from camelpy.protocols.uci.loop import UciEngine

    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps({"tempo_mg": 31, "knight_value_eg": 300}), encoding="utf-8")
    lines: list[str] = []
    uci = UciEngine(lines.append)
    native = uci._engine
    defaults = dict((n, v) for n, v, _, _ in native.params())
    uci.handle("setoption name Use NNUE value false")  # the weights are the classical evaluation's
    uci.handle("setoption name pawn_value_mg value 100")
    uci.handle(f"setoption name ParamsFile value {weights}")
    now = dict((n, v) for n, v, _, _ in native.params())
    assert (now["tempo_mg"], now["knight_value_eg"]) == (31, 300)
    assert now["pawn_value_mg"] == defaults["pawn_value_mg"]  # the file's weights on top of the defaults
    assert not [line for line in lines if line.startswith("info string")]
    for bad, why in [
        ("missing.json", "cannot read weights file"),
        ("bad.json", "is not JSON"),
        ("range.json", "is outside"),
    ]:
        if bad == "bad.json":
            (tmp_path / bad).write_text("{", encoding="utf-8")
        if bad == "range.json":
            (tmp_path / bad).write_text(json.dumps({"tempo_mg": 10**6}), encoding="utf-8")
        uci.handle(f"setoption name ParamsFile value {tmp_path / bad}")
        assert lines[-1].startswith("info string option 'ParamsFile' not changed") and why in lines[-1], (
            lines[-1]
        )
        assert dict((n, v) for n, v, _, _ in native.params()) == now
    uci.handle("setoption name ParamsFile value <empty>")
    assert dict((n, v) for n, v, _, _ in native.params()) == defaults


def test_the_command_reads_datagen_files_natively(tmp_path: Path) -> None:
    import camelpy.data

    path = tmp_path / "games.bin"
    camelpy.data.generate(path, games=6, seed=3, nodes=300, workers=2)
    quiet = [s for s in camelpy.data.read(path, skip_in_check=True, skip_noisy=True)]
    data = tune.linearize_file(path, threads=2)
    assert len(data) == len(quiet) > 0
    assert list(data.results) == [s.result for s in quiet]
    # Scores from White's view; a mate score (beyond ±30000 in the file) has no centipawn value: NaN.
    white = [(s.score if s.board.turn else -s.score) if abs(s.score) <= 30000 else None for s in quiet]
    assert [None if np.isnan(x) else float(x) for x in data.scores] == white
    assert len(tune.linearize_file(path, every=3, limit=5)) == min(5, (len(quiet) + 2) // 3)
    out = tmp_path / "out"
    assert cli.main(["tune", str(path), "--out", str(out), "--epochs", "2", "--batch-size", "64"]) == 0
    assert set(json.loads((out / "weights.json").read_text(encoding="utf-8"))) == set(data.names)

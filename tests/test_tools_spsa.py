"""camelpy spsa: the optimiser finds a known optimum of a simulated match, resumes exactly, refuses bad
input with clear messages; the command plays a couple of tiny iterations against the real engine."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import cast

import pytest
from camelpy import _core
from camelpy.arena.engines import EngineConfig
from camelpy.tools import cli
from camelpy.tools.chess.spsa import (
    MIN_INTEGER_C,
    STATE_VERSION,
    Spsa,
    SpsaParam,
    SpsaSettings,
    Trial,
    check_against_engine,
    engine_spin_options,
    format_params,
    parse_param,
    read_params,
    resume,
    simulated_match,
)

from tests.runs import terminate_when

DATA = Path(__file__).resolve().parent / "data"
OPTIMUM = {"x": 60, "y": 10, "z": 250}
WIDTH = {"x": 25, "y": 25, "z": 125}  # this far from the optimum costs 100 Elo


def _params(r_end: float = 0.01) -> list[SpsaParam]:
    return [
        SpsaParam("x", 20, 0, 100, c_end=4, r_end=r_end),
        SpsaParam("y", -30, -50, 50, c_end=4, r_end=r_end),
        SpsaParam("z", 400, 0, 1000, c_end=20, r_end=r_end),
    ]


# The optimiser ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_finds_the_optimum_of_a_simulated_match(seed: int) -> None:
    settings = SpsaSettings(iterations=2000, pairs=8)
    spsa = Spsa(_params(), settings, seed=seed)
    theta = spsa.run(simulated_match(OPTIMUM, width=WIDTH, pairs=8, seed=seed))
    # Started 40, 40 and 150 away (1.6, 1.6 and 1.2 widths); 20 seeds all ended within 0.21 widths.
    for name, best in OPTIMUM.items():
        assert abs(theta[name] - best) < 0.32 * WIDTH[name], (name, theta[name], best)
    assert spsa.done and spsa.iteration == 2000 and len(spsa.history) == 2000


def test_the_schedule_ends_at_c_end_and_r_end() -> None:
    params = [SpsaParam("p", 50, 0, 100, c_end=5, r_end=0.002), SpsaParam("q", 0, -9, 9, c_end=0.1)]
    settings = SpsaSettings(iterations=500, alpha=0.602, gamma=0.101, a_ratio=0.1)
    spsa = Spsa(params, settings)
    a0, c0 = spsa.schedule(0)
    a, c = spsa.schedule(499)
    assert math.isclose(c[0], 5) and math.isclose(a[0] / c[0] ** 2, 0.002)
    assert math.isclose(c0[0], 5 * 500**0.101)  # c = c_end * N^gamma, c_k = c / (k+1)^gamma
    big_a = 50
    assert math.isclose(a0[0], 0.002 * 25 * (big_a + 500) ** 0.602 / (big_a + 1) ** 0.602)
    assert c[1] == c0[1] == MIN_INTEGER_C  # an integer parameter is perturbed by at least 0.5


def test_the_update_is_a_times_score_over_c_delta_and_is_clamped() -> None:
    spsa = Spsa([SpsaParam("p", 50, 0, 100, c_end=5)], SpsaSettings(iterations=10), seed=7)
    trial = spsa.trial()
    assert spsa.trial() == trial  # looking does not draw
    a, c = spsa.schedule(0)
    step = spsa.step(lambda t: 3.0)
    assert step.flips == trial.flips
    assert math.isclose(spsa.theta["p"], 50 + a[0] * 3.0 / (c[0] * trial.flips[0]))
    # Integer values sent to the engine: the + side is above θ for Δ = +1, the two differ.
    assert isinstance(trial.plus["p"], int) and isinstance(trial.minus["p"], int)
    assert (trial.plus["p"] - trial.minus["p"]) * trial.flips[0] > 0
    edge = Spsa([SpsaParam("p", 99, 0, 100, c_end=40, r_end=1.0)], SpsaSettings(iterations=5), seed=1)
    seen = []
    for _ in range(5):
        seen.append(edge.trial())
        edge.step(lambda t: 20.0 if t.plus["p"] > t.minus["p"] else -20.0)
        assert 0 <= edge.theta["p"] <= 100
    assert all(0 <= t.plus["p"] <= 100 and 0 <= t.minus["p"] <= 100 for t in seen)
    assert edge.theta["p"] == 100  # pushed up hard: clamped to the maximum


def test_float_parameters_are_not_rounded() -> None:
    spsa = Spsa([SpsaParam("f", 0.5, 0, 1, c_end=0.01, integer=False)], SpsaSettings(iterations=3))
    trial = spsa.trial()
    assert isinstance(trial.plus["f"], float) and trial.plus["f"] != round(trial.plus["f"])


def test_resume_gives_the_same_result_as_one_run(tmp_path: Path) -> None:
    settings = SpsaSettings(iterations=120, pairs=4)
    play = simulated_match(OPTIMUM, width=WIDTH, pairs=4, seed=5)
    whole = Spsa(_params(0.02), settings, seed=11)
    whole.run(play)
    first = Spsa(_params(0.02), settings, seed=11)
    for _ in range(45):
        first.step(play)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(first.state()))
    second = Spsa(_params(0.02), settings, seed=11)
    second.restore(json.loads(saved.read_text()))
    assert second.iteration == 45
    second.run(play)
    assert second.theta == whole.theta
    assert second.history == whole.history


def test_a_run_carried_from_elsewhere_goes_on_as_the_whole_run() -> None:
    """A folder lost after 45 iterations: a new optimiser given the iteration count and θ plays the
    other 75 exactly as the whole run did (the random draws do not depend on θ or the results)."""
    settings = SpsaSettings(iterations=120, pairs=4)
    play = simulated_match(OPTIMUM, width=WIDTH, pairs=4, seed=5)
    params = [*_params(0.02), SpsaParam("f", 0.5, 0, 1, c_end=0.05, r_end=0.02, integer=False)]
    whole = Spsa(params, settings, seed=11)
    whole.run(play)
    first = Spsa(params, settings, seed=11)
    for _ in range(45):
        first.step(play)
    second = Spsa(params, settings, seed=11)
    second.carry(45, first.theta)
    assert (second.iteration, second.carried, second.history, second.start) == (45, 45, [], first.theta)
    assert second.trial() == first.trial()
    for _ in range(30):
        second.step(play)
    # Saved and resumed part-way, the carried run is still the same run.
    third = Spsa(params, settings, seed=11)
    third.carry(45, first.theta)
    third.restore(json.loads(json.dumps(second.state())))
    third.run(play)
    assert third.theta == whole.theta and third.history == whole.history[45:]
    assert third.iteration == 120 and len(third.history) == 75
    # Its state is another run's for an optimiser not carried, or carried from elsewhere.
    with pytest.raises(ValueError, match="the carried iterations were"):
        Spsa(params, settings, seed=11).restore(third.state())
    fourth = Spsa(params, settings, seed=11)
    fourth.carry(44, first.theta)
    with pytest.raises(ValueError, match="the carried iterations were"):
        fourth.restore(third.state())


def test_bad_carried_runs_are_refused() -> None:
    settings = SpsaSettings(iterations=10)
    theta = {"x": 30.0, "y": 0.0, "z": 300.0}
    for iterations, values, message in (
        (0, theta, "carried iterations must be between 1 and 10, got 0"),
        (11, theta, "carried iterations must be between 1 and 10, got 11"),
        (3, {"x": 30.0, "y": 0.0}, "the carried values lack 'z'"),
        (3, {**theta, "w": 1.0}, "carried value of 'w', which is not tuned here"),
        (3, {**theta, "x": 101.0}, "carried x 101.0 outside its range 0..100"),
        (3, {**theta, "y": float("nan")}, "carried y must be a finite number, got nan"),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            Spsa(_params(), settings, seed=1).carry(iterations, values)
    played = Spsa(_params(), settings, seed=1)
    played.step(lambda trial: 0.0)
    with pytest.raises(ValueError, match="only a new SPSA run can carry"):
        played.carry(3, theta)
    with pytest.raises(TypeError, match="theta must be a mapping"):
        Spsa(_params(), settings, seed=1).carry(3, [30.0, 0.0, 300.0])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("theirs", "differ"),
    [
        ({"engine": "a", "book": "b"}, "differ in book;"),
        ({"engine": "x", "book": "b", "nodes": 5}, "differ in book, engine, nodes;"),
        ([1, 2], "differ in book, engine;"),  # not an object: all of ours differs
        (None, "differ in book, engine;"),  # no run saved
    ],
)
def test_resume_names_what_differs_in_the_saved_run(tmp_path: Path, theirs: object, differ: str) -> None:
    spsa = Spsa(_params(), SpsaSettings(iterations=10), seed=2)
    saved = {"camelpy_spsa": STATE_VERSION, "spsa": spsa.state(), "games": []}
    if theirs is not None:
        saved["run"] = theirs
    (tmp_path / "state.json").write_text(json.dumps(saved))
    with pytest.raises(ValueError, match="holds a run whose games ") as err:
        resume(spsa, tmp_path, {"engine": "a", "book": None})
    assert differ in str(err.value) and "use another --out folder" in str(err.value)


def test_an_objective_that_fails_leaves_the_state_as_it_was() -> None:
    spsa = Spsa(_params(), SpsaSettings(iterations=10), seed=2)
    before, trial = spsa.state(), spsa.trial()

    def broken(t: Trial) -> float:
        raise RuntimeError("engine died")

    with pytest.raises(RuntimeError):
        spsa.step(broken)
    assert spsa.state() == before and spsa.trial() == trial
    with pytest.raises(ValueError, match="finite"):
        spsa.step(lambda t: float("nan"))


def test_restoring_another_runs_state_is_refused() -> None:
    spsa = Spsa(_params(), SpsaSettings(iterations=10), seed=2)
    state = spsa.state()
    with pytest.raises(ValueError, match="iterations was 10, now 20"):
        Spsa(_params(), SpsaSettings(iterations=20), seed=2).restore(state)
    with pytest.raises(ValueError, match="seed was 2, now 3"):
        Spsa(_params(), SpsaSettings(iterations=10), seed=3).restore(state)
    with pytest.raises(ValueError, match="parameter 'x': c_end was 4, now 5"):
        other = [SpsaParam("x", 20, 0, 100, c_end=5, r_end=0.01), *_params()[1:]]
        Spsa(other, SpsaSettings(iterations=10), seed=2).restore(state)
    with pytest.raises(ValueError, match="it tunes x, y, z; now x"):
        Spsa(_params()[:1], SpsaSettings(iterations=10), seed=2).restore(state)
    with pytest.raises(ValueError, match="malformed"):
        Spsa(_params(), SpsaSettings(iterations=10), seed=2).restore({**state, "rng": [3, [1, 2], None]})


def test_repr_rebuilds() -> None:
    for value in (_params()[0], SpsaSettings(iterations=7, pairs=3)):
        assert eval(repr(value), {"SpsaParam": SpsaParam, "SpsaSettings": SpsaSettings}) == value


# Bad input --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("x", 5, 10, 0), "min 10 must be below max 0"),
        (("x", 5, 3, 3), "min 3 must be below max 3"),
        (("x", 50, 0, 10), "default 50 is outside its range [0, 10]"),
        (("x", -1, 0, 10), "default -1 is outside its range [0, 10]"),
        (("x", 5, 0, 10, 0), "c_end must be above 0"),
        (("x", 5, 0, 10, 1, -0.1), "r_end must be above 0"),
        (("x", 5, 0, 10, float("nan")), "c_end must be a finite number"),
        (("x", 5.5, 0, 10), "default 5.5 is not a whole number"),
        (("a,b", 5, 0, 10), "bad parameter name 'a,b'"),
        (("", 5, 0, 10), "bad parameter name ''"),
    ],
)
def test_bad_parameters_are_refused(args: tuple[object, ...], message: str) -> None:
    name, default, low, high, *rest = args
    c_end = rest[0] if rest else 1
    r_end = rest[1] if len(rest) > 1 else 0.002
    with pytest.raises(ValueError) as err:
        SpsaParam(name, default, low, high, c_end=c_end, r_end=r_end)  # type: ignore[arg-type]
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": 0}, "iterations must be between 1 and"),
        ({"iterations": 10, "pairs": 0}, "pairs must be between 1 and"),
        ({"iterations": 10, "alpha": 0}, "alpha must be above 0"),
        ({"iterations": 10, "alpha": 1.5}, "alpha must be at most 1"),
        ({"iterations": 10, "gamma": -0.1}, "gamma must be at least 0"),
        ({"iterations": 10, "gamma": 0.602}, "gamma must be below alpha (0.602)"),
        ({"iterations": 10, "a_ratio": -1}, "a_ratio must be at least 0"),
        ({"iterations": 10, "alpha": float("inf")}, "alpha must be a finite number"),
    ],
)
def test_bad_schedules_are_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError) as err:
        SpsaSettings(**kwargs)  # type: ignore[arg-type]
    assert message in str(err.value)
    with pytest.raises(TypeError, match="iterations must be an integer"):
        SpsaSettings(iterations=10.0)  # type: ignore[arg-type]


def test_bad_parameter_sets_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one parameter"):
        Spsa([], SpsaSettings(iterations=1))
    with pytest.raises(ValueError, match="parameter 'X' is given twice"):
        Spsa([SpsaParam("x", 1, 0, 2, c_end=1), SpsaParam("X", 1, 0, 2, c_end=1)], SpsaSettings(iterations=1))


def test_parameter_files_in_both_formats() -> None:
    text = (
        "# Stockfish TUNE\n\nrfp_margin,80,20,200,9,0.0025\n"
        " lmr_base , int, 100, 50, 200, 7.5, 0.002\nx,1,0,2,1\n"
    )
    params = read_params(text, source="p.csv")
    assert [(p.name, p.default, p.minimum, p.maximum, p.c_end, p.r_end) for p in params] == [
        ("rfp_margin", 80, 20, 200, 9, 0.0025),
        ("lmr_base", 100, 50, 200, 7.5, 0.002),
        ("x", 1, 0, 2, 1, 0.002),
    ]
    assert read_params(format_params(params), source="again") == params


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a,1,0,2", "p.csv:1: expected name,default,min,max,c_end[,r_end]"),
        ("# only a comment\n", "p.csv: no parameters"),
        ("a,one,0,2,1", "p.csv:1: default must be a number, got 'one'"),
        ("a,1,0,2,1\nb,5,9,2,1", "p.csv:2: parameter 'b': min 9 must be below max 2"),
        ("a,float,0.5,0,1,0.1,0.002", "p.csv:1: parameter 'a' is a 'float'"),
        ("a,1,0,2,inf", "p.csv:1: c_end must be a finite number, got 'inf'"),
    ],
)
def test_bad_parameter_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        read_params(text, source="p.csv")
    assert message in str(err.value)


def test_param_words_and_the_engines_options() -> None:
    spin = {"rfp_margin": (80, 0, 400), "lmr_base": (100, 10, 300)}
    assert parse_param("rfp_margin=90,20,200,6,0.003") == SpsaParam("rfp_margin", 90, 20, 200, 6, 0.003)
    assert parse_param("LMR_BASE", spin) == SpsaParam("LMR_BASE", 100, 10, 300, c_end=14.5)
    with pytest.raises(ValueError, match=r"no spin option 'rfp_margn' \(did you mean 'rfp_margin'\?\)"):
        parse_param("rfp_margn", spin)
    with pytest.raises(ValueError, match="expected NAME=DEFAULT,MIN,MAX"):
        parse_param("rfp_margin=90,20")
    with pytest.raises(ValueError, match="no spin option 'nope'"):
        check_against_engine([SpsaParam("nope", 1, 0, 2, c_end=1)], spin)
    with pytest.raises(ValueError, match="min -5 is below the engine's minimum 0"):
        check_against_engine([SpsaParam("rfp_margin", 1, -5, 2, c_end=1)], spin)


# The command --------------------------------------------------------------------------------------------


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["spsa", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: camelpy spsa") and "--param" in out and "--iterations" in out


ENGINE = f"{sys.executable} -m camelpy"


def test_the_engines_spin_options_include_its_hidden_tuning_options() -> None:
    # camelpy's uci lists its weights and search settings only behind "Show Tuning Options"; spsa asks.
    spin = engine_spin_options([sys.executable, "-m", "camelpy"])
    assert spin["Hash"][0] == _core.DEFAULT_HASH_MB
    for name, default, low, high in _core.default_params() + _core.default_search_params():
        assert spin[name] == (default, low, high)


def test_the_command_plays_tiny_iterations_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"

    def command(iterations: int) -> list[str]:
        return [
            "spsa", "--out", str(out), "--engine", ENGINE, "nodes=200", "--param", "tempo_mg=12,-50,100,5",
            "--param", "king_shield_close", "--iterations", str(iterations), "--pairs", "1", "--seed", "3",
            "--openings", str(DATA / "balanced.epd"), "--concurrency", "1", "--maxmoves", "60",
        ]  # fmt: skip

    args = command(2)
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    assert captured.err.count("iteration ") == 2 and "iteration 2/2: " in captured.err
    assert "setoption name tempo_mg value " in captured.out
    assert "option.tempo_mg=" in captured.out and "option.king_shield_close=" in captured.out
    state = json.loads((out / "state.json").read_text())
    assert len(state["spsa"]["history"]) == 2 and len(state["games"]) == 2
    assert all(g["wins"] + g["draws"] + g["losses"] == 2 for g in state["games"])
    assert all(sum(g["terminations"].values()) == 2 for g in state["games"])  # how each game ended
    assert "# time forfeits: " in captured.out and " in the 4 games played here" in captured.out
    assert (out / "spsa.png").read_bytes()[:4] == b"\x89PNG"
    assert read_params((out / "tuned.csv").read_text())[0].name == "tempo_mg"
    # Running it again resumes: the run is finished, so nothing is played and the result is the same.
    assert cli.main(args) == 0
    again = capsys.readouterr()
    assert "iteration " not in again.err and again.out == captured.out
    # A longer run is another schedule: refused, naming the difference.
    assert cli.main(command(3)) == 2
    assert "iterations was 2, now 3" in capsys.readouterr().err
    assert cli.main(["spsa", "--out", str(out), "--plot"]) == 0
    assert capsys.readouterr().out == captured.out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--param", "no_such_option=1,0,2"], "the engine has no spin option 'no_such_option'"),
        (["--param", "tempo_mg=12,100,-50"], "min 100 must be below max -50"),
        (["--param", "tempo_mg=500,-50,100"], "default 500 is outside its range [-50, 100]"),
        (["--param", "tempo_mg=12,-500,100"], "min -500 is below the engine's minimum -50"),
        (["--param", "TEMPO_MG=12,-500,100"], "parameter 'tempo_mg': min -500 is below"),
        (["--param", "tempo_mg", "--gamma", "0.9"], "gamma must be below alpha"),
        (["--param", "tempo_mg", "--iterations", "0"], "iterations must be between 1"),
        (["--param", "tempo_mg", "--r-end", "0"], "--r-end must be above 0"),
        ([], "nothing to tune"),
    ],
)
def test_the_command_refuses_bad_input(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["spsa", "--out", str(tmp_path / "bad"), "--engine", ENGINE, "nodes=200", *extra]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "bad" / "state.json").exists()


def test_plot_without_a_run_and_a_missing_params_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["spsa", "--out", str(tmp_path), "--plot"]) == 2
    assert "no saved run" in capsys.readouterr().err
    missing = str(tmp_path / "missing.csv")
    assert cli.main(["spsa", "--out", str(tmp_path), "--params", missing, "--nodes", "100"]) == 2
    assert f"cannot read parameters '{missing}'" in capsys.readouterr().err


def test_an_interrupted_command_continues_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games replaced by a deterministic stand-in (the + side wins when its tempo_mg is nearer 30), so
    that an interrupted and resumed run can be compared with one played in one go."""
    from camelpy.arena import match

    calls: list[int] = []

    def fake_match(plus: EngineConfig, minus: EngineConfig, **kwargs: object) -> match.MatchResult:
        calls.append(1)
        if len(calls) == interrupt_at:
            raise KeyboardInterrupt
        distance = {c.name: abs(int(dict(c.options)["tempo_mg"]) - 30) for c in (plus, minus)}
        games = 2 * cast(int, kwargs["rounds"])
        wins = games if distance["plus"] < distance["minus"] else 0
        return match.MatchResult("plus", "minus", wins=wins, losses=games - wins)

    monkeypatch.setattr(match, "run_match", fake_match)

    def command(out: Path) -> list[str]:
        return [
            "spsa", "--out", str(out), "--engine", ENGINE, "nodes=200",
            "--param", "tempo_mg=0,-50,100,4,0.05", "--iterations", "6", "--pairs", "2", "--seed", "9",
        ]  # fmt: skip

    interrupt_at = 0
    assert cli.main(command(tmp_path / "whole")) == 0
    interrupt_at = len(calls) + 4  # the 4th iteration of the second run is interrupted
    assert cli.main(command(tmp_path / "parts")) == 130
    saved = json.loads((tmp_path / "parts" / "state.json").read_text())
    assert len(saved["spsa"]["history"]) == 3
    capsys.readouterr()
    assert cli.main(command(tmp_path / "parts")) == 0
    err = capsys.readouterr().err
    assert "resuming at iteration 4/6" in err and err.count("iteration ") == 4  # the line above, then 3
    whole = json.loads((tmp_path / "whole" / "state.json").read_text())
    parts = json.loads((tmp_path / "parts" / "state.json").read_text())
    assert parts["spsa"] == whole["spsa"] and parts["games"] == whole["games"]
    assert whole["spsa"]["theta"][0] > 0  # moved towards 30


def test_a_run_whose_folder_is_gone_continues_with_carry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--carry iterations=K NAME=VALUE``: the iterations after K, from the values the K-th progress
    line printed, are those of the run played in one go (the same deterministic stand-in for the games)."""
    from camelpy.arena import match

    def fake_match(plus: EngineConfig, minus: EngineConfig, **kwargs: object) -> match.MatchResult:
        distance = {c.name: abs(int(dict(c.options)["tempo_mg"]) - 30) for c in (plus, minus)}
        games = 2 * cast(int, kwargs["rounds"])
        wins = games if distance["plus"] < distance["minus"] else 0
        return match.MatchResult("plus", "minus", wins=wins, losses=games - wins)

    monkeypatch.setattr(match, "run_match", fake_match)

    def command(out: Path, *extra: str) -> list[str]:
        return [
            "spsa", "--out", str(out), "--engine", ENGINE, "nodes=200",
            "--param", "tempo_mg=0,-50,100,4,0.05", "--param", "king_shield_close",
            "--iterations", "6", "--pairs", "2", "--seed", "9", *extra,
        ]  # fmt: skip

    assert cli.main(command(tmp_path / "whole")) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("iteration ")]
    third = lines[2]
    assert third.startswith("iteration 3/6: ")
    values = third.split(") ")[1].split()  # tempo_mg=… king_shield_close=… as --carry takes them
    assert cli.main(command(tmp_path / "rest", "--carry", "iterations=3", *values)) == 0
    captured = capsys.readouterr()
    assert [line for line in captured.err.splitlines() if line.startswith("iteration ")] == lines[3:]
    assert "6/6 iterations, 24 games (the first 3 carried from an earlier run)" in captured.out
    whole = json.loads((tmp_path / "whole" / "state.json").read_text())
    rest = json.loads((tmp_path / "rest" / "state.json").read_text())
    assert rest["games"] == whole["games"][3:] and len(rest["spsa"]["history"]) == 3
    assert rest["spsa"]["carried"]["iterations"] == 3 and "carried" not in whole["spsa"]
    assert rest["spsa"]["theta"] == whole["spsa"]["theta"]
    # The same command resumes its folder, and --plot redraws it; other carried values are another run.
    assert cli.main(command(tmp_path / "rest", "--carry", "iterations=3", *values)) == 0
    assert "iteration " not in capsys.readouterr().err
    assert cli.main(["spsa", "--out", str(tmp_path / "rest"), "--plot"]) == 0
    assert capsys.readouterr().out == captured.out
    assert cli.main(command(tmp_path / "rest", "--carry", "iterations=2", *values)) == 2
    assert "the carried iterations were" in capsys.readouterr().err
    for words, message in (
        (values, "--carry needs iterations=K"),
        (["iterations=3", values[0]], "the carried values lack 'king_shield_close'"),
        (["iterations=3", *values, "tempo_mg=1"], "bad carry word 'tempo_mg=1': 'tempo_mg' is given twice"),
        (["iterations=x", *values], "bad carry word 'iterations=x'"),
        (["iterations=3", "tempo", *values[1:]], "bad carry word 'tempo'"),
        (["iterations=3", *values, "nmp_base=3"], "'nmp_base' is not tuned here"),
        (["iterations=3", "TEMPO_MG=500", *values[1:]], "carried tempo_mg 500.0 outside its range -50..100"),
    ):
        assert cli.main(command(tmp_path / "bad", "--carry", *words)) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and "Traceback" not in err, (words, err)
        assert not (tmp_path / "bad" / "state.json").exists()


def test_time_forfeits_are_counted_per_iteration_and_in_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each iteration's record keeps how its games ended; a progress line names its time forfeits, and the
    result (printed, ``result.txt``, ``--plot``) counts them over the games played here."""
    from camelpy.arena import match

    calls: list[int] = []

    def fake_match(plus: EngineConfig, minus: EngineConfig, **kwargs: object) -> match.MatchResult:
        calls.append(1)
        games = 2 * cast(int, kwargs["rounds"])  # the second iteration loses two games on time
        ended = (
            (("checkmate", games - 2), ("time forfeit", 2)) if len(calls) == 2 else (("checkmate", games),)
        )
        return match.MatchResult("plus", "minus", wins=games // 2, losses=games // 2, terminations=ended)

    monkeypatch.setattr(match, "run_match", fake_match)
    out = tmp_path / "run"
    args = ["spsa", "--out", str(out), "--engine", ENGINE, "nodes=200", "--param", "tempo_mg=0,-50,100,4",
            "--iterations", "3", "--pairs", "2", "--seed", "9"]  # fmt: skip
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("iteration ")]
    assert [", 2 time forfeits (" in line for line in lines] == [False, True, False]
    assert "# time forfeits: 2 in the 12 games played here" in captured.out
    assert "# time forfeits: 2 in the 12 games played here" in (out / "result.txt").read_text()
    assert json.loads((out / "state.json").read_text())["games"][1]["terminations"] == {
        "checkmate": 2, "time forfeit": 2}  # fmt: skip
    assert cli.main(["spsa", "--out", str(out), "--plot"]) == 0
    assert capsys.readouterr().out == captured.out
    state = json.loads((out / "state.json").read_text())
    state["games"][1]["terminations"]["time forfeit"] = "two"
    (out / "state.json").write_text(json.dumps(state))
    assert cli.main(["spsa", "--out", str(out), "--plot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "is malformed" in err and "Traceback" not in err


def test_kill_stops_the_command_as_ctrl_c_does_and_it_resumes(tmp_path: Path) -> None:
    """SIGTERM (``kill``; what stops a run started in the background) after the first whole iteration:
    status 130, the iterations played are kept, and the same command continues from them."""
    out = tmp_path / "run"
    command = [
        sys.executable, "-m", "camelpy", "spsa", "--out", str(out), "--engine", ENGINE, "nodes=100",
        "--param", "tempo_mg=12,-50,100,5", "--iterations", "200", "--pairs", "1", "--seed", "3",
        "--openings", str(DATA / "balanced.epd"), "--concurrency", "1", "--maxmoves", "40",
    ]  # fmt: skip

    def iterations() -> int:
        try:
            return len(json.loads((out / "state.json").read_text())["games"])
        except (OSError, ValueError):  # not written yet, or being replaced
            return 0

    status, err = terminate_when(command, lambda: iterations() >= 1)
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    kept = iterations()
    assert 1 <= kept < 200
    # The same command continues after the iterations kept (stopped again one iteration later).
    status, err = terminate_when(command, lambda: iterations() > kept)
    assert status == 130 and f"resuming at iteration {kept + 1}/200" in err, err

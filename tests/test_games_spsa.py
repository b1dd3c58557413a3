"""``camelpy leiserchess spsa`` and ``camelpy minichess spsa``: the small games' weights tuned by SPSA over
in-process self-play — a misvalued weight moves the right way, a run replays exactly and resumes, bad
input is refused quoting it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CAMELPY = [sys.executable, "-m", "camelpy"]


def _spsa(game: str, out: Path, *words: str) -> subprocess.CompletedProcess[str]:
    command = [*CAMELPY, game, "spsa", "--out", str(out), *words]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_an_undervalued_queen_is_raised(tmp_path: Path) -> None:
    # MiniChess's queen at 100 (its default is 900): the games say it is worth more, and SPSA follows.
    words = ["--param", "queen=100,0,2000,150,0.01", "--iterations", "30", "--pairs", "4", "--nodes", "300"]
    result = _spsa("minichess", tmp_path / "q", *words, "--seed", "2")
    assert result.returncode == 0, result.stderr
    state = json.loads((tmp_path / "q" / "state.json").read_text())
    theta = state["spsa"]["theta"][0]
    assert theta > 200, theta
    assert len(state["games"]) == 30
    for record in state["games"]:
        assert record["wins"] + record["draws"] + record["losses"] == 8
        assert sum(record["pentanomial"]) == 4
    assert "iteration 30/30" in result.stderr
    assert f"setoption name queen value {round(theta)}" in result.stdout
    assert (tmp_path / "q" / "spsa.png").stat().st_size > 0
    assert (
        (tmp_path / "q" / "tuned.csv").read_text().splitlines()[1].startswith(f"queen,{round(theta)},0,2000,")
    )


def test_a_leiserchess_run_replays_exactly_and_a_finished_one_is_not_played_again(tmp_path: Path) -> None:
    words = ["--param", "king_face", "--param", "pawn_pinned=0,-200,200,8", "--iterations", "3"]
    words += ["--pairs", "2", "--nodes", "300", "--seed", "5"]
    first = _spsa("leiserchess", tmp_path / "a", *words, "--threads", "2")
    # Names match in any case, as UCI option names do, and are kept as the game spells them.
    second = _spsa("leiserchess", tmp_path / "b", *[w.replace("king_face", "KING_FACE") for w in words])
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    a, b = (json.loads((tmp_path / d / "state.json").read_text()) for d in "ab")
    assert a["spsa"] == b["spsa"] and a["games"] == b["games"]  # threads change nothing
    assert a["run"] == {"game": "camelpy leiserchess spsa", "nodes": 300, "random_plies": 2, "rules": 2016}
    assert [g["seed"] for g in a["games"]] == [5 * 2**32 + k for k in range(3)]
    # king_face alone: the game's default and bounds, a twentieth of the range as c_end.
    assert a["spsa"]["params"][0] | {"r_end": 0} == {
        "name": "king_face",
        "default": 127,
        "minimum": -200,
        "maximum": 200,
        "c_end": 20.0,
        "r_end": 0,
        "integer": True,
    }
    again = _spsa("leiserchess", tmp_path / "a", *words)
    assert again.returncode == 0 and "iteration" not in again.stderr
    assert again.stdout == first.stdout
    other = _spsa("leiserchess", tmp_path / "a", *words[:-4], "--nodes", "400", "--seed", "5")
    assert (
        other.returncode == 2
        and "holds a run whose games differ in nodes;" in other.stderr
        and '"nodes": 300' in other.stderr
    )
    plot = _spsa("leiserchess", tmp_path / "a", "--plot")
    assert plot.returncode == 0 and plot.stdout == first.stdout
    # Carried from its first iteration's line (the folder gone), the run goes on as it went.
    line = next(line for line in first.stderr.splitlines() if line.startswith("iteration 1/3: "))
    theta = line.split(") ")[1].split()  # king_face=… pawn_pinned=…
    rest = _spsa("leiserchess", tmp_path / "c", *words, "--carry", "iterations=1", *theta)
    assert rest.returncode == 0, rest.stderr
    c = json.loads((tmp_path / "c" / "state.json").read_text())
    assert c["games"] == a["games"][1:] and c["spsa"]["theta"] == a["spsa"]["theta"]
    assert c["spsa"]["history"] == a["spsa"]["history"][1:]


@pytest.mark.parametrize(
    ("game", "words", "message"),
    [
        ("leiserchess", ["--param", "queen"], "no spin option 'queen'"),
        (
            "leiserchess",
            ["--param", "king_face=127,-300,200,10"],
            "min -300 is below the engine's minimum -200",
        ),
        ("leiserchess", ["--param", "king_face", "--seed", str(2**31)], "--seed must be"),
        ("leiserchess", ["--param", "king_face", "--nodes", "0"], "--nodes must be"),
        ("leiserchess", [], "nothing to tune"),
        ("minichess", ["--param", "queen"], "the game does not bound 'queen': give queen=DEFAULT,MIN,MAX"),
        ("minichess", ["--param", "QUEEN"], "the game does not bound 'queen': give queen=DEFAULT,MIN,MAX"),
        ("minichess", ["--param", "queen=900,0,2000,-5"], "c_end must be above 0"),
    ],
)
def test_bad_input_is_refused_quoting_it(tmp_path: Path, game: str, words: list[str], message: str) -> None:
    result = _spsa(game, tmp_path / "bad", *words)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr, result.stderr
    assert not (tmp_path / "bad").exists()  # nothing written for a refused run

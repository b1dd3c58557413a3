"""camelpy tournament: the rating fit on synthetic games, schedules, and a small real tournament."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import chess.pgn
import pytest
from camelpy.arena import ratings, tournament

from tests.runs import logged_games, terminate_after_a_game

DATA = Path(__file__).resolve().parent / "data"
FAKE = f"{sys.executable} {DATA / 'tools' / 'fake_engine.py'}"


def _games(a: str, b: str, wins: int, draws: int, losses: int) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


def test_two_players_match_the_closed_form() -> None:
    # 30 wins, 20 draws, 10 losses: score 40/60 = 2/3, so the MLE difference is 400·log10(2) Elo, and the
    # Fisher information is n·p(1-p) per natural-logit unit squared (p = 2/3, n = 60).
    table = ratings.fit_ratings(_games("a", "b", 30, 20, 10), anchor="b", anchor_elo=1500)
    by = {r.name: r for r in table.ratings}
    assert by["b"].elo == 1500 and by["b"].error == 0
    assert by["a"].elo == pytest.approx(1500 + 400 * math.log10(2), abs=1e-6)
    se = 1 / math.sqrt(60 * (2 / 3) * (1 / 3)) * 400 / math.log(10)
    assert by["a"].error == pytest.approx(1.959963984540054 * se, rel=1e-6)
    assert (by["a"].games, by["a"].score) == (60, 40.0) and not table.regularized


def _loglik(games: list[tuple[str, str, float]], elo: dict[str, float]) -> float:
    total = 0.0
    for a, b, s in games:
        p = 1 / (1 + 10 ** (-(elo[a] - elo[b]) / 400))
        total += s * math.log(p) + (1 - s) * math.log(1 - p)
    return total


def test_three_players_likelihood_is_maximal_and_scores_balance() -> None:
    games = _games("a", "b", 12, 10, 8) + _games("b", "c", 15, 9, 6) + _games("a", "c", 17, 8, 5)
    table = ratings.fit_ratings(games, anchor="c")
    elo = {r.name: r.elo for r in table.ratings}
    assert [r.name for r in table.ratings] == ["a", "b", "c"]
    # The likelihood equations: every player's expected score equals the score made.
    for r in table.ratings:
        expected = 0.0
        for a, b, _ in games:
            if r.name in (a, b):
                other = b if r.name == a else a
                expected += 1 / (1 + 10 ** (-(elo[r.name] - elo[other]) / 400))
        assert expected == pytest.approx(r.score, abs=1e-8)
    # And an independent check by brute force: no nearby point on a 1-Elo grid is more likely.
    best = _loglik(games, elo)
    for name in ("a", "b"):
        for delta in (-1.0, 1.0):
            moved = dict(elo)
            moved[name] += delta
            assert _loglik(games, moved) < best


def test_perfect_score_is_regularized_and_missing_anchor_is_an_error() -> None:
    table = ratings.fit_ratings(_games("a", "b", 4, 0, 0) + _games("b", "c", 2, 2, 2), anchor="c")
    assert table.regularized and table.ratings[0].name == "a" and math.isfinite(table.ratings[0].elo)
    assert "virtual draw" in str(table)
    with pytest.raises(ValueError, match="'z'"):
        ratings.fit_ratings(_games("a", "b", 1, 0, 1), anchor="z")


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(body)
    return path


PLAYERS = f"""
[each]
nodes = 1
timemargin = 50

[[players]]
name = "r1"
cmd = "{FAKE} random --seed 1"

[[players]]
name = "r2"
cmd = "{FAKE} random --seed 2"
family = "rand"

[[players]]
name = "weak"
cmd = "{FAKE} illegal --after 2"
"""


def test_schedules_gauntlet_round_robin_and_families() -> None:
    config = tournament.parse_config(PLAYERS)
    assert tournament.pairings(config) == [(0, 1), (0, 2), (1, 2)]
    gauntlet = tournament.parse_config('format = "gauntlet"\nrounds = 2\n' + PLAYERS)
    specs = tournament.schedule(gauntlet)
    assert tournament.pairings(gauntlet) == [(0, 1), (0, 2)] and len(specs) == 8
    assert specs[0].round_label == "1.1.1" and specs[-1].round_label == "2.4.2"
    family = tournament.parse_config(PLAYERS.replace('name = "r1"', 'name = "r1"\nfamily = "rand"'))
    assert tournament.pairings(family) == [(0, 2), (1, 2)]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[[players]]\nname = 'a'\ncmd = 'x'\nnodes = 1\n", "at least two"),
        ("colour = 'x'\n" + PLAYERS, "colour"),
        ('format = "swiss"\n' + PLAYERS, "swiss"),
        ('anchor = "nobody"\n' + PLAYERS, "nobody"),
        (PLAYERS.replace("nodes = 1", "nodes = -1"), "nodes must be at least 1, got -1"),
        ("players = [", "bad TOML"),
    ],
)
def test_bad_configs(text: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        tournament.parse_config(text)


def test_round_robin_plays_writes_pgn_and_rates(tmp_path: Path) -> None:
    path = _config(
        tmp_path, 'anchor = "r1"\nconcurrency = 2\nout = "out"\n[adjudication]\nmaxmoves = 30\n' + PLAYERS
    )
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "tournament", str(path), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Games: 6" in done.stdout and "r1 anchored" in done.stdout
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [row[1] for row in rows][-1] == "weak"  # it loses every game by an illegal move
    with (tmp_path / "out" / "games.pgn").open() as f:
        games = [g for g in iter(lambda: chess.pgn.read_game(f), None)]
    assert len(games) == 6 and all(not g.errors for g in games)
    assert (tmp_path / "out" / "ratings.txt").read_text().startswith("rank")


@pytest.mark.parametrize("game", ["chess", "leiserchess"])
def test_sigterm_stops_a_tournament_with_its_games_kept_and_rated(tmp_path: Path, game: str) -> None:
    if game == "chess":
        players = "".join(f'[[players]]\nname = "{n}"\ncmd = "{FAKE} random --seed {n}"\n' for n in "ab")
        text = f'rounds = 500\nout = "out"\n[each]\nnodes = 1\n{players}'
    else:
        engine = f"{sys.executable} -m camelpy leiserchess"
        players = "".join(f'[[players]]\nname = "{n}"\ncmd = "{engine}"\ndepth = 1\n' for n in "ab")
        text = f'game = "leiserchess"\nrounds = 500\nout = "out"\n{players}'
    log = tmp_path / "out" / "games.jsonl"
    command = [sys.executable, "-m", "camelpy", "tournament", str(_config(tmp_path, text)), "--quiet"]
    status, err = terminate_after_a_game(command, log)
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert 1 <= logged_games(log) < 1000
    # The games played are rated, as at the end of a whole tournament.
    rated = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    rated = [g for g in rated if g["result"] != "*"]
    rows = (tmp_path / "out" / "ratings.txt").read_text().splitlines()[1:3]
    assert {row.split()[1]: int(row.split()[4]) for row in rows} == {"a": len(rated), "b": len(rated)}

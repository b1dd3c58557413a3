"""The match statistics (camelpy.arena.stats) against figures computed independently.

Where the reference numbers come from:

* GSPRT LLRs: a generic constrained optimizer, not the secular equation the module uses. For each case
  the multinomial log-likelihood ``Σ p̂ᵢ·ln pᵢ`` was maximized with ``scipy.optimize.minimize(method=
  "SLSQP", ftol=1e-15)`` under ``Σ pᵢ = 1`` and the hypothesis' constraint (mean score ``L(elo)`` for
  the logistic model, ``(μ - ½) - t·σ = 0`` with ``t = nelo/(800/ln 10)`` (× √2 for pairs) for the
  normalized one), empty cells replaced by 1e-3 as fishtest does; LLR = N·(max under H1 - max under
  H0). scipy 1.17.1, 2026-11-22; the inputs of the first two cases are the examples in fishtest's
  ``server/fishtest/stats/stat_util.py``. The script is quoted in the project's tools report.
* The trinomial logistic LLR is also re-derived here by a 1-D golden-section search (no scipy).
* Elo, LOS and nElo for 60 wins / 20 draws / 20 losses are worked by hand in the comments.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import pytest
from camelpy.arena import stats

SLSQP_REFERENCES = [
    # (results low to high, elo0, elo1, model, LLR from SLSQP)
    ((39, 2226, 31451, 2412, 40), 0.764, 3.439, "normalized", 2.162940870998845),
    ((10789, 19328, 33806, 19402, 10543), -3, 1, "logistic", 2.1310678117565063),
    ((10789, 19328, 33806, 19402, 10543), -1.75, 0.25, "normalized", -0.6271679157506727),
    ((3, 15, 30, 20, 5), 0, 2, "normalized", 0.0740043267361159),
    ((0, 5, 20, 8, 1), 0, 5, "normalized", 0.14208031806648774),
    ((65804, 56553, 65388), -3, 1, "logistic", 2.049042617967155),
    ((130, 200, 170), 0, 10, "normalized", 1.2794961789138748),
]


@pytest.mark.parametrize(("results", "elo0", "elo1", "model", "expected"), SLSQP_REFERENCES)
def test_llr_matches_generic_constrained_optimizer(
    results: tuple[int, ...], elo0: float, elo1: float, model: str, expected: float
) -> None:
    llr = stats.SPRT(elo0, elo1, model=model).llr(results)
    assert llr == pytest.approx(expected, abs=1e-7)


def _golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(200):
        c, d = b - g * (b - a), a + g * (b - a)
        if f(c) > f(d):
            b = d
        else:
            a = c
    return f((a + b) / 2)


def test_trinomial_logistic_llr_by_golden_section() -> None:
    # With scores 0, ½, 1 and mean s fixed, the distributions form a line: p_draw = x,
    # p_win = s - x/2, p_loss = 1 - s - x/2; maximize the log-likelihood along it.
    losses, draws, wins = 130, 200, 170
    n = losses + draws + wins

    def best(s: float) -> float:
        def loglik(x: float) -> float:
            return (losses * math.log(1 - s - x / 2) + draws * math.log(x) + wins * math.log(s - x / 2)) / n

        return _golden_max(loglik, 1e-12, min(2 * s, 2 * (1 - s)) - 1e-12)

    s0, s1 = stats.score_from_elo(0), stats.score_from_elo(10)
    expected = n * (best(s1) - best(s0))
    assert stats.llr_logistic(0, 10, (losses, draws, wins)) == pytest.approx(expected, abs=1e-8)


def test_normalized_llr_close_to_its_closed_form_approximation() -> None:
    results = (39, 2226, 31451, 2412, 40)
    exact = stats.llr_normalized(0.764, 3.439, results)
    assert stats.llr_normalized_approx(0.764, 3.439, results) == pytest.approx(exact, rel=0.02)


def test_elo_of_known_scores() -> None:
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 1/0.75 - 1 = 1/3
    assert stats.score_from_elo(400 * math.log10(3)) == pytest.approx(0.75)
    assert stats.elo_from_score(1.0) == pytest.approx(400 * math.log10(999))  # clamped at 0.999


def test_elo_interval_los_and_nelo_worked_by_hand() -> None:
    results = (20, 20, 60)  # 20 losses, 20 draws, 60 wins
    # mean 0.7; variance 0.2·0.7² + 0.2·0.2² + 0.6·0.3² = 0.16, σ = 0.4; standard error 0.4/√100 = 0.04.
    z = 1.959963984540054
    est = stats.elo_estimate(results)
    assert est.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert est.lower == pytest.approx(-400 * math.log10(1 / (0.7 - z * 0.04) - 1))
    assert est.upper == pytest.approx(-400 * math.log10(1 / (0.7 + z * 0.04) - 1))
    # LOS = Φ(0.2/0.04) = Φ(5) = 0.99999971334842808 (standard normal table).
    assert stats.los(results) == pytest.approx(0.99999971334842808, abs=1e-12)
    # nElo = (0.7 - 0.5)/0.4 · 800/ln 10 = 0.5 · 347.4355855226015 = 173.71779276130074.
    nelo = stats.normalized_elo(results)
    assert nelo.elo == pytest.approx(173.71779276130074)
    assert nelo.error == pytest.approx(z * 0.04 / 0.4 * 347.4355855226015)


def test_pentanomial_interval_uses_pair_variance() -> None:
    # Pairs 1,1,1,1 (all ½ per game): zero variance except the regularized empty cells.
    balanced = stats.elo_estimate((0, 0, 50, 0, 0))
    assert balanced.elo == pytest.approx(0.0, abs=1e-6) and balanced.error < 2.0
    assert stats.normalized_elo((5, 10, 20, 10, 5)).elo == pytest.approx(0.0, abs=1e-9)


def test_pentanomial_counts_pairs() -> None:
    assert stats.pentanomial([0, 0.5, 1, 1, 1.5, 2, 2]) == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError, match="0.75"):
        stats.pentanomial([0.75])


def test_sprt_bounds_and_stopping() -> None:
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    test = stats.SPRT(elo0=0, elo1=5)
    assert test.status((0, 0, 0, 0, 0)) is None and test.llr((0, 0, 0, 0, 0)) == 0.0
    assert test.status((30, 500, 1500, 300, 5)) == "H0"
    assert test.status((5, 300, 1500, 500, 30)) == "H1"


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"elo0": 5, "elo1": 0}, "elo0"), ({"alpha": 1.5}, "1.5"), ({"model": "bayes"}, "bayes")],
)
def test_sprt_rejects_bad_parameters(kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        stats.SPRT(**kwargs)


def test_bad_result_vectors() -> None:
    with pytest.raises(ValueError, match=r"\[1, 2\]"):
        stats.elo_estimate([1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        stats.los([1, -1, 2])

"""Match statistics: W/D/L and pentanomial counts, logistic and normalized Elo with 95 % intervals, LOS,
and the generalized SPRT (GSPRT) as fishtest computes it.

Result vectors are counted from worst to best, the way fishtest writes them: a *trinomial*
``(losses, draws, wins)`` with per-game scores 0, ½, 1, or a *pentanomial* of game pairs (one opening,
colours swapped) ``(LL, LD+DL, LW+DD+WL, DW+WD, WW)`` with pair scores 0, ¼, ½, ¾, 1.

The formulas (see the project's ``ecosystem.md`` §5.1):

* logistic Elo ``E = -400·log10(1/s - 1)`` of the mean score ``s``; its 95 % interval maps
  ``s ± 1.96·σ/√N`` through the same function (fishtest ``stat_util.get_elo``);
* LOS ``= Φ((s - ½)/(σ/√N))``;
* normalized Elo ``nElo = (s - ½)/σ_game · 800/ln 10``, with ``σ_game = √2·σ_pair`` for pairs;
* the GSPRT log-likelihood ratio ``LLR = N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ)``, where ``p0``/``p1`` are the maximum
  likelihood distributions, closest to the empirical ``p̂``, whose t-value ``(μ - ½)/σ`` equals the one
  that ``elo0``/``elo1`` imply (normalized model) or whose mean equals ``L(elo0)``/``L(elo1)``
  (logistic model). Empty cells are replaced by 1e-3 first, as fishtest's ``regularize`` does. The
  constrained maximum is found from the secular equation ``Σ p̂ᵢ·aᵢ/(1 + λ·aᵢ) = 0``
  (https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf, Proposition 1.1), iterated for the
  t-value (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf, §4.1).

>>> round(elo_from_score(0.75), 2)
190.85
>>> est = elo_estimate((20, 20, 60))   # 20 losses, 20 draws, 60 wins
>>> round(est.elo, 1), round(est.lower, 1), round(est.upper, 1)
(147.2, 86.2, 218.3)
>>> SPRT(elo0=0, elo1=5).bounds
(-2.9444389791664403, 2.9444389791664403)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

from camelpy._args import choice_arg, items_arg, real_arg, shown

__all__ = [
    "NELO_PER_T",
    "EloEstimate",
    "SPRT",
    "elo_estimate",
    "elo_from_score",
    "llr_logistic",
    "llr_normalized",
    "llr_normalized_approx",
    "los",
    "normalized_elo",
    "pentanomial",
    "score_from_elo",
    "sprt_bounds",
    "carried",
    "tally",
    "Tally",
]

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (s - ½)/σ_game: the slope of logistic Elo at s = ½ times σ = ½."""

REGULARIZE_EPSILON = 1e-3
"""Stand-in for an empty result cell, so logarithms and variances stay finite (fishtest's value)."""

MAX_EXPONENT = 300.0
"""Beyond an Elo of -120,000 (``10**300`` in the logistic) the expected score is 0 to double precision,
and ``10**309`` overflows."""

SCORE_CLAMP = 1e-3
"""Scores are clamped to [ε, 1 - ε] before conversion to Elo, so 100 % wins gives a large finite Elo."""

CONFIDENCE = 0.95
"""Two-sided confidence level of the reported Elo intervals."""

SECULAR_ITERATIONS = 200
"""Bisection steps for the secular equation: each halves the bracket, 200 reach double precision."""

T_VALUE_ITERATIONS = 10
"""Fixed-point rounds for the t-value MLE; fishtest uses 10, and it converges in 3-6 in practice."""

T_VALUE_TOLERANCE = 1e-9
"""The t-value MLE stops when no probability moves by more than this."""


def score_from_elo(elo: float) -> float:
    """Expected score of a player *elo* points stronger, in the logistic model.

    >>> score_from_elo(0.0), round(score_from_elo(400.0), 6), score_from_elo(-1e30)
    (0.5, 0.909091, 0.0)

    :raises: :exc:`TypeError` for an *elo* that is not a number, :exc:`ValueError` for NaN.
    """
    exponent = -real_arg(elo, "elo", infinite=True) / 400.0
    return 0.0 if exponent > MAX_EXPONENT else 1.0 / (1.0 + math.pow(10.0, exponent))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for a mean score in [0, 1] (clamped to [0.001, 0.999]).

    >>> round(elo_from_score(0.25), 2)
    -190.85

    :raises: :exc:`TypeError` for a *score* that is not a number, :exc:`ValueError` for NaN.
    """
    s = min(max(real_arg(score, "score", infinite=True), SCORE_CLAMP), 1.0 - SCORE_CLAMP)
    return -400.0 * math.log10(1.0 / s - 1.0)


def _check(results: Sequence[float]) -> list[float]:
    """The counts of a result vector as floats: a list (not a string) of 3 or 5 finite, non-negative
    numbers.

    :raises: :exc:`TypeError` for something else than a list of numbers, :exc:`ValueError` for a wrong
        length or a negative, infinite or NaN count."""
    items = items_arg(results, "results")
    if len(items) not in (3, 5):
        raise ValueError(f"expected 3 (L, D, W) or 5 (pentanomial) result counts, got {shown(items)}")
    try:
        return [real_arg(x, "a result count", minimum=0) for x in items]
    except ValueError:
        raise ValueError(f"result counts must be finite and non-negative, got {shown(items)}") from None


def _regularize(results: Sequence[float]) -> list[float]:
    return [x if x > 0 else REGULARIZE_EPSILON for x in _check(results)]


def _pdf(results: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """(N, [(score_i, p̂_i)]) with scores 0 .. 1 evenly spaced and empty cells regularized."""
    counts = _regularize(results)
    n = sum(counts)
    last = len(counts) - 1
    return n, [(i / last, c / n) for i, c in enumerate(counts)]


def _mean_var(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


@dataclasses.dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95 % confidence interval.

    >>> EloEstimate(10.0, -5.0, 25.0).error
    15.0
    """

    elo: float
    """Point estimate."""
    lower: float
    """Lower end of the 95 % interval."""
    upper: float
    """Upper end of the 95 % interval."""

    @property
    def error(self) -> float:
        """Half the interval's width: the ``±`` figure."""
        return (self.upper - self.lower) / 2.0

    def __str__(self) -> str:
        return f"{self.elo:+.2f} +/- {self.error:.2f}"


def _games_mean_sd(results: Sequence[float]) -> tuple[float, float, float]:
    """(samples, mean per-game score, standard deviation of one sample's per-game score)."""
    n, pdf = _pdf(results)
    mean, var = _mean_var(pdf)
    return n, mean, math.sqrt(var)


def elo_estimate(results: Sequence[float]) -> EloEstimate:
    """Logistic Elo with a 95 % interval from ``(L, D, W)`` or a pentanomial (then the interval uses the
    variance of game pairs, which is smaller when openings are unbalanced).

    >>> str(elo_estimate((0, 10, 30, 10, 0)))
    '+0.00 +/- 30.54'
    """
    n, mean, sd = _games_mean_sd(results)
    z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
    half = z * sd / math.sqrt(n)
    return EloEstimate(elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half))


def los(results: Sequence[float]) -> float:
    """Likelihood of superiority: the probability that the first player is the stronger one.

    >>> round(los((20, 20, 60)), 4)
    1.0
    >>> los((10, 5, 10))
    0.5
    """
    n, mean, sd = _games_mean_sd(results)
    if sd == 0:
        return 0.5
    return NormalDist().cdf((mean - 0.5) / (sd / math.sqrt(n)))


def normalized_elo(results: Sequence[float]) -> EloEstimate:
    """Normalized Elo ``(s - ½)/σ_game · 800/ln 10`` with a 95 % interval; for a pentanomial the per-game
    deviation is ``√2·σ_pair``.

    >>> str(normalized_elo((20, 20, 60)))
    '+173.72 +/- 68.10'
    """
    n, mean, sd = _games_mean_sd(results)
    scale = math.sqrt(2.0) if len(results) == 5 else 1.0
    sigma_game = sd * scale
    z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
    nelo = (mean - 0.5) / sigma_game * NELO_PER_T
    half = z * sd / math.sqrt(n) / sigma_game * NELO_PER_T
    return EloEstimate(nelo, nelo - half, nelo + half)


def pentanomial(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """Counts game pairs by the first player's total over both games (0, ½, 1, 1½ or 2 points).

    >>> pentanomial([1.0, 2.0, 1.5, 1.0, 0.0])
    (1, 0, 2, 1, 1)
    """
    counts = [0, 0, 0, 0, 0]
    for score in items_arg(pair_scores, "pair_scores"):
        index = round(real_arg(score, "a pair score") * 2)
        if not 0 <= index <= 4 or abs(index - score * 2) > 1e-9:
            raise ValueError(f"a pair score must be 0, 0.5, 1, 1.5 or 2, got {score!r}")
        counts[index] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


@dataclasses.dataclass(frozen=True)
class Tally:
    """One player's games counted: wins, draws, losses and the pentanomial of its complete game pairs."""

    wins: int
    draws: int
    losses: int
    pentanomial: tuple[int, int, int, int, int]

    @property
    def results(self) -> tuple[int, ...]:
        """What the Elo estimate and the SPRT read: the pentanomial once a pair is complete, else the
        trinomial (losses, draws, wins)."""
        return self.pentanomial if sum(self.pentanomial) else (self.losses, self.draws, self.wins)

    def __add__(self, other: Tally) -> Tally:
        """Both counts together: a match's games and those carried from an earlier run (:func:`carried`).

        >>> Tally(1, 1, 0, (0, 0, 0, 1, 0)) + Tally(0, 2, 0, (0, 0, 1, 0, 0))
        Tally(wins=1, draws=3, losses=0, pentanomial=(0, 0, 1, 1, 0))
        """
        if not isinstance(other, Tally):
            return NotImplemented
        p, q = self.pentanomial, other.pentanomial
        return Tally(
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
            (p[0] + q[0], p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]),
        )


def carried(wins: int, draws: int, losses: int, pentanomial: Sequence[int]) -> Tally:
    """The complete game pairs of an earlier run of the same match, as its summary gives them (``Wins``,
    ``Draws``, ``Losses``, ``Ptnml(0-2)``), checked to be one set of pairs, so that a match continued
    elsewhere (``camelpy match --carry``) counts them in its Elo and its SPRT.

    The counts must agree: two games a pair (``wins + draws + losses == 2·sum(pentanomial)``: only
    whole pairs carry; leave out the last game of a run stopped inside a pair) and the same points
    (``2·wins + draws`` half-points equal the pentanomial's, a pair worth 0 to 4 half-points).

    >>> carried(245, 151, 46, (1, 14, 58, 81, 67))
    Tally(wins=245, draws=151, losses=46, pentanomial=(1, 14, 58, 81, 67))
    >>> carried(1, 0, 0, (0, 0, 0, 1, 0))
    Traceback (most recent call last):
    ...
    ValueError: carried games must be whole pairs: 1 games (+1 =0 -0) for 1 pairs in Ptnml [0, 0, 0, 1, 0]

    :raises: :exc:`TypeError` for a count that is not an integer or a *pentanomial* that is not a list,
        :exc:`ValueError` for a pentanomial of other than five counts, a negative count or counts that
        disagree.
    """
    cells = items_arg(pentanomial, "pentanomial")
    counts = [wins, draws, losses, *cells]
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"carried counts must be integers, got {type(count).__name__} {shown(count)}")
    if len(cells) != 5:
        raise ValueError(f"a pentanomial has five counts, got {len(cells)}: {cells}")
    if min(counts) < 0:
        raise ValueError(f"carried counts cannot be negative, got {counts}")
    p = (cells[0], cells[1], cells[2], cells[3], cells[4])
    games, pairs = wins + draws + losses, sum(p)
    shown_counts = f"{games} games (+{wins} ={draws} -{losses}) for {pairs} pairs in Ptnml {list(p)}"
    if games != 2 * pairs:
        raise ValueError(f"carried games must be whole pairs: {shown_counts}")
    if 2 * wins + draws != sum(i * n for i, n in enumerate(p)):
        raise ValueError(f"carried points disagree with the pentanomial's: {shown_counts}")
    return Tally(wins, draws, losses, p)


def tally(points: Iterable[tuple[int, float]]) -> Tally:
    """Counts one player's *points* in each game (1, ½ or 0), each given with its game pair's index, as
    every match of the arena does, whatever the game.

    >>> t = tally([(0, 1.0), (0, 0.5), (1, 0.0)])
    >>> t.wins, t.draws, t.losses, t.pentanomial, t.results
    (1, 1, 1, (0, 0, 0, 1, 0), (0, 0, 0, 1, 0))
    >>> tally([(0, 1.0)]).results
    (0, 0, 1)
    """
    wins = draws = losses = 0
    pairs: dict[int, list[float]] = {}
    for pair, score in points:
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
        pairs.setdefault(pair, []).append(score)
    return Tally(wins, draws, losses, pentanomial(sum(p) for p in pairs.values() if len(p) == 2))


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The root λ of ``Σ pᵢ·aᵢ/(1 + λ·aᵢ) = 0`` that keeps every ``1 + λ·aᵢ`` positive.

    The left side falls strictly on that interval, so bisection finds the one root."""
    values = [a for a, _ in pdf]
    lo_a, hi_a = min(values), max(values)
    if not lo_a < 0 < hi_a:
        raise ValueError("the target lies outside the observed results' range")
    lo, hi = -1.0 / hi_a, -1.0 / lo_a

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(SECULAR_ITERATIONS):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _mle_mean(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same scores, with mean *s*, that maximizes the likelihood of *pdf*."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def _mle_t_value(pdf: Sequence[tuple[float, float]], ref: float, t: float) -> list[tuple[float, float]]:
    """The distribution with t-value ``(μ - ref)/σ = t`` that maximizes the likelihood of *pdf*: a fixed
    point of the secular equation with the constraint linearized around the current σ and μ."""
    mle = [(a, 1.0 / len(pdf)) for a, _ in pdf]
    for _ in range(T_VALUE_ITERATIONS):
        mean, var = _mean_var(mle)
        sigma = math.sqrt(var)
        shifted = [(a - ref - t * sigma * (1.0 + ((mean - a) / sigma) ** 2) / 2.0, p) for a, p in pdf]
        x = _secular(shifted)
        new = [(a, p / (1.0 + x * b)) for (a, p), (b, _) in zip(pdf, shifted)]
        moved = max(abs(q - r) for (_, q), (_, r) in zip(new, mle))
        mle = new
        if moved < T_VALUE_TOLERANCE:
            break
    return mle


def _llr(
    pdf: Sequence[tuple[float, float]], p0: Sequence[tuple[float, float]], p1: Sequence[tuple[float, float]]
) -> float:
    return sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def llr_logistic(elo0: float, elo1: float, results: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1 (logistic Elo = *elo1*) against H0 (= *elo0*).

    >>> round(llr_logistic(0, 5, (10, 20, 30)), 4)
    0.4232

    :raises: :exc:`ValueError` for an Elo whose expected score rounds to 0 or 1 (no result has it).
    """
    n, pdf = _pdf(results)
    scores = []
    for name, elo in (("elo0", elo0), ("elo1", elo1)):
        score = score_from_elo(real_arg(elo, name))
        if not 0.0 < score < 1.0:
            raise ValueError(f"{name} must give an expected score strictly between 0 and 1, got {shown(elo)}")
        scores.append(score)
    return n * _llr(pdf, _mle_mean(pdf, scores[0]), _mle_mean(pdf, scores[1]))


def llr_normalized(nelo0: float, nelo1: float, results: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1 (normalized Elo = *nelo1*) against H0 (= *nelo0*), fishtest's
    default model for new tests; use a pentanomial so game pairs are counted right.

    >>> round(llr_normalized(0, 2, (100, 2000, 4000, 2100, 120)), 4)
    1.1977

    :raises: :exc:`ValueError` when no distribution on the results' scores has the t-value an Elo
        implies (hundreds of nElo; :meth:`SPRT.llr` then uses :func:`llr_normalized_approx`).
    """
    counts = _check(results)
    n, pdf = _pdf(counts)
    # A pair's score has t-value √2 times a game's: σ_pair = σ_game/√2 for the same mean.
    scale = math.sqrt(2.0) if len(counts) == 5 else 1.0
    t0 = real_arg(nelo0, "nelo0") / NELO_PER_T * scale
    t1 = real_arg(nelo1, "nelo1") / NELO_PER_T * scale
    try:
        return n * _llr(pdf, _mle_t_value(pdf, 0.5, t0), _mle_t_value(pdf, 0.5, t1))
    except ValueError as err:
        raise ValueError(f"nelo0 {shown(nelo0)} or nelo1 {shown(nelo1)} is out of reach: {err}") from None


def llr_normalized_approx(nelo0: float, nelo1: float, results: Sequence[float]) -> float:
    """The closed-form approximation ``(games/2)·ln[(1 + (t - t0)²)/(1 + (t - t1)²)]`` of
    :func:`llr_normalized` (normalized_elo_practical.pdf §4.2); close to it for small Elo differences.

    >>> round(llr_normalized_approx(0, 2, (100, 2000, 4000, 2100, 120)), 2)
    1.2
    """
    counts = _check(results)
    n, pdf = _pdf(counts)
    mean, var = _mean_var(pdf)
    sigma_game, games = (math.sqrt(2 * var), 2 * n) if len(counts) == 5 else (math.sqrt(var), n)
    t = (mean - 0.5) / sigma_game
    t0, t1 = real_arg(nelo0, "nelo0") / NELO_PER_T, real_arg(nelo1, "nelo1") / NELO_PER_T
    return games / 2.0 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds ``(ln(β/(1-α)), ln((1-β)/α))`` on the LLR.

    >>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    if not (0 < real_arg(alpha, "alpha") < 1 and 0 < real_arg(beta, "beta") < 1):
        raise ValueError(f"alpha and beta must lie strictly between 0 and 1, got {alpha!r}, {beta!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclasses.dataclass(frozen=True)
class SPRT:
    """A sequential test of H0: Elo = *elo0* against H1: Elo = *elo1* with error rates *alpha* (false
    accept of H1) and *beta*; *model* is ``"normalized"`` (fishtest's default) or ``"logistic"``.

    >>> test = SPRT(elo0=0, elo1=5)
    >>> test.status((5, 300, 1500, 500, 30))
    'H1'
    >>> test.status((10, 20, 30, 20, 10)) is None
    True
    """

    elo0: float = 0.0
    """Elo under the null hypothesis."""
    elo1: float = 5.0
    """Elo under the alternative."""
    alpha: float = 0.05
    """Probability of accepting H1 when H0 is true."""
    beta: float = 0.05
    """Probability of accepting H0 when H1 is true."""
    model: str = "normalized"
    """``"normalized"`` (t-value, pentanomial-aware) or ``"logistic"`` (mean score)."""

    def __post_init__(self) -> None:
        choice_arg(self.model, "model", ("normalized", "logistic"))
        if not real_arg(self.elo0, "elo0") < real_arg(self.elo1, "elo1"):
            raise ValueError(f"elo0 must be below elo1, got {self.elo0!r} and {self.elo1!r}")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, results: Sequence[float]) -> float:
        """The LLR after *results* (0.0 before any result).

        >>> round(SPRT(0, 100).llr((0, 0, 0, 0, 10)), 3)
        3.199
        """
        if sum(_check(results)) == 0:
            return 0.0
        if self.model == "logistic":
            return llr_logistic(self.elo0, self.elo1, results)
        try:
            return llr_normalized(self.elo0, self.elo1, results)
        except ValueError:
            # A t-value so far from the results' spread that the constrained maximum does not exist
            # (|t| beyond about 1 per pair: bounds of hundreds of nElo); fishtest would fail an
            # assertion here, we answer with the closed-form approximation instead.
            return llr_normalized_approx(self.elo0, self.elo1, results)

    def status(self, results: Sequence[float]) -> str | None:
        """``"H1"`` once the LLR reaches the upper bound, ``"H0"`` once it reaches the lower one, else
        ``None`` (keep playing)."""
        value = self.llr(results)
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

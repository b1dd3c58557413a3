"""Elo ratings by maximum likelihood over all games of a tournament.

The model is Bradley-Terry on the logistic Elo scale: player *i* scores against *j* with expectation
``1/(1 + 10^(-(Rᵢ - Rⱼ)/400))``, and a draw counts as half a win and half a loss (the likelihood
``Π P^s·(1-P)^(1-s)`` with ``s ∈ {0, ½, 1}``). One player is anchored at a given Elo; the others are
found by Newton's method. Error bars are 95 % intervals, ±1.96 standard errors from the inverse of the
Fisher information (the negative Hessian of the log-likelihood) with the anchor fixed, so they measure
each rating's uncertainty relative to the anchor. A player with a perfect or zero score has no finite
maximum; then one virtual draw per pairing that was played is added (and the table says so).

>>> table = fit_ratings([("a", "b", 1.0), ("a", "b", 1.0), ("a", "b", 0.0), ("a", "b", 0.5)], anchor="b")
>>> [(r.name, round(r.elo, 1)) for r in table.ratings]
[('a', 88.7), ('b', 0.0)]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from statistics import NormalDist

from camelpy._args import items_arg, real_arg, shown, str_arg
from camelpy._quote import quote

__all__ = ["Rating", "RatingTable", "fit_ratings"]

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of the natural-logit rating the fit works in."""

NEWTON_ITERATIONS = 100
"""Newton steps allowed; a well-posed fit converges in under 10."""

NEWTON_TOLERANCE = 1e-10
"""Stop when the largest step (natural-logit units) is below this."""

DIVERGED_ELO = 3000.0
"""A rating this far from the anchor means the maximum is at infinity (a perfect score)."""

PRIOR_DRAWS = 1.0
"""Virtual draws added per played pairing when the plain maximum does not exist."""


@dataclasses.dataclass(frozen=True)
class Rating:
    """One player's line in the table."""

    name: str
    """Player."""
    elo: float
    """Maximum-likelihood Elo."""
    error: float
    """Half-width of the 95 % interval (0 for the anchor)."""
    games: int
    """Games played."""
    score: float
    """Points scored."""


@dataclasses.dataclass(frozen=True)
class RatingTable:
    """Ratings, strongest first."""

    ratings: tuple[Rating, ...]
    """The players."""
    anchor: str
    """The anchored player."""
    regularized: bool = False
    """Whether virtual draws were needed (some player had a perfect or zero score)."""

    def __str__(self) -> str:
        lines = [f"{'rank':>4}  {'name':<20} {'elo':>8} {'+/-':>7} {'games':>6} {'score':>7}"]
        for rank, r in enumerate(self.ratings, start=1):
            pct = r.score / r.games if r.games else 0.0
            lines.append(f"{rank:>4}  {r.name:<20} {r.elo:>8.1f} {r.error:>7.1f} {r.games:>6} {pct:>7.1%}")
        note = f"Elo by maximum likelihood (Bradley-Terry, draws as half points), {self.anchor} anchored"
        lines.append(
            note + (", with one virtual draw per pairing (a perfect score)" if self.regularized else "")
        )
        return "\n".join(lines)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrices here are a few players wide)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("the games do not connect every player to the anchor")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _fit(
    names: list[str], pairs: dict[tuple[int, int], tuple[float, float]], anchor: int
) -> tuple[list[float], list[list[float]]] | None:
    """Natural-logit ratings (anchor 0) and the information matrix of the free players, or None if
    Newton diverges."""
    n = len(names)
    free = [i for i in range(n) if i != anchor]
    where = {p: k for k, p in enumerate(free)}
    r = [0.0] * n
    info: list[list[float]] = []
    for _ in range(NEWTON_ITERATIONS):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for (i, j), (games, score) in pairs.items():
            p = 1.0 / (1.0 + math.exp(-(r[i] - r[j])))
            g, w = score - games * p, games * p * (1.0 - p)
            for a, sign in ((i, 1.0), (j, -1.0)):
                if a in where:
                    grad[where[a]] += sign * g
                    for b, sign_b in ((i, 1.0), (j, -1.0)):
                        if b in where:
                            info[where[a]][where[b]] += sign * sign_b * w
        step = _solve(info, grad)
        for k, p_index in enumerate(free):
            r[p_index] += step[k]
        if max((abs(s) for s in step), default=0.0) < NEWTON_TOLERANCE:
            break
        if max(abs(x) for x in r) * ELO_PER_NAT > DIVERGED_ELO:
            return None
    else:
        return None
    if max(abs(x) for x in r) * ELO_PER_NAT > DIVERGED_ELO:
        return None
    return r, info


def fit_ratings(games: Iterable[tuple[str, str, float]], anchor: str, anchor_elo: float = 0.0) -> RatingTable:
    """Fits ratings to ``(player, opponent, player's score)`` games with *anchor* fixed at *anchor_elo*.

    :raises: :exc:`ValueError` when the anchor did not play, the games leave a player unconnected or a
        score is outside 0..1; :exc:`TypeError` for a game that is not a (str, str, number) triple.
    """
    str_arg(anchor, "anchor")
    anchor_elo = real_arg(anchor_elo, "anchor_elo")
    names: list[str] = []
    index: dict[str, int] = {}
    pairs: dict[tuple[int, int], list[float]] = {}
    played: dict[str, list[float]] = {}
    for number, game in enumerate(items_arg(games, "games", (tuple, list)), start=1):
        if len(game) != 3:
            raise TypeError(f"game {number} must be a (player, opponent, score) triple, got {shown(game)}")
        a, b = (
            str_arg(name, f"the {role} of game {number}") for name, role in zip(game, ("player", "opponent"))
        )
        s = real_arg(game[2], f"the score of game {number}", minimum=0, maximum=1)
        for name in (a, b):
            if name not in index:
                index[name] = len(names)
                names.append(name)
        i, j = index[a], index[b]
        key, score = ((i, j), s) if i < j else ((j, i), 1.0 - s)
        entry = pairs.setdefault(key, [0.0, 0.0])
        entry[0] += 1
        entry[1] += score
        played.setdefault(a, [0, 0.0])
        played.setdefault(b, [0, 0.0])
        played[a][0] += 1
        played[a][1] += s
        played[b][0] += 1
        played[b][1] += 1.0 - s
    if anchor not in index:
        raise ValueError(f"the anchor {quote(anchor)} played no game")
    exact = {k: (v[0], v[1]) for k, v in pairs.items()}
    fitted = _fit(names, exact, index[anchor])
    regularized = fitted is None
    if fitted is None:
        padded = {k: (g + PRIOR_DRAWS, s + PRIOR_DRAWS / 2) for k, (g, s) in exact.items()}
        fitted = _fit(names, padded, index[anchor])
        if fitted is None:
            raise ValueError("the rating fit does not converge")
    r, info = fitted
    free = [i for i in range(len(names)) if i != index[anchor]]
    z = NormalDist().inv_cdf(0.975)
    errors = [0.0] * len(names)
    for k, p in enumerate(free):
        unit = [1.0 if c == k else 0.0 for c in range(len(free))]
        variance = _solve(info, unit)[k]
        errors[p] = z * math.sqrt(max(variance, 0.0)) * ELO_PER_NAT
    table = [
        Rating(name, anchor_elo + r[i] * ELO_PER_NAT, errors[i], int(played[name][0]), played[name][1])
        for i, name in enumerate(names)
    ]
    table.sort(key=lambda x: -x.elo)
    return RatingTable(tuple(table), anchor, regularized)

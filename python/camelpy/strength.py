"""Playing at a chosen strength: what ``UCI_LimitStrength``/``UCI_Elo`` and ``Engine(elo=...)`` do.

A human-like engine is weakened in two ways at once, and camelpy does both:

1. **A limited search.** The level searches :attr:`EloLevel.nodes` nodes a move at most (fewer if the clock or
   the caller's limit says so): :data:`NODES_AT_ELO_MIN` at :data:`ELO_MIN`, doubling every
   :data:`ELO_PER_DOUBLING` Elo. A small search misses what lies beyond its horizon, as a player does.
2. **A deliberate choice among the better moves.** It searches :data:`CANDIDATES` lines (MultiPV) and plays
   one of those whose score is within :attr:`EloLevel.max_loss` centipawns of the best, each with the weight
   ``exp(-loss / temperature)`` (:attr:`EloLevel.temperature`, high at club level, near zero at the top;
   both fall geometrically with the Elo).
   So it loses by plausible mistakes (a second-best move, a slow plan) rather than by random blunders: it
   never plays a move its own search scores more than ``max_loss`` below the best, it never walks into a
   mate it has seen while another move avoids it, and a mate it has found is always played.

The choice is deterministic: the random number comes from :func:`draw`, a SplitMix64 hash of the seed, the
game's number and the position's Polyglot key. The game's number counts the games since the engine started
(each ``ucinewgame``, or :meth:`camelpy.Engine.new_game`, starts the next), so one game's choices differ
from the next's (a player cannot win the same game twice by repeating it), yet the same commands from a
fresh engine give the same moves (with the same search: one thread, node limits), and tests and games are
reproducible; a different seed (``Strength Seed``, ``Engine(elo_seed=...)``) gives other choices.

>>> level = EloLevel.from_elo(1350)
>>> level
EloLevel(elo=1350, nodes=900, temperature=60.0, max_loss=200)
>>> EloLevel.from_elo(2850).nodes, EloLevel.from_elo(2850).temperature
(42752204, 4.0)
>>> lines = [Candidate("e2e4", cp=30), Candidate("d2d4", cp=25), Candidate("g2g4", cp=-250)]
>>> choose(level, lines, 0.0), choose(level, lines, 0.99)
('e2e4', 'd2d4')
>>> choose(level, [Candidate("a1a8", cp=50), Candidate("h5f7", mate=1)], 0.99)
'h5f7'

The levels' numbers are Stockfish 15.1's ``UCI_Elo`` scale: the node curve is fitted by games against
Stockfish at the same setting, and :data:`CALIBRATED` are the settings measured within ±100 Elo (the table
and the commands are in the UCI page of the documentation, "Calibration").
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import chess
import chess.polyglot

from camelpy import _core

__all__ = [
    "CALIBRATED",
    "CANDIDATES",
    "DEFAULT_ELO",
    "ELO_MAX",
    "ELO_MIN",
    "ELO_BEND",
    "ELO_PER_DOUBLING",
    "ELO_PER_DOUBLING_ABOVE_BEND",
    "MAX_LOSS_AT_ELO_MAX",
    "MAX_LOSS_AT_ELO_MIN",
    "MAX_SEED",
    "NODES_AT_ELO_MIN",
    "TEMPERATURE_AT_ELO_MAX",
    "TEMPERATURE_AT_ELO_MIN",
    "Candidate",
    "EloLevel",
    "candidates",
    "check_elo",
    "choose",
    "draw",
    "position_key",
]

ELO_MIN = 1350
"""Lowest ``UCI_Elo``: club level, and the bottom of Stockfish 15.1's ``UCI_Elo`` range, the scale the levels
are calibrated on (below it there is no reference level to measure a setting against)."""

ELO_MAX = 2850
"""Highest ``UCI_Elo``: near full strength, and the top of Stockfish 15.1's range (camelpy's full strength at
a few seconds a move is above it; ``UCI_LimitStrength`` false plays at full strength)."""

DEFAULT_ELO = ELO_MIN
"""``UCI_Elo``'s default, as Stockfish 15.1's: the weakest level, the one a player switching the limit on
most likely wants to try first."""

NODES_AT_ELO_MIN = 900
"""Nodes a move at ELO_MIN: a 2-3 ply search with every candidate line searched to depth 1 at least. Fitted
by games against Stockfish 15.1's levels (docs/guide/uci.md, "Calibration"): with 560 nodes the 1600 and
2000 settings played 69 and 94 Elo below their numbers, so the curve was raised by 1.6x (about +85 Elo)."""

ELO_PER_DOUBLING = 120
"""Elo per doubling of the node limit up to :data:`ELO_BEND`, on Stockfish's scale together with the
temperature falling alongside: fitted from a 20-game pilot at 1600 and 2400; with 900 nodes at ELO_MIN the
1600, 1800 and 2000 settings play within ±100 of their numbers (200 games each, :data:`CALIBRATED`)."""

ELO_BEND = 2000
"""Where the node curve steepens: above it a doubling of the nodes was worth less (about 100 Elo: the 2400
setting at 241,102 nodes, on the curve below, played 148 ± 75 below its number over 72 games)."""

ELO_PER_DOUBLING_ABOVE_BEND = 84
"""Elo per doubling above :data:`ELO_BEND`: a guess from the 2400 setting's 72 games (a doubling there is
worth about 100 Elo); not calibrated, since at 10 s + 0.1 s the clock, not the node limit, binds there
(2400 played 100 and 109 Elo below its number with 648,998 and 1,043,032 nodes)."""

CANDIDATES = 4
"""MultiPV lines the choice is made among: enough for a real choice, few enough that the level's nodes still
search each of them two or three plies deep."""

TEMPERATURE_AT_ELO_MIN = 60.0
"""Centipawns of loss that divide a move's weight by e at ELO_MIN: a move a pawn worse is played about a
fifth as often as the best, as club players often settle for a reasonable move."""

TEMPERATURE_AT_ELO_MAX = 4.0
"""The temperature at ELO_MAX: only moves a few centipawns from the best are played (near full strength)."""

MAX_LOSS_AT_ELO_MIN = 200
"""The largest loss (centipawns, by the level's own search) a move may have to be played at ELO_MIN: two
pawns, a plausible mistake for a club player, never a dropped piece the search has seen."""

MAX_LOSS_AT_ELO_MAX = 10
"""The largest loss at ELO_MAX: a tenth of a pawn."""

CALIBRATED = (1600, 1800, 2000)
"""The ``UCI_Elo`` settings measured within ±100 Elo by games against Stockfish 15.1 at the same setting
(200 games each at 10 s + 0.1 s; the table is in the UCI page of the documentation): the GUI's chess
levels and the documented lichess-bot configuration use them."""

MAX_SEED = 2**31 - 1
"""Largest seed (``Strength Seed``, as ``BookSeed``)."""

_MASK64 = (1 << 64) - 1


@dataclasses.dataclass(frozen=True)
class EloLevel:
    """A level's settings: the Elo it stands for, the node limit, the temperature and the largest loss
    (both in centipawns). :meth:`from_elo` computes them from the Elo by the module's model.

    :raises: :exc:`ValueError` quoting an Elo outside :data:`ELO_MIN` … :data:`ELO_MAX`.
    """

    elo: int
    nodes: int
    temperature: float
    max_loss: int

    @classmethod
    def from_elo(cls, elo: int) -> EloLevel:
        """The level for *elo*: the node limit doubles every :data:`ELO_PER_DOUBLING` Elo from
        :data:`NODES_AT_ELO_MIN` up to :data:`ELO_BEND`, then every :data:`ELO_PER_DOUBLING_ABOVE_BEND`;
        the temperature and the largest loss fall geometrically (by the same factor for each Elo step)
        from their values at :data:`ELO_MIN` to those at :data:`ELO_MAX`, as an Elo difference is a
        ratio of odds: the size of the mistakes shrinks by a factor, not by an amount.

        >>> EloLevel.from_elo(2100)
        EloLevel(elo=2100, nodes=87739, temperature=15.5, max_loss=45)
        >>> EloLevel.from_elo(1000)
        Traceback (most recent call last):
        ...
        ValueError: elo must be an integer from 1350 to 2850, got 1000
        """
        check_elo(elo)
        share = (elo - ELO_MIN) / (ELO_MAX - ELO_MIN)
        doublings = (min(elo, ELO_BEND) - ELO_MIN) / ELO_PER_DOUBLING
        doublings += max(0, elo - ELO_BEND) / ELO_PER_DOUBLING_ABOVE_BEND
        nodes = round(NODES_AT_ELO_MIN * 2**doublings)
        temperature = TEMPERATURE_AT_ELO_MIN * (TEMPERATURE_AT_ELO_MAX / TEMPERATURE_AT_ELO_MIN) ** share
        max_loss = MAX_LOSS_AT_ELO_MIN * (MAX_LOSS_AT_ELO_MAX / MAX_LOSS_AT_ELO_MIN) ** share
        return cls(elo, nodes, round(temperature, 1), round(max_loss))


def check_elo(elo: object) -> int:
    """*elo* if it is an integer within :data:`ELO_MIN` … :data:`ELO_MAX`.

    :raises: :exc:`ValueError` (:exc:`TypeError` for a non-integer) quoting it.
    """
    if isinstance(elo, bool) or not isinstance(elo, int):
        raise TypeError(f"elo must be an integer, not {type(elo).__name__}")
    if not ELO_MIN <= elo <= ELO_MAX:
        raise ValueError(f"elo must be an integer from {ELO_MIN} to {ELO_MAX}, got {elo!r}")
    return elo


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One line of the level's search: its first move (UCI) and its score for the side to move, in
    centipawns (*cp*) or as a mate in *mate* moves (negative: being mated)."""

    move: str
    cp: int | None = None
    mate: int | None = None


def candidates(lines: Sequence[_core.IterationInfo]) -> list[Candidate]:
    """The lines of a MultiPV search (best first) that the choice may use: those searched at least one ply
    with a score that is exact or a lower bound (an upper bound may overrate the move)."""
    found = []
    for i, line in enumerate(lines):
        if not line.pv or line.depth < 1 or (i > 0 and line.bound == "upper"):
            continue
        found.append(Candidate(line.pv[0], cp=line.cp, mate=line.mate))
    return found


def choose(level: EloLevel, lines: Sequence[Candidate], draw: float) -> str | None:
    """The move *level* plays from the candidate *lines* (best first), *draw* a number in [0, 1).

    A mate found is played (the shortest); if the best line is being mated, the best (longest) defence;
    lines that are mated are dropped while any other remains. Of the rest, those within
    :attr:`EloLevel.max_loss` of the best are played with weights ``exp(-loss / temperature)``: the
    *draw* picks one by the weights' running sum. ``None`` if there is no line.
    """
    if not lines:
        return None
    mates = [line for line in lines if line.mate is not None and line.mate > 0]
    if mates:
        return min(mates, key=lambda line: line.mate or 0).move
    alive = [line for line in lines if line.cp is not None]
    if not alive:
        return lines[0].move
    best = max(line.cp or 0 for line in alive)
    kept = [(line.move, best - (line.cp or 0)) for line in alive if best - (line.cp or 0) <= level.max_loss]
    weights = [math.exp(-loss / level.temperature) for _, loss in kept]
    target = draw * sum(weights)
    for (move, _), weight in zip(kept, weights):
        target -= weight
        if target < 0:
            return move
    return kept[-1][0]


def draw(seed: int, key: int, game: int = 0) -> float:
    """A number in [0, 1) from *seed*, a position's *key* and the *game*'s number: SplitMix64's output
    function on their mix, so neighbouring seeds, keys and games give unrelated numbers.

    >>> key = 0x463B96181691FC9C
    >>> draw(0, key) == draw(0, key) != draw(1, key) != draw(0, key, game=1)
    True
    """
    z = (key ^ (seed * 0x9E3779B97F4A7C15) ^ (game * 0xD1B54A32D192ED03)) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return (z >> 11) / float(1 << 53)


def position_key(board: chess.Board) -> int:
    """The key :func:`draw` takes for *board*: its Polyglot hash (what the UCI ``d`` command shows)."""
    return chess.polyglot.zobrist_hash(board)

"""Time management: from the clock a GUI sends with ``go`` to the search's soft and hard budgets.

The core only *enforces* two deadlines (``soft_ms``: start no new iteration after it; ``hard_ms``: abort
mid-iteration). Choosing them is policy, so it lives here, in pure Python, where it is unit-tested:

* :func:`budget` turns ``wtime/btime/winc/binc/movestogo/movetime`` and the ``Move Overhead`` option into
  a :class:`Budget`. The hard budget never exceeds a fixed share of the clock left after the overhead,
  so the engine cannot lose on time however the search behaves.
* :class:`TimeManager` watches the per-iteration reports and decides when to stop inside that budget:
  early when the best move has been stable for several iterations, later (up to a cap below the hard
  budget) when the best move changes or the score drops, and (with *lost_cp*) early in a lost position.

>>> from camelpy.timeman import budget
>>> budget(60_000, 1_000, overhead_ms=10)
Budget(soft_ms=2457, hard_ms=8599)
>>> budget(None, movetime_ms=500, overhead_ms=10)
Budget(soft_ms=490, hard_ms=490)
"""

from __future__ import annotations

import dataclasses

from camelpy._args import int_arg, opt_int_arg, real_arg, shown, str_arg

__all__ = ["TUNING_OPTIONS", "Budget", "TimeManager", "budget"]

MOVES_HORIZON = 35
"""Moves still to play assumed in sudden death, and the cap on ``movestogo``: a game lasts ~40 more moves
in the middlegame, and assuming fewer keeps time for the endgame."""

INC_SHARE = 0.75
"""Share of the increment spent on each move; the rest builds a buffer against late-game time trouble."""

LOST_CP = 0
"""Own score (centipawns, as a positive number) at or below whose negative a position counts as lost, so
that the soft budget takes its smallest factor at once (:class:`TimeManager`'s *lost_cp*): 0, off. A
candidate waiting for its SPRT (``docs/strength.md``): camelpy thinks long in one in twelve of its moves
in lost positions, Ethereal 12 in one in a hundred (``camelpy.arena.timeuse``, at 10 s + 0.1 s), and
such a think buys nothing; the candidate value is 500, the line ``camelpy match`` counts lost positions
from."""

TUNING_OPTIONS: tuple[tuple[str, int, int, int], ...] = (
    ("tm_horizon", MOVES_HORIZON, 10, 100),
    ("tm_inc_share", round(INC_SHARE * 100), 0, 100),
    ("tm_lost_cp", LOST_CP, 0, 10_000),
)
"""The time manager's settings as hidden UCI spin options ``(name, default, min, max)``, listed with the
search's tunables after ``Show Tuning Options``, so that a match or ``camelpy spsa`` can change them:
``tm_horizon`` is *horizon* of :func:`budget` (moves), ``tm_inc_share`` its *inc_share* in percent,
``tm_lost_cp`` :class:`TimeManager`'s *lost_cp*."""

HARD_OVER_SOFT = 3.5
"""Hard budget as a multiple of the soft one: room for an unstable iteration to finish."""

MAX_HARD_SHARE = 0.45
"""Most of the usable clock one move may take: under half, so the next move always has as much again (also
the last move before a time control: the clock it refills is not worth a loss on time)."""

RESERVE_MOVES = 5
"""Moves' worth of overhead always kept in reserve, even when increments pay for the moves to come: room
for latency spikes (a busy machine) however low the clock has run."""

LATENCY_FLOOR_MS = 200
"""Clock always kept back, whatever ``Move Overhead`` says: on a loaded machine a process has been seen to
stall 100–230 ms between two moves (7 forfeits in 1,000 games at 1 s + 0.01 s with only the 55 ms
reserve for the overheads), and a loss on time costs more than a fifth of a second of thinking. Near it
every move gets the minimum budget, and the increments refill the clock."""

MIN_BUDGET_MS = 1
"""Smallest budget handed to the search: the core still returns a legal move (depth 1 or its fallback)."""

MAX_BUDGET_MS = 2**40
"""Largest budget passed on (about 35 years): keeps absurd clock values inside the core's integer range."""

MAX_EXTENSION = 2.0
"""Largest factor by which instability may stretch the soft budget (still capped by the hard budget)."""

STABLE_ITERATIONS_FOR_MIN = 6
"""Iterations with an unchanged best move after which the soft budget is scaled down the most."""

STABILITY_SCALE_MIN = 0.55
"""Soft-budget factor once the best move has been stable for ``STABLE_ITERATIONS_FOR_MIN`` iterations."""

STABILITY_SCALE_MAX = 1.35
"""Soft-budget factor right after the best move changed."""

SCORE_DROP_CP = 30
"""A fall of at least this many centipawns from the previous iteration counts as trouble."""

SCORE_DROP_SCALE = 1.4
"""Soft-budget factor while the score is falling: think longer before committing to a worse line."""

MIN_DEPTH_TO_STOP_EARLY = 4
"""No early stop before this depth: shallow iterations are too noisy to call stable."""


@dataclasses.dataclass(frozen=True)
class Budget:
    """How long the search may think, in milliseconds from the moment ``go`` arrived.

    >>> Budget(soft_ms=100, hard_ms=350)
    Budget(soft_ms=100, hard_ms=350)
    """

    soft_ms: int
    """Target: the time manager stops after the first iteration ending past (a scaled) ``soft_ms``."""
    hard_ms: int
    """Deadline: the search is aborted mid-iteration here."""

    def __post_init__(self) -> None:
        int_arg(self.soft_ms, "soft_ms", 0)
        int_arg(self.hard_ms, "hard_ms", 0)


def budget(
    time_ms: int | None,
    inc_ms: int = 0,
    movestogo: int | None = None,
    *,
    overhead_ms: int = 10,
    movetime_ms: int | None = None,
    horizon: int = MOVES_HORIZON,
    inc_share: float = INC_SHARE,
) -> Budget | None:
    """The budget for one move, or ``None`` when neither a clock nor ``movetime`` limits the search.

    *time_ms* and *inc_ms* are the mover's clock and increment; *movestogo* the moves to the next time
    control (``None`` or 0: sudden death); *overhead_ms* the ``Move Overhead`` option, time lost per move
    outside the search (process and GUI latency). With *movetime_ms* the search may use that time, less
    the overhead (but at least half of it). *horizon* is the moves still to play assumed in sudden death
    and the cap on *movestogo* (chess's :data:`MOVES_HORIZON` by default; a game of another length, as
    Leiserchess, passes its own), *inc_share* the share of the increment each move spends
    (:data:`INC_SHARE`). Negative inputs count as 0; anything that is not an integer
    (a float, ``True``) is a :exc:`TypeError`, as ``None`` is for *inc_ms* and *overhead_ms*; a
    *horizon* below 1 or an *inc_share* outside 0..1 is a :exc:`ValueError`.

    The clock left after reserving the overhead of the moves to come and :data:`LATENCY_FLOOR_MS` on top
    is "usable"; the soft budget is an even share of it over the moves left plus most of the increment,
    the hard budget a multiple of that, capped at a share of the usable clock. Even
    if every move ran to its hard budget and lost a full overhead on top, the next move would still find
    the clock above its reserve; and one stall shorter than the floor on top of that does not flag.

    >>> budget(1_000, 10)
    Budget(soft_ms=27, hard_ms=97)
    >>> budget(100, 10)  # below the latency floor: move at once, the increment refills the clock
    Budget(soft_ms=1, hard_ms=1)
    >>> budget(10_000, 0, 1)
    Budget(soft_ms=4405, hard_ms=4405)
    >>> budget(0, 0)
    Budget(soft_ms=1, hard_ms=1)
    >>> budget(None) is None
    True
    >>> budget(10_000, 100, horizon=50)  # a longer game: a smaller share, the same hard cap's rule
    Budget(soft_ms=269, hard_ms=944)
    """
    opt_int_arg(time_ms, "time_ms", None)
    int_arg(inc_ms, "inc_ms", None)
    opt_int_arg(movestogo, "movestogo", None)
    int_arg(overhead_ms, "overhead_ms", None)
    opt_int_arg(movetime_ms, "movetime_ms", None)
    int_arg(horizon, "horizon", 1)
    real_arg(inc_share, "inc_share", minimum=0, maximum=1)
    overhead = max(0, overhead_ms)
    if movetime_ms is not None:
        movetime = max(0, movetime_ms)
        ms = _clamp(movetime - min(overhead, movetime // 2))
        return Budget(ms, ms)
    if time_ms is None:
        return None
    inc = max(0, inc_ms)
    moves_left = min(movestogo, horizon) if movestogo and movestogo > 0 else horizon
    # Keep back what each move still to play before the clock is refilled costs at least (its overhead
    # and the shortest search), less what its increment brings; and a few moves' worth in any case.
    per_move = overhead + MIN_BUDGET_MS
    to_play = movestogo if movestogo and movestogo > 0 else horizon
    reserve = per_move * min(to_play, RESERVE_MOVES) + max(0, per_move - inc) * max(
        0, to_play - RESERVE_MOVES
    )
    usable = max(0, time_ms - reserve - LATENCY_FLOOR_MS)
    base = usable / moves_left + inc * inc_share
    hard = min(base * HARD_OVER_SOFT, usable * MAX_HARD_SHARE)
    soft = min(base, hard)
    return Budget(_clamp(soft), _clamp(hard))


def _clamp(ms: float) -> int:
    return int(min(max(ms, MIN_BUDGET_MS), MAX_BUDGET_MS))


class TimeManager:
    """Decides, after each completed iteration, whether to stop: the dynamic part of time management.

    Feed it every main-line report (:meth:`update` with the depth, best move, score in centipawns or
    ``None`` for mates, and elapsed ms); :meth:`should_stop` says whether another iteration is worth
    starting. :attr:`outer_soft_ms` is the most the soft budget can stretch to; pass it to the core as its
    soft deadline, with the hard budget as the hard one.

    >>> tm = TimeManager(Budget(soft_ms=100, hard_ms=400))
    >>> tm.outer_soft_ms
    200
    >>> [tm.update(depth, "e2e4", 20, 60 + depth) for depth in range(1, 9)][-1]
    True
    >>> tm = TimeManager(Budget(soft_ms=100, hard_ms=400))
    >>> tm.update(8, "e2e4", 20, 80), tm.update(9, "d2d4", -40, 110)
    (False, False)
    """

    def __init__(self, limits: Budget, *, dynamic: bool = True, lost_cp: int = LOST_CP) -> None:
        if not isinstance(limits, Budget):
            raise TypeError(f"limits must be a Budget, got {type(limits).__name__} {shown(limits)}")
        int_arg(lost_cp, "lost_cp", 0)
        self.budget = limits
        self.dynamic = dynamic
        """``False`` (``go movetime``): no early stop and no extension; the search uses its budget."""
        self.lost_cp = lost_cp
        """With a positive value, an iteration scored at ``-lost_cp`` or below (a lost position: thinking
        longer buys nothing) sets the soft budget's factor to its smallest, :data:`STABILITY_SCALE_MIN`,
        whatever the stability and the score's trend; 0 (:data:`LOST_CP`), off."""
        self.outer_soft_ms = (
            int(min(limits.soft_ms * MAX_EXTENSION, limits.hard_ms)) if dynamic else limits.soft_ms
        )
        self._best: str | None = None
        self._stable = 0
        self._last_cp: int | None = None
        self.factor = 1.0
        """The current scale on the soft budget (stability times score trend)."""

    def scaled_soft_ms(self) -> float:
        """The soft budget after scaling, capped by :attr:`outer_soft_ms`."""
        if not self.dynamic:
            return self.budget.soft_ms
        return min(self.budget.soft_ms * self.factor, self.outer_soft_ms)

    def update(self, depth: int, best_move: str, cp: int | None, elapsed_ms: float) -> bool:
        """Records one completed iteration and returns :meth:`should_stop` for *elapsed_ms*.

        :raises: :exc:`TypeError` for an argument of the wrong type, :exc:`ValueError` for a negative
            depth or a negative, infinite or NaN time.
        """
        int_arg(depth, "depth", 0)
        str_arg(best_move, "best_move")
        opt_int_arg(cp, "cp", None)
        real_arg(elapsed_ms, "elapsed_ms", minimum=0)
        if best_move == self._best:
            self._stable += 1
        else:
            self._best = best_move
            self._stable = 0
        span = STABILITY_SCALE_MAX - STABILITY_SCALE_MIN
        stability = STABILITY_SCALE_MAX - span * min(self._stable, STABLE_ITERATIONS_FOR_MIN) / (
            STABLE_ITERATIONS_FOR_MIN
        )
        dropping = cp is not None and self._last_cp is not None and cp <= self._last_cp - SCORE_DROP_CP
        self._last_cp = cp
        self.factor = stability * (SCORE_DROP_SCALE if dropping else 1.0)
        if self.lost_cp > 0 and cp is not None and cp <= -self.lost_cp:
            self.factor = STABILITY_SCALE_MIN
        if depth < MIN_DEPTH_TO_STOP_EARLY:
            return elapsed_ms >= self.outer_soft_ms
        return self.should_stop(elapsed_ms)

    def should_stop(self, elapsed_ms: float) -> bool:
        """True once *elapsed_ms* has reached the scaled soft budget."""
        return real_arg(elapsed_ms, "elapsed_ms", minimum=0) >= self.scaled_soft_ms()

"""camelpy.timeman: the budget never risks the clock, and the dynamic stop follows stability and score."""

from __future__ import annotations

import itertools

import pytest
from camelpy.timeman import (
    LATENCY_FLOOR_MS,
    MAX_HARD_SHARE,
    MIN_DEPTH_TO_STOP_EARLY,
    STABILITY_SCALE_MIN,
    Budget,
    TimeManager,
    budget,
)


@pytest.mark.parametrize(
    ("time_ms", "inc_ms", "movestogo", "overhead_ms"),
    list(
        itertools.product(
            [0, 1, 5, 20, 50, 100, 1000, 10_000, 600_000], [0, 10, 1000], [None, 1, 2, 40], [0, 10, 100]
        )
    ),
)
def test_hard_budget_stays_inside_the_usable_clock(
    time_ms: int, inc_ms: int, movestogo: int | None, overhead_ms: int
) -> None:
    limits = budget(time_ms, inc_ms, movestogo, overhead_ms=overhead_ms)
    assert limits is not None
    usable = max(0, time_ms - overhead_ms)
    share = MAX_HARD_SHARE
    assert 1 <= limits.soft_ms <= limits.hard_ms
    assert limits.hard_ms <= max(1, usable * share)


def test_more_time_never_gives_a_smaller_budget() -> None:
    previous = Budget(0, 0)
    for time_ms in range(0, 20_000, 37):
        limits = budget(time_ms, 10)
        assert limits is not None
        assert limits.soft_ms >= previous.soft_ms and limits.hard_ms >= previous.hard_ms
        previous = limits


def test_increment_is_spent_but_not_all_of_it() -> None:
    without = budget(5_000, 0)
    with_inc = budget(5_000, 1_000)
    assert without is not None and with_inc is not None
    assert without.soft_ms + 500 < with_inc.soft_ms < without.soft_ms + 1_000


def test_movetime_uses_the_time_less_the_overhead() -> None:
    assert budget(None, movetime_ms=1000, overhead_ms=10) == Budget(990, 990)
    assert budget(None, movetime_ms=10, overhead_ms=30) == Budget(5, 5)
    assert budget(None, movetime_ms=0) == Budget(1, 1)
    assert budget(5_000, movetime_ms=100, overhead_ms=0) == Budget(100, 100)


def test_negative_and_missing_inputs() -> None:
    assert budget(None) is None
    assert budget(-1000, -10, -3) == Budget(1, 1)
    assert budget(1_000, 0, 0) == budget(1_000, 0, None)


def test_huge_clock_is_clamped() -> None:
    limits = budget(10**30, 10**30)
    assert limits is not None and limits.hard_ms <= 2**40


@pytest.mark.parametrize(
    ("start_ms", "inc_ms", "movestogo", "moves", "latency"),
    [
        (1_000, 10, None, 300, 9),  # 1 s + 0.01 s
        (100, 10, None, 300, 9),  # starting in time trouble
        (8_000, 80, None, 300, 10),  # OpenBench STC
        (10_000, 0, 40, 300, 10),  # 40 moves in 10 s, repeating
        (1_000, 0, 10, 300, 10),  # 10 moves in 1 s, repeating
        (60_000, 0, None, 80, 10),  # sudden death without increment
    ],
)
def test_worst_case_game_never_flags(
    start_ms: int, inc_ms: int, movestogo: int | None, moves: int, latency: int
) -> None:
    """Every move takes its whole hard budget and loses *latency* ms on top (up to the whole Move
    Overhead, which is there for that): the clock never runs out. (If every move cost more than the
    increment brings, no budget could last forever, hence a latency just below the increment there; and
    the shorter sudden-death game without increment.)"""
    overhead = 10
    clock = start_ms
    for move in range(moves):
        to_go = None if movestogo is None else movestogo - move % movestogo
        limits = budget(clock, inc_ms, to_go, overhead_ms=overhead)
        assert limits is not None
        clock -= limits.hard_ms + latency
        assert clock >= 0, f"flagged at move {move + 1}"
        clock += inc_ms
        if movestogo is not None and to_go == 1:
            clock += start_ms


def test_stable_best_move_stops_before_the_soft_budget() -> None:
    tm = TimeManager(Budget(soft_ms=1000, hard_ms=4000))
    stops = [tm.update(depth, "e2e4", 30, 700) for depth in range(1, 12)]
    assert stops[-1] and not stops[0]
    assert tm.scaled_soft_ms() < 700


def test_changing_best_move_extends_but_not_past_the_outer_bound() -> None:
    tm = TimeManager(Budget(soft_ms=1000, hard_ms=4000))
    assert tm.outer_soft_ms == 2000
    moves = itertools.cycle(["e2e4", "d2d4"])
    assert not any(tm.update(depth, next(moves), 30, 1100) for depth in range(1, 10))
    assert tm.update(10, next(moves), 30, 2000)


def test_score_drop_extends() -> None:
    steady = TimeManager(Budget(1000, 4000))
    falling = TimeManager(Budget(1000, 4000))
    for depth in range(1, 8):
        steady.update(depth, "e2e4", 30, 10)
        falling.update(depth, "e2e4", 30 - 40 * depth, 10)
    assert falling.scaled_soft_ms() > steady.scaled_soft_ms()


def test_a_lost_position_stops_early_only_with_lost_cp() -> None:
    # A best move that keeps changing while the score falls past -500: the default manager stretches
    # the soft budget (instability and the drop), one with lost_cp 500 takes the smallest factor from
    # the first iteration at -500 or below, and a mate score (cp None) is not a lost score.
    def run(lost_cp: int) -> list[float]:
        tm = TimeManager(Budget(1000, 4000), lost_cp=lost_cp)
        moves = itertools.cycle(["e2e4", "d2d4"])
        factors = []
        for depth, cp in enumerate([-300, -420, -480, -520, -600, -700, None], start=4):
            tm.update(depth, next(moves), cp, 10)
            factors.append(tm.factor)
        return factors

    default, guarded = run(0), run(500)
    assert run(10_000) == default and all(f > 1.3 for f in default[3:6])
    assert guarded[:3] == default[:3]
    assert guarded[3:6] == [STABILITY_SCALE_MIN] * 3
    assert guarded[6] == default[6]
    guard, plain = TimeManager(Budget(1000, 4000), lost_cp=500), TimeManager(Budget(1000, 4000))
    assert guard.update(8, "e2e4", -900, 600) and not plain.update(8, "e2e4", -900, 600)
    for bad, error in [(-1, ValueError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(error, match="lost_cp"):
            TimeManager(Budget(1000, 4000), lost_cp=bad)  # type: ignore[arg-type]


def test_no_early_stop_at_shallow_depth() -> None:
    tm = TimeManager(Budget(1000, 4000))
    for depth in range(1, MIN_DEPTH_TO_STOP_EARLY):
        assert not tm.update(depth, "e2e4", 0, 1500)
    assert tm.update(MIN_DEPTH_TO_STOP_EARLY, "e2e4", 0, 1500)


def test_fixed_budget_neither_stops_early_nor_extends() -> None:
    tm = TimeManager(Budget(500, 500), dynamic=False)
    assert tm.outer_soft_ms == 500
    assert not any(tm.update(depth, "e2e4", 0, 499) for depth in range(1, 20))
    assert tm.update(20, "d2d4", -300, 500)


@pytest.mark.parametrize(
    ("start_ms", "inc_ms", "movestogo"), [(1_000, 10, None), (10_000, 0, 40), (8_000, 80, None)]
)
def test_one_stall_below_the_floor_never_flags(start_ms: int, inc_ms: int, movestogo: int | None) -> None:
    """Worst-case play (every move to its hard budget plus a latency of up to the overhead, just under
    the increment where there is one, as in the test above), and at every move in turn one stall on top
    just shorter than the latency floor (the machine froze the process): the clock never runs out."""
    overhead, moves = 10, 200
    latency = min(overhead, inc_ms - 1) if inc_ms else overhead
    for stall_at in range(moves):
        clock = start_ms
        for move in range(moves):
            to_go = None if movestogo is None else movestogo - move % movestogo
            limits = budget(clock, inc_ms, to_go, overhead_ms=overhead)
            assert limits is not None
            clock -= limits.hard_ms + latency + (LATENCY_FLOOR_MS - 1 if move == stall_at else 0)
            assert clock >= 0, f"flagged at move {move + 1} after a stall at move {stall_at + 1}"
            clock += inc_ms + (start_ms if movestogo is not None and to_go == 1 else 0)


def test_below_the_floor_the_engine_moves_at_once() -> None:
    assert budget(LATENCY_FLOOR_MS, 10, overhead_ms=10) == Budget(1, 1)
    limits = budget(1_000, 10, overhead_ms=10)
    assert limits is not None and limits.hard_ms < (1_000 - LATENCY_FLOOR_MS) * MAX_HARD_SHARE

"""camelpy.arena.timeuse: each engine's clock replayed from a match's records."""

from __future__ import annotations

import pytest
from camelpy.arena.openings import Opening
from camelpy.arena.referee import GameRecord, MoveRecord
from camelpy.arena.timeuse import LONG_THINK, LOST_CP, STAGE_MOVES, TimeUse, time_use

BLACK_TO_MOVE = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def game(
    white: str,
    black: str,
    times: list[float],
    *,
    fen: str = BLACK_TO_MOVE,
    book: tuple[str, ...] = (),
    tc: str = "tc=40/10+0.5",
    cps: list[int | None] | None = None,
) -> GameRecord:
    scores = cps if cps is not None else [None] * len(times)
    moves = tuple(
        MoveRecord(f"m{i}", time=t, cp=cp) for i, (t, cp) in enumerate(zip(times, scores, strict=True))
    )
    return GameRecord(
        white,
        black,
        Opening(fen, book),
        "1/2-1/2",
        "adjudication",
        "",
        moves,
        white_limits=tc,
        black_limits="nodes=100",
    )


def test_the_clock_is_replayed_for_the_engines_own_moves() -> None:
    # Black moves first here, so "b" (Black) made moves 0, 2, 4, …: 42 moves of 0.3 s, 42 of 0.1 s for "a".
    times = [0.3, 0.1] * 42
    record = game("a", "b", times, tc="nodes=1")
    record = GameRecord(
        "a",
        "b",
        record.opening,
        "0-1",
        "checkmate",
        "",
        record.moves,
        white_limits="nodes=1",
        black_limits="tc=40/10+0.5",
    )
    use = time_use([record], "b")
    assert (use.games, use.moves, use.mean_move_s, use.longest_move_s) == (1, 42, 0.3, 0.3)
    # 42 moves: 10 - 42 × 0.3 + 42 × 0.5 + 10 (after move 40) = 28.4 s left; lowest after the first move.
    assert use.clock_left_median_s == pytest.approx(28.4)
    assert use.lowest_clock_s == pytest.approx(9.7)
    assert use.stage_means_s == (0.3, 0.3, 0.3)  # moves 1-20, 21-40, 41-42
    # "a" played on nodes, not on a clock: nothing to report.
    assert time_use([record], "a") == TimeUse("a", 0, 0, 0.0, (), 0.0, 0.0, 0.0, 0, 0)
    # A book move changes who moves first: with one, White ("a") made the even moves.
    booked = game("a", "b", times, book=("e7e5",))
    assert time_use([booked], "a").mean_move_s == 0.3


def test_stages_and_long_thinks_in_lost_positions() -> None:
    # White ("a") moves first from the start position: 80 moves each, a's moves 0.1 s, one long think
    # at move 70 while lost, one ordinary move while lost.
    own = [0.1] * 80
    own[69] = 0.1 * LONG_THINK * 2
    cps: list[int | None] = [None] * 160
    cps[2 * 69] = LOST_CP - 100
    cps[2 * 70] = LOST_CP
    times = [t for pair in zip(own, [0.05] * 80, strict=True) for t in pair]
    record = game("a", "b", times, fen=Opening().fen, tc="tc=60+0.6", cps=cps)
    use = time_use([record, record], "a")
    assert (use.games, use.moves, use.lost_moves, use.long_thinks_lost) == (2, 160, 4, 2)
    assert len(use.stage_means_s) == 4 and use.stage_means_s[:3] == (0.1, 0.1, 0.1)
    assert use.stage_means_s[3] == pytest.approx((0.1 * (80 - 3 * STAGE_MOVES - 1) + 0.4) / 20)
    line = use.line()
    assert line.startswith("a: 160 moves in 2 games, ") and "moves 1-20: 0.100" in line and "61 on: " in line
    assert line.endswith("long thinks when lost: 2 of 4 moves")
    assert use.to_json()["stage_means_s"][0] == 0.1
    assert eval(repr(use), {"TimeUse": TimeUse}) == use


def test_games_of_others_and_bad_input() -> None:
    assert time_use([game("x", "y", [0.1])], "a").games == 0
    with pytest.raises(ValueError, match="'40/fast'"):
        time_use([game("a", "b", [0.1], tc="tc=40/fast")], "a")
    with pytest.raises(TypeError, match="records"):
        time_use(["not a record"], "a")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="engine"):
        time_use([], 3)  # type: ignore[arg-type]

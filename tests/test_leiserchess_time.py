"""Leiserchess's clock (issue 40): a game of about 100 plies with a hard cap per move, and never a move
searched below the depth that sees a king hit two moves away, unless the clock is nearly gone."""

from __future__ import annotations

import io
import itertools

import pytest
from camelpy.leiserchess import Board, Searcher
from camelpy.protocols.leiserchess import (
    GAME_MOVES,
    MAX_GAME_MOVES,
    MIN_DEPTH,
    MIN_MOVES_LEFT,
    SAFETY_MS,
    USE_OVER_SOFT,
    LeiserEngine,
    time_for_move,
)
from camelpy.timeman import MAX_HARD_SHARE

LOST_GAME = ["e1U", "b4c4", "h4h5", "e5U", "h5R"]
"""Issue 40's lost game up to Lavender's mistake: ``a7L`` (depth 3's move) walks into ``h5g6``, ``g6h7``."""
MISTAKE = "a7L"
THREE_MOVES = (
    "f4L b4a4 g3R c3U h4h5 e5U f4e5 c5b5 h5R d6U e5e6 a3R h5h6 a7b6 h6h7 f4g3 f2g3 a3a2 e1e0 f2g1 g3R"
    " g1h1 d2e1 d6R e6L b6L h0g0 a4U g3f3 h1g2 f3g2 b6R g0h0 d6U f4g4 a2a1 e0U a1L e1d0 a1a0 g2h1 a0R"
    " h1g0 a4L d0U a0L e6U a0b0 e0f0 c3L d0e0 b0b1 g0h1"
).split()
"""A self-play game (seed 11, 20,000 nodes a move) where depth 4's ``b6L`` loses to a hit three moves
away, which depth 5 sees (and plays ``a4b5``)."""


def lost_game() -> Board:
    board = Board()
    for move in LOST_GAME:
        board.push(move)
    return board


def test_an_early_move_gets_more_than_a_30th_and_later_moves_a_growing_share() -> None:
    first = time_for_move(10_000, 100)
    assert first.hard_ms > 10_000 / 30  # the old rule's whole budget: one iteration may now run past it
    # What it uses on average: a 50th of the clock less what is kept back (5 moves' 51 ms and the 200 ms
    # latency floor), plus three quarters of the increment.
    assert first.soft_ms * USE_OVER_SOFT == pytest.approx((10_000 - 455) / GAME_MOVES + 75, abs=2)
    shares = [time_for_move(10_000, 100, moves).soft_ms for moves in range(0, 60, 5)]
    assert shares == sorted(shares) and shares[0] < shares[-1]  # the horizon shrinks as the game goes on
    floor = GAME_MOVES - MIN_MOVES_LEFT
    assert time_for_move(10_000, 100, floor) == time_for_move(10_000, 100, floor + 40)  # then stays


def test_the_game_moves_option_sets_the_horizon_and_refuses_what_is_out_of_range() -> None:
    out = io.StringIO()
    engine = LeiserEngine(out)
    script = ["uci", "setoption name GameMoves value 30", "setoption name GameMoves value 19"]
    script += [f"setoption name GameMoves value {MAX_GAME_MOVES + 1}", "setoption name GameMoves value x"]
    assert all(engine.handle(line) for line in script)
    lines = out.getvalue().splitlines()
    assert (
        f"option name GameMoves type spin default {GAME_MOVES} min {MIN_MOVES_LEFT} max {MAX_GAME_MOVES}"
        in lines
    )
    refused = [line for line in lines if line.startswith("info string") and "GameMoves" in line]
    assert len(refused) == 3 and all(bad in " ".join(refused) for bad in ("19", str(MAX_GAME_MOVES + 1), "x"))
    assert engine.game_moves == 30  # the refused values changed nothing
    shorter = time_for_move(10_000, 100, 0, engine.game_moves)
    assert shorter.soft_ms > time_for_move(10_000, 100).soft_ms  # more a move over a shorter game
    assert time_for_move(10_000, 100, 10, 30) == time_for_move(10_000, 100, 30)  # at the floor: 20 left


@pytest.mark.parametrize("moves", [0, 10, 30, 49, 50, 200])
def test_the_hard_cap_never_reaches_the_clock_less_its_margin(moves: int) -> None:
    for remaining, inc in itertools.product(
        [0, 1, 40, 100, 300, 600, 1_000, 5_000, 60_000, 10**9], [0, 100, 5_000]
    ):
        limits = time_for_move(remaining, inc, moves)
        assert 1 <= limits.soft_ms <= limits.hard_ms
        if remaining > SAFETY_MS:
            assert limits.hard_ms <= max(1, MAX_HARD_SHARE * (remaining - SAFETY_MS)), (remaining, inc)
            assert limits.hard_ms <= remaining - SAFETY_MS


@pytest.mark.parametrize(
    ("moves", "mistake", "shallow"),
    [
        (LOST_GAME, MISTAKE, 3),  # Tangerine hits two moves later: h5g6, then g6h7
        (THREE_MOVES, "b6L", 4),  # a self-play position: Tangerine hits three moves later
    ],
    ids=["two-moves", "three-moves"],
)
def test_the_minimum_depth_sees_the_king_hit(moves: list[str], mistake: str, shallow: int) -> None:
    board = Board()
    for move in moves:
        board.push(move)
    after = board.copy()
    after.push(mistake)
    assert (Searcher(16).search(after, depth=6).info.win_in or 0) > 0  # the mistake loses
    assert str(Searcher(16).search(board, depth=shallow).move) == mistake
    assert MIN_DEPTH > shallow
    # A soft budget already spent still gets the minimum depth, which avoids the hit.
    hurried = Searcher(16).search(board, time=60.0, soft_time=0.0, min_depth=MIN_DEPTH)
    assert hurried.info.depth == MIN_DEPTH and str(hurried.move) != mistake
    assert Searcher(16).search(board, time=60.0, soft_time=0.0).info.depth == 1  # without it: one ply


def _go(board: Board, go: str) -> list[str]:
    out = io.StringIO()
    engine = LeiserEngine(out)
    moves = " ".join(str(m) for m in board.move_stack)
    for line in (f"position startpos moves {moves}", go, "wait"):
        engine.handle(line)
    return out.getvalue().splitlines()


def test_a_clocked_go_searches_to_the_minimum_depth_and_a_gone_clock_moves_at_once() -> None:
    lines = _go(lost_game(), "go time 10000 inc 100")
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth ")]
    assert max(depths) >= MIN_DEPTH and lines[-1] != f"bestmove {MISTAKE}"
    # 300 ms left: under the latency floor and the overheads kept back, the hard cap (1 ms) wins.
    lines = _go(lost_game(), "go time 300 inc 0")
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth ")]
    assert lines[-1].startswith("bestmove ") and max(depths) < MIN_DEPTH

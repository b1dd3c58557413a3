"""Time-loss check: camelpy plays camelpy through python-chess with real clocks, and every move's wall time
(as python-chess sees it: the GUI side of the pipe) is charged to the mover's clock. A clock below zero
is a loss on time.

Not part of the default run (``slow``); the lead runs the long matches. As a script::

    python tests/test_uci_timeloss.py --games 40 --tc 1+0.01
    python tests/test_uci_timeloss.py --games 10 --tc 40/10

prints the games played, time losses, the lowest clock seen and the slowest move relative to its clock.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

ENGINE_COMMAND = [sys.executable, "-m", "camelpy"]
OPENINGS = Path(__file__).resolve().parent / "data" / "balanced.epd"
MAX_PLIES = 300
"""Games still running after this many plies are scored as draws (time trouble shows long before)."""


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """``base+inc`` (seconds) or ``moves/base`` (a fresh ``base`` every ``moves`` moves)."""

    base_s: float
    inc_s: float = 0.0
    moves: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        if "/" in text:
            moves, base = text.split("/")
            return cls(float(base), 0.0, int(moves))
        base, _, inc = text.partition("+")
        return cls(float(base), float(inc or 0))


@dataclasses.dataclass
class GameReport:
    result: str
    plies: int
    time_loss: bool
    lowest_clock_s: float
    worst_share: float
    """The largest share of the mover's clock that one move took."""


def play_game(tc: TimeControl, opening: str, overhead_ms: int | None = None) -> GameReport:
    board = chess.Board(opening)
    clocks = {chess.WHITE: tc.base_s, chess.BLACK: tc.base_s}
    moves_done = {chess.WHITE: 0, chess.BLACK: 0}
    lowest, worst = tc.base_s, 0.0
    game = object()  # one identity per game: python-chess sends ucinewgame when it changes
    engines = {
        color: chess.engine.SimpleEngine.popen_uci(ENGINE_COMMAND, timeout=30)
        for color in (chess.WHITE, chess.BLACK)
    }
    try:
        if overhead_ms is not None:
            for engine in engines.values():
                engine.configure({"Move Overhead": overhead_ms})
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < MAX_PLIES:
            color = board.turn
            to_go = None
            if tc.moves is not None:
                to_go = tc.moves - moves_done[color] % tc.moves
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=tc.inc_s,
                black_inc=tc.inc_s,
                remaining_moves=to_go,
            )
            start = time.monotonic()
            result = engines[color].play(board, limit, game=game)
            spent = time.monotonic() - start
            worst = max(worst, spent / max(clocks[color], 1e-9))
            clocks[color] -= spent
            if clocks[color] < 0:
                return GameReport(
                    "0-1" if color else "1-0", len(board.move_stack), True, clocks[color], worst
                )
            lowest = min(lowest, clocks[color])
            clocks[color] += tc.inc_s
            moves_done[color] += 1
            if tc.moves is not None and moves_done[color] % tc.moves == 0:
                clocks[color] += tc.base_s
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)
    finally:
        for engine in engines.values():
            engine.quit()
    outcome = board.outcome(claim_draw=True)
    return GameReport(outcome.result() if outcome else "1/2-1/2", len(board.move_stack), False, lowest, worst)


def run_match(games: int, tc: TimeControl, concurrency: int = 1, seed: int = 1) -> list[GameReport]:
    lines = [
        chess.Board.from_epd(line)[0].fen() for line in OPENINGS.read_text().splitlines() if line.strip()
    ]
    openings = random.Random(seed).sample(lines, games)
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(lambda fen: play_game(tc, fen), openings))


def summary(reports: list[GameReport], tc: TimeControl, wall_s: float) -> str:
    losses = sum(r.time_loss for r in reports)
    results = {res: sum(r.result == res for r in reports) for res in ("1-0", "0-1", "1/2-1/2")}
    return (
        f"{len(reports)} games at {tc}: {losses} time losses; results {results}; "
        f"lowest clock {min(r.lowest_clock_s for r in reports) * 1000:.0f} ms; "
        f"largest share of the clock on one move {max(r.worst_share for r in reports):.2f}; "
        f"mean length {sum(r.plies for r in reports) / len(reports):.0f} plies; wall {wall_s:.0f} s"
    )


@pytest.mark.slow
def test_no_time_losses_short_sample() -> None:
    tc = TimeControl.parse("1+0.01")
    reports = run_match(4, tc)
    assert sum(r.time_loss for r in reports) == 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tc", default="1+0.01", help="base+inc in seconds, or moves/base (default 1+0.01)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    control = TimeControl.parse(options.tc)
    began = time.monotonic()
    match = run_match(options.games, control, options.concurrency, options.seed)
    print(summary(match, control, time.monotonic() - began))
    sys.exit(1 if any(r.time_loss for r in match) else 0)

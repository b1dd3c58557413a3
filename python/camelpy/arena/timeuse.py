"""How an engine spent its clock over a match's games (chess or Leiserchess): the figures that say
whether its time management works.

:func:`time_use` replays each game's clock from the engine's time control (``tc=`` in its limits) and the
referee's timing of every move, and reports: the time a move takes at each stage of the game, the clock
left when games end (time never used), the lowest the clock ever ran (how near a loss on time), the
longest move, and the long thinks in lost positions (time that buys nothing). ``camelpy match`` prints
it under the result and saves it in ``summary.txt`` and ``summary.json``.

>>> from camelpy.arena.openings import Opening
>>> from camelpy.arena.referee import GameRecord, MoveRecord
>>> moves = (MoveRecord("e2e4", time=0.5), MoveRecord("e7e5", time=0.2), MoveRecord("g1f3", time=0.3))
>>> game = GameRecord("a", "b", Opening(), "1-0", "adjudication", "", moves, white_limits="tc=10+0.1",
...                   black_limits="tc=10+0.1")
>>> use = time_use([game], "a")
>>> use.moves, use.mean_move_s, use.clock_left_median_s, use.lowest_clock_s
(2, 0.4, 9.4, 9.3)
>>> print(use.line())
a: 2 moves in 1 game, 0.400 s a move (moves 1-20: 0.400), clock left at the end: median 9.40 s; \
lowest clock 9.30 s; longest move 0.50 s; long thinks when lost: 0 of 0 moves
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import chess

from camelpy._args import items_arg, str_arg
from camelpy.arena.engines import TimeControl
from camelpy.arena.openings import Opening

__all__ = [
    "LONG_THINK",
    "LOST_CP",
    "STAGES",
    "STAGE_MOVES",
    "PlayedGame",
    "PlayedMove",
    "TimeUse",
    "summary_lines",
    "time_use",
]

STAGE_MOVES = 20
"""Moves per stage of the game in :attr:`TimeUse.stage_means_s`: a game of ~60 moves gives three stages
(opening and early middlegame, middlegame, endgame), enough to see where the clock goes."""

STAGES = 4
"""Stages in :attr:`TimeUse.stage_means_s`; the last holds every move from its first on (moves 61 on: few
games are longer, and an endgame's moves are alike)."""

LOST_CP = -500
"""An engine's own score at or below this (five pawns down, or being mated) marks a lost position: the
game is decided, and thinking longer there spends clock that a position still to be saved could use."""

LONG_THINK = 2.0
"""A move is a long think when it takes more than this many times the engine's mean move at that stage
of the game: about where the time manager's extensions (an unstable best move, a falling score) end."""


@dataclasses.dataclass(frozen=True)
class TimeUse:
    """One engine's use of its clock over a set of games (:func:`time_use`). Times are in seconds.

    >>> TimeUse("a", 1, 2, 0.4, (0.4,), 9.4, 9.5, 0.5, 0, 0)
    TimeUse(engine='a', games=1, moves=2, mean_move_s=0.4, stage_means_s=(0.4,), clock_left_median_s=9.4, \
lowest_clock_s=9.5, longest_move_s=0.5, long_thinks_lost=0, lost_moves=0)
    """

    engine: str
    """The engine's name."""
    games: int
    """Games it played on a clock (``tc=`` in its limits)."""
    moves: int
    """Moves it made in them (the opening's book moves are not the engine's)."""
    mean_move_s: float
    """Mean time of its moves."""
    stage_means_s: tuple[float, ...]
    """Mean time of its moves 1-20, 21-40, 41-60 and 61 on (:data:`STAGE_MOVES` a stage, :data:`STAGES`
    stages)."""
    clock_left_median_s: float
    """Median clock left after its last move of a game: time it never used."""
    lowest_clock_s: float
    """The lowest its clock ran in any game (after a move's time, before that move's increment)."""
    longest_move_s: float
    """Its longest move."""
    long_thinks_lost: int
    """Its moves in lost positions (own score at most :data:`LOST_CP`) that took more than
    :data:`LONG_THINK` times its mean at that stage."""
    lost_moves: int
    """Its moves in lost positions."""

    def line(self) -> str:
        """The figures in one line, as a match summary shows them."""
        stages = ", ".join(f"{_stage_name(i)}: {s:.3f}" for i, s in enumerate(self.stage_means_s))
        games = f"{self.games} game" + ("" if self.games == 1 else "s")
        return (
            f"{self.engine}: {self.moves} moves in {games}, {self.mean_move_s:.3f} s a move "
            f"(moves {stages}), "
            f"clock left at the end: median {self.clock_left_median_s:.2f} s; lowest clock "
            f"{self.lowest_clock_s:.2f} s; longest move {self.longest_move_s:.2f} s; long thinks when lost: "
            f"{self.long_thinks_lost} of {self.lost_moves} moves"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the fields."""
        data = dataclasses.asdict(self)
        data["stage_means_s"] = list(self.stage_means_s)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeUse:
        """The :class:`TimeUse` whose :meth:`to_json` is *data* (a summary's ``time_use`` entry).

        >>> use = TimeUse("a", 1, 2, 0.4, (0.4,), 9.4, 9.3, 0.5, 0, 0)
        >>> TimeUse.from_json(use.to_json()) == use
        True

        :raises: :exc:`TypeError`/:exc:`KeyError` for a dict that is not one.
        """
        return cls(**{**data, "stage_means_s": tuple(data["stage_means_s"])})


class PlayedMove(Protocol):
    """What :func:`time_use` reads of a move (:class:`camelpy.arena.referee.MoveRecord`)."""

    @property
    def time(self) -> float:
        """Seconds the move took."""
        ...

    @property
    def cp(self) -> int | None:
        """The mover's score in centipawns, if it sent one."""
        ...


@runtime_checkable
class PlayedGame(Protocol):
    """What :func:`time_use` reads of a game (:class:`camelpy.arena.referee.GameRecord`, whose module
    reports time use and so is not imported here)."""

    @property
    def white(self) -> str:
        """White's engine name."""
        ...

    @property
    def black(self) -> str:
        """Black's engine name."""
        ...

    @property
    def opening(self) -> Opening:
        """Start position and book moves."""
        ...

    @property
    def moves(self) -> Sequence[PlayedMove]:
        """The engines' moves after the book."""
        ...

    @property
    def white_limits(self) -> str:
        """White's limits as engine-spec words (``tc=10+0.1``)."""
        ...

    @property
    def black_limits(self) -> str:
        """Black's limits."""
        ...


def _stage(move: int) -> int:
    """The stage of an engine's *move* (0 for its first)."""
    return min(move // STAGE_MOVES, STAGES - 1)


def _stage_name(stage: int) -> str:
    first = stage * STAGE_MOVES + 1
    return f"{first} on" if stage == STAGES - 1 else f"{first}-{first + STAGE_MOVES - 1}"


def _clock(limits: str) -> TimeControl | None:
    for word in limits.split():
        if word.startswith("tc="):
            return TimeControl.parse(word[3:])
    return None


def _first_mover(record: PlayedGame) -> chess.Color:
    # The FEN's side to move: chess writes w or b, Leiserchess W or B.
    fen = record.opening.fen.split()
    white_first = len(fen) < 2 or fen[1].lower() != "b"
    return white_first == (len(record.opening.moves) % 2 == 0)


def summary_lines(uses: Iterable[TimeUse]) -> list[str]:
    """The ``Time use:`` block of a match summary: a heading and one indented line per engine, or no
    lines for no engine (a match without a clock).

    >>> summary_lines([TimeUse("a", 1, 2, 0.4, (0.4,), 9.4, 9.3, 0.5, 0, 0)])[0]
    'Time use:'
    >>> summary_lines([])
    []
    """
    lines = [f"  {use.line()}" for use in uses]
    return ["Time use:", *lines] if lines else []


def time_use(records: Iterable[PlayedGame], engine: str) -> TimeUse:
    """*engine*'s use of its clock in the games *records* (those it played on a clock; chess or
    Leiserchess, whose start FEN gives the side to move first as ``W`` or ``B``).

    Its clock starts at the time control's base when its first move after the book is asked for, loses
    each move's time as the referee measured it, gains the increment after each move, and the base again
    after each period of a ``moves/base`` control.

    :raises: :exc:`TypeError` for an argument of the wrong type, :exc:`ValueError` for a record whose
        limits hold a malformed time control.
    """
    str_arg(engine, "engine")
    games: list[list[tuple[float, int | None]]] = []
    left: list[float] = []
    lowest = float("inf")
    for record in items_arg(records, "records", PlayedGame):
        if engine not in (record.white, record.black) or record.white == record.black:
            continue
        colour = chess.WHITE if record.white == engine else chess.BLACK
        tc = _clock(record.white_limits if colour == chess.WHITE else record.black_limits)
        if tc is None:
            continue
        parity = 0 if _first_mover(record) == colour else 1
        own = [(m.time, m.cp) for i, m in enumerate(record.moves) if i % 2 == parity]
        clock = tc.base
        for n, (seconds, _) in enumerate(own, 1):
            clock -= seconds
            lowest = min(lowest, clock)
            clock += tc.inc + (tc.base if tc.moves and n % tc.moves == 0 else 0.0)
        games.append(own)
        left.append(clock)
    by_stage: list[list[float]] = []
    for own in games:
        for n, (seconds, _) in enumerate(own):
            stage = _stage(n)
            while len(by_stage) <= stage:
                by_stage.append([])
            by_stage[stage].append(seconds)
    means = tuple(statistics.fmean(times) for times in by_stage)
    lost = long = 0
    for own in games:
        for n, (seconds, cp) in enumerate(own):
            if cp is not None and cp <= LOST_CP:
                lost += 1
                long += seconds > LONG_THINK * means[_stage(n)]
    times = [seconds for own in games for seconds, _ in own]
    return TimeUse(
        engine=engine,
        games=len(games),
        moves=len(times),
        mean_move_s=round(statistics.fmean(times), 6) if times else 0.0,
        stage_means_s=tuple(round(m, 6) for m in means),
        clock_left_median_s=round(statistics.median(left), 6) if left else 0.0,
        lowest_clock_s=round(lowest, 6) if games and times else 0.0,
        longest_move_s=max(times, default=0.0),
        long_thinks_lost=long,
        lost_moves=lost,
    )

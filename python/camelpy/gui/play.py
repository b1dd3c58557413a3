"""A game against camelpy as the page plays it: the board, who plays which side, the engine's strength,
the clocks, undo, resignation, draw offers and the PGN. No engine here: the server asks
:meth:`Game.engine_limit` how to search and hands the move back with :meth:`Game.push`.

>>> game = Game(GameSettings(human="white", strength=Strength("nodes", 1000)))
>>> game.push("e2e4", now=0.0)
>>> game.engine_to_move(), game.engine_limit(now=0.0).nodes
(True, 1000)
"""

from __future__ import annotations

import dataclasses
import datetime
import random
from typing import Any

import chess
import chess.engine

from camelpy._args import int_arg, real_arg, shown, str_arg
from camelpy._quote import quote
from camelpy.gui.variants import LEVEL_NAMES, VARIANTS, Level

__all__ = ["Clock", "Game", "GameSettings", "Strength"]

STRENGTH_KINDS = ("level", "ms", "depth", "nodes", "clock")
"""How the engine's search is bounded: a named level, a time per move, a depth, a node count, or its
clock (only with a clock)."""

MAX_CLOCK_S = 6 * 3600
"""The longest clock a game may start with (six hours); longer is surely a typing slip."""

DRAW_ACCEPT_CP = 0
"""The engine accepts a draw offer when its score, from its side, is at most this: it takes a draw
unless it believes it stands better."""


@dataclasses.dataclass(frozen=True)
class Strength:
    """How the engine searches: ``Strength("level", "club")``, ``Strength("ms", 500)``,
    ``Strength("depth", 8)``, ``Strength("nodes", 5000)`` or ``Strength("clock")``.

    :raises: :exc:`ValueError` quoting an unknown kind or level, or a value out of range.
    """

    kind: str = "level"
    """One of :data:`STRENGTH_KINDS`."""
    value: str | int = "club"
    """The level's name, or the limit."""

    def __post_init__(self) -> None:
        str_arg(self.kind, "strength")
        if self.kind not in STRENGTH_KINDS:
            raise ValueError(
                f"unknown strength {quote(self.kind)}; expected one of {', '.join(STRENGTH_KINDS)}"
            )
        if self.kind == "level":
            if self.value not in LEVEL_NAMES:
                names = ", ".join(LEVEL_NAMES)
                raise ValueError(f"unknown level {shown(self.value)}; expected one of {names}")
        elif self.kind != "clock":
            top = {"ms": 3_600_000, "depth": 64, "nodes": 1_000_000_000}[self.kind]
            int_arg(self.value, self.kind, 1, top)

    def limit(self, levels: dict[str, Level]) -> chess.engine.Limit:
        """The search limit it stands for in a game whose named levels are *levels* (empty for ``clock``
        and for an Elo level, whose node limit the engine sets itself: :meth:`elo`)."""
        kind, value = levels[str(self.value)] if self.kind == "level" else (self.kind, self.value)
        if kind == "ms":
            return chess.engine.Limit(time=int(value) / 1000)
        if kind == "depth":
            return chess.engine.Limit(depth=int(value))
        if kind == "nodes":
            return chess.engine.Limit(nodes=int(value))
        return chess.engine.Limit()

    def elo(self, levels: dict[str, Level]) -> int | None:
        """The ``UCI_Elo`` the engine plays at in a game whose named levels are *levels* (chess's
        :data:`camelpy.gui.variants.CHESS_LEVELS`), ``None`` for full strength within :meth:`limit`.

        >>> from camelpy.gui.variants import CHESS_LEVELS
        >>> Strength("level", "club").elo(CHESS_LEVELS), Strength("nodes", 500).elo(CHESS_LEVELS)
        (1600, None)
        """
        if self.kind != "level":
            return None
        kind, value = levels[str(self.value)]
        return value if kind == "elo" else None

    def describe(self) -> str:
        """Words for the PGN: ``level club``, ``500 ms``, ``depth 8``, ``5000 nodes``, ``clock``."""
        if self.kind == "level":
            return f"level {self.value}"
        if self.kind == "clock":
            return "clock"
        return f"{self.value} {self.kind}" if self.kind != "depth" else f"depth {self.value}"


@dataclasses.dataclass(frozen=True)
class Clock:
    """A time control: *base* seconds and *inc* seconds added after each move.

    :raises: :exc:`ValueError` for a base not above 0 or beyond :data:`MAX_CLOCK_S`, or a negative
        increment.
    """

    base: float
    """Seconds at the start."""
    inc: float = 0.0
    """Seconds added after each move."""

    def __post_init__(self) -> None:
        real_arg(self.base, "clock base", above=0, maximum=MAX_CLOCK_S)
        real_arg(self.inc, "clock increment", minimum=0, maximum=MAX_CLOCK_S)


@dataclasses.dataclass(frozen=True)
class GameSettings:
    """How a new game starts: the *variant* (``chess`` or ``minichess``), the position (*fen*, or a
    Chess960 start *chess960_pos* 0 … 959, or ``-1`` for a random one), which side the *human* plays
    (``white``, ``black`` or ``both``), the engine's *strength* and an optional *clock*.

    :raises: :exc:`ValueError` quoting what is wrong; :exc:`camelpy.InvalidFenError` for a bad FEN.
    """

    fen: str | None = None
    """The start position (``None``: the standard one or the Chess960 one)."""
    chess960_pos: int | None = None
    """A Chess960 start position number, ``-1`` for a random one."""
    human: str = "white"
    """The side the person plays; ``both`` plays both (the engine does not move)."""
    strength: Strength = Strength()
    """The engine's search limit."""
    clock: Clock | None = None
    """The time control, for both sides."""
    variant: str = "chess"
    """The game: a key of :data:`camelpy.gui.variants.VARIANTS`."""

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown game {shown(self.variant)}; expected one of {', '.join(VARIANTS)}")
        if self.human not in ("white", "black", "both"):
            raise ValueError(f"human must be 'white', 'black' or 'both', got {shown(self.human)}")
        if self.chess960_pos is not None:
            int_arg(self.chess960_pos, "Chess960 position", -1, 959)
        if not isinstance(self.strength, Strength):
            raise TypeError(f"strength must be a Strength, got {type(self.strength).__name__}")
        levels = VARIANTS[self.variant].levels
        if self.strength.kind == "level" and self.strength.value not in levels:
            raise ValueError(
                f"{self.variant} has no level {shown(self.strength.value)}; expected one of"
                f" {', '.join(levels)}"
            )
        if self.strength.kind == "clock" and self.clock is None:
            raise ValueError("the engine can play by its clock only in a game with a clock")

    def board(self) -> Any:
        """The start position (a ``chess.Board`` or a :class:`camelpy.minichess.Board`)."""
        number = self.chess960_pos
        if number is not None and number < 0:
            number = random.randrange(960)
        return VARIANTS[self.variant].new_board(self.fen, number)


class Game:
    """One game against the engine. Times are the caller's monotonic clock in seconds (*now*), so the
    game can be driven by a test without waiting.

    :raises: :exc:`ValueError` (see :class:`GameSettings`) for settings it cannot start from.
    """

    def __init__(self, settings: GameSettings, *, now: float = 0.0) -> None:
        if not isinstance(settings, GameSettings):
            raise TypeError(f"settings must be GameSettings, got {type(settings).__name__}")
        self.settings = settings
        self.variant = VARIANTS[settings.variant]
        self.board = settings.board()
        self.start_fen = self.variant.fen(self.board)
        clock = settings.clock
        self.remaining = {color: clock.base if clock else 0.0 for color in chess.COLORS}
        self.turn_started = now
        self.result: str | None = None
        self.reason: str | None = None
        self.scores: list[str | None] = []
        """The engine's score for each of its moves (None for the person's), as PGN comments."""
        self.started = datetime.datetime.now(datetime.timezone.utc)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def engine_color(self) -> chess.Color | None:
        """The side the engine plays, or ``None``."""
        human = self.settings.human
        return None if human == "both" else (chess.BLACK if human == "white" else chess.WHITE)

    def engine_to_move(self) -> bool:
        """Whether the engine should move now."""
        return not self.over and self.board.turn == self.engine_color()

    def engine_limit(self, *, now: float) -> chess.engine.Limit:
        """The engine's limit for this move: its strength, and its clock when the game has one."""
        limit = self.settings.strength.limit(self.variant.levels)
        clock = self.settings.clock
        if clock is not None:
            left = self.time_left(now)
            limit.white_clock = max(left[chess.WHITE], 0.001)
            limit.black_clock = max(left[chess.BLACK], 0.001)
            limit.white_inc = limit.black_inc = clock.inc
        return limit

    def engine_elo(self) -> int | None:
        """The ``UCI_Elo`` the engine plays at (an Elo level), or ``None``."""
        return self.settings.strength.elo(self.variant.levels)

    def time_left(self, now: float) -> dict[chess.Color, float]:
        """Each side's time, the side to move's running since its turn began."""
        left = dict(self.remaining)
        if self.settings.clock is not None and not self.over and self.board.move_stack:
            left[self.board.turn] -= now - self.turn_started
        return left

    def flag(self, now: float) -> bool:
        """Ends the game if the side to move has run out of time; whether it did."""
        if self.over or self.settings.clock is None or not self.board.move_stack:
            return False
        if self.time_left(now)[self.board.turn] > 0:
            return False
        loser = self.board.turn
        self._end("0-1" if loser == chess.WHITE else "1-0", f"{self.side_name(loser)} loses on time")
        self.remaining[loser] = 0.0
        return True

    def push(self, uci: str, *, now: float, score: str | None = None) -> None:
        """Plays *uci* for the side to move (the person's or the engine's move); the clock runs from
        the first move on, as on a chess server.

        :raises: :exc:`ValueError` when the game is over or the move cannot be played there (quoting
            it); nothing changes.
        """
        str_arg(uci, "move")
        if self.over:
            raise ValueError(f"the game is over ({self.reason}); start a new one")
        move = self.variant.parse(self.board, uci)
        if self.flag(now):
            return
        clock = self.settings.clock
        if clock is not None and self.board.move_stack:
            self.remaining[self.board.turn] -= now - self.turn_started
            self.remaining[self.board.turn] += clock.inc
        self.board.push(move)
        self.scores.append(score)
        self.turn_started = now
        outcome = self.variant.outcome(self.board)
        if outcome is not None:
            self._end(*outcome)

    def undo(self, *, now: float) -> None:
        """Takes back the person's last move (and the engine's answer to it), and reopens a game that
        had ended; the clocks keep their time.

        :raises: :exc:`ValueError` when there is no move of the person's to take back.
        """
        engine = self.engine_color()
        plies = 1 if engine is None or self.board.turn == engine else 2
        if len(self.board.move_stack) < plies:
            raise ValueError("there is no move of yours to take back")
        if self.over:
            self.result = self.reason = None
        for _ in range(plies):
            self.board.pop()
            self.scores.pop()
        self.turn_started = now

    def resign(self) -> None:
        """The person resigns (in a game against the engine; with ``both``, the side to move does).

        :raises: :exc:`ValueError` when the game is already over.
        """
        if self.over:
            raise ValueError(f"the game is over ({self.reason})")
        engine = self.engine_color()
        loser = self.board.turn if engine is None else not engine
        self._end("0-1" if loser == chess.WHITE else "1-0", f"{self.side_name(loser)} resigns")

    def offer_draw(self, engine_cp: int | None) -> bool:
        """The person offers a draw; the engine, whose current score from its side is *engine_cp*,
        accepts when it is at most :data:`DRAW_ACCEPT_CP`. Returns whether the game is drawn.

        :raises: :exc:`ValueError` when the game is over or the engine does not play.
        """
        if self.over:
            raise ValueError(f"the game is over ({self.reason})")
        if self.engine_color() is None:
            raise ValueError("a draw needs an opponent: the engine plays neither side")
        if engine_cp is None or engine_cp > DRAW_ACCEPT_CP:
            return False
        self._end("1/2-1/2", "draw agreed")
        return True

    def side_name(self, color: chess.Color) -> str:
        """*color*'s name in the game (White, or Leiserchess's Tangerine)."""
        return self.variant.sides[0 if color == chess.WHITE else 1]

    def _end(self, result: str, reason: str) -> None:
        self.result, self.reason = result, reason

    def players(self) -> tuple[str, str]:
        """The PGN's White and Black."""
        engine = f"camelpy ({self.settings.strength.describe()})"
        human = self.settings.human
        white = "You" if human in ("white", "both") else engine
        black = "You" if human in ("black", "both") else engine
        return white, black

    def pgn(self) -> str:
        """The game so far as PGN, with the engine's scores as comments."""
        headers = {"Event": "camelpy gui", "Site": "camelpy gui", "Date": self.started.strftime("%Y.%m.%d")}
        headers["White"], headers["Black"] = self.players()
        headers["Result"] = self.result or "*"
        clock = self.settings.clock
        if clock is not None:
            headers["TimeControl"] = f"{clock.base:g}+{clock.inc:g}"
        if self.reason:
            headers["Termination"] = self.reason
        return self.variant.record(self.board, headers, self.scores)

    def view(self, now: float) -> dict[str, Any]:
        """What the page shows: the board, the moves in SAN, the clocks, the result, the PGN."""
        board = self.board.copy()
        stack = list(board.move_stack)
        for _ in stack:
            board.pop()
        sans, moves = [], []
        for move in stack:
            sans.append(self.variant.san(board, move))
            moves.append(self.variant.uci(board, move))
            board.push(move)
        left = self.time_left(now)
        engine = self.engine_color()
        running = None
        if self.settings.clock is not None and not self.over and self.board.move_stack:
            running = _name(self.board.turn).lower()
        return {
            "variant": self.variant.name,
            "files": self.variant.files,
            "ranks": self.variant.ranks,
            "board": self.variant.view(self.board),
            "start_fen": self.start_fen,
            "sans": sans,
            "moves": moves,
            "scores": self.scores,
            "human": self.settings.human,
            "engine": None if engine is None else _name(engine).lower(),
            "strength": dataclasses.asdict(self.settings.strength),
            "clock": None
            if self.settings.clock is None
            else {
                "white": max(left[chess.WHITE], 0.0),
                "black": max(left[chess.BLACK], 0.0),
                "running": running,
            },
            "result": self.result,
            "reason": self.reason,
            "players": list(self.players()),
            "pgn": self.pgn(),
        }


def _name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"

"""One game loop for the small games (issue 39): two :class:`Player` objects, a game's board
(:class:`camelpy.games.Board`: ``push``, ``outcome``, ``turn``) and its :class:`Rules` (how its referee
words an ending), and a :class:`~camelpy.arena.referee.GameRecord` back. Leiserchess's protocol engines
(:class:`camelpy.arena.leiserchess.LeiserPlayer`) and MiniChess's file-protocol programs
(:class:`camelpy.arena.minichess.FilePlayer`) both play through :func:`play_game`, and so does camelpy's
own searcher in this process (:class:`SearcherPlayer`); chess's UCI engines keep their asynchronous
referee (:func:`camelpy.arena.referee.play_game`).

>>> from camelpy.leiserchess import Board
>>> class Resigner:
...     name = "resigner"
...     def new_game(self) -> None: ...
...     def play(self, board: object, moves: Sequence[str]) -> Answer:
...         return Answer(None, 0.0, ("no_move", "it resigns"))
...     def close(self) -> None: ...
>>> with seated((Resigner(), Resigner())) as players:
...     record = play_game(players, Board(), Rules[Board]())
>>> record.result, record.termination, record.reason
('0-1', 'no_move', 'it resigns')
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from camelpy.arena.openings import Opening
from camelpy.arena.referee import GameRecord, MoveRecord
from camelpy.errors import InvalidMoveError
from camelpy.games import Board, Outcome, Searcher

__all__ = ["Answer", "Player", "Rules", "SearcherPlayer", "play_game", "seated"]


class Answer(NamedTuple):
    """A player's answer to :meth:`Player.play`."""

    move: str | None
    """The move's text (``None``: no move, and *fault* says why)."""
    seconds: float
    """Seconds the player took."""
    fault: tuple[str, str] | None = None
    """Why the player has no move, as (termination code, reason): it loses the game."""
    note: str = ""
    """How the move went, in a few words, for the game's report (``0.52 s``)."""


BoardT = TypeVar("BoardT", bound=Board[Any])
"""A game's board type."""
BoardT_contra = TypeVar("BoardT_contra", bound=Board[Any], contravariant=True)


class Player(Protocol[BoardT_contra]):
    """One side of a game, as the referee sees it: a name, a new game, and a move for a position."""

    @property
    def name(self) -> str:
        """The name it plays under (the record's ``white``/``black``)."""
        ...

    def new_game(self) -> None:
        """Gets ready for a new game (``ucinewgame``, a fresh clock)."""

    def play(self, board: BoardT_contra, moves: Sequence[str]) -> Answer:
        """Its move on *board*; *moves* are the texts played since the game's start position (its
        opening's included)."""
        ...

    def close(self) -> None:
        """Ends it once its games are over (its process quits or is killed); :func:`seated` calls it."""


PlayersT = TypeVar("PlayersT", bound=Sequence[Player[Any]])
"""The players :func:`seated` closes."""


@contextlib.contextmanager
def seated(players: PlayersT) -> Iterator[PlayersT]:
    """*players* for a ``with`` block that closes each of them (:meth:`Player.close`) when it ends,
    however it ends: a runner's jobs seat the players they start this way."""
    with contextlib.ExitStack() as stack:
        for player in players:
            stack.callback(player.close)
        yield players


class SearcherPlayer(Generic[BoardT]):
    """camelpy's own *searcher* (a :class:`camelpy.games.Searcher`) as a player in this process, named
    *name*, searching each move to *depth* plies, about *nodes* positions or *time* seconds (at least
    one), its table cleared for each new game.

    >>> from camelpy import minichess
    >>> players = [SearcherPlayer(f"depth {d}", minichess.Searcher(hash_mb=1), depth=d) for d in (1, 3)]
    >>> record = play_game(players, minichess.Board(), Rules[minichess.Board]())
    >>> record.white, record.black, record.result != "*", len(record.moves) <= 50
    ('depth 1', 'depth 3', True, True)

    :raises: :exc:`ValueError` without a limit.
    """

    def __init__(
        self,
        name: str,
        searcher: Searcher[BoardT, Any],
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
    ) -> None:
        if depth is None and nodes is None and time is None:
            raise ValueError("a searcher player needs a depth, nodes or time limit")
        self._name = name
        self.searcher = searcher
        self.depth, self.nodes, self.time = depth, nodes, time

    @property
    def name(self) -> str:
        """The name it plays under."""
        return self._name

    def new_game(self) -> None:
        """Clears the searcher's table."""
        self.searcher.clear()

    def close(self) -> None:
        """Nothing: the searcher lives in this process."""

    def play(self, board: BoardT, moves: Sequence[str]) -> Answer:
        """The searcher's move on *board* (*moves* are on the board already)."""
        began = time.monotonic()
        found = self.searcher.search(board, depth=self.depth, nodes=self.nodes, time=self.time)
        spent = time.monotonic() - began
        if found.move is None:
            return Answer(None, spent, ("no_move", f"{self._name} found no move"))
        return Answer(str(found.move), spent, note=f"{spent:.2f} s")


def _no_reason(board: Any, outcome: Outcome) -> str:
    return ""


def _plain_illegal(side: str, text: str, malformed: bool) -> str:
    return ""


@dataclasses.dataclass(frozen=True)
class Rules(Generic[BoardT]):
    """A game's referee policy beyond its board's rules: how an ending is worded, whether the illegal
    move that lost a game is recorded, and when a game is adjudicated a draw."""

    outcome_reason: Callable[[BoardT, Outcome], str] = _no_reason
    """The reason of a game its rules ended (given the final board)."""
    illegal_reason: Callable[[str, str, bool], str] = _plain_illegal
    """The reason of a loss by an illegal move (side's name, the text, whether it is no move at all)."""
    keep_illegal: bool = False
    """Whether the move that lost by being illegal is recorded (Leiserchess's games show it)."""
    max_plies: int | None = None
    """Plies after which the game is a draw (``max_plies``), the start position's moves included."""


_SIDES = ("White", "Black")


def play_game(
    players: Sequence[Player[BoardT]],
    board: BoardT,
    rules: Rules[BoardT],
    *,
    opening: Sequence[str] = (),
    pair: int = 0,
    game: int = 0,
    on_move: Callable[[BoardT, Answer], None] | None = None,
    limits: tuple[str, str] = ("", ""),
) -> GameRecord:
    """Plays one game on *board* (the start position, then the *opening* moves, which this pushes),
    ``players[0]`` moving first, and returns its record; *on_move* sees the board after each move;
    *limits* are the players' limits as engine-spec words (``tc=10+0.1``), kept in the record (so that
    :func:`camelpy.arena.timeuse.time_use` can replay a clock).

    A player's fault (no move, time, a crash) or an illegal move loses; the board's rules and *rules*
    end the game otherwise.
    """
    start = board.fen()
    for move in opening:
        board.push(move)
    played: list[MoveRecord] = []
    texts = list(opening)
    for player in players:
        player.new_game()

    def finish(result: str, termination: str, reason: str) -> GameRecord:
        return GameRecord(
            players[0].name,
            players[1].name,
            Opening(start, tuple(opening)),
            result,
            termination,
            reason,
            tuple(played),
            round=f"{pair + 1}.{game + 1}",
            pair=pair,
            game=game,
            white_limits=limits[0],
            black_limits=limits[1],
            final=board.fen(),
        )

    while True:
        outcome = board.outcome()
        if outcome is not None:
            return finish(outcome.result(), outcome.termination.value, rules.outcome_reason(board, outcome))
        if rules.max_plies is not None and len(texts) >= rules.max_plies:
            return finish("1/2-1/2", "max_plies", "")
        side = 0 if board.turn else 1
        lost = "0-1" if side == 0 else "1-0"
        answer = players[side].play(board, texts)
        if answer.move is None:
            assert answer.fault is not None
            return finish(lost, *answer.fault)
        try:
            board.push(answer.move)
        except (ValueError, TypeError) as err:
            if rules.keep_illegal:
                played.append(MoveRecord(answer.move, time=answer.seconds))
            malformed = isinstance(err, InvalidMoveError)
            return finish(lost, "illegal_move", rules.illegal_reason(_SIDES[side], answer.move, malformed))
        texts.append(answer.move)
        played.append(MoveRecord(answer.move, time=answer.seconds))
        if on_move is not None:
            on_move(board, answer)

"""Game review: where each player went wrong in a game (the command is ``camelpy review``,
:mod:`camelpy.tools.chess.review`).

:func:`review` searches every position of a :class:`chess.pgn.Game` (before each move, and after the
last) in one :func:`camelpy.batch.analyse_many` batch on every core, with the default network
evaluation, and classes each move by the win probability it cost its mover (see :func:`win_percent`):
``best`` (the search's own choice), ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` (the
``*_LOSS`` thresholds). Moves other than the search's choice keep the better move and its line in
SAN. Each player gets an accuracy (:func:`move_accuracy` averaged), and the largest swings are the
critical moments. :func:`annotate` writes the review into a PGN (NAGs ``?!``, ``?``, ``??``,
``[%eval …]`` comments, the better line as a variation), :func:`plot_review` draws the evaluation.

>>> import io, chess.engine, chess.pgn
>>> game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 *"))
>>> result = review(game, limit=chess.engine.Limit(depth=6), threads=1)
>>> [(m.san, m.judgement) for m in result.moves if m.judgement == "blunder"]
[('Qxf7+', 'blunder')]
>>> result.moves[4].best_san != "Qxf7+", result.critical[0]
(True, 5)

The win probability is lichess's logistic curve of the centipawn score,
``50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`` (a mate for the mover is 100, against it 0), and a
move's accuracy lichess's fit of accuracy to the win percentage lost,
``103.1668 * exp(-0.04354 * loss) - 3.1669`` clamped to 0 … 100. A player's accuracy here is the plain
mean over their moves (lichess mixes a volatility-weighted mean with a harmonic one).
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, Union

import chess
import chess.engine
import chess.pgn

from camelpy._args import read_text
from camelpy._quote import quote
from camelpy.batch import BatchResult, ProgressCallback, analyse_many
from camelpy.engine import Engine
from camelpy.types import SearchResult

__all__ = [
    "BLUNDER_LOSS",
    "CRITICAL_MOMENTS",
    "DEFAULT_LIMIT",
    "INACCURACY_LOSS",
    "JUDGEMENTS",
    "LINE_PLIES",
    "MAX_PGN_BYTES",
    "MISTAKE_LOSS",
    "GameReview",
    "Judgement",
    "MoveReview",
    "annotate",
    "move_accuracy",
    "parse_pgn",
    "plot_review",
    "read_games",
    "review",
    "review_many",
    "win_percent",
]

Judgement = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
"""How a move is classed, from no loss to the largest."""

JUDGEMENTS: tuple[Judgement, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""Every :data:`Judgement`, from no loss to the largest."""

INACCURACY_LOSS = 5.0
"""Win percentage points lost from which a move is an inaccuracy: about half a pawn in a level game
(lichess's 0.1 of winning chances on its -1 … 1 scale)."""

MISTAKE_LOSS = 10.0
"""Win percentage points lost from which a move is a mistake: about a pawn in a level game (lichess's 0.2)."""

BLUNDER_LOSS = 15.0
"""Win percentage points lost from which a move is a blunder: a piece or a won game thrown away
(lichess's 0.3)."""

CRITICAL_MOMENTS = 3
"""The critical moments kept per game: the moves that lost the most (at least :data:`INACCURACY_LOSS`)."""

LINE_PLIES = 10
"""Plies of the better line kept: enough to see the point, short enough to read in a PGN."""

MAX_PGN_BYTES = 64 << 20
"""The largest PGN file ``camelpy review`` reads (tens of thousands of games)."""

DEFAULT_LIMIT = chess.engine.Limit(nodes=200_000)
"""Each position's search by default: about 0.2 s on one core of the 2-core development machine, and
deterministic (the same review on any number of threads)."""

ScoreLike = Union[chess.engine.Cp, chess.engine.Mate, chess.engine.MateGivenType]
"""A White-view score as the review keeps it."""


def win_percent(score: chess.engine.Score) -> float:
    """The win probability (0 … 100) of the side whose score *score* is: lichess's logistic curve
    ``50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)``; a mate for that side is 100, against it 0.

    >>> win_percent(chess.engine.Cp(0)), round(win_percent(chess.engine.Cp(300)), 1)
    (50.0, 75.1)
    >>> win_percent(chess.engine.Mate(3)), win_percent(chess.engine.Mate(-1))
    (100.0, 0.0)
    """
    if score.is_mate():
        return 100.0 if (score.score(mate_score=100_000) or 0) > 0 else 0.0
    cp = score.score() or 0
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0)


def move_accuracy(loss: float) -> float:
    """A move's accuracy (0 … 100) from the win percentage points it lost: lichess's fit
    ``103.1668 * exp(-0.04354 * loss) - 3.1669``, clamped.

    >>> round(move_accuracy(0.0)), round(move_accuracy(10.0), 1), move_accuracy(100.0)
    (100, 63.6, 0.0)
    """
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def _judgement(loss: float, best: bool) -> Judgement:
    if best:
        return "best"
    if loss >= BLUNDER_LOSS:
        return "blunder"
    if loss >= MISTAKE_LOSS:
        return "mistake"
    if loss >= INACCURACY_LOSS:
        return "inaccuracy"
    return "good"


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game. Scores are from White's view (python-chess's ``Cp``, ``Mate``,
    ``MateGiven``); win percentages and the loss are the mover's. Its ``repr`` rebuilds it (with those
    names and ``MoveReview`` in scope)."""

    ply: int
    """The move's place in the game: 1 for the first move."""
    fullmove: int
    """Its move number as a PGN writes it (``12.`` or ``12...``)."""
    turn: chess.Color
    """The mover: ``True`` for White (``chess.WHITE``)."""
    uci: str
    """The move played, in UCI."""
    san: str
    """The move played, in SAN."""
    best_san: str
    """The search's best move in the position before (the move played for a ``best`` move)."""
    best_line: tuple[str, ...]
    """The better line in SAN, from the better move (at most :data:`LINE_PLIES`); empty for a ``best``
    move."""
    score_before: ScoreLike
    """The position's score before the move, with the best move (White's view)."""
    score_after: ScoreLike
    """The score after the move played (White's view)."""
    loss: float
    """Win percentage points the move cost its mover (0 for the search's own move, never negative)."""
    judgement: Judgement
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder``, by :attr:`loss`."""

    @property
    def move(self) -> chess.Move:
        """The move played."""
        return chess.Move.from_uci(self.uci)

    @property
    def label(self) -> str:
        """The move as a PGN writes it alone: ``3. Qxf7+`` or ``3... Kxf7``."""
        return f"{self.fullmove}{'.' if self.turn else '...'} {self.san}"

    @property
    def accuracy(self) -> float:
        """The move's accuracy, :func:`move_accuracy` of its loss."""
        return move_accuracy(self.loss)


@dataclasses.dataclass(frozen=True)
class GameReview:
    """A reviewed game: its players, each move's review and the critical moments. Its ``repr``
    rebuilds it (with ``GameReview``, ``MoveReview``, ``Cp``, ``Mate`` and ``MateGiven`` in scope)."""

    white: str
    """White's name from the PGN headers."""
    black: str
    """Black's name."""
    result: str
    """The result header (``1-0``, ``0-1``, ``1/2-1/2``, ``*``)."""
    moves: tuple[MoveReview, ...]
    """Every move, in order."""
    critical: tuple[int, ...]
    """The plies of the largest swings, largest first (at most :data:`CRITICAL_MOMENTS`)."""

    def accuracy(self, color: chess.Color) -> float | None:
        """*color*'s accuracy: the mean of their moves' :attr:`MoveReview.accuracy`; ``None`` if they
        made no move."""
        values = [m.accuracy for m in self.moves if m.turn == color]
        return sum(values) / len(values) if values else None

    def count(self, color: chess.Color, judgement: Judgement) -> int:
        """How many of *color*'s moves were classed *judgement*."""
        return sum(1 for m in self.moves if m.turn == color and m.judgement == judgement)

    def critical_moves(self) -> list[MoveReview]:
        """The moves of :attr:`critical`, largest swing first."""
        return [self.moves[ply - 1] for ply in self.critical]


def _line_san(board: chess.Board, line: Sequence[chess.Move]) -> tuple[str, ...]:
    replay = board.copy()
    sans = []
    for move in line[:LINE_PLIES]:
        if not replay.is_legal(move):
            break
        sans.append(replay.san(move))
        replay.push(move)
    return tuple(sans)


def _position_score(board: chess.Board, result: BatchResult) -> chess.engine.PovScore:
    """A position's score (the side to move's), exact where the game is over."""
    if board.is_checkmate():
        return chess.engine.PovScore(chess.engine.Mate(-0), board.turn)
    if board.is_game_over(claim_draw=False):  # stalemate, bare kings, the 75-move rule, fivefold
        return chess.engine.PovScore(chess.engine.Cp(0), board.turn)
    if isinstance(result, Exception):
        raise result
    return result.score


def _positions(game: chess.pgn.Game) -> tuple[list[chess.Board], list[chess.Move]]:
    if game.errors:
        raise ValueError(str(game.errors[0]).split(" while parsing ")[0])
    board = game.board()
    if type(board) is not chess.Board:
        raise ValueError(f"variant {game.headers.get('Variant', '?')!r} is not reviewed (chess only)")
    # Each board keeps the moves since the last capture or pawn move: all a repetition can involve,
    # and a long game's boards stay small.
    boards = [board.copy(stack=board.halfmove_clock)]
    moves = list(game.mainline_moves())
    for move in moves:
        board.push(move)
        boards.append(board.copy(stack=board.halfmove_clock))
    return boards, moves


def _game_review(
    game: chess.pgn.Game, boards: list[chess.Board], moves: list[chess.Move], results: list[BatchResult]
) -> GameReview:
    scores = [_position_score(b, r) for b, r in zip(boards, results)]
    reviewed = []
    for i, move in enumerate(moves):
        board = boards[i]
        found = results[i]
        assert isinstance(found, SearchResult)  # _position_score raised for an exception
        mover = board.turn
        before, after = scores[i].pov(mover), scores[i + 1].pov(mover)
        best = found.best_move == move
        loss = 0.0 if best else max(0.0, win_percent(before) - win_percent(after))
        best_san = board.san(found.best_move) if found.best_move is not None else board.san(move)
        reviewed.append(
            MoveReview(
                ply=i + 1,
                fullmove=board.fullmove_number,
                turn=mover,
                uci=move.uci(),
                san=board.san(move),
                best_san=best_san,
                best_line=() if best else _line_san(board, found.pv),
                score_before=scores[i].white(),  # type: ignore[arg-type]  # Cp, Mate or MateGiven
                score_after=scores[i + 1].white(),  # type: ignore[arg-type]
                loss=round(loss, 2),
                judgement=_judgement(loss, best),
            )
        )
    swings = sorted((m for m in reviewed if m.loss >= INACCURACY_LOSS), key=lambda m: (-m.loss, m.ply))
    return GameReview(
        white=game.headers.get("White", "?"),
        black=game.headers.get("Black", "?"),
        result=game.headers.get("Result", "*"),
        moves=tuple(reviewed),
        critical=tuple(m.ply for m in swings[:CRITICAL_MOMENTS]),
    )


def review_many(
    games: Iterable[chess.pgn.Game],
    *,
    limit: chess.engine.Limit = DEFAULT_LIMIT,
    engine: Engine | None = None,
    threads: int | None = None,
    progress: bool | ProgressCallback = False,
    backend: str = "local",
) -> list[GameReview]:
    """Reviews several games in one batch (every position of every game searched side by side, see
    :func:`review`); the reviews in the games' order. *progress* counts the positions searched (see
    :func:`camelpy.batch.analyse_many`), and ``backend="ray"`` searches them on a Ray cluster, with
    the same results.

    :raises: :exc:`ValueError` for a game with an illegal move (python-chess's parse error) or of a
        variant other than chess, and as :func:`camelpy.batch.analyse_many` for a bad limit.
    """
    parsed = [(game, *_positions(game)) for game in games]
    boards = [board for _, game_boards, _ in parsed for board in game_boards]
    if engine is not None:
        results = engine.analyse_many(
            boards,
            limit,
            threads=threads,
            progress=progress,
            backend=backend,
        )
    else:
        results = analyse_many(boards, limit, threads=threads, progress=progress, backend=backend)
    reviews = []
    start = 0
    for game, game_boards, moves in parsed:
        end = start + len(game_boards)
        reviews.append(_game_review(game, game_boards, moves, results[start:end]))
        start = end
    return reviews


def review(
    game: chess.pgn.Game,
    *,
    limit: chess.engine.Limit = DEFAULT_LIMIT,
    engine: Engine | None = None,
    threads: int | None = None,
    progress: bool | ProgressCallback = False,
    backend: str = "local",
) -> GameReview:
    """Reviews *game*'s main line: every position before a move, and the last, searched within *limit*
    (a ``chess.engine.Limit``; :data:`DEFAULT_LIMIT` by default) by :func:`camelpy.batch.analyse_many`
    on *threads* workers (default: one per CPU) with the built-in network, or by *engine*'s
    :meth:`camelpy.Engine.analyse_many` (its network, weights and tablebases); ``backend="ray"``
    searches on a Ray cluster instead (:mod:`camelpy.cluster`). A depth or node limit gives the same
    review on any number of threads, and on a cluster.

    A move loses the mover's win percentage before it (the best move's score) less that after it; the
    search's own move loses nothing (the two searches differ by a ply, so their scores differ by noise).

    >>> import io, chess.engine, chess.pgn
    >>> game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qe2 *"))
    >>> missed = review(game, limit=chess.engine.Limit(depth=6), threads=1).moves[-1]
    >>> missed.judgement, missed.best_san, missed.score_before
    ('blunder', 'Qxf7#', Mate(+1))

    :raises: as :func:`review_many`.
    """
    return review_many(
        [game], limit=limit, engine=engine, threads=threads, progress=progress, backend=backend
    )[0]


_NAGS = {
    "inaccuracy": chess.pgn.NAG_DUBIOUS_MOVE,
    "mistake": chess.pgn.NAG_MISTAKE,
    "blunder": chess.pgn.NAG_BLUNDER,
}


def annotate(game: chess.pgn.Game, reviewed: GameReview) -> chess.pgn.Game:
    """A copy of *game*'s main line with the review in it: each move's ``[%eval …]`` (after the move,
    White's view, as lichess writes it), the NAG ``?!``, ``?`` or ``??`` with a comment naming the better
    move, and for mistakes and blunders the better line as a variation.

    >>> import io, chess.engine, chess.pgn
    >>> game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 *"))
    >>> pgn = str(annotate(game, review(game, limit=chess.engine.Limit(depth=6), threads=1)))
    >>> "3. Qxf7+ $4 { Blunder. Bc4 was best." in pgn, "( 3. Bc4" in pgn
    (True, True)
    """
    copy = chess.pgn.Game(headers=game.headers)
    copy.setup(game.board())
    copy.headers["Annotator"] = "camelpy review"
    node: chess.pgn.GameNode = copy
    for moved in reviewed.moves:
        board = node.board()
        node = node.add_main_variation(moved.move)
        words = []
        if moved.judgement in _NAGS:
            node.nags.add(_NAGS[moved.judgement])
            words.append(f"{moved.judgement.capitalize()}. {moved.best_san} was best.")
        node.comment = " ".join(words)
        after = chess.engine.PovScore(moved.score_after, chess.WHITE)
        if after.white().mate() or not after.is_mate():
            node.set_eval(after)
        if moved.judgement in ("mistake", "blunder") and moved.best_line:
            line = node.parent.add_variation(board.parse_san(moved.best_line[0]))
            board.push_san(moved.best_line[0])
            if not moved.score_before.is_mate():  # (a mate's count would be off by the move)
                line.set_eval(chess.engine.PovScore(moved.score_before, chess.WHITE))
            for san in moved.best_line[1:]:
                line = line.add_main_variation(board.push_san(san))
    return copy


def plot_review(reviewed: GameReview, path: str | Path) -> None:
    """Writes a plot of White's win percentage after each move, inaccuracies, mistakes and blunders
    marked (matplotlib, the tune extra, drawn headless): a PNG, or an SVG for a *path* ending in
    ``.svg`` (matplotlib's formats by the file's suffix).

    :raises: :exc:`ImportError` naming the extra if matplotlib is missing.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - matplotlib is in the tune and test extras
        raise ImportError("the evaluation plot needs matplotlib: pip install 'camelpy[tune]'") from err
    plies = [0] + [m.ply for m in reviewed.moves]
    first = reviewed.moves[0].score_before if reviewed.moves else chess.engine.Cp(0)
    wins = [win_percent(first)] + [win_percent(m.score_after) for m in reviewed.moves]
    figure, axes = plt.subplots(figsize=(8, 3.5))
    axes.fill_between(plies, wins, 50, color="0.75")
    axes.plot(plies, wins, color="black", linewidth=1)
    for judgement, colour in (("inaccuracy", "gold"), ("mistake", "orange"), ("blunder", "red")):
        marked = [m for m in reviewed.moves if m.judgement == judgement]
        if not marked:
            continue
        axes.scatter(
            [m.ply for m in marked],
            [win_percent(m.score_after) for m in marked],
            color=colour,
            label=judgement,
            zorder=3,
        )
    axes.axhline(50, color="0.5", linewidth=0.5)
    axes.set_ylim(0, 100)
    axes.set_xlabel("ply")
    axes.set_ylabel("White's win %")
    axes.set_title(f"{reviewed.white} - {reviewed.black} {reviewed.result}")
    if any(m.judgement in _NAGS for m in reviewed.moves):
        axes.legend(loc="lower left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, keeping errors in ``game.errors`` without logging them."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def parse_pgn(text: str, *, source: str | None = None) -> list[chess.pgn.Game]:
    """Every game of the PGN *text*; *source* names the text in errors (default: ``PGN`` and the text
    quoted).

    >>> [len(list(g.mainline_moves())) for g in parse_pgn("1. e4 e5 *\\n\\n1. d4 *")]
    [2, 1]
    >>> parse_pgn("1. e4 e5 2. Ke3 *")
    Traceback (most recent call last):
    ...
    ValueError: PGN '1. e4 e5 2. Ke3 *', game 1: illegal san: 'Ke3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/...

    :raises: :exc:`ValueError` naming the text for one that holds no move, or a game with an illegal
        move (its number and the move).
    """
    what = source if source is not None else f"PGN {quote(text)}"
    stream = io.StringIO(text)
    games: list[chess.pgn.Game] = []
    while True:
        game = chess.pgn.read_game(stream, Visitor=_Builder)
        if game is None:
            break
        if game.errors:
            reason = str(game.errors[0]).split(" while parsing ")[0]
            raise ValueError(f"{what}, game {len(games) + 1}: {reason}")
        games.append(game)
    if not any(game.next() is not None for game in games):
        raise ValueError(f"{what} holds no game with moves (is it a PGN file?)")
    return games


def read_games(path: str | Path) -> list[chess.pgn.Game]:
    """Every game of the PGN file at *path* (at most :data:`MAX_PGN_BYTES`).

    >>> read_games("/nonexistent/games.pgn")
    Traceback (most recent call last):
    ...
    ValueError: cannot read PGN file '/nonexistent/games.pgn': No such file or directory

    :raises: :exc:`ValueError` quoting the path for a file that cannot be read, that holds no move, or
        a game with an illegal move (its number and the move).
    """
    text = read_text(path, "path", "PGN file", limit=MAX_PGN_BYTES)
    return parse_pgn(text, source=f"PGN file {quote(str(path))}")

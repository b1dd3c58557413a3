"""The Review view's work: a pasted PGN's game read within the caps (:func:`read_review_game`) and its
review (:func:`camelpy.review`) as the page draws it (:func:`review_view`): every position, each move's
class, score and White's win percentage, and the better line with its positions.

The caps on one review's work are here: the text (:data:`~camelpy.gui.lines.MAX_TEXT`), the game's
length (:data:`MAX_REVIEW_PLIES`), the nodes searched per position (:data:`MAX_REVIEW_NODES`) and the
threads it searches on (:data:`REVIEW_THREADS`); the sessions cap the reviews running at once
(:data:`camelpy.gui.session.MAX_REVIEWS`, one per tab).

>>> game, _ = read_review_game("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 0-1")
>>> view = review_game(game, nodes=20_000)
>>> [(m["san"], m["judgement"]) for m in view["moves"] if m["judgement"] == "blunder"]
[('Qxf7+', 'blunder')]
>>> len(view["positions"]), view["moves"][4]["best"][0]["san"] == view["moves"][4]["best_san"]
(7, True)
"""

from __future__ import annotations

from typing import Any

import chess
import chess.engine
import chess.pgn

from camelpy._args import int_arg, str_arg
from camelpy.batch import ProgressCallback
from camelpy.gui.boards import board_view, score_view
from camelpy.gui.lines import MAX_TEXT
from camelpy.review import GameReview, parse_pgn, review, win_percent

__all__ = [
    "MAX_REVIEW_NODES",
    "MAX_REVIEW_PLIES",
    "REVIEW_NODES",
    "REVIEW_THREADS",
    "read_review_game",
    "review_game",
    "review_view",
]

MAX_REVIEW_PLIES = 400
"""Moves (plies) of a game the page may have reviewed: long tournament games have 150 to 250 (the
longest 538, which ``camelpy review`` takes); with :data:`MAX_REVIEW_NODES` it bounds a review's work
at 401 positions."""

REVIEW_NODES = 100_000
"""Nodes per position by default: about 0.1 s a position on one core, so a 60-move game is reviewed
in about 6 s on :data:`REVIEW_THREADS` threads, and deterministic (the same review on any machine)."""

MAX_REVIEW_NODES = 1_000_000
"""The most nodes per position a page may ask: about a second a position, so the longest game
allowed (:data:`MAX_REVIEW_PLIES`) keeps two cores for under four minutes."""

REVIEW_THREADS = 2
"""Search threads of one review (each takes a core): the review of a game in seconds, while other
tabs' games and analyses keep the other cores."""


def read_review_game(text: str, number: int = 1) -> tuple[chess.pgn.Game, int]:
    """Game *number* (1 for the first) of the PGN *text*, to be reviewed, and how many games the text
    holds.

    >>> game, games = read_review_game("1. e4 e5 *\\n\\n1. d4 d5 2. c4 *", 2)
    >>> game.board().variation_san(game.mainline_moves()), games
    ('1. d4 d5 2. c4', 2)
    >>> read_review_game("1. e4 e5 2. Ke3 *")
    Traceback (most recent call last):
    ...
    ValueError: PGN '1. e4 e5 2. Ke3 *', game 1: illegal san: 'Ke3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/...

    :raises: :exc:`ValueError` quoting the text for one longer than
        :data:`~camelpy.gui.lines.MAX_TEXT`, empty, not a PGN or with an illegal move, a *number*
        that is not one of its games', a game without moves or of a variant other than chess, or one
        longer than :data:`MAX_REVIEW_PLIES`.
    """
    str_arg(text, "text")
    if len(text) > MAX_TEXT:
        raise ValueError(f"the text is longer than {MAX_TEXT} characters ({len(text)})")
    if not text.strip():
        raise ValueError("paste a PGN to review: the text is empty")
    games = parse_pgn(text)
    int_arg(number, "game", 1, len(games))
    game = games[number - 1]
    if game.next() is None:
        raise ValueError(f"game {number} of the PGN has no moves")
    board = game.board()
    if type(board) is not chess.Board:
        raise ValueError(f"variant {game.headers.get('Variant', '?')!r} is not reviewed (chess only)")
    plies = sum(1 for _ in game.mainline_moves())
    if plies > MAX_REVIEW_PLIES:
        raise ValueError(
            f"the game has {plies} moves (plies); the page reviews at most {MAX_REVIEW_PLIES} "
            "(camelpy review GAME.pgn takes longer games)"
        )
    return game, len(games)


def review_game(
    game: chess.pgn.Game,
    *,
    nodes: int,
    progress: ProgressCallback | None = None,
    number: int = 1,
    games: int = 1,
) -> dict[str, Any]:
    """*game* (game *number* of a PGN of *games*) reviewed at *nodes* a position on
    :data:`REVIEW_THREADS` threads, as the page draws it (:func:`review_view`); *progress* gets
    ``(positions searched, positions)`` as the batch goes, and an exception it raises stops the review.
    """
    limit = chess.engine.Limit(nodes=nodes)
    reviewed = review(game, limit=limit, threads=REVIEW_THREADS, progress=progress or False)
    return {**review_view(game, reviewed, nodes=nodes), "game": number, "games": games}


def _score(score: chess.engine.Score) -> dict[str, Any]:
    """A White-view score as the page shows it; a mate given reads ``#`` (the game is over)."""
    view = score_view(chess.engine.PovScore(score, chess.WHITE))
    if view["mate"] == 0:
        view["text"] = "#"
    return view


def review_view(game: chess.pgn.Game, reviewed: GameReview, *, nodes: int) -> dict[str, Any]:
    """*reviewed* (the review of *game*, searched at *nodes* a position) as the page draws it: the
    players, every position (``positions[0]`` the start), each move with its class, its loss, the score
    and White's win percentage after it, and, for a move other than the search's, the better line
    (each move's SAN, UCI and the position after it); each player's accuracy and the critical plies."""
    board = game.board()
    positions = [board_view(board, playable=False)]
    moves = []
    first = reviewed.moves[0].score_before if reviewed.moves else chess.engine.Cp(0)
    for moved in reviewed.moves:
        better = []
        line = board.copy(stack=False)
        for san in moved.best_line:
            move = line.parse_san(san)
            uci = line.uci(move)
            line.push(move)
            better.append({"san": san, "uci": uci, "fen": line.fen()})
        board.push(moved.move)
        positions.append(board_view(board, playable=False))
        moves.append(
            {
                "ply": moved.ply,
                "label": moved.label,
                "san": moved.san,
                "uci": moved.uci,
                "judgement": moved.judgement,
                "loss": moved.loss,
                "score": _score(moved.score_after),
                "win": round(win_percent(moved.score_after), 2),
                "best_san": moved.best_san,
                "best": better,
            }
        )
    accuracy = {
        name: None if value is None else round(value, 1)
        for name, value in (
            ("white", reviewed.accuracy(chess.WHITE)),
            ("black", reviewed.accuracy(chess.BLACK)),
        )
    }
    return {
        "white": reviewed.white,
        "black": reviewed.black,
        "result": reviewed.result,
        "nodes": nodes,
        "start_score": _score(first),
        "start_win": round(win_percent(first), 2),
        "positions": positions,
        "moves": moves,
        "accuracy": accuracy,
        "critical": list(reviewed.critical),
    }

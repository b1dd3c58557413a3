"""The MiniChess file protocol, the player's side: camelpy's player (and the course's baselines) as a
program the course's runner starts once per move, reading ``state`` and writing its move to ``action``
(``camelpy minichess player``, whose command line is :mod:`camelpy.tools.games.minichess`; the runner
that drives such players is the arena's, :mod:`camelpy.arena.minichess`).

* ``camelpy minichess player [--time S] [--ply N]``: camelpy's player as a file-protocol executable:
  reads ``state`` in the current directory, searches (:class:`camelpy.minichess.Searcher`) and writes
  the best move of every finished iteration to ``action``, atomically (a temporary file renamed over
  it), so a reader never sees half a line and a player killed at the time limit has already written
  its best move so far. It stops by itself :data:`PLAYER_MARGIN` seconds before *S* (default: the
  course's 10). The ``state`` file does not say how many plies were played, and the 50-ply count
  matters, so the player remembers the position it left in ``.camelpy-minichess`` in its working
  directory (which the runner keeps): a ``state`` one move after it is ply + 1; otherwise the game is
  taken to be new (ply 0 with White to move, 1 with Black), or ``--ply`` says.
* ``camelpy minichess player --baseline NAME [--seed N] [--time S]``: one of the course's baselines
  (:data:`camelpy.minichess.BASELINES`: ``random``, ``weak-minimax``, ``strong-minimax``,
  ``alpha-beta``) as a file-protocol player; ``--random`` is ``--baseline random``. With ``--seed``
  the choice among equal moves depends only on the seed and the position. Like camelpy's player, a
  baseline writes the best move of every finished iteration to ``action`` atomically, so one killed
  at the time limit (a slow start of the interpreter on a loaded machine) still has a move there.

>>> random_move(Board(), seed=1) == random_move(Board(), seed=1)
True
"""

from __future__ import annotations

import contextlib
import json
import os
import sys

from camelpy._args import int_arg, read_text, real_arg
from camelpy._quote import quote
from camelpy.minichess import (
    ACTION_FILE,
    STATE_FILE,
    WHITE,
    Board,
    Move,
    Searcher,
    SearchInfo,
    baseline_move,
    write_atomically,
)

__all__ = [
    "ACTION",
    "MEMORY",
    "PLAYER_MARGIN",
    "STATE",
    "play_move",
    "player_ply",
    "random_move",
    "read_weights",
]

STATE = STATE_FILE
"""The file the runner writes for the player to move (:data:`camelpy.minichess.STATE_FILE`)."""
ACTION = ACTION_FILE
"""The file the player writes its moves to (:data:`camelpy.minichess.ACTION_FILE`)."""
MEMORY = ".camelpy-minichess"
"""Where camelpy's player remembers the position it left (one-line form), for the ply count."""
PLAYER_MARGIN = 0.3
"""Seconds camelpy's player leaves unused of its time: Python's start-up (about 0.1 s on the 2-core
development machine) and the last write, so that it exits by itself before the runner kills it."""
MAX_MEMORY_BYTES = 4096
"""Largest memory file camelpy's player reads: it holds one one-line board (some 40 bytes)."""
MAX_WEIGHTS_BYTES = 1 << 20
"""Largest weights file read (1 MiB): the player has a dozen weights, a few hundred bytes of JSON."""


def random_move(board: Board, seed: int | None = None) -> Move | None:
    """A legal move of *board* chosen at random (``None`` if there is none): with a *seed*, a function
    of the seed and the position only, so a seeded game replays exactly (the ``random`` baseline).

    >>> random_move(Board(), seed=1) == random_move(Board(), seed=1)
    True
    """
    return baseline_move(board, "random", seed=seed)


def read_weights(path: str | os.PathLike[str]) -> dict[str, int]:
    """Evaluation weights from a JSON file of ``{"name": value, ...}`` (``camelpy minichess tune``'s
    ``weights.json``).

    :raises: :exc:`ValueError` quoting the path for a file that cannot be read, is not a regular file,
        is larger than :data:`MAX_WEIGHTS_BYTES` or is not such an object.
    """
    text = read_text(path, "weights", "weights file", limit=MAX_WEIGHTS_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"weights file {quote(str(path))} is not JSON: {err}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in data.items()
    ):
        raise ValueError(f"weights file {quote(str(path))} must hold an object of names to integers")
    return data


def player_ply(state: Board, memory: str | None) -> int:
    """The ply count of the position *state* (read from a ``state`` file, so at ply 0), given the
    one-line board the player *remembered* after its last move: one legal move after it is one ply
    later; otherwise a new game, ply 0 with White to move and 1 with Black.

    >>> after = Board(); after.push("4 2 3 2")
    >>> now = after.copy(); now.push("1 2 2 2")
    >>> player_ply(Board.from_state(now.state()), after.fen())
    2
    >>> player_ply(Board.from_state(now.state()), None)
    0
    """
    if memory is not None:
        try:
            before = Board(memory.strip())
        except ValueError:
            before = None
        if before is not None:
            for move in before.legal_moves:
                before.push(move)
                if before.state() == state.state():
                    return before.ply
                before.pop()
    return 0 if state.turn == WHITE else 1


def play_move(
    seconds: float,
    *,
    baseline: str | None = None,
    seed: int | None = None,
    ply: int | None = None,
    weights: str | None = None,
    hash_mb: int = 16,
) -> int:
    """Plays one move as a file-protocol player in the current directory: reads ``state``, writes the best
    move of every finished iteration to ``action`` (atomically) and stops :data:`PLAYER_MARGIN` before
    *seconds*; returns the exit status (1 when the game in ``state`` is over). camelpy's player unless
    *baseline* names one of the course's (:data:`camelpy.minichess.BASELINES`, with *seed*); *ply*
    overrides the ply count the player works out (:func:`player_ply`), *weights* is a JSON file of
    evaluation weights (:func:`read_weights`) and *hash_mb* the table's size.
    """
    limit = real_arg(seconds, "--time", above=0)
    state = Board.read_state(STATE)
    if baseline is not None:
        name = baseline
        move = baseline_move(
            state,
            name,
            time=max(limit - PLAYER_MARGIN, 0.0),
            seed=seed,
            on_iteration=lambda best, _depth: write_atomically(ACTION, f"{best}\n"),
        )
        if move is None:
            print("error: no legal move in ./state", file=sys.stderr)
            return 1
        write_atomically(ACTION, f"{move}\n")
        return 0
    if ply is not None:
        ply = int_arg(ply, "--ply", 0, 10_000)
    else:
        try:
            memory: str | None = read_text(MEMORY, "memory", "memory file", limit=MAX_MEMORY_BYTES)
        except ValueError:  # none yet, or not a file this player wrote: a new game
            memory = None
        ply = player_ply(state, memory)
    board = Board.from_state(state.state(), ply)

    def write(info: SearchInfo) -> None:
        if info.pv:
            write_atomically(ACTION, f"{info.pv[0]}\n")

    table = read_weights(weights) if weights is not None else None
    searcher = Searcher(hash_mb, weights=table)
    result = searcher.search(board, time=max(limit - PLAYER_MARGIN, 0.01), on_iteration=write)
    if result.move is None:
        print(f"error: the game is over in ./state ({board.fen()})", file=sys.stderr)
        return 1
    write_atomically(ACTION, f"{result.move}\n")
    board.push(result.move)
    with contextlib.suppress(OSError):
        write_atomically(MEMORY, board.fen() + "\n")
    info = result.info
    score = f"win in {info.win_in}" if info.win_in is not None else f"cp {info.score}"
    print(f"ply {ply}: {result.move} depth {info.depth} {score} nodes {info.nodes} time {info.time:.2f}")
    return 0

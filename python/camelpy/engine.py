"""Searching from Python: :class:`Engine` and the one-line :func:`search`.

The search runs in Rust with the GIL released; results come back as python-chess objects.

>>> import camelpy
>>> result = camelpy.search("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", depth=6)
>>> result.best_move, result.score
(Move.from_uci('a1a6'), PovScore(Mate(+2), WHITE))
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Union

import chess
import chess.engine

from camelpy import _core

BoardOrFen = Union[str, chess.Board]
InfoCallback = Callable[["chess.engine.InfoDict"], object]


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found (the last completed iteration)."""

    best_move: chess.Move | None
    """The move to play; ``None`` only if the side to move has no legal move."""
    ponder: chess.Move | None
    """The expected reply, if known."""
    score: chess.engine.PovScore
    """The score, from the point of view of the side to move at the root."""
    depth: int
    """Completed depth."""
    seldepth: int
    """Deepest ply reached."""
    nodes: int
    """Nodes searched."""
    nps: int
    """Nodes per second."""
    time: float
    """Seconds spent."""
    hashfull: int
    """Permille of the hash table written by this search."""
    pv: list[chess.Move] = dataclasses.field(default_factory=list)
    """The principal variation."""


def _root(board_or_fen: BoardOrFen) -> tuple[chess.Board, str, list[str], bool]:
    if isinstance(board_or_fen, chess.Board):
        root = board_or_fen.root()
        mode = board_or_fen.chess960
        replay = root.copy(stack=False)
        moves: list[str] = []
        for move in board_or_fen.move_stack:
            moves.append(replay.uci(move, chess960=mode))
            replay.push(move)
        return board_or_fen, root.fen(shredder=mode), moves, mode
    if isinstance(board_or_fen, str):
        # Our parser first, so a bad FEN raises camelpy.InvalidFenError quoting it.
        board = _core.Position(board_or_fen).to_board()
        return board, board_or_fen, [], False
    raise TypeError(f"expected a FEN string or a chess.Board, got {type(board_or_fen).__name__}")


def _score(raw: tuple[str, int], turn: chess.Color) -> chess.engine.PovScore:
    kind, value = raw
    relative: chess.engine.Score = chess.engine.Mate(value) if kind == "mate" else chess.engine.Cp(value)
    return chess.engine.PovScore(relative, turn)


def _moves(board: chess.Board, ucis: list[str]) -> list[chess.Move]:
    line = []
    replay = board.copy(stack=False)
    for uci in ucis:
        move = replay.parse_uci(uci)
        line.append(move)
        replay.push(move)
    return line


def _info_dict(board: chess.Board, raw: dict[str, Any]) -> chess.engine.InfoDict:
    info: chess.engine.InfoDict = {
        "depth": raw["depth"],
        "seldepth": raw["seldepth"],
        "score": _score(raw["score"], board.turn),
        "nodes": raw["nodes"],
        "time": raw["time_ms"] / 1000,
        "hashfull": raw["hashfull"],
        "pv": _moves(board, raw["pv"]),
    }
    if raw["time_ms"] > 0:
        info["nps"] = raw["nodes"] * 1000 // raw["time_ms"]
    return info


class Engine:
    """A camelpy search engine that keeps its hash table and move-ordering memory between searches.

    >>> import chess, camelpy
    >>> engine = camelpy.Engine(hash_mb=16)
    >>> engine.search(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), depth=4).best_move
    Move.from_uci('d1d8')

    :raises: :exc:`ValueError` for a hash size below 1 MB.
    """

    def __init__(self, hash_mb: int = 16) -> None:
        self._native = _core.Engine(hash_mb)

    def search(
        self,
        board_or_fen: BoardOrFen,
        *,
        ms: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        mate: int | None = None,
        moves: list[chess.Move] | None = None,
        info: InfoCallback | None = None,
    ) -> SearchResult:
        """Searches a FEN or a :class:`chess.Board` (with its move stack, so repetitions count) until
        the first limit is reached: *ms* milliseconds, *depth* plies, about *nodes* nodes, or a mate in
        *mate* moves. With no limit it runs until :meth:`stop` is called from another thread. *moves*
        restricts the root moves; *info* receives each iteration as a python-chess ``InfoDict``.

        :raises: :exc:`camelpy.InvalidFenError`, :exc:`camelpy.IllegalMoveError` for bad input.
        """
        board, fen, stack, chess960 = _root(board_or_fen)
        searchmoves = [board.uci(m, chess960=chess960) for m in (moves or [])]
        callback = None
        if info is not None:
            report = info

            def callback(raw: dict[str, Any]) -> None:
                report(_info_dict(board, raw))

        raw = self._native.search(
            fen,
            stack,
            chess960,
            depth=depth,
            nodes=nodes,
            movetime_ms=ms,
            mate=mate,
            searchmoves=searchmoves,
            info=callback,
        )
        details = _info_dict(board, raw)
        best = board.parse_uci(raw["best_move"]) if raw["best_move"] else None
        pv = details.get("pv", [])
        return SearchResult(
            best_move=best,
            ponder=pv[1] if len(pv) > 1 else None,
            score=details["score"],
            depth=raw["depth"],
            seldepth=raw["seldepth"],
            nodes=raw["nodes"],
            nps=details.get("nps", 0),
            time=raw["time_ms"] / 1000,
            hashfull=raw["hashfull"],
            pv=pv,
        )

    def stop(self) -> None:
        """Stops a search running in another thread; it returns its best move at once."""
        self._native.stop()

    def new_game(self) -> None:
        """Forgets the hash table and the move-ordering tables."""
        self._native.new_game()

    def clear_hash(self) -> None:
        """Empties the hash table."""
        self._native.clear_hash()

    def evaluate(self, board_or_fen: BoardOrFen) -> int:
        """The static evaluation in centipawns, from the side to move's point of view."""
        _, fen, stack, chess960 = _root(board_or_fen)
        return int(self._native.evaluate(fen, stack, chess960))

    def eval_trace(self, board_or_fen: BoardOrFen) -> str:
        """The evaluation's per-term breakdown (White, Black, middlegame, endgame), as a table."""
        _, fen, stack, chess960 = _root(board_or_fen)
        return str(self._native.eval_trace(fen, stack, chess960))


_default_engine: Engine | None = None


def search(board_or_fen: BoardOrFen, ms: int | None = None, **limits: Any) -> SearchResult:
    """Searches with a module-level default :class:`Engine` (16 MB hash): ``camelpy.search(fen, 1000)``.

    Takes the same keyword limits as :meth:`Engine.search`.
    """
    global _default_engine
    if _default_engine is None:
        _default_engine = Engine()
    return _default_engine.search(board_or_fen, ms=ms, **limits)

"""Searching from Python: :class:`Engine` and the one-line :func:`search`.

The search runs in Rust with the GIL released; results come back as python-chess objects.

>>> import camelpy
>>> result = camelpy.search("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", depth=6)
>>> result.best_move, result.score
(Move.from_uci('a1a6'), PovScore(Mate(+2), WHITE))
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Callable, Union, overload

import chess
import chess.engine

from camelpy import _core, timeman

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
    lines: list[chess.engine.InfoDict] = dataclasses.field(default_factory=list)
    """Every line searched, best first (one unless ``multipv`` > 1), as python-chess ``InfoDict``
    objects with ``multipv``, ``score`` and ``pv``."""


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
    if "currmove" in raw:
        return {
            "depth": raw["depth"],
            "currmove": board.parse_uci(raw["currmove"]),
            "currmovenumber": raw["currmovenumber"],
            "nodes": raw["nodes"],
            "time": raw["time_ms"] / 1000,
        }
    info: chess.engine.InfoDict = {
        "depth": raw["depth"],
        "seldepth": raw["seldepth"],
        "multipv": raw["multipv"],
        "score": _score(raw["score"], board.turn),
        "nodes": raw["nodes"],
        "time": raw["time_ms"] / 1000,
        "hashfull": raw["hashfull"],
        "pv": _moves(board, raw["pv"]),
    }
    if raw["time_ms"] > 0:
        info["nps"] = raw["nodes"] * 1000 // raw["time_ms"]
    return info


def _search_result(board: chess.Board, raw: dict[str, Any]) -> SearchResult:
    """A native search's result dict as a :class:`SearchResult` for *board*."""
    details = _info_dict(board, raw)
    pv = details.get("pv", [])
    return SearchResult(
        best_move=board.parse_uci(raw["best_move"]) if raw["best_move"] else None,
        ponder=pv[1] if len(pv) > 1 else None,
        score=details["score"],
        depth=raw["depth"],
        seldepth=raw["seldepth"],
        nodes=raw["nodes"],
        nps=details.get("nps", 0),
        time=raw["time_ms"] / 1000,
        hashfull=raw["hashfull"],
        pv=pv,
        lines=[_info_dict(board, line) for line in raw["lines"]],
    )


SIGNAL_POLL_S = 0.05
"""How often (s) a search waited on from the main thread lets Python deliver Ctrl-C."""


class Engine:
    """A camelpy search engine that keeps its hash table and move-ordering memory between searches.

    >>> import chess, camelpy
    >>> engine = camelpy.Engine(hash_mb=16)
    >>> engine.search(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), depth=4).best_move
    Move.from_uci('d1d8')

    It also speaks python-chess's engine API in-process, so code written for ``SimpleEngine`` runs
    without a subprocess:

    >>> board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    >>> engine.play(board, chess.engine.Limit(depth=4)).move
    Move.from_uci('d1d8')

    :raises: :exc:`ValueError` for a hash size outside 1 MB … 1 TB or a thread count outside 1 … 256.
    """

    def __init__(self, hash_mb: int = 16, threads: int = 1) -> None:
        self._native = _core.Engine(hash_mb, threads)

    @property
    def hash_mb(self) -> int:
        """The hash table's size in MiB; setting it replaces the table by an empty one."""
        return self._native.hash_mb

    @hash_mb.setter
    def hash_mb(self, hash_mb: int) -> None:
        self._native.resize(hash_mb)

    @property
    def threads(self) -> int:
        """The number of search threads used by the following searches."""
        return self._native.threads

    @threads.setter
    def threads(self, threads: int) -> None:
        self._native.set_threads(threads)

    def __repr__(self) -> str:
        return f"Engine(hash_mb={self.hash_mb}, threads={self.threads})"

    def search(
        self,
        board_or_fen: BoardOrFen,
        *,
        ms: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        mate: int | None = None,
        moves: list[chess.Move] | None = None,
        multipv: int = 1,
        info: InfoCallback | None = None,
    ) -> SearchResult:
        """Searches a FEN or a :class:`chess.Board` (with its move stack, so repetitions count) until
        the first limit is reached: *ms* milliseconds, *depth* plies, about *nodes* nodes, or a mate in
        *mate* moves. With no limit it runs until :meth:`stop` is called from another thread. *moves*
        restricts the root moves; *multipv* asks for that many best lines (``SearchResult.lines``);
        *info* receives each finished line of each iteration as a python-chess ``InfoDict`` (and, after a
        few seconds, ``currmove`` updates).

        >>> import camelpy
        >>> lines = camelpy.Engine().search(camelpy.STARTING_FEN, depth=5, multipv=3).lines
        >>> [line["multipv"] for line in lines], len({line["pv"][0] for line in lines})
        ([1, 2, 3], 3)

        :raises: :exc:`camelpy.InvalidFenError`, :exc:`camelpy.IllegalMoveError` for bad input,
            :exc:`ValueError` for a limit below 1.
        """
        return self._run(
            board_or_fen, ms=ms, depth=depth, nodes=nodes, mate=mate, moves=moves, multipv=multipv, info=info
        )

    def _run(
        self,
        board_or_fen: BoardOrFen,
        *,
        ms: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        mate: int | None = None,
        moves: list[chess.Move] | None = None,
        multipv: int = 1,
        info: InfoCallback | None = None,
        clock: timeman.Budget | None = None,
    ) -> SearchResult:
        board, fen, stack, chess960 = _root(board_or_fen)
        searchmoves = [board.uci(m, chess960=chess960) for m in (moves or [])]
        manager = timeman.TimeManager(clock) if clock is not None else None
        callback = None
        if info is not None or manager is not None:
            report = info

            def callback(raw: dict[str, Any]) -> None:
                if report is not None:
                    report(_info_dict(board, raw))
                if manager is not None and raw.get("multipv") == 1:
                    kind, value = raw["score"]
                    cp = value if kind == "cp" else None
                    if manager.update(raw["depth"], raw["pv"][0], cp, raw["time_ms"]):
                        self._native.stop()

        raw = self._interruptible(
            lambda: self._native.search(
                fen,
                stack,
                chess960,
                depth=depth,
                nodes=nodes,
                movetime_ms=ms,
                soft_ms=manager.outer_soft_ms if manager is not None else None,
                hard_ms=clock.hard_ms if clock is not None else None,
                mate=mate,
                searchmoves=searchmoves,
                multipv=multipv,
                info=callback,
            )
        )
        return _search_result(board, raw)

    def _interruptible(self, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """Runs a native search so that Ctrl-C stops it: on the main thread (where Python delivers
        signals) the search runs on a helper thread while the main thread waits in short, interruptible
        joins; a ``KeyboardInterrupt`` stops the search, waits for it, and propagates."""
        if threading.current_thread() is not threading.main_thread():
            return call()
        outcome: list[Any] = []

        def run() -> None:
            try:
                outcome.append(call())
            except BaseException as err:  # re-raised on the caller's thread
                outcome.append(err)

        worker = threading.Thread(target=run, name="camelpy-search", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(SIGNAL_POLL_S)
        except KeyboardInterrupt:
            self.stop()
            worker.join()
            raise
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        result: dict[str, Any] = outcome[0]
        return result

    def play(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        root_moves: list[chess.Move] | None = None,
        info: InfoCallback | None = None,
    ) -> chess.engine.PlayResult:
        """Chooses a move like python-chess's ``SimpleEngine.play``, in-process: the ``Limit``'s time,
        depth, nodes, mate or clock (a share of the side to move's time and increment) bounds the
        search. The result's ``info`` holds the final ``InfoDict``.

        >>> import chess, chess.engine, camelpy
        >>> board = chess.Board()
        >>> camelpy.Engine().play(board, chess.engine.Limit(nodes=2000)).move in board.legal_moves
        True

        :raises: :exc:`chess.engine.EngineError` when *board* has no legal move (as python-chess does).
        """
        result = self._limited(board, limit, root_moves=root_moves, multipv=1, info=info)
        if result.best_move is None:
            raise chess.engine.EngineError(f"no legal move to play in {board.fen()!r}")
        details = result.lines[0] if result.lines else {}
        return chess.engine.PlayResult(result.best_move, result.ponder, dict(details))  # type: ignore[arg-type]

    @overload
    def analyse(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        multipv: None = None,
        root_moves: list[chess.Move] | None = None,
    ) -> chess.engine.InfoDict: ...

    @overload
    def analyse(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        multipv: int,
        root_moves: list[chess.Move] | None = None,
    ) -> list[chess.engine.InfoDict]: ...

    def analyse(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        multipv: int | None = None,
        root_moves: list[chess.Move] | None = None,
    ) -> chess.engine.InfoDict | list[chess.engine.InfoDict]:
        """Analyses like python-chess's ``SimpleEngine.analyse``, in-process: one ``InfoDict``, or with
        *multipv* a list of them, best first.

        >>> import chess, chess.engine, camelpy
        >>> info = camelpy.Engine().analyse(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        ...                                 chess.engine.Limit(depth=4))
        >>> info["score"]
        PovScore(Mate(+1), WHITE)
        """
        result = self._limited(board, limit, root_moves=root_moves, multipv=multipv or 1, info=None)
        lines = result.lines or [{"depth": 0, "score": result.score, "pv": []}]
        return lines if multipv is not None else lines[0]

    def _limited(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        root_moves: list[chess.Move] | None,
        multipv: int,
        info: InfoCallback | None,
    ) -> SearchResult:
        if not isinstance(limit, chess.engine.Limit):
            raise TypeError(f"expected a chess.engine.Limit, got {type(limit).__name__}")
        clock_s = limit.white_clock if board.turn == chess.WHITE else limit.black_clock
        inc_s = (limit.white_inc if board.turn == chess.WHITE else limit.black_inc) or 0.0
        clock = None
        if clock_s is not None:
            clock = timeman.budget(int(clock_s * 1000), int(inc_s * 1000), limit.remaining_moves)
        return self._run(
            board,
            ms=max(1, int(limit.time * 1000)) if limit.time is not None else None,
            clock=clock,
            depth=limit.depth,
            nodes=limit.nodes,
            mate=limit.mate,
            moves=root_moves,
            multipv=multipv,
            info=info,
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

    def analyse_many(
        self,
        boards_or_fens: list[BoardOrFen],
        limit: chess.engine.Limit,
        *,
        threads: int | None = None,
        progress: bool | Callable[[int, int], object] = False,
    ) -> list[SearchResult | Exception]:
        """Searches many positions independently, *threads* at a time (default: one per CPU), with
        this engine's evaluation weights, and returns one :class:`SearchResult` per item in input
        order; a bad FEN or board gives its exception in its place instead of aborting the batch.
        (Any iterable of items works.) *progress* is ``True`` for a tqdm bar or a ``(done, total)``
        callable. Each worker uses its own small table, cleared per position, so depth and node limits
        give deterministic results; see :mod:`camelpy.batch`.

        >>> import chess.engine, camelpy
        >>> fens = ["8/8/8", camelpy.STARTING_FEN]
        >>> results = camelpy.Engine().analyse_many(fens, chess.engine.Limit(nodes=500))
        >>> type(results[0]).__name__, results[1].best_move is not None
        ('InvalidFenError', True)

        :raises: :exc:`ValueError` for a limit with no depth, nodes, time or mate, or a thread count
            outside 1 … 256.
        """
        from camelpy.batch import analyse_many

        params = [(name, value) for name, value, _, _ in self._native.params()]
        return analyse_many(boards_or_fens, limit, threads=threads, progress=progress, params=params)


def bench(depth: int | None = None) -> tuple[int, int]:
    """Runs the fixed benchmark (44 positions, one thread, 16 MB, fresh tables per position) and returns
    ``(nodes, milliseconds)``; the node count at the default depth is the bench signature that changes
    only when the search does.

    >>> import camelpy
    >>> nodes, ms = camelpy.bench(4)
    >>> nodes > 1000
    True
    """
    return _core.bench(depth)


_default_engine: Engine | None = None


def search(board_or_fen: BoardOrFen, ms: int | None = None, **limits: Any) -> SearchResult:
    """Searches with a module-level default :class:`Engine` (16 MB hash): ``camelpy.search(fen, 1000)``.

    Takes the same keyword limits as :meth:`Engine.search`.
    """
    global _default_engine
    if _default_engine is None:
        _default_engine = Engine()
    return _default_engine.search(board_or_fen, ms=ms, **limits)

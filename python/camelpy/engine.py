"""Searching from Python: :class:`Engine` and the one-line :func:`search`.

The search runs in Rust with the GIL released; results come back as python-chess objects.

>>> import camelpy
>>> result = camelpy.search("r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1", depth=6)
>>> result.best_move, result.score
(Move.from_uci('h5h6'), PovScore(Mate(+2), WHITE))
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, Callable, overload

import chess
import chess.engine

from camelpy import _core, strength, timeman
from camelpy._args import items_arg
from camelpy.batch import BatchResult, ProgressCallback, analyse_many
from camelpy.params import apply_params
from camelpy.tablebase import Tablebase
from camelpy.types import BoardOrFen, SearchResult, board_root, info_dict, limit_ms, search_result, seconds_ms

__all__ = ["EVALUATIONS", "Engine", "InfoCallback", "SearchResult", "bench", "search"]

InfoCallback = Callable[["chess.engine.InfoDict"], object]
"""What *info* takes: called with each iteration's report as a python-chess ``InfoDict``."""

EVALUATIONS = ("nnue", "classical")
"""The evaluations an :class:`Engine` can search with: a network (the default) or the classical one."""


def _check_eval(eval: str) -> None:
    if eval not in EVALUATIONS:
        raise ValueError(f"eval must be one of {', '.join(map(repr, EVALUATIONS))}, not {eval!r}")


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

    It evaluates with the network built into camelpy (:data:`camelpy.nnue.EMBEDDED`); *eval_file* names
    another network file (what ``camelpy train`` writes), and ``eval="classical"`` (or
    ``eval_file=None``) selects the classical (hand-written, tuned) evaluation, whose weights
    :meth:`set_param` sets; :attr:`eval_file` switches later.

    >>> camelpy.Engine(eval="classical")
    Engine(hash_mb=16, threads=1, eval='classical')

    With *tablebases* (a folder of
    ``camelpy tb generate``'s tables, or a :class:`camelpy.tablebase.Tablebase`) the search probes
    the endgame tables: exact mate scores inside the search, and at the root only the moves that keep
    the best distance to mate; :attr:`tablebases` switches later.

    With *elo* (``camelpy.strength.ELO_MIN`` … ``ELO_MAX``, Stockfish 15.1's ``UCI_Elo`` range) :meth:`play`
    plays at that level, as ``UCI_LimitStrength``/``UCI_Elo`` do: a limited search, then a choice among
    the better moves weighted by their scores (:mod:`camelpy.strength`), drawn from *elo_seed*, the
    game's number (:meth:`new_game` starts the next) and the position, so reproducible. :meth:`search`
    and :meth:`analyse` stay at full strength (analysis).

    >>> club = camelpy.Engine(elo=1350)
    >>> club
    Engine(hash_mb=16, threads=1, elo=1350)
    >>> club.play(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), chess.engine.Limit()).move
    Move.from_uci('d1d8')

    :raises: :exc:`ValueError` for a hash size outside 1 … ``camelpy.MAX_HASH_MB`` MiB or larger than
        the machine's memory, or a thread count outside 1 … ``camelpy.MAX_THREADS``;
        :exc:`MemoryError` if the system cannot provide the table; :exc:`TypeError` for a non-integer;
        for *eval_file*, :exc:`camelpy.errors.NetworkFileError` for a file that is not a usable network
        and :exc:`OSError` for one that cannot be read; for *tablebases*,
        :exc:`camelpy.errors.TablebaseFileError` and :exc:`OSError` likewise; :exc:`ValueError` quoting an
        *elo* outside the range or an *elo_seed* outside 0 … ``camelpy.strength.MAX_SEED``.
    """

    def __init__(
        self,
        hash_mb: int = _core.DEFAULT_HASH_MB,
        threads: int = 1,
        *,
        eval: str | None = None,
        eval_file: str | os.PathLike[str] | None = _core.NET_EMBEDDED,
        tablebases: str | os.PathLike[str] | Tablebase | None = None,
        elo: int | None = None,
        elo_seed: int = 0,
    ) -> None:
        self._elo: strength.EloLevel | None = None
        self._elo_seed = 0
        self._game = 0
        """Games started by :meth:`new_game` (the level's choices differ from one game to the next)."""
        self.elo = elo
        self.elo_seed = elo_seed
        if eval is not None:
            _check_eval(eval)
        if eval == "classical" and eval_file not in (None, _core.NET_EMBEDDED):
            raise ValueError(f"eval='classical' evaluates without a network, but eval_file={eval_file!r}")
        if eval == "nnue" and eval_file is None:
            raise ValueError("eval='nnue' needs a network file, not eval_file=None")
        self._native = _core.Engine(hash_mb, threads)  # evaluating with the built-in network
        self._tablebase: Tablebase | None = None
        if eval == "classical" or eval_file != _core.NET_EMBEDDED:
            self.eval_file = None if eval == "classical" else eval_file
        if tablebases is not None:
            self.tablebases = tablebases

    @property
    def elo(self) -> int | None:
        """The level :meth:`play` plays at (``None``: full strength); set another (checked as in the
        constructor) or ``None``.

        >>> import camelpy
        >>> engine = camelpy.Engine()
        >>> engine.elo = 2100
        >>> engine.elo, engine.level
        (2100, EloLevel(elo=2100, nodes=87739, temperature=15.5, max_loss=45))
        """
        return None if self._elo is None else self._elo.elo

    @elo.setter
    def elo(self, elo: int | None) -> None:
        self._elo = None if elo is None else strength.EloLevel.from_elo(elo)

    @property
    def level(self) -> strength.EloLevel | None:
        """The settings of :attr:`elo`'s level (nodes, temperature, largest loss), or ``None``."""
        return self._elo

    @property
    def elo_seed(self) -> int:
        """The seed of the level's choices (0 by default): with it, a position and level always give the
        same move; another seed, another sequence of choices."""
        return self._elo_seed

    @elo_seed.setter
    def elo_seed(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"elo_seed must be an integer, not {type(seed).__name__}")
        if not 0 <= seed <= strength.MAX_SEED:
            raise ValueError(f"elo_seed must be an integer from 0 to {strength.MAX_SEED}, got {seed!r}")
        self._elo_seed = seed

    @property
    def tablebases(self) -> Tablebase | None:
        """The endgame tables the search probes, or ``None``. Set a folder (loaded then; a folder that
        cannot be used raises and changes nothing), a loaded :class:`camelpy.tablebase.Tablebase`, or
        ``None``; either clears the hash table."""
        return self._tablebase

    @tablebases.setter
    def tablebases(self, value: str | os.PathLike[str] | Tablebase | None) -> None:
        if value is not None and not isinstance(value, Tablebase):
            value = Tablebase(value)
        self._native.set_tablebase(None if value is None else value._native)
        self._tablebase = value

    @property
    def eval(self) -> str:
        """The evaluation: ``"nnue"`` (a network, :attr:`eval_file`) or ``"classical"``.

        >>> import camelpy
        >>> camelpy.Engine().eval, camelpy.Engine(eval="classical").eval
        ('nnue', 'classical')
        """
        return "classical" if self.eval_file is None else "nnue"

    @property
    def eval_file(self) -> str | None:
        """The network file the engine evaluates with (by default :data:`camelpy.nnue.EMBEDDED`, the
        network built into camelpy), or ``None`` for the classical evaluation. Setting it loads the
        file (a file that cannot be used raises and changes nothing) and clears the
        hash table, whose entries hold the old evaluation's values; ``None`` switches to the classical
        evaluation."""
        return self._native.eval_file

    @eval_file.setter
    def eval_file(self, path: str | os.PathLike[str] | None) -> None:
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"eval_file must be a path or None, not {type(path).__name__}")
        self._native.set_eval_file(None if path is None else os.fspath(path))

    @property
    def hash_mb(self) -> int:
        """The hash table's size in MiB; setting it replaces the table by an empty one (the old table
        stays if the new one cannot be had: ``ValueError`` beyond the machine's memory, ``MemoryError``
        if the system refuses it)."""
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
        net = {None: ", eval='classical'", _core.NET_EMBEDDED: ""}.get(
            self.eval_file, f", eval_file={self.eval_file!r}"
        )
        tb = "" if self._tablebase is None else f", tablebases={self._tablebase.path!r}"
        elo = "" if self.elo is None else f", elo={self.elo}"
        seed = f", elo_seed={self.elo_seed}" if self.elo_seed else ""
        return f"Engine(hash_mb={self.hash_mb}, threads={self.threads}{net}{tb}{elo}{seed})"

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

        Ctrl-C stops the search and raises :exc:`KeyboardInterrupt` once it has stopped.

        :raises: :exc:`camelpy.InvalidFenError`, :exc:`camelpy.IllegalMoveError` for bad input;
            :exc:`ValueError` for a limit below 1 (*ms*, *depth*, *nodes*, *mate*, *multipv*) or above
            its maximum (*multipv* ``camelpy.MAX_MULTIPV``); :exc:`TypeError` for a limit that is not
            an integer.
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
        return search_result(
            *self._run_native(
                board_or_fen,
                ms=ms,
                depth=depth,
                nodes=nodes,
                mate=mate,
                moves=moves,
                multipv=multipv,
                info=info,
                clock=clock,
            )
        )

    def _run_native(
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
    ) -> tuple[chess.Board, _core.SearchOutcome]:
        root = board_root(board_or_fen)
        board = root.board()
        root_moves = items_arg(moves, "moves", chess.Move) if moves is not None else []
        searchmoves = [board.uci(m, chess960=root.chess960) for m in root_moves]
        manager = timeman.TimeManager(clock) if clock is not None else None
        callback = None
        if info is not None or manager is not None:
            report = info

            def callback(raw: _core.IterationInfo | _core.CurrMoveInfo) -> None:
                if report is not None:
                    report(info_dict(board, raw))
                if (
                    manager is not None
                    and isinstance(raw, _core.IterationInfo)
                    and raw.multipv == 1
                    and raw.pv
                ):
                    if manager.update(raw.depth, raw.pv[0], raw.cp, raw.time_ms):
                        self._native.stop()

        outcome = self._native.search(
            root.fen,
            list(root.moves),
            root.chess960,
            depth=depth,
            nodes=nodes,
            ms=ms,
            soft_ms=manager.outer_soft_ms if manager is not None else None,
            hard_ms=clock.hard_ms if clock is not None else None,
            mate=mate,
            searchmoves=searchmoves,
            multipv=multipv,
            info=callback,
        )
        return board, outcome

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
        search. The result's ``info`` holds the final ``InfoDict``. On a board with no legal move
        (checkmate, stalemate) the move is ``None``, as python-chess's ``SimpleEngine.play`` returns
        for an engine's ``bestmove (none)``.

        With :attr:`elo` set it plays at that level: at most the level's nodes (fewer if the limit says
        so; an empty ``Limit()`` is enough), then the level's choice among
        :data:`camelpy.strength.CANDIDATES` lines; ``info`` is then the chosen line's.

        >>> import chess, chess.engine, camelpy
        >>> board = chess.Board()
        >>> camelpy.Engine().play(board, chess.engine.Limit(nodes=2000)).move in board.legal_moves
        True
        >>> mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        >>> camelpy.Engine().play(mated, chess.engine.Limit(depth=2)).move is None
        True

        :raises: :exc:`ValueError` for a bad limit (as :meth:`search`; a negative or NaN time).
        """
        level = self._elo
        if level is not None:
            return self._play_level(board, limit, level, root_moves=root_moves, info=info)
        result = self._limited(board, limit, root_moves=root_moves, multipv=1, info=info)
        details = dict(result.lines[0]) if result.lines else {"depth": 0, "score": result.score}
        return chess.engine.PlayResult(result.best_move, result.ponder, details)  # type: ignore[arg-type]

    def _play_level(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        level: strength.EloLevel,
        *,
        root_moves: list[chess.Move] | None,
        info: InfoCallback | None,
    ) -> chess.engine.PlayResult:
        searched, outcome = self._limited_native(
            board, limit, root_moves=root_moves, multipv=strength.CANDIDATES, info=info, max_nodes=level.nodes
        )
        draw = strength.draw(self._elo_seed, strength.position_key(searched), self._game)
        move = strength.choose(level, strength.candidates(outcome.lines), draw)
        if move is None:
            none = search_result(searched, outcome)
            return chess.engine.PlayResult(none.best_move, none.ponder, {"depth": 0, "score": none.score})
        line = next(line for line in outcome.lines if line.pv and line.pv[0] == move)
        details = info_dict(searched, line)
        pv = details.get("pv", [])
        return chess.engine.PlayResult(pv[0], pv[1] if len(pv) > 1 else None, details)

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
        return search_result(
            *self._limited_native(board, limit, root_moves=root_moves, multipv=multipv, info=info)
        )

    def _limited_native(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        root_moves: list[chess.Move] | None,
        multipv: int,
        info: InfoCallback | None,
        max_nodes: int | None = None,
    ) -> tuple[chess.Board, _core.SearchOutcome]:
        if not isinstance(limit, chess.engine.Limit):
            raise TypeError(f"expected a chess.engine.Limit, got {type(limit).__name__}")
        clock_s = limit.white_clock if board.turn == chess.WHITE else limit.black_clock
        inc_s = (limit.white_inc if board.turn == chess.WHITE else limit.black_inc) or 0.0
        clock = None
        if clock_s is not None:
            clock = timeman.budget(
                seconds_ms(clock_s, "limit clock"),
                seconds_ms(inc_s, "limit increment"),
                limit.remaining_moves,
            )
        nodes = limit.nodes
        if max_nodes is not None:
            nodes = max_nodes if nodes is None else min(nodes, max_nodes)
        return self._run_native(
            board,
            ms=limit_ms(limit),
            clock=clock,
            depth=limit.depth,
            nodes=nodes,
            mate=limit.mate,
            moves=root_moves,
            multipv=multipv,
            info=info,
        )

    def stop(self) -> None:
        """Stops a search running in another thread; it returns its best move at once."""
        self._native.stop()

    def new_game(self) -> None:
        """Forgets the hash table and the move-ordering tables, and starts the level's next game (with
        :attr:`elo`, the choices of the next game differ from this one's)."""
        self._native.new_game()
        self._game += 1

    def clear_hash(self) -> None:
        """Empties the hash table."""
        self._native.clear_hash()

    def evaluate(self, board_or_fen: BoardOrFen) -> int:
        """The static evaluation in centipawns, from the side to move's point of view."""
        root = board_root(board_or_fen)
        return self._native.evaluate(root.fen, list(root.moves), root.chess960)

    def eval_trace(self, board_or_fen: BoardOrFen) -> str:
        """The evaluation's per-term breakdown (White, Black, middlegame, endgame), as a table."""
        root = board_root(board_or_fen)
        return self._native.eval_trace(root.fen, list(root.moves), root.chess960)

    def params(self) -> dict[str, int]:
        """Every evaluation weight by name, in the core's table order (the UCI spin options of the same
        names set them too).

        >>> import camelpy
        >>> camelpy.Engine().params()["pawn_value_mg"] > 0
        True
        """
        return {name: value for name, value, _, _ in self._native.params()}

    def set_param(self, name: str, value: int) -> None:
        """Sets one evaluation weight for the following searches (waits for a running search).

        >>> import camelpy
        >>> engine = camelpy.Engine()
        >>> engine.set_param("tempo_mg", 25)
        >>> engine.params()["tempo_mg"]
        25

        :raises: :exc:`ValueError` for an unknown name or a value outside the weight's range (the
            message names both), :exc:`TypeError` for a value that is not an integer.
        """
        self._native.set_param(name, value)

    def set_params(self, values: dict[str, int]) -> None:
        """Sets several weights, e.g. the JSON that ``camelpy tune`` writes
        (``engine.set_params(camelpy.params.read_params_file("weights.json"))``). All are checked first:
        on an error none is changed.

        :raises: :exc:`ValueError`, :exc:`TypeError` as :meth:`set_param`.
        """
        apply_params(self._native, values)

    def search_params(self) -> dict[str, int]:
        """Every run-time search setting by name (the UCI spin options of the same names set them too).
        A candidate change to the search enters at a default that leaves the search as it was, is
        tested by an SPRT with the same build, and becomes the default once it passes
        (``docs/strength.md``).

        >>> import camelpy
        >>> camelpy.Engine().search_params()["cont_hist"]
        0
        """
        return {name: value for name, value, _, _ in self._native.search_params()}

    def set_search_param(self, name: str, value: int) -> None:
        """Sets one run-time search setting for the following searches (waits for a running search).

        >>> import camelpy
        >>> engine = camelpy.Engine()
        >>> engine.set_search_param("cont_hist", 1)
        >>> engine.search_params()["cont_hist"]
        1

        :raises: :exc:`ValueError` for an unknown name or a value outside the setting's range (the
            message names both), :exc:`TypeError` for a value that is not an integer.
        """
        self._native.set_search_param(name, value)

    def analyse_many(
        self,
        boards_or_fens: Iterable[BoardOrFen],
        limit: chess.engine.Limit,
        *,
        threads: int | None = None,
        progress: bool | ProgressCallback = False,
        backend: str = "local",
    ) -> list[BatchResult]:
        """Searches many positions independently, *threads* at a time (default: one per CPU), with
        this engine's evaluation weights, search settings and tablebases, and returns one
        :class:`SearchResult` per item in input order; a bad FEN or board gives its exception in its
        place instead of aborting the batch. (Any iterable of items works.) *progress* is ``True``
        for a tqdm bar or a ``(done, total)`` callable. Each worker uses its own small table,
        cleared per position, so depth and node limits give deterministic results; see
        :mod:`camelpy.batch`. ``backend="ray"`` searches them on a Ray cluster instead
        (:func:`camelpy.batch.analyse_many`).

        >>> import chess.engine, camelpy
        >>> fens = ["8/8/8", camelpy.STARTING_FEN]
        >>> results = camelpy.Engine().analyse_many(fens, chess.engine.Limit(nodes=500))
        >>> type(results[0]).__name__, results[1].best_move is not None
        ('InvalidFenError', True)

        :raises: :exc:`ValueError` for a limit with no depth, nodes, time or mate, a bad limit, or a
            thread count outside 1 … ``camelpy.MAX_THREADS``.
        """
        return analyse_many(
            boards_or_fens,
            limit,
            threads=threads,
            progress=progress,
            params=list(self.params().items()),
            search_params=list(self.search_params().items()),
            eval_file=self.eval_file,
            tablebases=self._tablebase,
            backend=backend,
        )


def bench(depth: int | None = None, *, eval: str = "nnue") -> tuple[int, int]:
    """Runs the fixed benchmark (44 positions, one thread, 16 MB, fresh tables per position) with the
    built-in network, or with ``eval="classical"`` the classical evaluation, and returns ``(nodes,
    milliseconds)``; the node count at the default depth with the network is the bench signature that
    changes only when the search (or the built-in network) does.

    >>> import camelpy
    >>> nodes, ms = camelpy.bench(4)
    >>> nodes > 1000, nodes != camelpy.bench(4, eval="classical")[0]
    (True, True)
    """
    _check_eval(eval)
    return _core.bench(depth, classical=eval == "classical")


_default_engine: Engine | None = None


def search(board_or_fen: BoardOrFen, ms: int | None = None, **limits: Any) -> SearchResult:
    """Searches with a module-level default :class:`Engine` (16 MB hash): ``camelpy.search(fen, 1000)``.

    Takes the same keyword limits as :meth:`Engine.search`.
    """
    global _default_engine
    if _default_engine is None:
        _default_engine = Engine()
    return _default_engine.search(board_or_fen, ms=ms, **limits)

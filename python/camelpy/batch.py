"""Batch analysis: many positions searched side by side in Rust threads, results in input order.

:func:`analyse_many` (also :meth:`camelpy.Engine.analyse_many`) runs one single-threaded search per
worker thread with the GIL released, so a batch uses every core without ``multiprocessing``. An item
that cannot be searched (a bad FEN, an illegal move stack, something that is neither a FEN nor a
board) does not abort the batch: its entry in the list is the exception that
:meth:`camelpy.Engine.search` would have raised for it.

>>> import chess.engine, camelpy
>>> from camelpy.batch import analyse_many
>>> results = analyse_many([camelpy.STARTING_FEN, "not a fen"], chess.engine.Limit(depth=4), threads=2)
>>> results[0].depth, type(results[1]).__name__
(4, 'InvalidFenError')

**Tables.** Each worker has its own small table (``hash_mb``, default 2 MiB), and clears it and its
move-ordering memory before every position. A result then depends only on its position and the
limit: with a depth or node limit a batch gives the same results whatever the number of threads, the
same as a fresh :class:`camelpy.Engine` with that hash size would, one position at a time. (A table
shared by the workers would make each result depend on what the other threads happened to store;
partitioning one table is the same as one table each.) Clearing 2 MiB costs about 0.1 ms, small
against a search of a few thousand nodes.

Everything in a result is picklable (``SearchResult`` holds python-chess objects and dicts;
:class:`camelpy.Position` pickles by FEN and moves), so results and positions can cross process
boundaries with :mod:`multiprocessing`.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable
from typing import Any, Callable, Union

import chess
import chess.engine

from camelpy import _core, cluster
from camelpy._args import int_arg
from camelpy.tablebase import Tablebase, open_tablebase
from camelpy.types import BoardOrFen, SearchResult, board_root, limit_ms, search_result

__all__ = [
    "BATCH_HASH_MB",
    "RAY_CHUNKS_PER_CPU",
    "BatchResult",
    "ProgressCallback",
    "analyse_chunk",
    "analyse_many",
]

BATCH_HASH_MB: int = _core.BATCH_HASH_MB
"""Default table size (MiB) of each worker: holds a search of ~100k nodes, cheap to clear per position."""

BatchResult = Union[SearchResult, Exception]
"""One entry of :func:`analyse_many`: the search result, or the exception the item raised."""

ProgressCallback = Callable[[int, int], object]
"""Called with ``(done, total)`` as a batch progresses."""


def _progress_callback(progress: bool | ProgressCallback, total: int) -> tuple[ProgressCallback | None, Any]:
    """The native progress callback and, for ``progress=True``, the tqdm bar to close afterwards."""
    if progress is False:
        return None, None
    if progress is True:
        try:
            tqdm = importlib.import_module("tqdm")  # lazy: the bar is an optional extra
        except ImportError as err:
            raise ImportError("progress=True needs tqdm: pip install 'camelpy[progress]'") from err
        bar = tqdm.tqdm(total=total, unit="pos")

        def update(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        return update, bar
    if callable(progress):
        return progress, None
    raise TypeError(f"progress must be a bool or a callable(done, total), got {type(progress).__name__}")


def _tablebase(tablebases: Tablebase | str | os.PathLike[str]) -> Tablebase:
    """*tablebases* loaded: a :class:`Tablebase` as it is, a folder opened."""
    return tablebases if isinstance(tablebases, Tablebase) else open_tablebase(tablebases)


def analyse_many(
    boards_or_fens: Iterable[BoardOrFen],
    limit: chess.engine.Limit,
    *,
    threads: int | None = None,
    progress: bool | ProgressCallback = False,
    hash_mb: int = BATCH_HASH_MB,
    params: list[tuple[str, int]] | None = None,
    search_params: list[tuple[str, int]] | None = None,
    eval_file: str | None = _core.NET_EMBEDDED,
    tablebases: Tablebase | str | os.PathLike[str] | None = None,
    backend: str = "local",
) -> list[BatchResult]:
    """Searches every FEN or :class:`chess.Board` independently within *limit* (a
    ``chess.engine.Limit`` with ``depth``, ``nodes``, ``time`` and/or ``mate``; ``time`` bounds each
    search) and returns the results in input order. *threads* workers (default: one per CPU,
    ``camelpy._core.default_threads()``) search at once, each single-threaded with its own *hash_mb*
    table, cleared per position (see the module documentation). A bad item's entry is its exception
    (:exc:`camelpy.InvalidFenError`, :exc:`camelpy.IllegalMoveError`, :exc:`TypeError`), so check
    ``isinstance(r, Exception)``. *progress* is ``True`` for a tqdm bar (``pip install
    'camelpy[progress]'``) or a function called with ``(done, total)`` at most every 0.1 s. *params*
    are evaluation weights and *search_params* run-time search settings, each as ``(name, value)``, and
    *eval_file* the network file to evaluate with (by default the built-in one; ``None``: the
    classical evaluation, which *params* set), and *tablebases* endgame tables to probe (a
    folder of ``camelpy tb generate``'s tables or a :class:`camelpy.tablebase.Tablebase`; see
    :meth:`camelpy.Engine.analyse_many`, which passes the engine's).

    With ``backend="ray"`` the positions are searched on the Ray cluster this process is connected to
    (:func:`camelpy.cluster.connect`; a local one is started if none is): chunks of positions are
    tasks of one CPU each (about :data:`RAY_CHUNKS_PER_CPU` per CPU of the cluster, so that the work
    evens out), each searched as above with one thread, so the results are the same as a local
    batch's, in input order, a bad item's exception in its place; *threads* is then ignored, and
    *progress* counts finished chunks' positions. Every node needs camelpy, and *eval_file* and the
    *tablebases* folder at the same path.

    >>> import chess, chess.engine
    >>> boards = [chess.Board(), chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")]
    >>> [r.best_move for r in analyse_many(boards, chess.engine.Limit(depth=4), threads=2)][1]
    Move.from_uci('d1d8')

    :raises: :exc:`ValueError` for a limit with no depth, nodes, time or mate, a limit below 1, a
        thread count outside 1 … ``camelpy.MAX_THREADS``, tables that together exceed the machine's
        memory, or a bad weight or setting; :exc:`MemoryError` if the system refuses the tables;
        :exc:`KeyboardInterrupt` on Ctrl-C (the batch stops).
    """
    if not isinstance(limit, chess.engine.Limit):
        raise TypeError(f"expected a chess.engine.Limit, got {type(limit).__name__}")
    ms = limit_ms(limit)
    if cluster.check_backend(backend) == "ray":
        if threads is not None:
            int_arg(threads, "threads", 1, _core.MAX_THREADS)
        settings: dict[str, Any] = {
            "hash_mb": hash_mb,
            "params": params,
            "search_params": search_params,
            "eval_file": eval_file,
            "tablebases": None if tablebases is None else _tablebase(tablebases).path,
        }
        analyse_many([], limit, threads=1, **settings)  # the settings checked here, before any task
        return _analyse_on_ray(list(boards_or_fens), limit, progress, settings)
    entries: list[BatchResult | None] = []
    boards: list[chess.Board] = []
    items: list[tuple[str, list[str], bool]] = []
    slots: list[int] = []
    for board_or_fen in boards_or_fens:
        try:
            root = board_root(board_or_fen)
            board = root.board()
        except (ValueError, TypeError) as err:
            entries.append(err)
            continue
        slots.append(len(entries))
        entries.append(None)
        boards.append(board)
        items.append((root.fen, list(root.moves), root.chess960))
    callback, bar = _progress_callback(progress, len(items))
    try:
        outcomes = _core.analyse_many(
            items,
            depth=limit.depth,
            nodes=limit.nodes,
            ms=ms,
            mate=limit.mate,
            threads=threads,
            hash_mb=hash_mb,
            params=params,
            search_params=search_params,
            eval_file=eval_file,
            tablebases=None if tablebases is None else _tablebase(tablebases)._native,
            progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()
    for slot, board, outcome in zip(slots, boards, outcomes):
        entries[slot] = outcome if isinstance(outcome, Exception) else search_result(board, outcome)
    assert all(entry is not None for entry in entries)
    return entries  # type: ignore[return-value]  # every slot was filled above


RAY_CHUNKS_PER_CPU = 4
"""Chunks of positions per CPU of the cluster (``backend="ray"``): enough that a slow chunk does not
leave the other CPUs idle at the end, few enough that Ray's few milliseconds per task do not count."""


def analyse_chunk(
    items: list[BoardOrFen], limit: chess.engine.Limit, settings: dict[str, Any]
) -> list[BatchResult]:
    """A chunk of a batch searched on this machine with one thread: a cluster's task."""
    return analyse_many(items, limit, threads=1, **settings)


def _analyse_on_ray(
    items: list[BoardOrFen],
    limit: chess.engine.Limit,
    progress: bool | ProgressCallback,
    settings: dict[str, Any],
) -> list[BatchResult]:
    """:func:`analyse_many` with chunks of positions as Ray tasks."""
    callback, bar = _progress_callback(progress, len(items))
    ray = cluster.connect(what="analyse_many(backend='ray')")
    chunks = max(1, min(len(items), RAY_CHUNKS_PER_CPU * cluster.cluster_cpus(ray)))
    size = -(-len(items) // chunks)
    pool: cluster.TaskPool[int] = cluster.TaskPool(ray, analyse_chunk, len(items) or 1)
    results: dict[int, list[BatchResult]] = {}
    done = 0
    try:
        for start in range(0, len(items), size):
            pool.submit(start, items[start : start + size], limit, settings)
        while len(pool):
            start, chunk = pool.next()
            results[start] = chunk
            done += len(chunk)
            if callback is not None:
                callback(done, len(items))
    finally:
        pool.cancel()
        if bar is not None:
            bar.close()
    return [result for start in sorted(results) for result in results[start]]

"""Endgame tablebases: camelpy's own, solved by ``camelpy tb generate`` (:func:`generate`), probed as
python-chess probes Gaviota's (:func:`open_tablebase`, :meth:`Tablebase.probe_dtm`).

Every position of an ending with up to five pieces (kings included) gets its exact distance to mate
(DTM) with best play, or a draw. The conventions are ``chess.gaviota``'s: DTM in plies, positive
when the side to move mates, negative when it is mated, 0 for a draw or a checkmated side; WDL 1, 0
or -1. The fifty-move rule is not part of the value. Positions with castling rights are never in a
table; en passant is resolved when probing.

>>> import chess, tempfile
>>> from camelpy.tablebase import generate, open_tablebase
>>> folder = tempfile.mkdtemp()
>>> generate(folder, ["KRvK"])
['KRvK']
>>> with open_tablebase(folder) as tablebase:
...     tablebase.probe_dtm(chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1"))
-10

The tables are solved by our own retrograde solver in the core (``rust/core/src/tablebase``); one
file an ending, ``<ENDING>.cptb`` (format in ``file.rs``). The engine uses them when given a folder:
``Engine(tablebases=FOLDER)``, or the UCI option ``TablebasePath``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from types import TracebackType

import chess

from camelpy import _core
from camelpy._args import int_arg, path_arg
from camelpy.errors import MissingTableError

__all__ = ["TableCheck", "Tablebase", "generate", "open_tablebase", "probe_dtm", "probe_wdl"]

Progress = Callable[[str, bool, float, int, int, int], object]
"""``progress(ending, solved, seconds, bytes, memory, layers)``: one ending done (``solved`` false
when its file was there and was read)."""


def generate(
    path: str | os.PathLike[str],
    endings: Iterable[str] | None = None,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> list[str]:
    """Solves *endings* (names such as ``"KQvKR"``; ``None``: every 3- and 4-man ending) and every
    ending they lead to by a capture or a promotion into the folder *path*, on *threads* threads
    (default: every core). A table already in the folder is read instead of solved again, so a
    generation stopped with Ctrl-C resumes where it stopped. Returns the endings in the folder's set,
    smallest first.

    :raises: :exc:`ValueError` for a bad ending name, :exc:`OSError` if the folder cannot be written,
        :exc:`camelpy.errors.TablebaseFileError` for a damaged table already there.
    """
    folder = path_arg(path, "path")
    names = None
    if endings is not None:
        if isinstance(endings, str):
            raise TypeError("endings must be a list of names such as ['KQvKR'], not a str")
        names = [str(e) for e in endings]
    count = _core.default_threads() if threads is None else int_arg(threads, "threads", 1, 1024)
    return _core.tb_generate(folder, names, count, progress)


def open_tablebase(path: str | os.PathLike[str]) -> Tablebase:
    """The tables in the folder *path* (every ``*.cptb`` file), as :class:`Tablebase`.

    :raises: :exc:`OSError` if the folder cannot be read, :exc:`camelpy.errors.TablebaseFileError` for
        a file that is not a usable table.
    """
    return Tablebase(path)


_OPENED: dict[str, Tablebase] = {}
"""Folders opened by :func:`probe_dtm` / :func:`probe_wdl`, by path, kept for the next probe."""


def _tables(tablebase: Tablebase | str | os.PathLike[str]) -> Tablebase:
    if isinstance(tablebase, Tablebase):
        return tablebase
    folder = path_arg(tablebase, "tablebase")
    if folder not in _OPENED:
        _OPENED[folder] = Tablebase(folder)
    return _OPENED[folder]


def probe_dtm(board: chess.Board, tablebase: Tablebase | str | os.PathLike[str]) -> int:
    """*board*'s distance to mate in plies from *tablebase* (a :class:`Tablebase`, or a folder,
    opened on first use and kept): :meth:`Tablebase.probe_dtm`.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp(); _ = generate(folder, ["KQvK"])
    >>> probe_dtm(chess.Board("k7/7Q/1K6/8/8/8/8/8 w - - 0 1"), folder)
    1

    :raises: :exc:`camelpy.errors.MissingTableError` if no table holds the position; as
        :func:`open_tablebase` for a folder that cannot be read.
    """
    return _tables(tablebase).probe_dtm(board)


def probe_wdl(board: chess.Board, tablebase: Tablebase | str | os.PathLike[str]) -> int:
    """*board*'s result for the side to move (1, 0 or -1) from *tablebase*: :meth:`Tablebase.probe_wdl`.

    :raises: as :func:`probe_dtm`.
    """
    return _tables(tablebase).probe_wdl(board)


@dataclasses.dataclass(frozen=True)
class TableCheck:
    """What :meth:`Tablebase.check` found in one ending's table."""

    ending: str
    """The ending, as named in the check."""
    positions: int
    """Positions checked: every legal position of the table up to the board's symmetries, either side
    to move."""
    decisive: int
    """Of them, won or lost for the side to move."""
    illegal: int
    """Slots of the table that are no legal position (the side not to move in check): skipped."""
    mismatches: int
    """Positions whose value is not the best of their moves' values (0 for a sound table)."""
    examples: tuple[str, ...] = ()
    """The first few mismatches, as ``FEN: stored value, moves give value``."""


class Tablebase:
    """A folder of tables, loaded into memory. Probe with :meth:`probe_dtm` / :meth:`probe_wdl`
    (raise :exc:`camelpy.errors.MissingTableError`, a :exc:`KeyError`, when no table holds the
    position) or :meth:`get_dtm` / :meth:`get_wdl` (``None`` then). A context manager, as
    python-chess's tablebases are."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._native = _core.Tablebase(path_arg(path, "path"))

    @property
    def path(self) -> str:
        """The folder."""
        return self._native.path

    @property
    def endings(self) -> list[str]:
        """The endings loaded (``"KQvKR"``…), smallest first."""
        return self._native.endings()

    def _probe(self, board: chess.Board) -> tuple[int, int] | None:
        if not isinstance(board, chess.Board):
            raise TypeError(f"board must be a chess.Board, not {type(board).__name__}")
        return self._native.probe(board.fen(), [], board.chess960)

    def probe_dtm(self, board: chess.Board) -> int:
        """The distance to mate in plies: positive if the side to move mates, negative if it is
        mated, 0 for a draw or a checkmated side.

        :raises: :exc:`camelpy.errors.MissingTableError` if no loaded table holds the position.
        """
        found = self._probe(board)
        if found is None:
            raise MissingTableError(f"no table for {board.fen()!r} in {self.path!r}")
        return found[0]

    def probe_wdl(self, board: chess.Board) -> int:
        """1 if the side to move wins, 0 for a draw, -1 if it loses.

        :raises: :exc:`camelpy.errors.MissingTableError` if no loaded table holds the position.
        """
        found = self._probe(board)
        if found is None:
            raise MissingTableError(f"no table for {board.fen()!r} in {self.path!r}")
        return found[1]

    def get_dtm(self, board: chess.Board, default: int | None = None) -> int | None:
        """:meth:`probe_dtm`, or *default* when no table holds the position."""
        found = self._probe(board)
        return default if found is None else found[0]

    def get_wdl(self, board: chess.Board, default: int | None = None) -> int | None:
        """:meth:`probe_wdl`, or *default* when no table holds the position."""
        found = self._probe(board)
        return default if found is None else found[1]

    def check(self, ending: str, *, threads: int | None = None) -> TableCheck:
        """Checks every position of *ending*'s table by the core's own (perft-checked) move
        generator, on *threads* threads (default: every core): each value must be the best of the
        position's legal moves' values one ply on (a checkmate lost in 0, a stalemate drawn). With
        the tables it leads to sound, a table that passes is exactly right. Ctrl-C stops it.

        >>> import tempfile
        >>> folder = tempfile.mkdtemp(); _ = generate(folder, ["KRvK"])
        >>> open_tablebase(folder).check("KRvK")
        TableCheck(ending='KRvK', positions=50015, decisive=47219, illegal=6097, mismatches=0, examples=())

        :raises: :exc:`ValueError` for a bad ending name, or if its table or one it leads to by a
            capture or a promotion is not loaded.
        """
        if not isinstance(ending, str):
            raise TypeError(f"ending must be a str such as 'KQvKR', not {type(ending).__name__}")
        count = _core.default_threads() if threads is None else int_arg(threads, "threads", 1, 1024)
        positions, decisive, illegal, mismatches, examples = self._native.check(ending, count)
        return TableCheck(ending, positions, decisive, illegal, mismatches, tuple(examples))

    def close(self) -> None:
        """Nothing to release early (the tables are freed with the object); for python-chess's API."""

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Tablebase({self.path!r})"

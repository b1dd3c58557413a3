"""Exceptions raised by camelpy.

Every error is a :class:`ValueError` subclass, named and worded the way python-chess
words its own: a lowercase message that quotes the offending input. Code written
for python-chess keeps working, because :class:`InvalidMoveError` and
:class:`IllegalMoveError` also subclass :class:`chess.InvalidMoveError` and
:class:`chess.IllegalMoveError`, so ``except chess.IllegalMoveError`` catches ours.

The classes live in Python (not in the extension) so that they can subclass the
python-chess exceptions and be pickled by name; the Rust bindings raise them through
PyO3's ``import_exception!(camelpy.errors, ...)``. This module therefore imports
nothing but :mod:`chess`, and must stay importable without the compiled extension.
"""

from __future__ import annotations

import chess

__all__ = [
    "DataFileError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidStateError",
    "MissingTableError",
    "NetworkFileError",
    "TablebaseFileError",
]


class InvalidFenError(ValueError):
    """A FEN that cannot be parsed, or that describes an impossible position.

    Raised by :class:`camelpy.Position`, :func:`camelpy.perft` and
    :func:`camelpy.divide`. The message names what is wrong and quotes the FEN
    (a very long FEN is quoted truncated).

    >>> import camelpy
    >>> try:
    ...     camelpy.Position("8/8/8 w - - 0 1")
    ... except camelpy.InvalidFenError as err:
    ...     print(type(err).__name__, isinstance(err, ValueError), "fen" in str(err))
    InvalidFenError True True
    """


class InvalidMoveError(chess.InvalidMoveError):
    """A move string that is not syntactically valid UCI, such as ``"e9e4"``.

    Subclasses :class:`chess.InvalidMoveError` (and so :class:`ValueError`).
    The position is left unchanged.

    >>> import camelpy
    >>> pos = camelpy.Position()
    >>> try:
    ...     pos.push("e9e4")
    ... except camelpy.InvalidMoveError as err:
    ...     print(err)
    invalid uci: 'e9e4'
    """


class IllegalMoveError(chess.IllegalMoveError):
    """A well-formed move that is not legal in the current position.

    Subclasses :class:`chess.IllegalMoveError` (and so :class:`ValueError`).
    The message quotes the move and the position's FEN; the position is left
    unchanged.

    >>> import camelpy
    >>> pos = camelpy.Position()
    >>> try:
    ...     pos.push("e2e5")
    ... except camelpy.IllegalMoveError as err:
    ...     print(err)
    illegal uci: 'e2e5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
    """


class DataFileError(ValueError):
    """A data file (what ``camelpy datagen`` writes, :mod:`camelpy.data`) that is not camelpy's, is
    damaged, or was generated with another seed or other settings than those of a resume.

    The message names the file and what differs.

    >>> import os, tempfile, camelpy.data
    >>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("some text that is not a data file")
    >>> try:
    ...     camelpy.data.info(path)
    ... except camelpy.errors.DataFileError as err:
    ...     print(str(err).endswith("is not a camelpy data file (it does not start with CAMELPYD)"))
    True
    """


class InvalidStateError(ValueError):
    """A MiniChess board text that cannot be read: the course's ``state`` file or camelpy's one-line
    form (:mod:`camelpy.minichess`), or one that describes a board the rules cannot reach (two kings of
    a colour, no king, a pawn on its promotion row, a square given to both sides).

    The message names what is wrong and quotes the text.

    >>> import camelpy.minichess
    >>> try:
    ...     camelpy.minichess.Board("kqbnr/ppppp w 0")
    ... except camelpy.errors.InvalidStateError as err:
    ...     print(err)
    expected 6 rows separated by '/', got 2: 'kqbnr/ppppp w 0'
    """


class NetworkFileError(ValueError):
    """A network file (what ``camelpy train`` writes, loaded with ``Engine(eval_file=...)`` or the UCI
    option ``EvalFile``) that is not camelpy's, is damaged (its length or checksum does not match its
    header), or holds a network of another shape than this build evaluates.

    The message names the file and what is wrong; the engine keeps the evaluation it had.

    >>> import os, tempfile, camelpy
    >>> path = os.path.join(tempfile.mkdtemp(), "net.nnue")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"CAMELNET" + bytes(40))
    >>> try:
    ...     camelpy.Engine(eval_file=path)
    ... except camelpy.errors.NetworkFileError as err:
    ...     print(str(err).split("; ")[1])
    this camelpy reads versions 1 and 2
    """


class TablebaseFileError(ValueError):
    """A file in a tablebase folder (what ``camelpy tb generate`` writes) that is not a camelpy table,
    is of another format version, or is damaged (its length or checksum does not match its header).

    The message names the file and what is wrong; nothing is loaded.

    >>> import os, tempfile, camelpy.tablebase
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "KQvK.cptb"), "wb") as f:
    ...     _ = f.write(b"not a table")
    >>> try:
    ...     camelpy.tablebase.open_tablebase(folder)
    ... except camelpy.errors.TablebaseFileError as err:
    ...     print(str(err).split(": ", 1)[1])
    it does not start with CAMELTB and a 48-byte header
    """


class MissingTableError(KeyError):
    """A probe of a position whose table is not loaded (or that no table can hold: castling rights,
    more pieces than the tables have). A :exc:`KeyError`, as python-chess's
    ``chess.gaviota.MissingTableError``.
    """

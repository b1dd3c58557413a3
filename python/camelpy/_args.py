"""Arguments checked at the boundary of camelpy's Python functions: one rule, the same as the bindings'
(``rust/py/src/args.rs``), so a bad argument reads the same whichever side refuses it.

* an integer out of range is a :exc:`ValueError` naming the argument, its range and the value;
* anything that is not an integer (a float, even ``1.0``; a string; ``True``) is a :exc:`TypeError`;
* a number argument takes an ``int`` or a ``float`` (not ``True``); NaN, and infinity unless allowed,
  are a :exc:`ValueError`;
* a string argument takes a ``str``; anything else is a :exc:`TypeError`;
* ``None`` is "not given" only where a function says so (the ``opt_`` helpers).

Values are shown as Python writes them, strings quoted with :func:`camelpy._quote.quote` (so a
megabyte of input makes a one-line message). This module imports nothing from camelpy but ``_quote``.

>>> int_arg(3, "rounds", 1)
3
>>> int_arg(0, "rounds", 1)
Traceback (most recent call last):
...
ValueError: rounds must be at least 1, got 0
>>> int_arg(1.0, "rounds", 1)
Traceback (most recent call last):
...
TypeError: rounds must be an integer, got float 1.0
>>> real_arg(float("nan"), "elo")
Traceback (most recent call last):
...
ValueError: elo must be a finite number, got nan
"""

from __future__ import annotations

import errno
import math
import numbers
import operator
import os
import shlex
import stat
from collections.abc import Collection, Iterable, Iterator
from typing import Any, cast

from camelpy._quote import quote

__all__ = [
    "at",
    "brief",
    "check_file",
    "file_kind",
    "choice_arg",
    "int_arg",
    "items_arg",
    "opt_int_arg",
    "open_regular",
    "opt_str_arg",
    "path_arg",
    "read_bytes",
    "read_lines",
    "read_text",
    "real_arg",
    "shown",
    "split_command",
    "str_arg",
]

MAX_SHOWN = 120
"""Longest ``repr`` of a non-string value shown in full in a message (the same cut as strings')."""

MAX_COMMAND = 32_768
"""Longest command line (characters) taken for an engine: far beyond any real one, and :mod:`shlex`
takes time quadratic in the length (a megabyte would take minutes)."""


def shown(value: object) -> str:
    """*value* as a message shows it: a string quoted, anything else its ``repr`` (cut when long).

    >>> shown("it's"), shown(10**3), shown(None)
    ("'it\\\\'s'", '1000', 'None')
    """
    if isinstance(value, str):
        return quote(value)
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def at(source: str, line: int) -> str:
    """``source:line`` for a message: the source as it is when it is a short printable name (a file),
    quoted when it is not.

    >>> at("suite.epd", 3), at("a\\nb", 1)
    ('suite.epd:3', "'a\\\\nb':1")
    """
    plain = source.isprintable() and "'" not in source and len(source) <= MAX_SHOWN
    return f"{source if plain else quote(source)}:{line}"


def brief(err: BaseException) -> str:
    """The first line of *err*'s message, cut after :data:`MAX_SHOWN` characters: the reason a wrapped
    error gives (python-chess repeats the whole input in its messages, however long).

    >>> brief(ValueError("bad\\nthing"))
    'bad'
    """
    lines = str(err).splitlines()
    text = lines[0] if lines else type(err).__name__
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def _kind(value: object) -> str:
    return f"{type(value).__name__} {shown(value)}"


def int_arg(value: object, name: str, minimum: int | None, maximum: int | None = None) -> int:
    """*value* as an integer of at least *minimum* (and at most *maximum*; ``None``: no bound):
    anything with ``__index__`` but a ``bool``.

    :raises: :exc:`TypeError` for a value that is not an integer, :exc:`ValueError` for one out of range.
    """
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an integer, got {_kind(value)}")
    number = operator.index(value)  # type: ignore[arg-type]  # has __index__, checked above
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        if maximum is None:
            limits = f"at least {minimum}"
        elif minimum is None:
            limits = f"at most {maximum}"
        else:
            limits = f"between {minimum} and {maximum}"
        raise ValueError(f"{name} must be {limits}, got {shown(value)}")
    return number


def opt_int_arg(value: object, name: str, minimum: int | None, maximum: int | None = None) -> int | None:
    """:func:`int_arg` for an optional argument: ``None`` stays ``None``."""
    return None if value is None else int_arg(value, name, minimum, maximum)


def real_arg(
    value: object,
    name: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    above: float | None = None,
    below: float | None = None,
    infinite: bool = False,
) -> float:
    """*value* (an ``int``, a ``float`` or another :class:`numbers.Real`, not a ``bool``) as a float
    within the bounds given:
    *minimum*/*maximum* inclusive, *above*/*below* exclusive; infinity only where *infinite*.

    >>> real_arg(1, "st", above=0)
    1.0
    >>> real_arg(0, "st", above=0)
    Traceback (most recent call last):
    ...
    ValueError: st must be above 0, got 0

    :raises: :exc:`TypeError` for a value that is not a number, :exc:`ValueError` for NaN, an infinity
        not allowed, or a number out of bounds.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {_kind(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float range
        number = math.inf if cast(float, value) > 0 else -math.inf
    if math.isnan(number) or (math.isinf(number) and not infinite):
        raise ValueError(f"{name} must be a finite number, got {shown(value)}")
    for bound, words, sign in (
        (minimum, "at least", 1),
        (maximum, "at most", -1),
        (above, "above", 1),
        (below, "below", -1),
    ):
        inclusive = words.startswith("at")
        if bound is not None and not (sign * (number - bound) > 0 or (inclusive and number == bound)):
            raise ValueError(f"{name} must be {words} {bound:g}, got {shown(value)}")
    return number


def str_arg(value: object, name: str) -> str:
    """*value*, which must be a ``str``.

    :raises: :exc:`TypeError` for anything else.
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {_kind(value)}")
    return value


def opt_str_arg(value: object, name: str) -> str | None:
    """:func:`str_arg` for an optional argument: ``None`` stays ``None``."""
    return None if value is None else str_arg(value, name)


def choice_arg(value: object, name: str, choices: Collection[str]) -> str:
    """*value*, which must be one of the strings *choices*.

    >>> choice_arg("pgn", "fmt", ("epd", "pgn"))
    'pgn'
    >>> choice_arg("", "fmt", ("epd", "pgn"))
    Traceback (most recent call last):
    ...
    ValueError: fmt must be 'epd' or 'pgn', got ''

    :raises: :exc:`TypeError` for a value that is not a string, :exc:`ValueError` for another string.
    """
    text = str_arg(value, name)
    if text not in choices:
        names = [quote(c) for c in choices]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        raise ValueError(f"{name} must be {listed}, got {quote(text)}")
    return text


def items_arg(value: object, name: str, kind: type | tuple[type, ...] | None = None) -> list[Any]:
    """The items of *value*, an iterable that is not a string (a string is one value, not a list of
    them), each an instance of *kind* when given.

    >>> items_arg((1, 2), "results")
    [1, 2]
    >>> items_arg("e2e4", "moves")
    Traceback (most recent call last):
    ...
    TypeError: moves must be a list, got str 'e2e4'

    :raises: :exc:`TypeError` for a value that is not such an iterable, or an item not of *kind*.
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list, got {_kind(value)}")
    items = list(value)
    if kind is not None:
        for index, item in enumerate(items):
            if not isinstance(item, kind):
                names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
                raise TypeError(f"{name}[{index}] must be a {names}, got {_kind(item)}")
    return items


def path_arg(value: object, name: str) -> str:
    """*value*, a ``str`` or an :class:`os.PathLike`, as a non-empty ``str`` without NUL characters.
    (An ``int`` is refused: :func:`open` would take it for a file descriptor.)

    :raises: :exc:`TypeError` for anything else, :exc:`ValueError` for an empty path or one holding NUL.
    """
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (a str or os.PathLike), got {_kind(value)}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{name} must be a path (a str or os.PathLike), got {_kind(value)}")
    if not path or "\x00" in path:
        raise ValueError(f"{name} must be a non-empty path without NUL characters, got {quote(path)}")
    return path


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words (the core's ``fsio`` uses the same words).

    >>> import os
    >>> file_kind(os.stat("/dev/zero").st_mode)
    'a character device'
    """
    for test, words in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symbolic link"),
    ):
        if test(mode):
            return words
    return "not a plain file"


def _article(what: str) -> str:
    return "an" if what[:1].lower() in "aeiou" else "a"


def _refuse(what: str, path: str, reason: str, verb: str = "read") -> ValueError:
    return ValueError(f"cannot {verb} {what} {quote(path)}: {reason}")


def check_file(value: object, name: str, what: str, *, limit: int | None, verb: str = "read") -> str:
    """The path *value* (the argument called *name*), checked without opening it to be a regular file
    (not a directory, a named pipe or a device such as ``/dev/zero``) of at most *limit* bytes
    (``None``: any size, for a reader that streams or maps the file), read as *what*. Messages say
    ``cannot VERB WHAT 'PATH': WHY`` (*verb*: ``read``, or the caller's word).

    >>> check_file("/dev/zero", "path", "Polyglot book", limit=1 << 20)
    Traceback (most recent call last):
    ...
    ValueError: cannot read Polyglot book '/dev/zero': it is not a regular file (a character device)

    :raises: :exc:`TypeError` for a value that is not a path, :exc:`ValueError` quoting the path for a
        file that is missing, not a regular file, or larger than *limit*.
    """
    path = path_arg(value, name)
    try:
        info = os.stat(path)
    except OSError as err:
        raise _refuse(what, path, err.strerror or brief(err), verb) from None
    except ValueError as err:  # a path the platform cannot name
        raise _refuse(what, path, brief(err), verb) from None
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(what, path, f"it is not a regular file ({file_kind(info.st_mode)})", verb)
    if limit is not None and info.st_size > limit:
        sizes = f"it is {info.st_size} bytes; at most {limit} are read as {_article(what)} {what}"
        raise _refuse(what, path, sizes, verb)
    return path


def open_regular(path: str, *, follow: bool = True) -> int:
    """A read-only file descriptor for *path*, opened without blocking (a named pipe put there after a
    check does not hang the open) and, unless *follow*, without following a symbolic link; then checked
    with :func:`os.fstat` to be a regular file. The caller closes it.

    :raises: :exc:`OSError` when it cannot be opened or is not a regular file (``EINVAL``, its
        ``strerror`` saying what it is).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"it is not a regular file ({file_kind(mode)})", path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(value: object, name: str, what: str, *, limit: int, verb: str = "read") -> bytes:
    """The bytes of the file at the path *value* (the argument called *name*), read as *what*: checked
    first (:func:`check_file`: a regular file of at most *limit* bytes), then opened without blocking
    and read up to *limit* + 1 bytes, so that a file that grows meanwhile is still refused, not read
    whole.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "big.bin")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(bytes(100))
    >>> len(read_bytes(path, "path", "book", limit=100))
    100
    >>> read_bytes(path, "path", "book", limit=64)
    Traceback (most recent call last):
    ...
    ValueError: cannot read book '...big.bin': it is 100 bytes; at most 64 are read as a book

    :raises: :exc:`TypeError` for a value that is not a path, :exc:`ValueError` quoting the path for one
        that is missing, not a regular file, larger than *limit* or unreadable.
    """
    path = check_file(value, name, what, limit=limit, verb=verb)
    try:
        fd = open_regular(path)
        with os.fdopen(fd, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise _refuse(what, path, err.strerror or brief(err), verb) from None
    if len(data) > limit:
        raise _refuse(what, path, f"it grew beyond {limit} bytes while being read", verb)
    return data


def read_text(value: object, name: str, what: str, *, limit: int) -> str:
    """The UTF-8 text of the file at the path *value* (the argument called *name*), read as *what* by
    :func:`read_bytes` (a regular file of at most *limit* bytes).

    >>> read_text("/nonexistent/suite.epd", "path", "EPD suite", limit=1 << 20)
    Traceback (most recent call last):
    ...
    ValueError: cannot read EPD suite '/nonexistent/suite.epd': No such file or directory
    >>> read_text("/", "path", "EPD suite", limit=1 << 20)
    Traceback (most recent call last):
    ...
    ValueError: cannot read EPD suite '/': it is not a regular file (a directory)

    :raises: :exc:`TypeError` for a value that is not a path, :exc:`ValueError` quoting the path for one
        that cannot be read (missing, not a regular file, larger than *limit*, not UTF-8).
    """
    data = read_bytes(value, name, what, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        path = path_arg(value, name)
        raise _refuse(what, path, f"not UTF-8 text ({brief(err)})") from None


def read_lines(value: object, name: str, what: str, *, limit: int) -> Iterator[str]:
    """The lines (with their line ends) of the UTF-8 text file at the path *value*, read as *what* one
    at a time, for a reader that streams: the file is checked (:func:`check_file`) and opened, without
    blocking, before this returns, and reading past *limit* bytes (a file that grows) raises.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("a\\nb\\n")
    >>> list(read_lines(path, "path", "data file", limit=100))
    ['a\\n', 'b\\n']

    :raises: :exc:`TypeError` for a value that is not a path, :exc:`ValueError` quoting the path for one
        that is missing, not a regular file or larger than *limit* (at once), and, while reading, for
        one that is not UTF-8 or grows beyond *limit*.
    """
    path = check_file(value, name, what, limit=limit)
    try:
        fd = open_regular(path)
    except OSError as err:
        raise _refuse(what, path, err.strerror or brief(err)) from None
    return _lines(fd, path, what, limit)


def _lines(fd: int, path: str, what: str, limit: int) -> Iterator[str]:
    with os.fdopen(fd, "rb") as f:
        total = 0
        number = 0
        while True:
            raw = f.readline(limit - total + 1)
            if not raw:
                return
            number += 1
            total += len(raw)
            if total > limit:
                raise _refuse(what, path, f"it grew beyond {limit} bytes while being read")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise _refuse(what, path, f"line {number} is not UTF-8 text ({brief(err)})") from None


def split_command(value: object, name: str) -> list[str]:
    """*value*, a command line, split into words as a POSIX shell would (:func:`shlex.split`).

    >>> split_command("stockfish -x 'a b'", "cmd")
    ['stockfish', '-x', 'a b']
    >>> split_command('"a b', "cmd")
    Traceback (most recent call last):
    ...
    ValueError: cmd is not a command line (No closing quotation): '"a b'

    :raises: :exc:`TypeError` for a value that is not a string, :exc:`ValueError` for one that is empty,
        holds NUL, is longer than :data:`MAX_COMMAND` or is not a command line.
    """
    text = str_arg(value, name)
    if len(text) > MAX_COMMAND:
        raise ValueError(f"{name} is longer than {MAX_COMMAND} characters: {quote(text)}")
    if "\x00" in text:
        raise ValueError(f"{name} holds a NUL character: {quote(text)}")
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ValueError(f"{name} is not a command line ({brief(err)}): {quote(text)}") from None
    if not words:
        raise ValueError(f"{name} must name a program, got {quote(text)}")
    return words

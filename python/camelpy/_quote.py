"""Quoting input back in messages: one rule for all of camelpy's Python code, the same as the Rust core's.

The core's error messages quote the FEN or move they are about (``rust/core/src/error.rs``, ``quote``);
the UCI loop, its option table and the tools quote commands, option values and file lines. All of them
use the rule below, so a message reads the same whichever side of the seam wrote it: the text between
single quotes, with backslashes, single quotes and control characters escaped in Python's spelling
(``\\n``, ``\\x00``), and anything longer than :data:`MAX_QUOTED` characters cut with an ellipsis. The
output is therefore always one line, however hostile the input.

This module imports nothing from camelpy, so any module may import it without making a circle.

>>> from camelpy._quote import quote
>>> quote("e2e5")
"'e2e5'"
>>> print(quote("it's\\ta \\x00 test\\n"))
'it\\'s\\ta \\x00 test\\n'
>>> quote("é" * 121)[-4:]
"éé…'"
"""

from __future__ import annotations

__all__ = ["MAX_QUOTED", "quote"]

MAX_QUOTED = 120
"""Longest input quoted in full (characters); longer input is cut here and ends with ``…``. The same
number as ``MAX_QUOTED`` in ``rust/core/src/error.rs``."""

_ESCAPES = {"\\": "\\\\", "'": "\\'", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    named = _ESCAPES.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x20 or 0x7F <= code <= 0x9F:  # Unicode category Cc, Rust's char::is_control
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:  # a lone surrogate (only Python strings have them): not encodable
        return f"\\u{code:04x}"
    return char


def quote(text: str) -> str:
    """*text* between single quotes, escaped and cut as the Rust core quotes input in its messages.

    >>> quote("")
    "''"
    >>> len(quote("A" * 100_000))
    123

    The core cuts after :data:`MAX_QUOTED` characters without saying how long the input was; so does
    this function, so that the two sides agree.
    """
    cut = len(text) > MAX_QUOTED
    body = "".join(_escape(char) for char in (text[:MAX_QUOTED] if cut else text))
    return f"'{body}…'" if cut else f"'{body}'"

"""One quoting rule on both sides of the seam: ``camelpy._quote.quote`` against the core's messages.

The Rust core quotes the FEN in an :class:`~camelpy.InvalidFenError` and the move in an
:class:`~camelpy.InvalidMoveError`; the Python side (UCI loop, option table, tools) quotes with
:func:`camelpy._quote.quote`. Fed the same awkward inputs, both must write the same quoted text.
"""

from __future__ import annotations

import camelpy
import pytest
from camelpy._quote import MAX_QUOTED, quote
from camelpy.protocols.uci import format as uci_format
from camelpy.protocols.uci.options import Option, OptionError

# Every input starts with "x", which no FEN placement or UCI move can: all of them are refused.
AWKWARD = [
    "x",
    "x'quoted' and \"double\"",
    "x\\backslash\\",
    "x\ttab\nnewline\rreturn",
    "x\x00\x01\x1f\x7f\x80\x9f nul and other controls",
    "x é ü ß 中文 ♞ 🐪 non-ascii",
    "x\u2028line separator\u00a0nbsp",
    "x" * (MAX_QUOTED - 1),
    "x" * MAX_QUOTED,
    "x" * (MAX_QUOTED + 1),
    "x" + "'\x00é" * 66,  # 199 characters, escapes on both sides of the cut
    "x" * 200,
]


@pytest.mark.parametrize("text", AWKWARD, ids=range(len(AWKWARD)))
def test_quote_matches_the_core_fen_error(text: str) -> None:
    with pytest.raises(camelpy.InvalidFenError) as info:
        camelpy.Position(text)
    message = str(info.value)
    assert message.endswith(" fen: " + quote(text)), message


@pytest.mark.parametrize("text", AWKWARD, ids=range(len(AWKWARD)))
def test_quote_matches_the_core_move_error(text: str) -> None:
    with pytest.raises(camelpy.InvalidMoveError) as info:
        camelpy.Position().push(text)
    assert str(info.value) == "invalid uci: " + quote(text)


def test_quote_is_one_line_and_cut() -> None:
    for text in AWKWARD:
        quoted = quote(text)
        assert "\n" not in quoted and "\r" not in quoted
        assert quoted.startswith("'") and quoted.endswith("'")
    assert quote("a" * MAX_QUOTED) == "'" + "a" * MAX_QUOTED + "'"
    assert quote("a" * (MAX_QUOTED + 1)) == "'" + "a" * MAX_QUOTED + "…'"
    assert quote("\udcff") == "'\\udcff'"  # a lone surrogate (Python only) is escaped, never encoded


def test_python_callers_share_the_function() -> None:
    assert uci_format.quote is quote
    value = "1\n" + "9" * 300
    with pytest.raises(OptionError) as info:
        Option.spin("Hash", 16, 1, 1024).parse(value)
    assert str(info.value) == f"option 'Hash' takes an integer from 1 to 1024, got {quote(value)}"

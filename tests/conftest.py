"""Shared paths and data readers for the camelpy test-suite.

``tests`` is a package (it has an ``__init__.py``), so test modules import these helpers
as ``from tests.conftest import ...``. A bare ``from conftest import ...`` would pick up
whichever ``conftest`` module pytest loaded last (``benches/conftest.py`` when both
directories are collected), and would break under ``--import-mode=importlib``.

Readers return plain dataclasses in file order, so parametrised test ids stay stable.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Callable, TypeVar

import chess
import pytest
from camelpy.tools.chess.perft import PerftCase as PerftCase  # re-exported: the suite readers' case type
from camelpy.tools.chess.perft import read_suite

REPO_ROOT = Path(__file__).resolve().parent.parent
PERFT_SUITES_DIR = REPO_ROOT / "perft_suites"
DATA_DIR = Path(__file__).resolve().parent / "data"

STANDARD_EPD = PERFT_SUITES_DIR / "standard.epd"
FISCHER_EPD = PERFT_SUITES_DIR / "fischer.epd"
QUICK_EPD = PERFT_SUITES_DIR / "quick.epd"
QUICK_FISCHER_EPD = PERFT_SUITES_DIR / "quick_fischer.epd"
BAD_FENS_TXT = DATA_DIR / "bad_fens.txt"
BALANCED_EPD = DATA_DIR / "balanced.epd"

KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Each (position, depth) of the full suites whose expected leaf count is at most this is
# checked in the default (CI) run; everything else waits for ``-m slow``. With this cap
# standard.epd contributes ~8.3 M and fischer.epd ~22.7 M leaves in total.
CI_NODE_LIMIT = 200_000


# The one python-chess validity flag camelpy may ignore: standard.epd line 51
# (``B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1``, black king checked along one diagonal from both
# sides) has STATUS_IMPOSSIBLE_CHECK -- no last move can produce it -- yet it is a classic
# perft position that camelpy must accept. Every other flag means the FEN must be refused.
LENIENT_STATUS = chess.STATUS_IMPOSSIBLE_CHECK


@functools.cache
def read_perft_suite(path: Path) -> tuple[PerftCase, ...]:
    """A perft suite read by :func:`camelpy.tools.chess.perft.read_suite`, the one parser of the format (each
    case's ``source``, ``"<file name>:<line>"``, is the pytest id). Fischer files (Shredder castling
    letters) are read as Chess960."""
    return tuple(read_suite(path))


@dataclasses.dataclass(frozen=True)
class BadFen:
    """One line of ``bad_fens.txt``: the exact FEN and what is wrong with it."""

    fen: str
    comment: str
    source: str


@functools.cache
def read_bad_fens() -> tuple[BadFen, ...]:
    """Split each line on the *last* ``' ## '``; the FEN part is kept byte for byte."""
    entries = []
    with BAD_FENS_TXT.open(encoding="utf-8", newline="\n") as f:
        for number, line in enumerate(f, start=1):
            line = line.removesuffix("\n")
            fen, sep, comment = line.rpartition(" ## ")
            if not sep:
                raise ValueError(f"missing ' ## ' on line {number} of {BAD_FENS_TXT}")
            entries.append(BadFen(fen=fen, comment=comment, source=f"bad_fens:{number}"))
    return tuple(entries)


@functools.cache
def read_balanced_openings() -> tuple[str, ...]:
    """The 1000 lines of ``balanced.epd`` (4-field EPD plus ``id``/``c0`` operations)."""
    with BALANCED_EPD.open(encoding="utf-8") as f:
        return tuple(line.rstrip("\n") for line in f if line.strip())


T = TypeVar("T")


def call_no_panic(
    fn: Callable[..., T], *args: object, **kwargs: object
) -> tuple[T, None] | tuple[None, Exception]:
    """Call ``fn`` and return ``(result, None)`` or ``(None, exception)``.

    Only :class:`Exception` subclasses are returned. Anything else derived from
    :class:`BaseException` (notably ``pyo3_runtime.PanicException``, raised when Rust
    panics) fails the test with a clear message instead of escaping into pytest;
    ``KeyboardInterrupt`` and ``SystemExit`` still propagate.

    The arguments are typed ``object``, not as ``fn``'s parameters: callers pass values of
    the wrong type on purpose.
    """
    try:
        return fn(*args, **kwargs), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # noqa: BLE001 - the caller inspects the type
        return None, err
    except BaseException as err:  # noqa: BLE001 - a Rust panic must fail, not crash
        pytest.fail(
            f"{getattr(fn, '__qualname__', fn)} raised {type(err).__module__}."
            f"{type(err).__qualname__} (not an Exception; a Rust panic?): {err!r}",
            pytrace=False,
        )

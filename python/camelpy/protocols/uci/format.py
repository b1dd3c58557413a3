"""Formatting the search's reports as UCI ``info`` lines, and the win/draw/loss model behind ``wdl``.

The core hands over typed reports (:class:`camelpy._core.IterationInfo`,
:class:`camelpy._core.CurrMoveInfo`); this module turns them into text and nothing else.

>>> from camelpy._core import IterationInfo
>>> from camelpy.protocols.uci.format import info_line
>>> report = IterationInfo(depth=5, seldepth=7, multipv=1, cp=31, nodes=5400, time_ms=12, hashfull=3,
...                        pv=["e2e4", "e7e5"])
>>> info_line(report)
'info depth 5 seldepth 7 multipv 1 score cp 31 nodes 5400 nps 450000 hashfull 3 time 12 pv e2e4 e7e5'
>>> info_line(report, wdl_ply=0).split(" nodes ")[0]
'info depth 5 seldepth 7 multipv 1 score cp 31 wdl 63 910 27'
"""

from __future__ import annotations

import math
from typing import Literal

from camelpy._core import CurrMoveInfo, IterationInfo
from camelpy._quote import quote

__all__ = ["currmove_line", "info_line", "quote", "score", "wdl"]

WDL_MIDPOINT_OPENING = 220
"""Centipawns at which a win becomes as likely as not, at the start of the game (our own guess, not fitted:
early advantages still get defended)."""

WDL_MIDPOINT_ENDGAME = 140
"""The same midpoint late in the game, where an advantage converts more reliably."""

WDL_PLY_SPAN = 160
"""Plies over which the midpoint slides from its opening to its endgame value."""

WDL_SCALE = 70
"""Spread of the logistic curve in centipawns: how fast the win chance grows around the midpoint."""


def wdl(score: tuple[str, int], ply: int) -> tuple[int, int, int]:
    """Win, draw and loss chances in per mille (summing to 1000) for a score from the side to move's point
    of view, *ply* half-moves into the game: a logistic model of our own on centipawns and game phase.

    >>> wdl(("cp", 0), 0)
    (41, 918, 41)
    >>> wdl(("cp", 300), 100)
    (865, 134, 1)
    >>> wdl(("mate", -3), 40)
    (0, 0, 1000)
    """
    kind, value = score
    if kind == "mate":
        return (1000, 0, 0) if value > 0 else (0, 0, 1000)
    progress = min(max(ply, 0), WDL_PLY_SPAN) / WDL_PLY_SPAN
    midpoint = WDL_MIDPOINT_OPENING - (WDL_MIDPOINT_OPENING - WDL_MIDPOINT_ENDGAME) * progress
    win = round(1000 * _logistic((value - midpoint) / WDL_SCALE))
    loss = round(1000 * _logistic((-value - midpoint) / WDL_SCALE))
    return win, 1000 - win - loss, loss


def _logistic(x: float) -> float:
    if x < -700:  # exp overflow guard; the chance is 0 to many digits
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def score(report: IterationInfo) -> tuple[Literal["cp", "mate"], int]:
    """The report's score as UCI writes it: ``("cp", n)`` or ``("mate", n)``."""
    if report.mate is not None:
        return "mate", report.mate
    return "cp", report.cp if report.cp is not None else 0


def info_line(report: IterationInfo, *, wdl_ply: int | None = None) -> str:
    """The ``info`` line for one iteration's report; with *wdl_ply* (the root's game ply) a ``wdl`` field
    is added (``UCI_ShowWDL``). ``nps`` is always there (fastchess's compliance check wants it in the last
    line), counting a search under a millisecond as one millisecond."""
    kind, value = score(report)
    parts = [
        f"info depth {report.depth} seldepth {report.seldepth} multipv {report.multipv}",
        f"score {kind} {value}",
    ]
    if report.bound == "lower":
        parts.append("lowerbound")
    elif report.bound == "upper":
        parts.append("upperbound")
    if wdl_ply is not None:
        w, d, loss = wdl((kind, value), wdl_ply)
        parts.append(f"wdl {w} {d} {loss}")
    nodes, ms = report.nodes, report.time_ms
    parts.append(f"nodes {nodes} nps {nodes * 1000 // max(ms, 1)}")
    parts.append(f"hashfull {report.hashfull} time {ms}")
    if report.pv:
        parts.append("pv " + " ".join(report.pv))
    return " ".join(parts)


def currmove_line(report: CurrMoveInfo) -> str:
    """The ``info currmove`` line for a long search's progress report.

    >>> currmove_line(CurrMoveInfo(depth=20, currmove="g1f3", currmovenumber=2, nodes=9, time_ms=3001))
    'info depth 20 currmove g1f3 currmovenumber 2 nodes 9 time 3001'
    """
    return (
        f"info depth {report.depth} currmove {report.currmove} "
        f"currmovenumber {report.currmovenumber} nodes {report.nodes} time {report.time_ms}"
    )

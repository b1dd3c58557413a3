"""An alias, kept for those who import it: the UCI engine lives in :mod:`camelpy.protocols.uci` (with the
other protocol loops, :mod:`camelpy.protocols`); ``camelpy.uci.main`` and ``camelpy.uci.UciEngine`` are
its names.

>>> import camelpy.protocols.uci
>>> from camelpy.uci import UciEngine, main
>>> main is camelpy.protocols.uci.main and UciEngine is camelpy.protocols.uci.UciEngine
True
"""

from __future__ import annotations

from camelpy.protocols.uci import ENGINE_AUTHOR, ENGINE_NAME, UciEngine, main

__all__ = ["ENGINE_AUTHOR", "ENGINE_NAME", "UciEngine", "main"]

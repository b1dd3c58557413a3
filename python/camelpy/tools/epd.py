"""An alias, kept so that ``camelpy.tools.epd`` (which the README named) still imports: the EPD test suites'
tool is :mod:`camelpy.tools.chess.epd`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.tools.chess.epd
>>> from camelpy.tools.epd import run_epd
>>> run_epd is camelpy.tools.chess.epd.run_epd
True
"""

from __future__ import annotations

from camelpy.tools.chess.epd import *  # noqa: F403
from camelpy.tools.chess.epd import __all__ as __all__

"""An alias, kept so that ``camelpy.tools.openings`` (which the README named) still imports: the opening sets
is :mod:`camelpy.arena.openings`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.arena.openings
>>> from camelpy.tools.openings import load_openings
>>> load_openings is camelpy.arena.openings.load_openings
True
"""

from __future__ import annotations

from camelpy.arena.openings import *  # noqa: F403
from camelpy.arena.openings import __all__ as __all__

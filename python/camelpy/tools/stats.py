"""An alias, kept so that ``camelpy.tools.stats`` (which the README named) still imports: the match statistics
is :mod:`camelpy.arena.stats`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.arena.stats
>>> from camelpy.tools.stats import elo_estimate
>>> elo_estimate is camelpy.arena.stats.elo_estimate
True
"""

from __future__ import annotations

from camelpy.arena.stats import *  # noqa: F403
from camelpy.arena.stats import __all__ as __all__

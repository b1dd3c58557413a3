"""An alias, kept so that ``camelpy.tools.selfplay_tune`` (which the README named) still imports: the small
games' self-play tuner is :mod:`camelpy.tools.games.selfplay_tune`, and this module re-exports its public
names (its ``__all__``).

>>> import camelpy.tools.games.selfplay_tune
>>> from camelpy.tools.selfplay_tune import fit
>>> fit is camelpy.tools.games.selfplay_tune.fit
True
"""

from __future__ import annotations

from camelpy.tools.games.selfplay_tune import *  # noqa: F403
from camelpy.tools.games.selfplay_tune import __all__ as __all__

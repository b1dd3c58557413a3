"""An alias, kept so that ``camelpy.tools.tune`` (which the README named) still imports: the evaluation tuner
is :mod:`camelpy.tools.chess.tune`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.tools.chess.tune
>>> from camelpy.tools.tune import tune
>>> tune is camelpy.tools.chess.tune.tune
True
"""

from __future__ import annotations

from camelpy.tools.chess.tune import *  # noqa: F403
from camelpy.tools.chess.tune import __all__ as __all__

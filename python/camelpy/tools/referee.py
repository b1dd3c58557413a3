"""An alias, kept so that ``camelpy.tools.referee`` (which the README named) still imports: the chess referee
is :mod:`camelpy.arena.referee`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.arena.referee
>>> from camelpy.tools.referee import play_game
>>> play_game is camelpy.arena.referee.play_game
True
"""

from __future__ import annotations

from camelpy.arena.referee import *  # noqa: F403
from camelpy.arena.referee import __all__ as __all__

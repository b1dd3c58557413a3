"""An alias, kept so that ``camelpy.tools.match`` (which the README named) still imports: matches with SPRT is
:mod:`camelpy.arena.match`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.arena.match
>>> from camelpy.tools.match import run_match
>>> run_match is camelpy.arena.match.run_match
True
"""

from __future__ import annotations

from camelpy.arena.match import *  # noqa: F403
from camelpy.arena.match import __all__ as __all__

"""An alias, kept so that ``camelpy.tools.book`` (which the README named) still imports: Polyglot opening
books' tool is :mod:`camelpy.tools.chess.book`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.tools.chess.book
>>> from camelpy.tools.book import build_book
>>> build_book is camelpy.tools.chess.book.build_book
True
"""

from __future__ import annotations

from camelpy.tools.chess.book import *  # noqa: F403
from camelpy.tools.chess.book import __all__ as __all__

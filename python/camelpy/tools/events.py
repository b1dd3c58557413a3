"""An alias, kept so that ``camelpy.tools.events`` (which the README named) still imports: the events stream
the GUI watches is :mod:`camelpy.arena.events`, and this module re-exports its public names (its ``__all__``).

>>> import camelpy.arena.events
>>> from camelpy.tools.events import EventLog
>>> EventLog is camelpy.arena.events.EventLog
True
"""

from __future__ import annotations

from camelpy.arena.events import *  # noqa: F403
from camelpy.arena.events import __all__ as __all__

"""The protocol loops: camelpy's players as programs that others drive — the UCI engine
(:mod:`camelpy.protocols.uci`, ``camelpy`` with no subcommand; :mod:`camelpy.uci` is its alias) with the
bench's report lines (:mod:`~camelpy.protocols.bench`), the Leiserchess protocol engine
(:mod:`~camelpy.protocols.leiserchess`, ``camelpy leiserchess``, and the opening books it plays from,
:mod:`~camelpy.protocols.leiserchess_book`) and MiniChess's file-protocol player
(:mod:`~camelpy.protocols.minichess`, ``camelpy minichess player``).

What belongs here: a loop that reads a protocol's commands (standard input, files) and answers them by
the game APIs' searches, with its option table and output formatting. It imports the game APIs
(:mod:`camelpy`, :mod:`camelpy.minichess`, :mod:`camelpy.leiserchess`), never a tool
(:mod:`camelpy.tools`), the arena (:mod:`camelpy.arena`, which drives such programs from the other side)
or the GUI.

>>> from camelpy.protocols.uci import ENGINE_NAME
>>> ENGINE_NAME.split()[0]
'camelpy'
"""

"""Chess's tools, one module per ``camelpy <command>``: the bench (:mod:`~camelpy.tools.chess.bench`),
perft and perft suites (:mod:`~camelpy.tools.chess.perft`), EPD test suites
(:mod:`~camelpy.tools.chess.epd`), game reviews (:mod:`~camelpy.tools.chess.review`, over
:mod:`camelpy.review`), self-play training data (:mod:`~camelpy.tools.chess.datagen`, over
:mod:`camelpy.data`) and the network's trainer (:mod:`~camelpy.tools.chess.train`), Polyglot opening
books (:mod:`~camelpy.tools.chess.book`), endgame tablebases (:mod:`~camelpy.tools.chess.tb`, over
:mod:`camelpy.tablebase`), the evaluation tuner (:mod:`~camelpy.tools.chess.tune`) and the SPSA tuner of
engine settings over matches (:mod:`~camelpy.tools.chess.spsa`, over :mod:`camelpy.arena`).

What belongs here: a tool that serves chess only, with its command (``add_arguments``, ``main``) and
its Python API. Matches and tournaments, for every game, are the arena (:mod:`camelpy.arena`); the
small games' tools are :mod:`camelpy.tools.games`.

>>> from camelpy.tools.chess import bench
>>> bench.parse_depth("13")
13
"""

"""The engine-builder's tools behind ``camelpy <command>`` (:mod:`camelpy.tools.cli` lists them): the
bench (:mod:`~camelpy.tools.bench`), perft and perft suites (:mod:`~camelpy.tools.perft`), matches with
SPRT (:mod:`~camelpy.tools.match`, with :mod:`~camelpy.tools.stats`), tournaments with ratings
(:mod:`~camelpy.tools.tournament`, :mod:`~camelpy.tools.ratings`), EPD test suites
(:mod:`~camelpy.tools.epd`), game reviews (:mod:`~camelpy.tools.review`, over
:mod:`camelpy.review`), self-play training data (:mod:`~camelpy.tools.datagen`, over
:mod:`camelpy.data`), Polyglot opening books (:mod:`~camelpy.tools.book`), endgame tablebases
(:mod:`~camelpy.tools.tb`, over :mod:`camelpy.tablebase`), the evaluation tuner
(:mod:`~camelpy.tools.tune`), the SPSA tuner of engine settings over matches
(:mod:`~camelpy.tools.spsa`), MiniChess's file-protocol runner and players
(:mod:`~camelpy.tools.minichess`, over :mod:`camelpy.minichess`), and Leiserchess's protocol engine
and match referee (:mod:`~camelpy.tools.leiserchess`, :mod:`~camelpy.tools.leiserchess_match`, over
:mod:`camelpy.leiserchess`). Each is also a Python API. ``camelpy gui``, the browser application to play,
analyse and watch matches, lives beside them in :mod:`camelpy.gui` (its command in
:mod:`camelpy.gui.server`); matches and tournaments publish their events for it
(:mod:`~camelpy.tools.events`)."""

"""The engine-builder's tools behind ``camelpy <command>``: the command line itself
(:mod:`camelpy.tools.cli`, the subcommand dispatch) and the tools, split by what they serve.

* :mod:`camelpy.tools.chess`: chess's tools — the bench, perft and perft suites, EPD test suites, game
  reviews, self-play training data and the network's trainer, Polyglot opening books, endgame tablebases,
  the evaluation tuner and the SPSA tuner of engine settings over matches.
* :mod:`camelpy.tools.games`: the small games' tools — ``camelpy minichess`` and ``camelpy leiserchess``
  (their command lines), Leiserchess's opening books, and the self-play tuner both games share.

What belongs here: a command (``add_arguments(parser)`` and ``main(args)``) and the Python API behind it.
What does not: matches, tournaments, SPRT, ratings and the events stream the GUI watches
(``camelpy match``, ``camelpy tournament``) are the arena, :mod:`camelpy.arena`, for every game; the
protocol loops (UCI, the Leiserchess protocol, the MiniChess file player) are :mod:`camelpy.protocols`.
Tools may import both; neither imports a tool. ``camelpy gui`` lives above them in :mod:`camelpy.gui`
(its command in :mod:`camelpy.gui.server`).

The old flat paths stay importable as aliases, for the names the README documented (the user guide
names them now):
``camelpy.tools.book``, ``.epd``, ``.tune``, ``.selfplay_tune`` (now under :mod:`camelpy.tools.chess` and
:mod:`camelpy.tools.games`) and ``camelpy.tools.match``, ``.stats``, ``.events``, ``.openings``,
``.referee`` (now :mod:`camelpy.arena`)."""

"""The small games' tools: ``camelpy minichess`` (:mod:`~camelpy.tools.games.minichess`: the course's
runner and match, our player, play in the terminal, tune, perft) and ``camelpy leiserchess``
(:mod:`~camelpy.tools.games.leiserchess`: the protocol engine, perft, match, tune, book), each game's
opening books (:mod:`~camelpy.tools.games.leiserchess_book`), and the self-play tuner they share
(:mod:`~camelpy.tools.games.selfplay_tune`, over chess's :mod:`camelpy.tools.chess.tune`, with each
game's features in :mod:`~camelpy.tools.games.minichess_tune` and
:mod:`~camelpy.tools.games.leiserchess_tune`).

What belongs here: a tool that serves MiniChess or Leiserchess, with its command and Python API. The
protocol loops these games speak are :mod:`camelpy.protocols`; their matches are the arena's
(:mod:`camelpy.arena`); their rules are :mod:`camelpy.minichess` and :mod:`camelpy.leiserchess`.

>>> from camelpy.tools.games import selfplay_tune
>>> selfplay_tune.EPOCHS > 0
True
"""

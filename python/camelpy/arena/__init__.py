"""The arena: where engines play each other, for every game — matches in game pairs with SPRT
(:mod:`~camelpy.arena.match`, its statistics :mod:`~camelpy.arena.stats`), tournaments with ratings by
maximum likelihood (:mod:`~camelpy.arena.tournament`, :mod:`~camelpy.arena.ratings`), the players
(UCI engines and their settings, :mod:`~camelpy.arena.engines`), the chess referee
(:mod:`~camelpy.arena.referee`: clocks, adjudication, and the one game record of every game), the small
games' one game loop over one player interface (:mod:`~camelpy.arena.game`: protocol engines, file-protocol
programs and camelpy's searcher in this process), the runner that plays a schedule of games, resumable,
on threads or Ray (:mod:`~camelpy.arena.runner`), the opening sets (:mod:`~camelpy.arena.openings`), the
events stream the GUI watches (:mod:`~camelpy.arena.events`), and the small games' players, referee
policies, logs and matches (:mod:`~camelpy.arena.leiserchess` for Leiserchess-protocol engines,
:mod:`~camelpy.arena.minichess`, the course's runner, for MiniChess file-protocol programs).

What belongs here: whatever makes two players meet and records what happened. It imports the game APIs
(:mod:`camelpy`, :mod:`camelpy.minichess`, :mod:`camelpy.leiserchess`), never a tool
(:mod:`camelpy.tools`) and never the GUI; the commands ``camelpy match`` and ``camelpy tournament`` are
its modules' ``add_arguments``/``main``.

>>> from camelpy.arena import stats
>>> stats.SPRT(elo0=0, elo1=5).status((5, 300, 1500, 500, 30))
'H1'
"""

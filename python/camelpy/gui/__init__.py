"""``camelpy gui``: play camelpy, analyse a position and watch matches live in a browser.

A local web application (Starlette on uvicorn, ``pip install 'camelpy[gui]'``) serving a hand-written
page from this package: no framework, no network access needed. The server holds each tab's game and
analysis (so a reload loses nothing), runs the searches in threads of their own and pushes their
output over one WebSocket per tab.

- :mod:`camelpy.gui.play`: a game against the engine (levels, clocks, undo, resign, draw, PGN), chess
  or MiniChess (:mod:`camelpy.gui.variants`);
- :mod:`camelpy.gui.lines`: the analysis board's line (a FEN or PGN loaded, moves played on it);
- :mod:`camelpy.gui.boards`: boards and scores as the page shows them;
- :mod:`camelpy.gui.watch`: a running match's or tournament's ``events.jsonl``, followed as it grows;
- :mod:`camelpy.gui.server`: the application, its WebSocket protocol and the ``camelpy gui`` command.

The first three need only python-chess and camelpy; the server imports Starlette and uvicorn.

>>> from camelpy.gui.play import Game, GameSettings
>>> game = Game(GameSettings(human="both"))
>>> game.push("f2f3", now=0); game.push("e7e5", now=0); game.push("g2g4", now=0); game.push("d8h4", now=0)
>>> game.result, game.reason
('0-1', 'Black wins: checkmate')
"""

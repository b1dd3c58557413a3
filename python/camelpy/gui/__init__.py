"""``camelpy gui``: play camelpy, analyse a position, review a game and watch matches live in a browser.

A local web application (Starlette on uvicorn, ``pip install 'camelpy[gui]'``) serving a hand-written
page from this package: no framework, no network access needed. The server holds each tab's game and
analysis (so a reload loses nothing), runs the searches in threads of their own and pushes their
output over one WebSocket per tab.

- :mod:`camelpy.gui.play`: a game against the engine (levels, clocks, undo, resign, draw, PGN), chess
  or MiniChess (:mod:`camelpy.gui.variants`);
- :mod:`camelpy.gui.lines`: the analysis board's line (a FEN or PGN loaded, moves played on it);
- :mod:`camelpy.gui.boards`: boards and scores as the page shows them;
- :mod:`camelpy.gui.watch`: a running match's or tournament's ``events.jsonl``, followed as it grows;
- :mod:`camelpy.gui.review`: a pasted game reviewed (:func:`camelpy.review`) and drawn in the Review
  view: the evaluation graph, each move's class, the better line on the board;
- :mod:`camelpy.gui.messages`: the WebSocket protocol, one definition per message kind each way;
- :mod:`camelpy.gui.session`: a tab's session (its game, analysis board and watched folder) and the
  handling of each op;
- :mod:`camelpy.gui.transport`: the application, its HTTP routes and each page's WebSocket (the access
  checks, the caps, the framing);
- :mod:`camelpy.gui.server`: the ``camelpy gui`` command, which wires them together.

The games (chess, MiniChess) are behind one interface, :class:`camelpy.gui.variants.Variant`: its
rules, its engine, its clock rules and its reports; no other module names a game. Only the transport
imports Starlette and uvicorn, when the server starts.

>>> from camelpy.gui.play import Game, GameSettings
>>> game = Game(GameSettings(human="both"))
>>> game.push("f2f3", now=0); game.push("e7e5", now=0); game.push("g2g4", now=0); game.push("d8h4", now=0)
>>> game.result, game.reason
('0-1', 'Black wins: checkmate')
"""

"""What a running match or tournament publishes for watchers: ``events.jsonl`` in its output folder, one
JSON object per line, appended and flushed as things happen. The match never waits on a reader (it
only appends to a file) and a reader never waits on the match (it reads what is there): ``camelpy gui``
tails the file to show the games live (:mod:`camelpy.gui.watch`).

Every event has ``type`` and ``t`` (Unix time, seconds). The types, in the order a run writes them:

- ``run``: a run (or a resumed run) begins: ``kind`` (``match`` or ``tournament``), ``event`` (the PGN
  event), ``engines`` (names), ``games`` (games in the schedule), ``sprt`` (its settings or ``null``),
  ``version`` (:data:`EVENTS_VERSION`).
- ``game``: a game begins: ``id`` (its PGN round, unique in the run), ``white``, ``black``, ``fen``
  (the opening's root), ``book`` (the opening's moves, UCI), ``clock`` (``{"white": s, "black": s}``
  or ``null`` without a clock); a game other than chess adds ``variant`` (``leiserchess``) and its
  ``rules`` (2016 or 2018), and its moves are in its own notation.
- ``move``: a move of a game: ``id``, ``uci``, ``score`` (the mover's, cutechess style, or ``null``),
  ``cp`` (the mover's score in centipawns, mates ±100000), ``depth``, ``time`` (seconds), ``clock``.
- ``result``: a game ends: ``id``, ``white``, ``black``, ``result``, ``termination``, ``reason``,
  ``plies`` (moves played after the book).
- ``status`` (a match, after each game, and a chess match at its start): ``games``, ``wins``,
  ``draws``, ``losses``, ``pentanomial``, ``elo`` (``{"elo", "lower", "upper"}`` or ``null``), ``llr``,
  ``bounds``, ``decision``, ``line`` (the live status line).
- ``standings`` (a tournament, after each game and at its start): ``rows``, ``[name, points, games]``
  best first.
- ``end``: the run stops: ``reason`` (``finished``, ``stopped`` by the SPRT, or ``interrupted``).

A game played on a Ray cluster, or a MiniChess game, publishes only its ``result``.

>>> import json, pathlib, tempfile
>>> folder = tempfile.mkdtemp()
>>> log = EventLog(folder)
>>> log.emit("end", reason="finished")
>>> json.loads(pathlib.Path(folder, "events.jsonl").read_text())["reason"]
'finished'
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from camelpy._args import path_arg

__all__ = ["EVENTS_FILE", "EVENTS_VERSION", "EventLog", "Observer"]

EVENTS_FILE = "events.jsonl"
"""The file name in a run's output folder."""

EVENTS_VERSION = 1
"""The format version written in each ``run`` event."""

Observer = Callable[[str, dict[str, Any]], None]
"""What the referee and the runner call with an event's type and fields."""


class EventLog:
    """Appends events to ``events.jsonl`` in *folder* (created if missing). A write that fails (a full
    disk) is reported once on stderr and the log falls silent: watching must never stop a match.

    :raises: :exc:`TypeError` for a *folder* that is not a path, :exc:`ValueError` for an empty one.
    """

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(path_arg(folder, "folder")) / EVENTS_FILE
        self._broken = False
        self._lock = threading.Lock()  # games on threads (a Leiserchess match) write whole lines

    def emit(self, kind: str, /, **fields: Any) -> None:
        """Appends one event of type *kind* with *fields* (JSON data)."""
        self.write(kind, fields)

    def begin(
        self, kind: str, event: str, engines: list[str], games: int, sprt: dict[str, Any] | None = None
    ) -> None:
        """The ``run`` event: a run of *kind* (``match`` or ``tournament``) called *event* between
        *engines*, *games* games in its schedule, with its *sprt* settings."""
        self.emit(
            "run", kind=kind, event=event, engines=engines, games=games, sprt=sprt, version=EVENTS_VERSION
        )

    def write(self, kind: str, fields: dict[str, Any]) -> None:
        """Appends one event (the :data:`Observer` signature)."""
        if self._broken:
            return
        line = json.dumps({"type": kind, "t": round(time.time(), 3), **fields}, allow_nan=False)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock, self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
        except OSError as err:
            self._broken = True
            print(
                f"warning: cannot write {self.path} ({err.strerror or err}); watchers see no more events",
                file=sys.stderr,
            )

"""Following a match or tournament folder as it grows: its ``events.jsonl``
(:mod:`camelpy.tools.events`), read from where the last read stopped, folded into what the page shows —
the games being played (board, clocks, each move's score and depth), the finished ones, the running
score with Elo ± error and LLR, and the Elo estimate after each game for the plot. A finished game is
replayed from the folder's ``games.jsonl``.

Reading never blocks the match: the match appends, :meth:`MatchWatch.poll` reads what is complete.
The files are data, not trusted: a line that is not a JSON object (not JSON, not UTF-8, nested deeper
than :data:`MAX_DEPTH`, longer than :data:`MAX_LINE`) is skipped and counted in the snapshot's
``skipped``, and the lines after it are read as usual; a long line is never held in memory whole.

>>> import chess, tempfile
>>> from camelpy.tools.events import EventLog
>>> folder = tempfile.mkdtemp()
>>> log = EventLog(folder)
>>> log.emit("game", id="1.1", white="a", black="b", fen=chess.STARTING_FEN, book=[], clock=None)
>>> log.emit("move", id="1.1", uci="e2e4", score="+0.30", cp=30, depth=9, time=0.1, clock=None)
>>> watch = MatchWatch(folder)
>>> [event["type"] for event in watch.poll()]
['game', 'move']
>>> watch.snapshot()["running"][0]["sans"]
['e4']
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from camelpy._args import path_arg
from camelpy._quote import quote
from camelpy.gui.boards import board_view
from camelpy.gui.bounded import parse_json
from camelpy.gui.variants import CHESS, Variant, game_variant, log_variant
from camelpy.tools.events import EVENTS_FILE
from camelpy.tools.openings import Opening
from camelpy.tools.referee import GameRecord, result_event

__all__ = ["MAX_DEPTH", "MAX_FINISHED", "MAX_LINE", "MatchWatch", "replay"]

MAX_FINISHED = 10_000
"""Finished games a watch lists (the most recent); a longer run's older games stay in its files."""

MAX_READ = 4 << 20
"""Bytes read from the events file at one poll, so that opening a long run's folder does not stall
the server; the rest comes at the following polls."""

MAX_LINE = 1 << 20
"""Bytes in one line of ``events.jsonl`` or ``games.jsonl``: an event is a few hundred bytes and a
1,000-ply game's record about 100 KB; a longer line is skipped without being held whole."""

MAX_DEPTH = 16
"""How deeply a line's JSON may nest: events and game records nest three or four deep; deeper is
skipped before it can exhaust the recursion limit (which stopped the feed and every replay)."""


def _parse_line(raw: bytes) -> dict[str, Any] | None:
    """One line as a JSON object, or ``None`` when it is not one (within the bounds above)."""
    try:
        value = parse_json(raw, max_length=MAX_LINE, max_depth=MAX_DEPTH)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _lines(path: Path) -> Iterator[bytes | None]:
    """The lines of the file at *path* (without their ends), reading at most :data:`MAX_LINE` bytes
    at a time: a longer line comes as ``None`` and is never held whole.

    :raises: :exc:`OSError` when the file cannot be opened.
    """
    with path.open("rb") as f:
        while True:
            line = f.readline(MAX_LINE + 1)
            if not line:
                return
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # the rest of the long line
                    line = f.readline(MAX_LINE)
                yield None
                continue
            yield line.rstrip(b"\r\n")


class MatchWatch:
    """The state of one run folder, brought up to date by :meth:`poll`.

    :raises: :exc:`TypeError` for a *folder* that is not a path.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(path_arg(folder, "folder"))
        self.path = self.folder / EVENTS_FILE
        self.reset()

    def reset(self) -> None:
        """Forgets everything read (the file is read again from its start)."""
        self._offset = 0
        self._partial = b""
        self._discarding = False  # inside a line longer than MAX_LINE: skip to its end
        self.run: dict[str, Any] | None = None
        self.running: dict[str, dict[str, Any]] = {}
        self._boards: dict[str, tuple[Variant, Any]] = {}
        self.finished: list[dict[str, Any]] = []
        self.status: dict[str, Any] | None = None
        self.history: list[list[float]] = []
        self.standings: list[list[Any]] | None = None
        self.ended: str | None = None
        self.skipped = 0

    def check(self) -> None:
        """Raises :exc:`ValueError` quoting the folder when it is not a folder one can watch."""
        if not self.folder.is_dir():
            raise ValueError(
                f"no folder {quote(str(self.folder))}: give the --out folder of a camelpy match or tournament"
            )

    def poll(self) -> list[dict[str, Any]]:
        """Reads the events appended since the last poll, applies them and returns them, each with what
        the page needs added (a ``move`` gets its ``san`` and the game's ``board``). If the file has
        been replaced by a shorter one (a new run in the same folder), the state starts again and the
        first event returned is ``{"type": "reset"}``. A folder without an events file (a run older
        than the file) shows the finished games of its ``games.jsonl``, read once."""
        try:
            size = self.path.stat().st_size
        except OSError:
            if self.run is None and not self.finished:
                return self._finished_run()
            return []
        out: list[dict[str, Any]] = []
        if size < self._offset:
            self.reset()
            out.append({"type": "reset"})
        if size == self._offset:
            return out
        try:
            with self.path.open("rb") as f:
                f.seek(self._offset)
                data = f.read(min(size - self._offset, MAX_READ))
        except OSError:
            return out
        self._offset += len(data)
        data = self._partial + data
        lines = data.split(b"\n")
        rest = lines.pop()  # an unfinished last line waits for the next poll
        if self._discarding:  # the tail of a line too long to keep
            if lines:
                lines.pop(0)
                self._discarding = False
            else:
                rest = b""
        if len(rest) > MAX_LINE:
            self.skipped += 1
            self._discarding = True
            rest = b""
        self._partial = rest
        for raw in lines:
            event = _parse_line(raw)
            if event is None:
                self.skipped += 1
                continue
            applied = self.apply(event)
            if applied is not None:
                out.append(applied)
        return out

    def apply(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Folds one event into the state; returns it as the page gets it, or ``None`` for an event
        that does not fit (an unknown game, an illegal move), which is counted in :attr:`skipped`."""
        try:
            return self._apply(event)
        except (KeyError, TypeError, ValueError, AssertionError):
            self.skipped += 1
            return None

    def _apply(self, event: dict[str, Any]) -> dict[str, Any] | None:
        kind = event.get("type")
        if kind == "run":
            self.run = event
            self.ended = None
            self.running.clear()  # games cut short by an interruption are played again
            self._boards.clear()
        elif kind == "game":
            game_id = str(event["id"])
            variant = game_variant(event.get("variant", "chess"), event.get("rules"))
            if variant is CHESS:
                board: Any = Opening(str(event["fen"]), tuple(event["book"])).board()
            else:
                board = variant.new_board(str(event["fen"]))
                for text in event["book"]:
                    board.push(variant.parse(board, str(text)))
            self._boards[game_id] = (variant, board)
            self.running[game_id] = {
                "id": game_id,
                "variant": variant.name,
                "white": str(event["white"]),
                "black": str(event["black"]),
                "sans": [],
                "scores": [],
                "clock": event.get("clock"),
                "board": _watched(variant, board),
            }
            # The game as it starts: the moves of the same read follow as their own events.
            return {**event, "game": {**self.running[game_id], "sans": [], "scores": []}}
        elif kind == "move":
            game_id = str(event["id"])
            variant, board = self._boards[game_id]
            move = variant.parse(board, str(event["uci"]))
            san = variant.san(board, move)
            board.push(move)
            game = self.running[game_id]
            game["sans"].append(san)
            game["scores"].append({"score": event.get("score"), "depth": event.get("depth")})
            game["clock"] = event.get("clock")
            game["board"] = _watched(variant, board)
            return {**event, "san": san, "board": game["board"]}
        elif kind == "result":
            game_id = str(event["id"])
            self.running.pop(game_id, None)
            self._boards.pop(game_id, None)
            self.finished.append(event)
            del self.finished[:-MAX_FINISHED]
        elif kind == "status":
            self.status = event
            elo = event.get("elo")
            if elo and event.get("games"):
                point = [event["games"], elo["elo"], elo["lower"], elo["upper"]]
                if all(isinstance(x, (int, float)) for x in point):
                    if self.history and self.history[-1][0] >= point[0]:
                        self.history = [p for p in self.history if p[0] < point[0]]
                    self.history.append(point)
        elif kind == "standings":
            self.standings = event["rows"]
        elif kind == "end":
            self.ended = str(event.get("reason"))
        else:
            self.skipped += 1
            return None
        return event

    def _finished_run(self) -> list[dict[str, Any]]:
        """The ``run``, ``result`` and ``end`` events of a run that wrote no events file, made from its
        ``games.jsonl``."""
        records = []
        try:
            lines = _lines(self.folder / "games.jsonl")
            first = next(lines, None)
            header = _parse_line(first) if first is not None else None
            if header is None:
                return []
            for line in lines:
                record = _record(line)
                if record is None:
                    self.skipped += 1
                else:
                    records.append(record)
        except OSError:
            return []
        names = sorted({name for r in records for name in (r.white, r.black)})
        run = {
            "type": "run",
            "kind": "match",
            "event": str(header.get("event", "")),
            "engines": names,
            "games": len(records),
            "sprt": None,
            "version": 0,
        }
        events = [
            run,
            *({"type": "result", **result_event(r)} for r in records),
            {"type": "end", "reason": "finished"},
        ]
        return [e for e in (self.apply(event) for event in events) if e is not None]

    def snapshot(self) -> dict[str, Any]:
        """Everything read so far, for a page that starts watching."""
        return {
            "folder": str(self.folder),
            "run": self.run,
            "running": sorted(self.running.values(), key=lambda game: _round_key(game["id"])),
            "finished": self.finished,
            "status": self.status,
            "history": self.history,
            "standings": self.standings,
            "ended": self.ended,
            "skipped": self.skipped,
        }


def _watched(variant: Variant, board: Any) -> dict[str, Any]:
    """*board* as a watcher sees it: no moves to make."""
    if variant is CHESS:
        return board_view(board, playable=False)
    return {**variant.view(board), "legal": {}}


def _tags(record: GameRecord) -> dict[str, str]:
    """A game record's tags for its game's own record (:meth:`Variant.record`)."""
    tags = {"Event": "camelpy match", "Round": record.round, "White": record.white, "Black": record.black}
    return {**tags, "Result": record.result, "Termination": record.termination}


def _round_key(label: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in label.split("."))
    except ValueError:
        return (0,)


def _record(line: bytes | None, variant: Variant = CHESS) -> GameRecord | None:
    """A line of *variant*'s ``games.jsonl`` as a game record, or ``None`` when it is not one."""
    data = _parse_line(line) if line is not None else None
    return None if data is None else variant.log_record(data)


def replay(folder: str | Path, game_id: str) -> dict[str, Any]:
    """A finished game of the run in *folder* (by its round, the event's ``id``) from its
    ``games.jsonl``: the players, the result, and each position with the move's SAN, score and depth.
    Lines that are not game records are passed over (see :data:`MAX_LINE`, :data:`MAX_DEPTH`).

    :raises: :exc:`ValueError` quoting the folder or the game when it is not there.
    """
    path = Path(path_arg(folder, "folder")) / "games.jsonl"
    try:
        lines = _lines(path)
        first = next(lines, None)  # the header: which game the log holds
        header = _parse_line(first) if first is not None else None
        variant = log_variant(header) if header is not None else CHESS
        records = (_record(line, variant) for line in lines)
        record = next((r for r in records if r is not None and r.round == game_id), None)
    except OSError as err:
        raise ValueError(f"cannot read {quote(str(path))}: {err.strerror or err}") from None
    if record is not None:
        if variant is CHESS:
            board: Any = record.opening.board()
        else:
            board = variant.new_board(record.opening.fen)
            for text in record.opening.moves:
                board.push(variant.parse(board, text))
        positions = [_watched(variant, board)]
        sans, scores = [], []
        for played in record.moves:
            try:
                move = variant.parse(board, played.uci)
            except ValueError:  # the illegal move that lost: the game ends before it
                break
            sans.append(variant.san(board, move))
            scores.append({"score": played.score, "depth": played.depth})
            board.push(move)
            positions.append(_watched(variant, board))
        return {
            "id": record.round,
            "variant": variant.name,
            "white": record.white,
            "black": record.black,
            "result": record.result,
            "reason": record.reason,
            "sans": sans,
            "scores": scores,
            "positions": positions,
            "pgn": record.to_pgn() if variant is CHESS else variant.record(board, _tags(record), []),
        }
    raise ValueError(f"no game {quote(game_id)} in {quote(str(path))}")

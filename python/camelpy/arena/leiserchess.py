"""``camelpy leiserchess match``: games between two engines that speak the course's UCI-like Leiserchess
protocol (``camelpy leiserchess`` or a course player), refereed by camelpy's own rules, in pairs from
the same opening with colours swapped, with the statistics of ``camelpy match``: score, Elo ± 95 %,
normalized Elo, the pentanomial, an optional SPRT, time forfeits.

The referee sends ``position startpos moves …`` and ``go …`` (``time T inc I`` in milliseconds from
the mover's clock, or ``depth``/``nodes``/``movetime`` from the engine's limits) and plays the
``bestmove``. It ends a game when a laser hits a king (that side loses), at the third repetition or
(2018) after 50 moves each without a zap (draws), after ``--max-plies`` plies (a draw by adjudication),
and when an engine answers with a move the rules do not allow (Ko included) or with none, overruns its
clock, or dies (it loses). Openings are the start position plus ``--random-plies`` random moves, the
same for both games of a pair (seeded: pair *i* of a run seeded *s* always gets the same ones).

Results are saved as they come: ``games.jsonl`` (a header line with the settings, then one line a
game) and ``games.txt`` (each game in the course's move notation with tags, PGN-like). Run the same
command again and the match resumes where it stopped; Ctrl-C loses at most the games being played.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import select
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from camelpy._args import int_arg, path_arg, read_text
from camelpy.arena import game as game_loop
from camelpy.arena import stats
from camelpy.arena.engines import EngineConfig, distinct_names, parse_engine
from camelpy.arena.events import EventLog, Observer
from camelpy.arena.game import Answer, Rules
from camelpy.arena.openings import MAX_PAIRS, Opening
from camelpy.arena.referee import GameRecord, MoveRecord, result_event, summarize
from camelpy.arena.runner import run_games, stop_on_terminate
from camelpy.arena.timeuse import TimeUse, summary_lines, time_use
from camelpy.leiserchess import RULES, STARTING_FEN, Board

__all__ = [
    "LeiserPlayer",
    "add_arguments",
    "game_text",
    "log_record",
    "main",
    "opening_for",
    "play_game",
    "run_match",
    "run_pairs",
    "summary_text",
]

MAX_LOG_BYTES = 1 << 30
"""Largest ``games.jsonl`` resumed (1 GiB, far beyond a million games): the log is read whole."""
JSONL_VERSION = 1
"""Format version in the header line of ``games.jsonl``."""
STARTUP_SECONDS = 20.0
"""How long an engine may take to answer ``uciok`` and ``readyok`` at start-up."""
SLACK_SECONDS = 5.0
"""How long the referee waits for a ``bestmove`` with no limit of its own (not reached: every engine
has a limit)."""
UNTIMED_SECONDS = 3600.0
"""How long the referee waits for the ``bestmove`` of a depth- or node-limited search without a clock."""
DEFAULT_MAX_PLIES = 400
"""Plies after which a game is adjudicated a draw (the course's games rarely last 200)."""
MAX_MAX_PLIES = 10**6
"""The longest game ``--max-plies`` may ask for."""
DEFAULT_RANDOM_PLIES = 2
"""Random plies opening each pair: enough for varied games, few enough to keep them balanced."""
MAX_RANDOM_PLIES = 40
"""The most random opening plies a match or tournament accepts (far past any balanced opening)."""


class LeiserPlayer:
    """One running protocol engine: lines in, lines out with deadlines, killed when done; a
    :class:`camelpy.arena.game.Player` that keeps its clock (the engine's ``tc=``) from move to move."""

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.clock = 0.0
        """Seconds left on its clock in the game being played (with a ``tc=``)."""

    @property
    def name(self) -> str:
        """The engine's name."""
        return self.config.name

    def new_game(self) -> None:
        """``ucinewgame``, then ``isready`` (:exc:`ValueError` if it does not answer); a full clock."""
        self.send("ucinewgame")
        self.ready()
        self.clock = self.config.tc.base if self.config.tc is not None else 0.0

    def play(self, board: Board, moves: Sequence[str]) -> Answer:
        """The engine's ``bestmove`` for the game *moves*, under its limits and clock: no answer in time
        is a loss on ``time`` (or a ``crash`` when it died), and so is a clock overrun."""
        go, allowed = _go(self.config, self.clock)
        began = time.monotonic()
        answer = self.best_move(list(moves), go, began + allowed)
        spent = time.monotonic() - began
        if answer is None:
            alive = self.process is not None and self.process.poll() is None
            return Answer(None, spent, ("time" if alive else "crash", ""))
        if self.config.tc is not None:
            self.clock -= spent
            if self.clock < -self.config.timemargin_ms / 1000:
                return Answer(None, spent, ("time", ""))
            self.clock += self.config.tc.inc
        return Answer(answer, spent)

    def start(self) -> None:
        """Starts it and waits for ``uciok``, sets its options and waits for ``readyok``.

        :raises: :exc:`ValueError` naming the engine if it cannot start or does not answer.
        """
        try:
            self.process = subprocess.Popen(
                list(self.config.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as err:
            raise ValueError(f"cannot start engine {self.config.name!r}: {err}") from None
        self._buffer = b""
        self.send("uci")
        if not self._wait_for("uciok", time.monotonic() + STARTUP_SECONDS):
            self.close()
            raise ValueError(f"engine {self.config.name!r} did not answer 'uci' with 'uciok'")
        for name, value in self.config.options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def ready(self) -> None:
        """``isready`` → ``readyok``, or :exc:`ValueError`."""
        self.send("isready")
        if not self._wait_for("readyok", time.monotonic() + STARTUP_SECONDS):
            raise ValueError(f"engine {self.config.name!r} did not answer 'isready'")

    def send(self, line: str) -> None:
        """Writes one line (a dead engine is noticed when its answer does not come)."""
        if self.process is None or self.process.stdin is None:
            return
        with contextlib.suppress(OSError):
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()

    def read_line(self, deadline: float) -> str | None:
        """The next line before *deadline* (``time.monotonic``), or ``None`` (time up, or it died)."""
        while b"\n" not in self._buffer:
            if self.process is None or self.process.stdout is None:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace").strip()

    def _wait_for(self, word: str, deadline: float) -> bool:
        while True:
            line = self.read_line(deadline)
            if line is None:
                return False
            if line == word:
                return True

    def best_move(self, moves: list[str], go: str, deadline: float) -> str | None:
        """Sends the game and *go*; the ``bestmove`` before *deadline*, or ``None``."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        while True:
            line = self.read_line(deadline)
            if line is None:
                return None
            words = line.split()
            if words and words[0] == "bestmove":
                return words[1] if len(words) > 1 else ""

    def close(self) -> None:
        """Asks it to quit, then kills it (if it still runs after a second)."""
        if self.process is None:
            return
        self.send("quit")
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self.process = None

    kill = close
    """The old name of :meth:`close`."""


def game_text(record: GameRecord, rules: int, event: str = "camelpy leiserchess match") -> str:
    """A game in the course's notation with tags (PGN-like): a line of ``games.txt``."""
    tags = [
        ("Event", event),
        ("Round", f"{record.pair + 1}.{record.game + 1}"),
        ("Tangerine", record.white),
        ("Lavender", record.black),
        ("Rules", str(rules)),
        ("FEN", STARTING_FEN),
        ("Result", record.result),
        ("Termination", record.termination),
    ]
    opening = record.opening.moves
    words = []
    for i, move in enumerate(opening + tuple(m.uci for m in record.moves)):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(move + ("" if i != len(opening) - 1 else " {book}"))
    head = "\n".join(f'[{k} "{v}"]' for k, v in tags)
    return f"{head}\n\n{' '.join(words + [record.result])}\n"


def _log_line(record: GameRecord) -> dict[str, Any]:
    """A game as a line of ``games.jsonl`` (the first player is Tangerine, the second Lavender)."""
    return {
        "pair": record.pair,
        "game": record.game,
        "tangerine": record.white,
        "lavender": record.black,
        "opening": list(record.opening.moves),
        "moves": [m.uci for m in record.moves],
        "result": record.result,
        "termination": record.termination,
        "times": [m.time for m in record.moves],
        "limits": [record.white_limits, record.black_limits],
    }


def _record(
    pair: int,
    game: int,
    names: tuple[str, str],
    opening: Sequence[str],
    moves: Sequence[str],
    result: str,
    termination: str,
    times: Sequence[float] = (),
    limits: Sequence[str] = ("", ""),
) -> GameRecord:
    """The record of a game: Tangerine first, its random *opening* as the book; *times* are the moves'
    seconds (none: a log written before they were kept), *limits* the two engines' (``tc=10+0.1``)."""
    if times and len(times) != len(moves) or len(limits) != 2:
        raise ValueError("a game's times and limits must match its moves and its two engines")
    seconds = [float(t) for t in times] or [0.0] * len(moves)
    if not all(isinstance(text, str) for text in limits):
        raise TypeError("limits must be strings")
    return GameRecord(
        names[0],
        names[1],
        Opening(STARTING_FEN, tuple(opening)),
        result,
        termination,
        "",
        tuple(MoveRecord(move, time=t) for move, t in zip(moves, seconds, strict=True)),
        round=f"{pair + 1}.{game + 1}",
        pair=pair,
        game=game,
        white_limits=limits[0],
        black_limits=limits[1],
    )


def opening_for(seed: int, pair: int, plies: int, rules: int) -> tuple[str, ...]:
    """The random opening of *pair*: *plies* moves that neither end the game nor break Ko (the same
    for a seed and pair every time).

    >>> opening = opening_for(0, 3, 2, 2016)
    >>> len(opening), opening == opening_for(0, 3, 2, 2016)
    (2, True)
    """
    rng = random.Random(f"{seed}:{pair}")
    for _ in range(100):
        board = Board(rules=rules)
        moves: list[str] = []
        while len(moves) < plies:
            choices = []
            for move in board.legal_moves:
                trial = board.copy()
                trial.push(move)
                if not trial.is_game_over():
                    choices.append(str(move))
            if not choices:
                break
            chosen = rng.choice(sorted(choices))
            board.push(chosen)
            moves.append(chosen)
        if len(moves) == plies:
            return tuple(moves)
    raise ValueError(f"no opening of {plies} plies found for pair {pair}")


def _go(config: EngineConfig, clock: float) -> tuple[str, float]:
    """The ``go`` command for *config* with *clock* seconds left on its clock (if it has one), and the
    seconds it may take."""
    parts = ["go"]
    allowed = SLACK_SECONDS
    if config.tc is not None:
        parts.append(f"time {max(int(clock * 1000), 1)} inc {int(config.tc.inc * 1000)}")
        allowed = clock + config.timemargin_ms / 1000
    elif config.st is not None:
        parts.append(f"movetime {int(config.st * 1000)}")
        allowed = config.st + config.timemargin_ms / 1000
    elif config.depth is not None or config.nodes is not None:
        allowed = UNTIMED_SECONDS
    if config.depth is not None:
        parts.append(f"depth {config.depth}")
    if config.nodes is not None:
        parts.append(f"nodes {config.nodes}")
    return " ".join(parts), allowed


def play_game(
    players: tuple[LeiserPlayer, LeiserPlayer],
    pair: int,
    game: int,
    opening: tuple[str, ...],
    rules: int,
    max_plies: int,
    observer: Observer | None = None,
) -> GameRecord:
    """Plays one game, ``players[0]`` moving first (Tangerine), from *opening*
    (:func:`camelpy.arena.game.play_game` under Leiserchess's referee: a draw after *max_plies*, the
    illegal move that lost recorded). *observer* gets the game's ``game`` event and each ``move``
    (:mod:`camelpy.arena.events`; a protocol engine reports no score or depth)."""
    policy = Rules[Board](keep_illegal=True, max_plies=max_plies)
    game_id = f"{pair + 1}.{game + 1}"
    on_move = None
    if observer is not None:
        observer(
            "game",
            {
                "id": game_id,
                "white": players[0].name,
                "black": players[1].name,
                "fen": STARTING_FEN,
                "book": list(opening),
                "clock": None,
                "variant": "leiserchess",
                "rules": rules,
            },
        )

        def on_move(board: Board, answer: Answer) -> None:
            fields = {"id": game_id, "uci": answer.move, "score": None, "cp": None, "depth": None}
            observer("move", {**fields, "time": round(answer.seconds, 3), "clock": None})

    limits = (players[0].config.describe(), players[1].config.describe())
    return game_loop.play_game(
        players,
        Board(rules=rules),
        policy,
        opening=opening,
        pair=pair,
        game=game,
        on_move=on_move,
        limits=limits,
    )


def _settings(engines: tuple[EngineConfig, ...], args: dict[str, Any]) -> dict[str, Any]:
    return {"engines": [e.to_json() for e in engines], **args}


_LOG_FIELDS = {"pair", "game", "tangerine", "lavender", "opening", "moves", "result", "termination"}
"""The fields of a game's line in ``games.jsonl``."""
_LOG_TIMING = {"times", "limits"}
"""The fields a line has since the match reports time use (each move's seconds, the engines' limits);
older logs lack them."""


def _read_log(path: Path, text: str, settings: dict[str, Any]) -> list[GameRecord]:
    """The games of the log *path* whose *text* is given (``""``: none yet)."""
    lines = text.splitlines()
    if not text.strip():
        return []
    header = json.loads(lines[0])
    if header.get("version") != JSONL_VERSION or header.get("settings") != settings:
        raise ValueError(
            f"{str(path)!r} holds another match (other engines or settings): use another --out, or the"
            " same command as before"
        )
    games = []
    for line in lines[1:]:
        with contextlib.suppress(ValueError):
            record = log_record(json.loads(line))
            if record is not None:
                games.append(record)
    return games


def log_record(data: object) -> GameRecord | None:
    """A game's line of ``games.jsonl`` (read as JSON) as its record; ``None`` when it is not one.

    >>> line = {"pair": 0, "game": 1, "tangerine": "a", "lavender": "b", "opening": ["f4f5"],
    ...         "moves": ["a6a5"], "result": "*", "termination": "max_plies"}
    >>> log_record(line).round, log_record({"pair": 0}) is None
    ('1.2', True)
    """
    if not isinstance(data, dict) or not _LOG_FIELDS <= set(data) <= _LOG_FIELDS | _LOG_TIMING:
        return None
    try:
        names = (data["tangerine"], data["lavender"])
        fields = (data["opening"], data["moves"], data["result"], data["termination"])
        timing = (data.get("times", ()), data.get("limits", ("", "")))
        return _record(data["pair"], data["game"], names, *fields, *timing)
    except (ValueError, TypeError, KeyError):
        return None


def run_pairs(
    engines: tuple[EngineConfig, ...],
    pairings: list[tuple[int, int]],
    *,
    out: str | os.PathLike[str] | None,
    settings: dict[str, Any],
    rules: int = 2016,
    random_plies: int = DEFAULT_RANDOM_PLIES,
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    concurrency: int = 1,
    decided: Any = None,
    report: Any = None,
    event: str = "camelpy leiserchess match",
    observer: Observer | None = None,
) -> list[GameRecord]:
    """Plays pair *p* between ``engines[pairings[p][0]]`` (Tangerine in its first game) and
    ``engines[pairings[p][1]]`` for every *p*, each pair from its random opening, resuming the log in
    *out* (whose header must hold *settings*; ``None``: no files), and returns every game (earlier
    runs' too). *decided*, given the games so far, may stop the run (an SPRT); *report* gets each game
    and the games so far; *event* names the run in ``games.txt``; *observer* gets each game's ``game``,
    ``move`` and ``result`` events (:mod:`camelpy.arena.events`), from the games' threads."""
    folder = None if out is None else Path(path_arg(out, "out"))
    done: list[GameRecord] = []
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        text, done = _logged_games(folder, settings)
        if not text.strip():
            header = json.dumps({"version": JSONL_VERSION, "settings": settings})
            (folder / "games.jsonl").write_text(header + "\n", encoding="utf-8")
    finished = {(g.pair, g.game) for g in done}
    games = list(done)

    def is_decided() -> bool:
        return decided is not None and bool(decided(games))

    def play_pair(pair: int, stop: threading.Event) -> Iterator[GameRecord]:
        opening = opening_for(seed, pair, random_plies, rules)
        first, second = pairings[pair]
        with game_loop.seated((LeiserPlayer(engines[first]), LeiserPlayer(engines[second]))) as players:
            for p in players:
                p.start()
            for game in (0, 1):
                if (pair, game) in finished or stop.is_set():
                    continue
                order = players if game == 0 else (players[1], players[0])
                yield play_game(order, pair, game, opening, rules, max_plies, observer)

    def on_game(result: GameRecord) -> bool:
        games.append(result)
        if folder is not None:
            with (folder / "games.jsonl").open("a", encoding="utf-8") as f:
                f.write(json.dumps(_log_line(result)) + "\n")
            with (folder / "games.txt").open("a", encoding="utf-8") as f:
                f.write(game_text(result, rules, event) + "\n")
        if observer is not None:
            observer("result", result_event(result))
        if report is not None:
            report(result, games)
        return is_decided()

    todo = [p for p in range(len(pairings)) if (p, 0) not in finished or (p, 1) not in finished]
    if not is_decided():
        run_games(todo, play_pair, on_game, concurrency=max(1, concurrency))
    return games


def _logged_games(folder: Path, settings: dict[str, Any]) -> tuple[str, list[GameRecord]]:
    """The text of *folder*'s ``games.jsonl`` (empty when there is none) and its games, checked against
    *settings*."""
    log = folder / "games.jsonl"
    text = read_text(log, "out", "games log", limit=MAX_LOG_BYTES) if log.exists() else ""
    return text, _read_log(log, text, settings)


def run_match(
    engines: tuple[EngineConfig, EngineConfig],
    *,
    pairs: int,
    out: str | os.PathLike[str],
    rules: int = 2016,
    random_plies: int = DEFAULT_RANDOM_PLIES,
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    concurrency: int = 1,
    sprt: stats.SPRT | None = None,
    report: Any = print,
) -> dict[str, Any]:
    """Plays *pairs* game pairs between *engines* (resuming the log in *out*) and returns the summary
    (also written to ``summary.json``). With *sprt* the match stops once the test decides. Interrupted
    (Ctrl-C; ``SIGTERM`` too under :func:`camelpy.arena.runner.stop_on_terminate`, as the command line
    runs it), it writes the summary of every game in the log and raises :exc:`KeyboardInterrupt`."""
    settings = _settings(
        engines, {"rules": rules, "random_plies": random_plies, "seed": seed, "max_plies": max_plies}
    )

    def decided(games: list[GameRecord]) -> bool:
        return sprt is not None and sprt.status(_summary(engines, games, rules)["pentanomial"]) is not None

    folder = Path(path_arg(out, "out"))

    def line(result: GameRecord, games: list[GameRecord]) -> None:
        # The running score for watchers, as a chess match publishes it after each game.
        events.write("status", summarize(engines[0].name, engines[1].name, games, sprt).status_event())
        report(
            f"game {len(games)}: {result.white} - {result.black} {result.result}"
            f" ({result.termination}); {_summary(engines, games, rules)['status']}"
        )

    events = EventLog(folder)
    events.begin("match", "camelpy leiserchess match", [e.name for e in engines], 2 * pairs, _sprt_json(sprt))
    ended = "interrupted"
    try:
        games = run_pairs(
            engines,
            [(0, 1)] * pairs,
            out=out,
            settings=settings,
            rules=rules,
            random_plies=random_plies,
            seed=seed,
            max_plies=max_plies,
            concurrency=concurrency,
            decided=decided,
            report=line,
            observer=events.write,
        )
        ended = "stopped" if decided(games) else "finished"
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the summary of every game logged, then stop
        _write_summary(folder, engines, _logged_games(folder, settings)[1], rules, sprt)
        raise
    finally:
        events.emit("end", reason=ended)
    return _write_summary(folder, engines, games, rules, sprt)


def _write_summary(
    folder: Path,
    engines: tuple[EngineConfig, EngineConfig],
    games: list[GameRecord],
    rules: int,
    sprt: stats.SPRT | None,
) -> dict[str, Any]:
    """The summary of *games* (their time use and *sprt*'s state included), written to *folder*'s
    ``summary.json``."""
    summary = _summary(engines, games, rules)
    uses = [time_use(games, engine.name) for engine in engines]
    if any(use.games for use in uses):
        summary["time_use"] = [use.to_json() for use in uses if use.games]
    if sprt is not None:
        summary["sprt"] = {
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "llr": sprt.llr(summary["pentanomial"]) if games else 0.0,
            "decision": sprt.status(summary["pentanomial"]) if games else None,
        }
    (folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def _sprt_json(sprt: stats.SPRT | None) -> dict[str, Any] | None:
    return None if sprt is None else dataclasses.asdict(sprt)


def _summary(
    engines: tuple[EngineConfig, EngineConfig], games: list[GameRecord], rules: int
) -> dict[str, Any]:
    """The match's ``summary.json`` (before its ``sprt``): the one count of a match's games
    (:func:`camelpy.arena.referee.summarize`) in Leiserchess's layout."""
    result = summarize(engines[0].name, engines[1].name, games)
    summary: dict[str, Any] = {
        "engine1": result.engine1,
        "engine2": result.engine2,
        "rules": rules,
        "games": result.games,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "pentanomial": list(result.pentanomial),
        "terminations": dict(result.terminations),
        "time_forfeits": sum(g.termination == "time" for g in games),
    }
    status = f"+{result.wins}={result.draws}-{result.losses}"
    results = result.pentanomial if any(result.pentanomial) else result.trinomial
    if result.games and len(set(results)) > 1:
        elo, nelo = result.elo, result.nelo
        summary["elo"] = {"elo": elo.elo, "error": elo.error}
        summary["nelo"] = {"elo": nelo.elo, "error": nelo.error}
        status += f" Elo {elo}"
    summary["status"] = status
    return summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``match`` options (under ``camelpy leiserchess match``)."""
    parser.add_argument("--engine", nargs="+", action="append", required=True, metavar="WORD",
                        help="an engine: its command, then key=value words (name=, tc=, st=, depth=, nodes=,"
                        " option.Name=V); give two")  # fmt: skip
    parser.add_argument("--each", nargs="+", default=[], metavar="WORD", help="words for both engines")
    parser.add_argument("--rounds", type=int, default=10, metavar="N", help="game pairs (default 10)")
    parser.add_argument("--rules", type=int, default=2016, choices=RULES, help="the rule set (default 2016)")
    parser.add_argument("--random-plies", type=int, default=DEFAULT_RANDOM_PLIES, metavar="N",
                        help=f"random opening plies (default {DEFAULT_RANDOM_PLIES})")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the openings' seed (default 0)")
    parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N", help="draw after N")
    parser.add_argument("--concurrency", type=int, default=1, metavar="N", help="pairs at once (default 1)")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"), help="stop when decided")
    parser.add_argument("--out", required=True, metavar="DIR", help="games.jsonl, games.txt, summary.json")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy leiserchess match`` (what ``camelpy match --game leiserchess`` runs, with this
    command's defaults and its ``--sprt ELO0 ELO1``)."""
    if len(args.engine) != 2:
        raise ValueError(f"give two --engine, got {len(args.engine)}")
    with stop_on_terminate():
        return play_and_print(
            (parse_engine(args.engine[0], args.each), parse_engine(args.engine[1], args.each)),
            rounds=args.rounds,
            out=args.out,
            rules=args.rules,
            random_plies=args.random_plies,
            seed=args.seed,
            max_plies=args.max_plies,
            concurrency=args.concurrency,
            sprt=stats.SPRT(args.sprt[0], args.sprt[1]) if args.sprt else None,
        )


def play_and_print(
    engines: tuple[EngineConfig, EngineConfig],
    *,
    rounds: int,
    out: str,
    rules: int,
    random_plies: int,
    seed: int,
    max_plies: int,
    concurrency: int,
    sprt: stats.SPRT | None,
    quiet: bool = False,
) -> int:
    """A Leiserchess match from the command line (``camelpy leiserchess match`` and ``camelpy match --game
    leiserchess``): the engines' names made distinct, every number checked and named by its option, the
    match played (:func:`run_match`, each game reported unless *quiet*) and its summary printed; returns
    the exit status.

    :raises: :exc:`ValueError` naming the option of a number out of range.
    """
    summary = run_match(
        distinct_names(*engines),
        pairs=int_arg(rounds, "--rounds", 1, MAX_PAIRS),
        out=out,
        rules=rules,
        random_plies=int_arg(random_plies, "--random-plies", 0, MAX_RANDOM_PLIES),
        seed=int_arg(seed, "--seed", 0, 2**63),
        max_plies=int_arg(max_plies, "--max-plies", 2, MAX_MAX_PLIES),
        concurrency=int_arg(concurrency, "--concurrency", 1, 256),
        sprt=sprt,
        report=(lambda line: None) if quiet else print,
    )
    print(summary_text(summary))
    return 0


def summary_text(summary: dict[str, Any]) -> str:
    """A match's summary (:func:`run_match`) as ``camelpy match`` prints one."""
    lines = [f"Results of {summary['engine1']} vs {summary['engine2']} ({summary['rules']} rules):"]
    if "elo" in summary:
        lines.append(
            f"Elo: {summary['elo']['elo']:+.2f} +/- {summary['elo']['error']:.2f},"
            f" nElo: {summary['nelo']['elo']:+.2f} +/- {summary['nelo']['error']:.2f}"
        )
    lines.append(
        f"Games: {summary['games']}, Wins: {summary['wins']}, Losses: {summary['losses']},"
        f" Draws: {summary['draws']}, time forfeits: {summary['time_forfeits']}"
    )
    lines.append(f"Ptnml(0-2): {summary['pentanomial']}")
    if "sprt" in summary:
        lines.append(f"LLR: {summary['sprt']['llr']:.2f}, decision: {summary['sprt']['decision']}")
    lines.append("Terminations: " + ", ".join(f"{k} {v}" for k, v in summary["terminations"].items()))
    lines += summary_lines(TimeUse.from_json(use) for use in summary.get("time_use", []))
    return "\n".join(lines)

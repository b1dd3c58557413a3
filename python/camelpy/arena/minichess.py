"""The arena's MiniChess side: the course's file-protocol runner and matches between file-protocol
players (``camelpy minichess runner`` and ``camelpy minichess match``, whose command line is
:mod:`camelpy.tools.games.minichess`; camelpy's own player is :mod:`camelpy.protocols.minichess`).

* ``camelpy minichess runner PLAYER1 PLAYER2 [--time-per-move S]``: the course's game runner. PLAYER1
  plays White, PLAYER2 Black; each is any command line (a course player in C++, ``camelpy minichess
  player --random``, a script). For every move the runner starts the player to move in its own working
  directory holding ``state`` (the course's format), waits up to the time limit, kills it (and every
  process it started) when over, and reads the **last complete line** of ``action``: a line ended by a
  newline, or, when the player exited by itself, also a last line without one (it had finished
  writing). A player that writes nothing, garbage or an illegal move loses; one killed for time plays
  the last complete move it wrote (iterative deepening writes each better move). The runner prints
  each move and the board, and the result: king capture, a player's failure, or the material count
  after 50 plies. A player's working directory persists from move to move (its own files stay) and
  ``action`` is removed before each of its moves; its standard output and error go to ``player.log``
  there (``--workdir`` keeps the directories). A player's directory is its own, so nothing there is
  trusted: the runner never opens anything there that could block it or lead elsewhere — ``action``
  and ``player.log`` are looked at with ``lstat`` and opened non-blocking without following a link, and
  ``state`` is written to a new file renamed over the old — and an ``action`` or ``player.log`` that
  is not a regular file (a named pipe, a directory, a symbolic link, a device), or a ``state`` that
  cannot be replaced, is that player's missing move, said plainly (``White has no move: its action is
  not a regular file (a named pipe)``), never a hang or a crash.
* ``camelpy minichess match PLAYER1 PLAYER2 --games N [--time-per-move S] [--out DIR]``: *N* runner
  games between two file-protocol players, PLAYER1 White in the odd-numbered games and Black in the
  even ones; ``{game}`` in a command becomes the game's number (``--seed {game}`` varies a seeded
  baseline from game to game). Each finished game is appended to ``DIR/games.jsonl`` and a match run
  again with the same ``--out`` resumes after the last one; prints each result and the score.

This is POSIX code: a player runs in a new session, so that a time-out can kill its whole process
group.

>>> from camelpy.minichess import Board
>>> last_complete_line(b"4 0 3 0\\n4 1 3", finished=False)
'4 0 3 0'
>>> last_complete_line(b"4 0 3 0\\n4 1 3 1", finished=True)
'4 1 3 1'
>>> from camelpy.arena.openings import Opening
>>> describe(GameRecord("a", "b", Opening(Board().fen()), "1-0", "king_captured", "king captured"))
'1-0 (White wins: king captured)'
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from camelpy._args import (
    brief,
    file_kind,
    int_arg,
    open_regular,
    path_arg,
    read_text,
    real_arg,
    split_command,
)
from camelpy._quote import quote
from camelpy.arena import game as game_loop
from camelpy.arena.events import EventLog
from camelpy.arena.referee import GameRecord, result_event
from camelpy.arena.runner import run_games
from camelpy.errors import InvalidMoveError
from camelpy.games import Outcome
from camelpy.minichess import (
    ACTION_FILE,
    STATE_FILE,
    WHITE,
    Board,
    Move,
    Termination,
)

__all__ = [
    "DEFAULT_TIME_PER_MOVE",
    "Answer",
    "FilePlayer",
    "MatchScore",
    "describe",
    "last_complete_line",
    "play_game",
    "play_match",
]

DEFAULT_TIME_PER_MOVE = 10.0
"""Seconds a player may think per move: the course's limit."""

STATE = STATE_FILE
"""The file the runner writes for the player to move (:data:`camelpy.minichess.STATE_FILE`, which the
player's side reads too)."""
ACTION = ACTION_FILE
"""The file the player writes its moves to (:data:`camelpy.minichess.ACTION_FILE`)."""
ACTION_TAIL = 1 << 16
"""Bytes read from the end of ``action``: a player may write many lines, or a huge file, and only the
last complete line counts (a longer line is not a move anyway)."""
LOG = "player.log"
"""Where a player's standard output and error go, in its working directory."""
MAX_LOG_BYTES = 256 << 20
"""Largest ``games.jsonl`` a match resumes (256 MiB, some 300,000 games): it is read whole."""

_COLOR_NAMES = {True: "White", False: "Black"}


def _outcome_reason(board: Board, outcome: Outcome) -> str:
    return {
        Termination.KING_CAPTURED: "king captured",
        Termination.MATERIAL_COUNT: (
            f"material count {board.material(WHITE)}-{board.material(not WHITE)} after {board.ply} plies"
        ),
        Termination.NO_MOVES: f"{_COLOR_NAMES[board.turn]} has no move",
    }[outcome.termination]


def _illegal_reason(side: str, text: str, malformed: bool) -> str:
    return (
        f"{side} wrote a malformed move {quote(text)}"
        if malformed
        else f"{side} played an illegal move {quote(text)}"
    )


RULES = game_loop.Rules[Board](_outcome_reason, _illegal_reason)
"""The runner's referee: its words for each ending (the board's rules end a game after 50 plies)."""


def describe(result: GameRecord) -> str:
    """One line for a result: ``1-0 (White wins: king captured)``."""
    who = "draw" if result.winner is None else f"{_COLOR_NAMES[result.winner]} wins"
    return f"{result.result} ({who}: {result.reason})"


def last_complete_line(data: bytes, *, finished: bool) -> str | None:
    """The last non-blank complete line of an ``action`` file's bytes, or ``None``. A line is complete
    when a newline ends it, or, if the writer *finished* (exited by itself), when it is the last one."""
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if not finished:
        lines = lines[:-1]  # the part after the last newline may be half written
    for line in reversed(lines):
        if line.strip():
            return line.strip()
    return None


def _command_words(command: str) -> list[str]:
    """*command* split into words, a first word naming a file by a relative path made absolute (the
    player runs in another directory)."""
    words = split_command(command, "player")
    if os.sep in words[0] and not os.path.isabs(words[0]):
        words[0] = os.path.abspath(words[0])
    return words


class FilePlayer:
    """A file-protocol player: a command started once per move in *workdir*, with *seconds* a move; a
    :class:`camelpy.arena.game.Player` named by its command."""

    def __init__(self, command: str, workdir: Path, seconds: float = DEFAULT_TIME_PER_MOVE) -> None:
        self.command = command
        self.words = _command_words(command)
        self.workdir = workdir
        self.seconds = seconds
        workdir.mkdir(parents=True, exist_ok=True)

    @property
    def name(self) -> str:
        """Its command line."""
        return self.command

    def new_game(self) -> None:
        """Nothing: a file-protocol player starts afresh every move."""

    def close(self) -> None:
        """Nothing: each move's process has ended (or been killed) before :meth:`play` returns."""

    def play(self, board: Board, moves: Sequence[str]) -> game_loop.Answer:
        """The player's move on *board* (:meth:`think`); no move, a problem with its files or a time-out
        without a move is its fault, said as the runner says it."""
        line, elapsed, killed, problem = self.think(board, self.seconds)
        name = _COLOR_NAMES[board.turn]
        timing = f"{elapsed:.2f} s" + (", killed at the time limit" if killed else "")
        if problem is not None:
            return game_loop.Answer(None, elapsed, ("no_move", f"{name} has no move: {problem}"))
        if line is None:
            why = "no move" + (" before the time limit" if killed else " in its action file")
            fault = ("time" if killed else "no_move", f"{name} wrote {why} ({timing})")
            return game_loop.Answer(None, elapsed, fault)
        with contextlib.suppress(InvalidMoveError):
            line = str(Move.parse(line))
        return game_loop.Answer(line, elapsed, note=timing)

    def think(self, board: Board, seconds: float) -> Answer:
        """Runs the player on *board* for at most *seconds*; returns the last complete line of its
        ``action`` (``None`` if none), the time it took, whether it was killed for time, and what was
        wrong with its files, if anything (then it is not run, or its move is not read).

        The player's directory is its own, so nothing there is trusted: ``action`` and ``player.log``
        are looked at with :func:`os.lstat` and opened without blocking and without following a
        symbolic link, and anything but a regular file (a named pipe, a directory, a link, a device) is
        the player's fault, never a hang or a crash.

        :raises: :exc:`ValueError` when the command cannot be started.
        """
        action = self.workdir / ACTION
        problem = _clear(action) or _write_state(board, self.workdir / STATE)
        log = None
        if problem is None:
            log, problem = _open_log(self.workdir / LOG)
        if log is None:
            return Answer(None, 0.0, False, problem)
        start = time.monotonic()
        with log:
            try:
                proc = subprocess.Popen(
                    self.words,
                    cwd=self.workdir,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
            except OSError as err:
                raise ValueError(f"cannot start player {quote(self.command)}: {brief(err)}") from None
            try:
                proc.wait(timeout=seconds)
                killed = False
            except subprocess.TimeoutExpired:
                killed = True
            # Its whole group, in either case: nothing it started may write to `action` any more.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        elapsed = time.monotonic() - start
        data, problem = _read_tail(action)
        if data is None:
            return Answer(None, elapsed, killed, problem)
        return Answer(last_complete_line(data, finished=not killed), elapsed, killed)


class Answer(NamedTuple):
    """What :meth:`FilePlayer.think` found after a player's move."""

    line: str | None
    """The last complete line of ``action`` (``None``: none, or a *problem*)."""
    elapsed: float
    """Seconds the player ran."""
    killed: bool
    """Whether it was killed at the time limit."""
    problem: str | None = None
    """What was wrong with its protocol files (``action is a named pipe``), if anything."""


def _clear(action: Path) -> str | None:
    """Removes the last move's ``action`` (a file, a link, a pipe, or an empty directory); says why
    when it cannot be removed."""
    try:
        action.unlink()
    except FileNotFoundError:
        pass
    except OSError:  # a directory (EISDIR, or EPERM on some systems): only an empty one goes
        try:
            action.rmdir()
        except OSError as err:
            return f"its {ACTION} cannot be removed before the move ({err.strerror or brief(err)})"
    return None


def _write_state(board: Board, path: Path) -> str | None:
    """Writes ``state`` (a new file renamed over the old: whatever the player left there is replaced,
    never opened); says why when it cannot be written (the player put a directory there)."""
    try:
        board.write_state(path)
    except OSError as err:
        return f"its {STATE} cannot be written ({err.strerror or brief(err)})"
    return None


def _open_log(path: Path) -> tuple[BinaryIO | None, str | None]:
    """``player.log`` opened for appending, without blocking and without following a link, and checked
    to be a regular file; or why not."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as err:  # ELOOP for a link, ENXIO for a pipe nobody reads, EISDIR
        return None, f"its {LOG} cannot be opened ({_why(path, err)})"
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        return None, f"its {LOG} is not a regular file ({file_kind(mode)})"
    os.set_blocking(fd, True)  # the player's output may wait for the disk, not be dropped
    return os.fdopen(fd, "ab"), None


def _why(path: Path, err: OSError) -> str:
    """An open's failure in words: what the path is when it is not a regular file."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return err.strerror or brief(err)
    return f"it is {file_kind(mode)}" if not stat.S_ISREG(mode) else (err.strerror or brief(err))


def _read_tail(action: Path) -> tuple[bytes, None] | tuple[None, str | None]:
    """The last :data:`ACTION_TAIL` bytes of ``action`` (from a line start); ``(None, None)`` when
    there is none, ``(None, why)`` when it is not a regular file or cannot be read. Nothing here can
    block: the kind is checked with :func:`os.lstat` first, and the open is non-blocking and does not
    follow a link, then checked again with :func:`os.fstat`."""
    try:
        mode = os.lstat(action).st_mode
    except FileNotFoundError:
        return None, None
    except OSError as err:
        return None, f"its {ACTION} cannot be read ({err.strerror or brief(err)})"
    if not stat.S_ISREG(mode):
        return None, f"its {ACTION} is not a regular file ({file_kind(mode)})"
    try:
        with os.fdopen(open_regular(str(action), follow=False), "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - ACTION_TAIL))
            data = f.read(ACTION_TAIL)
    except FileNotFoundError:
        return None, None
    except OSError as err:
        return None, f"its {ACTION} cannot be read ({err.strerror or brief(err)})"
    if size > ACTION_TAIL:  # the tail may start inside a line: drop that part
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    return data, None


def play_game(
    players: Sequence[str],
    time_per_move: float = DEFAULT_TIME_PER_MOVE,
    *,
    start: Board | None = None,
    workdir: str | os.PathLike[str] | None = None,
    out: Callable[[str], None] | None = print,
) -> GameRecord:
    """Plays one game between two file-protocol *players* (command lines, White first) at
    *time_per_move* seconds, from *start* (default: the initial position), printing each move and
    board through *out* (``None``: silent); returns its record (the players named by their commands, the
    moves in the course's notation, each with its time, the final board in :attr:`GameRecord.final`).
    The players' working directories are *workdir*\\ ``/white`` and ``/black`` (kept), or temporary
    ones (removed).

    :raises: :exc:`ValueError` for a bad argument or a player that cannot be started.
    """
    if len(players) != 2:
        raise ValueError(f"expected 2 players, got {len(players)}")
    limit = real_arg(time_per_move, "time_per_move", above=0)
    board = Board() if start is None else start.copy()
    emit = out if out is not None else (lambda _line: None)
    base = (
        Path(path_arg(workdir, "workdir"))
        if workdir is not None
        else Path(tempfile.mkdtemp(prefix="minichess-"))
    )
    try:
        seats = (FilePlayer(players[0], base / "white", limit), FilePlayer(players[1], base / "black", limit))
        emit(str(board))

        def moved(board: Board, answer: game_loop.Answer) -> None:
            emit(f"\nply {board.ply}: {_COLOR_NAMES[not board.turn]} plays {board.peek()} ({answer.note})")
            emit(str(board))

        with game_loop.seated(seats):
            game = game_loop.play_game(seats, board, RULES, on_move=moved)
        emit(f"\nresult: {describe(game)}")
        return game
    finally:
        if workdir is None:
            shutil.rmtree(base, ignore_errors=True)


@dataclasses.dataclass(frozen=True)
class MatchScore:
    """PLAYER1's results in a match: wins, draws, losses, and the points (a draw is half)."""

    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2


def play_match(
    players: Sequence[str],
    games: int,
    time_per_move: float = DEFAULT_TIME_PER_MOVE,
    *,
    start: Board | None = None,
    out: str | os.PathLike[str] | None = None,
    emit: Callable[[str], None] | None = print,
) -> MatchScore:
    """Plays *games* runner games between two file-protocol *players* (PLAYER1 White in games 1, 3, …,
    Black in 2, 4, …; ``{game}`` in a command is replaced by the game's number), each from *start*
    (default: the initial position), and returns
    PLAYER1's score. With *out*, each finished game is a line of ``out/games.jsonl`` and games already
    there are not played again (a match stopped by Ctrl-C resumes where it stopped).

    :raises: :exc:`ValueError` for a bad argument, a player that cannot be started, or an *out* holding
        another match's games.
    """
    if len(players) != 2:
        raise ValueError(f"expected 2 players, got {len(players)}")
    games = int_arg(games, "games", 1, 1_000_000)
    real_arg(time_per_move, "time_per_move", above=0)
    say = emit if emit is not None else (lambda _line: None)
    log: Path | None = None
    events: EventLog | None = None
    done: list[dict[str, Any]] = []
    if out is not None:
        folder = Path(path_arg(out, "out"))
        events = EventLog(folder)
        folder.mkdir(parents=True, exist_ok=True)
        log = folder / "games.jsonl"
        if log.exists():
            text = read_text(log, "out", "games log", limit=MAX_LOG_BYTES)
            for number, line in enumerate(text.splitlines(), 1):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    raise ValueError(f"{quote(str(log))} line {number} is not JSON: {quote(line)}") from None
                if (
                    record.get("players") != list(players)
                    or record.get("time_per_move") != time_per_move
                    or record.get("start") != (start or Board()).fen()
                ):
                    raise ValueError(f"{quote(str(log))} holds another match's games (line {number})")
                done.append(record)
    score = [0, 0, 0]
    start_fen = (start or Board()).fen()

    def tell(game: int, record: dict[str, Any]) -> None:
        points = float(record["player1_points"])
        score[0 if points == 1 else 1 if points == 0.5 else 2] += 1
        colour = "White" if record["player1_white"] else "Black"
        say(f"game {game}: PLAYER1 {colour}, {record['result']} ({record['reason']})")

    def play(game: int, stop: object) -> Iterator[GameRecord]:
        commands = [p.replace("{game}", str(game)) for p in players]
        seats = commands if game % 2 == 1 else commands[::-1]
        result = play_game(seats, time_per_move, start=start, out=None)
        pair, second = divmod(game - 1, 2)
        yield dataclasses.replace(result, round=f"{pair + 1}.{second + 1}", pair=pair, game=second)

    def on_game(result: GameRecord) -> bool:
        game = 2 * result.pair + result.game + 1
        first_white = game % 2 == 1
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result.result]
        record = {
            "game": game,
            "players": list(players),
            "time_per_move": time_per_move,
            "start": start_fen,
            "player1_white": first_white,
            "result": result.result,
            "reason": result.reason,
            "player1_points": points if first_white else 1 - points,
            "moves": [m.uci for m in result.moves],
        }
        if log is not None:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")
        if events is not None:
            events.write("result", result_event(result))
        tell(game, record)
        return False

    for game, record in enumerate(done[:games], 1):
        tell(game, record)
    if events is not None:
        events.begin("match", "camelpy minichess match", list(players), games)
    ended = "interrupted"
    try:
        run_games(range(len(done) + 1, games + 1), play, on_game)
        ended = "finished"
    finally:
        if events is not None:
            events.emit("end", reason=ended)
    final = MatchScore(*score)
    say(f"PLAYER1 {final.points:g}/{games}: +{final.wins} ={final.draws} -{final.losses}")
    return final

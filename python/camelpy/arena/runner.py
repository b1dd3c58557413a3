"""Plays a schedule of games between UCI engines, several at once, with results saved as they come:
one JSON line per game (``games.jsonl``, whose first line records the run's settings) and the PGN
(``games.pgn``, rebuilt from the JSON lines on a resume, so it never holds a half-written game).
Shared by ``camelpy match`` and ``camelpy tournament``. The small games' matches and tournaments run
their jobs (a game pair, a game) through :func:`run_games`, the same schedule without asyncio.

>>> spec = GameSpec(pair=0, game=1, white=1, black=0, opening=Opening())
>>> spec.round_label
'1.2'
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import importlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from camelpy import cluster
from camelpy._args import brief, int_arg, items_arg, path_arg, read_text, real_arg, shown, str_arg
from camelpy._quote import quote
from camelpy.arena.engines import EngineConfig, UciPlayer
from camelpy.arena.events import Observer
from camelpy.arena.openings import Opening
from camelpy.arena.referee import NO_ADJUDICATION, Adjudication, GameRecord, play_game, result_event

__all__ = [
    "GameLog",
    "GameSpec",
    "Progress",
    "play_specs",
    "read_log",
    "run_games",
    "run_schedule",
    "stop_on_terminate",
]

JSONL_VERSION = 1
"""Format version written in the header line of ``games.jsonl``."""

MAX_LOG_BYTES = 1 << 30
"""Largest ``games.jsonl`` resumed (1 GiB, about a million games at 1 KB each): a run's log is read
whole, so a file beyond any real run is refused rather than read."""


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """One scheduled game: engine indices for White and Black, the opening, and its place."""

    pair: int
    """Game pair index (one opening, colours swapped)."""
    game: int
    """0 or 1 within the pair."""
    white: int
    """Index of White's engine."""
    black: int
    """Index of Black's engine."""
    opening: Opening
    """The opening."""
    round_prefix: str = ""
    """Prefix of the PGN round (the tournament round)."""

    def __post_init__(self) -> None:
        int_arg(self.pair, "pair", 0)
        int_arg(self.game, "game", 0, 1)
        int_arg(self.white, "white", 0)
        int_arg(self.black, "black", 0)
        if not isinstance(self.opening, Opening):
            raise TypeError(
                f"opening must be an Opening, got {type(self.opening).__name__} {shown(self.opening)}"
            )
        str_arg(self.round_prefix, "round_prefix")

    @property
    def round_label(self) -> str:
        """PGN round: ``[<round>.]<pair + 1>.<game + 1>``."""
        return f"{self.round_prefix}{self.pair + 1}.{self.game + 1}"

    @property
    def key(self) -> tuple[int, int]:
        """(pair, game): the identity used to skip games already played on a resume."""
        return (self.pair, self.game)


class GameLog:
    """``games.jsonl`` + ``games.pgn`` in *out_dir*; :meth:`open` checks a previous run's settings
    and returns its games (a resume), or starts the files afresh.

    :raises: :exc:`TypeError` for an *out_dir* that is not a path, *settings* that are not a dict of JSON
        data or an *event* that is not a string; :exc:`ValueError` for an empty *out_dir* or settings
        holding NaN or infinity (a resume compares them, and NaN equals nothing).
    """

    def __init__(self, out_dir: str | Path, settings: dict[str, Any], event: str) -> None:
        self.dir = Path(path_arg(out_dir, "out_dir"))
        if not isinstance(settings, dict):
            raise TypeError(f"settings must be a dict, got {type(settings).__name__} {shown(settings)}")
        try:
            json.dumps(settings, allow_nan=False)
        except TypeError as err:
            raise TypeError(f"settings must be JSON data: {brief(err)}") from None
        except ValueError:
            raise ValueError(
                f"settings must be JSON data without NaN or infinity, got {shown(settings)}"
            ) from None
        str_arg(event, "event")
        self.settings = settings
        self.event = event
        self.jsonl = self.dir / "games.jsonl"
        self.pgn = self.dir / "games.pgn"

    def open(self) -> list[GameRecord]:
        """Previous games of the same run (empty for a new run).

        :raises: :exc:`ValueError` when the folder holds a run with other settings, or cannot be made,
            read or written.
        """
        try:
            return self._open()
        except OSError as err:
            reason = err.strerror or brief(err)
            raise ValueError(f"cannot keep the games in {quote(str(self.dir))}: {reason}") from None
        except UnicodeDecodeError as err:
            raise ValueError(f"{quote(str(self.jsonl))} is not UTF-8 text ({brief(err)})") from None

    def _open(self) -> list[GameRecord]:
        self.dir.mkdir(parents=True, exist_ok=True)
        saved = _read_log(self.jsonl)
        if saved is not None:
            header, records = saved
            if header.get("settings") != json.loads(json.dumps(self.settings)):
                raise ValueError(
                    f"{quote(str(self.jsonl))} holds a run with other settings; use another --out folder "
                    f"(theirs: {json.dumps(header.get('settings'))})"
                )
            lines = [json.dumps(header), *(json.dumps(r.to_json()) for r in records)]
            self.jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
        else:
            records = []
            header = {"camelpy": JSONL_VERSION, "event": self.event, "settings": self.settings}
            self.jsonl.write_text(json.dumps(header) + "\n", encoding="utf-8")
        with self.pgn.open("w", encoding="utf-8") as f:
            for record in records:
                f.write(record.to_pgn(event=self.event) + "\n\n")
        return records

    def append(self, record: GameRecord) -> None:
        """Saves one finished game (JSON line first: it is the source of truth)."""
        with self.jsonl.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record.to_json()) + "\n")
        with self.pgn.open("a", encoding="utf-8") as f:
            f.write(record.to_pgn(event=self.event) + "\n\n")


def read_log(out_dir: str | Path) -> tuple[dict[str, Any], list[GameRecord]]:
    """The header line (a dict: the run's ``settings`` and ``event``) and the finished games of the run
    saved in *out_dir*'s ``games.jsonl``, read without writing anything, so also while the run goes on
    (a last line still being written is left out, as a resume leaves it out).

    :raises: :exc:`TypeError` for an *out_dir* that is not a path; :exc:`ValueError` quoting the file
        when it is missing, empty, not a regular file, larger than :data:`MAX_LOG_BYTES`, not UTF-8, or
        without a camelpy header line.
    """
    jsonl = Path(path_arg(out_dir, "out_dir")) / "games.jsonl"
    if not _named(jsonl):
        read_text(jsonl, "out", "games log", limit=MAX_LOG_BYTES)  # raises, saying it is missing
    saved = _read_log(jsonl)
    if saved is None:
        raise ValueError(f"{quote(str(jsonl))} is empty: no run has started in that folder")
    return saved


def _read_log(jsonl: Path) -> tuple[dict[str, Any], list[GameRecord]] | None:
    """:func:`read_log` of the file *jsonl* itself; ``None`` when nothing is there or it is empty (a new
    run). Anything by that name is checked and read: a pipe or a device is refused."""
    text = read_text(jsonl, "out", "games log", limit=MAX_LOG_BYTES) if _named(jsonl) else ""
    if not text:
        return None
    lines = text.splitlines()
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict):
        raise ValueError(f"{quote(str(jsonl))} does not start with a camelpy header line")
    records: list[GameRecord] = []
    for line in lines[1:]:
        try:
            records.append(GameRecord.from_json(json.loads(line)))
        except (ValueError, TypeError):  # JSONDecodeError is a ValueError
            continue  # a line cut short by an interruption: that game is played again
    return header, records


def _named(path: Path) -> bool:
    """Whether anything is at *path* (a broken link too)."""
    return os.path.lexists(path)


PROGRESS_LOG_INTERVAL_S = 60.0
"""Seconds between the status lines written when stderr is a file (a match left running in the background
with its output redirected): often enough to follow an SPRT, rarely enough to keep the log short."""


class Progress:
    """A one-line live display on a terminal (tqdm when installed, else a plain ``\\r`` line). When stderr
    is not a terminal (redirected to a log), a whole status line at most every
    :data:`PROGRESS_LOG_INTERVAL_S` seconds instead; nothing with *quiet*. *unit* names what is counted.

    >>> import io, contextlib
    >>> log = io.StringIO()
    >>> with contextlib.redirect_stderr(log):
    ...     shown = Progress(10)
    ...     shown.update(2, "+1=1-0")  # less than a minute since the start: nothing yet
    ...     shown.logged_at -= PROGRESS_LOG_INTERVAL_S  # as if a minute had passed
    ...     shown.update(3, "+2=1-0")
    >>> log.getvalue()[9:]  # after the time of day
    'games 3/10 +2=1-0\\n'
    """

    def __init__(
        self, total: int, done: int = 0, *, quiet: bool = False, label: str = "games", unit: str = "games"
    ) -> None:
        terminal = sys.stderr.isatty()
        self.enabled = not quiet and terminal
        self.logging = not quiet and not terminal
        self.logged_at = time.monotonic()
        self.total, self.done = total, done
        self.label = label
        self.bar: Any = None
        if self.enabled:
            try:  # optional: pip install 'camelpy[progress]'
                tqdm: Any = importlib.import_module("tqdm").tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(
                    total=total, initial=done, unit=f" {unit}", desc=label, leave=False, file=sys.stderr
                )

    def update(self, done: int, text: str) -> None:
        """Shows *done* of the total with a status text."""
        if self.logging and time.monotonic() - self.logged_at >= PROGRESS_LOG_INTERVAL_S:
            self.logged_at = time.monotonic()
            sys.stderr.write(f"{time.strftime('%H:%M:%S')} {self.label} {done}/{self.total} {text}\n")
            sys.stderr.flush()
        if not self.enabled:
            self.done = done
            return
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
            self.bar.set_postfix_str(text, refresh=True)
        else:
            sys.stderr.write(f"\r{done}/{self.total} {text}\x1b[K")
            sys.stderr.flush()
        self.done = done

    def close(self) -> None:
        """Removes the line."""
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


async def _worker(
    configs: Sequence[EngineConfig],
    queue: asyncio.Queue[GameSpec],
    adjudication: Adjudication,
    hang_timeout: float,
    on_game: Callable[[GameRecord], bool],
    stop: asyncio.Event,
    observer: Observer | None,
) -> None:
    cache: dict[int, UciPlayer] = {}
    try:
        while not stop.is_set():
            try:
                spec = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            for index in list(cache):
                if index not in (spec.white, spec.black):
                    await cache.pop(index).quit()
            for index in (spec.white, spec.black):
                if index not in cache:
                    cache[index] = UciPlayer(configs[index])
                if not cache[index].running:
                    await cache[index].start()
            record, broken = await play_game(
                cache[spec.white],
                cache[spec.black],
                spec.opening,
                adjudication,
                hang_timeout=hang_timeout,
                round_label=spec.round_label,
                pair=spec.pair,
                game_index=spec.game,
                observer=observer,
            )
            for player in broken:
                await player.restart()
            if stop.is_set():
                return
            if on_game(record):
                stop.set()
    finally:
        await _quit_all(cache.values())


async def _quit_all(players: Iterable[UciPlayer]) -> None:
    """Quits every player, each one even when quitting another was cancelled (an SPRT stop cancels the
    workers, perhaps while they quit); the cancellation is raised once all are closed."""
    cancelled: asyncio.CancelledError | None = None
    for player in list(players):
        try:
            await player.quit()
        except asyncio.CancelledError as err:
            cancelled = err
    if cancelled is not None:
        raise cancelled


Job = TypeVar("Job")
"""What :func:`run_games` hands a worker: a game pair, a game number."""


def run_games(
    jobs: Iterable[Job],
    play: Callable[[Job, threading.Event], Iterable[GameRecord]],
    on_game: Callable[[GameRecord], bool],
    *,
    concurrency: int = 1,
) -> None:
    """Plays *jobs* (the small games' :func:`run_schedule`): ``play(job, stop)`` yields the job's games
    as they finish, and should play no more once *stop* is set; *on_game* gets each game, one at a time,
    and returns ``True`` to stop the run. With a *concurrency* above 1 that many jobs run at once, on
    threads; with 1 they run one after the other in this thread (Ctrl-C stops the game being played).

    >>> from camelpy.arena.openings import Opening
    >>> def play(job: int, stop: threading.Event) -> list[GameRecord]:
    ...     return [GameRecord("a", "b", Opening(), "1-0", "checkmate", "", round=str(job))]
    >>> seen = []
    >>> run_games([1, 2, 3], play, lambda record: seen.append(record.round) or record.round == "2")
    >>> seen
    ['1', '2']
    """
    lock = threading.Lock()
    stop = threading.Event()

    def run(job: Job) -> None:
        if stop.is_set():
            return
        for record in play(job, stop):
            with lock:
                if on_game(record):
                    stop.set()

    if concurrency <= 1:
        for job in jobs:
            run(job)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        try:
            list(pool.map(run, jobs))
        except KeyboardInterrupt:
            stop.set()
            raise


@contextlib.contextmanager
def stop_on_terminate() -> Iterator[None]:
    """While inside, ``SIGTERM`` (``kill PID``) stops a run as Ctrl-C does: it raises
    :exc:`KeyboardInterrupt` in the main thread (through asyncio's Ctrl-C handler while one is
    installed), so the games played are kept and the summary is written. A match started in the
    background, for which the shell ignores Ctrl-C, is stopped this way. Outside the main thread it
    changes nothing; on leaving, the previous handler is back.

    >>> before = signal.getsignal(signal.SIGTERM)
    >>> with stop_on_terminate():
    ...     signal.getsignal(signal.SIGTERM) is not before
    True
    >>> signal.getsignal(signal.SIGTERM) is before
    True
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        on_ctrl_c = signal.getsignal(signal.SIGINT)
        if callable(on_ctrl_c) and on_ctrl_c is not signal.default_int_handler:
            on_ctrl_c(signum, frame)  # asyncio.run's: cancels the games' loop, then raises KeyboardInterrupt
        else:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_schedule(
    configs: Sequence[EngineConfig],
    specs: Sequence[GameSpec],
    on_game: Callable[[GameRecord], bool],
    *,
    concurrency: int | None = None,
    adjudication: Adjudication = NO_ADJUDICATION,
    hang_timeout: float = 60.0,
    backend: str = "local",
    observer: Observer | None = None,
) -> None:
    """Plays *specs* with up to *concurrency* games at once (default 1); *on_game* gets each finished
    game in the order they finish and returns ``True`` to stop the run (games still running are
    abandoned). *observer* gets each game's events as it is played (:mod:`camelpy.arena.events`;
    on Ray only each game's ``result``).

    With ``backend="ray"`` the games are tasks on the Ray cluster this process is connected to
    (:func:`camelpy.cluster.connect`; a local one is started if none is): one task per game pair, both
    games on one worker, so a pair is never split; up to *concurrency* pairs at once (default: the
    cluster's CPUs). A pair whose worker dies, or whose task fails, is played again
    (:data:`camelpy.cluster.TASK_RETRIES` times); *on_game* gets a pair's games only once the whole
    pair is finished, so nothing is counted twice. Stopping (``True`` from *on_game*, Ctrl-C)
    cancels the pairs still running.

    :raises: :exc:`camelpy.arena.engines.EngineStartError` when an engine cannot be started;
        :exc:`ValueError` (before any engine starts) for a *concurrency* below 1, a *hang_timeout* not
        above 0, a game naming an engine that is not in *configs* or an unknown *backend*;
        :exc:`TypeError` for an argument of the wrong type; :exc:`ImportError` for ``backend="ray"``
        without Ray installed.
    """
    configs = items_arg(configs, "configs", EngineConfig)
    specs = items_arg(specs, "specs", GameSpec)
    if not callable(on_game):
        raise TypeError(f"on_game must be callable, got {type(on_game).__name__} {shown(on_game)}")
    if concurrency is not None:
        int_arg(concurrency, "concurrency", 1)
    if not isinstance(adjudication, Adjudication):
        raise TypeError(f"adjudication must be an Adjudication, got {type(adjudication).__name__}")
    real_arg(hang_timeout, "hang_timeout", above=0)
    cluster.check_backend(backend)
    if observer is not None and not callable(observer):
        raise TypeError(f"observer must be callable, got {type(observer).__name__} {shown(observer)}")
    for spec in specs:
        for index in (spec.white, spec.black):
            if index >= len(configs):
                raise ValueError(
                    f"game {spec.round_label} names engine {index}, but there are {len(configs)}"
                )
    if backend == "ray":
        _run_on_ray(configs, specs, on_game, concurrency, adjudication, hang_timeout, observer)
        return
    concurrency = concurrency or 1

    async def main() -> None:
        queue: asyncio.Queue[GameSpec] = asyncio.Queue()
        for spec in specs:
            queue.put_nowait(spec)
        stop = asyncio.Event()
        tasks = [
            asyncio.ensure_future(
                _worker(configs, queue, adjudication, hang_timeout, on_game, stop, observer)
            )
            for _ in range(min(concurrency, max(len(specs), 1)))
        ]
        try:
            while tasks:
                stopper: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
                done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
                stopper.cancel()
                for task in tasks[:]:
                    if task in done:
                        tasks.remove(task)
                        task.result()  # re-raise an engine start failure
                if stop.is_set():
                    break
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    asyncio.run(main())


def play_specs(
    configs: Sequence[EngineConfig],
    specs: Sequence[GameSpec],
    adjudication: Adjudication,
    hang_timeout: float,
) -> list[GameRecord]:
    """Plays *specs* one after the other on this machine and returns their games: a cluster's task
    (one game pair)."""
    records: list[GameRecord] = []

    def keep(record: GameRecord) -> bool:
        records.append(record)
        return False

    run_schedule(configs, specs, keep, concurrency=1, adjudication=adjudication, hang_timeout=hang_timeout)
    return sorted(records, key=lambda r: r.game)


def _run_on_ray(
    configs: Sequence[EngineConfig],
    specs: Sequence[GameSpec],
    on_game: Callable[[GameRecord], bool],
    concurrency: int | None,
    adjudication: Adjudication,
    hang_timeout: float,
    observer: Observer | None,
) -> None:
    """:func:`run_schedule` on a Ray cluster: one task per game pair."""
    ray = cluster.connect(what="a match on Ray")
    pairs: dict[int, list[GameSpec]] = {}
    for spec in specs:
        pairs.setdefault(spec.pair, []).append(spec)
    waiting = list(pairs.items())
    waiting.reverse()  # popped from the end: the schedule's order
    pool: cluster.TaskPool[int] = cluster.TaskPool(ray, play_specs, concurrency or cluster.cluster_cpus(ray))
    configs = list(configs)
    try:
        while waiting or len(pool):
            while waiting and not pool.full:
                pair, games = waiting.pop()
                pool.submit(pair, configs, games, adjudication, hang_timeout)
            _, records = pool.next()
            for record in records:
                if observer is not None:
                    observer("result", result_event(record))
                if on_game(record):
                    return
    finally:
        pool.cancel()

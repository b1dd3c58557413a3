"""Engines as the match manager sees them: a command line, UCI options and search limits
(:class:`EngineConfig`, parsed from ``cmd option.Hash=16 tc=40/60+0.6`` words), and a running UCI
process driven through python-chess's asyncio API (:class:`UciPlayer`), which the referee can restart.

>>> config = parse_engine(["stockfish", "name=sf", "option.Hash=16", "tc=40/60+0.6"])
>>> config.name, config.options, str(config.tc)
('sf', (('Hash', '16'),), '40/60+0.6')
>>> TimeControl.parse("10+0.1")
TimeControl(base=10.0, inc=0.1)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import re
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

import chess
import chess.engine

from camelpy._args import (
    brief,
    int_arg,
    items_arg,
    opt_int_arg,
    real_arg,
    shown,
    split_command,
    str_arg,
)
from camelpy._quote import quote
from camelpy.params import SHOW_TUNING_OPTIONS

__all__ = [
    "EngineConfig",
    "EngineStartError",
    "TimeControl",
    "UciPlayer",
    "distinct_names",
    "engine_from_mapping",
    "list_tuning_options",
    "parse_engine",
]

STARTUP_TIMEOUT = 15.0
"""Seconds an engine may take to start and answer ``uciok`` (python-chess's default is 10; a cold
Python engine import on a busy machine needs more)."""

QUIT_TIMEOUT = 2.0
"""Seconds an engine gets to exit after ``quit`` before it is killed."""

DEFAULT_TIME_MARGIN_MS = 100
"""How far (ms) an engine may overrun its clock before it loses on time: absorbs pipe and scheduling
latency of a busy machine (fastchess's ``timemargin`` defaults to 0; ours is lenient by default)."""

INFO_WANTED = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE
"""What the referee reads from ``info`` lines (depth, score): parsing PVs too (``INFO_ALL``) replays every
PV move of every line and cost the manager ~0.5 s of CPU per 100 Stockfish plies at 1+0.01."""

_TC_RE = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?|\d+:\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?$")


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """A chess clock: *base* seconds (for every *moves* moves, or the whole game) plus *inc* seconds
    added after each move. Written ``[moves/]base[+inc]``, *base* in seconds or ``min:sec``.

    >>> TimeControl.parse("40/1:30+0.5")
    TimeControl(base=90.0, inc=0.5, moves=40)
    >>> str(TimeControl(base=8.0, inc=0.08))
    '8+0.08'
    """

    base: float
    """Seconds on the clock at the start (and added again after every *moves* moves)."""
    inc: float = 0.0
    """Seconds added after each move."""
    moves: int | None = None
    """Moves per period (``40/…``), ``None`` for the whole game."""

    def __post_init__(self) -> None:
        real_arg(self.base, "time control base", minimum=0)
        real_arg(self.inc, "time control increment", minimum=0)
        opt_int_arg(self.moves, "time control moves", 1)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parses ``40/60+0.6``, ``10+0.1``, ``1:30`` …

        :raises: :exc:`ValueError` quoting *text* when it is not a time control (or one with an infinite
            clock, or ``0`` moves), :exc:`TypeError` when it is not a string.
        """
        match = _TC_RE.match(str_arg(text, "time control").strip())
        if match is None:
            raise ValueError(f"expected a time control like '40/60+0.6' or '10+0.1', got {quote(text)}")
        moves, base, inc = match.groups()
        try:
            if ":" in base:
                minutes, seconds = base.split(":")
                seconds_total = int(minutes) * 60 + float(seconds)
            else:
                seconds_total = float(base)
            return cls(seconds_total, float(inc or 0.0), int(moves) if moves else None)
        except (ValueError, OverflowError) as err:  # a clock beyond the float range, 0 moves …
            raise ValueError(f"bad time control {quote(text)}: {brief(err)}") from None

    def __str__(self) -> str:
        text = f"{self.base:g}"
        if self.moves:
            text = f"{self.moves}/{text}"
        return f"{text}+{self.inc:g}" if self.inc else text

    def __repr__(self) -> str:
        args = [f"base={self.base!r}"]
        if self.inc:
            args.append(f"inc={self.inc!r}")
        if self.moves is not None:
            args.append(f"moves={self.moves!r}")
        return f"TimeControl({', '.join(args)})"


@dataclasses.dataclass(frozen=True)
class EngineConfig:
    """How to run one engine in a match: its command, UCI options and search limits (at least one of
    *tc*, *st*, *nodes*, *depth*).

    >>> EngineConfig(("stockfish",), nodes=1000).name
    'stockfish'
    """

    command: tuple[str, ...]
    """Program and arguments."""
    name: str = ""
    """Name in PGN and tables; defaults to the program's file name."""
    options: tuple[tuple[str, str], ...] = ()
    """UCI options set after start-up (``option.Name=Value``)."""
    tc: TimeControl | None = None
    """A clock (``tc=40/60+0.6``)."""
    st: float | None = None
    """Fixed seconds per move (``st=0.1``)."""
    nodes: int | None = None
    """Node limit per move (``nodes=10000``)."""
    depth: int | None = None
    """Depth limit per move (``depth=8``)."""
    timemargin_ms: int = DEFAULT_TIME_MARGIN_MS
    """Milliseconds an engine may overrun its clock or ``st`` before it loses on time."""

    def __post_init__(self) -> None:
        command = tuple(items_arg(self.command, "command", str))
        if not command or not command[0]:
            raise ValueError(f"an engine needs a command, got {shown(command)}")
        object.__setattr__(self, "command", command)
        if not str_arg(self.name, "name"):
            object.__setattr__(self, "name", os.path.basename(self.command[0]))
        for option in items_arg(self.options, "options", tuple):
            if len(option) != 2 or not all(isinstance(part, str) for part in option):
                raise TypeError(f"options must hold (name, value) string pairs, got {shown(option)}")
        if self.tc is not None and not isinstance(self.tc, TimeControl):
            raise TypeError(f"tc must be a TimeControl, got {type(self.tc).__name__} {shown(self.tc)}")
        try:
            if self.st is not None:
                real_arg(self.st, "st", above=0)
            opt_int_arg(self.nodes, "nodes", 1)
            opt_int_arg(self.depth, "depth", 1)
            int_arg(self.timemargin_ms, "timemargin", 0)
        except (TypeError, ValueError) as err:
            raise type(err)(f"engine {quote(self.name)}: {err}") from None
        if self.tc is None and self.st is None and self.nodes is None and self.depth is None:
            raise ValueError(f"engine {quote(self.name)} has no limit: give tc=, st=, nodes= or depth=")

    def describe(self) -> str:
        """The limits in the engine-spec words: ``tc=10+0.1 nodes=5000``."""
        parts = []
        if self.tc is not None:
            parts.append(f"tc={self.tc}")
        if self.st is not None:
            parts.append(f"st={self.st:g}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the match's resume check compares these)."""
        return {
            "command": list(self.command),
            "name": self.name,
            "options": [list(kv) for kv in self.options],
            "limits": self.describe(),
            "timemargin_ms": self.timemargin_ms,
        }


_KEYS = ("cmd", "name", "tc", "st", "nodes", "depth", "timemargin")


def parse_engine(words: Sequence[str], defaults: Sequence[str] = ()) -> EngineConfig:
    """Builds an :class:`EngineConfig` from ``key=value`` words: ``cmd=`` (or a first word without
    ``=``, split like a shell line), ``name=``, ``tc=``, ``st=`` (seconds), ``nodes=``, ``depth=``,
    ``timemargin=`` (ms) and ``option.Name=Value``. *defaults* are words applied first (``--each``).

    >>> parse_engine(["python -m camelpy", "nodes=5000"]).command
    ('python', '-m', 'camelpy')

    :raises: :exc:`ValueError` quoting an unknown or malformed word, :exc:`TypeError` for *words* that
        are not a list of strings.
    """
    fields: dict[str, Any] = {}
    options: dict[str, str] = {}
    command: tuple[str, ...] = ()
    listed = items_arg(defaults, "defaults", str) + items_arg(words, "words", str)
    for word in listed:
        key, sep, value = word.partition("=")
        if not sep:
            if command:
                raise ValueError(f"expected key=value after the command, got {quote(word)}")
            command = tuple(split_command(word, "the engine command"))
            continue
        try:
            if key.startswith("option."):
                if not key[7:]:
                    raise ValueError("empty option name")
                options[key[7:]] = value
            elif key == "cmd":
                command = tuple(split_command(value, "cmd"))
            elif key == "name":
                fields["name"] = value
            elif key == "tc":
                fields["tc"] = None if value in ("", "inf") else TimeControl.parse(value)
            elif key == "st":
                fields["st"] = float(value)
            elif key == "nodes":
                fields["nodes"] = int(value)
            elif key == "depth":
                fields["depth"] = int(value)
            elif key == "timemargin":
                fields["timemargin_ms"] = int(value)
            else:
                raise ValueError(f"unknown key (expected one of {', '.join(_KEYS)} or option.Name)")
        except ValueError as err:
            raise ValueError(f"bad engine setting {quote(word)}: {brief(err)}") from None
    if not command:
        raise ValueError(f"an engine needs a command: none in {shown(listed)}")
    return EngineConfig(command=command, options=tuple(options.items()), **fields)


def engine_from_mapping(data: Mapping[str, Any]) -> EngineConfig:
    """An :class:`EngineConfig` from a TOML table: ``cmd``, ``name``, ``tc``, ``st``, ``nodes``,
    ``depth``, ``timemargin`` and an ``options`` table.

    >>> engine_from_mapping({"cmd": "stockfish", "depth": 3, "options": {"Hash": 16}}).options
    (('Hash', '16'),)

    :raises: :exc:`ValueError` quoting a bad key or value (the table is data: a value of the wrong type
        is a bad value), :exc:`TypeError` when *data* is not a mapping.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"data must be a mapping (a TOML table), got {type(data).__name__} {shown(data)}")
    words = []
    for key, value in data.items():
        if key == "options":
            if not isinstance(value, Mapping):
                raise ValueError(f"options must be a table, got {shown(value)}")
            words += [f"option.{name}={_option_text(v)}" for name, v in value.items()]
        elif key == "cmd" and isinstance(value, list):
            words.append(f"cmd={shlex.join(str(v) for v in value)}")
        elif key in ("cmd", "name") and not isinstance(value, str):
            what = "a string or a list of strings" if key == "cmd" else "a string"
            raise ValueError(f"{key} must be {what}, got {shown(value)}")
        elif key in ("family",):
            continue
        else:
            words.append(f"{key}={value}")
    return parse_engine(words)


def distinct_names(engine1: EngineConfig, engine2: EngineConfig) -> tuple[EngineConfig, EngineConfig]:
    """The two engines of a match, ``-1`` and ``-2`` appended to their names when they share one (every
    game's record says who played which side by name).

    >>> a, b = distinct_names(parse_engine(["camelpy", "depth=1"]), parse_engine(["camelpy", "depth=2"]))
    >>> a.name, b.name
    ('camelpy-1', 'camelpy-2')
    """
    if engine1.name != engine2.name:
        return engine1, engine2
    return (
        dataclasses.replace(engine1, name=f"{engine1.name}-1"),
        dataclasses.replace(engine2, name=f"{engine2.name}-2"),
    )


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


async def list_tuning_options(protocol: chess.engine.UciProtocol) -> bool:
    """Makes python-chess know an engine's tuning options too; returns whether the engine has them.

    camelpy lists its evaluation weights and search settings only once its check option
    ``Show Tuning Options`` is true (a GUI would show all ~480 in its settings dialog), and python-chess
    checks every name given to ``configure`` against the options listed in answer to ``uci``. For an
    engine that offers that option this sets it and repeats the handshake, so that ``protocol.options``
    (and ``configure``) then hold them all; for any other engine it does nothing.
    """
    if SHOW_TUNING_OPTIONS not in protocol.options:
        return False
    await protocol.configure({SHOW_TUNING_OPTIONS: True})
    # python-chess reads a second ``uci`` answer like the first, adding the options it did not list;
    # it refuses to send ``uci`` again unless told the engine is not yet initialized.
    protocol.initialized = False
    await protocol.initialize()
    return True


class EngineStartError(ValueError):
    """An engine could not be started, or rejected its options; the message quotes the command."""


class UciPlayer:
    """One running UCI engine (python-chess asyncio protocol) with restart and kill.

    Use inside an event loop: ``player = UciPlayer(config); await player.start()``.
    """

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.transport: asyncio.SubprocessTransport | None = None
        self.protocol: chess.engine.UciProtocol | None = None
        self.restarts = 0

    @property
    def running(self) -> bool:
        """Whether a process is attached (it may still have died since the last command)."""
        return self.protocol is not None

    async def start(self) -> None:
        """Starts the process, waits for ``uciok`` and sets the options.

        :raises: :exc:`EngineStartError` naming the command when it cannot start or rejects an option.
        """
        cmd = list(self.config.command)
        try:
            transport, protocol = await asyncio.wait_for(
                chess.engine.popen_uci(cmd, stderr=subprocess.DEVNULL), STARTUP_TIMEOUT
            )
        except (OSError, asyncio.TimeoutError, chess.engine.EngineError) as err:
            raise EngineStartError(f"cannot start engine {quote(shlex.join(cmd))}: {brief(err)}") from None
        self.transport, self.protocol = transport, protocol
        try:
            options = dict(self.config.options)
            if any(name not in protocol.options for name in options):  # perhaps a hidden tuning option
                await asyncio.wait_for(list_tuning_options(protocol), STARTUP_TIMEOUT)
            if options:
                await asyncio.wait_for(protocol.configure(options), STARTUP_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError) as err:
            await self.kill()
            raise EngineStartError(
                f"engine {quote(self.config.name)} rejected its options: {brief(err)}"
            ) from None

    async def kill(self) -> None:
        """Kills the process at once (for a hung or misbehaving engine) and reaps it.

        The transport is closed however this ends, a cancellation included (an SPRT stop cancels the
        workers, perhaps while they quit their engines): a transport left open is collected after its
        event loop has closed, where closing it fails ("Event loop is closed") and its process may run on.
        """
        transport, protocol = self.transport, self.protocol
        self.transport = self.protocol = None
        if transport is None:
            return
        try:
            with contextlib.suppress(ProcessLookupError, OSError):
                transport.kill()
            if protocol is not None:
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(protocol.returncode), QUIT_TIMEOUT)
        finally:
            transport.close()  # also kills the process if it still runs

    async def restart(self) -> None:
        """Kills and starts the engine again."""
        await self.kill()
        self.restarts += 1
        await self.start()

    async def quit(self) -> None:
        """Asks the engine to quit, and kills it if it does not (or if the wait is cancelled)."""
        try:
            if self.protocol is not None:
                with contextlib.suppress(asyncio.TimeoutError, chess.engine.EngineError, OSError):
                    await asyncio.wait_for(self.protocol.quit(), QUIT_TIMEOUT)
        finally:
            await self.kill()

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object
    ) -> chess.engine.PlayResult:
        """One move; raises python-chess's errors (:exc:`chess.engine.EngineTerminatedError` when the
        process is gone)."""
        if self.protocol is None:
            raise chess.engine.EngineTerminatedError(f"engine {self.config.name!r} is not running")
        return await self.protocol.play(board, limit, game=game, info=INFO_WANTED)

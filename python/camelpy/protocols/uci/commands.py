"""Parsing UCI command lines into plain values; nothing here touches the engine.

Tokens are split on any whitespace. Following the UCI spec, unknown words before a command are skipped
(``joho debug on`` is ``debug on``). Every problem found in an argument is collected as a message; the
caller reports them with ``info string`` and goes on with what was understood.

>>> from camelpy.protocols.uci.commands import parse_go, split_command
>>> split_command("joho debug on")
('debug', 'on')
>>> go, problems = parse_go("wtime 1000 btime abc movestogo 0 searchmoves e2e4 d2d4")
>>> go.wtime, go.btime, go.movestogo, go.searchmoves
(1000, None, None, ['e2e4', 'd2d4'])
>>> problems
["go: 'btime' needs an integer, got 'abc'", "go: 'movestogo 0' ignored (must be at least 1)"]
"""

from __future__ import annotations

import dataclasses
import re

from camelpy._quote import quote

__all__ = [
    "COMMANDS",
    "Go",
    "PositionCommand",
    "parse_go",
    "parse_position",
    "parse_setoption",
    "split_command",
]

COMMANDS = (
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "bench",
    "d",
    "eval",
    "help",
)
"""Command words the loop knows (case-sensitive, as in the UCI spec)."""

MAX_TIME_MS = 2**40
"""Largest clock, increment or movetime taken as given (about 35 years); larger values are clamped."""

MAX_DEPTH = 10_000
"""Largest depth or mate distance taken as given; the core caps depth at its own maximum ply anyway."""

MAX_NODES = 2**63 - 1
"""Largest node limit taken as given (the core counts nodes in 64 bits)."""

_TOKEN = re.compile(r"\S+")


def split_command(line: str) -> tuple[str, str] | None:
    """The first known command word in *line* and the text after it, or ``None`` if there is none.

    >>> split_command("   isready   ")
    ('isready', '')
    >>> split_command("quitx") is None
    True
    """
    for match in _TOKEN.finditer(line):
        if match.group() in COMMANDS:
            return match.group(), line[match.end() :].strip()
    return None


@dataclasses.dataclass
class Go:
    """The arguments of one ``go`` command (``None``: not given)."""

    searchmoves: list[str] = dataclasses.field(default_factory=list)
    ponder: bool = False
    infinite: bool = False
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    movetime: int | None = None
    perft: int | None = None


_TIMES = ("wtime", "btime", "winc", "binc", "movetime")
_COUNTS = ("movestogo", "depth", "nodes", "mate", "perft")
_FLAGS = ("ponder", "infinite")
_KEYWORDS = (*_TIMES, *_COUNTS, *_FLAGS, "searchmoves")


def parse_go(args: str) -> tuple[Go, list[str]]:
    """Parses the arguments of ``go`` (any subset, any order; the last of a repeated parameter wins).

    Bad values are dropped with a message: a non-integer, a negative clock or increment (taken as 0),
    a depth, node count, mate distance or ``movestogo`` below 1 (ignored), a value beyond the engine's
    range (clamped).

    >>> parse_go("wtime -1000 depth 0 nodes 99999999999999999999999")[1]
    ["go: 'wtime -1000' is negative, taken as 0", "go: 'depth 0' ignored (must be at least 1)", \
"go: 'nodes 99999999999999999999999' clamped to 9223372036854775807"]
    """
    go = Go()
    problems: list[str] = []
    tokens = args.split()
    i = 0
    while i < len(tokens):
        word = tokens[i]
        i += 1
        if word in _FLAGS:
            setattr(go, word, True)
        elif word == "searchmoves":
            go.searchmoves = []
            while i < len(tokens) and tokens[i] not in _KEYWORDS:
                go.searchmoves.append(tokens[i])
                i += 1
        elif word in _TIMES or word in _COUNTS:
            text = tokens[i] if i < len(tokens) else None
            number = _integer(text)
            if number is None:
                shown = "nothing" if text is None else quote(text)
                problems.append(f"go: {word!r} needs an integer, got {shown}")
                if text is not None and text not in _KEYWORDS:
                    i += 1
                continue
            i += 1
            value = _checked(word, number, problems)
            if value is not None:
                setattr(go, word, value)
        else:
            problems.append(f"go: unknown token {quote(word)} ignored")
    return go, problems


def _integer(text: str | None) -> int | None:
    if text is None or not re.fullmatch(r"[+-]?\d+", text):
        return None
    return int(text)


def _checked(word: str, number: int, problems: list[str]) -> int | None:
    if word in _TIMES:
        if number < 0:
            problems.append(f"go: '{word} {number}' is negative, taken as 0")
            return 0
        limit = MAX_TIME_MS
    else:
        if number < 1 and not (word == "perft" and number == 0):
            problems.append(f"go: '{word} {number}' ignored (must be at least 1)")
            return None
        limit = MAX_NODES if word == "nodes" else MAX_DEPTH
    if number > limit:
        problems.append(f"go: '{word} {number}' clamped to {limit}")
        return limit
    return number


@dataclasses.dataclass(frozen=True)
class PositionCommand:
    """``position``: a FEN (``None`` for ``startpos``) and UCI moves, not yet checked against the rules."""

    fen: str | None
    moves: list[str]


class CommandError(ValueError):
    """A command whose shape is wrong (the message says how); the command is rejected as a whole."""


def parse_position(args: str) -> PositionCommand:
    """Splits ``position startpos|fen <fen> [moves <m>...]``.

    >>> parse_position("startpos moves e2e4 e7e5")
    PositionCommand(fen=None, moves=['e2e4', 'e7e5'])
    >>> parse_position("fen 8/8/8/4k3/8/8/8/4K3 w - - 0 1").fen
    '8/8/8/4k3/8/8/8/4K3 w - - 0 1'

    :raises: :exc:`CommandError` when neither ``startpos`` nor a FEN is given, or for stray words.
    """
    tokens = args.split()
    if not tokens or tokens[0] not in ("startpos", "fen"):
        got = quote(tokens[0]) if tokens else "nothing"
        raise CommandError(f"position: expected 'startpos' or 'fen <fen>', got {got}")
    rest = tokens[1:]
    split = rest.index("moves") if "moves" in rest else len(rest)
    head, moves = rest[:split], rest[split + 1 :]
    if tokens[0] == "startpos":
        if head:
            raise CommandError(f"position: unexpected {quote(' '.join(head))} after 'startpos'")
        return PositionCommand(None, moves)
    if not head:
        raise CommandError("position: 'fen' needs a FEN")
    return PositionCommand(" ".join(head), moves)


_SETOPTION = re.compile(r"name\s+(?P<name>.+?)(?:\s+value(?:\s+(?P<value>.*?))?)?\s*$", re.DOTALL)


def parse_setoption(args: str) -> tuple[str, str | None]:
    """Splits ``setoption name <id> [value <x>]`` into the name (inner whitespace collapsed to single
    spaces) and the value text (``None`` without ``value``; its inner spacing is kept, for paths).

    >>> parse_setoption("name Move   Overhead value 100")
    ('Move Overhead', '100')
    >>> parse_setoption("name Clear Hash")
    ('Clear Hash', None)

    :raises: :exc:`CommandError` without ``name <id>``.
    """
    match = _SETOPTION.match(args.strip())
    if not match:
        raise CommandError(f"setoption: expected 'name <id> [value <x>]', got {quote(args.strip())}")
    name = " ".join(match.group("name").split())
    return name, match.group("value")

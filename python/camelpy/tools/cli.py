"""``camelpy <command> …``: the console script's usage, version and tool subcommands (the UCI engine is
``camelpy`` alone, see :mod:`camelpy.__main__`).

Every subcommand is one :class:`Command` entry in :data:`COMMANDS`: its name, a one-line summary for the
usage listing, and the module that implements it with ``add_arguments(parser)`` and ``main(args) ->
status``. Adding a tool (``datagen``, ``tune``) is adding one entry. A tool's module is imported only when
that tool runs, so the listing and the UCI engine's start-up do not pay for the others.

Each tool reports bad input (a bad FEN, an engine that will not start, a malformed book or config) as
one ``error: …`` line on stderr and exit status 2, never as a traceback.

>>> main(["--version"])
camelpy 0.1.0
0
>>> main(["help"])  # doctest: +ELLIPSIS
usage: camelpy [-h] [--version] [<command> [<arguments>]]
...
commands:
  bench        run the fixed search benchmark: its node count (the bench signature) and speed
  perft        count the leaves of the legal move tree, or check a perft suite
...
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import sys
from collections.abc import Callable
from typing import cast

import camelpy
from camelpy._quote import quote

__all__ = ["COMMANDS", "HELP_WORDS", "VERSION_WORD", "Command", "handles", "main", "usage"]


@dataclasses.dataclass(frozen=True)
class Command:
    """One ``camelpy <name>`` subcommand."""

    name: str
    """The first command-line word."""
    summary: str
    """One line for the usage listing (and the subcommand's own ``--help``)."""
    module: str
    """The module that defines ``add_arguments(parser)`` and ``main(args) -> int``."""

    def parser(self) -> argparse.ArgumentParser:
        """The subcommand's argument parser (imports its module)."""
        parser = argparse.ArgumentParser(prog=f"camelpy {self.name}", description=self.summary)
        add_arguments = cast(Callable[[argparse.ArgumentParser], None], self._attribute("add_arguments"))
        add_arguments(parser)
        return parser

    def run(self, args: argparse.Namespace) -> int:
        """Runs the subcommand on its parsed arguments; returns the exit status."""
        run = cast(Callable[[argparse.Namespace], int], self._attribute("main"))
        return run(args)

    def _attribute(self, name: str) -> object:
        return getattr(importlib.import_module(self.module), name)


COMMANDS: tuple[Command, ...] = (
    Command(
        "bench",
        "run the fixed search benchmark: its node count (the bench signature) and speed",
        "camelpy.tools.chess.bench",
    ),
    Command(
        "perft",
        "count the leaves of the legal move tree, or check a perft suite",
        "camelpy.tools.chess.perft",
    ),
    Command("match", "play two engines against each other (game pairs, SPRT)", "camelpy.arena.match"),
    Command("tournament", "a gauntlet or round-robin from a TOML config", "camelpy.arena.tournament"),
    Command("epd", "run an EPD test suite (bm/am, STS c0 points)", "camelpy.tools.chess.epd"),
    Command(
        "review",
        "review games: each move classed by the win chance it lost, accuracy, annotated PGN, plots",
        "camelpy.tools.chess.review",
    ),
    Command(
        "datagen", "self-play training data at a fixed node budget per move", "camelpy.tools.chess.datagen"
    ),
    Command(
        "book",
        "Polyglot opening books: build (from PGN games or by search), show, merge",
        "camelpy.tools.chess.book",
    ),
    Command(
        "tb",
        "endgame tablebases: solve endings (generate), look a position up (probe)",
        "camelpy.tools.chess.tb",
    ),
    Command(
        "tune", "fit every evaluation weight to labelled positions (Texel, Adam)", "camelpy.tools.chess.tune"
    ),
    Command(
        "spsa",
        "tune UCI spin options by SPSA over game pairs (OpenBench's method)",
        "camelpy.tools.chess.spsa",
    ),
    Command(
        "train",
        "train the neural network (NNUE) on self-play data, on every core",
        "camelpy.tools.chess.train",
    ),
    Command(
        "gui",
        "play, analyse and watch matches in a browser (pip install 'camelpy[gui]')",
        "camelpy.gui.server",
    ),
    Command(
        "leiserchess",
        "Leiserchess: our player on the course's UCI-like protocol (stdin/stdout), perft",
        "camelpy.tools.games.leiserchess",
    ),
    Command(
        "minichess",
        "MiniChess (6x5): the course's file-protocol runner and match, our player, play, tune, perft",
        "camelpy.tools.games.minichess",
    ),
)
"""The tool subcommands, in the order the usage lists them."""

HELP_WORDS = ("help", "-h", "--help")
"""First words that print the usage (``camelpy help <command>`` prints that command's help)."""

VERSION_WORD = "--version"
"""The first word that prints ``camelpy <version>``."""

_BY_NAME = {command.name: command for command in COMMANDS}

_UCI_NOTE = """\
With no arguments, camelpy is a UCI engine on standard input and output: that is how GUIs,
cutechess-cli, fastchess and lichess-bot start it. Flags of the form --Name=value set UCI options
(--Hash=64, --Move_Overhead=50); other unknown flags are noted on stderr and ignored."""


def handles(word: str) -> bool:
    """Whether *word*, the first command-line word, is for this module (a subcommand, help or the version)
    rather than for the UCI engine."""
    return word in _BY_NAME or word in HELP_WORDS or word == VERSION_WORD


def usage() -> str:
    """The top-level usage: the subcommands with their summaries, the options, and how the UCI engine is
    started."""
    rows = [(command.name, command.summary) for command in COMMANDS]
    rows.append(("help", "this usage, or a command's arguments: camelpy help <command>"))
    options = [("-h, --help", "this usage"), (VERSION_WORD, "print the version and exit")]
    width = max(len(name) for name, _ in rows + options) + 2
    lines = [
        "usage: camelpy [-h] [--version] [<command> [<arguments>]]",
        "",
        f"camelpy {camelpy.__version__}, a chess engine with a Rust core.",
        "",
        "commands:",
        *(f"  {name:<{width}}{summary}" for name, summary in rows),
        "",
        "options:",
        *(f"  {name:<{width}}{summary}" for name, summary in options),
        "",
        _UCI_NOTE,
        "",
        "`camelpy <command> --help` shows a command's arguments.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Runs ``camelpy <argv…>`` for a first word that :func:`handles` accepts; returns the exit status."""
    word, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if word == VERSION_WORD:
        print(f"camelpy {camelpy.__version__}")
        return 0
    if word in HELP_WORDS:
        if word == "help" and rest:
            if rest[0] not in _BY_NAME:
                print(usage(), end="", file=sys.stderr)
                print(f"camelpy: error: no command called {quote(rest[0])}", file=sys.stderr)
                return 2
            word, rest = rest[0], ["--help"]
        else:
            print(usage(), end="")
            return 0
    command = _BY_NAME[word]
    try:
        args = command.parser().parse_args(rest)
    except SystemExit as done:  # --help (0) or a usage error (2), already printed by argparse
        return done.code if isinstance(done.code, int) else 2
    try:
        return command.run(args)
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stderr.close()
        return 0
    except (ValueError, ImportError) as err:  # ImportError: an optional extra missing (`--ray`)
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130

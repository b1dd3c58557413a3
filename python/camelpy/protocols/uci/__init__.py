"""The UCI engine: ``camelpy`` (or ``python -m camelpy``) with no subcommand speaks UCI on stdin/stdout.

The loop, the search session, the option table and the output formatting live here
(:mod:`~camelpy.protocols.uci.loop`, :mod:`~camelpy.protocols.uci.session`,
:mod:`~camelpy.protocols.uci.options`, :mod:`~camelpy.protocols.uci.format`,
:mod:`~camelpy.protocols.uci.commands`); time management is
:mod:`camelpy.timeman` and the opening book :mod:`camelpy.book`. The search itself runs in the Rust core
with the GIL released.

>>> import io
>>> from camelpy.protocols.uci import main
>>> out = io.StringIO()
>>> commands = b"isready\\nposition fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\\ngo depth 3\\n"
>>> main([], stdin=io.BytesIO(commands), stdout=out)
0
>>> print(out.getvalue().strip())
readyok
info depth 0 seldepth 0 multipv 1 score mate 0 nodes 0 nps 0 hashfull 0 time 0
info string no legal move (checkmate)
bestmove 0000
"""

from __future__ import annotations

import sys
from typing import IO

from camelpy._quote import quote
from camelpy.protocols.uci.loop import ENGINE_AUTHOR, ENGINE_NAME, LineSource, UciEngine

__all__ = ["ENGINE_AUTHOR", "ENGINE_NAME", "UciEngine", "main"]


def main(
    argv: list[str] | None = None, *, stdin: IO[bytes] | None = None, stdout: IO[str] | None = None
) -> int:
    """Runs the UCI engine until ``quit`` or end of input; returns the exit status.

    *argv* may hold ``--Name=value`` words (lichess-bot passes its ``engine_options`` that way): those
    naming an option set it, as ``setoption`` would (``_`` for a space: ``--Show_Tuning_Options=true``
    lists the tuning options in answer to ``uci``, for clients that only accept listed names); anything
    else is noted on stderr and ignored.
    """
    out = stdout if stdout is not None else sys.stdout
    binary: IO[bytes] | None = getattr(out, "buffer", None)
    broken = False

    def write(line: str) -> None:
        nonlocal broken
        if broken:
            return
        try:
            if binary is not None:  # UTF-8 whatever the locale, so echoed input can never fail to encode
                binary.write((line + "\n").encode("utf-8", errors="replace"))
                binary.flush()
            else:
                out.write(line + "\n")
                out.flush()
        except (BrokenPipeError, OSError, ValueError):  # the GUI went away: nothing left to tell it
            broken = True

    engine = UciEngine(write)
    for arg in argv or []:
        name, sep, value = arg.lstrip("-").partition("=")
        if arg.startswith("--") and sep and engine.has_option(name.replace("_", " ")):
            engine.handle(f"setoption name {name.replace('_', ' ')} value {value}")
        elif arg.startswith("--") and sep and engine.has_option(name):
            engine.handle(f"setoption name {name} value {value}")
        else:
            print(
                f"camelpy: ignoring command-line argument {quote(arg)} (not a UCI option; "
                "`camelpy --help` lists the commands)",
                file=sys.stderr,
            )
    source = stdin if stdin is not None else _stdin_bytes()
    if source is None:
        return engine.run(_Empty())
    return engine.run(source)


def _stdin_bytes() -> LineSource | None:
    stream = sys.stdin
    if stream is None:
        return None
    return getattr(stream, "buffer", None)


class _Empty:
    """An input with nothing in it (no stdin at all): the loop quits at once."""

    def readline(self, size: int = -1) -> bytes:
        return b""

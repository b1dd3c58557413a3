"""Command line: ``camelpy`` (or ``python -m camelpy``) alone is the UCI engine; ``camelpy bench [depth]``,
``camelpy perft …`` and the other tool subcommands are in :mod:`camelpy.tools`. Anything else (for
example lichess-bot's ``--key=value`` flags) starts the UCI engine, which applies the flags that name its
options and ignores the rest.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Dispatches on the first word: a tool subcommand, or else the UCI engine.

    Run as the program (*argv* ``None``: the console script, ``python -m camelpy``), the UCI engine ends
    the process as soon as it has answered ``quit`` and flushed its output, skipping the interpreter's
    teardown (some 50 ms here), so that ``quit`` during a search exits well within 100 ms. Called with an
    explicit *argv*, it returns the status instead.
    """
    as_program = argv is None
    args = sys.argv[1:] if argv is None else argv
    from camelpy.tools import cli

    if args and args[0] in cli.COMMANDS:
        return cli.main(args)
    from camelpy.uci import main as uci_main

    status = uci_main(args)
    if as_program:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
    return status


if __name__ == "__main__":
    sys.exit(main())

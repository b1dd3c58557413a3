"""The console script: ``camelpy`` (or ``python -m camelpy``) with no arguments is the UCI engine, as GUIs
start it; ``camelpy --help`` (or ``-h``, ``help``) lists the tool subcommands (``camelpy bench [depth]``,
``camelpy perft …``, see :mod:`camelpy.tools.cli`) and ``camelpy --version`` prints the version. Any other
first word (for example lichess-bot's ``--key=value`` flags) starts the UCI engine, which applies the
flags that name its options and notes the rest on stderr.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Dispatches on the first word: a tool subcommand, help or the version, or else the UCI engine.

    Run as the program (*argv* ``None``: the console script, ``python -m camelpy``), the UCI engine ends
    the process as soon as it has answered ``quit`` and flushed its output, skipping the interpreter's
    teardown (some 50 ms here), so that ``quit`` during a search exits well within 100 ms. Called with an
    explicit *argv*, it returns the status instead.
    """
    as_program = argv is None
    args = sys.argv[1:] if argv is None else argv
    from camelpy.tools import cli

    if args and cli.handles(args[0]):
        return cli.main(args)
    from camelpy.protocols.uci import main as uci_main

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

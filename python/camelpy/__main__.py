"""Command line: ``camelpy`` (or ``python -m camelpy``) alone is the UCI engine; ``camelpy perft …`` and the
other tool subcommands are in :mod:`camelpy.tools`.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Dispatches on the first word: a tool subcommand, or else the UCI engine."""
    args = sys.argv[1:] if argv is None else argv
    from camelpy.tools import cli

    if args and args[0] in cli.COMMANDS:
        return cli.main(args)
    print("the UCI engine is not built yet; try `camelpy perft 5`", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

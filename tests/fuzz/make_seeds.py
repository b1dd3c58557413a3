#!/usr/bin/env python3
# camelpy: regenerates the committed seed corpus of the atheris fuzzer.
# Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.
"""Writes ``tests/fuzz/corpus/`` (29 small files, about 5 KB) for ``fuzz_api.py``.

An input's first byte picks the surface (``% 3``): 0 ``Position``, 1 ``Engine.search``, 2 the UCI loop.
Position and search seeds are fixed-seed random bytes; UCI seeds are groups of lines from the shared
bad-input UCI script (comments after `` ## `` removed) and the binary bad-input file, as stdin.
Deterministic output: ``python3 tests/fuzz/make_seeds.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"  # the repository's copies of the shared bad-input files
MAX_LINE = 600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    out = HERE / "corpus"
    out.mkdir(exist_ok=True)
    rng = random.Random(20240915)
    for i in range(8):
        (out / f"position-{i:02}").write_bytes(bytes([0]) + rng.randbytes(rng.randrange(16, 96)))
        (out / f"search-{i:02}").write_bytes(bytes([1]) + rng.randbytes(rng.randrange(16, 64)))
    # Over-long lines are cut to MAX_LINE characters to keep the corpus small.
    lines = [
        line.split(" ## ", 1)[0][:MAX_LINE]
        for line in (args.data / "uci_bad_input.txt").read_text(encoding="utf-8").splitlines()
    ]
    for i in range(0, len(lines), 8):
        chunk = "\n".join(lines[i : i + 8]) + "\n"
        (out / f"uci-{i // 8:02}").write_bytes(bytes([2]) + chunk.encode("utf-8"))
    (out / "uci-binary").write_bytes(bytes([2]) + (args.data / "uci_binary.bin").read_bytes())
    files = sorted(out.iterdir())
    print(f"{len(files)} files, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# camelpy: regenerates the committed seed corpora under rust/fuzz/corpus/.
# Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.
"""Writes the small seed corpora committed in ``rust/fuzz/corpus/<target>/`` (a few dozen files each).

* ``fen``: every other line of the shared bad-input FEN list (the text before `` ## ``) and the
  positions of the repository's quick perft suites (the FEN part of each EPD line), one file each.
* ``moves``, ``eval_symmetry``, ``tt``: byte strings from a fixed-seed PRNG, shaped for each target's
  input layout (see the targets' ``Unstructured`` readers): for ``moves`` and ``eval_symmetry`` one
  input per seed position, for ``tt`` a few table sizes and operation mixes.

The output is deterministic. Run it from anywhere: ``python3 rust/fuzz/make_seeds.py [--bad-fens PATH]``.
The campaign's large working corpora live outside the repository (``/work/fuzz-state/<target>``) and
start from these seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEFAULT_BAD_FENS = REPO / "tests" / "data" / "bad_fens.txt"  # the repository's copy of the shared list
# Must match SEED_FENS in src/lib.rs (only its length matters here).
NUM_SEED_FENS = 18


def write(target: str, name: str, data: bytes) -> None:
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def fen_seeds(bad_fens: Path) -> None:
    lines = bad_fens.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines[::2]):
        fen = line.split(" ## ", 1)[0]
        write("fen", f"bad-{i:02}", fen.encode("utf-8"))
    suites = [REPO / "perft_suites" / "quick.epd", REPO / "perft_suites" / "quick_fischer.epd"]
    for suite in suites:
        for i, line in enumerate(suite.read_text(encoding="utf-8").splitlines()[::3]):
            fen = line.split(";", 1)[0].strip()
            write("fen", f"{suite.stem}-{i:02}", fen.encode("ascii"))


def moves_seeds(rng: random.Random) -> None:
    # Byte 0 < 200 picks SEED_FENS[byte % 18]; then (op, argument bytes) pairs, mostly moves (op % 8 < 3).
    for index in range(NUM_SEED_FENS):
        ops = bytearray([index])
        for _ in range(rng.randrange(20, 120)):
            op = rng.choice([0, 1, 2, 8, 9, 10, 3, 4, 5, 6, 7])
            ops.append(op)
            ops += rng.randbytes(rng.choice([2, 2, 3, 7]))
        write("moves", f"seed-{index:02}", bytes(ops))
    # A fuzzed FEN (selector >= 200): the length byte, then the text, then moves.
    fen = b"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    write("moves", "fuzzed-fen", bytes([200, len(fen)]) + fen + bytes([0, 1, 0, 2, 0, 3, 6, 6]))


def eval_seeds(rng: random.Random) -> None:
    # Byte 0 < 200 picks the seed position, byte 1 the number of plies (0..=120), then 2 bytes a ply.
    for index in range(NUM_SEED_FENS):
        plies = rng.randrange(0, 80)
        write("eval_symmetry", f"seed-{index:02}", bytes([index, plies]) + rng.randbytes(2 * plies))
    fen = b"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1"
    write("eval_symmetry", "fuzzed-fen", bytes([201, len(fen)]) + fen)


def tt_seeds(rng: random.Random) -> None:
    for i in range(24):
        size = i % 2  # 0: one bucket, 1: 1 MiB
        body = bytearray([size])
        for _ in range(rng.randrange(10, 200)):
            op = rng.choice([0, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8])
            body.append(op)
            body += rng.randbytes(16)
        write("tt", f"seed-{i:02}", bytes(body))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bad-fens", type=Path, default=DEFAULT_BAD_FENS)
    args = parser.parse_args()
    fen_seeds(args.bad_fens)
    rng = random.Random(20240915)
    moves_seeds(rng)
    eval_seeds(rng)
    tt_seeds(rng)
    for target in ("fen", "moves", "eval_symmetry", "tt"):
        files = sorted((HERE / "corpus" / target).iterdir())
        total = sum(f.stat().st_size for f in files)
        digest = hashlib.sha1(b"".join(f.read_bytes() for f in files)).hexdigest()[:12]
        print(f"{target}: {len(files)} files, {total} bytes, sha1 {digest}")


if __name__ == "__main__":
    main()

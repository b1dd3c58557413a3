"""``camelpy train``: train camelpy's network (:mod:`camelpy.nnue`) from the command line.

``camelpy train games.bin --out net1`` trains on every core and writes into ``net1/``: ``net.nnue`` (the
network, after every epoch, so a stopped run still leaves one), ``checkpoint.bin`` (``--resume``
continues from it exactly), ``losses.json``, ``loss.png`` (with matplotlib) and ``provenance.md`` (the
command, the data files with their seeds, the commit, the counts and the losses). A line on standard
error shows each epoch's losses.

>>> import os, tempfile
>>> from camelpy.tools.cli import main
>>> folder = tempfile.mkdtemp()
>>> data = os.path.join(folder, "games.bin")
>>> main(["datagen", "--out", data, "--games", "3", "--nodes", "300", "--seed", "2", "--quiet"])
... # doctest: +ELLIPSIS
wrote 3 games ...
0
>>> main(["train", data, "--out", os.path.join(folder, "net"), "--epochs", "2", "--batch-size", "128",
...       "--threads", "1", "--quiet"])  # doctest: +ELLIPSIS
trained 2 epochs on ... positions (... held out): validation loss ... -> ...; wrote ...net.nnue
0
>>> sorted(os.listdir(os.path.join(folder, "net")))  # doctest: +ELLIPSIS
['checkpoint.bin', 'loss.png', 'losses.json', 'net.nnue', 'provenance.md']
>>> main(["train", data, "--out", os.path.join(folder, "net"), "--wdl", "2"])  # "error: wdl must be ..."
2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from camelpy import data as camel_data
from camelpy import nnue

__all__ = ["add_arguments", "main", "provenance"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command line of ``camelpy train``."""
    p.add_argument("data", nargs="+", help="data files written by camelpy datagen")
    p.add_argument("--out", required=True, help="output folder (net.nnue, checkpoint.bin, losses, plot)")
    p.add_argument("--epochs", type=int, default=nnue.DEFAULT_EPOCHS)
    p.add_argument("--batch-size", type=int, default=nnue.DEFAULT_BATCH_SIZE)
    p.add_argument("--lr", type=float, default=nnue.DEFAULT_LR, help="initial learning rate (Adam)")
    p.add_argument(
        "--final-lr-share",
        type=float,
        default=nnue.DEFAULT_FINAL_LR_SHARE,
        help="final / initial learning rate",
    )
    p.add_argument(
        "--wdl", type=float, default=nnue.DEFAULT_WDL, help="weight of the game result in the target (0-1)"
    )
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: every core)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--valid-share", type=float, default=nnue.DEFAULT_VALID_SHARE, help="share of games held out"
    )
    p.add_argument("--max-score", type=int, default=nnue.DEFAULT_MAX_SCORE, help="clamp scores to this (cp)")
    p.add_argument("--max-positions", type=int, default=None, help="read at most this many positions")
    p.add_argument("--keep-check", action="store_true", help="keep positions whose side to move is in check")
    p.add_argument(
        "--keep-noisy", action="store_true", help="keep positions whose best move captures/promotes"
    )
    p.add_argument(
        "--no-mirror",
        dest="mirror",
        action="store_false",
        help="never show positions mirrored left to right (default: half of the time)",
    )
    p.add_argument(
        "--hidden",
        type=int,
        default=nnue.HIDDEN,
        choices=nnue.HIDDEN_SIZES,
        help=f"hidden neurons per side (default {nnue.HIDDEN}, the built-in network's)",
    )
    p.add_argument(
        "--output-buckets",
        type=int,
        default=1,
        choices=nnue.OUTPUT_BUCKETS,
        help="output neurons: 1, or 8 chosen by the number of pieces on the board",
    )
    p.add_argument(
        "--input-buckets",
        type=int,
        default=1,
        choices=nnue.INPUT_BUCKETS,
        help="sets of inputs: 1, or 4 chosen by each side's king square (mirrored to files a-d)",
    )
    p.add_argument(
        "--init",
        default=None,
        metavar="NET",
        help="start from this network's weights (a .nnue file or a built-in name, of the shape asked for) "
        "instead of fresh ones",
    )
    p.add_argument("--resume", action="store_true", help="continue the run whose checkpoint is in --out")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except OSError:
        return "unknown (not a git checkout)"
    return out.stdout.strip() or "unknown (not a git checkout)"


def provenance(
    result: nnue.TrainResult, argv: list[str], files: list[str], *, init: str | None = None
) -> str:
    """The Markdown note written beside a trained network: how to make it again (*init*: the network
    the run started from, if any)."""
    lines = [
        "# Network provenance",
        "",
        f"- network: `{Path(result.net_path).name}`, {result.hidden} hidden neurons per side, "
        f"{result.output_buckets} output bucket(s), {result.input_buckets} input bucket(s), "
        f"checksum `{result.net_hash:#018x}`",
        f"- trained by: `camelpy {' '.join(argv)}`",
        f"- camelpy commit: `{_commit()}`",
        *(
            []
            if init is None
            else [f"- started from: `{init}`, checksum `{nnue.network_info(init).hash:#018x}`"]
        ),
        f"- positions: {result.train_positions:,} for training, {result.valid_positions:,} held out",
        "- data files (regenerate each with `camelpy datagen` and its seed):",
    ]
    for i, path in enumerate(files):
        info = camel_data.info(path)
        line = f"  - `{path}`: {info.records:,} positions, seed {info.seed}"
        f = result.files[i] if i < len(result.files) else None
        if f is None:
            line += "; not read"
        elif f.records < info.records:
            line += f"; the run read the first {f.records:,} ({f.games:,} whole games"
            line += ", and the start of the next)" if f.mid_game else ")"
        lines.append(line)
    lines += [
        "",
        "| epoch | training loss | validation loss | learning rate | seconds |",
        "|---|---|---|---|---|",
    ]
    for e in result.epochs:
        lines.append(
            f"| {e.epoch} | {e.train_loss:.6f} | {_loss(e.valid_loss)} | {e.lr:.2e} | {e.seconds:.1f} |"
        )
    return "\n".join(lines) + "\n"


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy train``; returns the exit status (bad input raises ``ValueError``: one error line)."""
    out = Path(args.out)
    started = time.monotonic()

    def progress(kind: str, values: tuple[Any, ...]) -> None:
        if args.quiet:
            return
        if kind == "loaded":
            read, games, train_n, valid_n = values
            print(
                f"read {read:,} positions of {games:,} games: {train_n:,} to train on, {valid_n:,} held out",
                file=sys.stderr,
            )
        elif kind == "batch" and sys.stderr.isatty():
            epoch, batch, batches, loss, rate = values
            print(
                f"\repoch {epoch}: {batch}/{batches} batches, loss {loss:.6f}, {rate:,.0f} positions/s ",
                end="",
                file=sys.stderr,
                flush=True,
            )
        elif kind == "epoch":
            epoch, train_loss, valid_loss, lr, seconds = values
            end = "\n"
            prefix = "\r" if sys.stderr.isatty() else ""
            print(
                f"{prefix}epoch {epoch}: training {train_loss:.6f} validation {_loss(valid_loss)} "
                f"lr {lr:.2e} ({seconds:.1f} s)",
                end=end,
                file=sys.stderr,
                flush=True,
            )

    result = nnue.train(
        args.data,
        out,
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        final_lr_share=args.final_lr_share,
        wdl=args.wdl,
        threads=args.threads,
        seed=args.seed,
        valid_share=args.valid_share,
        skip_in_check=not args.keep_check,
        skip_noisy=not args.keep_noisy,
        max_score=args.max_score,
        max_positions=args.max_positions,
        resume=args.resume,
        progress=progress,
        mirror=args.mirror,
        hidden=args.hidden,
        output_buckets=args.output_buckets,
        input_buckets=args.input_buckets,
        init=args.init,
    )
    rows = [dataclasses.asdict(e) for e in result.epochs]
    (out / "losses.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if result.epochs:
        nnue.plot_losses(result, out / "loss.png")
    (out / "provenance.md").write_text(
        provenance(result, ["train", *sys_argv_tail(args)], list(args.data), init=args.init), encoding="utf-8"
    )
    if result.stopped:
        print(f"stopped after {len(result.epochs)} epochs; --resume continues; wrote {result.net_path}")
        return 130
    first, last = result.epochs[0], result.epochs[-1]
    print(
        f"trained {len(result.epochs)} epochs on {result.train_positions:,} positions "
        f"({result.valid_positions:,} held out): "
        f"validation loss {_loss(first.valid_loss)} -> {_loss(last.valid_loss)}; wrote {result.net_path}"
        + ("" if args.quiet else f" in {time.monotonic() - started:.0f} s")
    )
    return 0


def _loss(value: float | None) -> str:
    """A loss for the display: six decimals, or "none" without a validation set (NaN from the core)."""
    return "none" if value is None or value != value else f"{value:.6f}"


def sys_argv_tail(args: argparse.Namespace) -> list[str]:
    """The command line after ``camelpy train`` as it was given (or rebuilt from *args* in-process)."""
    if len(sys.argv) > 1 and sys.argv[1] == "train":
        return sys.argv[2:]
    words = list(args.data) + ["--out", str(args.out)]
    for name in ("epochs", "batch_size", "lr", "wdl", "threads", "seed", "max_positions"):
        value = getattr(args, name)
        if value is not None:
            words += [f"--{name.replace('_', '-')}", str(value)]
    if not args.mirror:
        words.append("--no-mirror")
    if args.init is not None:
        words += ["--init", str(args.init)]
    return words

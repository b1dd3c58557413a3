"""Neural evaluation: train camelpy's network on self-play data, and evaluate with it.

The network (768 inputs per side → 512 hidden neurons ×2 → 1 of 8 outputs by material for the built-in
camelpy-4, squared clipped ReLU, integer inference with SIMD in the core) is trained by the core's own
trainer, on all cores, from data files that ``camelpy datagen`` writes. Its shape is a property of the
file: *hidden* 256, 512, 768 or 1,024 neurons (:data:`HIDDEN_SIZES`), 1 or 8 *output_buckets*
(:data:`OUTPUT_BUCKETS`: with 8, the output neuron is chosen by the number of pieces on the board,
``(pieces - 2) // 4``) and 1 or 4 *input_buckets* (:data:`INPUT_BUCKETS`: with 4, each side's inputs are
chosen by its king's region, the board mirrored left to right when that king is on files e-h);
:func:`network_info` reports a file's. :func:`train` writes ``net.nnue`` into its output folder; an
:class:`camelpy.Engine` evaluates with it through ``eval_file``, and the UCI engine through the
``EvalFile`` option.

>>> import os, tempfile, camelpy, camelpy.data, camelpy.nnue
>>> folder = tempfile.mkdtemp()
>>> data = os.path.join(folder, "games.bin")
>>> _ = camelpy.data.generate(data, games=4, nodes=300, seed=1, workers=1)
>>> result = camelpy.nnue.train([data], os.path.join(folder, "net"), epochs=2, batch_size=256, threads=1)
>>> len(result.epochs), result.epochs[-1].train_loss < result.epochs[0].train_loss
(2, True)
>>> engine = camelpy.Engine(eval_file=result.net_path)
>>> engine.search(camelpy.STARTING_FEN, depth=3).best_move is not None
True

The network built into camelpy (:data:`EMBEDDED`), by its name:

>>> camelpy.Engine(eval_file=camelpy.nnue.EMBEDDED).eval_file
'camelpy-4.nnue'
>>> camelpy.nnue.BUILT_IN
('camelpy-4.nnue', 'camelpy-3.nnue', 'camelpy-2.nnue', 'camelpy-1.nnue')
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from camelpy import _core
from camelpy._args import int_arg, opt_int_arg, real_arg

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_EPOCHS",
    "DEFAULT_FINAL_LR_SHARE",
    "DEFAULT_LR",
    "DEFAULT_MAX_SCORE",
    "DEFAULT_MIRROR",
    "DEFAULT_VALID_SHARE",
    "DEFAULT_WDL",
    "BUILT_IN",
    "EMBEDDED",
    "HIDDEN",
    "HIDDEN_SIZES",
    "INPUT_BUCKETS",
    "OUTPUT_BUCKETS",
    "SCALE",
    "NET_FILE_NAME",
    "EpochLoss",
    "FileRead",
    "NetworkInfo",
    "TrainResult",
    "evaluation_loss",
    "network_info",
    "plot_losses",
    "train",
]

HIDDEN: int = _core.NET_HIDDEN
"""Hidden neurons per side of the built-in network, and :func:`train`'s default."""
HIDDEN_SIZES: tuple[int, ...] = tuple(_core.NET_HIDDEN_SIZES)
"""The hidden widths a network file may have (a closed set: the core compiles its kernels for each)."""
OUTPUT_BUCKETS: tuple[int, ...] = (1, _core.NET_MATERIAL_BUCKETS)
"""The output buckets a network may have: one output, or one per material band of 4 pieces."""
INPUT_BUCKETS: tuple[int, ...] = (1, _core.NET_KING_BUCKETS)
"""The input buckets a network may have: one set of 768 inputs, or one per region of the side's own king
(first rank a-b or c-d, second rank, the rest; mirrored so the king is on files a-d)."""
EMBEDDED: str = _core.NET_EMBEDDED
"""The name of the default network, built into camelpy: every search evaluates with it unless told
otherwise (``Engine(eval_file=...)``, the UCI option ``EvalFile``); a file of that name in the working
folder is read instead. Its provenance: ``rust/core/nets/camelpy-4.md``."""
BUILT_IN: tuple[str, ...] = tuple(_core.NET_BUILT_IN)
"""The networks built into camelpy, newest (:data:`EMBEDDED`) first, each selected by its name as
:data:`EMBEDDED` is; each one's provenance is ``rust/core/nets/<name>.md``. The older ones stay built in
because the newer ones' data was generated with them (``camelpy datagen --eval-file camelpy-1.nnue``)."""
SCALE: int = _core.NET_SCALE
"""Centipawns per unit of the network's output: the trainer fits ``sigmoid(value / SCALE)``."""

NET_FILE_NAME = "net.nnue"
"""The network's file name in a training run's output folder."""

DEFAULT_EPOCHS = 20
"""Passes over the training positions."""
DEFAULT_BATCH_SIZE = 16_384
"""Positions per optimiser step."""
DEFAULT_LR = 1e-3
"""Adam's initial learning rate."""
DEFAULT_FINAL_LR_SHARE = 0.05
"""The learning rate at the end of the cosine schedule, as a share of the initial one."""
DEFAULT_WDL = 0.3
"""Weight of the game result in each position's target; the rest is the search score."""
DEFAULT_VALID_SHARE = 0.02
"""Share of the games held out to measure the validation loss."""
DEFAULT_MAX_SCORE = 3_000
"""Search scores (and mates) are clamped to this many centipawns."""
DEFAULT_MIRROR = True
"""Show each position mirrored left to right half of the time (``camelpy train --no-mirror``: never)."""


@dataclasses.dataclass(frozen=True)
class EpochLoss:
    """The losses after one epoch (mean squared error of the predicted win expectation).

    >>> EpochLoss(epoch=1, train_loss=0.031, valid_loss=0.029, lr=0.001, seconds=12.5)
    EpochLoss(epoch=1, train_loss=0.031, valid_loss=0.029, lr=0.001, seconds=12.5)
    """

    epoch: int
    train_loss: float
    valid_loss: float | None
    """``None`` when no game was held out."""
    lr: float
    seconds: float


@dataclasses.dataclass(frozen=True)
class FileRead:
    """How much of one data file a training run read: its first *records* records, which hold *games*
    whole games and, when *mid_game*, the start of the next. A run capped by ``max_positions`` or
    reading a file that ``camelpy datagen`` is still writing reads only such a prefix; the first *games*
    games of the file's seed (``camelpy datagen --games``) make it again.

    >>> FileRead("selfplay.bin", records=60_300_010, games=694_143, mid_game=False)
    FileRead(path='selfplay.bin', records=60300010, games=694143, mid_game=False)
    """

    path: str
    records: int
    games: int
    mid_game: bool


@dataclasses.dataclass(frozen=True)
class TrainResult:
    """What :func:`train` did: every finished epoch's losses (a resumed run's earlier ones included),
    whether Ctrl-C stopped it early, the written network's checksum, path and shape, and the positions
    used.

    >>> TrainResult((), stopped=True, net_hash=0, net_path="n.nnue", train_positions=0, valid_positions=0)
    ... # doctest: +NORMALIZE_WHITESPACE
    TrainResult(epochs=(), stopped=True, net_hash=0, net_path='n.nnue', train_positions=0, valid_positions=0,
                hidden=256, output_buckets=1, input_buckets=1, files=())
    """

    epochs: tuple[EpochLoss, ...]
    stopped: bool
    net_hash: int
    net_path: str
    train_positions: int
    valid_positions: int
    hidden: int = HIDDEN
    """Hidden neurons per side of the trained network."""
    output_buckets: int = 1
    """Its output buckets (1 or 8)."""
    input_buckets: int = 1
    """Its input buckets (1 or 4)."""
    files: tuple[FileRead, ...] = ()
    """What was read of each data file, in order (a run stopped while loading read fewer files)."""


@dataclasses.dataclass(frozen=True)
class NetworkInfo:
    """A network file's shape and checksum (:func:`network_info`).

    >>> info = NetworkInfo(hidden=512, output_buckets=8, hash=0x1234, input_buckets=4, qb=256)
    >>> info
    NetworkInfo(hidden=512, output_buckets=8, hash=4660, input_buckets=4, qb=256)
    >>> info.shape
    '768×4 king buckets→512×2→1×8 material buckets'
    """

    hidden: int
    """Hidden neurons per side."""
    output_buckets: int
    """Output neurons: 1, or 8 chosen by the number of pieces on the board."""
    hash: int
    """The checksum of its weights, as the file's header stores it."""
    input_buckets: int = 1
    """Sets of 768 inputs: 1, or 4 chosen by each side's king (the board mirrored to put it on a-d)."""
    qb: int = 64
    """The output weights' scale (the core's ``QB``): a weight *w* is stored as ``round(w × qb)``. 64 in
    camelpy-1 and camelpy-2, 256 in camelpy-3, camelpy-4 and the files the trainer writes (a finer grid
    for the output layer)."""

    @property
    def shape(self) -> str:
        """The layers in words, as the core names them: ``768→256×2→1``."""
        inputs = "" if self.input_buckets == 1 else f"×{self.input_buckets} king buckets"
        buckets = "" if self.output_buckets == 1 else f"×{self.output_buckets} material buckets"
        return f"768{inputs}→{self.hidden}×2→1{buckets}"


def network_info(eval_file: str | os.PathLike[str] = EMBEDDED) -> NetworkInfo:
    """The shape and checksum of the network in *eval_file* (default: the built-in network by its name).

    >>> import camelpy.nnue
    >>> info = camelpy.nnue.network_info()
    >>> info.hidden, info.output_buckets, info.qb, info.shape
    (512, 8, 256, '768→512×2→1×8 material buckets')

    :raises: :exc:`camelpy.errors.NetworkFileError` for a file that is not a usable network (its message
        says what is wrong), :exc:`OSError` for one that cannot be read.
    """
    hidden, buckets, inputs, checksum, _, qb = _core.network_info(os.fspath(eval_file))
    return NetworkInfo(hidden=hidden, output_buckets=buckets, hash=checksum, input_buckets=inputs, qb=qb)


ProgressCallback = Callable[[str, tuple[Any, ...]], object]
"""``progress(kind, values)``: ``("loaded", (read, games, train, valid))`` once, then ``("batch", (epoch,
batch, batches, loss, positions_per_s))`` and ``("epoch", (epoch, train, valid, lr, seconds))``."""


def train(
    data: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    epochs: int = DEFAULT_EPOCHS,
    batch_size: int = DEFAULT_BATCH_SIZE,
    lr: float = DEFAULT_LR,
    final_lr_share: float = DEFAULT_FINAL_LR_SHARE,
    wdl: float = DEFAULT_WDL,
    threads: int | None = None,
    seed: int = 0,
    valid_share: float = DEFAULT_VALID_SHARE,
    skip_in_check: bool = True,
    skip_noisy: bool = True,
    max_score: int = DEFAULT_MAX_SCORE,
    max_positions: int | None = None,
    resume: bool = False,
    progress: ProgressCallback | None = None,
    mirror: bool = DEFAULT_MIRROR,
    hidden: int = HIDDEN,
    output_buckets: int = 1,
    input_buckets: int = 1,
    init: str | os.PathLike[str] | None = None,
) -> TrainResult:
    """Trains a network on *data*, one data file (``camelpy datagen`` output) or several read one after
    the other, writing ``checkpoint.bin`` and ``net.nnue`` into *out_dir* after every epoch and when
    stopped.

    The network has *hidden* neurons per side (one of :data:`HIDDEN_SIZES`), *output_buckets* outputs
    (one of :data:`OUTPUT_BUCKETS`) and *input_buckets* sets of inputs (one of :data:`INPUT_BUCKETS`);
    the defaults are the built-in network's shape.
    Each position's target is *wdl* parts the game's result and the rest the search score (as a win
    expectation, ``sigmoid(score / 400)``); the loss is the squared error. Positions in check and whose
    best move is a capture or promotion are skipped by default; *valid_share* of the games are held out.
    With *mirror* (the default) each position is shown mirrored left to right half of the time, chosen
    afresh every epoch: a mirror image is worth the same, so a small data set teaches more.
    With *init* (a network file or a built-in name such as ``"camelpy-3.nnue"``, of the shape asked
    for) the weights start from that network instead of fresh ones: more training for a trained
    network, on new data, with a schedule of its own (a lower *lr* suits it).
    The run is deterministic for a given *seed* and *threads* (default: every core). With *resume*, a
    run stopped by Ctrl-C (or a crash) continues exactly where its checkpoint left it; the same data and
    settings are required. Ctrl-C writes a checkpoint and raises :exc:`KeyboardInterrupt`.

    :raises: :exc:`ValueError` for a setting out of range or a checkpoint that does not match,
        :exc:`camelpy.errors.DataFileError` for a bad data file, :exc:`OSError` for one that cannot be
        read or an output folder that cannot be written, :exc:`TypeError` for a non-number.
    """
    paths = [os.fspath(data)] if isinstance(data, (str, os.PathLike)) else [os.fspath(p) for p in data]
    if not paths:
        raise ValueError("train needs at least one data file")
    int_arg(epochs, "epochs", 1)
    int_arg(batch_size, "batch_size", 1)
    lr = real_arg(lr, "lr", above=0.0)
    final_lr_share = real_arg(final_lr_share, "final_lr_share", minimum=0.0, maximum=1.0)
    wdl = real_arg(wdl, "wdl", minimum=0.0, maximum=1.0)
    valid_share = real_arg(valid_share, "valid_share", minimum=0.0, below=1.0)
    workers = opt_int_arg(threads, "threads", 1)
    int_arg(hidden, "hidden", 1)
    int_arg(output_buckets, "output_buckets", 1)
    int_arg(input_buckets, "input_buckets", 1)
    if hidden not in HIDDEN_SIZES:
        raise ValueError(f"hidden must be one of {', '.join(map(str, HIDDEN_SIZES))}, not {hidden}")
    if output_buckets not in OUTPUT_BUCKETS:
        raise ValueError(f"output_buckets must be 1 or {OUTPUT_BUCKETS[-1]}, not {output_buckets}")
    if input_buckets not in INPUT_BUCKETS:
        raise ValueError(f"input_buckets must be 1 or {INPUT_BUCKETS[-1]}, not {input_buckets}")
    epoch_rows, stopped, net_hash, train_n, valid_n, files_read = _core.train(
        paths,
        os.fspath(out_dir),
        epochs=epochs,
        batch_size=batch_size,
        lr=lr,
        final_lr_share=final_lr_share,
        wdl=wdl,
        threads=workers if workers is not None else _core.default_threads(),
        seed=seed,
        valid_permille=min(round(valid_share * 1000), 999),
        skip_in_check=bool(skip_in_check),
        skip_noisy=bool(skip_noisy),
        max_score=max_score,
        max_positions=max_positions,
        resume=bool(resume),
        progress=progress,
        mirror=bool(mirror),
        hidden=hidden,
        output_buckets=output_buckets,
        input_buckets=input_buckets,
        init=None if init is None else os.fspath(init),
    )
    return TrainResult(
        epochs=tuple(EpochLoss(e, t, None if math.isnan(v) else v, lr_, s) for e, t, v, lr_, s in epoch_rows),
        stopped=stopped,
        net_hash=net_hash,
        net_path=str(Path(out_dir) / NET_FILE_NAME),
        train_positions=train_n,
        valid_positions=valid_n,
        hidden=hidden,
        output_buckets=output_buckets,
        input_buckets=input_buckets,
        files=tuple(FileRead(p, r, g, m) for p, (r, g, m) in zip(paths, files_read, strict=False)),
    )


def evaluation_loss(
    data: str | os.PathLike[str],
    *,
    eval_file: str | os.PathLike[str] | None = None,
    start: int = 0,
    count: int = 20_000,
    wdl: float = DEFAULT_WDL,
    scale: float = SCALE,
    max_score: int = DEFAULT_MAX_SCORE,
) -> float:
    """The mean squared error of a static evaluation against the trainer's targets, on *count*
    positions of the data file *data* from its *start*-th record (filtered as :func:`train` filters:
    none in check, none whose best move captures or promotes).

    The evaluation is the network in *eval_file* as the engine runs it (quantised), or the classical
    evaluation with ``None``; each position's value *v* (centipawns, side to move) counts as the win
    expectation ``sigmoid(v / scale)``, its target as in :func:`train`: *wdl* parts the game's result,
    the rest ``sigmoid(score / SCALE)`` with the score clamped to ±*max_score*. Positions the network
    was not trained on (records past the ones it read) measure how well it generalises, on the same
    scale as :func:`train`'s validation loss, and put the classical evaluation on that scale too (its
    centipawns are not the network's: try a few *scale* values for it).

    >>> import os, tempfile, camelpy.data, camelpy.nnue
    >>> path = os.path.join(tempfile.mkdtemp(), "games.bin")
    >>> _ = camelpy.data.generate(path, games=2, nodes=300, seed=1, workers=1)
    >>> 0.0 < camelpy.nnue.evaluation_loss(path, count=50) < 0.25
    True

    :raises: :exc:`ValueError` for a setting out of range or no position to measure,
        :exc:`camelpy.errors.NetworkFileError` for a bad network file,
        :exc:`camelpy.errors.DataFileError` for a bad data file, :exc:`OSError` for a file (either) that
        cannot be read.
    """
    int_arg(start, "start", 0)
    int_arg(count, "count", 1)
    int_arg(max_score, "max_score", 1)
    wdl = real_arg(wdl, "wdl", minimum=0.0, maximum=1.0)
    scale = real_arg(scale, "scale", above=0.0)
    loss, _ = _core.evaluation_loss(
        os.fspath(data),
        None if eval_file is None else os.fspath(eval_file),
        start=start,
        count=count,
        wdl=wdl,
        scale=scale,
        max_score=max_score,
    )
    return loss


def plot_losses(result: TrainResult, path: str | os.PathLike[str]) -> None:
    """Writes a PNG of the training and validation loss per epoch (matplotlib, the tune extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - matplotlib is in the tune and test extras
        raise ImportError("the loss plot needs matplotlib: pip install 'camelpy[tune]'") from err
    figure, axes = plt.subplots(figsize=(6, 4))
    epochs = [e.epoch for e in result.epochs]
    axes.plot(epochs, [e.train_loss for e in result.epochs], label="training")
    valid = [e.valid_loss for e in result.epochs if e.valid_loss is not None]
    if len(valid) == len(epochs):
        axes.plot(epochs, valid, label="validation")
    axes.set_xlabel("epoch")
    axes.set_ylabel("mean squared error")
    axes.set_title(f"camelpy network ({result.hidden} hidden), {result.train_positions:,} positions")
    axes.legend()
    figure.tight_layout()
    figure.savefig(os.fspath(path), dpi=100)
    plt.close(figure)

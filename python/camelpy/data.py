"""Self-play training data: generate it (:func:`generate`, ``camelpy datagen``), read it back as
python-chess objects (:func:`read`) or numpy arrays (:func:`to_numpy`), export it as text
(:func:`export_text`).

The games are played in Rust on worker threads at a fixed node budget per move; every searched
position is kept with its score (side to move's view), best move and the game's result, in a compact
binary file of 32-byte records (the byte layout is documented in ``rust/core/src/data/mod.rs``). A
file is a function of its seed and settings: the same command gives the same bytes on any number of
threads, and running it again after an interruption completes the file exactly.

>>> import os, tempfile, camelpy.data
>>> path = os.path.join(tempfile.mkdtemp(), "games.bin")
>>> summary = camelpy.data.generate(path, games=2, seed=1, nodes=300, workers=2)
>>> summary.games, summary.positions == camelpy.data.info(path).records
(2, True)
>>> first = next(camelpy.data.read(path))
>>> first.board.fullmove_number, first.best_move in first.board.legal_moves, first.result in (0.0, 0.5, 1.0)
(5, True, True)

**Filters for tuning** drop positions that are not quiet: ``skip_in_check``, ``skip_noisy`` (the best
move captures or promotes) and ``quiet_margin`` (the static evaluation is more than this many
centipawns from the quiescence search's score; a quiescence search per position, so the slowest).

>>> everything = sum(1 for _ in camelpy.data.read(path))
>>> quiet = sum(1 for _ in camelpy.data.read(path, skip_in_check=True, skip_noisy=True, quiet_margin=60))
>>> 0 < quiet < everything
True
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Callable, Union

import chess
import chess.engine

from camelpy import _core, cluster
from camelpy._args import int_arg

if TYPE_CHECKING:
    import numpy
    import numpy.typing

__all__ = [
    "DEFAULTS",
    "RECORD_DTYPE_FIELDS",
    "DataInfo",
    "Sample",
    "Summary",
    "decode_move",
    "export_text",
    "generate",
    "info",
    "read",
    "to_numpy",
]

DEFAULTS: dict[str, int] = dict(_core.DATAGEN_DEFAULTS)
"""The generation settings' defaults, from the core: ``nodes`` per move, ``random_plies``, ``hash_mb`` per
worker, ``win_score``/``win_plies``, ``draw_score``/``draw_plies``/``draw_after``, ``max_plies``, and the
largest ply setting accepted, ``max_game_plies``."""

READ_BATCH = 4096
"""Records fetched from the core per call while reading."""

MATE_SCORE = 32000
"""A mate *n* plies away is stored as ``±(MATE_SCORE - n)``; centipawn scores stay within ±30000."""

ProgressCallback = Callable[[int, int, float], object]
"""Called with ``(games, positions, seconds)``: the file's totals and the run's time so far."""

BoardOrFen = Union[str, chess.Board]


@dataclasses.dataclass(frozen=True)
class Sample:
    """One recorded position: the board, the search's score and best move, and the game's result. Its
    ``repr`` rebuilds it.

    >>> sample = Sample(chess.Board(), 25, chess.Move.from_uci("e2e4"), 0.5)
    >>> sample
    Sample(board=chess.Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), score=25,
           best_move=chess.Move.from_uci('e2e4'), result=0.5)
    >>> eval(repr(sample)) == sample, sample.pov_score
    (True, PovScore(Cp(+25), WHITE))
    """

    board: chess.Board
    """The position (no move stack; clocks saturated at 127 half-moves and move 511 as stored)."""
    score: int
    """The search score from the side to move's view in centipawns; a mate *n* plies away is
    ``±(32000 - n)``."""
    best_move: chess.Move
    """The search's best move (the move played in the game)."""
    result: float
    """The game's result from White's view: 1.0, 0.5 or 0.0."""

    @property
    def pov_score(self) -> chess.engine.PovScore:
        """The score as python-chess's ``PovScore`` (mates in moves).

        >>> Sample(chess.Board(), 31999, chess.Move.from_uci("e2e4"), 1.0).pov_score
        PovScore(Mate(+1), WHITE)
        """
        relative: chess.engine.Score
        if self.score > 30000:
            relative = chess.engine.Mate((MATE_SCORE - self.score + 1) // 2)
        elif self.score < -30000:
            relative = chess.engine.Mate(-((MATE_SCORE + self.score) // 2))
        else:
            relative = chess.engine.Cp(self.score)
        return chess.engine.PovScore(relative, self.board.turn)

    def __repr__(self) -> str:
        return (
            f"Sample(board=chess.Board({self.board.fen()!r}), score={self.score}, "
            f"best_move=chess.Move.from_uci({self.best_move.uci()!r}), result={self.result!r})"
        )


@dataclasses.dataclass(frozen=True)
class DataInfo:
    """What a data file's header and length say."""

    seed: int
    """The generation seed."""
    settings_digest: int
    """The digest of the generation settings (a resume must match it)."""
    records: int
    """Positions in the file."""


@dataclasses.dataclass(frozen=True)
class Summary:
    """What a generation run did."""

    games: int
    """Games in the file at the end."""
    positions: int
    """Positions in the file at the end."""
    new_games: int
    """Games this run wrote (the rest were there: a resumed file)."""
    new_positions: int
    """Positions this run wrote."""
    nodes: int
    """Nodes searched for this run's games."""
    seconds: float
    """This run's time."""
    stopped: bool
    """Whether the run was stopped before every game was played."""
    white_wins: int
    """This run's games won by White."""
    draws: int
    """This run's drawn games."""
    black_wins: int
    """This run's games won by Black."""
    ends: dict[str, int]
    """This run's games by how they ended (``Checkmate``, ``AdjudicatedWin``, ``Repetition``, …)."""

    @property
    def positions_per_second(self) -> float:
        """This run's positions per second."""
        return self.new_positions / self.seconds if self.seconds > 0 else 0.0

    @property
    def nodes_per_second(self) -> float:
        """This run's nodes per second, all workers together."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def _opening_fen(opening: BoardOrFen) -> str:
    if isinstance(opening, chess.Board):
        if opening.chess960 or opening.status() & chess.STATUS_BAD_CASTLING_RIGHTS:
            raise ValueError(f"datagen plays standard chess: Chess960 opening {opening.fen()!r} refused")
        return opening.fen()
    if isinstance(opening, str):
        return opening
    raise TypeError(f"an opening must be a FEN string or a chess.Board, got {type(opening).__name__}")


def generate(
    path: str | os.PathLike[str],
    *,
    games: int,
    seed: int = 0,
    workers: int | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    random_plies: int | None = None,
    openings: Iterable[BoardOrFen] | None = None,
    hash_mb: int | None = None,
    win_score: int | None = None,
    win_plies: int | None = None,
    draw_score: int | None = None,
    draw_plies: int | None = None,
    draw_after: int | None = None,
    max_plies: int | None = None,
    eval_file: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    backend: str = "local",
) -> Summary:
    """Plays games ``0 … games - 1`` against itself and writes every searched position to *path*,
    creating the file or resuming it after its last whole game (with the same *seed* and settings
    only: anything else is a :exc:`camelpy.errors.DataFileError` naming what differs).

    *workers* threads play (default: one per CPU); each move is searched to *nodes* (default
    ``DEFAULTS["nodes"]``, unless only *depth* is given) and/or *depth*. Game *i* starts from
    ``openings[i % len(openings)]`` (FENs or boards, standard chess; default the start position), then
    *random_plies* random legal moves drawn from a generator seeded by ``(seed, i)``; those positions are
    not kept. Win adjudication: ``|score|`` ≥ *win_score* for *win_plies* searches in a row, both sides
    agreeing; draw: ``|score|`` ≤ *draw_score* for *draw_plies* searches from ply *draw_after*; a game
    reaching *max_plies* is a draw. Unset values are :data:`DEFAULTS`. With *eval_file*, the searches
    evaluate with that network (``camelpy train`` writes one) instead of the classical evaluation: a
    network's own games are the data for the next network. Its checksum is part of the settings, so a
    file is resumed only with the network that began it.

    *progress(games, positions, seconds)* is called on this thread when the run starts, about every
    0.25 s and at the end. Ctrl-C lets the games in progress finish, writes them, then raises
    :exc:`KeyboardInterrupt`; running the same call again completes the file.

    With ``backend="ray"`` the games are played on the Ray cluster this process is connected to
    (:func:`camelpy.cluster.connect`; a local one is started if none is), in tasks of
    :data:`GAMES_PER_TASK` games, *workers* tasks at once (default: the cluster's CPUs), and this
    process writes them in order: the file is the same, byte for byte, as a local run's, whatever the
    cluster's size, and it resumes either way. A task whose worker dies is played again; Ctrl-C
    cancels the tasks running, keeps every game written, and raises :exc:`KeyboardInterrupt`. Every
    node needs camelpy (and *eval_file* at the same path).

    :raises: :exc:`ValueError` for a setting out of range or a bad opening (a bad FEN, Chess960, a game
        already over), :exc:`TypeError` for a setting that is not an integer,
        :exc:`camelpy.errors.DataFileError` for a file that is not a data file or does not match,
        :exc:`OSError` when the file cannot be written (or *eval_file* read), :exc:`MemoryError` when the
        workers' tables cannot be allocated, :exc:`camelpy.errors.NetworkFileError` for an *eval_file*
        that is not a usable network.
    """
    fens = None if openings is None else [_opening_fen(o) for o in openings]
    settings: dict[str, Any] = {
        "nodes": nodes,
        "depth": depth,
        "random_plies": random_plies,
        "openings": fens,
        "hash_mb": hash_mb,
        "win_score": win_score,
        "win_plies": win_plies,
        "draw_score": draw_score,
        "draw_plies": draw_plies,
        "draw_after": draw_after,
        "max_plies": max_plies,
        "eval_file": None if eval_file is None else os.fspath(eval_file),
    }
    if cluster.check_backend(backend) == "ray":
        return _generate_on_ray(path, games, seed, workers, settings, progress)
    raw = _core.datagen(path, games=games, seed=seed, workers=workers, progress=progress, **settings)
    total, positions, new_games, new_positions, nodes_searched, seconds, stopped, results, ends = raw
    black, drawn, white = results
    return Summary(
        games=total,
        positions=positions,
        new_games=new_games,
        new_positions=new_positions,
        nodes=nodes_searched,
        seconds=seconds,
        stopped=stopped,
        white_wins=white,
        draws=drawn,
        black_wins=black,
        ends=dict(ends),
    )


Shard = tuple[bytes, int, tuple[int, int, int], list[tuple[str, int]]]
"""A shard of games: packed records, nodes, results (Black won, draws, White won), games by end."""

GAMES_PER_TASK = 16
"""Games in one cluster task of ``generate(..., backend="ray")``: about 5 s of play at 5,000 nodes per
move, long against Ray's few milliseconds per task, short enough that a lost worker costs little."""


def play_shard(first: int, count: int, seed: int, settings: dict[str, Any]) -> Shard:
    """Games ``first .. first + count - 1`` of a run, on one thread, as packed records with their
    nodes, results and ends (``_core.datagen_games``): a cluster's task."""
    return _core.datagen_games(first=first, count=count, seed=seed, workers=1, **settings)


def _generate_on_ray(
    path: str | os.PathLike[str],
    games: int,
    seed: int,
    workers: int | None,
    settings: dict[str, Any],
    progress: ProgressCallback | None,
) -> Summary:
    """:func:`generate` with shards of :data:`GAMES_PER_TASK` games played as Ray tasks and written in
    order by this process: the same file as a local run."""
    int_arg(games, "games", 0)
    if workers is not None:
        int_arg(workers, "workers", 1, _core.MAX_THREADS)
    ray = cluster.connect(what="datagen on Ray")
    started = time.perf_counter()
    writer = _core.DataWriter(path, seed=seed, **settings)
    first_games, first_positions = writer.games, writer.records
    pool: cluster.TaskPool[int] = cluster.TaskPool(ray, play_shard, workers or cluster.cluster_cpus(ray))
    # Shards that finished before the one to write next wait here; at most this many games ahead.
    window = 2 * pool.limit * GAMES_PER_TASK
    held: dict[int, Shard] = {}
    next_shard = next_write = first_games
    nodes, results, ends = 0, [0, 0, 0], dict[str, int]()

    def report() -> None:
        if progress is not None:
            progress(writer.games, writer.records, time.perf_counter() - started)

    report()
    try:
        while next_write < games:
            while next_shard < min(games, next_write + window) and not pool.full:
                count = min(GAMES_PER_TASK, games - next_shard)
                pool.submit(next_shard, next_shard, count, seed, settings)
                next_shard += count
            first, shard = pool.next()
            held[first] = shard
            while next_write in held:
                data, shard_nodes, shard_results, shard_ends = held.pop(next_write)
                next_write += writer.write(data)
                nodes += shard_nodes
                results = [a + b for a, b in zip(results, shard_results)]
                for end, n in shard_ends:
                    ends[end] = ends.get(end, 0) + n
            report()
    finally:
        pool.cancel()
    black, drawn, white = results
    return Summary(
        games=writer.games,
        positions=writer.records,
        new_games=writer.games - first_games,
        new_positions=writer.records - first_positions,
        nodes=nodes,
        seconds=time.perf_counter() - started,
        stopped=False,
        white_wins=white,
        draws=drawn,
        black_wins=black,
        ends=ends,
    )


def info(path: str | os.PathLike[str]) -> DataInfo:
    """The seed, settings digest and number of positions of the data file at *path* (only the header is
    read).

    :raises: :exc:`camelpy.errors.DataFileError` for a file that is not a data file (or ends inside a
        record), :exc:`OSError` for one that cannot be read.
    """
    seed, digest, records = _core.data_info(path)
    return DataInfo(seed, digest, records)


def read(
    path: str | os.PathLike[str],
    *,
    skip_in_check: bool = False,
    skip_noisy: bool = False,
    quiet_margin: int | None = None,
    start: int = 0,
) -> Iterator[Sample]:
    """The positions of the data file at *path*, from the *start*-th, as :class:`Sample` objects,
    read in batches (a file of any size streams). *skip_in_check* drops positions whose side to move is
    in check, *skip_noisy* those whose best move captures or promotes, *quiet_margin* those whose
    static evaluation is more than that many centipawns from the quiescence score (and those in check).

    :raises: :exc:`camelpy.errors.DataFileError` for a file that is not a data file or holds a damaged
        record (named by its index), :exc:`OSError` for one that cannot be read.
    """
    index = start
    while True:
        entries, scanned = _core.read_records(
            path,
            index,
            READ_BATCH,
            skip_in_check=skip_in_check,
            skip_noisy=skip_noisy,
            quiet_margin=quiet_margin,
        )
        for fen, score, move, result in entries:
            yield Sample(chess.Board(fen), score, chess.Move.from_uci(move), result)
        if scanned < READ_BATCH:
            return
        index += scanned


def export_text(path: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Writes the text export of the data file at *path* to *out*, one ``FEN | score | result`` line
    per position (score from the side to move's view, result 1.0/0.5/0.0 from White's); returns the
    number of lines.

    :raises: as :func:`read`, and :exc:`OSError` when *out* cannot be written.
    """
    return _core.export_text(path, out)


def decode_move(raw: int) -> chess.Move:
    """A best move as a record stores it (the core's 16-bit encoding: from, to, promotion, kind; castling
    as king takes rook) as a standard ``chess.Move``.

    >>> e2e4, castle, promote = 12 | 28 << 6, 4 | 7 << 6 | 3 << 14, 52 | 60 << 6 | 3 << 12 | 1 << 14
    >>> decode_move(e2e4), decode_move(castle), decode_move(promote)
    (Move.from_uci('e2e4'), Move.from_uci('e1g1'), Move.from_uci('e7e8q'))
    """
    from_square, to_square = raw & 63, raw >> 6 & 63
    kind = raw >> 14
    if kind == 3:  # castling: the king goes to the g- or c-file
        file = 6 if chess.square_file(to_square) > chess.square_file(from_square) else 2
        return chess.Move(from_square, chess.square(file, chess.square_rank(from_square)))
    promotion = (raw >> 12 & 3) + chess.KNIGHT if kind == 1 else None
    return chess.Move(from_square, to_square, promotion)


RECORD_DTYPE_FIELDS: list[tuple[str, str] | tuple[str, str, tuple[int, ...]]] = [
    ("occupancy", "<u8"),
    ("pieces", "u1", (16,)),
    ("castling", "u1"),
    ("flags", "u1"),
    ("clocks", "<u2"),
    ("score", "<i2"),
    ("best_move", "<u2"),
]
"""The record layout as a numpy structured dtype description (``numpy.dtype(RECORD_DTYPE_FIELDS)``,
32 bytes): what :func:`to_numpy` reads with ``raw=True``."""


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError as err:
        raise ImportError("camelpy.data.to_numpy needs numpy: pip install 'camelpy[numpy]'") from err


def to_numpy(path: str | os.PathLike[str], *, raw: bool = False) -> numpy.typing.NDArray[numpy.void]:
    """The whole data file at *path* as one numpy structured array, one row per position.

    Fields: ``board`` (64 × int8 by square, a1 = 0: -1 empty, White pawn … king 0 … 5, Black's 8 …
    13), ``turn`` (True: White to move), ``castling`` (bits: White O-O, O-O-O, Black O-O, O-O-O),
    ``ep_file`` (-1: none), ``halfmove_clock``, ``fullmove_number``, ``score`` (side to move's view),
    ``best_move`` (the 16-bit encoding, see :func:`decode_move`), ``result`` (White's view, 1.0 / 0.5
    / 0.0), ``last`` (last position of its game), ``in_check``, ``noisy`` (best move captures or
    promotes). With *raw*, the records as stored (:data:`RECORD_DTYPE_FIELDS`).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "games.bin")
    >>> _ = generate(path, games=1, seed=3, nodes=300)
    >>> rows = to_numpy(path)
    >>> pieces = (rows["board"] >= 0).sum(axis=1)
    >>> len(rows) == info(path).records, int(rows["last"].sum()), int(pieces.max()) <= 32
    (True, 1, True)
    >>> sample = next(read(path))
    >>> decode_move(int(rows["best_move"][0])) == sample.best_move, int(rows["score"][0]) == sample.score
    (True, True)

    :raises: :exc:`ImportError` without numpy, otherwise as :func:`info`.
    """
    np = _numpy()
    records = info(path).records
    stored = np.fromfile(os.fspath(path), dtype=np.dtype(RECORD_DTYPE_FIELDS), count=records, offset=32)
    if raw:
        return stored  # type: ignore[no-any-return]
    out = np.zeros(
        records,
        dtype=[
            ("board", "i1", (64,)),
            ("turn", "?"),
            ("castling", "u1"),
            ("ep_file", "i1"),
            ("halfmove_clock", "u1"),
            ("fullmove_number", "<u2"),
            ("score", "<i2"),
            ("best_move", "<u2"),
            ("result", "<f4"),
            ("last", "?"),
            ("in_check", "?"),
            ("noisy", "?"),
        ],
    )
    # The board: the k-th occupied square (ascending) holds the k-th 4-bit code.
    occupied = (stored["occupancy"][:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    occupied = occupied.astype(bool)
    pieces = stored["pieces"]
    codes = np.empty((records, 32), dtype=np.int8)
    codes[:, 0::2] = pieces & 0xF
    codes[:, 1::2] = pieces >> 4
    rank = np.clip(np.cumsum(occupied, axis=1) - 1, 0, 31)
    out["board"] = np.where(occupied, np.take_along_axis(codes, rank, axis=1), -1)
    flags = stored["flags"]
    castling = stored["castling"]
    out["turn"] = (flags & 1) == 0
    out["castling"] = castling & 0xF
    out["ep_file"] = np.where(castling & 0x80, (castling >> 4) & 7, -1)
    out["halfmove_clock"] = stored["clocks"] & 0x7F
    out["fullmove_number"] = stored["clocks"] >> 7
    out["score"] = stored["score"]
    out["best_move"] = stored["best_move"]
    out["result"] = ((flags >> 1) & 3) / 2
    out["last"] = (flags & 8) != 0
    out["in_check"] = (flags & 16) != 0
    out["noisy"] = (flags & 32) != 0
    return out  # type: ignore[no-any-return]

# Stubs for the native module camelpy._core (checked by tests/test_stubs.py with mypy.stubtest).
import os
from typing import Any, Callable, Final, Literal, final

import chess

__version__: str
build_profile: Literal["release", "debug"]
slider_lookup: Literal["pext", "magic"]
STARTING_FEN: str
BENCH_FENS: list[str]
MAX_HASH_MB: int
DEFAULT_HASH_MB: int
MAX_THREADS: int
MAX_MULTIPV: int
BATCH_HASH_MB: int
MAX_SEARCH_DEPTH: int
MAX_BENCH_DEPTH: int
MAX_PERFT_DEPTH: int
DATAGEN_DEFAULTS: dict[str, int]
MINICHESS_START: str
MINICHESS_MAX_PLIES: int

def default_threads() -> int: ...

@final
class Position:
    def __new__(cls, fen: str = ..., chess960: bool = False) -> Position: ...
    @staticmethod
    def from_board(board: chess.Board) -> Position: ...
    def to_board(self) -> chess.Board: ...
    def fen(self, *, shredder: bool = False) -> str: ...
    def legal_moves(self) -> list[chess.Move]: ...
    def push(self, mv: chess.Move | str) -> None: ...
    def pop(self) -> chess.Move: ...
    @property
    def move_stack(self) -> list[chess.Move]: ...
    @property
    def turn(self) -> bool: ...
    @property
    def chess960(self) -> bool: ...
    @property
    def zobrist_key(self) -> int: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_repetition(self, count: int | None = None) -> bool: ...
    def is_game_over(self) -> bool: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def _restore_position(root_fen: str, chess960: bool, moves: list[str]) -> Position: ...
def perft(fen: str, depth: int, chess960: bool = False) -> int: ...
def divide(fen: str, depth: int, chess960: bool = False) -> list[tuple[chess.Move, int]]: ...

# MiniChess (camelpy.minichess wraps these). Moves are (from_row, from_col, to_row, to_col).
_MiniMove = tuple[int, int, int, int]

@final
class MiniBoard:
    def __new__(cls, text: str = ...) -> MiniBoard: ...
    @staticmethod
    def from_state(text: str, ply: int) -> MiniBoard: ...
    def text(self) -> str: ...
    def state(self) -> str: ...
    def legal_moves(self) -> list[_MiniMove]: ...
    def push(self, mv: _MiniMove) -> None: ...
    def pop(self) -> _MiniMove: ...
    def move_stack(self) -> list[_MiniMove]: ...
    @property
    def turn(self) -> bool: ...
    @property
    def ply(self) -> int: ...
    @property
    def zobrist_key(self) -> int: ...
    def outcome(self) -> tuple[str, bool | None] | None: ...
    def material(self, white: bool) -> int: ...
    def piece_at(self, row: int, col: int) -> str | None: ...
    def copy(self) -> MiniBoard: ...

def minichess_perft(board: MiniBoard, depth: int) -> int: ...

# (depth, cp, win_in, nodes, seconds, pv)
_MiniIteration = tuple[int, int | None, int | None, int, float, list[_MiniMove]]

@final
class MiniSearcher:
    def __new__(cls, hash_mb: int | None = ...) -> MiniSearcher: ...
    def clear(self) -> None: ...
    @property
    def weights(self) -> list[int]: ...
    @weights.setter
    def weights(self, weights: list[int]) -> None: ...
    def search(
        self,
        board: MiniBoard,
        depth: int | None = ...,
        nodes: int | None = ...,
        time: float | None = ...,
        on_iteration: Callable[[_MiniIteration], object] | None = ...,
    ) -> tuple[_MiniMove | None, _MiniIteration]: ...

def minichess_baseline(
    board: MiniBoard,
    kind: str,
    time: float,
    seed: int,
    on_iteration: Callable[[_MiniMove, int], object] | None = ...,
) -> _MiniMove | None: ...
def minichess_evaluate(
    board: MiniBoard, weights: list[int] | None = ...
) -> tuple[int, list[tuple[str, int, int]]]: ...
def minichess_selfplay(
    games: int, nodes: int, random_plies: int, seed: int, threads: int, weights: list[int] | None = ...
) -> tuple[list[list[int]], list[int], list[bool], list[float]]: ...
def minichess_compare(
    a: list[int],
    b: list[int],
    pairs: int,
    nodes: int,
    random_plies: int,
    seed: int,
    threads: int,
) -> list[tuple[float, float]]: ...

MINICHESS_WEIGHTS: list[tuple[str, int, str]]

@final
class IterationInfo:
    depth: Final[int]
    seldepth: Final[int]
    multipv: Final[int]
    cp: Final[int | None]
    mate: Final[int | None]
    bound: Final[Literal["exact", "lower", "upper"]]
    nodes: Final[int]
    time_ms: Final[int]
    hashfull: Final[int]
    pv: Final[list[str]]
    def __new__(
        cls,
        *,
        depth: int,
        seldepth: int,
        multipv: int,
        cp: int | None = None,
        mate: int | None = None,
        bound: str = "exact",
        nodes: int = 0,
        time_ms: int = 0,
        hashfull: int = 0,
        pv: list[str] = ...,
    ) -> IterationInfo: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class CurrMoveInfo:
    depth: Final[int]
    currmove: Final[str]
    currmovenumber: Final[int]
    nodes: Final[int]
    time_ms: Final[int]
    def __new__(
        cls, *, depth: int, currmove: str, currmovenumber: int, nodes: int = 0, time_ms: int = 0
    ) -> CurrMoveInfo: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class SearchOutcome:
    best_move: Final[str | None]
    ponder: Final[str | None]
    info: Final[IterationInfo]
    lines: Final[list[IterationInfo]]
    def __new__(
        cls, *, best_move: str | None, ponder: str | None, info: IterationInfo, lines: list[IterationInfo]
    ) -> SearchOutcome: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class Engine:
    def __new__(cls, hash_mb: int | None = None, threads: int | None = None) -> Engine: ...
    def resize(self, hash_mb: int) -> None: ...
    @property
    def hash_mb(self) -> int: ...
    def set_threads(self, threads: int) -> None: ...
    @property
    def threads(self) -> int: ...
    def search(
        self,
        fen: str,
        moves: list[str],
        chess960: bool,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        ms: int | None = None,
        soft_ms: int | None = None,
        hard_ms: int | None = None,
        mate: int | None = None,
        searchmoves: list[str] = ...,
        multipv: int | None = None,
        info: Callable[[IterationInfo | CurrMoveInfo], object] | None = None,
    ) -> SearchOutcome: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def clear_hash(self) -> None: ...
    def evaluate(self, fen: str, moves: list[str], chess960: bool) -> int: ...
    def eval_trace(self, fen: str, moves: list[str], chess960: bool) -> str: ...
    def params(self) -> list[tuple[str, int, int, int]]: ...
    def set_param(self, name: str, value: int) -> None: ...
    def search_params(self) -> list[tuple[str, int, int, int]]: ...
    def set_search_param(self, name: str, value: int) -> None: ...
    def set_eval_file(self, path: str | None) -> None: ...
    @property
    def eval_file(self) -> str | None: ...
    @property
    def eval_hash(self) -> int | None: ...

def bench(depth: int | None = None) -> tuple[int, int]: ...
def default_params() -> list[tuple[str, int, int, int]]: ...
def default_search_params() -> list[tuple[str, int, int, int]]: ...
def linearize(
    items: list[tuple[str, list[str], bool]],
    *,
    params: list[tuple[str, int]] | None = None,
    threads: int | None = None,
) -> tuple[bytes, bytes]: ...
def linearize_file(
    path: str | os.PathLike[str],
    *,
    params: list[tuple[str, int]] | None = None,
    threads: int | None = None,
    skip_in_check: bool = True,
    skip_noisy: bool = True,
    quiet_margin: int | None = None,
    every: int | None = None,
    limit: int | None = None,
) -> tuple[bytes, bytes, bytes, bytes]: ...
def analyse_many(
    items: list[tuple[str, list[str], bool]],
    *,
    depth: int | None = None,
    nodes: int | None = None,
    ms: int | None = None,
    mate: int | None = None,
    threads: int | None = None,
    hash_mb: int | None = None,
    params: list[tuple[str, int]] | None = None,
    search_params: list[tuple[str, int]] | None = None,
    eval_file: str | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> list[SearchOutcome | Exception]: ...
def datagen(
    path: str | os.PathLike[str],
    *,
    games: int,
    seed: int | None = None,
    workers: int | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    random_plies: int | None = None,
    openings: list[str] | None = None,
    hash_mb: int | None = None,
    win_score: int | None = None,
    win_plies: int | None = None,
    draw_score: int | None = None,
    draw_plies: int | None = None,
    draw_after: int | None = None,
    max_plies: int | None = None,
    eval_file: str | None = None,
    progress: Callable[[int, int, float], object] | None = None,
) -> tuple[int, int, int, int, int, float, bool, tuple[int, int, int], list[tuple[str, int]]]: ...

NET_HIDDEN: int

def train(
    paths: list[str],
    out_dir: str,
    *,
    epochs: int,
    batch_size: int,
    lr: float,
    final_lr_share: float,
    wdl: float,
    threads: int,
    seed: int,
    valid_permille: int,
    skip_in_check: bool,
    skip_noisy: bool,
    max_score: int,
    max_positions: int | None = None,
    resume: bool = False,
    progress: Callable[[str, tuple[Any, ...]], object] | None = None,
) -> tuple[list[tuple[int, float, float, float, float]], bool, int, int, int]: ...
def read_records(
    path: str | os.PathLike[str],
    start: int,
    count: int,
    *,
    skip_in_check: bool = False,
    skip_noisy: bool = False,
    quiet_margin: int | None = None,
) -> tuple[list[tuple[str, int, str, float]], int]: ...
def data_info(path: str | os.PathLike[str]) -> tuple[int, int, int]: ...
def export_text(path: str | os.PathLike[str], out: str | os.PathLike[str]) -> int: ...

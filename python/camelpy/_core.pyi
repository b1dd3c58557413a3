# Stubs for the native module camelpy._core (checked by tests/test_stubs.py with mypy.stubtest).
import os
from collections.abc import Sequence
from typing import Any, Callable, Final, Generic, Literal, Protocol, TypedDict, TypeVar, final

import chess
from typing_extensions import Self, Unpack

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
MAX_THREATS: int
MAX_ASPIRATION: int
SEARCH_SETTINGS: list[tuple[str, int]]
MAX_BENCH_DEPTH: int
MAX_PERFT_DEPTH: int
DATAGEN_DEFAULTS: dict[str, int]
MINICHESS_START: str
MINICHESS_MAX_PLIES: int

def default_threads() -> int: ...

class _StopEvent(Protocol):
    # What a long count's ``stop=`` takes: a threading.Event, or anything with is_set().
    def is_set(self) -> bool: ...

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
def perft(fen: str, depth: int, chess960: bool = False, *, stop: _StopEvent | None = None) -> int: ...
def divide(
    fen: str, depth: int, chess960: bool = False, *, stop: _StopEvent | None = None
) -> list[tuple[chess.Move, int]]: ...

# The small games (camelpy.games and its game modules wrap these): each game's board and searcher class
# has the methods of _GameBoard / _GameSearcher (generated once, in rust/py/src/games.rs) and its own.
_M = TypeVar("_M")

@final
class GameIteration:
    depth: Final[int]
    score: Final[int | None]
    mate: Final[int | None]
    nodes: Final[int]
    seconds: Final[float]
    pv: Final[list[str]]
    def __new__(
        cls, depth: int, score: int | None, mate: int | None, nodes: int, seconds: float, pv: list[str]
    ) -> GameIteration: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

class _GameBoard(Generic[_M]):
    def fen(self) -> str: ...
    def root_fen(self) -> str: ...
    def legal_moves(self) -> list[_M]: ...
    def push(self, mv: _M) -> None: ...
    def pop(self) -> _M: ...
    def move_stack(self) -> list[_M]: ...
    @property
    def turn(self) -> bool: ...
    @property
    def zobrist_key(self) -> int: ...
    def outcome(self) -> tuple[str, bool | None] | None: ...
    def copy(self) -> Self: ...
    def perft(self, depth: int, *, stop: _StopEvent | None = None) -> int: ...
    def evaluate(self, weights: Sequence[int] | None = None) -> tuple[int, list[int]]: ...

_B = TypeVar("_B", bound=_GameBoard[Any])

class _GameSearcher(Generic[_B]):
    def __new__(cls, hash_mb: int | None = None) -> Self: ...
    def clear(self) -> None: ...
    def threads(self) -> int: ...
    def set_threads(self, threads: int) -> None: ...
    def weights(self) -> list[int]: ...
    def set_weights(self, weights: Sequence[int]) -> None: ...
    def setting(self, name: str) -> int: ...
    @staticmethod
    def default_setting(name: str) -> int: ...
    def set_setting(self, name: str, value: int) -> None: ...
    def stop(self) -> None: ...
    def search(
        self,
        board: _B,
        depth: int | None,
        nodes: int | None,
        time: float | None,
        on_iteration: Callable[[GameIteration], object] | None,
        soft_time: float | None,
        min_depth: int | None,
    ) -> tuple[str | None, GameIteration]: ...
    @staticmethod
    def selfplay(
        games: int,
        weights: Sequence[int] | None,
        nodes: int,
        random_plies: int,
        seed: int,
        threads: int,
        rules: int | None = None,
    ) -> tuple[list[list[int]], list[int] | None, list[bool], list[float]]: ...
    @staticmethod
    def compare(
        a: Sequence[int],
        b: Sequence[int],
        pairs: int,
        nodes: int,
        random_plies: int,
        seed: int,
        threads: int,
        rules: int | None = None,
    ) -> list[tuple[float, float]]: ...

# MiniChess: moves are (from_row, from_col, to_row, to_col).
_MiniMove = tuple[int, int, int, int]

@final
class MiniBoard(_GameBoard[_MiniMove]):
    def __new__(cls, text: str = ...) -> MiniBoard: ...
    @staticmethod
    def from_state(text: str, ply: int) -> MiniBoard: ...
    def state(self) -> str: ...
    @property
    def ply(self) -> int: ...
    def material(self, white: bool) -> int: ...
    def piece_at(self, row: int, col: int) -> str | None: ...

@final
class MiniSearcher(_GameSearcher[MiniBoard]): ...

def minichess_baseline(
    board: MiniBoard,
    kind: str,
    time: float,
    seed: int,
    on_iteration: Callable[[_MiniMove, int], object] | None = ...,
) -> _MiniMove | None: ...

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
    def set_tablebase(self, tablebase: Tablebase | None) -> None: ...
    @property
    def tablebase_path(self) -> str | None: ...

LEISERCHESS_START: str

# Leiserchess: moves are their notation (e6e7, b3R, d5e4f5).
@final
class LeiserBoard(_GameBoard[str]):
    def __new__(cls, fen: str = ..., rules: int | None = None) -> LeiserBoard: ...
    @property
    def rules(self) -> int: ...
    def piece_at(self, square: str) -> str | None: ...
    def laser(self, tangerine: bool) -> tuple[list[str], str, str | None]: ...
    def shots(self, mv: str) -> list[tuple[list[str], str, str | None]]: ...
    def text(self) -> str: ...

@final
class LeiserSearcher(_GameSearcher[LeiserBoard]): ...

LEISERCHESS_WEIGHTS: list[tuple[str, int, int, int, str]]

@final
class Tablebase:
    def __new__(cls, path: str) -> Tablebase: ...
    @property
    def path(self) -> str: ...
    def endings(self) -> list[str]: ...
    def probe(self, fen: str, moves: list[str], chess960: bool) -> tuple[int, int] | None: ...
    def check(self, name: str, threads: int) -> tuple[int, int, int, int, list[str]]: ...

def tb_generate(
    path: str,
    names: list[str] | None,
    threads: int,
    progress: Callable[[str, bool, float, int, int, int], object] | None = None,
) -> list[str]: ...
def bench(depth: int | None = None, *, classical: bool = False) -> tuple[int, int]: ...
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
    tablebases: Tablebase | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> list[SearchOutcome | Exception]: ...

class _DatagenSettings(TypedDict, total=False):
    """The generation settings ``datagen``, ``datagen_games`` and ``DataWriter`` take as keywords."""

    nodes: int | None
    depth: int | None
    random_plies: int | None
    openings: list[str] | None
    hash_mb: int | None
    win_score: int | None
    win_plies: int | None
    draw_score: int | None
    draw_plies: int | None
    draw_after: int | None
    max_plies: int | None
    eval_file: str | None

def datagen(
    path: str | os.PathLike[str],
    *,
    games: int,
    seed: int | None = None,
    workers: int | None = None,
    progress: Callable[[int, int, float], object] | None = None,
    **settings: Unpack[_DatagenSettings],
) -> tuple[int, int, int, int, int, float, bool, tuple[int, int, int], list[tuple[str, int]]]: ...
def datagen_games(
    *,
    first: int,
    count: int,
    seed: int | None = None,
    workers: int | None = None,
    **settings: Unpack[_DatagenSettings],
) -> tuple[bytes, int, tuple[int, int, int], list[tuple[str, int]]]: ...

@final
class DataWriter:
    def __new__(
        cls,
        path: str | os.PathLike[str],
        *,
        seed: int | None = None,
        **settings: Unpack[_DatagenSettings],
    ) -> DataWriter: ...
    @property
    def games(self) -> int: ...
    @property
    def records(self) -> int: ...
    def write(self, data: bytes) -> int: ...

NET_HIDDEN: int
NET_HIDDEN_SIZES: list[int]
NET_MATERIAL_BUCKETS: int
NET_KING_BUCKETS: int
NET_SCALE: int
NET_EMBEDDED: str
NET_BUILT_IN: list[str]

def network_info(path: str) -> tuple[int, int, int, int, str, int]: ...
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
    mirror: bool = True,
    hidden: int = 256,
    output_buckets: int = 1,
    input_buckets: int = 1,
    init: str | None = None,
) -> tuple[
    list[tuple[int, float, float, float, float]], bool, int, int, int, list[tuple[int, int, bool]]
]: ...
def evaluation_loss(
    path: str | os.PathLike[str],
    eval_file: str | None = None,
    *,
    start: int,
    count: int,
    wdl: float,
    scale: float,
    max_score: int,
) -> tuple[float, int]: ...
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

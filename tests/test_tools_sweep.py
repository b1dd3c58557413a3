"""The tools swept with hostile arguments: every public function, class and method of
``camelpy.tools.*``, ``camelpy.timeman`` and ``camelpy.book`` gets, per argument, a huge, negative,
zero, NaN, infinite, wrong-type, empty-string and ``None`` value (and for text a NUL and a megabyte,
for paths a missing file and a directory), the other arguments valid, and each row of the table below
is one test that states what the call must do. :mod:`tests.test_api_sweep` does the same for
``camelpy``, ``Engine``, ``Position`` and the batch.

The rule, the same as the core's (``camelpy._args`` and ``rust/py/src/args.rs`` write the messages):

* a value out of range (an integer, a number, a string that is not one of the choices, a path that
  cannot be read) is a :exc:`ValueError` (or its subclass the tool documents) naming the argument and
  showing the value, strings quoted and cut by :func:`camelpy._quote.quote`;
* a value of the wrong type (a float or ``True`` for an integer, a number for a string, a string for a
  list) is a :exc:`TypeError`;
* ``None`` means "not given" where the argument is optional, and is a :exc:`TypeError` where it is not;
* text read from a file or a command line (engine words, ``key=value`` settings, TOML configs, game
  records) is data, not code: whatever is wrong with it is a :exc:`ValueError` quoting it;
* flags (``chess960``, ``quiet``, ``resign_twosided``, ``dynamic``) take Python truthiness, as the
  core's ``chess960`` does, so they are not swept.

Never an ``OverflowError``, ``ZeroDivisionError``, ``IndexError``, ``KeyError``, ``AttributeError``,
``RecursionError``, a panic, an abort, a hang or a message of more than one line: each call runs under
:func:`tests.conftest.call_no_panic` in a worker thread with a time limit.

Left out, because they need real engine processes or long runs: :class:`UciPlayer`,
:func:`~camelpy.arena.referee.play_game` and the games of ``run_match``/``run_tournament``/
``run_schedule`` (their arguments are swept up to the engine start: a row that reaches it gets
:exc:`EngineStartError` from a missing program), ``bench_lines(None)`` (the signature bench, seconds
long), the CLI plumbing (``add_arguments``/``main``/``report``/``run_suite_cli``/``print_divide``,
covered by the CLI tests) and the display :class:`~camelpy.arena.runner.Progress`.

``python -m tests.test_tools_sweep`` prints the table as it runs now, one line per argument
(``--messages``: one line per row, with the message each call gets).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import os
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Protocol

import chess
import pytest
from camelpy import book as polyglot
from camelpy import timeman
from camelpy._quote import quote
from camelpy.arena import engines, match, openings, ratings, runner, stats, tournament
from camelpy.arena.engines import EngineConfig, EngineStartError
from camelpy.arena.openings import Opening
from camelpy.arena.referee import Adjudication, GameRecord, MoveRecord
from camelpy.tools.chess import bench, epd, perft
from camelpy.tools.chess import book as tools_book

from tests.conftest import DATA_DIR, call_no_panic

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

OK = "ok"
V, T = ValueError, TypeError
STARTS = EngineStartError
"""The arguments were accepted and the run reached the engine start (the program does not exist)."""

CALL_TIMEOUT_S = 30.0
"""A call still running after this long is a hang."""

HUGE = 10**30
LONG = "x" * 2**20
"""A megabyte of text."""


@dataclasses.dataclass(frozen=True)
class Returns:
    """The call must return this value."""

    value: object


# --- the hostile values -------------------------------------------------------------------------

NUMBERS: dict[str, Any] = {
    "huge": HUGE,
    "negative": -5,
    "zero": 0,
    "nan": math.nan,
    "inf": math.inf,
    "float": 1.0,
    "string": "x",
    "empty": "",
    "bool": True,
    "none": None,
}
TEXT = {**NUMBERS, "nul": "\x00", "long": LONG}
MISSING = str(DATA_DIR / "no-such-file")
PATHS = {**TEXT, "missing": MISSING, "dir": str(DATA_DIR)}
WRITE_PATHS = {**TEXT, "missing": "new/folder", "dir": ".", "file": "a-file.txt"}
"""Paths to write to, relative to a fresh scratch folder the call runs in (``a-file.txt`` is a file
there, ``.`` the folder itself)."""
WORDS = {
    "huge": str(HUGE),
    "negative": "-5",
    "zero": "0",
    "nan": "nan",
    "inf": "inf",
    "float": "1.0",
    "string": "x",
    "empty": "",
    "nul": "\x00",
}
"""The values as text, for ``key=value`` words."""
TOML = {
    **{k: v for k, v in WORDS.items() if k not in ("string", "empty", "nul")},
    "string": '"x"',
    "empty": '""',
    "bool": "true",
}
"""The values as TOML literals, for config files (TOML has no null: a missing key is the default)."""


# What an argument of each kind gets, before the per-row exceptions.
INT: dict[str, object] = {
    "huge": V,
    "negative": V,
    "zero": V,
    "nan": T,
    "inf": T,
    "float": T,
    "string": T,
    "empty": T,
    "bool": T,
    "none": T,
}
REAL: dict[str, object] = {
    "huge": OK,
    "negative": OK,
    "zero": OK,
    "nan": V,
    "inf": V,
    "float": OK,
    "string": T,
    "empty": T,
    "bool": T,
    "none": T,
}
STR: dict[str, object] = {**{k: T for k in NUMBERS}, "string": OK, "empty": OK, "nul": OK, "long": OK}
OBJ: dict[str, object] = {k: T for k in TEXT}
"""A value that must be of one class (a board, a config, a list): everything else is a TypeError."""
READ: dict[str, object] = {
    **{k: T for k in NUMBERS},
    **{k: V for k in ("string", "empty", "nul", "long", "missing", "dir")},
}
DATA: dict[str, object] = {k: V for k in TOML}
"""Text from a file or a command line: whatever is wrong with it is a ValueError."""


def _exp(base: Mapping[str, object], **over: object) -> dict[str, object]:
    """*base* with the exceptions *over* (which may add values of their own)."""
    return {**base, **over}


# --- fixtures the rows share --------------------------------------------------------------------

_TMP = tempfile.TemporaryDirectory(prefix="camelpy-sweep-")
TMP = Path(_TMP.name)
FEN = chess.STARTING_FEN
PENTA = (5, 10, 20, 10, 5)
GAMES = [("a", "b", 1.0), ("a", "b", 0.0), ("a", "b", 0.5)]
PERFT_LINE = "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9"
EPD_LINE = '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "mate1";'
EPD_START = FEN.rsplit(" ", 2)[0]
(TMP / "openings.pgn").write_text("1. e4 e5 2. Nf3 *\n\n1. d4 d5 *\n", encoding="utf-8")
E2E4 = chess.Move.from_uci("e2e4")
polyglot.write_book(TMP / "book.bin", [(chess.Board(), E2E4, 1)])
CASE = perft.parse_suite_line(PERFT_LINE)
SUITE = epd.parse_epd_lines([EPD_LINE])
BOOK = [Opening(), Opening(moves=("e2e4",))]
ENGINE_A = EngineConfig(("/nonexistent/camelpy-sweep-a",), nodes=1)
ENGINE_B = EngineConfig(("/nonexistent/camelpy-sweep-b",), nodes=1)
RECORDS = [
    GameRecord("new", "old", Opening(), "1-0", "checkmate", "", (MoveRecord("e2e4"),), pair=0, game=0),
    GameRecord("old", "new", Opening(), "1/2-1/2", "stalemate", "", pair=0, game=1),
]
RECORD = RECORDS[0]
PLAYERS = """
[[players]]
name = "a"
cmd = "/nonexistent/camelpy-sweep-a"
nodes = 100
[[players]]
name = "b"
cmd = "/nonexistent/camelpy-sweep-b"
nodes = 100
"""
CONFIG = tournament.parse_config(PLAYERS)
SPEC = runner.GameSpec(0, 0, 0, 1, Opening())


def _scratch(call: Callable[[], object]) -> object:
    """*call* run in a fresh scratch folder holding a file ``a-file.txt`` (relative paths land there)."""
    folder = tempfile.mkdtemp(dir=TMP)
    Path(folder, "a-file.txt").write_text("not a folder\n", encoding="utf-8")
    previous = os.getcwd()
    os.chdir(folder)
    try:
        return call()
    finally:
        os.chdir(previous)


def _quiet(call: Callable[[], object]) -> object:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return call()


def _game(score: object = 1.0, player: object = "a") -> list[tuple[Any, Any, Any]]:
    return [(player, "b", score), *GAMES[1:]]


def _record_json(key: str, value: object) -> dict[str, Any]:
    return {**RECORD.to_json(), key: value}


def _toml(key: str, literal: str) -> str:
    """A config setting *key* (``table.key`` for a table's) to *literal*."""
    if "." in key:
        table, name = key.split(".")
        extra = 'file = "openings.pgn"\n' if table == "openings" else ""
        return f"[{table}]\n{extra}{name} = {literal}\n{PLAYERS}"
    return f"{key} = {literal}\n{PLAYERS}"


# --- the table ----------------------------------------------------------------------------------


class Call(Protocol):
    """A row's call: one value in, anything out. (A protocol rather than ``Callable[[Any], object]``,
    so that mypy accepts the lambdas that bind a loop variable as a default argument.)"""

    def __call__(self, value: Any, /) -> object: ...


# (call name, the call, the value's name, the value, what must happen, what the call sees)
ROWS: list[tuple[str, Call, str, Any, object, Any]] = []


def _rows(
    name: str, call: Call, values: Mapping[str, Any], expected: Mapping[str, object], seen: Any = None
) -> None:
    """One row per value; *seen* turns a value into what the message must show (``None``: itself)."""
    assert set(values) <= set(expected), (name, set(values) - set(expected))
    for value_name, value in values.items():
        shown = seen(value) if seen is not None else value
        ROWS.append((name, call, value_name, value, expected[value_name], shown))


def _toml_value(literal: str) -> object:
    return tomllib.loads(f"v = {literal}")["v"]


# stats
_rows("stats.score_from_elo(elo)", stats.score_from_elo, NUMBERS, _exp(REAL, inf=OK))
_rows("stats.elo_from_score(score)", stats.elo_from_score, NUMBERS, _exp(REAL, inf=OK))
for _fn in (stats.elo_estimate, stats.los, stats.normalized_elo):
    _rows(f"stats.{_fn.__name__}(results)", _fn, NUMBERS, _exp(OBJ))
    _rows(
        f"stats.{_fn.__name__}(results[0])",
        lambda v, fn=_fn: fn((v, 20, 30)),
        NUMBERS,
        _exp(REAL, negative=V, inf=V),
    )
_rows("stats.pentanomial(pair_scores)", stats.pentanomial, NUMBERS, _exp(OBJ))
_rows(
    "stats.pentanomial(pair_scores[0])",
    lambda v: stats.pentanomial([v]),
    NUMBERS,
    _exp(REAL, huge=V, negative=V),
)
for _llr in (stats.llr_logistic, stats.llr_normalized, stats.llr_normalized_approx):
    _fname = _llr.__name__
    _a, _b = ("elo0", "elo1") if _llr is stats.llr_logistic else ("nelo0", "nelo1")
    # An Elo so large that no result has its expected score (or t-value) is a domain error, except in
    # the closed-form approximation.
    _far = _exp(REAL, huge=OK if _llr is stats.llr_normalized_approx else V)
    _rows(f"stats.{_fname}({_a})", lambda v, fn=_llr: fn(v, 5, PENTA), NUMBERS, _far)
    _rows(f"stats.{_fname}({_b})", lambda v, fn=_llr: fn(0, v, PENTA), NUMBERS, _far)
    _rows(f"stats.{_fname}(results)", lambda v, fn=_llr: fn(0, 5, v), NUMBERS, _exp(OBJ))
_PROBABILITY = _exp(REAL, huge=V, negative=V, zero=V, float=V)
_rows("stats.sprt_bounds(alpha)", lambda v: stats.sprt_bounds(v, 0.05), NUMBERS, _PROBABILITY)
_rows("stats.sprt_bounds(beta)", lambda v: stats.sprt_bounds(0.05, v), NUMBERS, _PROBABILITY)
_rows("stats.SPRT(elo0=)", lambda v: stats.SPRT(elo0=v, elo1=5), NUMBERS, _exp(REAL, huge=V))
_rows("stats.SPRT(elo1=)", lambda v: stats.SPRT(elo0=0, elo1=v), NUMBERS, _exp(REAL, negative=V, zero=V))
_rows("stats.SPRT(alpha=)", lambda v: stats.SPRT(alpha=v), NUMBERS, _PROBABILITY)
_rows("stats.SPRT(beta=)", lambda v: stats.SPRT(beta=v), NUMBERS, _PROBABILITY)
_CHOICE = _exp(STR, string=V, empty=V, nul=V, long=V)
_rows("stats.SPRT(model=)", lambda v: stats.SPRT(model=v), TEXT, _CHOICE)
_rows("stats.SPRT.llr(results)", lambda v: stats.SPRT().llr(v), NUMBERS, _exp(OBJ))
_rows("stats.SPRT.status(results)", lambda v: stats.SPRT().status(v), NUMBERS, _exp(OBJ))

# ratings
_rows("ratings.fit_ratings(games)", lambda v: ratings.fit_ratings(v, "b"), NUMBERS, _exp(OBJ))
_rows(
    "ratings.fit_ratings(games[0] score)",
    lambda v: ratings.fit_ratings(_game(score=v), "b"),
    NUMBERS,
    _exp(REAL, huge=V, negative=V),
)
_rows("ratings.fit_ratings(games[0] player)", lambda v: ratings.fit_ratings(_game(player=v), "b"), TEXT, STR)
_rows("ratings.fit_ratings(anchor)", lambda v: ratings.fit_ratings(GAMES, v), TEXT, _CHOICE)
_rows("ratings.fit_ratings(anchor_elo=)", lambda v: ratings.fit_ratings(GAMES, "b", v), NUMBERS, _exp(REAL))

# perft
_LINE = _CHOICE  # text that must parse: any string of the sweep is a ValueError
_rows("perft.parse_suite_line(line)", perft.parse_suite_line, TEXT, _LINE)
_rows("perft.parse_suite_line(source=)", lambda v: perft.parse_suite_line(PERFT_LINE, source=v), TEXT, STR)
_rows("perft.read_suite(path)", perft.read_suite, PATHS, READ)
_rows("perft.run_suite(cases)", lambda v: perft.run_suite(v), NUMBERS, _exp(OBJ))
_rows("perft.run_suite(cases[0])", lambda v: perft.run_suite([v]), NUMBERS, _exp(OBJ))
_MAX_NODES = _exp(INT, huge=OK, zero=OK, none=OK)
_rows("perft.run_suite(max_nodes=)", lambda v: perft.run_suite([CASE], max_nodes=v), NUMBERS, _MAX_NODES)
_rows("perft.PerftCase.capped(max_nodes)", CASE.capped, NUMBERS, _MAX_NODES)
_rows(
    "perft.run(fen)",
    lambda v: _quiet(lambda: perft.run(v, 1)),
    TEXT,
    _exp(STR, string=Returns(2), empty=Returns(2), nul=Returns(2), long=Returns(2)),
)
_rows(
    "perft.run(depth)",
    lambda v: _quiet(lambda: perft.run(FEN, v)),
    NUMBERS,
    _exp(INT, huge=Returns(2), negative=Returns(2), zero=Returns(0)),
)

# epd
_rows("epd.parse_epd_lines(lines)", epd.parse_epd_lines, NUMBERS, _exp(OBJ))
_rows("epd.parse_epd_lines(lines[0])", lambda v: epd.parse_epd_lines([v]), TEXT, _exp(_LINE, empty=OK))
_rows("epd.parse_epd_lines(source=)", lambda v: epd.parse_epd_lines([EPD_LINE], source=v), TEXT, STR)
_rows("epd.read_epd(path)", epd.read_epd, PATHS, READ)
_rows("epd.run_epd(suite)", lambda v: epd.run_epd(v, depth=1, hash_mb=1), NUMBERS, _exp(OBJ))
_rows("epd.run_epd(suite[0])", lambda v: epd.run_epd([v], depth=1, hash_mb=1), NUMBERS, _exp(OBJ))
_rows(
    "epd.run_epd(engine)", lambda v: _scratch(lambda: epd.run_epd(SUITE, v, depth=1, hash_mb=1)), TEXT, _LINE
)
_LIMIT = _exp(INT, none=OK)
_rows("epd.run_epd(ms=)", lambda v: epd.run_epd(SUITE, ms=v, depth=1, hash_mb=1), NUMBERS, _LIMIT)
_rows("epd.run_epd(depth=)", lambda v: epd.run_epd(SUITE, depth=v, nodes=200, hash_mb=1), NUMBERS, _LIMIT)
_rows("epd.run_epd(nodes=)", lambda v: epd.run_epd(SUITE, nodes=v, depth=1, hash_mb=1), NUMBERS, _LIMIT)
_rows("epd.run_epd(hash_mb=)", lambda v: epd.run_epd(SUITE, depth=1, hash_mb=v), NUMBERS, INT)
_rows(
    "epd.run_epd(name=)", lambda v: epd.run_epd(SUITE, depth=1, hash_mb=1, name=v), TEXT, _exp(STR, none=OK)
)

# openings
_rows("openings.Opening(fen).board()", lambda v: Opening(fen=v).board(), TEXT, _LINE)
_rows("openings.Opening(moves).board()", lambda v: Opening(moves=v).board(), NUMBERS, _exp(OBJ))
_rows("openings.Opening(moves[0]).board()", lambda v: Opening(moves=(v,)).board(), TEXT, _LINE)
_rows("openings.Opening(name)", lambda v: Opening(name=v), TEXT, STR)
_rows("openings.book_digest(openings)", openings.book_digest, NUMBERS, _exp(OBJ))
_rows("openings.book_digest(openings[0])", lambda v: openings.book_digest([v]), NUMBERS, _exp(OBJ))
_rows("openings.openings_from_lines(lines)", openings.openings_from_lines, NUMBERS, _exp(OBJ))
_rows(
    "openings.openings_from_lines(lines[0])",
    lambda v: openings.openings_from_lines([v]),
    TEXT,
    _exp(_LINE, empty=OK),
)
_rows(
    "openings.openings_from_lines(source=)",
    lambda v: openings.openings_from_lines([EPD_START], source=v),
    TEXT,
    STR,
)
_rows("openings.load_openings(path)", openings.load_openings, PATHS, READ)
_rows(
    "openings.load_openings(fmt=)",
    lambda v: openings.load_openings(TMP / "openings.pgn", fmt=v),
    TEXT,
    _exp(_CHOICE, none=OK),
)
_rows(
    "openings.load_openings(plies=)",
    lambda v: openings.load_openings(TMP / "openings.pgn", plies=v),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK, none=OK),
)
_rows("openings.choose(book)", lambda v: openings.choose(v, 2), NUMBERS, _exp(OBJ))
_rows("openings.choose(count)", lambda v: openings.choose(BOOK, v), NUMBERS, _exp(INT, zero=OK))
_rows("openings.choose(order=)", lambda v: openings.choose(BOOK, 2, order=v), TEXT, _CHOICE)
_rows(
    "openings.choose(seed=)",
    lambda v: openings.choose(BOOK, 2, seed=v),
    NUMBERS,
    _exp(INT, huge=OK, negative=OK, zero=OK),
)
_rows("openings.choose(start=)", lambda v: openings.choose(BOOK, 2, start=v), NUMBERS, _exp(INT, huge=OK))

# engines
_rows("engines.TimeControl.parse(text)", engines.TimeControl.parse, TEXT, _LINE)
_rows(
    "engines.TimeControl.parse(text)",
    engines.TimeControl.parse,
    {"digits": "9" * 400, "moves0": "0/60"},
    {"digits": V, "moves0": V},
)
_CLOCK = _exp(REAL, negative=V)
_rows("engines.TimeControl(base)", lambda v: engines.TimeControl(v), NUMBERS, _CLOCK)
_rows("engines.TimeControl(inc)", lambda v: engines.TimeControl(1, v), NUMBERS, _CLOCK)
_rows(
    "engines.TimeControl(moves)", lambda v: engines.TimeControl(1, 0, v), NUMBERS, _exp(INT, huge=OK, none=OK)
)
_rows("engines.parse_engine(words)", engines.parse_engine, NUMBERS, _exp(OBJ))
_rows(
    "engines.parse_engine(defaults=)",
    lambda v: engines.parse_engine(["sf", "nodes=1"], v),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "engines.parse_engine(words[1])",
    lambda v: engines.parse_engine(["sf", v]),
    {**TEXT, "quote": '"'},
    _exp(_LINE, quote=V),
)
_rows(
    "engines.parse_engine(words[0])",
    lambda v: engines.parse_engine([v, "nodes=1"]),
    {**TEXT, "quote": '"'},
    _exp(STR, empty=V, nul=V, long=V, quote=V),
)
_WORD: dict[str, object] = {k: V for k in WORDS}
for _key, _expected in (
    ("nodes", _exp(_WORD, huge=OK)),
    ("depth", _exp(_WORD, huge=OK)),
    ("st", _exp(_WORD, huge=OK, float=OK)),
    ("timemargin", _exp(_WORD, huge=OK, zero=OK)),
    ("tc", _exp(_WORD, huge=OK, zero=OK, float=OK, inf=OK, empty=OK)),
    ("cmd", _exp(_WORD, huge=OK, negative=OK, zero=OK, nan=OK, inf=OK, float=OK, string=OK)),
):
    _rows(
        f"engines.parse_engine({_key}=)",
        lambda v, key=_key: engines.parse_engine(["cmd=sf", "nodes=1", f"{key}={v}"]),
        WORDS,
        _expected,
    )
_rows("engines.EngineConfig(command)", lambda v: EngineConfig(v, nodes=1), NUMBERS, _exp(OBJ))
_rows("engines.EngineConfig(command[0])", lambda v: EngineConfig((v,), nodes=1), TEXT, _exp(STR, empty=V))
_rows("engines.EngineConfig(name=)", lambda v: EngineConfig(("sf",), name=v, nodes=1), TEXT, STR)
_rows(
    "engines.EngineConfig(options=)", lambda v: EngineConfig(("sf",), options=v, nodes=1), NUMBERS, _exp(OBJ)
)
_rows(
    "engines.EngineConfig(tc=)", lambda v: EngineConfig(("sf",), tc=v, nodes=1), NUMBERS, _exp(OBJ, none=OK)
)
_rows(
    "engines.EngineConfig(st=)",
    lambda v: EngineConfig(("sf",), st=v),
    NUMBERS,
    _exp(REAL, negative=V, zero=V, none=V),
)
_rows(
    "engines.EngineConfig(nodes=)",
    lambda v: EngineConfig(("sf",), nodes=v, depth=1),
    NUMBERS,
    _exp(INT, huge=OK, none=OK),
)
_rows(
    "engines.EngineConfig(depth=)",
    lambda v: EngineConfig(("sf",), depth=v, nodes=1),
    NUMBERS,
    _exp(INT, huge=OK, none=OK),
)
_rows(
    "engines.EngineConfig(timemargin_ms=)",
    lambda v: EngineConfig(("sf",), timemargin_ms=v, nodes=1),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK),
)
_rows("engines.engine_from_mapping(data)", engines.engine_from_mapping, NUMBERS, _exp(OBJ))
_PY_DATA: dict[str, object] = {k: V for k in NUMBERS}
for _key, _expected in (
    ("nodes", _exp(_PY_DATA, huge=OK)),
    ("st", _exp(_PY_DATA, huge=OK, float=OK)),
    ("timemargin", _exp(_PY_DATA, huge=OK, zero=OK)),
    ("tc", _exp(_PY_DATA, huge=OK, zero=OK, float=OK, empty=OK, inf=OK)),
    ("cmd", _exp(_PY_DATA, string=OK)),
    ("name", _exp(_PY_DATA, string=OK, empty=OK)),
    ("options", _PY_DATA),
):
    _rows(
        f"engines.engine_from_mapping({{{_key!r}: v}})",
        lambda v, key=_key: engines.engine_from_mapping({"cmd": "sf", "nodes": 1, key: v}),
        NUMBERS,
        _expected,
    )

# referee
_OPT_COUNT = _exp(INT, huge=OK, none=OK)
_COUNT = _exp(INT, huge=OK)
_SCORE = _exp(INT, huge=OK, zero=OK)
for _field, _expected in (
    ("draw_movenumber", _OPT_COUNT),
    ("draw_movecount", _COUNT),
    ("draw_score", _SCORE),
    ("resign_movecount", _OPT_COUNT),
    ("resign_score", _SCORE),
    ("maxmoves", _OPT_COUNT),
):
    _rows(f"referee.Adjudication({_field}=)", lambda v, f=_field: Adjudication(**{f: v}), NUMBERS, _expected)
_rows("referee.GameRecord.from_json(data)", GameRecord.from_json, NUMBERS, _exp(OBJ))
_rows(
    "referee.GameRecord.from_json(data)",
    lambda v: GameRecord.from_json({k: x for k, x in RECORD.to_json().items() if k != v}),
    {"no opening": "opening", "no result": "result"},
    {"no opening": V, "no result": V},
)
_rows(
    "referee.GameRecord.from_json(data)",
    lambda v: GameRecord.from_json({**RECORD.to_json(), v: 1}),
    {"unknown key": "colour"},
    {"unknown key": V},
)
for _key, _expected in (
    ("opening", _PY_DATA),
    ("moves", _PY_DATA),
    ("result", _PY_DATA),
    ("white", _exp(_PY_DATA, string=OK, empty=OK)),
    ("pair", _exp(_PY_DATA, huge=OK, zero=OK)),
):
    _rows(
        f"referee.GameRecord.from_json({{{_key!r}: v}})",
        lambda v, key=_key: GameRecord.from_json(_record_json(key, v)).to_pgn(),
        NUMBERS,
        _expected,
    )
_rows("referee.GameRecord.to_pgn(event=)", lambda v: RECORD.to_pgn(event=v), TEXT, STR)
_rows("referee.GameRecord.to_pgn(date=)", lambda v: RECORD.to_pgn(date=v), TEXT, _exp(STR, none=OK))
_rows("referee.GameRecord.score_for(name)", RECORD.score_for, TEXT, _CHOICE)

# runner
_INDEX = _exp(INT, huge=OK, zero=OK)
_rows("runner.GameSpec(pair)", lambda v: runner.GameSpec(v, 0, 0, 1, Opening()), NUMBERS, _INDEX)
_rows("runner.GameSpec(game)", lambda v: runner.GameSpec(0, v, 0, 1, Opening()), NUMBERS, _exp(INT, zero=OK))
_rows("runner.GameSpec(white)", lambda v: runner.GameSpec(0, 0, v, 1, Opening()), NUMBERS, _INDEX)
_rows("runner.GameSpec(black)", lambda v: runner.GameSpec(0, 0, 1, v, Opening()), NUMBERS, _INDEX)
_rows("runner.GameSpec(opening)", lambda v: runner.GameSpec(0, 0, 0, 1, v), NUMBERS, _exp(OBJ))
_rows("runner.GameSpec(round_prefix=)", lambda v: runner.GameSpec(0, 0, 0, 1, Opening(), v), TEXT, STR)
_WRITE = _exp(READ, string=OK, missing=OK, dir=OK, file=V)
_rows(
    "runner.GameLog(out_dir).open()", lambda v: _scratch(runner.GameLog(v, {}, "e").open), WRITE_PATHS, _WRITE
)
_rows("runner.read_log(out_dir)", runner.read_log, PATHS, READ)
_rows("match.match_status(out)", match.match_status, PATHS, READ)
_rows("runner.GameLog(settings)", lambda v: runner.GameLog("out", v, "e"), NUMBERS, _exp(OBJ))
_rows(
    "runner.GameLog(settings={'x': v})",
    lambda v: runner.GameLog("out", {"x": v}, "e"),
    NUMBERS,
    _exp({k: OK for k in NUMBERS}, nan=V, inf=V),
)
_rows("runner.GameLog(event)", lambda v: runner.GameLog("out", {}, v), TEXT, STR)
_rows(
    "runner.run_schedule(concurrency=)",
    lambda v: runner.run_schedule([ENGINE_A, ENGINE_B], [SPEC], lambda r: False, concurrency=v),
    NUMBERS,
    _exp(INT, huge=STARTS, none=STARTS),  # None: the default (1 here, the cluster's CPUs on Ray)
)
_rows(
    "runner.run_schedule(hang_timeout=)",
    lambda v: runner.run_schedule([ENGINE_A, ENGINE_B], [SPEC], lambda r: False, hang_timeout=v),
    NUMBERS,
    _exp(REAL, huge=STARTS, negative=V, zero=V, float=STARTS),
)
_rows(
    "runner.run_schedule(specs[0])",
    lambda v: runner.run_schedule([ENGINE_A, ENGINE_B], [v], lambda r: False),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "runner.run_schedule(specs[0].white)",
    lambda v: runner.run_schedule(
        [ENGINE_A, ENGINE_B], [runner.GameSpec(0, 0, v, 1, Opening())], lambda r: False
    ),
    {"two": 2, "huge": HUGE},
    {"two": V, "huge": V},
)
_rows(
    "runner.run_schedule(on_game)",
    lambda v: runner.run_schedule([ENGINE_A, ENGINE_B], [SPEC], v),
    NUMBERS,
    _exp(OBJ),
)

# match
_rows("match.summarize(name1)", lambda v: match.summarize(v, "old", RECORDS), TEXT, _CHOICE)
_rows("match.summarize(name2)", lambda v: match.summarize("new", v, RECORDS), TEXT, STR)
_rows("match.summarize(records)", lambda v: match.summarize("new", "old", v), NUMBERS, _exp(OBJ))
_rows("match.summarize(records[0])", lambda v: match.summarize("new", "old", [v]), NUMBERS, _exp(OBJ))
_rows(
    "match.summarize(sprt)", lambda v: match.summarize("new", "old", RECORDS, v), NUMBERS, _exp(OBJ, none=OK)
)
_rows(
    "match.summarize(out)",
    lambda v: match.summarize("new", "old", RECORDS, None, v),
    TEXT,
    _exp(STR, none=OK),
)


def _run_match(**kwargs: Any) -> object:
    return _scratch(lambda: match.run_match(ENGINE_A, ENGINE_B, **{"rounds": 1, **kwargs}))


_rows("match.run_match(engine1)", lambda v: match.run_match(v, ENGINE_B, rounds=1), NUMBERS, _exp(OBJ))
_rows("match.run_match(engine2)", lambda v: match.run_match(ENGINE_A, v, rounds=1), NUMBERS, _exp(OBJ))
_rows("match.run_match(rounds=)", lambda v: _run_match(rounds=v), NUMBERS, INT)
_rows("match.run_match(openings=)", lambda v: _run_match(openings=v), NUMBERS, _exp(OBJ))
_rows("match.run_match(order=)", lambda v: _run_match(order=v), TEXT, _CHOICE)
_rows(
    "match.run_match(seed=)",
    lambda v: _run_match(seed=v),
    NUMBERS,
    _exp(INT, huge=STARTS, negative=STARTS, zero=STARTS),
)
_rows(
    "match.run_match(start=)",
    lambda v: _run_match(openings=BOOK, start=v),
    NUMBERS,
    _exp(INT, huge=STARTS, none=STARTS),  # huge: round the book; None: the default
)
_rows(
    "match.run_match(concurrency=)",
    lambda v: _run_match(concurrency=v),
    NUMBERS,
    _exp(INT, huge=STARTS, none=STARTS),  # None: the default
)
_rows("match.run_match(adjudication=)", lambda v: _run_match(adjudication=v), NUMBERS, _exp(OBJ))
_rows("match.run_match(sprt=)", lambda v: _run_match(sprt=v), NUMBERS, _exp(OBJ, none=STARTS))
_rows(
    "match.run_match(out=)",
    lambda v: _run_match(out=v),
    WRITE_PATHS,
    _exp(READ, string=STARTS, missing=STARTS, dir=STARTS, file=V, none=STARTS),
)
_rows(
    "match.run_match(hang_timeout=)",
    lambda v: _run_match(hang_timeout=v),
    NUMBERS,
    _exp(REAL, huge=STARTS, negative=V, zero=V, float=STARTS),
)
_rows(
    "match.adjudication_from_args(maxmoves)",
    lambda v: match.adjudication_from_args(None, None, v),
    NUMBERS,
    _OPT_COUNT,
)
_rows(
    "match.adjudication_from_args(draw)",
    lambda v: match.adjudication_from_args(v, None, None),
    NUMBERS,
    _exp(OBJ, none=OK),
)
_rows(
    "match.adjudication_from_args(resign)",
    lambda v: match.adjudication_from_args(None, v, None),
    NUMBERS,
    _exp(OBJ, none=OK),
)
_rows(
    "match.adjudication_from_args(draw[0])",
    lambda v: match.adjudication_from_args([v], None, None),
    {**TEXT, "unknown": "speed=1"},
    _exp(_LINE, unknown=V),
)
for _option, _key, _expected in (
    ("draw", "movenumber", _exp(_WORD, huge=OK)),
    ("draw", "movecount", _exp(_WORD, huge=OK)),
    ("draw", "score", _exp(_WORD, huge=OK, zero=OK)),
    ("resign", "movecount", _exp(_WORD, huge=OK)),
    ("resign", "score", _exp(_WORD, huge=OK, zero=OK)),
):
    _rows(
        f"match.adjudication_from_args({_option}=[{_key}=])",
        lambda v, o=_option, k=_key: (
            match.adjudication_from_args([f"{k}={v}"], None, None)
            if o == "draw"
            else match.adjudication_from_args(None, [f"{k}={v}"], None)
        ),
        WORDS,
        _expected,
    )

# tournament
# A config that is not TOML: the message gives the line and column, not the (whole) text.
_rows("tournament.parse_config(text)", tournament.parse_config, TEXT, _LINE, seen=lambda v: None)
_rows(
    "tournament.parse_config(base_dir=)",
    lambda v: tournament.parse_config(PLAYERS, v),
    PATHS,
    _exp(READ, **{k: OK for k in ("string", "empty", "long", "missing", "dir")}),
)
for _key, _expected in (
    ("rounds", DATA),
    ("concurrency", _exp(DATA, huge=OK)),
    ("gauntlet", _exp(DATA, huge=OK)),
    ("anchor_elo", _exp(DATA, huge=OK, negative=OK, zero=OK, float=OK)),
    ("hang_timeout", _exp(DATA, huge=OK, float=OK)),
    ("format", DATA),
    ("anchor", DATA),
    ("out", _exp(DATA, string=OK, empty=OK)),
    ("openings.seed", _exp(DATA, huge=OK, negative=OK, zero=OK)),
    ("openings.plies", _exp(DATA, huge=OK, zero=OK)),
    ("openings.order", DATA),
    ("openings.format", DATA),
    ("adjudication.maxmoves", _exp(DATA, huge=OK)),
):
    _rows(
        f"tournament.parse_config({_key} = v)",
        lambda v, key=_key: tournament.parse_config(_toml(key, v), TMP),
        TOML,
        _expected,
        seen=_toml_value,
    )
for _field, _expected in (
    ("rounds", _exp(INT, zero=V)),
    ("gauntlet", _exp(INT, huge=OK)),
    ("concurrency", _exp(INT, huge=OK)),
    ("seed", _exp(INT, huge=OK, negative=OK, zero=OK)),
    ("anchor_elo", REAL),
    ("hang_timeout", _exp(REAL, negative=V, zero=V)),
):
    _rows(
        f"tournament.TournamentConfig({_field}=)",
        lambda v, f=_field: dataclasses.replace(CONFIG, **{f: v}),
        NUMBERS,
        _expected,
    )
for _field in ("format", "order"):
    _rows(
        f"tournament.TournamentConfig({_field}=)",
        lambda v, f=_field: dataclasses.replace(CONFIG, **{f: v}),
        TEXT,
        _CHOICE,
    )
_rows(
    "tournament.TournamentConfig(players=)",
    lambda v: dataclasses.replace(CONFIG, players=v),
    NUMBERS,
    _exp(OBJ),
)
_rows("tournament.pairings(config)", tournament.pairings, NUMBERS, _exp(OBJ))
_rows("tournament.schedule(config)", tournament.schedule, NUMBERS, _exp(OBJ))
_rows(
    "tournament.run_tournament(config)",
    tournament.run_tournament,
    {**NUMBERS, "valid": CONFIG},
    _exp(OBJ, valid=STARTS),
)

# bench
_rows(
    "bench.bench_lines(depth)",
    bench.bench_lines,
    {k: v for k, v in NUMBERS.items() if k != "none"},
    {k: v for k, v in INT.items() if k != "none"},
)
_rows("bench.parse_depth(text)", bench.parse_depth, TEXT, _LINE)
_rows("bench.parse_depth(text)", bench.parse_depth, WORDS, _exp(_WORD, huge=Returns(HUGE)))

# timeman
_CLOCK_MS = _exp(INT, huge=OK, negative=OK, zero=OK)
_rows("timeman.budget(time_ms)", lambda v: timeman.budget(v, 10), NUMBERS, _exp(_CLOCK_MS, none=OK))
_rows("timeman.budget(inc_ms)", lambda v: timeman.budget(1000, v), NUMBERS, _CLOCK_MS)
_rows("timeman.budget(movestogo)", lambda v: timeman.budget(1000, 10, v), NUMBERS, _exp(_CLOCK_MS, none=OK))
_rows("timeman.budget(overhead_ms=)", lambda v: timeman.budget(1000, 10, overhead_ms=v), NUMBERS, _CLOCK_MS)
_rows(
    "timeman.budget(movetime_ms=)",
    lambda v: timeman.budget(None, movetime_ms=v),
    NUMBERS,
    _exp(_CLOCK_MS, none=Returns(None)),
)
_rows("timeman.Budget(soft_ms)", lambda v: timeman.Budget(v, 100), NUMBERS, _exp(INT, huge=OK, zero=OK))
_rows("timeman.Budget(hard_ms)", lambda v: timeman.Budget(100, v), NUMBERS, _exp(INT, huge=OK, zero=OK))
_rows("timeman.TimeManager(limits)", timeman.TimeManager, NUMBERS, _exp(OBJ))
_TM = timeman.Budget(100, 400)
_rows(
    "timeman.TimeManager(lost_cp=)",
    lambda v: timeman.TimeManager(_TM, lost_cp=v).update(5, "e2e4", -600, 10),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK),
)
_rows(
    "timeman.TimeManager.update(depth)",
    lambda v: timeman.TimeManager(_TM).update(v, "e2e4", 0, 10),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK),
)
_rows(
    "timeman.TimeManager.update(best_move)", lambda v: timeman.TimeManager(_TM).update(5, v, 0, 10), TEXT, STR
)
_rows(
    "timeman.TimeManager.update(cp)",
    lambda v: timeman.TimeManager(_TM).update(5, "e2e4", v, 10),
    NUMBERS,
    _exp(INT, huge=OK, negative=OK, zero=OK, none=OK),
)
_ELAPSED = _exp(REAL, negative=V)
_rows(
    "timeman.TimeManager.update(elapsed_ms)",
    lambda v: timeman.TimeManager(_TM).update(5, "e2e4", 0, v),
    NUMBERS,
    _ELAPSED,
)
_rows(
    "timeman.TimeManager.should_stop(elapsed_ms)",
    lambda v: timeman.TimeManager(_TM).should_stop(v),
    NUMBERS,
    _ELAPSED,
)

# book
_rows(
    "book.Book(path)",
    lambda v: polyglot.Book(v).close(),
    PATHS,
    _exp(
        READ, **{k: polyglot.InvalidBookError for k in ("string", "empty", "nul", "long", "missing", "dir")}
    ),
)
_rows(
    "book.Book(seed=)",
    lambda v: polyglot.Book(TMP / "book.bin", seed=v).close(),
    NUMBERS,
    _exp(INT, huge=OK, negative=OK, zero=OK, none=OK),
)
_BOOK = polyglot.Book(TMP / "book.bin", seed=1)
_rows("book.Book.pick(board)", _BOOK.pick, NUMBERS, _exp(OBJ))
_rows("book.Book.moves(board)", _BOOK.moves, NUMBERS, _exp(OBJ))
_rows(
    "book.write_book(path)",
    lambda v: _scratch(lambda: polyglot.write_book(v, [(chess.Board(), E2E4, 1)])),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK),
)
_rows(
    "book.write_book(entries)",
    lambda v: _scratch(lambda: polyglot.write_book("b.bin", v)),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "book.write_book(entries[0] board)",
    lambda v: _scratch(lambda: polyglot.write_book("b.bin", [(v, E2E4, 1)])),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "book.write_book(entries[0] move)",
    lambda v: _scratch(lambda: polyglot.write_book("b.bin", [(chess.Board(), v, 1)])),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "book.write_book(entries[0] weight)",
    lambda v: _scratch(lambda: polyglot.write_book("b.bin", [(chess.Board(), E2E4, v)])),
    NUMBERS,
    _exp(INT, zero=OK),
)


_rows("book.polyglot_key(board)", polyglot.polyglot_key, NUMBERS, _exp(OBJ))
_rows("book.raw_move(board)", lambda v: polyglot.raw_move(v, E2E4), NUMBERS, _exp(OBJ))
_rows("book.raw_move(move)", lambda v: polyglot.raw_move(chess.Board(), v), NUMBERS, _exp(OBJ))
_rows("book.read_entries(path)", polyglot.read_entries, PATHS, _exp(READ))
_rows("book.scaled(weights)", polyglot.scaled, NUMBERS, _exp(OBJ))
_rows("book.scaled(weights[0])", lambda v: polyglot.scaled([v]), NUMBERS, _exp(INT, huge=OK, zero=OK))
_rows(
    "book.write_entries(path)",
    lambda v: _scratch(lambda: polyglot.write_entries(v, [(1, 2, 3)])),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK),
)
_rows(
    "book.write_entries(entries)",
    lambda v: _scratch(lambda: polyglot.write_entries("b.bin", v)),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "book.write_entries(entries[0] weight)",
    lambda v: _scratch(lambda: polyglot.write_entries("b.bin", [(1, 2, v)])),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK),
)

# tools.book
(TMP / "games.pgn").write_text('[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n', encoding="utf-8")
_PGN = str(TMP / "games.pgn")


def _build(**kwargs: Any) -> object:
    arguments = {"pgns": [_PGN], "out": "b.bin", **kwargs}
    return _scratch(lambda: tools_book.build_book(**arguments))


def _search(**kwargs: Any) -> object:
    arguments = {"board": chess.Board(), "depth": 1, "plies": 1, "margin": 0, "out": "b.bin", **kwargs}
    return _scratch(lambda: tools_book.search_book(**arguments))


_rows("tools.book.build_book(pgns)", lambda v: _build(pgns=v), NUMBERS, _exp(OBJ))
_rows("tools.book.build_book(pgns[0])", lambda v: _build(pgns=[v]), PATHS, _exp(READ))
_rows(
    "tools.book.build_book(out=)",
    lambda v: _build(out=v),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK, none=V),
)
_rows(
    "tools.book.build_book(white=)",
    lambda v: _build(white=v),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK, none=OK),
)
_rows(
    "tools.book.build_book(min_elo=)",
    lambda v: _build(min_elo=v),
    NUMBERS,
    _exp(INT, huge=OK, zero=OK, none=OK),
)
_rows("tools.book.build_book(min_games=)", lambda v: _build(min_games=v), NUMBERS, _exp(INT, huge=OK))
_rows("tools.book.build_book(max_ply=)", lambda v: _build(max_ply=v), NUMBERS, _exp(INT, huge=OK))
_rows("tools.book.build_book(points=)", lambda v: _build(points=v), NUMBERS, _exp(OBJ))
_rows("tools.book.build_book(progress=)", lambda v: _build(progress=v), NUMBERS, _exp(OBJ, none=OK))
for _field in ("win", "draw", "loss"):
    _rows(
        f"tools.book.Points({_field}=)",
        lambda v, field=_field: tools_book.Points(**{field: v}),
        NUMBERS,
        _exp(INT, zero=OK),
    )
_rows(
    "tools.book.Points.of(result)",
    lambda v: tools_book.Points().of(v, chess.WHITE),
    TEXT,
    _exp(STR, string=V, empty=V, nul=V, long=V),
)
_rows("tools.book.search_book(board)", lambda v: _search(board=v), NUMBERS, _exp(OBJ))
_rows("tools.book.search_book(depth=)", lambda v: _search(depth=v), NUMBERS, _exp(INT))
_rows("tools.book.search_book(plies=)", lambda v: _search(plies=v), NUMBERS, _exp(INT))
_rows("tools.book.search_book(margin=)", lambda v: _search(margin=v), NUMBERS, _exp(INT, zero=OK))
_rows("tools.book.search_book(threads=)", lambda v: _search(threads=v), NUMBERS, _exp(INT, none=OK))
_rows("tools.book.search_book(progress=)", lambda v: _search(progress=v), NUMBERS, _exp(OBJ, none=OK))
_rows(
    "tools.book.search_book(out=)",
    lambda v: _search(out=v),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK, none=V),
)
_rows(
    "tools.book.merge_books(out)",
    lambda v: _scratch(lambda: tools_book.merge_books(v, [TMP / "book.bin"])),
    WRITE_PATHS,
    _exp(READ, string=OK, dir=V, file=OK),
)
_rows(
    "tools.book.merge_books(books)",
    lambda v: _scratch(lambda: tools_book.merge_books("m.bin", v)),
    NUMBERS,
    _exp(OBJ),
)
_rows(
    "tools.book.merge_books(books[0])",
    lambda v: _scratch(lambda: tools_book.merge_books("m.bin", [v])),
    PATHS,
    _exp(READ),
)
_rows("tools.book.show_lines(path)", lambda v: tools_book.show_lines(v, chess.Board()), PATHS, _exp(READ))
_rows(
    "tools.book.show_lines(board)", lambda v: tools_book.show_lines(TMP / "book.bin", v), NUMBERS, _exp(OBJ)
)


# --- running a row ------------------------------------------------------------------------------

FORBIDDEN = (OverflowError, ZeroDivisionError, IndexError, KeyError, AttributeError, RecursionError)


def run_row(call: Call, value: Any) -> tuple[object, BaseException | None]:
    """``call_no_panic(call, value)`` in a worker thread; a call that outlives
    :data:`CALL_TIMEOUT_S` fails as a hang."""
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(call_no_panic(call, value))
        except BaseException as err:  # noqa: BLE001 - pytest.fail's outcome, re-raised below
            outcome.append(err)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(CALL_TIMEOUT_S)
    if worker.is_alive():
        pytest.fail(f"the call hangs (still running after {CALL_TIMEOUT_S:g} s)", pytrace=False)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    result, err = outcome[0]
    return result, err


def _display(value: Any) -> str:
    if isinstance(value, str) and len(value) > 40:
        return f"{quote(value[:8])[:-1]}…' ({len(value)} chars)"
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def _expected_name(expected: object) -> str:
    if isinstance(expected, Returns):
        return f"returns {expected.value!r}"
    return expected if isinstance(expected, str) else getattr(expected, "__name__", str(expected))


@pytest.mark.parametrize(
    "call,value,expected,seen",
    [
        pytest.param(call, value, expected, seen, id=f"{name}-{value_name}")
        for name, call, value_name, value, expected, seen in ROWS
    ],
)
def test_sweep(call: Call, value: Any, expected: object, seen: Any) -> None:
    result, err = run_row(call, value)
    if expected == OK or isinstance(expected, Returns):
        assert err is None, f"expected {_expected_name(expected)}, got {type(err).__name__}: {err}"
        if isinstance(expected, Returns):
            assert result == expected.value, f"expected {expected.value!r}, got {result!r}"
        return
    assert isinstance(expected, type)
    assert err is not None, f"expected {expected.__name__}, got {_display(result)}"
    assert isinstance(err, expected), f"expected {expected.__name__}, got {type(err).__name__}: {err}"
    assert not isinstance(err, FORBIDDEN), f"{type(err).__name__}: {err}"
    message = str(err)
    assert message and not message[0].isupper(), message
    assert "\n" not in message and len(message) <= 1000, _display(message)
    if isinstance(err, ValueError) and not isinstance(err, EngineStartError):
        if isinstance(seen, str):
            assert quote(seen)[1:-1] in message, message
        elif isinstance(seen, (int, float)) and not isinstance(seen, bool):
            assert repr(seen) in message, message


COLUMNS = (
    "huge",
    "negative",
    "zero",
    "nan",
    "inf",
    "float",
    "string",
    "empty",
    "bool",
    "none",
    "nul",
    "long",
)
"""The values with a column of their own in the table; the others (paths, special words) go in the last."""

SHORT = {"ValueError": "V", "TypeError": "T", "InvalidBookError": "IB", "EngineStartError": "ES"}


def _outcome(call: Call, value: Any, expected: object) -> tuple[str, str]:
    """(short outcome, outcome with the message) of one row as it runs now; a returned value is shown
    where the row expects one."""
    try:
        result, err = run_row(call, value)
    except BaseException as failure:  # noqa: BLE001 - a hang or a panic, shown in the table
        return f"**{type(failure).__name__}**", f"**{type(failure).__name__}: {failure}**"
    if err is None:
        if isinstance(expected, Returns):
            return f"={result!r}", f"returns {result!r}"
        return "ok", "ok"
    text = str(err).replace("|", "\\|")
    kind = type(err).__name__
    return SHORT.get(kind, kind), f"{kind}: {text[:90]}{'…' if len(text) > 90 else ''}"


def sweep_table(*, messages: bool = False) -> str:
    """The table of the sweep, as it runs now (for the closing note): ``python -m tests.test_tools_sweep``.

    One line per argument, one column per hostile value: ``ok``, ``V`` (:exc:`ValueError`), ``T``
    (:exc:`TypeError`), ``IB`` (:exc:`~camelpy.book.InvalidBookError`), ``ES`` (the arguments were
    taken and the run reached the start of an engine that does not exist:
    :exc:`~camelpy.arena.engines.EngineStartError`), ``=N`` (returned ``N``), ``·`` (not swept); a
    cell that differs from what the row expects is marked ``≠``. With *messages* (``--messages``), one
    line per row with the message each call gets.
    """
    if messages:
        lines = ["| call | value | expected | result |", "|---|---|---|---|"]
        for name, call, value_name, value, expected, _ in ROWS:
            shown = _display(value).replace("|", "\\|")
            full = _outcome(call, value, expected)[1]
            lines.append(f"| `{name}` | {value_name} (`{shown}`) | {_expected_name(expected)} | {full} |")
        return "\n".join(lines)
    table: dict[str, dict[str, str]] = {}
    for name, call, value_name, value, expected, _ in ROWS:
        short = _outcome(call, value, expected)[0]
        want = "ok" if expected == OK else _outcome_name(expected)
        cell = short if short == want else f"≠{short}"
        table.setdefault(name, {})[value_name] = cell
    header = "| call (argument) | " + " | ".join(COLUMNS) + " | other |"
    lines = [header, "|---" * (len(COLUMNS) + 2) + "|"]
    for name, cells in table.items():
        other = ", ".join(f"{k}: {v}" for k, v in cells.items() if k not in COLUMNS)
        row = " | ".join(cells.get(column, "·") for column in COLUMNS)
        lines.append(f"| `{name}` | {row} | {other} |")
    return "\n".join(lines)


def _outcome_name(expected: object) -> str:
    if isinstance(expected, Returns):
        return f"={expected.value!r}"
    assert isinstance(expected, type)
    return SHORT.get(expected.__name__, expected.__name__)


if __name__ == "__main__":
    print(sweep_table(messages="--messages" in sys.argv[1:]))

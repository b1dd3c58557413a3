"""The public API swept with hostile arguments: every numeric argument of ``camelpy``,
``camelpy.Engine``, ``camelpy.Position`` and ``camelpy.batch`` gets a huge, negative, zero, NaN,
wrong-type, empty-string and ``None`` value, and each row of the table below is one test that states
what the call must do.

The rule the table checks, one way for every argument (the docstrings say the same):

* an integer out of range (negative, zero where at least 1 is needed, beyond the maximum or beyond
  64 bits) is a :exc:`ValueError` naming the argument and quoting the value;
* anything that is not an integer (a float, even NaN or 1.0; a string; ``True``) is a :exc:`TypeError`;
* ``None`` means "not given" where the argument is optional, and is a :exc:`TypeError` where it is not.

Never an ``OverflowError``, a panic (``PanicException``), an abort or a hang: each call runs under
:func:`tests.conftest.call_no_panic`, and the calls that allocate run in a subprocess, so an abort
fails the test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any, Callable

import camelpy
import camelpy.batch
import chess
import chess.engine
import pytest

from tests.conftest import call_no_panic

FEN = camelpy.STARTING_FEN
HUGE = 10**30
"""Beyond 64 bits."""

Call = Callable[[Any], object]

OK = "ok"


def _limit(name: str, **others: Any) -> Call:
    """``Engine.search`` with *name* set to the value and *others* as further limits (so a valid but
    large value still ends)."""
    return lambda value: camelpy.Engine(hash_mb=1).search(FEN, **{name: value, **others})


def _analyse_many(name: str, **others: Any) -> Call:
    limit = others.pop("limit", chess.engine.Limit(nodes=200))
    return lambda value: camelpy.batch.analyse_many([FEN], limit, **{name: value, **others})


def _setter(name: str) -> Call:
    def call(value: Any) -> object:
        engine = camelpy.Engine(hash_mb=1)
        setattr(engine, name, value)
        return getattr(engine, name)

    return call


def _play_time(value: Any) -> object:
    return camelpy.Engine(hash_mb=1).play(chess.Board(), chess.engine.Limit(time=value, depth=2))


def _play_clock(value: Any) -> object:
    limit = chess.engine.Limit(white_clock=value, black_clock=1.0, depth=2)
    return camelpy.Engine(hash_mb=1).play(chess.Board(), limit)


def _set_param(value: Any) -> None:
    engine = camelpy.Engine(hash_mb=1)
    name = engine._native.params()[0][0]
    engine._native.set_param(name, value)


def _set_search_param(value: Any) -> None:
    camelpy.Engine(hash_mb=1).set_search_param("lmr_history_divisor", value)


# (call name, the call, the value's name, the value, what must happen)
ROWS: list[tuple[str, Call, str, Any, object]] = []


def _rows(name: str, call: Call, expected: dict[str, object]) -> None:
    values = {
        "huge": HUGE,
        "negative": -5,
        "zero": 0,
        "nan": float("nan"),
        "float": 1.0,
        "string": "x",
        "empty": "",
        "bool": True,
        "none": None,
    }
    for value_name, value in values.items():
        ROWS.append((name, call, value_name, value, expected[value_name]))


def _int(
    *, zero: object = ValueError, none: object = TypeError, huge: object = ValueError
) -> dict[str, object]:
    """The expectations of an integer argument."""
    return {
        "huge": huge,
        "negative": ValueError,
        "zero": zero,
        "nan": TypeError,
        "float": TypeError,
        "string": TypeError,
        "empty": TypeError,
        "bool": TypeError,
        "none": none,
    }


_rows("search(ms=)", _limit("ms", depth=1), _int(none=OK))
_rows("search(depth=)", _limit("depth", nodes=300), _int(none=OK))
_rows("search(nodes=)", _limit("nodes", depth=1), _int(none=OK))
_rows("search(mate=)", _limit("mate", nodes=300), _int(none=OK))
_rows("search(multipv=)", _limit("multipv", depth=1), _int(none=OK))
_rows("camelpy.search(ms)", lambda v: camelpy.search(FEN, v, depth=1), _int(none=OK))
_rows("Engine(hash_mb=)", lambda v: camelpy.Engine(hash_mb=v), _int(none=OK))
_rows("Engine(threads=)", lambda v: camelpy.Engine(hash_mb=1, threads=v), _int(none=OK))
_rows("Engine.hash_mb = v", _setter("hash_mb"), _int())
_rows("Engine.threads = v", _setter("threads"), _int())
_rows("perft(depth)", lambda v: camelpy.perft(FEN, v), _int(zero=OK))
_rows("divide(depth)", lambda v: camelpy.divide(FEN, v), _int(zero=OK))
_rows("bench(depth)", lambda v: camelpy.bench(v) if v is not None else OK, _int(none=OK))
_rows("analyse_many(threads=)", _analyse_many("threads"), _int(none=OK))
_rows("analyse_many(hash_mb=)", _analyse_many("hash_mb"), _int(none=OK))
_rows("Position.is_repetition(count)", lambda v: camelpy.Position().is_repetition(v), _int(zero=OK, none=OK))
_rows("Engine._native.set_param(name, v)", _set_param, _int(zero=OK))
_rows("Engine.set_search_param(name, v)", _set_search_param, _int(zero=OK))
_rows(
    "Engine.set_search_param(v, 1)",
    lambda v: camelpy.Engine(hash_mb=1).set_search_param(v, 1),
    {
        "huge": TypeError,
        "negative": TypeError,
        "zero": TypeError,
        "nan": TypeError,
        "float": TypeError,
        "string": ValueError,
        "empty": ValueError,
        "bool": TypeError,
        "none": TypeError,
    },
)
_rows(
    "play(Limit(white_clock=))",
    _play_clock,
    {
        "huge": OK,  # 1e30 s: bounded by the depth
        "negative": ValueError,
        "zero": OK,  # flag about to fall: the shortest search
        "nan": ValueError,
        "float": OK,
        "string": TypeError,
        "empty": TypeError,
        "bool": TypeError,
        "none": OK,  # no clock
    },
)
_rows(
    "play(Limit(time=))",
    _play_time,
    {
        "huge": OK,  # 1e30 s: bounded by the depth
        "negative": ValueError,
        "zero": OK,  # python-chess sends movetime 0: the shortest search
        "nan": ValueError,
        "float": OK,
        "string": TypeError,
        "empty": TypeError,
        "bool": TypeError,
        "none": OK,
    },
)


def _text(error: type[Exception]) -> dict[str, object]:
    """The expectations of a text argument (a FEN, a move): *error* for bad text, TypeError otherwise."""
    return {name: error if name in ("string", "empty") else TypeError for name in _int()}


_rows("Position(fen)", lambda v: camelpy.Position(v), _text(camelpy.InvalidFenError))
_rows("search(board_or_fen)", lambda v: camelpy.search(v, depth=1), _text(camelpy.InvalidFenError))
_rows("Position.push(move)", lambda v: camelpy.Position().push(v), _text(camelpy.InvalidMoveError))
_rows(
    "search(moves=)",
    lambda v: camelpy.Engine(hash_mb=1).search(FEN, depth=1, moves=v),
    {name: OK if name == "none" else TypeError for name in _int()},
)
_rows(
    "search(moves=[v])",
    lambda v: camelpy.Engine(hash_mb=1).search(FEN, depth=1, moves=[v]),
    {name: TypeError for name in _int()},
)


def _expected_name(expected: object) -> str:
    return expected if isinstance(expected, str) else getattr(expected, "__name__", str(expected))


@pytest.mark.parametrize(
    "call,value,expected",
    [
        pytest.param(call, value, expected, id=f"{name}-{value_name}")
        for name, call, value_name, value, expected in ROWS
    ],
)
def test_sweep(call: Call, value: Any, expected: object) -> None:
    result, err = call_no_panic(call, value)
    if expected == OK:
        assert err is None, f"expected success, got {type(err).__name__}: {err}"
        return
    assert isinstance(expected, type)
    assert err is not None, f"expected {expected.__name__}, got {result!r}"
    assert type(err) is expected or (expected is ValueError and isinstance(err, ValueError)), (
        f"expected {expected.__name__}, got {type(err).__name__}: {err}"
    )
    assert not isinstance(err, OverflowError)
    message = str(err)
    assert message and not message[0].isupper(), message
    if isinstance(err, ValueError) and isinstance(value, int) and not isinstance(value, bool):
        assert repr(value) in message or str(value) in message, message


def sweep_table() -> str:
    """The table of the sweep, as it runs now (for the closing note): ``python -m tests.test_api_sweep``."""
    lines = ["| call | value | result |", "|---|---|---|"]
    for name, call, value_name, value, _ in ROWS:
        result, err = call_no_panic(call, value)
        got = "ok" if err is None else f"{type(err).__name__}: {str(err)[:90]}"
        lines.append(f"| `{name}` | {value_name} (`{value!r}`) | {got} |")
    return "\n".join(lines)


# Allocation: a hash table larger than the machine is refused with an error naming the machine's
# memory, the old table is kept, and the interpreter lives. Each runs in a subprocess: an abort (the
# defect this guards against) must fail the test, not kill pytest.
HASH_SCRIPT = """
import camelpy, chess.engine
from camelpy.batch import analyse_many
checks = [
    ("Engine(hash_mb=30000)", lambda: camelpy.Engine(hash_mb=30000)),
    ("Engine(hash_mb=10**5)", lambda: camelpy.Engine(hash_mb=10**5)),
    ("Engine(hash_mb=MAX_HASH_MB)", lambda: camelpy.Engine(hash_mb=camelpy.MAX_HASH_MB)),
    ("analyse_many(hash_mb=10**5)", lambda: analyse_many([camelpy.STARTING_FEN], chess.engine.Limit(depth=1),
                                                         hash_mb=10**5)),
    ("analyse_many(hash_mb=HALF, threads=4)", lambda: analyse_many([camelpy.STARTING_FEN] * 4,
                                                        chess.engine.Limit(depth=1), threads=4,
                                                        hash_mb=camelpy.MAX_HASH_MB // 2)),
]
for name, call in checks:
    try:
        call()
        print(name, "accepted")
    except ValueError as err:
        assert "memory" in str(err), err
        print(name, "ValueError", err)
engine = camelpy.Engine(hash_mb=2)
for size in (10**6, camelpy.MAX_HASH_MB):
    try:
        engine.hash_mb = size
        print("setter accepted")
    except (ValueError, MemoryError) as err:
        print("setter", type(err).__name__, err)
assert engine.hash_mb == 2, engine.hash_mb
assert engine.search(camelpy.STARTING_FEN, depth=3).best_move is not None
print("alive")
"""


def test_a_hash_larger_than_the_machine_is_an_error_not_an_abort() -> None:
    proc = subprocess.run([sys.executable, "-c", HASH_SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "alive"
    assert "accepted" not in proc.stdout, proc.stdout
    assert proc.stdout.count("ValueError") == 7, proc.stdout
    assert "exceeds this machine's available memory" in proc.stdout


def test_the_limits_come_from_the_core() -> None:
    from camelpy import _core
    from camelpy.protocols.uci import loop

    assert camelpy.MAX_HASH_MB == loop.MAX_HASH_MB == _core.MAX_HASH_MB
    assert camelpy.MAX_THREADS == loop.MAX_THREADS == _core.MAX_THREADS
    assert camelpy.MAX_MULTIPV == loop.MAX_MULTIPV == _core.MAX_MULTIPV
    assert camelpy.batch.BATCH_HASH_MB == _core.BATCH_HASH_MB
    assert 1 <= _core.default_threads() <= _core.MAX_THREADS
    with pytest.raises(ValueError, match=f"multipv must be between 1 and {_core.MAX_MULTIPV}, got 257"):
        camelpy.search(FEN, depth=1, multipv=_core.MAX_MULTIPV + 1)
    assert len(camelpy.search(FEN, depth=1, multipv=_core.MAX_MULTIPV).lines) == 20


if __name__ == "__main__":
    print(sweep_table())

#!/usr/bin/env python3
# camelpy: an atheris fuzzer over the Python API and the UCI loop.
# Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.
"""Fuzzes ``camelpy.Position``, ``camelpy.Engine.search`` arguments and the UCI command loop.

Run it with libFuzzer's options (``pip install -e '.[fuzz]'`` first)::

    python tests/fuzz/fuzz_api.py -max_total_time=60 /work/fuzz-state/atheris tests/fuzz/corpus
    python tests/fuzz/fuzz_api.py crash-<sha1>        # replays one input (a reproducer)

The first byte of an input picks the surface (``% 3``): 0 ``Position``, 1 ``Engine.search``, 2 the
UCI loop (the rest of the input is its stdin). Coverage comes from the instrumented ``camelpy`` Python
modules only; the Rust extension is exercised but not instrumented (``cargo fuzz`` covers the core).

The invariant: with valid arguments nothing may raise; with arguments the fuzzer made invalid, only
the documented families may escape (``ValueError`` and subclasses such as ``camelpy.InvalidFenError``
and ``chess.IllegalMoveError``, ``TypeError`` for a wrong type, ``IndexError`` for ``pop`` on an empty
stack), and a call that must fail must not succeed. Anything else (``PanicException``,
``SystemError``, ``OverflowError``, ``AttributeError``, a hang caught by ``-timeout``) is a finding:
it propagates, atheris stops and writes the input as ``crash-*``. Results are checked against
python-chess (legal moves, FEN, game-end predicates) and the search result against the board.

Defects already known are tallied instead of stopping the run (``KNOWN`` below; counts go to the JSON
file named by ``$CAMELPY_FUZZ_KNOWN``, if set). Each has a narrow predicate, so a new failure mode
still stops the run. Hash sizes are never fuzzed above 64 MB (a huge ``hash_mb`` aborted the
interpreter while that was being fixed), and UCI input that would run long (``bench`` beyond depth 2,
``go perft`` beyond 3, big ``Hash``/``Threads``, ``BookFile``) is dropped before it reaches the loop.
"""

from __future__ import annotations

import copy
import io
import json
import os
import pickle
import sys
import threading
from typing import Any, Protocol

import atheris

with atheris.instrument_imports(include=["camelpy"]):
    import camelpy
    from camelpy.protocols.uci import commands
    from camelpy.protocols.uci.loop import UciEngine

import chess

SEED_FENS: list[tuple[str, bool]] = [
    (chess.STARTING_FEN, False),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", False),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", False),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", False),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", False),
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", False),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", False),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),
    ("8/8/8/8/8/8/8/K1k5 w - - 99 80", False),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", True),
    ("rkn1qbbr/pp3ppp/4n3/2ppp3/4P1P1/P2P4/1PP2P1P/RKNNQBBR w HAha - 0 9", True),
]

KNOWN: dict[str, str] = {
    "negative-int-overflow": "a negative int where the binding takes an unsigned int raises OverflowError "
    "('can't convert negative int to unsigned'), not ValueError (known, being fixed on main)",
    "zero-limit-accepted": "Engine.search(ms=0) / (nodes=0) is accepted instead of raising ValueError "
    "(known, being fixed on main)",
    "huge-int-overflow": "an int beyond the binding's integer type (depth/mate >= 2**31, nodes/ms/multipv "
    ">= 2**64, or a negative int beyond 64 bits) raises OverflowError, not ValueError (found by this fuzzer; "
    "same family as the negative case)",
    "moves-wrong-type-attributeerror": "Engine.search(moves=[<str>]) raises AttributeError "
    "(\"'str' object has no attribute 'from_square'\"), not TypeError (found by this fuzzer)",
}

_known_hits: dict[str, int] = {}
_iterations = 0


def _dump_known() -> None:
    path = os.environ.get("CAMELPY_FUZZ_KNOWN")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"iterations": _iterations, "known": _known_hits}, out, indent=1, sort_keys=True)


def note_known(kind: str) -> None:
    assert kind in KNOWN, kind
    first = kind not in _known_hits
    _known_hits[kind] = _known_hits.get(kind, 0) + 1
    if first:
        print(f"fuzz_api: known defect seen: {kind}: {KNOWN[kind]}", file=sys.stderr)
        _dump_known()


class Finding(AssertionError):
    """An invariant broken: raised so that atheris stops and keeps the input."""


class Expect:
    """What the fuzzer injected into one call: reasons it *may* fail (input of unknown validity) and
    reasons it *must* fail (input made invalid on purpose), by kind."""

    def __init__(self) -> None:
        self.may: set[str] = set()
        self.must: set[str] = set()

    def bad(self, kind: str) -> None:
        self.must.add(kind)

    def maybe(self, kind: str) -> None:
        self.may.add(kind)


class Call(Protocol):
    """A call :func:`outcome` runs. (A protocol rather than ``Callable[[], Any]``, so that mypy accepts
    the lambdas that bind a loop variable as a default argument.)"""

    def __call__(self) -> Any: ...


def outcome(call: Call, expect: Expect, what: str) -> tuple[bool, Any]:
    """Runs *call* and judges the result against *expect*; returns ``(ok, result)``.

    Kinds: ``value`` (a ValueError is right), ``type`` (TypeError), ``negative`` / ``huge`` (an int out
    of range: ValueError is right, OverflowError is a known defect), ``zero`` (a zero limit: ValueError
    is right, acceptance is a known defect), ``movetype`` (a str in ``moves``).
    """
    kinds = expect.may | expect.must
    try:
        result = call()
    except ValueError:
        if not (kinds & {"value", "negative", "huge", "zero", "movetype"}):
            raise
        return False, None
    except TypeError:
        if not (kinds & {"type", "movetype"}):
            raise
        return False, None
    except OverflowError as err:  # an ArithmeticError, not a ValueError
        text = str(err)
        if "negative" in kinds and "negative" in text:
            note_known("negative-int-overflow")
            return False, None
        if kinds & {"negative", "huge"} and (
            "too big" in text or "too large" in text or "out of range" in text
        ):
            note_known("huge-int-overflow")
            return False, None
        raise
    except AttributeError as err:
        if "movetype" in kinds and "from_square" in str(err):
            note_known("moves-wrong-type-attributeerror")
            return False, None
        raise
    if expect.must:
        if expect.must == {"zero"}:
            note_known("zero-limit-accepted")
            return True, result
        raise Finding(f"{what}: accepted input that must fail ({sorted(expect.must)})")
    return True, result


# ----- Shared input helpers ---------------------------------------------------------------------------


def seed_board(fdp: atheris.FuzzedDataProvider, max_plies: int = 12) -> chess.Board:
    """A seed position after a few fuzz-chosen legal moves (python-chess plays them)."""
    fen, chess960 = SEED_FENS[fdp.ConsumeIntInRange(0, len(SEED_FENS) - 1)]
    board = chess.Board(fen, chess960=chess960)
    for _ in range(fdp.ConsumeIntInRange(0, max_plies)):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[fdp.ConsumeIntInRange(0, len(legal) - 1)])
    return board


def fuzz_text(fdp: atheris.FuzzedDataProvider, limit: int) -> str:
    text: str = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, limit))
    return text


def fuzz_move(fdp: atheris.FuzzedDataProvider) -> chess.Move:
    promotion = [None, chess.QUEEN, chess.KNIGHT, chess.KING, chess.PAWN][fdp.ConsumeIntInRange(0, 4)]
    return chess.Move(fdp.ConsumeIntInRange(0, 63), fdp.ConsumeIntInRange(0, 63), promotion)


def wrong_type(fdp: atheris.FuzzedDataProvider) -> object:
    return [None, 1.5, b"e2e4", object(), [1], {"a": 1}][fdp.ConsumeIntInRange(0, 5)]


# ----- Position ---------------------------------------------------------------------------------------


def same_as_board(pos: camelpy.Position, board: chess.Board) -> None:
    """Differential check against python-chess on the same position (beyond the FEN, only where
    python-chess calls the position valid: its move generator assumes that)."""
    if pos.fen() != board.fen():
        raise Finding(f"fen {pos.fen()!r} != python-chess {board.fen()!r}")
    if not board.is_valid():
        return
    ours = {m.uci() for m in pos.legal_moves()}
    theirs = {m.uci() for m in board.legal_moves}
    if ours != theirs:
        raise Finding(
            f"legal moves differ in {board.fen()!r}: extra {ours - theirs}, missing {theirs - ours}"
        )
    for name in ("is_check", "is_checkmate", "is_stalemate", "is_insufficient_material"):
        if getattr(pos, name)() != getattr(board, name)():
            raise Finding(f"{name}() differs from python-chess in {board.fen()!r}")
    if pos.turn != board.turn or pos.halfmove_clock != board.halfmove_clock:
        raise Finding(f"turn or halfmove clock differs in {board.fen()!r}")
    if pos.fullmove_number != board.fullmove_number:
        raise Finding(f"fullmove number differs in {board.fen()!r}")


def make_position(fdp: atheris.FuzzedDataProvider) -> tuple[camelpy.Position | None, chess.Board | None]:
    choice = fdp.ConsumeIntInRange(0, 5)
    expect = Expect()
    if choice <= 1:
        board = seed_board(fdp)
        ok, pos = outcome(lambda: camelpy.Position.from_board(board), expect, "Position.from_board")
        return pos, board
    if choice == 2:
        fen, chess960 = SEED_FENS[fdp.ConsumeIntInRange(0, len(SEED_FENS) - 1)]
        ok, pos = outcome(lambda: camelpy.Position(fen, chess960), expect, "Position(seed)")
        return pos, chess.Board(fen, chess960=chess960)
    if choice <= 4:
        text = fuzz_text(fdp, 120)
        chess960 = fdp.ConsumeBool()
        expect.maybe("value")
        ok, pos = outcome(lambda: camelpy.Position(text, chess960), expect, f"Position({text!r})")
        if not ok:
            return None, None
        # python-chess may read a FEN we reject or the reverse: compare only what we accepted.
        try:
            board = chess.Board(pos.fen(shredder=True), chess960=chess960)
        except ValueError as err:
            raise Finding(f"python-chess rejects our FEN {pos.fen(shredder=True)!r}: {err}") from err
        return pos, board
    bad = wrong_type(fdp)
    expect.bad("type")
    outcome(lambda: camelpy.Position(bad), expect, f"Position({bad!r})")  # type: ignore[arg-type]
    return None, None


def fuzz_position(fdp: atheris.FuzzedDataProvider) -> None:
    pos, board = make_position(fdp)
    if pos is None or board is None:
        return
    same_as_board(pos, board)
    for _ in range(fdp.ConsumeIntInRange(0, 40)):
        op = fdp.ConsumeIntInRange(0, 9)
        before = (pos.fen(), list(pos.move_stack))
        expect = Expect()
        if op <= 2:  # a legal move, as chess.Move or as UCI text
            legal = pos.legal_moves()
            if not legal:
                continue
            move = legal[fdp.ConsumeIntInRange(0, len(legal) - 1)]
            arg: Any = move if op != 2 else move.uci()
            outcome(lambda arg=arg: pos.push(arg), expect, f"push({arg!r})")
            board.push(move)
            same_as_board(pos, board)
        elif op <= 4:  # fuzzed text or a random chess.Move: may be invalid or illegal
            arg = fuzz_text(fdp, 6) if op == 3 else fuzz_move(fdp)
            expect.maybe("value")
            ok, _ = outcome(lambda arg=arg: pos.push(arg), expect, f"push({arg!r})")
            if ok:
                played = pos.move_stack[-1]
                if played not in board.legal_moves:
                    raise Finding(f"push({arg!r}) played {played} which python-chess finds illegal")
                board.push(played)
                same_as_board(pos, board)
            elif (pos.fen(), list(pos.move_stack)) != before:
                raise Finding(f"a refused push({arg!r}) changed the position")
        elif op == 5:  # wrong type
            bad = wrong_type(fdp)
            expect.bad("type")
            outcome(lambda bad=bad: pos.push(bad), expect, f"push({bad!r})")
            if (pos.fen(), list(pos.move_stack)) != before:
                raise Finding(f"a refused push({bad!r}) changed the position")
        elif op == 6:  # pop
            if not board.move_stack:
                try:
                    pos.pop()
                except IndexError:
                    continue
                raise Finding("pop() on an empty stack did not raise IndexError")
            expected = board.pop()
            got = pos.pop()
            if got != expected:
                raise Finding(f"pop() returned {got}, python-chess {expected}")
            same_as_board(pos, board)
        elif op == 7:  # FEN round trip
            shredder = fdp.ConsumeBool()
            fen = pos.fen(shredder=shredder)
            again = camelpy.Position(fen, pos.chess960)
            if again.fen(shredder=shredder) != fen or again.zobrist_key != pos.zobrist_key or again != pos:
                raise Finding(f"FEN round trip of {fen!r} changed the position")
            if hash(again) != hash(pos):
                raise Finding(f"equal positions hash differently: {fen!r}")
        elif op == 8:  # copies
            for twin in (pos.copy(), copy.copy(pos), copy.deepcopy(pos), pickle.loads(pickle.dumps(pos))):
                if twin.fen() != pos.fen() or twin.move_stack != pos.move_stack or twin != pos:
                    raise Finding(f"a copy differs from {pos.fen()!r}")
            rebuilt = camelpy.Position.from_board(pos.to_board())
            if rebuilt.fen() != pos.fen() or rebuilt.move_stack != pos.move_stack:
                raise Finding(f"from_board(to_board()) differs for {pos.fen()!r}")
        else:  # repetition and game end, with a fuzzed count
            count = fdp.ConsumeIntInRange(-3, 6)
            if count < 0:
                expect.bad("negative")
            ok, result = outcome(
                lambda count=count: pos.is_repetition(count), expect, f"is_repetition({count})"
            )
            if ok and result != board.is_repetition(count):
                raise Finding(f"is_repetition({count}) = {result}, python-chess disagrees in {board.fen()!r}")
            if pos.is_game_over() != board.is_game_over():
                raise Finding(f"is_game_over() differs from python-chess in {board.fen()!r}")


# ----- Engine.search ----------------------------------------------------------------------------------

_engine = camelpy.Engine(hash_mb=1)


def limit_arg(fdp: atheris.FuzzedDataProvider, expect: Expect, bits: int, small: int) -> tuple[Any, str]:
    """A value for one integer limit and its class: ``none``, ``small`` (1..small, so the search ends
    soon), ``big`` (valid but large), or ``bad`` (0, negative, or beyond *bits* bits; noted in
    *expect*)."""
    kind = fdp.ConsumeIntInRange(0, 11)
    if kind <= 3:
        return None, "none"
    if kind <= 7:
        return fdp.ConsumeIntInRange(1, small), "small"
    if kind == 8:
        return fdp.ConsumeIntInRange(small + 1, 2 ** (bits - 1) - 1), "big"
    if kind == 9:
        expect.bad("zero")
        return 0, "bad"
    if kind == 10:
        expect.bad("negative")
        return -fdp.ConsumeIntInRange(1, 2**70), "bad"
    expect.bad("huge")
    return fdp.ConsumeIntInRange(2**bits, 2**80), "bad"


def fuzz_search(fdp: atheris.FuzzedDataProvider) -> None:
    expect = Expect()
    source = fdp.ConsumeIntInRange(0, 7)
    board: chess.Board | None
    target: Any
    if source <= 4:
        board = seed_board(fdp, 8)
        target = board
        if source > 2 and not board.chess960:  # a FEN string is searched in standard mode, no history
            target = board.fen()
            board = chess.Board(target)
    elif source <= 6:
        target = fuzz_text(fdp, 100)
        board = None
        expect.maybe("value")
    else:
        target = wrong_type(fdp)
        board = None
        expect.bad("type")

    limits: dict[str, tuple[Any, str]] = {
        "ms": limit_arg(fdp, expect, 64, 15),
        "depth": limit_arg(fdp, expect, 32, 4),
        "nodes": limit_arg(fdp, expect, 64, 400),
        "mate": limit_arg(fdp, expect, 32, 3),
    }
    for name in ("depth", "mate"):  # zero is an ordinary ValueError there (only ms and nodes accept it)
        if limits[name][0] == 0:
            expect.must.discard("zero")
            expect.bad("value")
    if all(limits[name][1] != "small" for name in ("ms", "depth", "nodes")):
        # Keep every search short: replace the first limit that is absent or merely big by a small one
        # (if all three are invalid, the call must fail, or end at once for a known-accepted zero).
        for name, small in (("nodes", 400), ("depth", 3), ("ms", 15)):
            if limits[name][1] in ("none", "big"):
                limits[name] = (fdp.ConsumeIntInRange(1, small), "small")
                break
    kwargs: dict[str, Any] = {name: value for name, (value, _) in limits.items() if value is not None}
    multipv_kind = fdp.ConsumeIntInRange(0, 9)
    if multipv_kind <= 6:
        kwargs["multipv"] = fdp.ConsumeIntInRange(1, 4)
    elif multipv_kind == 7:
        kwargs["multipv"] = 0
        expect.bad("value")
    elif multipv_kind == 8:
        kwargs["multipv"] = -fdp.ConsumeIntInRange(1, 2**70)
        expect.bad("negative")
    else:
        kwargs["multipv"] = fdp.ConsumeIntInRange(2**64, 2**80)
        expect.bad("huge")

    moves_kind = fdp.ConsumeIntInRange(0, 7)
    legal = list(board.legal_moves) if board is not None else []
    if moves_kind <= 1 and legal:
        kwargs["moves"] = [
            legal[fdp.ConsumeIntInRange(0, len(legal) - 1)] for _ in range(fdp.ConsumeIntInRange(1, 4))
        ]
    elif moves_kind == 2:
        kwargs["moves"] = [fuzz_move(fdp)]
        expect.maybe("value")
    elif moves_kind == 3:
        kwargs["moves"] = [fuzz_text(fdp, 5)]
        expect.bad("movetype")
    elif moves_kind == 4:
        kwargs["moves"] = []

    reports: list[Any] = []
    info_kind = fdp.ConsumeIntInRange(0, 5)
    if info_kind <= 1:
        kwargs["info"] = reports.append
    elif info_kind == 2:

        def failing(_: Any) -> None:
            raise ValueError("callback says no")

        kwargs["info"] = failing
        expect.maybe("value")
    elif info_kind == 3:
        kwargs["info"] = 5
        expect.maybe("type")

    _engine.new_game()
    ok, result = outcome(lambda: _engine.search(target, **kwargs), expect, f"search({target!r}, {kwargs!r})")
    if not ok:
        return
    if board is None:
        board = chess.Board(camelpy.Position(target).fen())
    check_result(board, result, kwargs)


def check_result(board: chess.Board, result: camelpy.SearchResult, kwargs: dict[str, Any]) -> None:
    legal = list(board.legal_moves)
    where = f"search of {board.fen()!r} with {kwargs!r}"
    if result.best_move is None:
        if legal:
            raise Finding(f"{where}: no best move though {len(legal)} legal moves exist")
        return
    if result.best_move not in legal:
        raise Finding(f"{where}: best move {result.best_move} is illegal")
    restrict = kwargs.get("moves")
    if restrict and result.best_move not in restrict:
        raise Finding(f"{where}: best move {result.best_move} is not among the searchmoves {restrict}")
    if result.pv and result.pv[0] != result.best_move:
        raise Finding(f"{where}: the PV starts with {result.pv[0]}, not the best move")
    if not 0 <= result.hashfull <= 1000 or result.nodes < 0 or result.depth < 0:
        raise Finding(f"{where}: hashfull/nodes/depth out of range: {result!r}")
    multipv = kwargs.get("multipv", 1)
    if len(result.lines) > multipv:
        raise Finding(f"{where}: {len(result.lines)} lines for multipv {multipv}")


# ----- UCI --------------------------------------------------------------------------------------------

ALLOWED_FAILURES = {
    "ValueError",
    "CommandError",
    "OptionError",
    "InvalidFenError",
    "InvalidMoveError",
    "IllegalMoveError",
    "UnicodeEncodeError",
}
"""Exception names the loop may report in ``<command> failed: <Name>: ...`` / ``search failed``."""


def unsafe_line(line: str) -> bool:
    """True for a command that could run long, allocate much or touch files: dropped, not run."""
    found = commands.split_command(line.strip())
    if found is None:
        return False
    command, args = found
    words = args.split()
    if command == "bench":
        return not (len(words) >= 1 and words[0].isdigit() and 1 <= int(words[0]) <= 2)
    if command == "go":
        go, _ = commands.parse_go(args)
        return go.perft is not None and go.perft > 3
    if command == "setoption":
        try:
            name, value = commands.parse_setoption(args)
        except commands.CommandError:
            return False
        name = name.lower()
        if name in ("hash", "threads"):
            limit = 64 if name == "hash" else 4
            return not (value is not None and value.strip().isdigit() and int(value) <= limit)
        return name == "bookfile"
    return False


class UciRun:
    """One UCI session over the fuzzed input, its output captured and checked."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.engine = UciEngine(self.out.append)
        self.searches = 0
        self.thread_errors: list[BaseException] = []
        original = UciEngine.handle
        engine = self.engine

        def handle(line: str) -> bool:
            if unsafe_line(line):
                return True
            stripped = line.strip()
            # As UciEngine.handle: a line starting with '#' is a comment, whatever follows.
            found = None if stripped.startswith("#") else commands.split_command(stripped)
            started = found is not None and found[0] == "go" and commands.parse_go(found[1])[0].perft is None
            bestmoves = self.count_bestmoves()
            going_on = original(engine, line)
            if not isinstance(going_on, bool):
                raise Finding(f"handle({line!r}) returned {going_on!r}")
            if started:
                self.searches += 1
                original(engine, "stop")  # never let a search run on: stop it and wait for bestmove
                if self.count_bestmoves() != bestmoves + 1:
                    raise Finding(f"{line!r} then stop gave {self.count_bestmoves() - bestmoves} bestmoves")
            return going_on

        engine.handle = handle  # type: ignore[method-assign]

    def count_bestmoves(self) -> int:
        return sum(1 for line in self.out if line.startswith("bestmove"))

    def check_output(self) -> None:
        for line in self.out:
            if not isinstance(line, str) or "\n" in line or "\r" in line:
                raise Finding(f"output line {line!r} is not one line")
            if line.startswith("info string ") and " failed: " in line:
                name = line.split(" failed: ", 1)[1].split(":", 1)[0]
                if name not in ALLOWED_FAILURES:
                    raise Finding(f"the loop caught an unexpected exception: {line!r}")


def fuzz_uci(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    # The parsers alone, on one raw line: only CommandError (a ValueError) may escape.
    line = fdp.ConsumeUnicodeNoSurrogates(min(len(data), 200))
    commands.split_command(line)
    go, problems = commands.parse_go(line)
    if not all(isinstance(p, str) for p in problems):
        raise Finding(f"parse_go({line!r}) problems are not strings")
    for parse in (commands.parse_position, commands.parse_setoption):
        try:
            parse(line)
        except commands.CommandError:
            pass

    run = UciRun()
    hook = threading.excepthook

    def record(args: threading.ExceptHookArgs) -> None:
        run.thread_errors.append(args.exc_value if args.exc_value is not None else RuntimeError("?"))

    threading.excepthook = record
    try:
        status = run.engine.run(io.BytesIO(data))
    finally:
        threading.excepthook = hook
    # Break the handle -> closure -> engine cycle now, so each session's 16 MB table is freed at once.
    del run.engine.handle
    if status != 0:
        raise Finding(f"run() returned {status}")
    if run.thread_errors:
        raise Finding(f"a UCI worker thread died: {run.thread_errors[0]!r}") from run.thread_errors[0]
    run.check_output()


# ----- Entry point ------------------------------------------------------------------------------------


def test_one_input(data: bytes) -> None:
    global _iterations
    _iterations += 1
    if _iterations % 2000 == 0:
        _dump_known()
    if not data:
        return
    surface, rest = data[0] % 3, data[1:]
    if surface == 2:
        fuzz_uci(rest)
        return
    fdp = atheris.FuzzedDataProvider(rest)
    if surface == 0:
        fuzz_position(fdp)
    else:
        fuzz_search(fdp)


def _instrument_this_module() -> None:
    """Instruments the fuzzer's own functions too, so that coverage also tells apart the argument
    shapes it builds (which branch of ``limit_arg``, which ``Position`` operation)."""
    for value in list(globals().values()):
        if getattr(value, "__module__", None) != __name__:
            continue
        if isinstance(value, type):
            for member in vars(value).values():
                if callable(member) and hasattr(member, "__code__"):
                    atheris.instrument_func(member)
        elif hasattr(value, "__code__") and value is not main:
            atheris.instrument_func(value)


def main() -> None:
    _instrument_this_module()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

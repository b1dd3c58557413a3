"""The UCI engine (``python -m camelpy``): protocol, options, extras, robustness and latency.

Most tests drive the engine as a subprocess through :class:`UciProcess` (a reader thread makes every
read time out instead of hanging); a few use the in-process :class:`camelpy.protocols.uci.UciEngine`.
"""

from __future__ import annotations

import gc
import io
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path

import chess
import chess.polyglot
import pytest
from camelpy import _core, timeman
from camelpy.protocols.uci import UciEngine
from camelpy.protocols.uci.loop import MAX_LINE_BYTES, MAX_PERFT_DEPTH

from tests.conftest import DATA_DIR, REPO_ROOT

ENGINE_COMMAND = [sys.executable, "-m", "camelpy"]
BAD_INPUT = DATA_DIR / "uci_bad_input.txt"
BAD_BINARY = DATA_DIR / "uci_binary.bin"
MATE_IN_2 = "r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1"  # 1. Qxh6+ Rxh6 2. Rg8#
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

GENEROUS_S = 0.5
"""Bound for the latency checks (stop, quit, isready): far above the targets (20 ms / 100 ms), so a busy CI
machine cannot make them flaky; the measured figures are printed (``pytest -s``) and quoted in
docs/guide/uci.md."""


class UciProcess:
    """``python -m camelpy`` with a reader thread, so every read can time out instead of hanging."""

    def __init__(self, args: Sequence[str] = (), command: Sequence[str] = ENGINE_COMMAND) -> None:
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.transcript: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", errors="replace").rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line: str | bytes) -> float:
        """Writes one line (a newline is added); returns when it was written."""
        assert self.proc.stdin is not None
        data = line if isinstance(line, bytes) else line.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def read(self, timeout: float = 10.0) -> tuple[float, str]:
        """The next output line and when it arrived; fails on timeout or end of output."""
        when, line = self.lines.get(timeout=timeout)
        if line is None:
            raise EOFError(f"engine output ended; last lines: {self.transcript[-10:]}")
        self.transcript.append(line)
        return when, line

    def read_until(self, prefix: str, timeout: float = 10.0) -> tuple[float, str, list[str]]:
        """Reads up to the first line starting with *prefix*: its arrival time, the line, the lines
        before it."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            when, line = self.read(max(0.001, deadline - time.monotonic()))
            if line.startswith(prefix):
                return when, line, seen
            seen.append(line)

    def drain(self, quiet_s: float = 0.2) -> list[str]:
        """All lines until none has come for *quiet_s* seconds."""
        seen = []
        while True:
            try:
                seen.append(self.read(quiet_s)[1])
            except (queue.Empty, EOFError):
                return seen

    def close(self, timeout: float = 10.0) -> int:
        """Closes stdin (end of input means quit) and returns the exit status."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()

    def __enter__(self) -> UciProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


class InProcess:
    """A :class:`UciEngine` in this process, collecting its output."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.engine = UciEngine(self.out.append)

    def run(self, *lines: str) -> list[str]:
        """Runs the lines, waits for any search to answer, returns the new output."""
        start = len(self.out)
        for line in lines:
            self.engine.handle(line)
        self.engine.wait()
        return self.out[start:]


# Handshake and options ------------------------------------------------------------------------------


def test_uciok_within_a_second_of_launch() -> None:
    with UciProcess() as uci:
        sent = uci.send("uci")
        when, _, before = uci.read_until("uciok")
        startup = when - uci.started
        print(f"uciok {startup * 1000:.0f} ms after launch ({(when - sent) * 1000:.1f} ms after 'uci')")
        assert startup < 5.0  # generous; the target is 1 s (docs/guide/uci.md quotes the measurement)
        assert before[0].startswith("id name camelpy") and before[1].startswith("id author ")
        assert uci.close() == 0


@pytest.mark.parametrize(
    "stdin",
    [
        b"quit\n",
        b"position startpos\ngo nodes 500\nquit\n",
        b"go infinite\n",
        b"setoption name Hash value 8\n",
    ],
)
def test_a_finished_loop_is_freed_without_the_garbage_collector(stdin: bytes) -> None:
    # Each loop owns a 16 MB table the garbage collector does not see; a reference cycle (the search
    # session holding a bound method of the loop) kept every finished loop until the next collection:
    # 600 sessions in one process reached 300-600 MB, and the API fuzzer's 2 GB limit.
    enabled = gc.isenabled()
    gc.disable()
    try:
        loop = UciEngine(lambda line: None)
        loop.run(io.BytesIO(stdin))
        ref = weakref.ref(loop)
        del loop
        assert ref() is None, [type(r).__name__ for r in gc.get_referrers(ref())]
    finally:
        if enabled:
            gc.enable()


USER_OPTIONS = (
    "Hash", "Threads", "Clear Hash", "Ponder", "MultiPV", "Move Overhead", "UCI_Chess960", "UCI_ShowWDL",
    "SyzygyPath", "OwnBook", "BookFile", "ParamsFile", "Use NNUE", "EvalFile", "TablebasePath", "BookSeed",
    "UCI_LimitStrength", "UCI_Elo", "Strength Seed", "Show Tuning Options",
)  # fmt: skip
"""What ``uci`` lists by default, in order: the options a player sets in a GUI's settings dialog."""

MAX_LISTED_OPTIONS = 21
"""At most this many options by default: a GUI shows every listed option in its settings dialog, and
no more than Stockfish lists (21 for the Stockfish 15.1 of the tests; its tunables only in a tuning
build). Before the tuning options were hidden, camelpy listed 500 (455 evaluation weights and 29 search
settings among them)."""


def _declared(lines: list[str]) -> list[str]:
    options = [line for line in lines if line.startswith("option ")]
    for line in options:
        spin = re.search(r"type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if spin:
            default, lo, hi = map(int, spin.groups())
            assert lo <= default <= hi, line
        # python-chess, fastchess and cutechess split option lines on these words: none may be in a name
        name = re.match(r"option name (.+?) type ", line).group(1)  # type: ignore[union-attr]
        assert not set(name.split()) & {"name", "type", "default", "min", "max", "var"}
    return options


def _names(options: list[str]) -> list[str]:
    return [re.match(r"option name (.+?) type ", line).group(1) for line in options]  # type: ignore[union-attr]


def test_uci_lists_only_the_options_a_player_sets() -> None:
    session = InProcess()
    lines = session.run("uci")
    options = _declared(lines)
    assert tuple(_names(options)) == USER_OPTIONS
    assert len(options) <= MAX_LISTED_OPTIONS
    assert "option name Use NNUE type check default true" in options
    assert f"option name EvalFile type string default {_core.NET_EMBEDDED}" in options
    assert "option name Show Tuning Options type check default false" in options
    assert lines[-1] == "uciok"


def test_show_tuning_options_lists_every_weight_and_search_setting() -> None:
    session = InProcess()
    assert session.run("setoption name Show Tuning Options value true") == []
    lines = session.run("uci")
    options = _declared(lines)
    params = _core.Engine().params() + _core.Engine().search_params() + list(timeman.TUNING_OPTIONS)
    assert len(options) == len(USER_OPTIONS) + len(params) == 508
    assert tuple(_names(options)[: len(USER_OPTIONS)]) == USER_OPTIONS
    for name, value, lo, hi in params:
        assert f"option name {name} type spin default {value} min {lo} max {hi}" in options
    assert lines[-1] == "uciok"
    # Switched off, the next uci lists the short table again.
    session.run("setoption name show tuning options value false")
    assert tuple(_names(_declared(session.run("uci")))) == USER_OPTIONS


def test_show_tuning_options_from_the_command_line() -> None:
    # How a GUI, cutechess-cli (arg=...) or lichess-bot (engine_options) gets the full list: the flag is
    # applied before the GUI sends uci.
    for args, count in (((), len(USER_OPTIONS)), (("--Show_Tuning_Options=true",), 508)):
        with UciProcess(args) as uci:
            uci.send("uci")
            _, _, before = uci.read_until("uciok")
            options = _declared(before)
            assert len(options) == count
            assert ("option name rfp_margin type spin default 75 min 35 max 150" in options) == bool(args)
            uci.send("quit")
            assert uci.close() == 0


def test_setoption_names_are_case_insensitive_and_may_have_spaces() -> None:
    session = InProcess()
    assert session.run("setoption name hash value 4", "setoption name move   overhead value 77") == []
    assert session.engine._engine.hash_mb == 4
    assert session.engine._options["Move Overhead"] == 77
    assert session.run("setoption name THREADS value 2") == []
    assert session.engine._engine.threads == 2


def test_bad_option_values_are_reported_and_ignored() -> None:
    session = InProcess()
    out = session.run(
        "setoption name Hash value 0",
        "setoption name Hash value abc",
        "setoption name MultiPV value 300",
        "setoption name UCI_ShowWDL value maybe",
        "setoption name NoSuchOption value 1",
        "setoption name Hash value 1048576",
    )
    assert len(out) == 6 and all(line.startswith("info string ") for line in out)
    assert "'Hash'" in out[0] and "from 1 to" in out[0]
    assert "no such option: 'NoSuchOption'" in out[4]
    assert session.engine._engine.hash_mb == 16
    name, value, lo, hi = _core.Engine().params()[0]
    bad = session.run(f"setoption name {name} value {hi + 1}")
    assert len(bad) == 1 and name in bad[0] and str(hi) in bad[0]


def test_evaluation_parameters_change_the_evaluation() -> None:
    # Hidden from uci (see above), settable all the same.
    session = InProcess()
    assert "pawn_value_mg" not in _names(_declared(session.run("uci")))
    params = {name: (value, lo, hi) for name, value, lo, hi in session.engine._engine.params()}
    value, lo, hi = params["pawn_value_mg"]
    before = session.run("position fen 4k3/pppp4/8/8/8/8/PPPPPP2/4K3 w - - 0 1", "eval")
    assert session.run(f"setoption name Pawn_Value_MG value {min(hi, value + 100)}") == [
        "info string pawn_value_mg set: the classical evaluation's weights act with 'Use NNUE' false"
    ]
    after = session.run("eval")
    assert before != after
    assert session.run("setoption name Use NNUE value false", "setoption name pawn_value_mg value 100") == []


def test_search_settings_are_spin_options_that_change_the_search() -> None:
    # Hidden from uci until Show Tuning Options is set, settable all the same.
    session = InProcess()
    assert not set(_names(_declared(session.run("uci")))) & {n for n, *_ in _core.default_search_params()}
    session.run("setoption name Show Tuning Options value true")
    declared = session.run("uci")
    session.run("setoption name Show Tuning Options value false")
    for name, value, lo, hi in _core.default_search_params():
        assert f"option name {name} type spin default {value} min {lo} max {hi}" in declared

    def nodes(out: list[str]) -> int:
        last = [line for line in out if line.startswith("info depth 7")][-1]
        return int(re.findall(r" nodes (\d+)", last)[0])

    session.run("position fen " + KIWIPETE)
    before = nodes(session.run("go depth 7"))
    assert session.run("ucinewgame", "setoption name Improving value 1") == []
    after = nodes(session.run("go depth 7"))
    assert session.run("ucinewgame", "setoption name improving value 0") == []
    assert nodes(session.run("go depth 7")) == before != after
    # A tunable of the search (a margin) likewise, and its default gives the same search back.
    assert session.run("ucinewgame", "setoption name rfp_margin value 150") == []
    assert nodes(session.run("go depth 7")) != before
    assert session.run("ucinewgame", "setoption name RFP_Margin value 75") == []
    assert nodes(session.run("go depth 7")) == before
    bad = session.run("setoption name improving value 2")
    assert len(bad) == 1 and bad[0].startswith("info string") and "'improving'" in bad[0]


def test_syzygy_path_is_accepted_with_a_notice() -> None:
    session = InProcess()
    out = session.run("setoption name SyzygyPath value /tmp/tb", "setoption name SyzygyPath value <empty>")
    assert out == ["info string SyzygyPath noted, but camelpy reads its own tables: set TablebasePath"]


def test_tablebase_path_loads_our_tables_and_the_search_uses_them(tmp_path: Path) -> None:
    from camelpy.tablebase import generate

    generate(tmp_path, ["KRvK"], threads=1)
    session = InProcess()
    out = session.run(f"setoption name TablebasePath value {tmp_path}")
    assert out == [f"info string TablebasePath: 1 table loaded from '{tmp_path}'"]
    assert session.engine._engine.tablebase_path == str(tmp_path)
    # KRK, mate in 15 moves by the table (DTM 29): the search reports exactly that.
    out = session.run("position fen 8/8/8/8/4k3/8/8/KR6 w - - 0 1", "go nodes 3000")
    assert any(" score mate " in line for line in out), out
    mates = [int(line.split(" score mate ")[1].split()[0]) for line in out if " score mate " in line]
    assert mates[-1] == 15 and out[-1].startswith("bestmove ")
    bad = session.run(f"setoption name TablebasePath value {tmp_path / 'missing'}")
    assert len(bad) == 1 and bad[0].startswith("info string option 'TablebasePath' not changed: ")
    assert session.engine._engine.tablebase_path == str(tmp_path)
    assert session.run("setoption name TablebasePath value <empty>") == []
    assert session.engine._engine.tablebase_path is None


def test_clear_hash_button_accepts_a_stray_value() -> None:
    session = InProcess()
    assert session.run("setoption name Clear Hash", "setoption name Clear Hash value true") == []


# Searching ------------------------------------------------------------------------------------------


def test_go_depth_reports_and_answers_once() -> None:
    session = InProcess()
    out = session.run("position startpos moves e2e4", "go depth 6")
    infos = [line for line in out if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == list(range(1, 7))
    for line in infos:
        assert re.fullmatch(
            r"info depth \d+ seldepth \d+ multipv 1 score (cp|mate) -?\d+ nodes \d+ nps \d+ "
            r"hashfull \d+ time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+",
            line,
        ), line
    assert [line for line in out if line.startswith("bestmove")] == [out[-1]]
    best = out[-1].split()
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best[1]) in board.legal_moves and best[2] == "ponder"


def test_mate_pv_ends_in_mate() -> None:
    session = InProcess()
    out = session.run(f"position fen {MATE_IN_2}", "go depth 8")
    last = [line for line in out if line.startswith("info depth")][-1]
    assert " score mate 2 " in last
    board = chess.Board(MATE_IN_2)
    for move in last.split(" pv ")[1].split():
        board.push_uci(move)
    assert board.is_checkmate()


def test_no_legal_move_answers_0000_with_a_reason() -> None:
    session = InProcess()
    mated = session.run("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 5")
    assert mated[-2:] == ["info string no legal move (checkmate)", "bestmove 0000"]
    assert "score mate 0" in mated[0]
    stalemated = session.run("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go wtime 1000 btime 1000")
    assert stalemated[-2:] == ["info string no legal move (stalemate)", "bestmove 0000"]
    assert "score cp 0" in stalemated[0]


def test_multipv_gives_one_line_per_pv() -> None:
    session = InProcess()
    out = session.run("setoption name MultiPV value 3", "position startpos", "go depth 5")
    infos = [line for line in out if line.startswith("info depth 5 ")]
    assert [line.split()[6] for line in infos] == ["1", "2", "3"]
    firsts = {line.split(" pv ")[1].split()[0] for line in infos}
    assert len(firsts) == 3


def test_show_wdl_adds_a_consistent_wdl() -> None:
    session = InProcess()
    out = session.run("setoption name UCI_ShowWDL value true", f"position fen {KIWIPETE}", "go depth 4")
    for line in (line for line in out if line.startswith("info depth")):
        w, d, loss = map(int, re.search(r" wdl (\d+) (\d+) (\d+) ", line).groups())  # type: ignore[union-attr]
        assert w + d + loss == 1000
        cp = int(re.search(r"score cp (-?\d+)", line).group(1))  # type: ignore[union-attr]
        assert (w > loss) == (cp > 0) or cp == 0


def test_searchmoves_restricts_the_root() -> None:
    session = InProcess()
    out = session.run("position startpos", "go depth 4 searchmoves a2a3 h2h3")
    assert out[-1].split()[1] in ("a2a3", "h2h3")
    bad = session.run("go depth 2 searchmoves e2e5")
    assert bad[0] == "info string go: searchmoves 'e2e5' is not a legal move here, ignored"
    assert bad[-1].startswith("bestmove ")


def test_position_formats_and_long_games() -> None:
    session = InProcess()
    # X-FEN and Shredder FEN in standard chess, castling either way
    for fen in ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"):
        assert session.run(f"position fen {fen} moves e1g1 e8c8") == []
    # Chess960 with king-takes-rook castling
    out = session.run(
        "setoption name UCI_Chess960 value true",
        "position fen 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1 moves e1g1 e8b8",
        "d",
        "go depth 3",
    )
    assert "Fen: 2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2" in out
    assert out[-1].startswith("bestmove ") and not any("rejected" in line for line in out)
    session.run("setoption name UCI_Chess960 value false")
    # a long game: 4000 plies of knight moves (a draw by repetition long ago, still a legal move list)
    shuffle = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 1000)
    out = session.run(f"position startpos moves {shuffle}", "go depth 3")
    assert out[-1].startswith("bestmove ")


def test_rejected_position_keeps_the_previous_one() -> None:
    session = InProcess()
    session.run("position startpos moves e2e4")
    out = session.run("position startpos moves d2d4 e9e5", "position fen 8/8/8 w - - 0 1", "d")
    assert out[0] == "info string position rejected: move 2 'e9e5': invalid uci: 'e9e5'"
    assert out[1].startswith("info string position rejected: expected 8 ranks")
    assert "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" in out


# Extras ---------------------------------------------------------------------------------------------


def test_go_perft_prints_divide_then_total() -> None:
    session = InProcess()
    out = session.run("position startpos", "go perft 3")
    assert len(out) == 22 and out[-2] == "" and out[-1] == "Nodes searched: 8902"
    assert sum(int(line.split(": ")[1]) for line in out[:-2]) == 8902
    kiwipete = session.run(f"position fen {KIWIPETE}", "go perft 2")
    assert kiwipete[-1] == "Nodes searched: 2039"


def test_a_deep_go_perft_runs_beside_the_loop_and_stops() -> None:
    """``go perft`` counts on a thread of its own: ``isready`` is answered while it runs and ``stop``
    ends it (issue 37: a deep one left the engine deaf until it finished, hours at depth 9)."""
    with UciProcess() as uci:
        uci.send("position startpos")
        uci.send(f"go perft {MAX_PERFT_DEPTH}")
        sent = uci.send("isready")
        when, _, before = uci.read_until("readyok")
        assert before == [] and when - sent < GENEROUS_S
        uci.send("stop")
        _, line, _ = uci.read_until("info string go perft", timeout=10)
        assert line.startswith(f"info string go perft {MAX_PERFT_DEPTH} stopped after ")
        assert uci.send("go perft 2") and uci.read_until("Nodes searched: 400")
        uci.send("quit")
        assert uci.close() == 0


def test_d_shows_board_fen_key_and_checkers() -> None:
    session = InProcess()
    out = session.run("position startpos moves e2e4 f7f6 d1h5", "d")
    board = chess.Board()
    for move in ("e2e4", "f7f6", "d1h5"):
        board.push_uci(move)
    assert f"Fen: {board.fen()}" in out
    assert f"Key: {chess.polyglot.zobrist_hash(board):016X}" in out
    assert "Checkers: h5" in out
    assert out[:8] == str(board).splitlines()


def test_eval_prints_the_term_breakdown() -> None:
    session = InProcess()
    out = session.run(f"position fen {KIWIPETE}", "eval")
    assert out[:-1] == session.engine._engine.eval_trace(KIWIPETE, [], False).splitlines()
    assert any("Material" in line for line in out)
    value = session.engine._engine.evaluate(KIWIPETE, [], False)
    assert out[-1] == f"NNUE evaluation {value / 100:+.2f} (white side), network {_core.NET_EMBEDDED}"
    out = session.run("position fen 4k3/8/8/8/8/8/8/QQQ1K3 b - - 0 1", "eval")
    assert out[-1].startswith("NNUE evaluation +") and float(out[-1].split()[2]) > 10
    session.run("setoption name Use NNUE value false")
    assert not session.run("eval")[-1].startswith("NNUE")
    session.engine.handle("go infinite")
    session.engine.handle("eval")
    session.engine.handle("stop")
    assert "info string eval: not while searching (send stop first)" in session.out


def test_bench_on_the_command_line_without_stdin() -> None:
    runs = [
        subprocess.run(
            [*ENGINE_COMMAND, "bench", "4"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    first, second = (r.stdout.splitlines() for r in runs)
    nodes = int(first[1].removeprefix("Nodes searched: "))
    assert nodes == _core.bench(4)[0] == int(second[1].removeprefix("Nodes searched: "))
    assert first[2].startswith("Nodes/second: ")
    assert re.fullmatch(rf"{nodes} nodes \d+ nps", first[3])
    # OpenBench's parser (Client/bench.py): ASCII, lines from the end, non-alphanumerics to spaces
    assert _openbench_parse(runs[0].stdout.encode("ascii")) == (nodes, int(first[2].split()[-1]))
    bad = subprocess.run([*ENGINE_COMMAND, "bench", "x"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "expected a depth" in bad.stderr


def _openbench_parse(stream: bytes) -> tuple[int | None, int | None]:
    """Reads a bench's node count and speed the way OpenBench's client does."""
    nodes = nps = None
    for line in stream.decode("ascii").strip().split("\n")[::-1]:
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
        found_nps = re.search(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)", line, re.IGNORECASE)
        found_nodes = re.search(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)", line, re.IGNORECASE)
        if found_nps and nps is None:
            nps = int(re.search(r"\d+", found_nps.group()).group())  # type: ignore[union-attr]
        if found_nodes and nodes is None:
            nodes = int(re.search(r"\d+", found_nodes.group()).group())  # type: ignore[union-attr]
    return nodes, nps


def test_bench_inside_the_loop() -> None:
    session = InProcess()
    out = session.run("bench 3")
    assert out[1] == f"Nodes searched: {_core.bench(3)[0]}"


def test_lichess_bot_style_arguments_are_tolerated() -> None:
    with UciProcess(["--Hash=8", "--Move_Overhead=50", "--no-such=1", "stray"]) as uci:
        uci.send("isready")
        uci.read_until("readyok")
        assert uci.close() == 0
        stderr = uci.proc.stderr.read().decode()  # type: ignore[union-attr]
    assert "'--no-such=1'" in stderr and "'stray'" in stderr and "Hash" not in stderr


# Threads, state machine, latency --------------------------------------------------------------------


def test_isready_mid_search_answers_at_once_without_stopping() -> None:
    with UciProcess() as uci:
        uci.send("position startpos")
        uci.send("go infinite")
        uci.read_until("info depth 3")
        sent = uci.send("isready")
        when, _, before = uci.read_until("readyok")
        print(f"isready answered in {(when - sent) * 1000:.1f} ms mid-search")
        assert when - sent < GENEROUS_S
        assert not any(line.startswith("bestmove") for line in before)
        uci.read_until("info depth", timeout=10)  # still searching
        uci.send("stop")
        uci.read_until("bestmove")
        assert uci.close() == 0


def test_stop_and_quit_latency_during_a_deep_search() -> None:
    with UciProcess() as uci:
        uci.send(f"position fen {KIWIPETE}")
        uci.send("go infinite")
        uci.read_until("info depth 8", timeout=30)
        time.sleep(0.3)  # well inside an iteration
        sent = uci.send("stop")
        when, best, _ = uci.read_until("bestmove")
        stop_ms = (when - sent) * 1000
        uci.send("go infinite")
        uci.read_until("info depth 8", timeout=30)
        time.sleep(0.3)
        sent = uci.send("quit")
        _, second, _ = uci.read_until("bestmove")
        status = uci.proc.wait(10)
        quit_ms = (time.monotonic() - sent) * 1000
    print(f"stop -> bestmove {stop_ms:.1f} ms; quit -> exit {quit_ms:.1f} ms")
    assert stop_ms < GENEROUS_S * 1000 and quit_ms < GENEROUS_S * 1000
    assert status == 0 and best.split()[1] != "0000" and second.startswith("bestmove ")


def test_go_infinite_waits_for_stop_even_at_mate() -> None:
    with UciProcess() as uci:
        uci.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        uci.send("go infinite depth 3")
        lines = [uci.read(10)[1], *uci.drain(0.5)]  # the first line whenever the process is up
        assert not any(line.startswith("bestmove") for line in lines)
        uci.send("stop")
        assert uci.read_until("bestmove")[1].split()[1] == "d1d8"
        assert uci.close() == 0


def test_ponder_then_ponderhit_becomes_a_timed_search() -> None:
    with UciProcess() as uci:
        uci.send("setoption name Ponder value true")
        uci.send("position startpos moves e2e4 e7e5")
        uci.send("go ponder wtime 2000 btime 2000 winc 20 binc 20")
        lines = uci.drain(0.4)
        assert not any(line.startswith("bestmove") for line in lines)
        sent = uci.send("ponderhit")
        when, best, _ = uci.read_until("bestmove", timeout=5)
        elapsed = when - sent
        print(f"bestmove {elapsed * 1000:.0f} ms after ponderhit (2 s + 20 ms clock)")
        assert elapsed < 1.0  # the hard budget for a 2 s clock is far below this
        board = chess.Board()
        board.push_uci("e2e4")
        board.push_uci("e7e5")
        assert chess.Move.from_uci(best.split()[1]) in board.legal_moves
        assert uci.close() == 0


def test_stop_during_ponder_answers_bestmove() -> None:
    with UciProcess() as uci:
        uci.send("position startpos")
        uci.send("go ponder wtime 100 btime 100")
        uci.drain(0.3)
        uci.send("stop")
        assert uci.read_until("bestmove")[1].startswith("bestmove ")
        uci.send("isready")
        assert uci.read_until("readyok")
        assert uci.close() == 0


def test_ponder_search_that_ended_waits_for_ponderhit() -> None:
    with UciProcess() as uci:
        uci.send("position startpos")
        uci.send("go ponder depth 2")
        assert not any(line.startswith("bestmove") for line in uci.drain(0.4))
        uci.send("ponderhit")
        assert uci.read_until("bestmove", timeout=2)
        assert uci.close() == 0


def test_go_during_a_search_answers_the_first_then_searches() -> None:
    session = InProcess()
    session.engine.handle("go infinite")
    session.engine.handle("setoption name Hash value 2")
    session.engine.handle("ucinewgame")
    session.engine.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    assert session.engine._options["Hash"] == 16  # deferred (the core's hash_mb would wait for the search)
    out = session.run("go depth 4")
    assert sum(line.startswith("bestmove") for line in session.out) == 2
    assert out[-1] == "bestmove d1d8"  # the second go searched the position sent mid-search
    assert session.engine._engine.hash_mb == 2  # applied once the first search answered
    assert any("received during a search" in line for line in session.out)


def test_timed_search_answers_well_inside_its_clock() -> None:
    with UciProcess() as uci:
        uci.send("position startpos")
        uci.send("isready")
        uci.read_until("readyok")  # started up: the timing below is the search's
        for go, hard_ms in (("go wtime 1000 winc 10 btime 1000 binc 10", 117), ("go movetime 300", 290)):
            sent = uci.send(go)
            when, best, _ = uci.read_until("bestmove", timeout=5)
            print(f"{go}: bestmove after {(when - sent) * 1000:.0f} ms (hard budget {hard_ms} ms)")
            assert when - sent < hard_ms / 1000 + GENEROUS_S
        # only the other side's clock: still a timed search
        uci.send("go btime 200")
        when, _, before = uci.read_until("bestmove", timeout=5)
        assert any("no clock for the side to move" in line for line in before)
        assert uci.close() == 0


def test_the_time_managers_tuning_options_set_the_budget() -> None:
    # With debug on, a timed go says its budget; tm_horizon and tm_inc_share (hidden tuning options,
    # timeman.TUNING_OPTIONS) are budget()'s horizon and increment share.
    def soft_ms(*setoptions: str) -> int:
        session = InProcess()
        session.run("debug on", *setoptions, "position startpos")
        out = session.run("go wtime 6000 btime 6000 winc 60 binc 60")
        (line,) = [line for line in out if line.startswith("info string time budget: ")]
        return int(line.split()[5])

    def budget_soft_ms(horizon: int = timeman.MOVES_HORIZON, inc_share: float = timeman.INC_SHARE) -> int:
        limits = timeman.budget(6000, 60, overhead_ms=10, horizon=horizon, inc_share=inc_share)
        assert limits is not None
        return limits.soft_ms

    assert soft_ms() == budget_soft_ms()
    horizon = "setoption name tm_horizon value 20"
    assert soft_ms(horizon) == budget_soft_ms(horizon=20) > soft_ms()
    share = "setoption name tm_inc_share value 100"
    assert soft_ms(share) == budget_soft_ms(inc_share=1.0) > soft_ms()


def test_tm_lost_cp_stops_early_in_a_lost_position() -> None:
    # A queen down (about -9 pawns for White, no mate in sight): with tm_lost_cp 500 the time manager
    # stops on its smallest factor, whatever the best move's stability, and says so with debug on.
    session = InProcess()
    session.run("debug on", "setoption name tm_lost_cp value 500")
    session.run("position fen 3qk2r/pppppppp/8/8/8/8/PPPPPPPP/4K2R w Kk - 0 1")
    out = session.run("go wtime 6000 btime 6000 winc 60 binc 60")
    (stop,) = [line for line in out if line.startswith("info string time manager stops at ")]
    assert stop.endswith(f"(soft x {timeman.STABILITY_SCALE_MIN:.2f})"), stop
    scores = [int(line.split(" score cp ")[1].split()[0]) for line in out if " score cp " in line]
    assert scores[-1] <= -500, scores
    assert out[-1].startswith("bestmove ")


def test_currmove_lines_on_a_long_search() -> None:
    session = InProcess()
    session.run(f"position fen {KIWIPETE}")
    session.engine.handle("go infinite")
    # The core reports root moves from 3 s on; under load an iteration's first move can take a while.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(" currmove " in line for line in list(session.out)):
        time.sleep(0.05)
    session.engine.handle("stop")
    session.engine.wait()
    currmoves = [line for line in session.out if " currmove " in line]
    assert currmoves, "no currmove line in 30 s"
    assert re.fullmatch(
        r"info depth \d+ currmove [a-h][1-8][a-h][1-8][qrbn]? currmovenumber \d+ nodes \d+ time \d+",
        currmoves[0],
    )
    # the last info before bestmove carries a score (fastchess checks this)
    infos = [line for line in session.out if line.startswith("info depth")]
    assert " score " in infos[-1]


# Robustness -----------------------------------------------------------------------------------------


def _corpus_commands() -> list[bytes]:
    """The bad-input corpus, one command per line, its ``## comment`` removed."""
    commands = []
    for raw in BAD_INPUT.read_bytes().split(b"\n"):
        if raw:
            command, sep, _ = raw.rpartition(b" ## ")
            commands.append(command if sep else raw)
    return commands


def _count_commands(lines: list[bytes], word: str) -> int:
    """How many *word* commands (``go``: not ``go perft``) the lines hold, by the loop's documented rule:
    the first known command word of a line is its command; LF, CRLF and CR end lines."""
    from camelpy.protocols.uci.commands import split_command

    count = 0
    for raw in lines:
        text = raw.decode("utf-8", errors="replace").replace("\r", "\n")
        for line in text.split("\n"):
            found = split_command(line)
            if found and found[0] == word and "perft" not in found[1].split():
                count += 1
    return count


@pytest.mark.parametrize("corpus", ["text", "binary"])
def test_bad_input_corpus_leaves_the_engine_alive(corpus: str) -> None:
    lines = _corpus_commands() if corpus == "text" else BAD_BINARY.read_bytes().split(b"\n")
    lines += [b"stop", b"isready"]
    expected = _count_commands(lines, "go")
    readies = _count_commands(lines, "isready")
    assert expected >= (15 if corpus == "text" else 1)
    with UciProcess() as uci:
        for line in lines:
            uci.send(line)
        for _ in range(readies):  # every isready is answered; the last comes after the final stop
            uci.read_until("readyok", timeout=30)
        assert uci.proc.poll() is None, "the engine died"
        assert uci.close() == 0
        stderr = uci.proc.stderr.read().decode()  # type: ignore[union-attr]
    bestmoves = [line for line in uci.transcript if line.startswith("bestmove")]
    assert len(bestmoves) == expected
    assert "Traceback" not in stderr
    if corpus == "text":
        strings = [line for line in uci.transcript if line.startswith("info string")]
        assert any("unknown command: 'xyzzy'" in s for s in strings)
        assert any("'e2e5'" in s for s in strings) and any("'-1000'" in s or "-1000" in s for s in strings)
        assert "bestmove 0000" in bestmoves


def test_overlong_line_is_skipped_and_reported() -> None:
    with UciProcess() as uci:
        uci.send(b"position startpos moves " + b"e2e4 " * (MAX_LINE_BYTES // 5 + 10))
        uci.send("isready")
        _, line, _ = uci.read_until("info string")
        assert re.fullmatch(
            rf"info string input line of \d+ bytes ignored \(longer than {MAX_LINE_BYTES} bytes\)", line
        )
        uci.read_until("readyok")
        uci.send("go depth 1")
        assert uci.read_until("bestmove")[1].startswith("bestmove ")
        assert uci.close() == 0


def test_end_of_input_quits_during_a_search() -> None:
    with UciProcess() as uci:
        uci.send("go infinite")
        uci.read_until("info depth 2")
        assert uci.close(timeout=5) == 0
        uci.drain(0.1)
    assert sum(line.startswith("bestmove") for line in uci.transcript) == 1


def test_output_is_utf8_whatever_the_locale() -> None:
    env = {"PATH": "", "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"}
    run = subprocess.run(
        ENGINE_COMMAND,
        input=b"\xff\xfe go depth 1 \xc3\xa9\nposition startpos moves \xe2\x82\xac\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert b"bestmove" in run.stdout and b"Traceback" not in run.stderr


# OpenBench build -----------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_exe_builds_a_launcher_whose_bench_needs_no_stdin(tmp_path: Path) -> None:
    exe = tmp_path / "camelpy-ob"
    build = subprocess.run(
        ["make", "-s", f"EXE={exe}", "VENV=", f"PYTHON={sys.executable}"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run(
        [str(exe), "bench", "3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith(f"{_core.bench(3)[0]} nodes ")

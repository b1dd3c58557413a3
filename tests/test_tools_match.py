"""camelpy match: game pairs, PGN, the referee (with a misbehaving fake engine), resume, SPRT stop."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import pytest
from camelpy.arena import runner, stats
from camelpy.arena.engines import EngineStartError, TimeControl, UciPlayer, parse_engine
from camelpy.arena.match import match_status, run_match
from camelpy.arena.openings import Opening, book_digest, choose, load_openings
from camelpy.arena.referee import Adjudication, MoveRecord, _adjudicate

from tests.runs import logged_games, terminate_after_a_game
from tests.system_packages import stockfish

DATA = Path(__file__).resolve().parent / "data"
FAKE = f"{sys.executable} {DATA / 'tools' / 'fake_engine.py'}"
COMMENT = re.compile(r"^(book|[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s)$")
SHORT = Adjudication(maxmoves=40)  # keeps random-move games short


def fake(mode: str = "random", *words: str) -> list[str]:
    return [f"{FAKE} {mode}", *words]


def read_pgn(path: Path) -> list[chess.pgn.Game]:
    games = []
    with path.open(encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


def test_short_match_writes_valid_pgn(tmp_path: Path) -> None:
    book = load_openings(DATA / "balanced.epd")[:2]
    a = parse_engine(fake("random", "name=a", "tc=10+0.1"))
    b = parse_engine(fake("first", "name=b", "nodes=1"))
    result = run_match(a, b, rounds=2, openings=book, concurrency=2, adjudication=SHORT, out=tmp_path)
    assert result.games == 4 and sum(result.pentanomial) == 2
    games = read_pgn(tmp_path / "games.pgn")
    assert len(games) == 4
    by_round = {g.headers["Round"]: g for g in games}
    assert sorted(by_round) == ["1.1", "1.2", "2.1", "2.2"]
    for pair in ("1", "2"):
        first, second = by_round[f"{pair}.1"], by_round[f"{pair}.2"]
        assert first.headers["FEN"] == second.headers["FEN"]  # one opening, colours swapped
        assert (first.headers["White"], second.headers["White"]) == ("a", "b")
        assert first.headers["Opening"].startswith("8moves_v3.")
    for game in games:
        assert not game.errors
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert game.headers["Termination"] in ("normal", "adjudication")
        board = game.board()
        nodes = list(game.mainline())
        for node in nodes:
            assert node.move in board.legal_moves
            board.push(node.move)
        for node in nodes[:-1]:
            assert COMMENT.match(node.comment), node.comment
        last, _, reason = nodes[-1].comment.partition(", ")
        assert COMMENT.match(last) and reason  # the reason the game ended
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["settings"]["engines"][0]["name"] == "a"
    assert "Games: 4" in (tmp_path / "summary.txt").read_text()
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 4
    # How the clocked engine spent its time (the other plays at a node limit): every move of its own.
    (use,) = result.time_use
    own = [
        float(n.comment.split()[1].rstrip("s,"))
        for g in games
        for n in g.mainline()
        if (n.parent.board().turn == chess.WHITE) == (g.headers["White"] == "a")
    ]
    assert (use.engine, use.games, use.moves) == ("a", 4, len(own))
    assert use.longest_move_s == pytest.approx(max(own), abs=0.001)
    assert "Time use:\n  a: " in (tmp_path / "summary.txt").read_text()
    assert json.loads((tmp_path / "summary.json").read_text())["time_use"][0]["moves"] == len(own)


def test_pgn_openings_are_played_as_book_moves(tmp_path: Path) -> None:
    book = load_openings(DATA / "tools" / "openings.pgn")
    assert [o.moves for o in book] == [
        ("e2e4", "e7e5", "g1f3", "b8c6"),
        ("d2d4", "d7d5", "c2c4", "e7e6", "b1c3"),
    ]
    a, b = parse_engine(fake("random", "nodes=1")), parse_engine(fake("random", "nodes=1"))
    result = run_match(a, b, rounds=2, openings=book, adjudication=Adjudication(maxmoves=8), out=tmp_path)
    program = os.path.basename(sys.executable)  # "python" in a venv, "python3.11" elsewhere
    assert (result.engine1, result.engine2) == (f"{program}-1", f"{program}-2")  # made unique
    games = read_pgn(tmp_path / "games.pgn")
    assert "FEN" not in games[0].headers
    moves = [n for n in games[0].mainline()]
    assert [n.comment for n in moves[:4]] == ["book"] * 4 and moves[4].comment != "book"


@pytest.mark.parametrize(
    ("mode", "limit", "termination", "pgn_termination"),
    [
        ("illegal", "nodes=1", "illegal move", "rules infraction"),
        ("crash", "nodes=1", "crash", "abandoned"),
        ("hang", "nodes=1", "hang", "stalled connection"),
        ("nobestmove", "nodes=1", "no bestmove", "rules infraction"),
        ("slow", "tc=0.3+0.01", "time forfeit", "time forfeit"),
    ],
)
def test_referee_ends_the_game_and_restarts_the_engine(
    tmp_path: Path, mode: str, limit: str, termination: str, pgn_termination: str
) -> None:
    bad = parse_engine(fake(mode, "name=bad", limit, "timemargin=50"))
    good = parse_engine(fake("random", "name=good", "nodes=1"))
    result = run_match(bad, good, rounds=2, adjudication=SHORT, hang_timeout=0.5, out=tmp_path)
    assert (result.games, result.losses) == (4, 4), result.summary()  # the match went on
    assert result.terminations == ((termination, 4),)
    games = read_pgn(tmp_path / "games.pgn")
    for game in games:
        assert game.headers["Termination"] == pgn_termination
        # The bad engine misbehaves on its 3rd search of a process: two good moves in every game
        # prove it was restarted after each failure.
        bad_moves = len(list(game.mainline())) // 2 if game.headers["White"] == "good" else None
        assert bad_moves is None or bad_moves >= 2
        assert len(list(game.mainline())) >= 4
        last = list(game.mainline())[-1].comment if list(game.mainline()) else game.comment
        assert "bad" not in last and ("White" in last or "Black" in last)


def test_resume_plays_only_missing_games(tmp_path: Path) -> None:
    a, b = parse_engine(fake("random", "name=a", "nodes=1")), parse_engine(fake("first", "name=b", "nodes=1"))
    run_match(a, b, rounds=2, adjudication=SHORT, out=tmp_path)
    jsonl = tmp_path / "games.jsonl"
    lines = jsonl.read_text().splitlines()
    # An interruption: one finished game lost, one line half written.
    jsonl.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    resumed = run_match(a, b, rounds=3, adjudication=SHORT, out=tmp_path)
    assert resumed.games == 6
    records = [json.loads(line) for line in jsonl.read_text().splitlines()[1:]]
    assert sorted((r["pair"], r["game"]) for r in records) == [(p, g) for p in range(3) for g in range(2)]
    assert len(read_pgn(tmp_path / "games.pgn")) == 6
    with pytest.raises(ValueError, match="other settings"):
        run_match(a, parse_engine(fake("first", "name=b", "nodes=2")), rounds=3, out=tmp_path)


def test_a_match_logged_to_a_file_writes_status_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A match left running with stderr redirected (not a terminal) writes whole status lines, at most
    # one per PROGRESS_LOG_INTERVAL_S; with the interval at zero, one after every game.
    a, b = parse_engine(fake("random", "name=a", "nodes=1")), parse_engine(fake("first", "name=b", "nodes=1"))
    monkeypatch.setattr(runner, "PROGRESS_LOG_INTERVAL_S", 0.0)
    result = run_match(a, b, rounds=2, adjudication=SHORT, out=tmp_path / "logged", quiet=False)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split()[1:3] for line in lines] == [["games", f"{n}/4"] for n in range(1, 5)]
    assert lines[-1].endswith(result.status_line()) and re.match(r"\d\d:\d\d:\d\d ", lines[-1])
    monkeypatch.setattr(runner, "PROGRESS_LOG_INTERVAL_S", 3600.0)
    run_match(a, b, rounds=2, adjudication=SHORT, out=tmp_path / "hourly", quiet=False)
    run_match(a, b, rounds=2, adjudication=SHORT, out=tmp_path / "quiet", quiet=True)
    monkeypatch.setattr(runner, "PROGRESS_LOG_INTERVAL_S", 0.0)
    run_match(a, b, rounds=3, adjudication=SHORT, out=tmp_path / "quiet", quiet=True)
    assert capsys.readouterr().err == ""


def test_book_digest_is_public_and_stable() -> None:
    # Pinned: a run written before the digest moved to openings.py (it was match._digest) must still
    # be recognised as the same book when resumed.
    book = [Opening(), Opening(moves=("e2e4", "e7e5"), name="x")]
    assert book_digest(book) == "ed4d1a86b4ea3285"
    assert book_digest(reversed(book)) != book_digest(book)


def test_the_opening_order_goes_round_the_book_and_so_does_start() -> None:
    book = [Opening(moves=(move,)) for move in ("e2e4", "d2d4", "c2c4")]
    for order in ("sequential", "random"):
        run = choose(book, 7, order=order, seed=9)
        assert run[3:6] == run[:3] and sorted(o.moves[0] for o in run[:3]) == ["c2c4", "d2d4", "e2e4"]
        # The start-th pair's opening, past the book's end too: a run continued after P pairs starts at P + 1.
        assert [choose(book, 1, order=order, seed=9, start=pair)[0] for pair in range(1, 8)] == run
        assert choose(book, 2, order=order, seed=9, start=3 * 10**20 + 2) == run[1:3]
    with pytest.raises(ValueError, match="opening start must be at least 1, got 0"):
        choose(book, 1, start=0)


def test_sprt_stops_as_soon_as_a_bound_is_crossed() -> None:
    strong = parse_engine(fake("random", "name=strong", "nodes=1"))
    weak = parse_engine(fake("illegal", "name=weak", "nodes=1", "timemargin=50"))
    # Decided by 10 pairs of wins in fishtest's normalized model with these bounds.
    sprt = stats.SPRT(elo0=0, elo1=100)
    result = run_match(strong, weak, rounds=50, sprt=sprt, adjudication=SHORT, concurrency=2)
    assert result.decision == "H1"
    pairs = sum(result.pentanomial)
    assert result.pentanomial == (0, 0, 0, 0, pairs)
    assert sprt.status((0, 0, 0, 0, pairs - 1)) is None  # one pair fewer would not have decided
    assert result.llr is not None and result.llr >= sprt.bounds[1]


def test_an_sprt_stop_closes_every_engine() -> None:
    # The stop cancels the workers while one may be quitting its engines: each engine must still be
    # closed and reaped before the event loop ends. A transport left open was collected later, after
    # its loop had closed ("Event loop is closed" from BaseSubprocessTransport.__del__, and the fake
    # engine's process still running), in whichever test the garbage collector next ran.
    strong = parse_engine(fake("random", "name=strong", "nodes=1"))
    weak = parse_engine(fake("illegal", "name=weak", "nodes=1", "timemargin=50"))
    unraisable: list[object] = []
    previous = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            result = run_match(
                strong, weak, rounds=50, sprt=stats.SPRT(elo0=0, elo1=100), adjudication=SHORT, concurrency=2
            )
            assert result.decision == "H1" and result.games < 100
            gc.collect()
    finally:
        sys.unraisablehook = previous
    assert unraisable == []
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_a_match_continued_elsewhere_counts_the_carried_pairs(tmp_path: Path) -> None:
    # A match played in two runs on two machines: the second has not got the first's folder, only the
    # counts its summary printed, and continues from the next opening. Its score, Elo and SPRT are
    # those of all the pairs; its terminations only of the games it played.
    a, b = parse_engine(fake("random", "name=a", "nodes=1")), parse_engine(fake("first", "name=b", "nodes=1"))
    book = [Opening(moves=(move,)) for move in ("e2e4", "d2d4", "c2c4", "g1f3")]
    sprt = stats.SPRT(elo0=0, elo1=5)
    first = run_match(a, b, rounds=2, openings=book, adjudication=SHORT, sprt=sprt, out=tmp_path / "first")
    carry = stats.carried(first.wins, first.draws, first.losses, first.pentanomial)
    # The second run: its counts carried, the openings after the first's (start defaults to pair 3).
    resume = functools.partial(
        run_match,
        a,
        b,
        rounds=2,
        openings=book,
        adjudication=SHORT,
        sprt=sprt,
        out=tmp_path / "second",
    )
    second = resume(carry=carry)
    here = [json.loads(line) for line in (tmp_path / "second" / "games.jsonl").read_text().splitlines()[1:]]
    assert sorted(r["opening"]["moves"][0] for r in here) == ["c2c4", "c2c4", "g1f3", "g1f3"]
    points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
    own = stats.tally((r["pair"], points[r["result"]][r["white"] != "a"]) for r in here)
    assert (second.wins, second.draws, second.losses, second.pentanomial) == (
        first.wins + own.wins,
        first.draws + own.draws,
        first.losses + own.losses,
        tuple(x + y for x, y in zip(first.pentanomial, own.pentanomial)),
    )
    assert second.games == 8 and second.carried == carry
    assert second.llr == sprt.llr(second.pentanomial)
    assert sum(n for _, n in second.terminations) == 4
    text = second.summary()
    assert (
        f"Carried: 4 games of an earlier run, counted above: +{first.wins} ={first.draws} -{first.losses}"
        in text
    )
    assert "Terminations (the 4 games played here)" in text
    assert json.loads((tmp_path / "second" / "summary.json").read_text())["carried"]["pentanomial"] == list(
        first.pentanomial
    )
    # Resumed with other carried counts, the folder is refused like any other change of settings.
    with pytest.raises(ValueError, match="other settings"):
        resume(carry=stats.carried(0, 2, 0, (0, 0, 1, 0, 0)))
    # Pairs that already decide the SPRT stop the match before an engine starts.
    decided = run_match(
        parse_engine(["/nonexistent/engine", "name=x", "nodes=1"]),
        b,
        rounds=5,
        sprt=stats.SPRT(elo0=0, elo1=100),
        carry=stats.carried(40, 0, 0, (0, 0, 0, 0, 20)),
    )
    assert decided.decision == "H1" and decided.games == 40 and decided.terminations == ()


def test_carried_counts_must_be_one_set_of_whole_pairs() -> None:
    with pytest.raises(ValueError, match=r"whole pairs: 3 games \(\+2 =1 -0\) for 1 pairs"):
        stats.carried(2, 1, 0, (0, 0, 0, 1, 0))
    with pytest.raises(ValueError, match="points disagree"):
        stats.carried(2, 0, 0, (0, 0, 1, 0, 0))
    with pytest.raises(ValueError, match="five counts"):
        stats.carried(2, 0, 0, (0, 0, 1, 0))
    with pytest.raises(ValueError, match="negative"):
        stats.carried(-1, 3, 0, (0, 0, 1, 0, 0))
    with pytest.raises(TypeError, match="integers"):
        stats.carried(True, 1, 0, (0, 0, 0, 1, 0))
    huge = 10**20  # consistent counts, but no run plays so many: the GSPRT would divide by zero
    with pytest.raises(
        ValueError, match="carried pairs must number at most 1,000,000, got 100,000,000,000,000,000,000"
    ):
        run_match(
            parse_engine(fake("random", "name=a", "nodes=1")),
            parse_engine(fake("first", "name=b", "nodes=1")),
            rounds=1,
            sprt=stats.SPRT(elo0=0, elo1=5),
            carry=stats.carried(2 * huge, 0, 0, (0, 0, 0, 0, huge)),
        )
    with pytest.raises(TypeError, match="carry must be a stats.Tally"):
        run_match(
            parse_engine(fake("random", "name=a", "nodes=1")),
            parse_engine(fake("first", "name=b", "nodes=1")),
            rounds=1,
            carry=(1, 1, 0),  # type: ignore[arg-type]
        )


def test_match_command_line_carries_an_earlier_runs_counts(tmp_path: Path) -> None:
    args = [
        "--engine",
        f"{FAKE} random",
        "name=x",
        "--engine",
        f"{FAKE} first",
        "name=y",
        "--each",
        "nodes=1",
    ]
    args += [
        "--rounds",
        "1",
        "--maxmoves",
        "20",
        "--out",
        str(tmp_path),
        "--quiet",
        "--sprt",
        "elo0=0",
        "elo1=5",
    ]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "camelpy",
            "match",
            *args,
            "--carry",
            "wins=3",
            "draws=1",
            "losses=0",
            "ptnml=0,0,0,1,1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "Carried: 4 games of an earlier run, counted above: +3 =1 -0, Ptnml(0-2): [0, 0, 0, 1, 1]"
        in done.stdout
    )
    assert re.search(r"^Games: 6,", done.stdout, re.MULTILINE)
    for words, message in (
        (["wins=3", "draws=1", "losses=0", "ptnml=0,0,1,1"], "a pentanomial has five counts, got 4"),
        (["wins=3", "draws=1", "losses=0", "ptnml=0,0,x,1,1"], "bad carry setting 'ptnml=0,0,x,1,1'"),
        (["wins=3", "draws=1", "losses=0", "pairs=2"], "bad carry setting 'pairs=2'"),
        (["wins=3", "draws=1", "wins=0", "ptnml=0,0,0,1,1"], "missing losses="),
        (["wins=3", "draws=0", "losses=0", "ptnml=0,0,0,1,1"], "carried games must be whole pairs"),
    ):
        bad = subprocess.run(
            [sys.executable, "-m", "camelpy", "match", *args, "--carry", *words],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert bad.returncode == 2 and message in bad.stderr, (words, bad.stderr)
        assert "Traceback" not in bad.stderr
    lei = subprocess.run(
        [
            sys.executable,
            "-m",
            "camelpy",
            "match",
            "--game",
            "leiserchess",
            "--engine",
            "x",
            "--engine",
            "y",
            "--each",
            "st=1",
        ]
        + ["--carry", "wins=1", "draws=0", "losses=1", "ptnml=0,0,1,0,0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert lei.returncode == 2 and "--carry is for chess" in lei.stderr, lei.stderr


def test_status_reads_a_running_or_stopped_matchs_folder(tmp_path: Path) -> None:
    a = parse_engine(fake("random", "name=a", "tc=10+0.1"))
    b = parse_engine(fake("first", "name=b", "nodes=1"))
    carry = stats.carried(3, 1, 0, (0, 0, 0, 1, 1))
    sprt = stats.SPRT(elo0=0, elo1=5)
    result = run_match(a, b, rounds=3, adjudication=SHORT, sprt=sprt, out=tmp_path, carry=carry)
    jsonl = tmp_path / "games.jsonl"
    saved = jsonl.read_bytes()
    status = match_status(tmp_path)
    # What the match printed and saved, clock use and carried pairs included (the log keeps move times
    # to the microsecond, the summary shows milliseconds); the folder untouched.
    assert dataclasses.replace(status, time_use=result.time_use) == result
    assert status.summary() + "\n" == (tmp_path / "summary.txt").read_text()
    assert status.carried == carry and status.time_use and jsonl.read_bytes() == saved
    # A match still running: its last game half written is left out, and nothing is rewritten.
    lines = saved.decode().splitlines()
    jsonl.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:50])
    running = match_status(str(tmp_path))
    assert running.games == result.games - 1 and sum(running.pentanomial) == sum(result.pentanomial) - 1
    assert jsonl.read_text().endswith(lines[-1][:50])
    cli = [sys.executable, "-m", "camelpy", "match", "--status"]
    done = subprocess.run([*cli, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == running.summary() + "\n", done.stderr
    tournament = tmp_path / "tournament"
    runner.GameLog(tournament, {"players": [], "format": "round-robin"}, "camelpy tournament").open()
    odd = tmp_path / "odd"
    runner.GameLog(odd, {**json.loads(lines[0])["settings"], "sprt": {"elo0": 5}}, "x").open()
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "games.jsonl").write_text("")
    binary = tmp_path / "binary"
    binary.mkdir()
    (binary / "games.jsonl").write_bytes(b"\xff\xfe{}")
    for folder, message in (
        (tmp_path / "none", "games.jsonl': No such file or directory"),
        (tournament, "games.jsonl' is not a chess match's games log"),
        (odd, "games.jsonl' holds settings a match does not write: elo0 must be below elo1"),
        (empty, "games.jsonl' is empty: no run has started in that folder"),
        (binary, "games.jsonl': not UTF-8 text"),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            match_status(folder)
        bad = subprocess.run([*cli, str(folder)], capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    for words, message in (
        (["--status", str(tmp_path), "--rounds", "2"], "takes no other option, got --rounds"),
        (["--engine", "x", "--status", str(tmp_path)], "takes no other option, got --engine"),
        (["--rounds", "2"], "a match needs exactly two --engine options, got 0"),
    ):
        bad = subprocess.run(
            [sys.executable, "-m", "camelpy", "match", *words], capture_output=True, text=True, timeout=60
        )
        assert bad.returncode == 2 and message in bad.stderr, (words, bad.stderr)
        assert bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr


def test_adjudication_rules() -> None:
    board = chess.Board()
    rules = Adjudication(
        resign_movecount=2, resign_score=500, draw_movenumber=1, draw_movecount=2, maxmoves=3
    )

    def moves(*cps: int | None) -> list[MoveRecord]:
        return [MoveRecord("e2e4", cp=cp) for cp in cps]

    # White to move, so Black moved last: Black's last two scores are <= -500.
    assert _adjudicate(board, moves(0, -600, 100, -700), rules) == ("1-0", "Black resigns (adjudication)")
    assert _adjudicate(board, moves(0, -600, 100, -400), rules) is None
    assert _adjudicate(board, moves(5, -5, 0, 10), rules) == (
        "1/2-1/2",
        "draw by adjudication: scores near zero",
    )
    assert _adjudicate(board, moves(5, None, 0, 10), rules) is None  # a missing score breaks the run
    assert _adjudicate(board, moves(*[100] * 6), rules) == ("1/2-1/2", "draw by adjudication: max moves")
    twosided = Adjudication(resign_movecount=1, resign_score=500, resign_twosided=True)
    assert _adjudicate(board, moves(0, -600), twosided) is None
    assert _adjudicate(board, moves(600, -600), twosided) == ("1-0", "Black resigns (adjudication)")


def test_engine_words_and_time_controls() -> None:
    config = parse_engine(["cmd=stockfish -x", "name=sf", "option.Skill Level=3", "st=0.5", "timemargin=20"])
    assert config.command == ("stockfish", "-x") and config.options == (("Skill Level", "3"),)
    assert (config.st, config.timemargin_ms, config.describe()) == (0.5, 20, "st=0.5")
    assert TimeControl.parse("40/60+0.6") == TimeControl(60.0, 0.6, 40)
    assert TimeControl.parse("2:30") == TimeControl(150.0)
    for words, needle in [
        (["sf", "tc=fast"], "'fast'"),
        (["sf", "speed=3"], "speed=3"),
        (["sf"], "no limit"),
        (["sf", "nodes=-5"], "nodes must be at least 1, got -5"),
    ]:
        with pytest.raises(ValueError, match=needle):
            parse_engine(words)


def test_engine_that_cannot_start_is_a_clear_error() -> None:
    missing = parse_engine(["/nonexistent/engine", "nodes=1"])
    with pytest.raises(EngineStartError, match="/nonexistent/engine"):
        run_match(missing, parse_engine(fake("random", "nodes=1")), rounds=1)


def test_match_command_line(tmp_path: Path) -> None:
    args = ["--engine", f"{FAKE} random", "name=x", "--engine", f"{FAKE} first", "name=y"]
    args += ["--each", "nodes=1", "--rounds", "1", "--maxmoves", "20", "--out", str(tmp_path), "--quiet"]
    args += ["--sprt", "elo0=0", "elo1=5", "--resign", "movecount=3", "score=900", "--draw"]
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "match", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "Results of x vs y" in done.stdout and "Ptnml(0-2)" in done.stdout and "LLR" in done.stdout
    assert done.stderr == ""
    bad = subprocess.run(
        [sys.executable, "-m", "camelpy", "match", "--engine", "x", "tc=soon", "--engine", "y", "nodes=1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "error: bad engine setting 'tc=soon'" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.needs_stockfish
def test_stockfish_pair_at_depth_one(tmp_path: Path) -> None:
    sf = stockfish()
    assert sf is not None
    words = [str(sf), "depth=1", "option.Hash=16", "option.Threads=1"]
    result = run_match(parse_engine(words), parse_engine(words), rounds=1, out=tmp_path, adjudication=SHORT)
    assert result.games == 2
    game = chess.pgn.read_game(io.StringIO((tmp_path / "games.pgn").read_text()))
    assert game is not None and COMMENT.match(game.next().comment)  # type: ignore[union-attr]


@pytest.mark.skipif(
    importlib.util.find_spec("camelpy.protocols.uci") is None,
    reason="camelpy's UCI engine (camelpy.protocols.uci) is not on this branch",
)
def test_camelpy_vs_camelpy_four_games_at_a_node_limit(tmp_path: Path) -> None:
    engine = parse_engine([f"{sys.executable} -m camelpy", "nodes=2000", "option.Hash=8"])
    result = run_match(engine, engine, rounds=2, adjudication=Adjudication(maxmoves=60), out=tmp_path)
    assert result.games == 4
    assert all(
        code
        in (
            "adjudication",
            "checkmate",
            "stalemate",
            "threefold repetition",
            "fifty moves",
            "insufficient material",
        )
        for code, _ in result.terminations
    ), result.terminations
    games = read_pgn(tmp_path / "games.pgn")
    assert len(games) == 4
    for game in games:
        assert not game.errors and game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        board = game.board()
        for node in game.mainline():
            assert node.move in board.legal_moves
            board.push(node.move)


def test_the_arena_sets_hidden_tuning_options() -> None:
    # camelpy lists its search settings only behind "Show Tuning Options"; the arena (camelpy match
    # option.X=..., camelpy spsa) asks for them, so python-chess accepts the name, and the engine uses it.
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")

    async def nodes(*words: str) -> int:
        player = UciPlayer(parse_engine([f"{sys.executable} -m camelpy", "depth=7", *words]))
        await player.start()
        try:
            assert player.protocol is not None
            assert ("rfp_margin" in player.protocol.options) == bool(words)
            result = await player.play(board, chess.engine.Limit(depth=7), game=None)
            return int(result.info["nodes"])
        finally:
            await player.quit()

    assert asyncio.run(nodes("option.rfp_margin=150")) != asyncio.run(nodes())
    with pytest.raises(EngineStartError, match="rejected its options: .*no_such_weight"):
        asyncio.run(nodes("option.no_such_weight=1"))


@pytest.mark.parametrize("game", ["chess", "leiserchess"])
def test_sigterm_stops_a_match_as_ctrl_c_does(game: str, tmp_path: Path) -> None:
    # A match started in the background (where the shell ignores Ctrl-C for it) is stopped by `kill`:
    # the games played stay in the log and the summary counts them.
    out = tmp_path / game
    engine = [sys.executable, "-m", "camelpy"] + (["leiserchess"] if game == "leiserchess" else [])
    command = " ".join(engine)
    status, err = terminate_after_a_game(
        [sys.executable, "-m", "camelpy", "match", "--game", game, "--engine", command, "name=a", "depth=2",
         "--engine", command, "name=b", "depth=1", "--rounds", "200", "--out", str(out)],
        out / "games.jsonl",
    )  # fmt: skip
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    games = logged_games(out / "games.jsonl")
    assert 1 <= games < 400
    assert json.loads((out / "summary.json").read_text())["games"] == games

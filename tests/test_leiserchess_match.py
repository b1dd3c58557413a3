"""``camelpy leiserchess match``: real engine processes, the referee's adjudication, the records and the
resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from camelpy.arena.engines import parse_engine
from camelpy.arena.leiserchess import log_record, opening_for, run_match, summary_text
from camelpy.arena.timeuse import time_use
from camelpy.gui.watch import MatchWatch
from camelpy.leiserchess import Board

ENGINE = f"{sys.executable} -m camelpy leiserchess"

# A protocol engine that answers the handshake and then, on go, does what *behaviour* says.
FAKE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name fake"); print("uciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        BEHAVIOUR
    elif word == "quit":
        break
"""


def fake(tmp_path: Path, name: str, behaviour: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(FAKE.replace("BEHAVIOUR", behaviour))
    return f"{sys.executable} {script}"


def test_a_deeper_search_wins_and_the_match_resumes(tmp_path: Path) -> None:
    engines = (
        parse_engine([ENGINE, "name=deep", "depth=3"]),
        parse_engine([ENGINE, "name=shallow", "depth=1"]),
    )
    lines: list[str] = []
    summary = run_match(engines, pairs=2, out=tmp_path / "m", concurrency=2, report=lines.append)
    assert summary["games"] == 4 and len(lines) == 4
    assert summary["wins"] >= 3 and summary["time_forfeits"] == 0
    assert sum(summary["pentanomial"]) == 2
    log = (tmp_path / "m" / "games.jsonl").read_text().splitlines()
    assert json.loads(log[0])["version"] == 1 and len(log) == 5
    # Every recorded game replays under the rules to its recorded end.
    for line in log[1:]:
        game = json.loads(line)
        board = Board()
        for move in game["opening"] + game["moves"]:
            board.push(move)
        if game["termination"] == "king_hit":
            assert board.result() == game["result"]
        assert tuple(game["opening"]) == opening_for(0, game["pair"], 2, 2016)
    # The GUI's watch shows the run: its engines, every game's moves and result, and its end; nothing it
    # cannot read.
    watch = MatchWatch(tmp_path / "m")
    watch.poll()
    seen = watch.snapshot()
    assert seen["run"]["engines"] == ["deep", "shallow"] and seen["run"]["games"] == 4
    assert sorted(g["id"] for g in seen["finished"]) == ["1.1", "1.2", "2.1", "2.2"]
    assert (seen["ended"], seen["skipped"], seen["running"]) == ("finished", 0, [])
    text = (tmp_path / "m" / "games.txt").read_text()
    assert text.count('[Event "camelpy leiserchess match"]') == 4 and "{book}" in text
    again = run_match(engines, pairs=2, out=tmp_path / "m", report=lines.append)
    assert again["games"] == 4 and len(lines) == 4  # nothing replayed
    other = (parse_engine([ENGINE, "name=deep", "depth=2"]), engines[1])
    try:
        run_match(other, pairs=2, out=tmp_path / "m")
        raise AssertionError("a different match in the same folder must be refused")
    except ValueError as err:
        assert "another match" in str(err)


def test_a_clocked_match_reports_time_use_and_logs_the_times(tmp_path: Path) -> None:
    engines = (
        parse_engine([ENGINE, "name=a", "tc=1+0.01"]),
        parse_engine([ENGINE, "name=b", "tc=1+0.01"]),
    )
    summary = run_match(engines, pairs=1, out=tmp_path / "m", report=lambda _: None)
    uses = {use["engine"]: use for use in summary["time_use"]}
    lines = [json.loads(line) for line in (tmp_path / "m" / "games.jsonl").read_text().splitlines()[1:]]
    records = [log_record(line) for line in lines]
    assert all(r is not None and (r.white_limits, r.black_limits) == ("tc=1+0.01",) * 2 for r in records)
    games = [r for r in records if r is not None]
    assert all(m.time > 0 for r in games for m in r.moves)
    for name in ("a", "b"):
        # The summary's figures are the log's: the same replay of the clock from the logged times.
        assert time_use(games, name).to_json() == uses[name]
        own = sum(len(r.moves[(0 if r.white == name else 1) :: 2]) for r in games)  # the opening is 2 plies
        assert uses[name]["games"] == 2 and uses[name]["moves"] == own
        assert 0 < uses[name]["clock_left_median_s"] < 1 + 0.01 * own
    text = summary_text(summary)
    assert "Time use:" in text and "\n  a: " in text and "\n  b: " in text
    # A line written before the times were logged still reads (its moves untimed, no clock to replay);
    # timing fields that do not fit the game are no record.
    old = {k: v for k, v in lines[0].items() if k not in ("times", "limits")}
    record = log_record(old)
    assert record is not None and record.moves[0].time == 0.0 and time_use([record], "a").games == 0
    assert log_record({**lines[0], "times": [0.1]}) is None
    assert log_record({**lines[0], "limits": ["tc=1+0.01"]}) is None
    assert log_record({**lines[0], "limits": [1, 2]}) is None


def test_bad_engines_lose_and_the_referee_goes_on(tmp_path: Path) -> None:
    garbage = fake(tmp_path, "garbage", 'print("bestmove zz99", flush=True)')
    illegal = fake(tmp_path, "illegal", 'print("bestmove h0h0", flush=True)')  # Ko at the start
    silent = fake(tmp_path, "silent", "pass")
    for command, name, extra, termination in (
        (garbage, "garbage", "depth=1", "illegal_move"),
        (illegal, "illegal", "depth=1", "illegal_move"),
        (silent, "silent", "st=0.2", "time"),
    ):
        engines = (
            parse_engine([ENGINE, "name=camelpy", "depth=1"]),
            parse_engine([command, f"name={name}", extra]),
        )
        summary = run_match(engines, pairs=1, out=tmp_path / name, random_plies=0, report=lambda _: None)
        assert summary["wins"] == 2 and summary["terminations"] == {termination: 2}, summary


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    done = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "match", "--engine", ENGINE, "depth=2",
         "--engine", ENGINE, "depth=1", "--rounds", "1", "--rules", "2018", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "(2018 rules)" in done.stdout and "Ptnml(0-2):" in done.stdout and "Games: 2" in done.stdout
    assert json.loads((out / "summary.json").read_text())["games"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "camelpy", "leiserchess", "match", "--engine", "/no/such/engine", "depth=1",
         "--engine", ENGINE, "depth=1", "--rounds", "1", "--out", str(tmp_path / "bad")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "cannot start engine" in bad.stderr and "Traceback" not in bad.stderr


def test_camelpy_match_plays_leiserchess_engines(tmp_path: Path) -> None:
    out = tmp_path / "m"
    base = [sys.executable, "-m", "camelpy", "match", "--game", "leiserchess"]
    engines = ["--engine", ENGINE, "name=deep", "depth=3", "--engine", ENGINE, "name=shallow", "depth=1"]
    done = subprocess.run(
        [*base, *engines, "--rounds", "2", "--concurrency", "2", "--random-plies", "3", "--seed", "5",
         "--sprt", "elo0=0", "elo1=10", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Results of deep vs shallow (2016 rules):" in done.stdout and "LLR: " in done.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 4 and summary["wins"] >= 3 and summary["sprt"]["elo1"] == 10
    header = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert header["settings"]["random_plies"] == 3 and header["settings"]["seed"] == 5
    for flags, message in (
        (["--openings", "x.epd"], "--openings is for chess"),
        (["--maxmoves", "50"], "--maxmoves is for chess"),
        ([], "needs --out"),
    ):
        extra = flags + ([] if message == "needs --out" else ["--out", str(tmp_path / "x")])
        bad = subprocess.run([*base, *engines, *extra], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    chess = subprocess.run(
        [sys.executable, "-m", "camelpy", "match", *engines, "--rules", "2018"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert chess.returncode == 2 and "--rules is for Leiserchess matches" in chess.stderr


def test_a_leiserchess_tournament_rates_its_players(tmp_path: Path) -> None:
    from camelpy.arena.tournament import parse_config, run_tournament

    players = "".join(f'[[players]]\nname = "d{d}"\ncmd = "{ENGINE}"\ndepth = {d}\n' for d in (1, 2, 4))
    text = f'game = "leiserchess"\nrounds = 1\nconcurrency = 2\nout = "t"\n[leiserchess]\nseed = 3\n{players}'
    config = parse_config(text, tmp_path)
    assert (config.game, config.rules, config.random_plies, config.seed) == ("leiserchess", 2016, 2, 3)
    result = run_tournament(config)
    assert len(result.games) == 6 and {g.termination for g in result.games} <= {
        "king_hit", "repetition", "max_plies"
    }  # fmt: skip
    names = [row.name for row in result.table.ratings]
    assert names.index("d4") < names.index("d1"), result.table
    assert (tmp_path / "t" / "ratings.txt").read_text().strip() == str(result.table)
    assert (tmp_path / "t" / "games.txt").read_text().count('[Event "camelpy tournament"]') == 6
    watch = MatchWatch(tmp_path / "t")  # the GUI's watch: the results and the standings
    watch.poll()
    seen = watch.snapshot()
    assert (seen["run"]["kind"], len(seen["finished"]), seen["ended"], seen["skipped"]) == (
        "tournament",
        6,
        "finished",
        0,
    )
    assert sorted(row[0] for row in seen["standings"]) == ["d1", "d2", "d4"]
    assert len(run_tournament(config).games) == 6  # resumed: nothing replayed
    for bad, message in (
        (text + '[openings]\nfile = "x.epd"\n', "has no [openings]"),
        (text.replace("seed = 3", "colour = 1"), "unknown [leiserchess] keys: ['colour']"),
        (text.replace("seed = 3", "rules = 2017"), "rules must be 2016 or 2018, got 2017"),
        (text.replace('game = "leiserchess"\n', ""), '[leiserchess] needs game = "leiserchess"'),
    ):
        try:
            parse_config(bad, tmp_path)
            raise AssertionError(message)
        except ValueError as err:
            assert message in str(err)

"""Matches, tournaments, batch analysis and data generation on a real Ray cluster.

The module starts its own cluster with ``ray start --head`` on 127.0.0.1 (a free port, a token of its
own) and stops it at the end. Ray replaces a loopback address by the machine's network address as soon
as a cluster may have a second node, so the cluster is one node of two CPUs with
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, which keeps every address on 127.0.0.1. The commands reach it
through ``--ray 127.0.0.1:PORT`` (a driver process of their own); the API calls through this process's
connection.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import camelpy
import camelpy.data
import chess
import chess.engine
import pytest
from camelpy import cluster
from camelpy.arena import tournament
from camelpy.arena.engines import parse_engine
from camelpy.arena.match import run_match
from camelpy.arena.openings import load_openings
from camelpy.arena.referee import Adjudication
from camelpy.batch import analyse_many

from tests.conftest import BALANCED_EPD, DATA_DIR

FAKE = f"{shlex.quote(sys.executable)} {shlex.quote(str(DATA_DIR / 'tools' / 'fake_engine.py'))}"
CAMELPY = f"{shlex.quote(sys.executable)} -m camelpy"
SHORT = Adjudication(maxmoves=40)
CLUSTER_ENV = {
    "RAY_AUTH_MODE": "token",
    "RAY_AUTH_TOKEN": secrets.token_hex(16),
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
}
# Ray reads these when it is imported (in this process: by the first test that connects), so they are
# set for the whole test session here, at collection.
assert "ray" not in sys.modules, "Ray was imported before tests/test_cluster.py could configure it"
os.environ.update(CLUSTER_ENV)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running one-node cluster of 2 CPUs on 127.0.0.1, this process connected to it."""
    port = _free_port()
    head = [
        sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--node-ip-address=127.0.0.1",
        f"--port={port}", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
    ]  # fmt: skip
    # Output to a file: the daemons it starts inherit its streams, and a pipe would never close.
    with (tmp_path_factory.mktemp("ray") / "start.log").open("w") as log:
        subprocess.run(head, check=True, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    where = f"127.0.0.1:{port}"
    ray = cluster.ray_module()
    try:
        cluster.connect(where)
        assert {n["NodeManagerAddress"] for n in ray.nodes()} == {"127.0.0.1"}
        yield where
    finally:
        ray.shutdown()
        stop = [sys.executable, "-m", "ray.scripts.scripts", "stop", "--force"]
        subprocess.run(stop, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def camelpy_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "camelpy", *args], capture_output=True, text=True, timeout=timeout
    )


def logged_games(folder: Path) -> list[tuple[int, int]]:
    lines = (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return [(g["pair"], g["game"]) for g in map(json.loads, lines)]


def test_a_match_on_ray_stops_at_its_sprt_decision(address: str, tmp_path: Path) -> None:
    out = tmp_path / "sprt"
    strong = [FAKE + " random", "name=strong", "nodes=1"]
    weak = [FAKE + " illegal", "name=weak", "nodes=1", "timemargin=50"]
    args = ["match", "--engine", *strong, "--engine", *weak, "--rounds", "50", "--maxmoves", "40"]
    args += ["--sprt", "elo0=0", "elo1=100", "--out", str(out), "--quiet", "--ray", address]
    done = camelpy_cli(*args)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    # Decided by 10 pairs of wins in the normalized model, as the local match is: pairs still running
    # when it decided were cancelled, and their games are in no file.
    assert summary["sprt"]["decision"] == "H1"
    assert summary["pentanomial"] == [0, 0, 0, 0, 10]
    games = logged_games(out)
    assert len(games) == len(set(games)) == summary["games"] == 20
    assert Counter(pair for pair, _ in games) == {pair: 2 for pair, _ in games}
    assert "H1 was accepted" in done.stdout


def test_a_worker_killed_mid_match_loses_and_repeats_no_pair(address: str, tmp_path: Path) -> None:
    book = load_openings(BALANCED_EPD)[:4]
    a = parse_engine([CAMELPY, "name=a", "nodes=4000"])
    b = parse_engine([CAMELPY, "name=b", "nodes=3000"])
    out = tmp_path / "killed"
    result: list[object] = []

    def play() -> None:
        result.append(run_match(a, b, rounds=4, openings=book, adjudication=SHORT, out=out, backend="ray"))

    match = threading.Thread(target=play)
    match.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and match.is_alive() and time.monotonic() < deadline:
        found = subprocess.run(["pgrep", "-f", "ray::play_specs"], capture_output=True, text=True)
        pids = [int(p) for p in found.stdout.split()]
        if pids and (out / "games.jsonl").exists():
            os.kill(pids[0], signal.SIGKILL)  # the worker playing a pair dies mid-game
            killed = pids[0]
        time.sleep(0.2)
    match.join(timeout=300)
    assert killed is not None, "no worker was found playing a pair"
    assert not match.is_alive() and len(result) == 1
    summary = result[0]
    games = logged_games(out)
    assert sorted(games) == [(pair, game) for pair in range(4) for game in (0, 1)]
    assert summary.games == 8 and sum(summary.pentanomial) == 4  # type: ignore[attr-defined]


def test_a_tournament_on_ray(address: str, tmp_path: Path) -> None:
    players = "".join(
        f'[[players]]\nname = "{name}"\ncmd = "{FAKE} {mode}"\nnodes = 1\n' for name, mode in
        (("r1", "random"), ("r2", "random"), ("f", "first"))
    )  # fmt: skip
    config = tournament.parse_config(f'rounds = 2\nconcurrency = 2\nout = "{tmp_path}"\n' + players)
    config = dataclasses.replace(config, adjudication=SHORT)
    result = tournament.run_tournament(config, backend="ray")
    assert len(result.games) == 12  # 3 pairings, 2 rounds, 2 games a pair
    games = logged_games(tmp_path)
    assert len(set(games)) == 12
    assert sorted((r.name, r.games) for r in result.table.ratings) == [("f", 8), ("r1", 8), ("r2", 8)]


def test_analyse_many_on_ray_gives_the_local_results_in_order(address: str) -> None:
    boards: list[object] = [o.board() for o in load_openings(BALANCED_EPD)[:30]]
    items = [*boards[:10], "not a fen", *boards[10:], 42, "8/8/8/8/8/8/8/8 w - - 0 1"]
    limit = chess.engine.Limit(nodes=1500)
    local = analyse_many(items, limit, threads=2)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    remote = analyse_many(items, limit, backend="ray", progress=lambda d, n: seen.append((d, n)))  # type: ignore[arg-type]
    assert len(remote) == len(items)
    for mine, theirs in zip(local, remote):
        if isinstance(mine, Exception):
            assert type(theirs) is type(mine) and str(theirs) == str(mine)
        else:
            assert not isinstance(theirs, Exception)
            assert (theirs.best_move, theirs.score, theirs.nodes) == (mine.best_move, mine.score, mine.nodes)
    assert [type(r).__name__ for r in remote[10:11] + remote[-2:]] == [
        "InvalidFenError",
        "TypeError",
        "InvalidFenError",
    ]
    assert seen[-1] == (len(items), len(items)) and seen == sorted(seen)
    # Bad settings are refused here, before any task runs.
    with pytest.raises(ValueError, match="hash_mb"):
        analyse_many(items, limit, backend="ray", hash_mb=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        analyse_many(items, limit, backend="ray", threads=0)  # type: ignore[arg-type]
    # The engine's own settings travel with the positions.
    engine = camelpy.Engine()
    engine.set_params({"knight_value_mg": 100})
    fens = [b.fen() for b in boards[:6]]  # type: ignore[attr-defined]
    here = engine.analyse_many(fens, limit, threads=1)
    there = engine.analyse_many(fens, limit, backend="ray")
    assert [(r.score, r.best_move) for r in here] == [(r.score, r.best_move) for r in there]  # type: ignore[union-attr]


def test_review_on_ray_gives_the_local_review(address: str, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 0-1\n\n'
        '[White "b"]\n[Black "a"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qe2 *\n',
        encoding="utf-8",
    )
    runs = {}
    for where, extra in (("local", ()), ("ray", ("--ray", address))):
        done = camelpy_cli(
            "review", str(pgn), "--out", str(tmp_path / where), "--nodes", "3000", "--quiet", *extra
        )
        assert done.returncode == 0, done.stderr
        runs[where] = (done.stdout, (tmp_path / where / "games.reviewed.pgn").read_text(encoding="utf-8"))
    assert runs["ray"] == runs["local"] and "Qxf7+" in runs["ray"][0]


def test_datagen_on_ray_writes_the_local_file_and_resumes(address: str, tmp_path: Path) -> None:
    local, sharded, resumed = tmp_path / "local.bin", tmp_path / "ray.bin", tmp_path / "resumed.bin"
    settings = {"nodes": 400, "seed": 5, "random_plies": 6}
    camelpy.data.generate(local, games=45, workers=2, **settings)  # type: ignore[arg-type]
    done = camelpy_cli(
        "datagen", "--out", str(sharded), "--games", "45", "--nodes", "400", "--seed", "5",
        "--random-plies", "6", "--quiet", "--ray", address,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "wrote 45 games" in done.stdout
    assert sharded.read_bytes() == local.read_bytes()
    # Resumed on the cluster (a partial file, then more games), still the same file.
    first = camelpy.data.generate(resumed, games=20, backend="ray", **settings)  # type: ignore[arg-type]
    rest = camelpy.data.generate(resumed, games=45, backend="ray", **settings)  # type: ignore[arg-type]
    assert (first.new_games, rest.new_games, rest.games) == (20, 25, 45)
    assert first.positions + rest.new_positions == rest.positions == camelpy.data.info(local).records
    assert rest.white_wins + rest.draws + rest.black_wins == 25 == sum(rest.ends.values())
    assert resumed.read_bytes() == local.read_bytes()
    with pytest.raises(ValueError, match="workers must be between 1 and"):
        camelpy.data.generate(resumed, games=50, backend="ray", workers=0, **settings)  # type: ignore[arg-type]
    # Other settings than the file's are refused, as locally.
    with pytest.raises(camelpy.errors.DataFileError, match="other settings"):
        camelpy.data.generate(resumed, games=50, backend="ray", nodes=401, seed=5, random_plies=6)


def test_without_ray_or_a_cluster_the_commands_say_so(tmp_path: Path) -> None:
    # Ray hidden from the program: the command says how to install it.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from camelpy.tools.cli import main\n"
        f"sys.exit(main(['datagen', '--out', {str(tmp_path / 'x.bin')!r}, '--games', '1', '--ray']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: camelpy datagen --ray needs Ray: pip install 'camelpy[ray]'"
    # No cluster at the address, or no address: a clear error at once, not Ray's minutes of retries.
    port = _free_port()
    done = camelpy_cli(
        "match", "--engine", FAKE, "--engine", FAKE, "--each", "nodes=1", "--ray", f"127.0.0.1:{port}"
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip() == f"error: cannot join a Ray cluster at '127.0.0.1:{port}': Connection refused"
    )
    config = tmp_path / "t.toml"
    text = "".join(f'[[players]]\nname = "{name}"\ncmd = "{FAKE}"\nnodes = 1\n' for name in "ab")
    config.write_text(text, encoding="utf-8")
    done = camelpy_cli("tournament", str(config), "--ray", "head")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: bad Ray cluster address 'head': expected host:port (or auto)"
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray', got 'cluster'"):
        analyse_many(["8/8/8/8/8/8/8/8 w - - 0 1"], chess.engine.Limit(depth=1), backend="cluster")
    # Leiserchess matches stay on this machine.
    done = camelpy_cli(
        "match", "--game", "leiserchess", "--engine", "x", "--engine", "y", "--each", "nodes=1", "--out",
        str(tmp_path), "--ray",
    )  # fmt: skip
    assert done.returncode == 2 and "--ray plays chess matches" in done.stderr


class _Server:
    """A TCP server on 127.0.0.1 that is not Ray: *answer* (bytes) is sent to each connection after
    its first bytes arrive (``None``: it accepts and says nothing)."""

    def __init__(self, answer: bytes | None) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.answer = answer
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.answer is not None:
                conn.settimeout(5)
                with contextlib.suppress(OSError):
                    conn.recv(4096)
                    conn.sendall(self.answer)

    def close(self) -> None:
        for conn in self.held:
            conn.close()
        self.sock.close()


HTTP_ANSWER = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def test_a_port_that_is_not_ray_is_refused_within_the_deadline() -> None:
    for answer, why in (
        (None, "it accepted the connection but did not answer within 0.5 s"),
        (HTTP_ANSWER, "it does not answer as a Ray cluster's head does"),
    ):
        server = _Server(answer)
        try:
            began = time.monotonic()
            with pytest.raises(ValueError, match=f"cannot join a Ray cluster at '{server.address}': {why}"):
                cluster.check_address(server.address, timeout=0.5)
            assert time.monotonic() - began < 3
        finally:
            server.close()


def test_ray_address_from_the_environment_is_checked_too(tmp_path: Path) -> None:
    """RAY_ADDRESS (no --ray address) at a refused port, at a silent server, or at an HTTP server: an
    error line at once; it used to wait for ever in ray.init."""
    env = {**os.environ, "RAY_ADDRESS": "127.0.0.1:1"}
    command = [sys.executable, "-m", "camelpy", "match", "--engine", FAKE, "--engine", FAKE]
    command += ["--each", "nodes=1", "--out", str(tmp_path / "m"), "--ray"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "error: cannot join a Ray cluster at '127.0.0.1:1' (RAY_ADDRESS): Connection refused"
    )
    server = _Server(None)
    try:
        code = "from camelpy import cluster; cluster.connect(timeout=0.5)"
        env["RAY_ADDRESS"] = server.address
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
        )
        assert done.returncode == 1
        assert done.stderr.strip().splitlines()[-1] == (
            f"ValueError: cannot join a Ray cluster at '{server.address}' (RAY_ADDRESS): it accepted the "
            "connection but did not answer within 0.5 s (is it a Ray cluster's head?)"
        )
    finally:
        server.close()
    server = _Server(HTTP_ANSWER)
    try:
        done = subprocess.run(
            [*command, server.address], capture_output=True, text=True, timeout=60, env=os.environ
        )
        assert done.returncode == 2
        assert done.stderr.strip() == (
            f"error: cannot join a Ray cluster at '{server.address}': it does not answer as a Ray "
            "cluster's head does (gRPC over HTTP/2)"
        )
    finally:
        server.close()

"""camelpy gui without a browser: the game, the analysis line and the match watch as plain Python, and
the server's HTTP routes and WebSocket protocol through Starlette's test client (the browser tests are
``tests/test_gui_browser.py``)."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import camelpy
import chess
import pytest
from camelpy import strength
from camelpy.arena.engines import parse_engine
from camelpy.arena.events import EventLog
from camelpy.arena.match import run_match
from camelpy.arena.openings import Opening
from camelpy.arena.referee import GameRecord
from camelpy.arena.tournament import parse_config, run_tournament
from camelpy.errors import IllegalMoveError, InvalidFenError
from camelpy.gui.lines import Line, load_text
from camelpy.gui.play import Clock, Game, GameSettings, Strength
from camelpy.gui.server import Access, create_app
from camelpy.gui.session import MAX_SESSIONS
from camelpy.gui.variants import CHESS, MINICHESS
from camelpy.gui.watch import MatchWatch, replay
from starlette.testclient import TestClient

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
PROMOTION = "8/P6k/8/8/8/8/8/K7 w - - 0 1"


# ---- the game -----------------------------------------------------------------------------------


def test_game_moves_clocks_and_pgn() -> None:
    game = Game(GameSettings(human="white", strength=Strength("nodes", 500), clock=Clock(60, 2)), now=0.0)
    assert not game.engine_to_move()
    game.push("e2e4", now=10.0)  # the clock starts with the first move
    assert game.remaining[chess.WHITE] == 60
    assert game.engine_to_move()
    limit = game.engine_limit(now=11.0)
    assert limit.nodes == 500 and limit.black_clock == pytest.approx(59.0) and limit.white_inc == 2
    game.push("e7e5", now=13.0, score="+0.20/9")
    assert game.remaining[chess.BLACK] == pytest.approx(60 - 3 + 2)
    view = game.view(14.0)
    assert view["sans"] == ["e4", "e5"] and view["clock"]["running"] == "white"
    assert view["clock"]["white"] == pytest.approx(59.0)
    assert (
        '[White "You"]' in view["pgn"]
        and "{ +0.20/9 }" in view["pgn"]
        and '[TimeControl "60+2"]' in view["pgn"]
    )


def test_game_undo_takes_back_the_persons_move() -> None:
    game = Game(GameSettings(human="white"))
    game.push("e2e4", now=0)
    game.push("e7e5", now=0)
    game.undo(now=0)
    assert game.board.move_stack == []
    with pytest.raises(ValueError, match="no move of yours"):
        game.undo(now=0)
    black = Game(GameSettings(human="black"))
    black.push("d2d4", now=0)  # the engine's first move
    with pytest.raises(ValueError, match="no move of yours"):
        black.undo(now=0)


def test_game_ends_by_mate_time_resignation_and_draw() -> None:
    mate = Game(GameSettings(fen=MATE_IN_ONE, human="both"))
    mate.push("d1d8", now=0)
    assert (mate.result, mate.reason) == ("1-0", "White wins: checkmate")
    with pytest.raises(ValueError, match="the game is over"):
        mate.push("g8h7", now=0)
    flagged = Game(GameSettings(human="white", clock=Clock(5)), now=0)
    flagged.push("e2e4", now=0)
    flagged.push("e7e5", now=1)
    assert not flagged.flag(now=5.9)
    assert flagged.flag(now=6.1) and flagged.reason == "White loses on time" and flagged.result == "0-1"
    resigned = Game(GameSettings(human="black"))
    resigned.resign()
    assert (resigned.result, resigned.reason) == ("1-0", "Black resigns")
    offered = Game(GameSettings(human="white"))
    assert not offered.offer_draw(35) and not offered.over  # the engine stands better: declined
    assert offered.offer_draw(-20) and offered.result == "1/2-1/2"


def test_game_settings_refuse_bad_input_quoting_it() -> None:
    with pytest.raises(InvalidFenError, match="'not a fen'"):
        Game(GameSettings(fen="not a fen"))
    with pytest.raises(ValueError, match="'8/8/8/8/8/8/8/8 w - - 0 1'"):
        Game(GameSettings(fen="8/8/8/8/8/8/8/8 w - - 0 1"))
    with pytest.raises(ValueError, match="'god'"):
        Strength("level", "god")
    with pytest.raises(ValueError, match="minichess has no level 'expert'; expected one of beginner, casual"):
        GameSettings(variant="minichess", strength=Strength("level", "expert"))
    with pytest.raises(ValueError, match="nodes"):
        Strength("nodes", 0)
    with pytest.raises(ValueError, match="human"):
        GameSettings(human="red")
    with pytest.raises(ValueError, match="clock"):
        GameSettings(strength=Strength("clock"))
    with pytest.raises(ValueError, match="Chess960"):
        GameSettings(chess960_pos=960)
    with pytest.raises(ValueError, match="clock base"):
        Clock(0)
    game = Game(GameSettings(human="both"))
    with pytest.raises(IllegalMoveError, match="'e2e5'"):
        game.push("e2e5", now=0)
    assert game.board.move_stack == []


def test_chess960_and_promotion_moves() -> None:
    game = Game(GameSettings(chess960_pos=518, human="both"))
    assert game.board.chess960 and game.start_fen.split()[2] == "HAha"
    promotion = Game(GameSettings(fen=PROMOTION, human="white"))
    assert sorted(promotion.view(0)["board"]["legal"]["a7"]) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    promotion.push("a7a8n", now=0)
    assert promotion.view(0)["sans"] == ["a8=N"]


# ---- the analysis line ----------------------------------------------------------------------------


def test_line_loads_fen_and_pgn_and_grows() -> None:
    line = load_text("  " + MATE_IN_ONE + "\n")
    assert line.fen == MATE_IN_ONE and line.moves == ()
    line = line.play(["d1d8"])
    assert line.view()["board"]["outcome"] == "White wins: checkmate"
    pgn = load_text('[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *')
    assert pgn.sans() == ["e4", "e5", "Nf3", "Nc6", "Bb5"] and pgn.ply == 0
    stepped = pgn.goto(2).play(["g1f3"])  # the line's own next move: a step forward
    assert stepped.moves == pgn.moves and stepped.ply == 3
    branched = pgn.goto(2).play(["b1c3", "g8f6"])
    assert branched.sans() == ["e4", "e5", "Nc3", "Nf6"] and branched.ply == 4
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    chess960 = load_text(f'[Variant "Chess960"]\n[FEN "{fen}"]\n\n9. Nb4 *')
    assert chess960.chess960 and chess960.moves == ("a2b4",)


@pytest.mark.parametrize(
    ("text", "error", "quoted"),
    [
        ("hello", ValueError, "neither a FEN nor a PGN: 'hello'"),
        ("", ValueError, "empty"),
        ("rnbqk/ppp w", InvalidFenError, "'rnbqk/ppp w'"),
        ("1. e4 e5 2. Ke3", ValueError, "cannot read the PGN '1. e4 e5 2. Ke3': illegal san"),
        ('[FEN "garbage"]\n\n*', ValueError, "garbage"),
    ],
)
def test_line_refuses_bad_text(text: str, error: type[Exception], quoted: str) -> None:
    with pytest.raises(error, match=quoted.replace("(", r"\(").replace(".", r"\.")):
        load_text(text)


def test_line_refuses_bad_moves_and_plies() -> None:
    line = Line()
    with pytest.raises(IllegalMoveError, match="'e2e5'"):
        line.play(["e2e5"])
    with pytest.raises(ValueError, match="ply"):
        line.goto(1)
    with pytest.raises(ValueError):
        Line(moves=("e2e4", "e2e4"))


# ---- the match watch ------------------------------------------------------------------------------


def play_a_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real two-game match (camelpy against itself at 300 nodes a move): its folder, with its files."""
    out = tmp_path_factory.mktemp("match")
    engine = parse_engine(["camelpy", "nodes=300"])
    run_match(engine, engine, rounds=1, out=out, concurrency=2)
    return out


@pytest.fixture(scope="module")
def played_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real two-game match's folder (:func:`play_a_match`)."""
    return play_a_match(tmp_path_factory)


def test_match_publishes_its_events(played_match: Path) -> None:
    events = [json.loads(line) for line in (played_match / "events.jsonl").read_text().splitlines()]
    kinds = [event["type"] for event in events]
    assert kinds[:2] == ["run", "status"] and kinds[-2:] == ["status", "end"]
    assert kinds.count("game") == 2 and kinds.count("result") == 2 and kinds.count("status") == 3
    assert events[0]["engines"] == ["camelpy-1", "camelpy-2"] and events[0]["games"] == 2
    assert events[-1]["reason"] == "finished" and events[-2]["games"] == 2
    lines = (played_match / "games.jsonl").read_text().splitlines()[1:]
    for record in (GameRecord.from_json(json.loads(line)) for line in lines):
        moves = [e["uci"] for e in events if e["type"] == "move" and e["id"] == record.round]
        assert moves == [m.uci for m in record.moves]
        result = next(e for e in events if e["type"] == "result" and e["id"] == record.round)
        assert result["result"] == record.result and result["plies"] == len(moves)
        assert kinds.index("game") < kinds.index("move")


def test_tournament_publishes_standings(tmp_path: Path) -> None:
    config = parse_config(
        f"""
        rounds = 1
        concurrency = 2
        out = "{tmp_path}"
        [[players]]
        name = "a"
        cmd = "camelpy"
        nodes = 200
        [[players]]
        name = "b"
        cmd = "camelpy"
        nodes = 400
        """
    )
    run_tournament(config)
    watch = MatchWatch(tmp_path)
    watch.poll()
    snapshot = watch.snapshot()
    assert snapshot["run"]["kind"] == "tournament" and snapshot["ended"] == "finished"
    rows = snapshot["standings"]
    assert sorted(row[0] for row in rows) == ["a", "b"] and sum(row[1] for row in rows) == 2
    assert [row[2] for row in rows] == [2, 2]


def test_watch_folds_a_finished_match(played_match: Path) -> None:
    watch = MatchWatch(played_match)
    watch.poll()
    snapshot = watch.snapshot()
    assert snapshot["running"] == [] and len(snapshot["finished"]) == 2 and snapshot["ended"] == "finished"
    assert snapshot["status"]["games"] == 2 and [p[0] for p in snapshot["history"]] == [1, 2]
    assert snapshot["skipped"] == 0
    game = replay(played_match, "1.1")
    assert len(game["positions"]) == len(game["sans"]) + 1 and game["sans"][0] and game["reason"]
    assert game["positions"][1]["lastmove"] is not None and '[Round "1.1"]' in game["pgn"]
    with pytest.raises(ValueError, match="no game '9.9'"):
        replay(played_match, "9.9")


def test_watch_reads_as_the_file_grows(tmp_path: Path) -> None:
    watch = MatchWatch(tmp_path)
    assert watch.poll() == []  # no file yet
    log = EventLog(tmp_path)
    log.emit("run", kind="match", event="a vs b", engines=["a", "b"], games=2, sprt=None, version=1)
    log.emit("game", id="1.1", white="a", black="b", fen=chess.STARTING_FEN, book=["e2e4"], clock=None)
    path = tmp_path / "events.jsonl"
    with path.open("a") as f:
        f.write('{"type": "move", "id": "1.1", "uci": "e7e5", "score": "-0.1')  # half a line
    events = watch.poll()
    assert [e["type"] for e in events] == ["run", "game"]
    with path.open("a") as f:
        f.write('0", "cp": -10, "depth": 7, "time": 0.1, "clock": null}\n')
        f.write("garbage\n")
        f.write('{"type": "move", "id": "1.1", "uci": "e1e8"}\n')  # illegal: skipped
        f.write('{"type": "move", "id": "7.7", "uci": "e2e4"}\n')  # unknown game: skipped
    events = watch.poll()
    assert [(e["type"], e.get("san")) for e in events] == [("move", "e5")]
    assert watch.snapshot()["running"][0]["sans"] == ["e5"] and watch.skipped == 3
    path.write_text("")  # a new run in the same folder
    assert watch.poll() == [{"type": "reset"}] and watch.snapshot()["run"] is None


def test_watch_shows_an_older_runs_games(played_match: Path, tmp_path: Path) -> None:
    """A folder from before events.jsonl: its finished games, from games.jsonl."""
    (tmp_path / "games.jsonl").write_text((played_match / "games.jsonl").read_text())
    watch = MatchWatch(tmp_path)
    assert [e["type"] for e in watch.poll()] == ["run", "result", "result", "end"]
    snapshot = watch.snapshot()
    assert snapshot["run"]["event"] == "camelpy-1 vs camelpy-2" and snapshot["ended"] == "finished"
    assert sorted(r["id"] for r in snapshot["finished"]) == ["1.1", "1.2"]
    assert watch.poll() == []  # read once
    assert replay(tmp_path, "1.2")["sans"]


def test_watch_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no folder"):
        MatchWatch(tmp_path / "nope").check()


# ---- the server -----------------------------------------------------------------------------------


TOKEN = "test-token"
"""The token the test server wants (a real run makes a random one)."""

WS = "ws://127.0.0.1:8765/ws"
"""The socket's address (the test client's own host name, ``testserver``, is not one the server
answers to)."""


@pytest.fixture()
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The application through Starlette's test client, as served on 127.0.0.1, watching any folder
    below pytest's temporary folder."""
    app = create_app(watch_roots=[tmp_path_factory.getbasetemp()], access=Access.make(token=TOKEN))
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


class Page:
    """One WebSocket connection, as a page: sends ops, waits for messages of a type."""

    def __init__(self, client: TestClient, session: str) -> None:
        self.context = client.websocket_connect(f"{WS}?session={session}&token={TOKEN}")
        self.ws = self.context.__enter__()
        self.seen: list[dict[str, Any]] = []

    def send(self, op: str, **fields: Any) -> None:
        self.ws.send_text(json.dumps({"op": op, **fields}))

    def until(self, kind: str, check: Any = lambda m: True, limit: int = 5_000) -> dict[str, Any]:
        for _ in range(limit):
            message: dict[str, Any] = self.ws.receive_json()
            self.seen.append(message)
            if message["type"] == kind and check(message):
                return message
        raise AssertionError(f"no {kind} message")

    def close(self) -> None:
        self.context.__exit__(None, None, None)


def test_page_and_pieces(client: TestClient) -> None:
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and "<title>camelpy</title>" in page.text
    assert "/static/app.js" in page.text and "/static/board.js" in page.text
    piece = client.get("/pieces/wN.svg")
    assert piece.status_code == 200 and piece.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in piece.text
    assert client.get("/pieces/xK.svg").status_code == 404
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_chess_levels_are_calibrated_elo_settings_and_the_small_games_node_counts() -> None:
    club = Game(GameSettings(strength=Strength("level", "club")))
    assert club.engine_elo() == 1600 and club.engine_limit(now=0.0).nodes is None  # the level sets its nodes
    small = Game(GameSettings(variant="minichess", strength=Strength("level", "club")))
    assert small.engine_elo() is None and small.engine_limit(now=0.0).nodes == 10_000
    assert Game(GameSettings(strength=Strength("nodes", 500))).engine_elo() is None
    elos = [value for kind, value in CHESS.levels.values() if kind == "elo"]
    assert elos == [strength.ELO_MIN, *strength.CALIBRATED]  # the range's bottom, then the measured ones
    engine = camelpy.Engine(hash_mb=1)
    CHESS.set_elo(engine, 2400)
    assert engine.elo == 2400
    CHESS.set_elo(engine, None)
    assert engine.elo is None
    with pytest.raises(ValueError, match="minichess has no Elo levels, got 1600"):
        MINICHESS.set_elo(object(), 1600)


def test_play_a_game_over_the_socket(client: TestClient) -> None:
    page = Page(client, "play")
    hello = page.until("hello")
    assert hello["variants"]["chess"]["levels"]["club"] == ["elo", 1600]
    assert hello["variants"]["minichess"]["levels"]["club"] == ["nodes", 10_000]
    page.until("game")
    page.send("new_game", human="white", strength={"kind": "nodes", "value": 3000})
    assert page.until("game")["game"]["sans"] == []
    page.send("move", uci="e2e4")
    reply = page.until("game", lambda m: len(m["game"]["sans"]) == 2 and not m["thinking"])
    assert reply["game"]["board"]["turn"] == "white"
    infos = [m for m in page.seen if m["type"] == "engine_info"]
    assert infos and infos[0]["info"]["sans"] and infos[0]["info"]["score"]["text"]
    page.send("undo")
    assert page.until("game", lambda m: len(m["game"]["sans"]) == 0)["game"]["moves"] == []
    page.send("resign")
    assert page.until("game", lambda m: m["game"]["result"] is not None)["game"]["reason"] == "White resigns"
    page.close()


def test_bad_input_gets_a_message_and_loses_nothing(client: TestClient) -> None:
    page = Page(client, "bad")
    page.until("analysis")
    page.send("new_game", human="both")
    page.until("game", lambda m: m["game"] is not None)
    page.send("move", uci="e2e4")
    page.until("game", lambda m: m["game"]["sans"] == ["e4"])
    cases = [
        ({"op": "move", "uci": "e7e4"}, "illegal move 'e7e4'"),
        ({"op": "move", "uci": "zz"}, "'zz'"),
        ({"op": "move", "uci": 7}, "uci must be a string"),
        ({"op": "new_game", "fen": "rnbqk/ppp"}, "'rnbqk/ppp'"),
        ({"op": "new_game", "strength": {"kind": "level", "value": "god"}}, "'god'"),
        ({"op": "new_game", "clock": {"base": -5}}, "clock base"),
        ({"op": "load", "text": "1. e4 e5 2. Ke3"}, "'1. e4 e5 2. Ke3'"),
        ({"op": "goto", "ply": 99}, "ply"),
        ({"op": "play", "moves": ["e2e5"]}, "'e2e5'"),
        ({"op": "analyse", "multipv": 0}, "multipv"),
        ({"op": "watch", "folder": "/no/such/folder"}, "'/no/such/folder'"),
        ({"op": "replay", "id": "1.1"}, "watch a match folder first"),
        ({"op": "fly"}, "unknown op 'fly'"),
        ([1, 2], "unknown op None"),
    ]
    for op, quoted in cases:
        page.ws.send_text(json.dumps(op))
        error = page.until("error")
        assert quoted in error["message"], (op, error)
    page.ws.send_text("{not json")
    assert "not JSON: '{not json'" in page.until("error")["message"]
    page.send("move", uci="e7e5")  # the game is still there
    assert page.until("game", lambda m: len(m["game"]["sans"]) == 2)["game"]["sans"] == ["e4", "e5"]
    page.close()


def test_bad_session_name_is_refused(client: TestClient) -> None:
    with client.websocket_connect(f"{WS}?session=a%20b&token={TOKEN}") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and "'a b'" in message["message"]


def test_a_reload_mid_search_keeps_the_game(client: TestClient) -> None:
    page = Page(client, "reload")
    page.until("analysis")
    page.send("new_game", human="black", strength={"kind": "ms", "value": 700})
    page.until("game", lambda m: m["thinking"])
    page.close()  # the tab reloads while camelpy thinks
    time.sleep(1.0)
    again = Page(client, "reload")
    state = again.until("game")
    if state["thinking"]:
        state = again.until("game", lambda m: not m["thinking"])
    assert len(state["game"]["sans"]) == 1 and state["game"]["board"]["turn"] == "black"
    again.close()


def test_analysis_streams_lines_and_stops(client: TestClient) -> None:
    page = Page(client, "analysis")
    page.until("analysis")
    page.send("load", text=MATE_IN_ONE)
    line = page.until("line")
    assert line["line"]["fen"] == MATE_IN_ONE and "Material" in line["trace"]
    page.send("analyse", multipv=2)
    lines = page.until("analysis", lambda m: len(m["lines"]) == 2 and m["lines"][0]["depth"] >= 4)["lines"]
    assert lines[0]["score"]["mate"] == 1 and lines[0]["sans"][0] == "Rd8#"
    page.send("play", moves=["g1f1"])  # the analysis follows the board
    moved = page.until("line")
    assert moved["line"]["sans"] == ["Kf1"]
    page.until("analysis", lambda m: m["lines"] and m["lines"][0]["pv"][0] != "d1d8")
    page.send("stop")
    assert not page.until("analysis", lambda m: not m["running"])["running"]
    page.send("load", text="1. f3 e5 2. g4 Qh4# 0-1")
    page.until("line", lambda m: m["line"]["ply"] == 0)
    page.send("goto", ply=4)
    end = page.until("line", lambda m: m["line"]["ply"] == 4)
    assert end["line"]["board"]["outcome"] == "Black wins: checkmate" and end["trace"] == ""
    page.close()


def test_a_clock_flag_falls_on_the_server(client: TestClient) -> None:
    page = Page(client, "flag")
    page.until("analysis")
    page.send(
        "new_game", human="white", strength={"kind": "nodes", "value": 100}, clock={"base": 0.4, "inc": 0}
    )
    page.until("game", lambda m: m["game"] is not None)
    page.send("move", uci="e2e4")
    over = page.until("game", lambda m: m["game"]["result"] is not None)["game"]
    assert (over["result"], over["reason"]) == ("0-1", "White loses on time")
    page.close()


def test_watch_over_the_socket(client: TestClient, played_match: Path, tmp_path: Path) -> None:
    page = Page(client, "watch")
    page.until("analysis")
    page.send("watch", folder=str(played_match))
    snapshot = page.until("watch_snapshot")["watch"]
    assert len(snapshot["finished"]) == 2 and snapshot["status"]["games"] == 2
    page.send("replay", id="1.2")
    game = page.until("replay")["game"]
    assert game["id"] == "1.2" and len(game["positions"]) == len(game["sans"]) + 1
    live = tmp_path / "live"
    live.mkdir()
    page.send("watch", folder=str(live))
    assert page.until("watch_snapshot")["watch"]["run"] is None
    log = EventLog(live)
    log.emit("game", id="1.1", white="a", black="b", fen=chess.STARTING_FEN, book=[], clock=None)
    log.emit("move", id="1.1", uci="d2d4", score="+0.20", cp=20, depth=8, time=0.1, clock=None)
    events = page.until("watch_events", lambda m: any(e["type"] == "move" for e in m["events"]))["events"]
    move = next(e for e in events if e["type"] == "move")
    assert move["san"] == "d4" and move["board"]["lastmove"] == "d2d4"
    page.close()


def test_many_tabs_and_sessions(client: TestClient) -> None:
    pages = [Page(client, f"tab{i}") for i in range(3)]
    for i, page in enumerate(pages):
        page.until("analysis")
        page.send("load", text=Opening(moves=("e2e4",) * 0).fen)
        page.send("play", moves=[["e2e4", "d2d4", "c2c4"][i]])
    for i, page in enumerate(pages):
        assert page.until("line", lambda m: m["line"]["moves"] != [])["line"]["moves"] == [
            ["e2e4", "d2d4", "c2c4"][i]
        ]
        page.close()
    assert len(client.app.state.hub.sessions) <= MAX_SESSIONS  # type: ignore[attr-defined]


# ---- MiniChess ------------------------------------------------------------------------------------


def test_minichess_game() -> None:
    game = Game(GameSettings(variant="minichess", human="both"))
    view = game.view(0)
    assert (view["variant"], view["files"], view["ranks"]) == ("minichess", 5, 6)
    assert view["board"]["fen"] == "kqbnr/ppppp/5/5/PPPPP/RNBQK w 0"
    assert sorted(view["board"]["legal"]["b1"]) == ["b1a3", "b1c3"]
    for uci in ("b2b3", "b5b4", "a2a3", "b4a3"):
        game.push(uci, now=0)
    assert game.view(0)["sans"] == ["b3", "b4", "a3", "bxa3"]
    assert '[Variant "MiniChess 6x5"]' in game.pgn() and "2. a3 bxa3" in game.pgn()
    with pytest.raises(IllegalMoveError, match="'a1b2'"):
        game.push("a1b2", now=0)
    with pytest.raises(ValueError, match="'e2e4x'"):
        game.push("e2e4x", now=0)
    king = Game(GameSettings(variant="minichess", fen="k4/5/5/5/5/Q3K w 7", human="both"))
    king.push("a1a6", now=0)  # the queen takes the king
    assert (king.result, king.reason) == ("1-0", "White wins: king captured")
    with pytest.raises(ValueError, match="Chess960"):
        Game(GameSettings(variant="minichess", chess960_pos=3))
    with pytest.raises(ValueError, match="unknown game 'go'"):
        GameSettings(variant="go")


def test_minichess_over_the_socket(client: TestClient) -> None:
    page = Page(client, "mini")
    page.until("analysis")
    page.send("new_game", variant="minichess", human="black", strength={"kind": "nodes", "value": 2000})
    first = page.until("game", lambda m: m["game"] is not None and len(m["game"]["sans"]) == 1)
    assert first["game"]["variant"] == "minichess" and first["game"]["board"]["turn"] == "black"
    infos = [m for m in page.seen if m["type"] == "engine_info"]
    assert infos and infos[-1]["info"]["sans"]
    page.send("move", uci=sorted(u for ms in first["game"]["board"]["legal"].values() for u in ms)[0])
    after = page.until("game", lambda m: len(m["game"]["sans"]) == 3 and not m["thinking"])
    assert "{ " in after["game"]["pgn"]  # camelpy's scores as comments
    page.send("undo")
    assert len(page.until("game", lambda m: len(m["game"]["sans"]) == 1)["game"]["moves"]) == 1
    page.send(
        "new_game",
        variant="minichess",
        human="white",
        clock={"base": 60, "inc": 1},
        strength={"kind": "clock"},
    )
    page.until("game", lambda m: m["game"]["sans"] == [])
    page.send("move", uci="c2c3")
    reply = page.until("game", lambda m: len(m["game"]["sans"]) == 2 and not m["thinking"])["game"]
    assert reply["clock"]["black"] < 60 + 1
    page.close()


# ---- the command ----------------------------------------------------------------------------------


@contextlib.contextmanager
def running_gui(*args: str) -> Iterator[str]:
    """``camelpy gui --no-browser --port 0 ARGS`` running (stopped after): the line it prints first."""
    with subprocess.Popen(  # leaving the block closes its output pipe
        [sys.executable, "-m", "camelpy", "gui", "--no-browser", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            yield process.stdout.readline()
        finally:
            process.terminate()
            process.wait(timeout=30)


def _gui(*args: str, hide: str = "") -> subprocess.CompletedProcess[str]:
    """``camelpy gui ARGS`` in a fresh interpreter (with module *hide* made unimportable)."""
    hiding = f"sys.modules[{hide!r}] = None; " if hide else ""
    code = f"import sys; {hiding}from camelpy.tools.cli import main; sys.exit(main({['gui', *args]!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_the_command_refuses_bad_input_with_one_line() -> None:
    missing = _gui("--no-browser", "--port", "0", hide="starlette")
    assert missing.returncode == 2
    assert missing.stderr.startswith(
        "error: camelpy gui needs Starlette and uvicorn: pip install 'camelpy[gui]'"
    )
    assert "Traceback" not in missing.stderr
    assert _gui("--help", hide="starlette").returncode == 0  # the help needs no extra
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = _gui("--no-browser", "--port", port)
    assert busy.returncode == 2 and f"error: cannot listen on '127.0.0.1:{port}'" in busy.stderr
    bad_port = _gui("--no-browser", "--port", "70000")
    assert bad_port.returncode == 2 and "port" in bad_port.stderr
    nowhere = _gui("--no-browser", "--port", "0", "--watch", "/no/such/run")
    assert nowhere.returncode == 2 and "error: no folder '/no/such/run'" in nowhere.stderr


def test_minichess_analysis(client: TestClient) -> None:
    assert load_text("k4/5/5/5/5/Q3K w 7", variant="minichess").view()["files"] == 5
    with pytest.raises(ValueError, match="'kqbnr'"):
        load_text("kqbnr", variant="minichess")
    page = Page(client, "mini-analysis")
    page.until("analysis")
    page.send("load", text="k4/5/5/5/5/Q3K w 7", variant="minichess")
    line = page.until("line")
    assert (line["line"]["variant"], line["line"]["ranks"]) == ("minichess", 6)
    assert "queen" in line["trace"] and "evaluation for the side to move (White)" in line["trace"]
    page.send("analyse", multipv=3)
    best = page.until("analysis", lambda m: m["lines"] and m["lines"][0]["score"]["mate"] == 1)["lines"]
    assert len(best) == 1 and best[0]["sans"][0] == "Qxa6"
    page.send("play", moves=["a1a6"])
    end = page.until("line", lambda m: m["line"]["ply"] == 1)
    assert end["line"]["board"]["outcome"] == "White wins: king captured" and end["line"]["sans"] == ["Qxa6"]
    assert not page.until("analysis", lambda m: not m["running"])["lines"]
    page.send("load", text="kqbnr/ppppp/5/5/PPPPP/RNBQK w 0", variant="minichess")
    page.until("line", lambda m: m["line"]["moves"] == [])
    page.send("analyse")
    page.until("analysis", lambda m: m["lines"] and m["lines"][0]["depth"] >= 3)
    page.send("load", text=MATE_IN_ONE)  # back to chess: the MiniChess search stops
    page.until("line", lambda m: m["line"]["variant"] == "chess")
    page.until("analysis", lambda m: m["lines"] and m["lines"][0]["score"]["mate"] == 1)
    page.send("stop")
    page.until("analysis", lambda m: not m["running"])
    page.send("load", text="x", variant="go")
    assert "unknown game 'go'" in page.until("error")["message"]
    page.close()

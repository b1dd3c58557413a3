"""Leiserchess in ``camelpy gui`` without a browser: the game (moves in the course's notation, the laser
of each move, the rules' reasons for an illegal move, the 2018 swaps, the record), the analysis line
and the match watch as plain Python, and a game, an analysis and a watched match over the socket
(Starlette's test client, as ``tests/test_gui.py``; the browser tests are
``tests/test_gui_leiserchess_browser.py``)."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import chess.engine
import pytest
from camelpy import leiserchess
from camelpy.arena.engines import parse_engine
from camelpy.arena.leiserchess import run_match
from camelpy.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from camelpy.gui.lines import load_text
from camelpy.gui.play import Game, GameSettings, Strength
from camelpy.gui.variants import LEISERCHESS, LEISERCHESS_2018, VARIANTS
from camelpy.gui.watch import MatchWatch, replay
from camelpy.protocols.leiserchess import MIN_DEPTH, time_for_move
from starlette.testclient import TestClient

from tests import test_gui
from tests.test_gui import Page

client = test_gui.client
"""The application through Starlette's test client (``tests/test_gui.py``'s fixture)."""

KING_HIT = "8/8/8/8/8/8/8/NN6nn W"
"""Tangerine's king on a0 turns east (``a0R``) and its beam runs along rank 0 into Lavender's king."""
ZAP_TWICE = "ss7/8/8/8/SE1NE5/8/8/NN7 W"
"""Tangerine's null move: the beam turns east at a3 and zaps c3's back; under 2016 it fires again."""
SWAP = "ss7/8/8/3nw4/4NE3/8/8/7NN W"
"""Under 2018 the NE pawn on e3 may swap with Lavender's pawn on d4, then move on or turn."""
ENGINE = f"{sys.executable} -m camelpy leiserchess"


def test_a_game_to_a_king_hit_with_its_laser_and_record() -> None:
    game = Game(GameSettings(variant="leiserchess", fen=KING_HIT, strength=Strength("nodes", 500)))
    view = game.view(0)
    assert (view["variant"], view["files"], view["ranks"]) == ("leiserchess", 8, 8)
    assert view["board"]["laser"] is None and sorted(view["board"]["legal"]["a0"]) == [
        "a0L",
        "a0R",
        "a0U",
        "a0a1",
        "a0b0",
        "a0b1",
    ]
    game.push("a0R", now=0)
    view = game.view(0)
    assert (view["result"], view["reason"]) == ("1-0", "Tangerine wins: a king is hit by the laser")
    assert view["board"]["laser"] == {
        "from": "a0",
        "shots": [{"squares": ["b0", "c0", "d0", "e0", "f0", "g0", "h0"], "end": "king", "square": "h0"}],
    }
    record = view["pgn"]
    assert '[Tangerine "You"]' in record and '[Lavender "camelpy (500 nodes)"]' in record
    assert f'[FEN "{KING_HIT}"]' in record and '[Rules "2016"]' in record
    assert record.endswith("\n\n1. a0R 1-0\n") and view["sans"] == ["a0R"]


def test_each_shot_of_a_move_is_drawn_and_the_rules_choose_how_many() -> None:
    for variant, shots in ((LEISERCHESS, 2), (LEISERCHESS_2018, 1)):
        board = variant.new_board(ZAP_TWICE)
        board.push(variant.parse(board, "a0a0"))
        laser = variant.view(board)["laser"]
        assert laser["from"] == "a0" and len(laser["shots"]) == shots
        assert laser["shots"][0] == {"squares": ["a1", "a2", "a3", "b3", "c3"], "end": "zap", "square": "c3"}
        assert board.piece_at("c3") is None  # zapped


def test_illegal_moves_are_refused_with_the_rules_reason() -> None:
    game = Game(GameSettings(variant="leiserchess", human="both"))
    with pytest.raises(IllegalMoveError, match="Ko: it would restore an earlier board"):
        game.push("h0h0", now=0)  # the king's null move from the start leaves the board as it was
    with pytest.raises(IllegalMoveError, match="no piece on that square"):
        game.push("a0a1", now=0)
    with pytest.raises(IllegalMoveError, match="not a piece of the side to move"):
        game.push("a7a6", now=0)
    with pytest.raises(InvalidMoveError, match="'e2e4q'"):
        game.push("e2e4q", now=0)
    assert game.board.move_stack == [] and not game.over
    game.push("f4f5", now=0)
    with pytest.raises(IllegalMoveError, match="Ko"):
        game.push("a7a7", now=0)  # Lavender's king fires and zaps nothing: the board is as it was
    with pytest.raises(InvalidFenError, match="'ss7/8 W'"):
        Game(GameSettings(variant="leiserchess", fen="ss7/8 W"))
    with pytest.raises(ValueError, match="Chess960 starts are for chess"):
        Game(GameSettings(variant="leiserchess", chess960_pos=3))


def test_the_2018_rules_swap_and_are_recorded() -> None:
    game = Game(GameSettings(variant="leiserchess2018", fen=SWAP, human="both"))
    legal = game.view(0)["board"]["legal"]["e3"]
    assert "e3d4c5" in legal and "e3d4L" in legal and "e3d4" not in legal  # a swap needs its follow-up
    game.push("e3d4c5", now=0)
    assert game.board.piece_at("c5") == "NE" and game.board.piece_at("e3") == "nw"
    assert '[Rules "2018"]' in game.pgn() and "1. e3d4c5 " in game.pgn()
    with pytest.raises(IllegalMoveError):
        Game(GameSettings(variant="leiserchess", fen=SWAP, human="both")).push("e3d4c5", now=0)


def test_the_engine_plays_by_node_limit_and_by_the_protocols_clock_rule() -> None:
    game = Game(GameSettings(variant="leiserchess", human="white", strength=Strength("nodes", 300)))
    game.push("f4f5", now=0)
    assert game.engine_to_move()
    engine = LEISERCHESS.engine(1)
    infos: list[object] = []
    limit = game.engine_limit(now=0)
    played = LEISERCHESS.play(engine, game.board.copy(), limit, infos.append, threading.Event())
    assert played is not None and game.board.is_legal(played.uci)
    assert played.comment is not None and played.comment.endswith(f"/{len(infos)}")
    game.push(played.uci, now=0, score=played.comment)
    assert f"{{ {played.comment} }}" in game.pgn()
    clock = chess.engine.Limit(white_clock=60.0, white_inc=0.5)
    budget = time_for_move(60_000, 500)  # the protocol's own rule: its hard budget, soft and minimum depth
    assert LEISERCHESS.move_seconds(leiserchess.Board(), clock) == budget.hard_ms / 1000
    assert LEISERCHESS.move_limits(leiserchess.Board(), clock) == {
        "time": budget.hard_ms / 1000,
        "soft_time": budget.soft_ms / 1000,
        "min_depth": MIN_DEPTH,
    }
    assert LEISERCHESS.move_seconds(leiserchess.Board(), chess.engine.Limit(time=0.25)) == 0.25


def test_analysis_line_and_its_evaluation_terms() -> None:
    line = load_text(KING_HIT, variant="leiserchess")
    view = line.view()
    assert (view["variant"], view["fen"], view["board"]["turn"]) == ("leiserchess", KING_HIT, "white")
    line = line.play(["a0a1"])
    assert line.sans() == ["a0a1"] and line.view()["board"]["laser"]["from"] == "a1"
    with pytest.raises(IllegalMoveError, match="Ko"):
        load_text(leiserchess.STARTING_FEN, variant="leiserchess").play(["h0h0"])
    trace = LEISERCHESS.trace(leiserchess.Board(), None)
    assert trace.splitlines()[0].split() == ["term", "weight", "feature", "product"]
    for name in leiserchess.WEIGHT_NAMES:
        assert f"\n{name} " in trace
    assert "evaluation for the side to move (Tangerine): -7" in trace  # the level start: the tempo


def test_over_the_socket_a_game_an_illegal_move_and_an_analysis(client: TestClient) -> None:
    page = Page(client, "leiser")
    hello = page.until("hello")
    assert hello["variants"]["leiserchess"]["title"] == "Leiserchess (2016 rules)"
    assert hello["variants"]["leiserchess2018"]["multipv"] == 1
    assert hello["variants"]["leiserchess"]["sides"] == ["Tangerine", "Lavender"]
    page.send("new_game", variant="leiserchess", human="white", strength={"kind": "nodes", "value": 300})
    page.until("game", lambda m: m["game"] is not None and m["game"]["variant"] == "leiserchess")
    page.send("move", uci="h0h0")
    error = page.until("error")
    assert error["op"] == "move" and "Ko: it would restore an earlier board" in error["message"]
    page.send("move", uci="f4f5")
    answered = page.until("game", lambda m: len(m["game"]["moves"]) == 2 and not m["thinking"])
    board = answered["game"]["board"]
    assert board["turn"] == "white" and board["laser"]["shots"] and answered["game"]["moves"][0] == "f4f5"
    page.send("undo")
    page.until("game", lambda m: m["game"]["moves"] == [])
    page.send("resign")
    over = page.until("game", lambda m: m["game"]["result"] is not None)
    assert (over["game"]["result"], over["game"]["reason"]) == ("0-1", "Tangerine resigns")
    page.send("load", text=KING_HIT, variant="leiserchess")
    line = page.until("line", lambda m: m["line"]["variant"] == "leiserchess")
    assert "king_face" in line["trace"]
    page.send("analyse", multipv=1)
    found = page.until("analysis", lambda m: bool(m["lines"]))
    assert found["lines"][0]["pv"][0] == "a0R" and found["lines"][0]["score"]["mate"] == 1
    page.send("stop")
    page.until("analysis", lambda m: not m["running"])
    page.close()


@pytest.fixture(scope="module")
def leiser_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real one-pair Leiserchess match (``camelpy leiserchess`` at depths 2 and 1, at most 30
    plies a game): its folder."""
    out = tmp_path_factory.mktemp("leiser-match")
    engines = (
        parse_engine([ENGINE, "name=deep", "depth=2"]),
        parse_engine([ENGINE, "name=shallow", "depth=1"]),
    )
    run_match(engines, pairs=1, out=out, max_plies=30, report=lambda line: None)
    return out


def test_a_match_publishes_its_moves_and_the_watch_replays_them(leiser_match: Path) -> None:
    events = [json.loads(line) for line in (leiser_match / "events.jsonl").read_text().splitlines()]
    games = [e for e in events if e["type"] == "game"]
    assert [(g["id"], g["variant"], g["rules"]) for g in games] == [
        ("1.1", "leiserchess", 2016),
        ("1.2", "leiserchess", 2016),
    ]
    log = [json.loads(line) for line in (leiser_match / "games.jsonl").read_text().splitlines()[1:]]
    for record in log:
        game_id = f"{record['pair'] + 1}.{record['game'] + 1}"
        moves = [e["uci"] for e in events if e["type"] == "move" and e["id"] == game_id]
        assert moves == record["moves"]
        assert next(g for g in games if g["id"] == game_id)["book"] == record["opening"]
    statuses = [e for e in events if e["type"] == "status"]  # the score after each game
    assert [(s["games"], sum(s["pentanomial"])) for s in statuses] == [(1, 0), (2, 1)]
    assert statuses[-1]["wins"] + statuses[-1]["draws"] + statuses[-1]["losses"] == 2
    watch = MatchWatch(leiser_match)
    watch.poll()
    seen = watch.snapshot()
    assert seen["status"] == statuses[-1]
    assert (seen["skipped"], seen["ended"], seen["running"]) == (0, "finished", [])
    assert sorted(g["id"] for g in seen["finished"]) == ["1.1", "1.2"]
    shown = replay(leiser_match, "1.2")
    assert shown["variant"] == "leiserchess" and shown["white"] == "shallow"
    assert len(shown["positions"]) == len(shown["sans"]) + 1 and shown["sans"] == log[1]["moves"]
    assert shown["positions"][-1]["laser"]["shots"] and shown["positions"][-1]["legal"] == {}
    assert '[Tangerine "shallow"]' in shown["pgn"] and '[Rules "2016"]' in shown["pgn"]


def test_a_game_is_watched_live_move_by_move(tmp_path: Path) -> None:
    from camelpy.arena.events import EventLog

    log = EventLog(tmp_path)
    log.begin("match", "live", ["a", "b"], 2)
    fields = {"white": "a", "black": "b", "fen": leiserchess.STARTING_FEN, "clock": None}
    log.emit("game", id="1.1", book=["f4f5"], variant="leiserchess", rules=2018, **fields)
    log.emit("move", id="1.1", uci="a7R", score=None, cp=None, depth=None, time=0.1, clock=None)
    log.emit("move", id="1.1", uci="not a move", score=None, cp=None, depth=None, time=0.1, clock=None)
    watch = MatchWatch(tmp_path)
    events = watch.poll()
    assert [e["type"] for e in events] == ["run", "game", "move"] and watch.skipped == 1
    game = watch.snapshot()["running"][0]
    assert game["variant"] == "leiserchess2018" and game["sans"] == ["a7R"]
    assert game["board"]["laser"]["from"] == "a7" and game["board"]["legal"] == {}
    assert VARIANTS[game["variant"]] is LEISERCHESS_2018

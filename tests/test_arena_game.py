"""The small games' one game loop (:mod:`camelpy.arena.game`): camelpy's searchers in this process, a
player's fault, an illegal move under each game's referee policy, and the max-plies draw."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from camelpy import leiserchess, minichess
from camelpy.arena import game
from camelpy.arena.minichess import RULES as MINICHESS_RULES


class Scripted:
    """A player that answers the moves it is given, in order (then no move)."""

    def __init__(self, name: str, answers: Sequence[str]) -> None:
        self.name = name
        self.answers = list(answers)
        self.games = 0
        self.closed = 0

    def new_game(self) -> None:
        self.games += 1

    def close(self) -> None:
        self.closed += 1

    def play(self, board: object, moves: Sequence[str]) -> game.Answer:
        if not self.answers:
            return game.Answer(None, 0.0, ("crash", f"{self.name} is gone"))
        return game.Answer(self.answers.pop(0), 0.25)


def test_searchers_play_leiserchess_to_the_max_plies() -> None:
    players = [game.SearcherPlayer(n, leiserchess.Searcher(hash_mb=1), depth=1) for n in ("t", "l")]
    rules = game.Rules[leiserchess.Board](max_plies=6)
    record = game.play_game(players, leiserchess.Board(), rules, opening=("f4f5",), pair=2, game=1)
    assert (record.white, record.black, record.round, record.pair, record.game) == ("t", "l", "3.2", 2, 1)
    assert record.opening.moves == ("f4f5",) and record.opening.fen == leiserchess.STARTING_FEN
    assert (record.result, record.termination, len(record.moves)) == ("1/2-1/2", "max_plies", 5)
    replay = leiserchess.Board()
    for move in ("f4f5", *(m.uci for m in record.moves)):
        replay.push(move)
    assert replay.fen() == record.final


def test_a_fault_loses_and_every_player_starts_a_new_game() -> None:
    white, black = Scripted("w", ["4 0 3 0"]), Scripted("b", [])
    record = game.play_game([white, black], minichess.Board(), MINICHESS_RULES)
    assert (record.result, record.winner, record.termination, record.reason) == (
        "1-0",
        True,
        "crash",
        "b is gone",
    )
    assert [m.uci for m in record.moves] == ["4 0 3 0"] and record.moves[0].time == 0.25
    assert white.games == black.games == 1


def test_an_illegal_move_loses_under_each_games_policy() -> None:
    moves = ["4 0 3 0", "4 0 3 0"]  # Black repeats White's move: not legal for Black
    record = game.play_game(
        [Scripted("w", moves[:1]), Scripted("b", moves[1:])], minichess.Board(), MINICHESS_RULES
    )
    assert (record.result, record.termination) == ("1-0", "illegal_move")
    assert record.reason == "Black played an illegal move '4 0 3 0'" and len(record.moves) == 1
    record = game.play_game(
        [Scripted("w", ["e2e4 please"]), Scripted("b", [])], minichess.Board(), MINICHESS_RULES
    )
    assert (record.result, record.reason) == ("0-1", "White wrote a malformed move 'e2e4 please'")
    kept = game.Rules[leiserchess.Board](keep_illegal=True)
    record = game.play_game([Scripted("t", ["zz99"]), Scripted("l", [])], leiserchess.Board(), kept)
    assert (record.result, record.termination, record.reason) == ("0-1", "illegal_move", "")
    assert [m.uci for m in record.moves] == ["zz99"]


def test_a_searcher_player_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="needs a depth, nodes or time limit"):
        game.SearcherPlayer("x", minichess.Searcher(hash_mb=1))


def test_seated_players_are_closed_however_the_block_ends() -> None:
    players = (Scripted("w", ["4 0 3 0"]), Scripted("b", []))
    with game.seated(players) as seats:
        assert seats is players
        game.play_game(seats, minichess.Board(), MINICHESS_RULES)
        assert [p.closed for p in players] == [0, 0]
    assert [p.closed for p in players] == [1, 1]
    with pytest.raises(RuntimeError, match="stop"), game.seated(players):
        raise RuntimeError("stop")
    assert [p.closed for p in players] == [2, 2]

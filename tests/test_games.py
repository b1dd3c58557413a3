"""The small games' common ground (``camelpy.games`` and the bindings' ``GameIteration``): both games get
the same board behaviour, search reports and limits from one place."""

from __future__ import annotations

import copy
import pickle
import threading
from typing import Any

import pytest
from camelpy import _core, games, leiserchess, minichess

GAMES: list[tuple[Any, str, str]] = [
    (minichess, "4 0 3 0", "kqbnr/ppppp/5/P4/1PPPP/RNBQK b 1"),
    (leiserchess, "f4f5", "ss3nw3/3nw4/2nw1nwSE2/1nw5SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN B"),
]


@pytest.mark.parametrize(("game", "move", "fen"), GAMES, ids=["minichess", "leiserchess"])
def test_both_boards_share_the_base(game: Any, move: str, fen: str) -> None:
    board = game.Board()
    assert isinstance(board, games.Board)
    with pytest.raises(IndexError, match="peek from empty move stack"):
        board.peek()
    board.push(move)
    assert board.fen() == fen and board.peek() == game.Move.parse(move) and board.result() == "*"
    for again in (board.copy(), copy.copy(board), copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert type(again) is game.Board and again == board and again.move_stack == board.move_stack
        assert again is not board and again._native is not board._native
    again = board.copy()
    again.pop()
    assert again != board and board.move_stack == [game.Move.parse(move)]
    assert eval(repr(board), {"Board": game.Board}).fen() == fen
    assert not board.is_game_over() and board.outcome() is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(board)
    with pytest.raises(TypeError, match="move must be a Move or a str, got int 3"):
        board.push(3)


def test_boards_of_different_games_are_not_equal() -> None:
    assert minichess.Board() != leiserchess.Board() and leiserchess.Board() != minichess.Board()
    assert leiserchess.Board(rules=2018) != leiserchess.Board()
    with pytest.raises(TypeError, match="board must be a camelpy.leiserchess.Board, got Board"):
        leiserchess.perft(minichess.Board(), 1)  # type: ignore[arg-type]


def test_one_termination_and_outcome_for_both_games() -> None:
    assert minichess.Termination is leiserchess.Termination is games.Termination
    assert minichess.Outcome is leiserchess.Outcome is games.Outcome
    members = {t.name: t.value for t in games.Termination}
    assert members == {
        "KING_CAPTURED": "king_captured",
        "MATERIAL_COUNT": "material_count",
        "KING_HIT": "king_hit",
        "REPETITION": "repetition",
        "QUIET_MOVES": "quiet_moves",
        "NO_MOVES": "no_moves",
    }
    board = leiserchess.Board("8/8/8/8/8/8/8/NN6nn W")
    board.push("a0R")
    assert board.outcome() == games.Outcome(games.Termination.KING_HIT, True)


def test_one_hash_limit_for_the_small_games() -> None:
    assert games.MAX_HASH_MB == _core.MAX_HASH_MB == minichess.MAX_HASH_MB == leiserchess.MAX_HASH_MB
    assert games.DEFAULT_HASH_MB == minichess.DEFAULT_HASH_MB == leiserchess.DEFAULT_HASH_MB == 16
    with pytest.raises(ValueError, match=f"hash_mb must be between 1 and {games.MAX_HASH_MB}"):
        leiserchess.Searcher(games.MAX_HASH_MB + 1)


def test_game_iteration_is_a_typed_frozen_report() -> None:
    info = _core.GameIteration(depth=3, score=None, mate=-2, nodes=7, seconds=0.25, pv=["a0R"])
    assert (info.depth, info.score, info.mate, info.nodes, info.seconds, info.pv) == (
        3,
        None,
        -2,
        7,
        0.25,
        ["a0R"],
    )
    assert eval(repr(info), {"GameIteration": _core.GameIteration}) == info
    with pytest.raises(AttributeError):
        info.depth = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("native", "board"),
    [(_core.MiniSearcher, _core.MiniBoard()), (_core.LeiserSearcher, _core.LeiserBoard())],
    ids=["minichess", "leiserchess"],
)
def test_both_searchers_report_game_iterations(native: Any, board: Any) -> None:
    seen: list[_core.GameIteration] = []
    move, last = native(1).search(board, 3, None, None, seen.append, None, None)
    assert [it.depth for it in seen] == [1, 2, 3] and seen[-1] == last
    assert all(isinstance(it, _core.GameIteration) for it in seen)
    assert move == last.pv[0] and isinstance(move, str)


@pytest.mark.parametrize(("game", "move", "fen"), GAMES, ids=["minichess", "leiserchess"])
def test_searches_give_search_infos_of_moves(game: Any, move: str, fen: str) -> None:
    infos: list[games.SearchInfo[Any]] = []
    result = game.search(game.Board(), depth=2, on_iteration=infos.append, hash_mb=1)
    assert [i.depth for i in infos] == [1, 2] and result.info == infos[-1]
    assert isinstance(result.move, game.Move) and all(isinstance(m, game.Move) for m in result.info.pv)
    searcher = game.Searcher(1, threads=2)
    assert searcher.threads == 2 and searcher.search(game.Board(), depth=3).info.depth == 3


@pytest.mark.parametrize("game", [minichess, leiserchess], ids=["minichess", "leiserchess"])
def test_a_set_stop_event_stops_a_deep_perft(game: Any) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(ValueError, match="perft was stopped"):
        game.perft(game.Board(), 9, stop=stop)
    assert game.perft(game.Board(), 2, stop=stop) == game.perft(game.Board(), 2) > 0  # direct: not polled
    with pytest.raises(TypeError, match="stop must have an is_set"):
        game.perft(game.Board(), 1, stop=object())


def test_minichess_has_one_rule_set() -> None:
    with pytest.raises(ValueError, match="MiniChess has one rule set, got rules=2016"):
        minichess.selfplay_samples(1, nodes=100, rules=2016)
    with pytest.raises(ValueError, match="rules must be 2016 or 2018, got 2017"):
        leiserchess.compare_weights({}, {}, 1, nodes=100, rules=2017)


def test_the_games_search_report_names_are_classes() -> None:
    """``minichess.SearchResult`` and friends stay usable with isinstance, as before the games base."""
    result = minichess.search(minichess.Board(), depth=2)
    assert isinstance(result, minichess.SearchResult) and isinstance(result.info, minichess.SearchInfo)
    found = leiserchess.Searcher().search(leiserchess.Board(), depth=1)
    assert isinstance(found, leiserchess.SearchResult) and isinstance(found.info, leiserchess.SearchInfo)

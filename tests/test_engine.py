"""camelpy.Engine and camelpy.search: the Rust search from Python, returning python-chess objects."""

from __future__ import annotations

import random
import threading
import time

import camelpy
import camelpy.nnue
import chess
import chess.engine
import pytest


@pytest.mark.parametrize(
    ("evaluation", "fen", "first"),
    [
        ("nnue", "r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1", "h5h6"),  # Qxh6+ Rxh6 Rg8#
        ("classical", "r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1", "h5h6"),
        # Ra6! bxa6 b7#. With the built-in network a fresh search finds it only at depth 14: the rook
        # move is reduced late and the reply's node pruned on its static evaluation (docs/nnue.md).
        ("classical", "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6"),
    ],
)
def test_search_finds_mate_in_two(evaluation: str, fen: str, first: str) -> None:
    result = camelpy.Engine(eval=evaluation).search(fen, depth=6)
    assert result.best_move == chess.Move.from_uci(first)
    assert result.score == chess.engine.PovScore(chess.engine.Mate(2), chess.WHITE)
    board = chess.Board(fen)
    for move in result.pv:
        board.push(move)
    assert board.is_checkmate(), "the mate PV ends in mate"


def test_the_default_evaluation_is_the_built_in_network_and_classical_is_one_argument_away() -> None:
    engine = camelpy.Engine()
    assert (engine.eval, engine.eval_file) == ("nnue", camelpy.nnue.EMBEDDED)
    assert repr(engine) == "Engine(hash_mb=16, threads=1)"
    classical = camelpy.Engine(eval="classical")
    assert (classical.eval, classical.eval_file) == ("classical", None)
    assert repr(classical) == "Engine(hash_mb=16, threads=1, eval='classical')"
    assert repr(camelpy.Engine(eval_file=None)) == repr(classical)
    assert camelpy.Engine(eval="nnue").eval_file == camelpy.nnue.EMBEDDED
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert engine.evaluate(fen) != classical.evaluate(fen)
    # The classical weights act on the classical evaluation only.
    pawns_up = "4k3/pppp4/8/8/8/8/PPPPPP2/4K3 w - - 0 1"
    before = engine.evaluate(pawns_up)
    engine.set_param("pawn_value_eg", 400)
    classical.set_param("pawn_value_eg", 400)
    assert engine.evaluate(pawns_up) == before
    assert classical.evaluate(pawns_up) != camelpy.Engine(eval="classical").evaluate(pawns_up)
    engine.eval_file = None
    assert engine.eval == "classical" and engine.evaluate(pawns_up) == classical.evaluate(pawns_up)
    for kwargs, why in [
        ({"eval": "neural"}, "eval must be one of 'nnue', 'classical', not 'neural'"),
        ({"eval": "classical", "eval_file": "net.nnue"}, "eval='classical' evaluates without a network"),
        ({"eval": "nnue", "eval_file": None}, "eval='nnue' needs a network file"),
    ]:
        with pytest.raises(ValueError, match=why):
            camelpy.Engine(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="eval must be one of"):
        camelpy.bench(2, eval="x")


def test_board_with_move_stack_and_info_callback() -> None:
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6"]:
        board.push_uci(uci)
    seen: list[chess.engine.InfoDict] = []
    engine = camelpy.Engine(hash_mb=8)
    result = engine.search(board, depth=6, info=seen.append)
    assert result.best_move is not None and result.best_move in board.legal_moves
    assert [info["depth"] for info in seen] == list(range(1, 7))
    for info in seen:
        assert isinstance(info["score"], chess.engine.PovScore)
        replay = board.copy()
        for move in info["pv"]:
            assert move in replay.legal_moves
            replay.push(move)
    assert board.move_stack[-1] == chess.Move.from_uci("b8c6"), "the caller's board is untouched"


def test_stop_from_another_thread() -> None:
    engine = camelpy.Engine()
    threading.Timer(0.2, engine.stop).start()
    start = time.perf_counter()
    result = engine.search(chess.Board())  # no limit: runs until stopped
    assert time.perf_counter() - start < 5
    assert result.best_move is not None and result.best_move in chess.Board().legal_moves


def test_limits_and_root_moves() -> None:
    engine = camelpy.Engine()
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    assert engine.search(chess.Board(), depth=4, moves=only).best_move in only
    result = engine.search(chess.Board(), nodes=5000)
    assert result.nodes <= 6000
    result = engine.search(chess.Board(), ms=100)
    assert result.time < 2


def test_no_legal_move_and_bad_input() -> None:
    mated = camelpy.search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert mated.best_move is None and mated.score.relative == chess.engine.Mate(0)
    stalemate = camelpy.search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert stalemate.best_move is None and stalemate.score.relative == chess.engine.Cp(0)
    with pytest.raises(camelpy.InvalidFenError):
        camelpy.search("8/8/8 w - - 0 1", depth=2)
    with pytest.raises(ValueError):
        camelpy.search(chess.Board(), depth=0)
    with pytest.raises(ValueError):
        camelpy.Engine(hash_mb=0)


def test_evaluate_and_trace() -> None:
    engine = camelpy.Engine()
    start = engine.evaluate(chess.Board())
    assert start == engine.evaluate(chess.Board().mirror()), "symmetric: only the tempo remains"
    assert engine.evaluate("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 500
    assert "Material" in engine.eval_trace(chess.Board())


def test_new_game_and_clear_hash_keep_working() -> None:
    engine = camelpy.Engine()
    first = engine.search(chess.Board(), depth=5)
    engine.new_game()
    engine.clear_hash()
    again = engine.search(chess.Board(), depth=5)
    assert (first.best_move, first.nodes) == (again.best_move, again.nodes), "same search after a reset"


@pytest.mark.parametrize(
    ("fen", "mate", "depth"),
    [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, 4),
        ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2, 6),  # WAC.001
        ("r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1", 3, 8),  # WAC.057
        ("8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1", 3, 8),  # WAC.064
    ],
)
def test_mates_found_at_their_distance(fen: str, mate: int, depth: int) -> None:
    # Distances confirmed by Stockfish 15.1 (depth 14): the shortest mate, not just some mate.
    result = camelpy.Engine().search(fen, depth=depth)
    assert result.score.relative == chess.engine.Mate(mate)
    board = chess.Board(fen)
    for move in result.pv:
        board.push(move)
    assert board.is_checkmate() and len(result.pv) == 2 * mate - 1


def test_search_never_returns_an_illegal_move() -> None:
    rng = random.Random(20261122)
    engine = camelpy.Engine(hash_mb=4)
    checked = 0
    for _ in range(12):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 160:
            if rng.random() < 0.08:
                result = engine.search(board, nodes=rng.choice([50, 500, 3000]))
                assert result.best_move is not None and result.best_move in board.legal_moves, board.fen()
                checked += 1
            board.push(rng.choice(list(board.legal_moves)))
    assert checked > 50


def test_fifty_move_rule_and_repetition_are_draws() -> None:
    # Rook up, but the clock says the next quiet move ends the game (and no mate in one exists).
    fresh = camelpy.search("8/8/8/4k3/8/8/8/KR6 w - - 0 1", depth=6)
    ending = camelpy.search("8/8/8/4k3/8/8/8/KR6 w - - 99 150", depth=6)
    assert fresh.score.relative > chess.engine.Cp(400)
    assert ending.score.relative == chess.engine.Cp(0)
    # A queen down, Black can step back into the game's first position: a draw, seen only because the
    # board is searched with its move stack.
    board = chess.Board("6k1/8/8/8/8/8/3Q4/2K5 w - - 0 1")
    for uci in ["d2d3", "g8h8", "d3d2"]:
        board.push_uci(uci)
    with_history = camelpy.Engine().search(board, depth=5)
    without = camelpy.Engine().search(board.fen(), depth=5)
    assert with_history.best_move == chess.Move.from_uci("h8g8")
    assert with_history.score.relative == chess.engine.Cp(0)
    assert without.score.relative < chess.engine.Cp(-500)


def test_fixed_depth_is_deterministic_across_engines_and_new_game() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    engine = camelpy.Engine()
    first = engine.search(fen, depth=7)
    engine.new_game()
    again = engine.search(fen, depth=7)
    other = camelpy.Engine().search(fen, depth=7)
    assert (first.best_move, first.nodes, first.pv) == (again.best_move, again.nodes, again.pv)
    assert (first.best_move, first.nodes, first.pv) == (other.best_move, other.nodes, other.pv)


def test_search_tunables_are_settings_that_change_the_search() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    engine = camelpy.Engine()
    defaults = engine.search_params()
    assert (defaults["rfp_margin"], defaults["lmr_base"], defaults["lmr_divisor"]) == (75, 75, 225)

    def nodes() -> int:
        engine.new_game()
        return engine.search(fen, depth=7).nodes

    before = nodes()
    for name, value in (("rfp_margin", 150), ("lmr_base", 100), ("nmp_depth_divisor", 2)):
        engine.set_search_param(name, value)
        assert engine.search_params()[name] == value
        assert nodes() != before, name
        engine.set_search_param(name, defaults[name])
        assert nodes() == before, name
    with pytest.raises(ValueError, match="lmr_divisor"):
        engine.set_search_param("lmr_divisor", 0)


def test_multipv_lines_distinct_and_ordered() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = camelpy.Engine().search(board, depth=7, multipv=4)
    assert [line["multipv"] for line in result.lines] == [1, 2, 3, 4]
    firsts = [line["pv"][0] for line in result.lines]
    assert len(set(firsts)) == 4 and all(m in board.legal_moves for m in firsts)
    scores = [line["score"].relative for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    assert result.best_move == firsts[0] and result.score == result.lines[0]["score"]
    assert len(camelpy.search("7k/8/8/8/8/8/8/K7 b - - 0 1", depth=3, multipv=10).lines) == 3


def test_python_chess_play_and_analyse_in_process() -> None:
    engine = camelpy.Engine()
    board = chess.Board()
    played = engine.play(board, chess.engine.Limit(time=0.05))
    assert (
        isinstance(played, chess.engine.PlayResult)
        and played.move is not None
        and played.move in board.legal_moves
    )
    assert played.info["depth"] >= 1
    clocked = engine.play(board, chess.engine.Limit(white_clock=1.0, black_clock=1.0, white_inc=0.01))
    assert clocked.move is not None and clocked.move in board.legal_moves and clocked.info["time"] < 0.5
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    assert isinstance(info, dict) and info["pv"][0] in board.legal_moves
    lines = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
    assert isinstance(lines, list) and [i["multipv"] for i in lines] == [1, 2, 3]
    only = [chess.Move.from_uci("a2a3")]
    assert engine.play(board, chess.engine.Limit(depth=3), root_moves=only).move == only[0]
    # No legal move: python-chess's SimpleEngine returns PlayResult(move=None) for the engine's
    # "bestmove (none)", with the depth-0 score the engine sent (Stockfish: mate 0 / cp 0).
    mated = engine.play(chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), chess.engine.Limit(depth=2))
    assert (mated.move, mated.ponder, mated.draw_offered, mated.resigned) == (None, None, False, False)
    assert mated.info["depth"] == 0 and mated.info["score"] == chess.engine.PovScore(
        chess.engine.Mate(-0), chess.BLACK
    )
    stalemate = engine.play(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), chess.engine.Limit(time=0.1))
    assert stalemate.move is None and stalemate.info["score"] == chess.engine.PovScore(
        chess.engine.Cp(0), chess.BLACK
    )
    with pytest.raises(TypeError):
        engine.play(board, 1.0)  # type: ignore[arg-type]


def test_engine_settings_and_bench() -> None:
    engine = camelpy.Engine(hash_mb=8, threads=1)
    assert repr(engine) == "Engine(hash_mb=8, threads=1)"
    engine.hash_mb = 2
    engine.threads = 2
    assert (engine.hash_mb, engine.threads) == (2, 2)
    with pytest.raises(ValueError, match="threads"):
        engine.threads = 0
    nodes, ms = camelpy.bench(3)
    assert nodes == camelpy.bench(3)[0] > 0 and ms >= 0

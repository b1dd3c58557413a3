"""Playing at a chosen strength (``UCI_LimitStrength``/``UCI_Elo``, ``Engine(elo=...)``, camelpy.strength):
the options are listed and checked, the choice is reproducible and weakens with the Elo, mates are taken."""

from __future__ import annotations

import sys
import time

import camelpy
import chess
import chess.engine
import pytest
from camelpy import strength
from camelpy.strength import ELO_MAX, ELO_MIN, Candidate, EloLevel, choose

from tests.conftest import DATA_DIR
from tests.test_uci import InProcess

LOSS_POSITIONS = 30
"""Positions of tests/data/balanced.epd (the first ones) over which the average loss is measured."""

LOSS_LEVELS = (1350, 2000, 2400)
"""The levels whose average loss must fall in this order (900, 38,443 and 1,043,032 nodes a move): 650 and 400
Elo apart (five and four node doublings), as the measure's noise over 30 positions (about ±6 cp between
seeds) hides smaller steps."""

REFERENCE_DEPTH = 10
"""Depth of the full-strength search that scores the best move and each played move."""

MATE_IN_ONE = (
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",  # Rd8#
    "r1bqkbnr/p1pp1ppp/1pn5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 4",  # Qxf7#
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",  # Rh8#
    "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",  # ... Rd1#
)


def _positions() -> list[chess.Board]:
    lines = (DATA_DIR / "balanced.epd").read_text().splitlines()[:LOSS_POSITIONS]
    return [chess.Board(line.split(";")[0].split(" id ")[0].strip()) for line in lines]


def test_the_levels_follow_the_model() -> None:
    low, high = EloLevel.from_elo(ELO_MIN), EloLevel.from_elo(ELO_MAX)
    assert (low.nodes, low.temperature, low.max_loss) == (
        strength.NODES_AT_ELO_MIN,
        strength.TEMPERATURE_AT_ELO_MIN,
        strength.MAX_LOSS_AT_ELO_MIN,
    )
    bend = EloLevel.from_elo(strength.ELO_BEND)
    assert bend.nodes == round(
        strength.NODES_AT_ELO_MIN * 2 ** ((strength.ELO_BEND - ELO_MIN) / strength.ELO_PER_DOUBLING)
    )
    doublings = (ELO_MAX - strength.ELO_BEND) / strength.ELO_PER_DOUBLING_ABOVE_BEND
    assert high.nodes == round(
        strength.NODES_AT_ELO_MIN
        * 2 ** ((strength.ELO_BEND - ELO_MIN) / strength.ELO_PER_DOUBLING)
        * 2**doublings
    )
    assert (high.temperature, high.max_loss) == (
        strength.TEMPERATURE_AT_ELO_MAX,
        strength.MAX_LOSS_AT_ELO_MAX,
    )
    levels = [EloLevel.from_elo(elo) for elo in range(ELO_MIN, ELO_MAX + 1, 50)]
    for weaker, stronger in zip(levels, levels[1:]):
        assert weaker.nodes < stronger.nodes
        assert weaker.temperature > stronger.temperature and weaker.max_loss >= stronger.max_loss
    assert eval(repr(levels[7])) == levels[7]  # noqa: S307 - the repr rebuilds the level
    for bad in (ELO_MIN - 1, ELO_MAX + 1):
        with pytest.raises(ValueError, match=f"elo must be an integer from 1350 to 2850, got {bad}"):
            EloLevel.from_elo(bad)
    with pytest.raises(TypeError, match="elo must be an integer, not str"):
        EloLevel.from_elo("1500")  # type: ignore[arg-type]


def test_the_choice_never_loses_more_than_the_level_allows() -> None:
    level = EloLevel.from_elo(ELO_MIN)
    lines = [
        Candidate("e2e4", cp=40),
        Candidate("d2d4", cp=10),
        Candidate("b1a3", cp=40 - level.max_loss - 1),
    ]
    draws = [i / 1000 for i in range(1000)]
    played = [choose(level, lines, u) for u in draws]
    assert set(played) == {"e2e4", "d2d4"}  # b1a3 loses one centipawn too many
    # The weights: exp(-loss / T), the best played most often.
    share = played.count("d2d4") / len(played)
    expected = 1 / (1 + 2.718281828 ** (30 / level.temperature))
    assert abs(share - expected) < 0.01
    # Near full strength the 30 cp worse move is out of the window.
    assert {choose(EloLevel.from_elo(ELO_MAX), lines, u) for u in draws} == {"e2e4"}


def test_mates_are_taken_and_seen_mates_avoided() -> None:
    level = EloLevel.from_elo(ELO_MIN)
    for u in (0.0, 0.5, 0.999):
        mates = [Candidate("a1a2", cp=900), Candidate("h1h8", mate=3), Candidate("g1g8", mate=1)]
        assert choose(level, mates, u) == "g1g8"  # the shortest
        # A move into a mate is never chosen while another move avoids it.
        assert choose(level, [Candidate("a1a2", cp=-150), Candidate("b1b2", mate=-2)], u) == "a1a2"
        # All lose: the longest defence (the search's best line).
        assert choose(level, [Candidate("a1a2", mate=-5), Candidate("b1b2", mate=-2)], u) == "a1a2"
    assert choose(level, [], 0.5) is None


def test_engine_elo_and_its_errors() -> None:
    engine = camelpy.Engine(elo=1600, elo_seed=7)
    assert (engine.elo, engine.elo_seed, engine.level) == (1600, 7, EloLevel.from_elo(1600))
    assert repr(engine) == "Engine(hash_mb=16, threads=1, elo=1600, elo_seed=7)"
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit())
    assert result.move is not None and result.move in board.legal_moves
    assert engine.level is not None
    assert result.info["pv"][0] == result.move and result.info["nodes"] <= 2 * engine.level.nodes
    engine.elo = None
    assert engine.level is None and repr(engine) == "Engine(hash_mb=16, threads=1, elo_seed=7)"
    with pytest.raises(ValueError, match="got 3000"):
        camelpy.Engine(elo=3000)
    with pytest.raises(ValueError, match="elo_seed must be an integer from 0 to 2147483647, got -1"):
        camelpy.Engine(elo=1600, elo_seed=-1)
    # The caller's limit still applies below the level's.
    small = camelpy.Engine(elo=ELO_MAX).play(board, chess.engine.Limit(nodes=300))
    assert small.info["nodes"] <= 600


def test_the_choice_is_reproducible_with_the_seed_and_varies_with_it() -> None:
    boards = _positions()[:12]

    def games(seed: int) -> list[chess.Move | None]:
        engine = camelpy.Engine(elo=ELO_MIN, elo_seed=seed)
        moves = []
        for board in boards:
            engine.new_game()
            moves.append(engine.play(board, chess.engine.Limit()).move)
        return moves

    first = games(0)
    assert games(0) == first
    assert any(games(seed) != first for seed in (1, 2, 3))
    # Each new game draws anew: the same positions in later games of one engine are played differently.
    engine = camelpy.Engine(elo=ELO_MIN)
    later = []
    for board in boards * 2:
        engine.new_game()
        later.append(engine.play(board, chess.engine.Limit()).move)
    assert later[: len(boards)] == first and later[len(boards) :] != first
    # The level really chooses: not always the full search's best move of the same limited search.
    full = camelpy.Engine()
    best = []
    for board in boards:
        full.new_game()
        best.append(
            full.search(board, nodes=EloLevel.from_elo(ELO_MIN).nodes, multipv=strength.CANDIDATES).best_move
        )
    assert first != best


def test_the_average_loss_falls_as_the_elo_rises() -> None:
    # Deterministic (one thread, node limits, fresh tables per position, seed 0): the figures below are
    # what this measures, printed with -s.
    boards = _positions()
    reference = camelpy.Engine()
    scores: dict[tuple[str, str | None], int] = {}

    def score(board: chess.Board, move: chess.Move | None = None) -> int:
        key = (board.fen(), None if move is None else move.uci())
        if key not in scores:
            reference.new_game()
            found = reference.search(board, depth=REFERENCE_DEPTH, moves=None if move is None else [move])
            scores[key] = found.score.relative.score(mate_score=1000)
        return scores[key]

    averages = []
    for elo in LOSS_LEVELS:
        engine = camelpy.Engine(elo=elo)
        losses = []
        for board in boards:
            engine.new_game()
            move = engine.play(board, chess.engine.Limit()).move
            assert move is not None
            losses.append(max(0, score(board) - score(board, move)))
        averages.append(sum(losses) / len(losses))
    print("average loss (cp) at", dict(zip(LOSS_LEVELS, averages)), file=sys.stderr)
    assert averages == sorted(averages, reverse=True) and len(set(averages)) == len(averages), averages


@pytest.mark.parametrize("elo", range(ELO_MIN, ELO_MAX + 1, 250))
def test_a_mate_in_one_is_always_played(elo: int) -> None:
    engine = camelpy.Engine(elo=elo)
    for fen in MATE_IN_ONE:
        board = chess.Board(fen)
        for seed in range(2):
            engine.elo_seed = seed
            engine.new_game()
            move = engine.play(board, chess.engine.Limit()).move
            assert move is not None
            board.push(move)
            assert board.is_checkmate(), (elo, seed, fen, move)
            board.pop()


# The UCI options ---------------------------------------------------------------------------------------


def test_the_options_are_listed_and_checked() -> None:
    session = InProcess()
    options = session.run("uci")
    assert "option name UCI_LimitStrength type check default false" in options
    assert f"option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}" in options
    assert "option name Strength Seed type spin default 0 min 0 max 2147483647" in options
    bad = session.run(
        "setoption name UCI_Elo value 1349",
        "setoption name UCI_Elo value 2851",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_LimitStrength value yes",
        "setoption name Strength Seed value -1",
    )
    assert bad == [
        "info string option 'UCI_Elo' takes an integer from 1350 to 2850, got '1349'",
        "info string option 'UCI_Elo' takes an integer from 1350 to 2850, got '2851'",
        "info string option 'UCI_Elo' takes an integer from 1350 to 2850, got 'strong'",
        "info string option 'UCI_LimitStrength' takes true or false, got 'yes'",
        "info string option 'Strength Seed' takes an integer from 0 to 2147483647, got '-1'",
    ]
    assert session.engine._options["UCI_Elo"] == ELO_MIN and not session.engine._options["UCI_LimitStrength"]
    said = session.run("setoption name UCI_LimitStrength value true", "setoption name uci_elo value 2100")
    assert said[-1] == (
        "info string UCI_Elo 2100: at most 87739 nodes a move, then one of the 4 best lines within 45 cp of"
        " the best, weighted exp(-loss/15.5 cp)"
    )
    assert session.run("isready") == ["readyok"]


def _bestmoves(seed: int, positions: list[chess.Board]) -> list[str]:
    """The moves of a fresh engine at ELO_MIN, a ``ucinewgame`` before each position."""
    session = InProcess()
    session.run("setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {ELO_MIN}")
    session.run(f"setoption name Strength Seed value {seed}")
    moves = []
    for board in positions:
        out = session.run("ucinewgame", f"position fen {board.fen()}", "go wtime 60000 btime 60000")
        moves.append(out[-1].split()[1])
    return moves


def test_uci_plays_the_levels_choice_reproducibly() -> None:
    boards = _positions()[:10]
    first = _bestmoves(0, boards)
    assert _bestmoves(0, boards) == first
    assert any(_bestmoves(seed, boards) != first for seed in (1, 2, 3))
    session = InProcess()
    session.run("setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {ELO_MIN}")
    # The played move's line is the last info line, so a GUI shows its score.
    out = session.run(f"position fen {boards[0].fen()}", "go wtime 60000 btime 60000")
    assert out[-2].startswith("info depth ") and f" pv {out[-1].split()[1]}" in out[-2]
    # The same as Engine(elo=...) plays: one model, one draw.
    engine = camelpy.Engine(elo=ELO_MIN)
    for board, move in zip(boards, first):
        engine.new_game()
        assert engine.play(board, chess.engine.Limit()).move == chess.Move.from_uci(move)
    # The level's nodes bound the search however long the clock.
    out = session.run("ucinewgame", "position startpos", "go wtime 600000 btime 600000")
    nodes = [int(line.split(" nodes ")[1].split()[0]) for line in out if " nodes " in line]
    assert max(nodes) <= 2 * EloLevel.from_elo(ELO_MIN).nodes
    # go infinite (analysis) is at full strength.
    start = len(session.out)
    session.engine.handle("go infinite")
    time.sleep(0.3)
    session.run("stop")
    out = session.out[start:]
    nodes = [int(line.split(" nodes ")[1].split()[0]) for line in out if " nodes " in line]
    assert out[-1].startswith("bestmove ") and max(nodes) > 2 * EloLevel.from_elo(ELO_MIN).nodes
    # A mate in one at the lowest level.
    out = session.run(f"position fen {MATE_IN_ONE[1]}", "go wtime 60000 btime 60000")
    assert out[-1].split()[1] == "f3f7"


def test_python_chess_configures_the_strength() -> None:
    command = [sys.executable, "-m", "camelpy"]
    with chess.engine.SimpleEngine.popen_uci(command, timeout=10) as uci:
        assert uci.options["UCI_Elo"].min == ELO_MIN and uci.options["UCI_Elo"].max == ELO_MAX
        assert uci.options["UCI_LimitStrength"].default is False
        uci.configure({"UCI_LimitStrength": True, "UCI_Elo": 1600})
        board = chess.Board()
        for _ in range(6):
            result = uci.play(board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL)
            assert result.move is not None and result.move in board.legal_moves
            assert result.info["pv"][0] == result.move  # the info is the played move's line
            assert result.info.get("nodes", 0) <= 2 * EloLevel.from_elo(1600).nodes
            board.push(result.move)
        mate = chess.Board(MATE_IN_ONE[1])
        assert uci.play(mate, chess.engine.Limit(time=1.0)).move == chess.Move.from_uci("f3f7")
        with pytest.raises(chess.engine.EngineError):
            uci.configure({"UCI_Elo": 1000})  # python-chess checks the listed range itself

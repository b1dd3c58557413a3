"""The games the GUI plays, behind one interface: chess (python-chess's ``chess.Board``, Chess960
included), MiniChess (6 rows × 5 columns, :class:`camelpy.minichess.Board`) and Leiserchess under its
2016 and 2018 rules (:class:`camelpy.leiserchess.Board`). A :class:`Variant` turns a board and its
moves into what the page shows: square names (files ``a…``, ranks from White's side, so MiniChess's
row 5 is rank 1; Leiserchess's own ``a0`` … ``h7``), moves as from-square and to-square (``b1c3``;
Leiserchess: the course's notation, ``b3R`` a rotation), SAN, the board view (Leiserchess: with the
last move's laser), the end of the game and the record of the game. It also carries the game's
engine: how one is made, how it plays a move under the game's clock rules (:meth:`Variant.play`),
how it analyses (:meth:`Variant.analyse`), its reports as the page shows them
(:meth:`Variant.info_view`) and its evaluation's terms (:meth:`Variant.trace`). The server names no
game: this module is the one place that does.

>>> from camelpy import minichess
>>> board = MINICHESS.new_board(None)
>>> move = MINICHESS.parse(board, "b1c3")
>>> move, MINICHESS.san(board, move)
(Move(5, 1, 3, 2), 'Nc3')
>>> sorted(MINICHESS.view(board)["legal"])[:3]
['a2', 'b1', 'b2']
>>> MINICHESS.about()["multipv"], MINICHESS.about()["chess960"], type(MINICHESS.engine(1)).__name__
(1, False, 'Searcher')
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Callable, cast

import chess
import chess.engine
import chess.pgn

import camelpy
from camelpy import leiserchess, minichess
from camelpy._args import shown
from camelpy._quote import quote
from camelpy.arena import leiserchess as leiser_arena
from camelpy.arena.referee import GameRecord
from camelpy.errors import IllegalMoveError, InvalidMoveError
from camelpy.gui.boards import board_view, parse_move, score_view
from camelpy.gui.messages import InfoView, ScoreView, VariantAbout
from camelpy.protocols.leiserchess import MIN_DEPTH, time_for_move
from camelpy.types import board_root

__all__ = [
    "CHESS",
    "CHESS_LEVELS",
    "LEVEL_NAMES",
    "NODE_LEVELS",
    "LEISERCHESS",
    "LEISERCHESS_2018",
    "LEISER_ANALYSIS_S",
    "MINICHESS",
    "VARIANTS",
    "Halted",
    "Level",
    "game_variant",
    "log_variant",
    "Played",
    "Report",
    "Variant",
]

Level = tuple[str, int]
"""A named level's limit and value: ``("elo", 1600)`` (the engine's ``UCI_Elo``, chess only),
``("nodes", 1000)`` or ``("ms", 3000)``."""

FULL_STRENGTH_MS = 3_000
"""The ``full`` level's time a move: full strength that still answers within a person's patience."""

CHESS_LEVELS: dict[str, Level] = {
    "beginner": ("elo", 1350),
    "club": ("elo", 1600),
    "advanced": ("elo", 1800),
    "expert": ("elo", 2000),
    "full": ("ms", FULL_STRENGTH_MS),
}
"""Chess's named levels: ``UCI_Elo`` settings (:mod:`camelpy.strength`) on Stockfish 15.1's scale, where
1600, 1800 and 2000 are calibrated by games (the UCI page of the documentation, "Calibration") and
``beginner`` is the bottom of the range, the fitted curve extended below the measured points."""

NODE_LEVELS: dict[str, Level] = {
    "beginner": ("nodes", 100),
    "casual": ("nodes", 1_000),
    "club": ("nodes", 10_000),
    "strong": ("nodes", 200_000),
    "full": ("ms", FULL_STRENGTH_MS),
}
"""MiniChess's and Leiserchess's named levels, node limits with no rating behind them (there is no
reference player to rate them against): 100 nodes sees a ply or two, 10,000 plays soundly."""

MATE_CP = 100_000
"""The engine's score for a won (lost) game, in centipawns, for draw offers."""

MINI_INC_SHARE = 0.8
"""The share of the increment MiniChess's engine spends on top of its even share of the clock."""

MINI_MAX_SHARE = 0.5
"""The most of its clock MiniChess's engine spends on one move."""

_FILES = "abcdefgh"

LEISER_ANALYSIS_S = 600.0
"""The longest a Leiserchess analysis runs (ten minutes): its game need not end, so its search would
otherwise go on until stopped; a forgotten tab's analysis ends by itself."""

_LEISER_SQUARES = [f"{file}{rank}" for rank in range(8) for file in _FILES]

_LEISER_TERMINATIONS = {
    leiserchess.Termination.KING_HIT: "a king is hit by the laser",
    leiserchess.Termination.REPETITION: "the position stands for the third time",
    leiserchess.Termination.QUIET_MOVES: "50 moves each without a zap",
    leiserchess.Termination.NO_MOVES: "no move left",
}

_MINI_TERMINATIONS = {
    minichess.Termination.KING_CAPTURED: "king captured",
    minichess.Termination.MATERIAL_COUNT: f"material count after {minichess.MAX_PLIES} plies",
    minichess.Termination.NO_MOVES: "no move left",
}


Report = Callable[[InfoView], None]
"""Where a search's reports go, as the page shows them (called from the search's thread)."""


class Halted(Exception):
    """Raised in a search's report to stop a search whose engine has no ``stop`` (MiniChess's)."""


@dataclasses.dataclass(frozen=True)
class Played:
    """The engine's move in a game: from-square and to-square, the PGN comment, its score (centipawns
    from its side, :data:`MATE_CP` for a mate)."""

    uci: str
    comment: str | None
    cp: int | None


class Variant:
    """One game's rules and engine as the GUI needs them."""

    name = ""
    """``chess`` or ``minichess``."""
    title = ""
    """For people and the record's ``Variant`` header."""
    files = 8
    """Columns."""
    ranks = 8
    """Rows."""
    max_multipv = 1
    """The most analysis lines its search gives at once."""
    chess960 = False
    """Whether a game may start from a Chess960 position."""
    fen_hint = "FEN"
    """What a position's text looks like, for the page's boxes."""
    sides = ("White", "Black")
    """The sides' names, the first player's first."""
    reads_pgn = False
    """Whether a pasted text may be a PGN (else it is the game's one-line position)."""
    engine_type: type[Any] = object
    """The game's engine (:meth:`engine` makes one)."""
    levels: dict[str, Level] = NODE_LEVELS
    """The named levels a game against its engine offers (the first name is the weakest)."""

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> Any:
        """The start position: *fen* or the standard one (chess: or Chess960 start *chess960_pos*).

        :raises: :exc:`ValueError` quoting a FEN that cannot be played from.
        """
        raise NotImplementedError

    def parse(self, board: Any, uci: str) -> Any:
        """*uci* (from-square and to-square) as a legal move on *board*.

        :raises: :exc:`camelpy.IllegalMoveError`, :exc:`camelpy.InvalidMoveError` quoting it.
        """
        raise NotImplementedError

    def uci(self, board: Any, move: Any) -> str:
        """*move* as from-square and to-square (chess: UCI as *board* writes it)."""
        raise NotImplementedError

    def san(self, board: Any, move: Any) -> str:
        """*move* (legal on *board*, before it is played) in SAN."""
        raise NotImplementedError

    def view(self, board: Any) -> dict[str, Any]:
        """The board as the page draws it (see :func:`camelpy.gui.boards.board_view`)."""
        raise NotImplementedError

    def outcome(self, board: Any) -> tuple[str, str] | None:
        """The result and a sentence, once the game is over."""
        raise NotImplementedError

    def fen(self, board: Any) -> str:
        """The position as text."""
        raise NotImplementedError

    def record(self, board: Any, headers: dict[str, str], comments: list[str | None]) -> str:
        """The game as PGN, *comments* after the moves."""
        raise NotImplementedError

    def line_board(self, fen: str, chess960: bool) -> Any:
        """The analysis board's start: *fen*, taken as it is (chess: Chess960 castling when *chess960*)."""
        return self.new_board(fen)

    def about(self) -> VariantAbout:
        """What the page needs to offer the game (the ``hello`` message's ``variants``)."""
        return {
            "title": self.title,
            "multipv": self.max_multipv,
            "chess960": self.chess960,
            "fen_hint": self.fen_hint,
            "sides": list(self.sides),
            "levels": {name: list(level) for name, level in self.levels.items()},
        }

    def engine(self, hash_mb: int) -> Any:
        """A new engine for the game's moves and analyses, with *hash_mb* of hash table. Forget what it
        learnt with its ``new_game`` (or ``clear``); stop it with its ``stop`` if it has one, else with
        :exc:`Halted` raised in its reports."""
        return self.engine_type(hash_mb=hash_mb)

    def set_elo(self, engine: Any, elo: int | None) -> None:
        """Makes *engine* play its next moves at ``UCI_Elo`` *elo* (``None``: at full strength within
        the limit); only chess's engine has Elo levels (:data:`CHESS_LEVELS`).

        :raises: :exc:`ValueError` for an Elo in a game without Elo levels.
        """
        if elo is not None:
            raise ValueError(f"{self.name} has no Elo levels, got {elo!r}")

    def play(
        self,
        engine: Any,
        board: Any,
        limit: chess.engine.Limit,
        report: Report,
        cancel: threading.Event,
    ) -> Played | None:
        """The engine's move on *board* (a copy of its own) within *limit*, clocks included: the game's
        clock rules say what share of its time it spends. Its reports go to *report*; it stops early
        once *cancel* is set. ``None`` when it found no move. Runs in the search's thread."""
        raise NotImplementedError

    def analyse(self, engine: Any, board: Any, multipv: int, report: Report, cancel: threading.Event) -> None:
        """Analyses *board* until stopped (or *cancel* is set), *multipv* lines at most (:attr:`max_multipv`),
        each report to *report*. Runs in the search's thread."""
        raise NotImplementedError

    def info_view(self, board: Any, info: Any) -> InfoView | None:
        """One of the engine's reports on *board* as the page shows it (``None`` for one without a
        line): scores from White's side, the PV in UCI and SAN."""
        raise NotImplementedError

    def log_record(self, data: object) -> GameRecord | None:
        """A line of a match's ``games.jsonl`` (read as JSON) as the game's record, ``None`` when it is
        not one (chess: :meth:`camelpy.arena.referee.GameRecord.from_json`)."""
        try:
            return GameRecord.from_json(data)  # type: ignore[arg-type]  # checked there
        except (ValueError, TypeError):
            return None

    def tracer(self) -> Any:
        """What :meth:`trace` needs, made once per server (chess: an engine that never searches)."""
        return None

    def trace(self, board: Any, tracer: Any) -> str:
        """The evaluation's terms on *board* as a table of text, with *tracer* from :meth:`tracer`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name.upper()


class _Chess(Variant):
    name, title, files, ranks = "chess", "Standard", 8, 8
    max_multipv, chess960, reads_pgn = camelpy.MAX_MULTIPV, True, True
    engine_type = camelpy.Engine
    levels = CHESS_LEVELS

    def set_elo(self, engine: camelpy.Engine, elo: int | None) -> None:
        engine.elo = elo

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> chess.Board:
        if chess960_pos is not None:
            if fen is not None:
                raise ValueError("give a FEN or a Chess960 position number, not both")
            return chess.Board.from_chess960_pos(chess960_pos)
        if fen is None:
            return chess.Board()
        board = board_root(fen.strip()).board()
        board = chess.Board(board.fen(), chess960=board.has_chess960_castling_rights())
        status = board.status()
        if status != chess.STATUS_VALID:
            flags = [(f.name or "").lower().replace("_", " ") for f in chess.Status if f and f in status]
            raise ValueError(f"cannot play from {quote(fen)}: {', '.join(flags) or 'not a legal position'}")
        return board

    def parse(self, board: chess.Board, uci: str) -> chess.Move:
        return parse_move(board, uci)

    def uci(self, board: chess.Board, move: chess.Move) -> str:
        return board.uci(move)

    def san(self, board: chess.Board, move: chess.Move) -> str:
        return board.san(move)

    def view(self, board: chess.Board) -> dict[str, Any]:
        return board_view(board)

    def outcome(self, board: chess.Board) -> tuple[str, str] | None:
        found = board.outcome(claim_draw=True)  # draws are claimed at once
        return None if found is None else (found.result(), str(board_view(board)["outcome"]))

    def fen(self, board: chess.Board) -> str:
        return board.fen(shredder=board.chess960)

    def record(self, board: chess.Board, headers: dict[str, str], comments: list[str | None]) -> str:
        game = chess.pgn.Game.from_board(board)
        game.headers.update(headers)
        if board.chess960:
            game.headers["Variant"] = "Chess960"
        node: chess.pgn.GameNode = game
        for comment in comments:
            node = node.variations[0]
            if comment:
                node.comment = comment
        return str(game)

    def line_board(self, fen: str, chess960: bool) -> chess.Board:
        board = board_root(fen, chess960).board()
        board.chess960 = chess960
        return board

    def play(
        self,
        engine: camelpy.Engine,
        board: chess.Board,
        limit: chess.engine.Limit,
        report: Report,
        cancel: threading.Event,
    ) -> Played | None:
        # The engine keeps its own clock rules (camelpy.timeman): it gets the clocks as they are.
        result = engine.play(board, limit, info=lambda info: self._report(board, info, report))
        if result.move is None:
            return None
        score = result.info.get("score")
        if score is None:
            return Played(result.move.uci(), None, None)
        comment = f"{score_view(score)['text']}/{result.info.get('depth', 0)}"
        return Played(result.move.uci(), comment, score.relative.score(mate_score=MATE_CP))

    def analyse(
        self,
        engine: camelpy.Engine,
        board: chess.Board,
        multipv: int,
        report: Report,
        cancel: threading.Event,
    ) -> None:
        multipv = min(multipv, board.legal_moves.count())
        engine.search(board, multipv=multipv, info=lambda info: self._report(board, info, report))

    def _report(self, board: chess.Board, info: chess.engine.InfoDict, report: Report) -> None:
        view = self.info_view(board, info)
        if view is not None:
            report(view)

    def info_view(self, board: chess.Board, info: chess.engine.InfoDict) -> InfoView | None:
        pv = info.get("pv")
        score = info.get("score")
        if not pv or score is None:
            return None
        sans = []
        replay_board = board.copy(stack=False)
        for move in pv:
            if not replay_board.is_legal(move):
                break
            sans.append(replay_board.san(move))
            replay_board.push(move)
        return {
            "multipv": info.get("multipv", 1),
            "depth": info.get("depth"),
            "score": cast(ScoreView, score_view(score)),
            "pv": [m.uci() for m in pv[: len(sans)]],
            "sans": sans,
            "nodes": info.get("nodes"),
            "nps": info.get("nps"),
            "time": info.get("time"),
        }

    def tracer(self) -> camelpy.Engine:
        return camelpy.Engine(hash_mb=1)

    def trace(self, board: chess.Board, tracer: camelpy.Engine) -> str:
        return tracer.eval_trace(board)


class _SmallGame(Variant):
    """A small game's engine as the GUI drives it (a :class:`camelpy.games.Searcher`: MiniChess's,
    Leiserchess's): its move under the game's clock rule (:meth:`move_seconds`), its one-line analysis,
    its reports."""

    analysis_seconds: float | None = None
    """How long an analysis may run at most (``None``: until the game's end bounds it)."""
    terminations: dict[Any, str] = {}
    """Each of the game's terminations in words (the status line's reason)."""

    def outcome(self, board: Any) -> tuple[str, str] | None:
        ended = board.outcome()
        if ended is None:
            return None
        how = self.terminations[ended.termination]
        if ended.winner is None:
            return ended.result(), f"Draw: {how}"
        return ended.result(), f"{self.sides[0 if ended.winner else 1]} wins: {how}"

    def fen(self, board: Any) -> str:
        return str(board.fen())

    def move_seconds(self, board: Any, limit: chess.engine.Limit) -> float | None:
        """The game's clock rule: its time for a move under *limit*."""
        raise NotImplementedError

    def move_limits(self, board: Any, limit: chess.engine.Limit) -> dict[str, Any]:
        """The search's time limits for a move under *limit* (its ``search``'s keywords): by default
        :meth:`move_seconds` as ``time``."""
        return {"time": self.move_seconds(board, limit)}

    def play(
        self,
        engine: Any,
        board: Any,
        limit: chess.engine.Limit,
        report: Report,
        cancel: threading.Event,
    ) -> Played | None:
        result = engine.search(
            board,
            depth=limit.depth,
            nodes=limit.nodes,
            on_iteration=self._reporter(board, report, cancel),
            **self.move_limits(board, limit),
        )
        if result.move is None:
            return None
        info = result.info
        view = self.info_view(board, info)
        cp: int | None
        if info.win_in is not None:
            cp = MATE_CP if info.win_in > 0 else -MATE_CP
        else:
            cp = info.score
        return Played(self.uci(board, result.move), f"{view['score']['text']}/{info.depth}", cp)

    def analyse(self, engine: Any, board: Any, multipv: int, report: Report, cancel: threading.Event) -> None:
        reporter = self._reporter(board, report, cancel)  # one line: no MultiPV
        engine.search(board, on_iteration=reporter, time=self.analysis_seconds)

    def _reporter(self, board: Any, report: Report, cancel: threading.Event) -> Callable[[Any], None]:
        """The search's ``on_iteration``: each report to *report*, :exc:`Halted` once *cancel* is set."""

        def on_iteration(info: Any) -> None:
            if cancel.is_set():
                raise Halted
            report(self.info_view(board, info))

        return on_iteration

    def info_view(self, board: Any, info: Any) -> InfoView:
        sign = 1 if board.turn else -1
        score: ScoreView
        if info.win_in is not None:
            mate = sign * info.win_in
            score = {"cp": None, "mate": mate, "text": f"#{mate}"}
        else:
            cp = sign * (info.score or 0)
            score = {"cp": cp, "mate": None, "text": f"{cp / 100:+.2f}"}
        replay, sans, ucis = board.copy(), [], []
        for move in info.pv:
            if not replay.is_legal(move):
                break
            sans.append(self.san(replay, move))
            ucis.append(self.uci(replay, move))
            replay.push(move)
        return {
            "multipv": 1,
            "depth": info.depth,
            "score": score,
            "pv": ucis,
            "sans": sans,
            "nodes": info.nodes,
            "nps": None,
            "time": info.time,
        }


class _MiniChess(_SmallGame):
    name, title, files, ranks = "minichess", "MiniChess 6x5", minichess.COLS, minichess.ROWS
    fen_hint = "kqbnr/ppppp/5/5/PPPPP/RNBQK w 0 (rows from the top, plies played)"
    engine_type = minichess.Searcher
    terminations = _MINI_TERMINATIONS

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> minichess.Board:
        if chess960_pos is not None:
            raise ValueError("Chess960 starts are for chess, not MiniChess")
        return minichess.Board(fen.strip()) if fen else minichess.Board()

    def square(self, row: int, col: int) -> str:
        """A square's name (row 0 is the top: rank 6)."""
        return f"{_FILES[col]}{self.ranks - row}"

    def parse(self, board: minichess.Board, uci: str) -> minichess.Move:
        names = {self.square(r, c): (r, c) for r in range(self.ranks) for c in range(self.files)}
        if len(uci) != 4 or uci[:2] not in names or uci[2:] not in names:
            raise InvalidMoveError(f"{quote(uci)} is not a move from square to square (b1c3) on this board")
        move = minichess.Move(*names[uci[:2]], *names[uci[2:]])
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {quote(uci)} in {quote(board.fen())}")
        return move

    def uci(self, board: minichess.Board, move: minichess.Move) -> str:
        return self.square(move.from_row, move.from_col) + self.square(move.to_row, move.to_col)

    def san(self, board: minichess.Board, move: minichess.Move) -> str:
        piece = board.piece_at(move.from_row, move.from_col) or "?"
        target = board.piece_at(move.to_row, move.to_col)
        to = self.square(move.to_row, move.to_col)
        if piece.upper() == "P":
            text = f"{_FILES[move.from_col]}x{to}" if target else to
            return text + ("=Q" if move.to_row in (0, self.ranks - 1) else "")
        rivals = [
            m
            for m in board.legal_moves
            if m != move
            and (m.to_row, m.to_col) == (move.to_row, move.to_col)
            and board.piece_at(m.from_row, m.from_col) == piece
        ]
        hint = ""
        if rivals:
            same_file = any(m.from_col == move.from_col for m in rivals)
            hint = self.square(move.from_row, move.from_col)[1] if same_file else _FILES[move.from_col]
        return f"{piece.upper()}{hint}{'x' if target else ''}{to}"

    def view(self, board: minichess.Board) -> dict[str, Any]:
        legal: dict[str, list[str]] = {}
        for move in board.legal_moves:
            legal.setdefault(self.square(move.from_row, move.from_col), []).append(self.uci(board, move))
        stack = board.move_stack
        outcome = self.outcome(board)
        return {
            "fen": board.fen(),
            "turn": "white" if board.turn else "black",
            "legal": legal,
            "lastmove": self.uci(board, stack[-1]) if stack else None,
            "check": None,  # no check rule: a king is captured
            "outcome": None if outcome is None else outcome[1],
        }

    def record(self, board: minichess.Board, headers: dict[str, str], comments: list[str | None]) -> str:
        moves = board.move_stack
        replay = board.copy()
        for _ in moves:
            replay.pop()
        tags = {**headers, "Variant": self.title, "FEN": replay.fen()}
        words = []
        for index, move in enumerate(moves):
            if replay.turn or index == 0:
                words.append(f"{index // 2 + 1}." if replay.turn else f"{index // 2 + 1}...")
            words.append(self.san(replay, move))
            if index < len(comments) and comments[index]:
                words.append(f"{{ {comments[index]} }}")
            replay.push(move)
        words.append(headers.get("Result", "*"))
        header = "\n".join(f'[{key} "{value}"]' for key, value in tags.items())
        return f"{header}\n\n{' '.join(words)}\n"

    def move_seconds(self, board: minichess.Board, limit: chess.engine.Limit) -> float | None:
        """MiniChess's clock rule, its time for a move: the limit's, or with a clock an even share of
        what is left over the moves the game can still last (it ends at ply
        :data:`camelpy.minichess.MAX_PLIES`), plus most of the increment (:data:`MINI_INC_SHARE`), at
        most :data:`MINI_MAX_SHARE` of the clock.

        >>> MINICHESS.move_seconds(minichess.Board(), chess.engine.Limit(white_clock=40.0))
        1.6
        """
        if limit.time is not None:
            return limit.time
        left = limit.white_clock if board.turn else limit.black_clock
        if left is None:
            return None
        inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
        moves_left = max(1, (minichess.MAX_PLIES - board.ply + 1) // 2)
        return max(0.001, min(left / moves_left + inc * MINI_INC_SHARE, left * MINI_MAX_SHARE))

    def trace(self, board: minichess.Board, tracer: None) -> str:
        """MiniChess's evaluation terms as a table: weight × feature (White's count minus Black's)."""
        evaluation = minichess.evaluate(board)
        rows = [f"{'term':<14}{'weight':>8}{'feature':>9}{'product':>9}"]
        for term in evaluation.terms:
            rows.append(f"{term.name:<14}{term.weight:>8}{term.feature:>9}{term.weight * term.feature:>9}")
        side = "White" if board.turn else "Black"
        rows.append(f"evaluation for the side to move ({side}): {evaluation.value}")
        rows.append("(the count term is scaled by ply / 50; tempo counts for the side to move)")
        return "\n".join(rows)


class _Leiserchess(_SmallGame):
    """Leiserchess (:mod:`camelpy.leiserchess`) under one rule set: moves in the course's notation
    (``e6e7``, ``b3R``, ``h0h0``, ``d5e4f5``), squares ``a0`` … ``h7``, and each view's ``laser``: the
    beams the last move fired (:meth:`laser_view`)."""

    files = ranks = 8
    sides = ("Tangerine", "Lavender")
    fen_hint = "ss3nw3/3nw4/2nw1nw3/1nw3SE1SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN W (ranks 7 to 0, W or B to move)"
    engine_type = leiserchess.Searcher
    terminations = _LEISER_TERMINATIONS
    analysis_seconds = LEISER_ANALYSIS_S

    def __init__(self, rules: int) -> None:
        self.rules = rules
        self.name = "leiserchess" if rules == leiserchess.RULES[0] else f"leiserchess{rules}"
        self.title = f"Leiserchess ({rules} rules)"

    def new_board(self, fen: str | None, chess960_pos: int | None = None) -> leiserchess.Board:
        if chess960_pos is not None:
            raise ValueError("Chess960 starts are for chess, not Leiserchess")
        return leiserchess.Board(fen.strip() if fen else leiserchess.STARTING_FEN, rules=self.rules)

    def parse(self, board: leiserchess.Board, uci: str) -> leiserchess.Move:
        move = leiserchess.Move(uci)
        board.shots(move)  # raises as a push would, with the rules' reason (Ko, a pinned pawn, ...)
        return move

    def uci(self, board: leiserchess.Board, move: leiserchess.Move) -> str:
        return move.text

    def san(self, board: leiserchess.Board, move: leiserchess.Move) -> str:
        return move.text  # the course's notation is the record's too

    def view(self, board: leiserchess.Board) -> dict[str, Any]:
        legal: dict[str, list[str]] = {}
        for move in board.legal_moves:
            legal.setdefault(move.text[:2], []).append(move.text)
        stack = board.move_stack
        outcome = self.outcome(board)
        return {
            "fen": board.fen(),
            "turn": "white" if board.turn else "black",
            "legal": legal,
            "lastmove": stack[-1].text if stack else None,
            "check": None,  # no check: a king is hit
            "outcome": None if outcome is None else outcome[1],
            "laser": self.laser_view(board),
        }

    def laser_view(self, board: leiserchess.Board) -> dict[str, Any] | None:
        """The last move's laser as the page draws it: ``from`` (the firing king's square) and
        ``shots``, each ``{"squares", "end", "square"}`` (:meth:`camelpy.leiserchess.Board.shots`);
        ``None`` before the first move.

        >>> board = LEISERCHESS.new_board("8/8/8/8/8/8/8/NN6nn W")
        >>> board.push("a0R")
        >>> view = LEISERCHESS.laser_view(board)
        >>> view["from"], view["shots"][0]["end"], view["shots"][0]["square"]
        ('a0', 'king', 'h0')
        """
        if not board.move_stack:
            return None
        before = board.copy()
        move = before.pop()
        kings = {"NN", "EE", "SS", "WW"} if before.turn else {"nn", "ee", "ss", "ww"}
        origin = next(sq for sq in _LEISER_SQUARES if board.piece_at(sq) in kings)
        shots = [{"squares": list(s.squares), "end": s.end, "square": s.square} for s in before.shots(move)]
        return {"from": origin, "shots": shots}

    def record(self, board: leiserchess.Board, headers: dict[str, str], comments: list[str | None]) -> str:
        """The game in the course's notation with tags (PGN-like, as ``camelpy leiserchess match``'s
        ``games.txt``): Tangerine and Lavender for White and Black, the rules, the start FEN."""
        moves = board.move_stack
        start = board.copy()
        for _ in moves:
            start.pop()
        names = {"White": "Tangerine", "Black": "Lavender"}
        tags = {names.get(key, key): value for key, value in headers.items()}
        tags.update({"Variant": "Leiserchess", "Rules": str(self.rules), "FEN": start.fen()})
        first = 0 if start.turn else 1  # Lavender to move first: its move is numbered 1...
        words = []
        for index, move in enumerate(moves):
            ply = index + first
            if ply % 2 == 0 or index == 0:
                words.append(f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}...")
            words.append(move.text)
            if index < len(comments) and comments[index]:
                words.append(f"{{ {comments[index]} }}")
        words.append(headers.get("Result", "*"))
        header = "\n".join(f'[{key} "{value}"]' for key, value in tags.items())
        return f"{header}\n\n{' '.join(words)}\n"

    def log_record(self, data: object) -> GameRecord | None:
        return leiser_arena.log_record(data)

    def move_seconds(self, board: leiserchess.Board, limit: chess.engine.Limit) -> float | None:
        """Leiserchess's clock rule, the protocol's (:func:`camelpy.protocols.leiserchess.time_for_move`):
        the limit's time, or with a clock the hard budget (a 50th of what is left, with a shrinking
        horizon, plus most of the increment, times the hard cap's factor; :meth:`move_limits` adds the
        soft budget and the minimum depth).

        >>> LEISERCHESS.move_seconds(leiserchess.Board(), chess.engine.Limit(white_clock=60.0, white_inc=0.5))
        5.48
        """
        found = self.move_limits(board, limit)["time"]
        return None if found is None else float(found)

    def move_limits(self, board: leiserchess.Board, limit: chess.engine.Limit) -> dict[str, Any]:
        """The protocol's limits for a move under a clock: hard and soft budgets and the minimum depth
        (:data:`camelpy.protocols.leiserchess.MIN_DEPTH`); the limit's time as it is.

        >>> LEISERCHESS.move_limits(leiserchess.Board(), chess.engine.Limit(white_clock=10.0, white_inc=0.1))
        {'time': 0.93, 'soft_time': 0.147, 'min_depth': 5}
        """
        if limit.time is not None:
            return {"time": limit.time}
        left = limit.white_clock if board.turn else limit.black_clock
        if left is None:
            return {"time": None}
        inc = (limit.white_inc if board.turn else limit.black_inc) or 0.0
        clock = time_for_move(round(left * 1000), round(inc * 1000), len(board.move_stack) // 2)
        return {"time": clock.hard_ms / 1000, "soft_time": clock.soft_ms / 1000, "min_depth": MIN_DEPTH}

    def trace(self, board: leiserchess.Board, tracer: None) -> str:
        """Leiserchess's evaluation terms as a table: weight × feature (Tangerine's minus Lavender's)."""
        evaluation = leiserchess.evaluate(board)
        weights = leiserchess.DEFAULT_WEIGHTS
        rows = [f"{'term':<18}{'weight':>8}{'feature':>9}{'product':>9}"]
        for name, feature in evaluation.features.items():
            rows.append(f"{name:<18}{weights[name]:>8}{feature:>9}{weights[name] * feature:>9}")
        side = "Tangerine" if board.turn else "Lavender"
        rows.append(f"evaluation for the side to move ({side}): {evaluation.value}")
        rows.append("(the products but the tempo's, from the side to move's view, plus the tempo's)")
        return "\n".join(rows)


CHESS: Variant = _Chess()
"""Chess (and Chess960)."""

MINICHESS: _MiniChess = _MiniChess()
"""MiniChess on 6 rows × 5 columns (:mod:`camelpy.minichess`)."""

LEISERCHESS: _Leiserchess = _Leiserchess(2016)
"""Leiserchess under the 2016 rules (:mod:`camelpy.leiserchess`), the default."""

LEISERCHESS_2018: _Leiserchess = _Leiserchess(2018)
"""Leiserchess under the 2018 rules (swaps, one zap a shot)."""

VARIANTS = {variant.name: variant for variant in (CHESS, MINICHESS, LEISERCHESS, LEISERCHESS_2018)}
"""The games by name."""

LEVEL_NAMES = tuple(dict.fromkeys(name for variant in VARIANTS.values() for name in variant.levels))
"""Every game's level names (a game settings' level must be one of its own game's)."""


def game_variant(game: object = "chess", rules: object = None) -> Variant:
    """The variant a match's events name: a ``game`` event's ``variant`` (absent: chess) and ``rules``.

    >>> game_variant("leiserchess", 2018) is LEISERCHESS_2018, game_variant() is CHESS
    (True, True)

    :raises: :exc:`ValueError` quoting a game or rule set the GUI does not play.
    """
    name = game
    if game == "leiserchess" and rules is not None:
        name = LEISERCHESS.name if rules == leiserchess.RULES[0] else f"leiserchess{rules}"
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise ValueError(f"no game {shown(game)} with rules {shown(rules)} in the GUI")
    return variant


def log_variant(header: dict[str, Any]) -> Variant:
    """The game a match's ``games.jsonl`` holds, from its first line: Leiserchess's names its
    ``rules`` in its settings; any other is chess's.

    >>> log_variant({"version": 1, "settings": {"rules": 2018}}) is LEISERCHESS_2018
    True
    """
    settings = header.get("settings")
    rules = settings.get("rules") if isinstance(settings, dict) else None
    return game_variant("leiserchess", rules) if rules in leiserchess.RULES else CHESS

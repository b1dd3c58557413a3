"""The referee: plays one game between two UCI engines, keeps the clocks, applies the rules and the
adjudication settings, and ends the game with a clear termination when an engine misbehaves (illegal
move, time loss, crash, hang, no move). The game comes back as a :class:`GameRecord` that turns into
PGN and JSON; :func:`summarize` counts a match's records, whatever their game, into one
:class:`MatchResult` (``camelpy match``'s summary, and Leiserchess's ``summary.json`` in its layout).

>>> record = GameRecord(white="a", black="b", opening=Opening(), result="1/2-1/2", termination="adjudication",
...     reason="draw by adjudication: max moves", moves=(MoveRecord("e2e4", "+0.30", 12, 0.5),))
>>> print(record.to_pgn(event="demo", date="2026.11.22").splitlines()[-1])
1. e4 { +0.30/12 0.500s, draw by adjudication: max moves } 1/2-1/2
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess
import chess.engine
import chess.pgn

from camelpy._args import brief, int_arg, items_arg, opt_int_arg, opt_str_arg, shown, str_arg
from camelpy._quote import quote
from camelpy.arena import stats
from camelpy.arena.engines import EngineConfig, UciPlayer
from camelpy.arena.events import Observer
from camelpy.arena.openings import MAX_PAIRS, Opening
from camelpy.arena.timeuse import TimeUse, summary_lines

__all__ = [
    "DEFAULT_HANG_TIMEOUT",
    "NO_ADJUDICATION",
    "Adjudication",
    "GameRecord",
    "MatchResult",
    "MoveRecord",
    "check_sprt",
    "play_game",
    "result_event",
    "summarize",
]

DEFAULT_HANG_TIMEOUT = 60.0
"""Seconds a move may take, on top of its limit, before the engine counts as hung (for node and depth
limits, which have no clock to lose on)."""

MATE_SCORE = 100_000
"""Centipawn stand-in for a mate score in adjudication (above any resign threshold)."""

# PGN ``Termination`` tag values (PGN standard §9.8.1) for our detailed termination codes.
PGN_TERMINATION = {
    "checkmate": "normal",
    "stalemate": "normal",
    "insufficient material": "normal",
    "threefold repetition": "normal",
    "fifty moves": "normal",
    "adjudication": "adjudication",
    "time forfeit": "time forfeit",
    "illegal move": "rules infraction",
    "no bestmove": "rules infraction",
    "crash": "abandoned",
    "hang": "stalled connection",
}


@dataclasses.dataclass(frozen=True)
class Adjudication:
    """When the referee ends a game early (fastchess's ``-draw``, ``-resign`` and ``-maxmoves``).

    A draw needs the move number to reach *draw_movenumber* and both engines to report
    ``|score| <= draw_score`` cp for *draw_movecount* consecutive moves each; a resignation needs one
    engine to report ``score <= -resign_score`` for *resign_movecount* consecutive moves (and, with
    *resign_twosided*, its opponent to agree). ``None`` disables a rule.

    >>> Adjudication(maxmoves=200).maxmoves
    200
    """

    draw_movenumber: int | None = None
    """First full-move number at which a draw may be adjudicated."""
    draw_movecount: int = 8
    """Consecutive moves (per side) within the draw score."""
    draw_score: int = 10
    """Centipawns either way that count as a draw."""
    resign_movecount: int | None = None
    """Consecutive moves at or below minus *resign_score* that resign the game."""
    resign_score: int = 600
    """Centipawns of disadvantage that count as lost."""
    resign_twosided: bool = False
    """Whether the winner's scores must agree too."""
    maxmoves: int | None = None
    """Full moves after which the game is a draw."""

    def __post_init__(self) -> None:
        opt_int_arg(self.draw_movenumber, "draw_movenumber", 1)
        int_arg(self.draw_movecount, "draw_movecount", 1)
        int_arg(self.draw_score, "draw_score", 0)
        opt_int_arg(self.resign_movecount, "resign_movecount", 1)
        int_arg(self.resign_score, "resign_score", 0)
        opt_int_arg(self.maxmoves, "maxmoves", 1)


@dataclasses.dataclass(frozen=True)
class MoveRecord:
    """One move of a game as played (book moves are not recorded here)."""

    uci: str
    """The move."""
    score: str | None = None
    """The mover's score as cutechess writes it (``+0.35``, ``-M3``), if the engine sent one."""
    depth: int | None = None
    """Search depth the engine reported."""
    time: float = 0.0
    """Seconds the move took, as the referee timed it."""
    cp: int | None = None
    """The score in centipawns from the mover's side (mates as ±100000), for adjudication."""


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A finished game with everything needed for PGN, statistics and resuming: the one record of every
    game the arena plays (chess, Leiserchess, MiniChess). *white* is the player who moves first
    (Leiserchess's Tangerine), the opening's FEN and the moves are in the game's own notation."""

    white: str
    """White's engine name."""
    black: str
    """Black's engine name."""
    opening: Opening
    """Start position and book moves."""
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2`` (``*`` if the game could not be played)."""
    termination: str
    """Short code: ``checkmate``, ``adjudication``, ``time forfeit``, ``illegal move``, ``crash``, …"""
    reason: str
    """A sentence for people: ``White loses on time``, ``Black's engine crashed``, …"""
    moves: tuple[MoveRecord, ...] = ()
    """The engines' moves after the book."""
    round: str = "1"
    """PGN round: ``<pair>.<game in pair>``."""
    pair: int = 0
    """Index of the game pair (opening) in the schedule."""
    game: int = 0
    """0 or 1 within the pair."""
    white_limits: str = ""
    """White's limits as engine-spec words (``tc=10+0.1``)."""
    black_limits: str = ""
    """Black's limits."""
    started: str = ""
    """UTC start time, ``YYYY.MM.DD HH:MM:SS``."""
    final: str = ""
    """The final position in the game's own notation, when the game keeps it (MiniChess's runner; not
    written to JSON when empty)."""

    @property
    def winner(self) -> bool | None:
        """``True`` when the first player (White, Tangerine) won, ``False`` when the second did,
        ``None`` for a draw or a game without a result."""
        return {"1-0": True, "0-1": False}.get(self.result)

    def score_for(self, name: str) -> float:
        """Points for the engine called *name* (1, ½ or 0).

        :raises: :exc:`ValueError` for a *name* that is neither player, or a game without a result.
        """
        if str_arg(name, "name") not in (self.white, self.black):
            raise ValueError(f"{quote(name)} is not a player of {quote(self.white)} vs {quote(self.black)}")
        if self.result not in RESULTS[:3]:
            raise ValueError(f"the game {quote(self.white)} vs {quote(self.black)} has no result")
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if (name == self.white) == white_won else 0.0

    def to_pgn(self, *, event: str = "camelpy match", date: str | None = None) -> str:
        """The game as PGN text: headers (with ``FEN``/``SetUp`` for a non-standard start,
        ``Opening``, ``Termination``), book moves commented ``book``, engine moves commented
        ``score/depth time``, and the reason appended to the last move's comment (as cutechess does).
        Control characters in header values (a newline would end the tag) are written as spaces.

        :raises: :exc:`TypeError` for an *event* or *date* that is not a string, :exc:`ValueError` for
            an opening or a move that is not legal.
        """
        str_arg(event, "event")
        opt_str_arg(date, "date")
        game = chess.pgn.Game()
        headers = game.headers
        headers["Event"] = _tag(event)
        headers["Site"] = "camelpy"
        headers["Date"] = _tag(date or (self.started.split(" ")[0] if self.started else "????.??.??"))
        headers["Round"] = _tag(self.round)
        headers["White"] = _tag(self.white)
        headers["Black"] = _tag(self.black)
        headers["Result"] = self.result
        self.opening.board()  # a bad FEN or book move: a ValueError quoting it
        root = chess.Board(self.opening.fen)
        if self.opening.fen != chess.STARTING_FEN:
            game.setup(root)
        if self.opening.name:
            headers["Opening"] = _tag(self.opening.name)
        headers["Termination"] = PGN_TERMINATION.get(self.termination, "unterminated")
        if self.white_limits == self.black_limits and self.white_limits:
            headers["TimeControl"] = _tag(self.white_limits)
        elif self.white_limits or self.black_limits:
            headers["WhiteTimeControl"] = _tag(self.white_limits)
            headers["BlackTimeControl"] = _tag(self.black_limits)
        node: chess.pgn.GameNode = game
        for uci in self.opening.moves:
            node = node.add_variation(chess.Move.from_uci(uci), comment="book")
        for record in self.moves:
            parts = []
            if record.score is not None:
                parts.append(record.score if record.depth is None else f"{record.score}/{record.depth}")
            parts.append(f"{record.time:.3f}s")
            node = node.add_variation(chess.Move.from_uci(record.uci), comment=" ".join(parts))
        if self.reason:
            if node is game:
                game.comment = self.reason
            else:
                node.comment = f"{node.comment}, {self.reason}" if node.comment else self.reason
        return str(game)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (one line of the match's ``games.jsonl``)."""
        data = dataclasses.asdict(self)
        data["opening"] = self.opening.to_json()
        data["moves"] = [[m.uci, m.score, m.depth, round(m.time, 4), m.cp] for m in self.moves]
        if not self.final:
            del data["final"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """Rebuilds a record from :meth:`to_json`'s dict.

        :raises: :exc:`TypeError` when *data* is not a dict, :exc:`ValueError` naming the first missing,
            unknown or malformed field (the dict is data: one line of a ``games.jsonl``).
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"data must be a dict, got {type(data).__name__} {shown(data)}")
        fields = dict(data)
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(map(str, fields.keys() - known.keys()))
        if unknown:
            raise ValueError(f"bad game record: unknown fields {shown(unknown)}")
        for name, field in known.items():
            if name not in fields:
                if field.default is dataclasses.MISSING:
                    raise ValueError(f"bad game record: no {name!r}")
            elif name == "opening":
                fields[name] = _opening_from_json(fields[name])
            elif name == "moves":
                fields[name] = _moves_from_json(fields[name])
            elif name in ("pair", "game"):
                _record_field(name, fields[name], "an integer >= 0", lambda v: type(v) is int and v >= 0)
            elif name == "result":
                _record_field(name, fields[name], " or ".join(map(quote, RESULTS)), lambda v: v in RESULTS)
            else:
                _record_field(name, fields[name], "a string", lambda v: isinstance(v, str))
        return cls(**fields)


RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The game results of PGN: a win for White, for Black, a draw, and none (a game not played out)."""


def _record_field(name: str, value: object, wanted: str, ok: Callable[[Any], bool]) -> None:
    if not ok(value):
        raise ValueError(f"bad game record: {name} must be {wanted}, got {shown(value)}")


def _opening_from_json(value: object) -> Opening:
    wanted = "a dict with a fen, moves and a name"
    if not isinstance(value, Mapping) or "fen" not in value or "moves" not in value:
        raise ValueError(f"bad game record: opening must be {wanted}, got {shown(value)}")
    try:
        return Opening(value["fen"], value["moves"], value.get("name", ""))
    except TypeError as err:
        raise ValueError(f"bad game record: opening {shown(value)}: {brief(err)}") from None


def _moves_from_json(value: object) -> tuple[MoveRecord, ...]:
    if not isinstance(value, list):
        raise ValueError(f"bad game record: moves must be a list, got {shown(value)}")
    for item in value:
        if not isinstance(item, list) or not 1 <= len(item) <= 5 or not isinstance(item[0], str):
            raise ValueError(
                f"bad game record: a move must be a list [uci, score, depth, time, cp], got {shown(item)}"
            )
    return tuple(MoveRecord(*item) for item in value)


def _tag(value: str) -> str:
    """A PGN header value on one line: control characters (newline, NUL …) become spaces."""
    return "".join(" " if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in value)


def _score_text(score: chess.engine.Score) -> str:
    mate = score.mate()
    if mate is not None:
        return f"+M{mate}" if mate > 0 else f"-M{-mate}"
    cp = score.score()
    assert cp is not None
    return f"{cp / 100:+.2f}"


def _result_event(
    round_label: str, white: str, black: str, result: str, termination: str, reason: str, plies: int
) -> dict[str, Any]:
    return {
        "id": round_label,
        "white": white,
        "black": black,
        "result": result,
        "termination": termination,
        "reason": reason,
        "plies": plies,
    }


def result_event(record: GameRecord) -> dict[str, Any]:
    """The ``result`` event (:mod:`camelpy.arena.events`) of a finished game."""
    return _result_event(
        record.round,
        record.white,
        record.black,
        record.result,
        record.termination,
        record.reason,
        len(record.moves),
    )


@dataclasses.dataclass(frozen=True)
class MatchResult:
    """The score of a match, from the first engine's side.

    >>> MatchResult("a", "b", wins=3, draws=2, losses=1).score
    0.6666666666666666
    """

    engine1: str
    """First engine (the one being tested)."""
    engine2: str
    """Second engine (the baseline)."""
    wins: int = 0
    """Games the first engine won."""
    draws: int = 0
    """Drawn games."""
    losses: int = 0
    """Games the first engine lost."""
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Complete game pairs by the first engine's pair score: 0, ½, 1, 1½, 2 points."""
    llr: float | None = None
    """The SPRT's log-likelihood ratio (``None`` without an SPRT)."""
    sprt: stats.SPRT | None = None
    """The SPRT settings."""
    decision: str | None = None
    """``"H1"`` (accepted: elo1), ``"H0"`` (rejected) or ``None`` (undecided)."""
    terminations: tuple[tuple[str, int], ...] = ()
    """How games ended: (termination code, count), most frequent first."""
    out: str | None = None
    """The folder holding games.jsonl, games.pgn and the summary."""
    time_use: tuple[TimeUse, ...] = ()
    """Each engine's use of its clock (:mod:`camelpy.arena.timeuse`), once the match has ended."""
    carried: stats.Tally | None = None
    """Whole game pairs of an earlier run carried into the counts above (:func:`camelpy.arena.stats.carried`,
    ``camelpy match --carry``); the terminations and time use are of the games played here only."""

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first engine's mean score (0.5 before any game)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def trinomial(self) -> tuple[int, int, int]:
        """``(losses, draws, wins)``: worst to best, as the stats functions take it."""
        return (self.losses, self.draws, self.wins)

    def _results(self) -> Sequence[int]:
        return self.pentanomial if sum(self.pentanomial) else self.trinomial

    @property
    def elo(self) -> stats.EloEstimate:
        """Logistic Elo with a 95 % interval (from pairs when there are any)."""
        return stats.elo_estimate(self._results())

    @property
    def nelo(self) -> stats.EloEstimate:
        """Normalized Elo with a 95 % interval."""
        return stats.normalized_elo(self._results())

    @property
    def los(self) -> float:
        """Likelihood of superiority of the first engine."""
        return stats.los(self._results())

    def status_line(self) -> str:
        """A short line for the live display: the games, the pairs (the pentanomial, as the summary's
        ``Ptnml(0-2)``), the Elo and the LLR.

        >>> MatchResult("a", "b", wins=3, draws=2, losses=1, pentanomial=(0, 0, 1, 2, 0)).status_line()
        '+3=2-1 Ptnml [0, 0, 1, 2, 0] Elo +120.22 +/- 109.70'
        """
        text = f"+{self.wins}={self.draws}-{self.losses}"
        if sum(self.pentanomial):
            text += f" Ptnml {list(self.pentanomial)}"
        if self.games:
            text += f" Elo {self.elo}"
        if self.sprt is not None and self.llr is not None:
            lower, upper = self.sprt.bounds
            text += f" LLR {self.llr:.2f} ({lower:.2f}, {upper:.2f})"
        return text

    def summary(self) -> str:
        """The final report, as fastchess prints it."""
        lines = [f"Results of {self.engine1} vs {self.engine2}:"]
        if self.games:
            lines.append(f"Elo: {self.elo}, nElo: {self.nelo}")
            lines.append(f"LOS: {self.los:.2%}, DrawRatio: {self.draws / self.games:.2%}")
        lines.append(
            f"Games: {self.games}, Wins: {self.wins}, Losses: {self.losses}, Draws: {self.draws}, "
            f"Points: {self.wins + self.draws / 2:g} ({self.score:.2%})"
        )
        lines.append(f"Ptnml(0-2): {list(self.pentanomial)}")
        if self.carried is not None:
            c = self.carried
            lines.append(
                f"Carried: {c.wins + c.draws + c.losses} games of an earlier run, counted above: "
                f"+{c.wins} ={c.draws} -{c.losses}, Ptnml(0-2): {list(c.pentanomial)}"
            )
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            verdict = {"H1": "H1 was accepted", "H0": "H0 was accepted", None: "undecided"}[self.decision]
            lines.append(
                f"LLR: {self.llr or 0.0:.2f} ({lower:.2f}, {upper:.2f}) "
                f"[{self.sprt.elo0:g}, {self.sprt.elo1:g}] {self.sprt.model}: {verdict}"
            )
        if self.terminations:
            here = (
                ""
                if self.carried is None
                else f" (the {sum(n for _, n in self.terminations)} games played here)"
            )
            lines.append(f"Terminations{here}: " + ", ".join(f"{k} {n}" for k, n in self.terminations))
        lines += summary_lines(self.time_use)
        return "\n".join(lines)

    def status_event(self) -> dict[str, Any]:
        """The fields of the ``status`` event that watchers read (:mod:`camelpy.arena.events`)."""
        elo = None
        if self.games:
            est = self.elo
            elo = {"elo": est.elo, "lower": est.lower, "upper": est.upper}
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "pentanomial": list(self.pentanomial),
            "elo": elo,
            "llr": self.llr,
            "bounds": list(self.sprt.bounds) if self.sprt is not None else None,
            "decision": self.decision,
            "line": self.status_line(),
        }

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the figures."""
        data: dict[str, Any] = {
            "engine1": self.engine1,
            "engine2": self.engine2,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "pentanomial": list(self.pentanomial),
            "terminations": dict(self.terminations),
        }
        if self.games:
            for label, est in (("elo", self.elo), ("nelo", self.nelo)):
                data[label] = {"elo": est.elo, "lower": est.lower, "upper": est.upper}
            data["los"] = self.los
        if self.sprt is not None:
            data["sprt"] = dataclasses.asdict(self.sprt) | {"llr": self.llr, "decision": self.decision}
        if self.time_use:
            data["time_use"] = [use.to_json() for use in self.time_use]
        if self.carried is not None:
            data["carried"] = dataclasses.asdict(self.carried) | {
                "pentanomial": list(self.carried.pentanomial)
            }
        return data


def summarize(
    name1: str,
    name2: str,
    records: Sequence[GameRecord],
    sprt: stats.SPRT | None = None,
    out: str | None = None,
    carry: stats.Tally | None = None,
) -> MatchResult:
    """Counts *records* from *name1*'s side; pairs are matched by their ``pair`` index. Games without a
    result (``*``) are not counted. *carry* (:func:`camelpy.arena.stats.carried`) adds an earlier run's
    whole pairs to the counts, the Elo and the SPRT.

    :raises: :exc:`ValueError` for a record that *name1* did not play, :exc:`TypeError` for an argument
        of the wrong type.
    """
    str_arg(name1, "name1")
    str_arg(name2, "name2")
    records = items_arg(records, "records", GameRecord)
    check_sprt(sprt)
    opt_str_arg(out, "out")
    count = stats.tally((r.pair, r.score_for(name1)) for r in records if r.result != "*")
    if carry is not None:
        check_carry(carry)
        count = count + carry
    llr = decision = None
    if sprt is not None:
        llr = sprt.llr(count.results)
        decision = sprt.status(count.results)
    ends = tuple(Counter(r.termination for r in records).most_common())
    return MatchResult(
        name1,
        name2,
        count.wins,
        count.draws,
        count.losses,
        count.pentanomial,
        llr,
        sprt,
        decision,
        ends,
        out,
        carried=carry,
    )


def check_carry(carry: object) -> None:
    """:exc:`TypeError` unless *carry* is a :class:`camelpy.arena.stats.Tally`; :exc:`ValueError` unless
    its counts are whole pairs that agree (:func:`camelpy.arena.stats.carried`) and number at most
    :data:`camelpy.arena.openings.MAX_PAIRS`, as many as one run may play (far more, and the GSPRT's
    floats overflow)."""
    if not isinstance(carry, stats.Tally):
        raise TypeError(f"carry must be a stats.Tally, got {type(carry).__name__} {shown(carry)}")
    stats.carried(carry.wins, carry.draws, carry.losses, carry.pentanomial)
    if sum(carry.pentanomial) > MAX_PAIRS:
        raise ValueError(f"carried pairs must number at most {MAX_PAIRS:,}, got {sum(carry.pentanomial):,}")


def check_sprt(sprt: object) -> None:
    """:exc:`TypeError` unless *sprt* is a :class:`camelpy.arena.stats.SPRT` or ``None``."""
    if sprt is not None and not isinstance(sprt, stats.SPRT):
        raise TypeError(f"sprt must be a stats.SPRT or None, got {type(sprt).__name__} {shown(sprt)}")


def _side(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


class _Clock:
    def __init__(self, config: EngineConfig) -> None:
        self.tc = config.tc
        self.remaining = config.tc.base if config.tc else 0.0
        self.moves_made = 0

    def moves_to_go(self) -> int | None:
        if self.tc is None or not self.tc.moves:
            return None
        return self.tc.moves - self.moves_made % self.tc.moves

    def spend(self, seconds: float) -> None:
        assert self.tc is not None
        self.remaining -= seconds
        self.moves_made += 1
        self.remaining += self.tc.inc
        if self.tc.moves and self.moves_made % self.tc.moves == 0:
            self.remaining += self.tc.base


def _limit(mover: EngineConfig, clocks: dict[chess.Color, _Clock], turn: chess.Color) -> chess.engine.Limit:
    limit = chess.engine.Limit(time=mover.st, nodes=mover.nodes, depth=mover.depth)
    if mover.tc is not None:
        white, black = clocks[chess.WHITE], clocks[chess.BLACK]
        if white.tc is not None:
            limit.white_clock = max(white.remaining, 0.001)
            limit.white_inc = white.tc.inc
        if black.tc is not None:
            limit.black_clock = max(black.remaining, 0.001)
            limit.black_inc = black.tc.inc
        limit.remaining_moves = clocks[turn].moves_to_go()
    return limit


def _adjudicate(board: chess.Board, moves: list[MoveRecord], rules: Adjudication) -> tuple[str, str] | None:
    """(result, reason) when a rule ends the game after the last move, else None."""
    ply = len(moves)
    if rules.resign_movecount and ply >= 1:
        mover = not board.turn
        own = [m.cp for m in moves[-1::-2][: rules.resign_movecount]]
        if len(own) == rules.resign_movecount and all(
            cp is not None and cp <= -rules.resign_score for cp in own
        ):
            other = [m.cp for m in moves[-2::-2][: rules.resign_movecount]]
            agreed = len(other) == rules.resign_movecount and all(
                cp is not None and cp >= rules.resign_score for cp in other
            )
            if agreed or not rules.resign_twosided:
                result = "0-1" if mover == chess.WHITE else "1-0"
                return result, f"{_side(mover)} resigns (adjudication)"
    if rules.draw_movenumber is not None and board.fullmove_number >= rules.draw_movenumber:
        window = [m.cp for m in moves[-2 * rules.draw_movecount :]]
        if len(window) == 2 * rules.draw_movecount and all(
            cp is not None and abs(cp) <= rules.draw_score for cp in window
        ):
            return "1/2-1/2", "draw by adjudication: scores near zero"
    if rules.maxmoves is not None and ply >= 2 * rules.maxmoves:
        return "1/2-1/2", "draw by adjudication: max moves"
    return None


NO_ADJUDICATION = Adjudication()
"""Only the rules of chess end a game."""

_OUTCOMES = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
    chess.Termination.FIVEFOLD_REPETITION: "threefold repetition",
    chess.Termination.FIFTY_MOVES: "fifty moves",
    chess.Termination.SEVENTYFIVE_MOVES: "fifty moves",
}


async def play_game(
    white: UciPlayer,
    black: UciPlayer,
    opening: Opening,
    adjudication: Adjudication = NO_ADJUDICATION,
    *,
    hang_timeout: float = DEFAULT_HANG_TIMEOUT,
    round_label: str = "1",
    pair: int = 0,
    game_index: int = 0,
    observer: Observer | None = None,
) -> tuple[GameRecord, set[UciPlayer]]:
    """Plays one game; returns the record and the engines that misbehaved (the caller restarts them).
    *observer*, if given, gets the game's ``game``, ``move`` and ``result`` events
    (:mod:`camelpy.arena.events`) as they happen.

    Never raises for an engine's fault: a crash, hang, time loss, illegal move or missing move ends
    the game against that engine.
    """
    players = {chess.WHITE: white, chess.BLACK: black}
    clocks = {chess.WHITE: _Clock(white.config), chess.BLACK: _Clock(black.config)}
    board = opening.board()
    moves: list[MoveRecord] = []
    token = object()  # a new game object: python-chess sends ucinewgame
    started = time.strftime("%Y.%m.%d %H:%M:%S", time.gmtime())
    broken: set[UciPlayer] = set()
    loop = asyncio.get_running_loop()

    def clock_times() -> dict[str, float] | None:
        if white.config.tc is None and black.config.tc is None:
            return None
        return {_side(c).lower(): round(clocks[c].remaining, 3) for c in chess.COLORS}

    if observer is not None:
        observer(
            "game",
            {
                "id": round_label,
                "white": white.config.name,
                "black": black.config.name,
                "fen": opening.fen,
                "book": list(opening.moves),
                "clock": clock_times(),
            },
        )

    def finish(result: str, termination: str, reason: str) -> tuple[GameRecord, set[UciPlayer]]:
        if observer is not None:
            observer(
                "result",
                _result_event(
                    round_label, white.config.name, black.config.name, result, termination, reason, len(moves)
                ),
            )
        record = GameRecord(
            white=white.config.name,
            black=black.config.name,
            opening=opening,
            result=result,
            termination=termination,
            reason=reason,
            moves=tuple(moves),
            round=round_label,
            pair=pair,
            game=game_index,
            white_limits=white.config.describe(),
            black_limits=black.config.describe(),
            started=started,
        )
        return record, broken

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            text = _OUTCOMES.get(outcome.termination, outcome.termination.name.lower())
            if outcome.winner is None:
                reason = f"draw by {text}"
            else:
                reason = f"{_side(outcome.winner)} mates"
            return finish(outcome.result(), text, reason)
        turn = board.turn
        player, config = players[turn], players[turn].config
        lost = "0-1" if turn == chess.WHITE else "1-0"
        side = _side(turn)
        limit = _limit(config, clocks, turn)
        margin = config.timemargin_ms / 1000
        if config.tc is not None:
            timeout = clocks[turn].remaining + margin
            if config.st is not None:
                timeout = min(timeout, config.st + margin)
        elif config.st is not None:
            timeout = config.st + margin
        else:
            timeout = hang_timeout
        begin = loop.time()
        try:
            played = await asyncio.wait_for(player.play(board, limit, token), timeout)
        except asyncio.TimeoutError:
            broken.add(player)
            if config.tc is not None or config.st is not None:
                return finish(lost, "time forfeit", f"{side} loses on time (no move within {timeout:.3f}s)")
            return finish(lost, "hang", f"{side}'s engine hangs (no move within {timeout:.1f}s)")
        except chess.engine.EngineTerminatedError as err:
            broken.add(player)
            return finish(lost, "crash", f"{side}'s engine crashed ({err})")
        except chess.engine.EngineError as err:
            broken.add(player)
            return finish(lost, "illegal move", f"{side} plays an illegal move ({err})")
        elapsed = loop.time() - begin
        if played.move is None:
            broken.add(player)
            return finish(lost, "no bestmove", f"{side}'s engine sent no move")
        if config.tc is not None:
            if clocks[turn].remaining - elapsed < -margin:
                return finish(lost, "time forfeit", f"{side} loses on time ({elapsed:.3f}s for the move)")
            clocks[turn].spend(elapsed)
        if config.st is not None and elapsed > config.st + margin:
            return finish(lost, "time forfeit", f"{side} exceeds the move time ({elapsed:.3f}s)")
        info = played.info
        pov = info.get("score")
        score = pov.relative if pov is not None else None
        moves.append(
            MoveRecord(
                played.move.uci(),
                _score_text(score) if score is not None else None,
                info.get("depth"),
                elapsed,
                score.score(mate_score=MATE_SCORE) if score is not None else None,
            )
        )
        board.push(played.move)
        if observer is not None:
            last = moves[-1]
            observer(
                "move",
                {
                    "id": round_label,
                    "uci": last.uci,
                    "score": last.score,
                    "cp": last.cp,
                    "depth": last.depth,
                    "time": round(elapsed, 3),
                    "clock": clock_times(),
                },
            )
        if board.outcome(claim_draw=True) is None:
            verdict = _adjudicate(board, moves, adjudication)
            if verdict is not None:
                return finish(verdict[0], "adjudication", verdict[1])

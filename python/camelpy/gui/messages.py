"""The GUI's WebSocket protocol: one :class:`~typing.TypedDict` per message kind, each way.

The page sends *ops* (page → server), JSON objects ``{"op": name, …}``: :data:`OPS` maps each name to
its definition, and :class:`camelpy.gui.session.Session` has one handler per name. The server sends
*messages* (server → page), ``{"type": name, …}``: :data:`MESSAGES`. ``tests/test_gui_messages.py``
reads the page's script and checks it against these definitions both ways: every op it sends, with its
fields, and every message it handles, with the fields it reads. A definition the page does not use is
named in :data:`NOT_FROM_THE_PAGE` or :data:`NOT_READ_BY_THE_PAGE`, with the reason.

The definitions say what the page sends; the server checks every op all the same (a page is not
trusted), and answers what it cannot use with an :class:`ErrorMessage`.

>>> sorted(OPS)[:4]
['analyse', 'draw', 'goto', 'load']
>>> sorted(MoveOp.__annotations__)
['op', 'uci']
>>> MESSAGES["engine_info"] is EngineInfoMessage
True
"""

# No ``from __future__ import annotations``: the definitions are read at run time (the tests, the
# tables below), so they use ``Optional`` and ``Union``, which Python 3.9 evaluates.
from typing import Any, Literal, Optional, TypedDict, Union

__all__ = [
    "MESSAGES",
    "NOT_FROM_THE_PAGE",
    "NOT_READ_BY_THE_PAGE",
    "OPS",
    "AnalyseOp",
    "AnalysisMessage",
    "ClockSpec",
    "DrawOp",
    "EngineInfoMessage",
    "ErrorMessage",
    "GameMessage",
    "GotoOp",
    "HelloMessage",
    "InfoView",
    "LineMessage",
    "LoadOp",
    "MoveOp",
    "NewGameOp",
    "NoticeMessage",
    "Op",
    "PlayOp",
    "ReplayMessage",
    "ReplayOp",
    "ResignOp",
    "ReviewMessage",
    "ReviewOp",
    "ReviewProgressMessage",
    "ReviewStopOp",
    "ScoreView",
    "ServerMessage",
    "StopOp",
    "StrengthSpec",
    "UndoOp",
    "UnwatchOp",
    "VariantAbout",
    "WatchEventsMessage",
    "WatchOp",
    "WatchSnapshotMessage",
]


# ---- what the messages carry ---------------------------------------------------------------------


class StrengthSpec(TypedDict, total=False):
    """The engine's strength in a new game (:class:`camelpy.gui.play.Strength`): ``{"kind": "level",
    "value": "club"}``, ``{"kind": "nodes", "value": 5000}``, ``{"kind": "clock"}``."""

    kind: str
    value: Union[str, int]


class ClockSpec(TypedDict):
    """A new game's clock (:class:`camelpy.gui.play.Clock`): *base* and *inc* seconds."""

    base: float
    inc: float


class ScoreView(TypedDict):
    """A score from White's side: centipawns or moves to mate (one of them ``None``) and its text."""

    cp: Optional[int]
    mate: Optional[int]
    text: str


class InfoView(TypedDict):
    """One search report as the page shows it (the game's engine, or an analysis line)."""

    multipv: int
    depth: Optional[int]
    score: ScoreView
    pv: list[str]
    """The line as moves from square to square (UCI)."""
    sans: list[str]
    nodes: Optional[int]
    nps: Optional[int]
    time: Optional[float]


class VariantAbout(TypedDict):
    """A game as the page offers it (:meth:`camelpy.gui.variants.Variant.about`)."""

    title: str
    multipv: int
    """The most analysis lines its search gives."""
    chess960: bool
    """Whether its games may start from a Chess960 position."""
    fen_hint: str
    """What its position text looks like."""
    sides: list[str]
    """The sides' names, the first player's first (White and Black; Leiserchess's Tangerine and
    Lavender)."""
    levels: dict[str, list[Union[str, int]]]
    """Its engine's named levels, weakest first (name: ``[limit, value]``, the limit ``elo``, ``nodes``
    or ``ms``)."""


# ---- page → server: ops --------------------------------------------------------------------------


class NewGameOp(TypedDict):
    """``new_game``: a game against the engine (:class:`camelpy.gui.play.GameSettings`); *chess960* is
    a position number, ``-1`` for a random one."""

    op: Literal["new_game"]
    variant: str
    human: str
    strength: StrengthSpec
    clock: Optional[ClockSpec]
    fen: Optional[str]
    chess960: Optional[int]


class MoveOp(TypedDict):
    """``move``: the person's move, from-square and to-square with the promotion letter."""

    op: Literal["move"]
    uci: str


class UndoOp(TypedDict):
    """``undo``: take back the person's last move."""

    op: Literal["undo"]


class ResignOp(TypedDict):
    """``resign``."""

    op: Literal["resign"]


class DrawOp(TypedDict):
    """``draw``: offer the engine a draw."""

    op: Literal["draw"]


class LoadOp(TypedDict):
    """``load``: a FEN or a PGN onto the analysis board (a small game: its one-line form)."""

    op: Literal["load"]
    text: str
    variant: str


class GotoOp(TypedDict):
    """``goto``: show the analysis line at *ply*."""

    op: Literal["goto"]
    ply: int


class PlayOp(TypedDict):
    """``play``: moves played on the analysis board from the ply on show."""

    op: Literal["play"]
    moves: list[str]


class AnalyseOp(TypedDict):
    """``analyse``: analyse the board on show with *multipv* lines (until ``stop``)."""

    op: Literal["analyse"]
    multipv: int


class StopOp(TypedDict):
    """``stop``: stop the analysis."""

    op: Literal["stop"]


class WatchOp(TypedDict):
    """``watch``: follow a match's or tournament's folder (one the server may watch)."""

    op: Literal["watch"]
    folder: str


class UnwatchOp(TypedDict):
    """``unwatch``: follow no folder."""

    op: Literal["unwatch"]


class ReplayOp(TypedDict):
    """``replay``: a finished game of the folder watched, by its *id*."""

    op: Literal["replay"]
    id: str


class ReviewOp(TypedDict):
    """``review``: review game *game* (1 for the first) of the PGN *text* at *nodes* a position
    (:mod:`camelpy.gui.review`); a review already running for the tab stops."""

    op: Literal["review"]
    text: str
    nodes: int
    game: int


class ReviewStopOp(TypedDict):
    """``review_stop``: stop the tab's review."""

    op: Literal["review_stop"]


Op = Union[
    NewGameOp,
    MoveOp,
    UndoOp,
    ResignOp,
    DrawOp,
    LoadOp,
    GotoOp,
    PlayOp,
    AnalyseOp,
    StopOp,
    WatchOp,
    UnwatchOp,
    ReplayOp,
    ReviewOp,
    ReviewStopOp,
]
"""Any op."""


# ---- server → page: messages ---------------------------------------------------------------------


class HelloMessage(TypedDict):
    """``hello``, first on every socket: the games (*variants*, each with its engine's levels), the
    version, the session's name and the folders the page may watch (*watchable*: ``folders``, ``roots``,
    ``below``)."""

    type: Literal["hello"]
    version: str
    session: str
    variants: dict[str, VariantAbout]
    watchable: dict[str, list[str]]


class GameMessage(TypedDict):
    """``game``: the game (:meth:`camelpy.gui.play.Game.view`, ``None`` before the first) and whether
    the engine is thinking."""

    type: Literal["game"]
    game: Optional[dict[str, Any]]
    thinking: bool


class EngineInfoMessage(TypedDict):
    """``engine_info``: the game's engine's search while it thinks."""

    type: Literal["engine_info"]
    info: InfoView


class LineMessage(TypedDict):
    """``line``: the analysis board (:meth:`camelpy.gui.lines.Line.view`) and its evaluation's terms."""

    type: Literal["line"]
    line: dict[str, Any]
    trace: str


class AnalysisMessage(TypedDict):
    """``analysis``: whether an analysis runs, with how many lines, and its lines so far, best first."""

    type: Literal["analysis"]
    running: bool
    multipv: int
    lines: list[InfoView]


class WatchSnapshotMessage(TypedDict):
    """``watch_snapshot``: the folder watched, all of it so far
    (:meth:`camelpy.gui.watch.MatchWatch.snapshot`)."""

    type: Literal["watch_snapshot"]
    watch: dict[str, Any]


class WatchEventsMessage(TypedDict):
    """``watch_events``: the folder's new events, and the lines of its files passed over so far."""

    type: Literal["watch_events"]
    folder: str
    events: list[dict[str, Any]]
    skipped: int


class ReplayMessage(TypedDict):
    """``replay``: a finished game, every position of it (:func:`camelpy.gui.watch.replay`)."""

    type: Literal["replay"]
    game: dict[str, Any]


class ReviewProgressMessage(TypedDict):
    """``review_progress``: whether the tab's review runs, and its positions searched of all."""

    type: Literal["review_progress"]
    running: bool
    done: int
    total: int


class ReviewMessage(TypedDict):
    """``review``: the tab's last review (:func:`camelpy.gui.review.review_view`; ``None`` before the
    first)."""

    type: Literal["review"]
    review: Optional[dict[str, Any]]


class NoticeMessage(TypedDict):
    """``notice``: news for the person that is not an error (a draw declined)."""

    type: Literal["notice"]
    message: str


class ErrorMessage(TypedDict):
    """``error``: what went wrong, for the *op* that asked (``engine`` or ``analyse`` for a search,
    ``review`` for a review that failed, ``None`` for a message that was not an op)."""

    type: Literal["error"]
    op: Optional[str]
    message: str


ServerMessage = Union[
    HelloMessage,
    GameMessage,
    EngineInfoMessage,
    LineMessage,
    AnalysisMessage,
    WatchSnapshotMessage,
    WatchEventsMessage,
    ReplayMessage,
    ReviewProgressMessage,
    ReviewMessage,
    NoticeMessage,
    ErrorMessage,
]
"""Any message."""


def _kinds(definitions: tuple[type, ...], key: str) -> dict[str, type]:
    """The definitions by the name their *key* field holds (its one ``Literal`` value)."""
    table = {}
    for definition in definitions:
        annotation = definition.__annotations__[key]
        (name,) = annotation.__args__
        table[name] = definition
    return table


OPS: dict[str, type] = _kinds(Op.__args__, "op")  # type: ignore[attr-defined]
"""The ops by name."""

MESSAGES: dict[str, type] = _kinds(ServerMessage.__args__, "type")  # type: ignore[attr-defined]
"""The messages by name."""

NOT_FROM_THE_PAGE = frozenset({"unwatch"})
"""Ops the page does not send, for other clients (a script, a test): the page changes folder with
``watch`` and keeps following one."""

NOT_READ_BY_THE_PAGE: dict[str, frozenset[str]] = {
    "hello": frozenset({"version", "session"}),
    "analysis": frozenset({"multipv"}),  # the page's own select shows it
    "watch_events": frozenset({"folder"}),  # a page watches one folder at a time
    "error": frozenset({"op"}),  # for scripts and tests: the page shows the message
}
"""Fields the page does not read, by message: they are there for other clients."""

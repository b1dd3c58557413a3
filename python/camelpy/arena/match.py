"""``camelpy match``: two engines, game pairs from an opening book, optional SPRT.

Every opening is played twice with colours swapped; results are counted from the first engine's side
as W/D/L and as the pentanomial of complete pairs, which feed the Elo estimate, LOS, normalized Elo
and the GSPRT (:mod:`camelpy.arena.stats`). With an SPRT the match stops as soon as the LLR crosses a
bound. Given an output folder, each game is saved as it finishes (JSON lines and PGN), so running the
same command again resumes an interrupted match; the summary is printed and saved as
``summary.txt`` and ``summary.json``.

``--game`` picks the game (:data:`GAMES`): chess between UCI engines, Leiserchess between engines on the
course's protocol (:mod:`camelpy.arena.leiserchess`, as ``camelpy leiserchess match``), MiniChess between
the course's file-protocol programs (:mod:`camelpy.arena.minichess`, as ``camelpy minichess match``); an
option of another game is refused, naming it.

>>> from camelpy.arena.referee import GameRecord
>>> from camelpy.arena.openings import Opening
>>> games = [GameRecord("new", "old", Opening(), "1-0", "checkmate", "", pair=0, game=0),
...          GameRecord("old", "new", Opening(), "1/2-1/2", "stalemate", "", pair=0, game=1)]
>>> summary = summarize("new", "old", games)
>>> summary.wins, summary.draws, summary.losses, summary.pentanomial
(1, 1, 0, (0, 0, 0, 1, 0))
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from camelpy import cluster
from camelpy._args import brief, int_arg, items_arg, path_arg, real_arg, shown
from camelpy._quote import quote
from camelpy.arena import leiserchess, minichess, stats
from camelpy.arena.engines import EngineConfig, distinct_names, parse_engine
from camelpy.arena.events import EventLog
from camelpy.arena.leiserchess import DEFAULT_MAX_PLIES
from camelpy.arena.openings import MAX_PAIRS, Opening, book_digest, choose, load_openings
from camelpy.arena.referee import (
    DEFAULT_HANG_TIMEOUT,
    NO_ADJUDICATION,
    Adjudication,
    GameRecord,
    MatchResult,
    check_carry,
    check_sprt,
    summarize,
)
from camelpy.arena.runner import GameLog, GameSpec, Progress, read_log, run_schedule, stop_on_terminate
from camelpy.arena.timeuse import time_use

__all__ = ["MatchResult", "match_status", "run_match", "summarize"]


def run_match(
    engine1: EngineConfig,
    engine2: EngineConfig,
    *,
    rounds: int,
    openings: Sequence[Opening] = (),
    order: str = "sequential",
    seed: int = 0,
    start: int | None = None,
    concurrency: int | None = None,
    adjudication: Adjudication = NO_ADJUDICATION,
    sprt: stats.SPRT | None = None,
    out: str | Path | None = None,
    hang_timeout: float = DEFAULT_HANG_TIMEOUT,
    quiet: bool = True,
    backend: str = "local",
    carry: stats.Tally | None = None,
) -> MatchResult:
    """Plays *rounds* game pairs between two engines and returns the score from *engine1*'s side.

    With *sprt* the match stops as soon as the LLR (over complete pairs) crosses a bound. With *out*
    every game is saved as it finishes (``games.jsonl``, ``games.pgn``) and a later call with the same
    folder and settings resumes: games already played are not played again. A live line is shown on a
    terminal unless *quiet*. *concurrency* games are played at once (default 1); with
    ``backend="ray"`` the pairs are tasks on a Ray cluster, *concurrency* pairs at once (default: the
    cluster's CPUs), with the same files, statistics and SPRT stop (see
    :func:`camelpy.arena.runner.run_schedule`).

    *carry* (:func:`camelpy.arena.stats.carried`) continues a match whose first pairs were played
    elsewhere, as another machine's folder that this one has not got: those whole pairs count in the
    score, the Elo and the SPRT (which may stop at once), and the openings go on after theirs: *start*
    defaults to the pair after the carried ones (as for a run that began at the first opening; 1
    without *carry*), and counts round the book again past its end (:func:`camelpy.arena.openings.choose`).

    :raises: :exc:`ValueError` for bad settings (*rounds* outside 1..:data:`MAX_PAIRS`, a *concurrency*
        below 1, a *hang_timeout* not above 0, …), an engine that cannot start, or an *out* folder that
        holds a run with other settings; :exc:`TypeError` for an argument of the wrong type. The
        settings are checked before any engine starts.
    """
    for label, engine in (("engine1", engine1), ("engine2", engine2)):
        if not isinstance(engine, EngineConfig):
            raise TypeError(f"{label} must be an EngineConfig, got {type(engine).__name__} {shown(engine)}")
    int_arg(rounds, "rounds", 1, MAX_PAIRS)
    if concurrency is not None:
        int_arg(concurrency, "concurrency", 1)
    cluster.check_backend(backend)
    if not isinstance(adjudication, Adjudication):
        raise TypeError(f"adjudication must be an Adjudication, got {type(adjudication).__name__}")
    check_sprt(sprt)
    if carry is not None:
        check_carry(carry)
    if out is not None:
        path_arg(out, "out")
    real_arg(hang_timeout, "hang_timeout", above=0)
    engine1, engine2 = distinct_names(engine1, engine2)
    if start is None:
        start = 1 + (sum(carry.pentanomial) if carry is not None else 0)
    chosen = choose(openings, rounds, order=order, seed=seed, start=start)
    specs = []
    for pair, opening in enumerate(chosen):
        specs.append(GameSpec(pair, 0, 0, 1, opening))
        specs.append(GameSpec(pair, 1, 1, 0, opening))
    records: list[GameRecord] = []
    log: GameLog | None = None
    events: EventLog | None = None
    if out is not None:
        settings = {
            "engines": [engine1.to_json(), engine2.to_json()],
            "openings": book_digest(openings),
            "order": [order, seed, start],
            "adjudication": dataclasses.asdict(adjudication),
            "sprt": dataclasses.asdict(sprt) if sprt else None,
        }
        if carry is not None:  # only then, so that the folders of runs without one still resume
            settings["carry"] = dataclasses.asdict(carry)
        log = GameLog(out, settings, f"{engine1.name} vs {engine2.name}")
        records = log.open()
        events = EventLog(out)
    done = {(r.pair, r.game) for r in records}
    result = summarize(engine1.name, engine2.name, records, sprt, str(out) if out else None, carry)
    todo = [] if result.decision else [s for s in specs if s.key not in done]
    progress = Progress(len(specs), len(records), quiet=quiet)
    if events is not None:
        events.begin(
            "match",
            f"{engine1.name} vs {engine2.name}",
            [engine1.name, engine2.name],
            len(specs),
            dataclasses.asdict(sprt) if sprt else None,
        )
        events.write("status", result.status_event())

    def on_game(record: GameRecord) -> bool:
        nonlocal result
        records.append(record)
        if log is not None:
            log.append(record)
        result = summarize(engine1.name, engine2.name, records, sprt, result.out, carry)
        if events is not None:
            events.write("status", result.status_event())
        progress.update(len(records), result.status_line())
        return result.decision is not None

    ended = "interrupted"
    try:
        run_schedule(
            [engine1, engine2],
            todo,
            on_game,
            concurrency=concurrency,
            adjudication=adjudication,
            hang_timeout=hang_timeout,
            backend=backend,
            observer=events.write if events is not None else None,
        )
        ended = "stopped" if result.decision else "finished"
    finally:
        progress.close()
        result = _with_time_use(result, records)
        if events is not None:
            events.emit("end", reason=ended)
        if log is not None:
            (log.dir / "summary.txt").write_text(result.summary() + "\n", encoding="utf-8")
            (log.dir / "summary.json").write_text(
                json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8"
            )
    return result


def match_status(out: str | Path) -> MatchResult:
    """The score so far of the match saved in the folder *out* (``camelpy match --out``), as the match
    itself would print it: its whole pairs, Elo, SPRT and clock use, and the pairs it carried. The
    folder is only read, never written, so this can follow a match that is still running (its game
    being written is left out) or one that stopped on a machine without its engines.

    >>> import tempfile
    >>> match_status(tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cannot read games log '.../games.jsonl': No such file or directory

    :raises: :exc:`TypeError` for an *out* that is not a path; :exc:`ValueError` quoting the file for a
        folder without a match's ``games.jsonl`` (missing, empty, unreadable, or a tournament's log) or
        with settings a match does not write.
    """
    header, records = read_log(out)
    jsonl = quote(str(Path(out) / "games.jsonl"))
    settings = header.get("settings")
    if not isinstance(settings, dict) or not _MATCH_SETTINGS <= set(settings) <= _MATCH_SETTINGS | {"carry"}:
        raise ValueError(f"{jsonl} is not a chess match's games log (a tournament's, or another game's?)")
    engines = settings["engines"] if isinstance(settings["engines"], list) else []
    names = [e.get("name") if isinstance(e, dict) else None for e in engines]
    name1, name2 = (names + [None, None])[:2]
    if len(names) != 2 or not isinstance(name1, str) or not isinstance(name2, str):
        raise ValueError(f"{jsonl} holds settings a match does not write: not two named engines")
    try:
        sprt = stats.SPRT(**settings["sprt"]) if settings.get("sprt") is not None else None
        saved = settings.get("carry")
        carry = None
        if saved is not None:
            carry = stats.carried(saved["wins"], saved["draws"], saved["losses"], saved["pentanomial"])
        result = summarize(name1, name2, records, sprt, str(out), carry)
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{jsonl} holds settings a match does not write: {brief(err)}") from None
    return _with_time_use(result, records)


_MATCH_SETTINGS = {"engines", "openings", "order", "adjudication", "sprt"}
"""The keys of the settings :func:`run_match` saves in its log's header (and ``carry`` for a carried run)."""


def _with_time_use(result: MatchResult, records: Sequence[GameRecord]) -> MatchResult:
    """*result* with its two engines' clock use in *records* (:func:`camelpy.arena.timeuse.time_use`),
    for those that played on a clock."""
    uses = tuple(time_use(records, name) for name in (result.engine1, result.engine2))
    if any(use.games for use in uses):
        result = dataclasses.replace(result, time_use=tuple(use for use in uses if use.games))
    return result


def _keyvalues(words: Sequence[str] | None, allowed: dict[str, type], what: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for word in items_arg(words, what, str) if words is not None else ():
        key, sep, text = word.partition("=")
        if not sep or key not in allowed:
            expected = ", ".join(k + "=" for k in allowed)
            raise ValueError(f"bad {what} setting {quote(word)}: expected {expected}")
        kind = allowed[key]
        try:
            values[key] = text.lower() in ("1", "true", "yes", "on") if kind is bool else kind(text)
        except ValueError:
            raise ValueError(f"bad {what} setting {quote(word)}: not a {kind.__name__}") from None
    return values


def adjudication_from_args(
    draw: Sequence[str] | None, resign: Sequence[str] | None, maxmoves: int | None
) -> Adjudication:
    """An :class:`Adjudication` from fastchess-style ``movenumber= movecount= score=`` words.

    :raises: :exc:`ValueError` quoting a bad word or naming a value out of range, :exc:`TypeError` for
        *draw* or *resign* not a list of strings (or ``None``), or a *maxmoves* not an integer.
    """
    d = _keyvalues(draw, {"movenumber": int, "movecount": int, "score": int}, "draw")
    r = _keyvalues(resign, {"movecount": int, "score": int, "twosided": bool}, "resign")
    kwargs: dict[str, Any] = {"maxmoves": maxmoves}
    if draw is not None:
        kwargs["draw_movenumber"] = d.get("movenumber", 40)
        kwargs.update({f"draw_{k}": v for k, v in d.items() if k != "movenumber"})
    if resign is not None:
        kwargs["resign_movecount"] = r.get("movecount", 3)
        kwargs.update({f"resign_{k}": v for k, v in r.items() if k != "movecount"})
    return Adjudication(**kwargs)


def add_common_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by ``match`` and ``tournament`` command lines."""
    p.add_argument("--concurrency", type=int, default=None, help="games at once (default 1)")
    p.add_argument("--out", help="folder for games.jsonl, games.pgn and the summary; rerun to resume")
    p.add_argument("--quiet", action="store_true", help="no live progress line")
    cluster.add_ray_argument(p, "play the game pairs")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy match`` options."""
    p.add_argument(
        "--engine",
        nargs="+",
        action="append",
        metavar="WORD",
        help="engine: a command (quoted), then name= tc=40/60+0.6 st= nodes= depth= timemargin=ms "
        "option.Name=Value",
    )
    p.add_argument("--each", nargs="+", default=[], metavar="WORD", help="settings applied to both engines")
    p.add_argument("--openings", help="EPD or PGN book (default: the start position)")
    p.add_argument("--format", choices=["epd", "pgn"], help="book format (default: from the file name)")
    p.add_argument("--order", choices=["sequential", "random"], default="sequential")
    p.add_argument("--seed", type=int, default=0, help="seed of the random opening order")
    p.add_argument(
        "--start",
        type=int,
        help="first pair's opening (1-based; past the book's end it goes round again; default 1, or "
        "the pair after the carried ones)",
    )
    p.add_argument("--plies", type=int, help="cut PGN openings after this many plies")
    p.add_argument("--rounds", type=int, default=1, help="game pairs to play (at most, with --sprt)")
    p.add_argument(
        "--sprt", nargs="+", metavar="K=V", help="elo0= elo1= alpha= beta= model=normalized|logistic"
    )
    p.add_argument(
        "--carry",
        nargs=4,
        metavar="K=V",
        help="wins= draws= losses= ptnml=a,b,c,d,e: whole pairs of an earlier run of this match (its"
        " summary's counts), counted in the Elo and the SPRT; the openings go on after them",
    )
    p.add_argument(
        "--draw", nargs="*", metavar="K=V", help="draw adjudication: movenumber= movecount= score="
    )
    p.add_argument(
        "--resign", nargs="*", metavar="K=V", help="resign adjudication: movecount= score= twosided="
    )
    p.add_argument("--maxmoves", type=int, help="adjudicate a draw after this many moves")
    p.add_argument(
        "--game",
        choices=GAMES,
        default="chess",
        help="leiserchess: engines speaking the course's protocol, refereed as `camelpy leiserchess match`;"
        " minichess: the course's file-protocol programs, played by its runner as `camelpy minichess match`",
    )
    p.add_argument("--rules", type=int, choices=[2016, 2018], help="Leiserchess: the rule set (default 2016)")
    p.add_argument("--random-plies", type=int, help="Leiserchess: random plies opening each pair (default 2)")
    p.add_argument("--max-plies", type=int, help="Leiserchess: a draw after this many plies (default 400)")
    p.add_argument(
        "--hang-timeout",
        type=float,
        default=DEFAULT_HANG_TIMEOUT,
        help="seconds before a silent engine loses",
    )
    p.add_argument(
        "--status",
        metavar="DIR",
        help="print the score so far of the match saved in DIR (its --out), running or stopped, and exit;"
        " no other option",
    )
    add_common_arguments(p)


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy match`` from parsed arguments; prints the summary (with ``--status DIR``, that of
    the match saved in DIR: :func:`match_status`)."""
    if args.status is not None:
        given = [flag for flag in _given(args) if flag != "--status"]
        if given:
            raise ValueError(f"--status reads a match's folder and takes no other option, got {given[0]}")
        print(match_status(args.status).summary())
        return 0
    engines = args.engine or []
    if len(engines) != 2:
        raise ValueError(f"a match needs exactly two --engine options, got {len(engines)}")
    engine1, engine2 = (parse_engine(words, args.each) for words in args.engine)
    _refuse_other_games(args)
    with stop_on_terminate():
        return _GAMES[args.game].play(args, engine1, engine2)


def _given(args: argparse.Namespace) -> list[str]:
    """The ``camelpy match`` options of *args* that differ from their defaults, as flags, in the order
    of the command's usage."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    defaults = vars(parser.parse_args([]))
    values = vars(args)
    given = [key for key in defaults if values.get(key, defaults[key]) != defaults[key]]
    return ["--" + key.replace("_", "-") for key in given]


def _chess(args: argparse.Namespace, engine1: EngineConfig, engine2: EngineConfig) -> int:
    """``camelpy match`` (``--game chess``, the default): :func:`run_match` between two UCI engines."""
    book = load_openings(args.openings, fmt=args.format, plies=args.plies) if args.openings else []
    sprt = _sprt(args.sprt)
    result = run_match(
        engine1,
        engine2,
        rounds=args.rounds,
        openings=book,
        order=args.order,
        seed=args.seed,
        start=args.start,
        concurrency=args.concurrency,
        adjudication=adjudication_from_args(args.draw, args.resign, args.maxmoves),
        sprt=sprt,
        out=args.out,
        hang_timeout=args.hang_timeout,
        quiet=args.quiet,
        backend=cluster.ray_backend(args.ray, "camelpy match --ray"),
        carry=_carry(args.carry),
    )
    print(result.summary())
    return 0


def _sprt(words: Sequence[str] | None) -> stats.SPRT | None:
    if not words:
        return None
    kw = _keyvalues(
        words, {"elo0": float, "elo1": float, "alpha": float, "beta": float, "model": str}, "sprt"
    )
    return stats.SPRT(**kw)


def _carry(words: Sequence[str] | None) -> stats.Tally | None:
    """The ``--carry wins= draws= losses= ptnml=a,b,c,d,e`` words as a checked :class:`stats.Tally`.

    :raises: :exc:`ValueError` quoting a bad or missing word, or naming counts that disagree.
    """
    if words is None:
        return None
    kw = _keyvalues(words, {"wins": int, "draws": int, "losses": int, "ptnml": str}, "carry")
    missing = [key + "=" for key in ("wins", "draws", "losses", "ptnml") if key not in kw]
    if missing:
        raise ValueError(f"--carry needs wins= draws= losses= ptnml=, missing {' '.join(missing)}")
    try:
        cells = [int(cell) for cell in kw["ptnml"].split(",")]
    except ValueError:
        raise ValueError(
            f"bad carry setting {quote('ptnml=' + kw['ptnml'])}: expected five integers a,b,c,d,e"
        ) from None
    return stats.carried(kw["wins"], kw["draws"], kw["losses"], cells)


def _game_options(args: argparse.Namespace) -> list[tuple[str, frozenset[str]]]:
    """The options given (not left at their defaults), each with the games it is for, in the order of the
    command's usage."""
    chess = frozenset({"chess"})
    return [
        (flag, games)
        for flag, given, games in (
            ("--openings", args.openings is not None, chess),
            ("--format", args.format is not None, chess),
            ("--order", args.order != "sequential", chess),
            ("--start", args.start is not None, chess),
            ("--plies", args.plies is not None, chess),
            ("--carry", args.carry is not None, chess),
            ("--draw", args.draw is not None, chess),
            ("--resign", args.resign is not None, chess),
            ("--maxmoves", args.maxmoves is not None, chess),
            ("--rules", args.rules is not None, frozenset({"leiserchess"})),
            ("--random-plies", args.random_plies is not None, frozenset({"leiserchess"})),
            ("--max-plies", args.max_plies is not None, frozenset({"leiserchess"})),
            ("--ray", args.ray is not None, chess),
            ("--sprt", args.sprt is not None, frozenset({"chess", "leiserchess"})),
            ("--concurrency", args.concurrency is not None, frozenset({"chess", "leiserchess"})),
        )
        if given
    ]


def _refuse_other_games(args: argparse.Namespace) -> None:
    """Refuses the first option given that is not for ``--game``'s game.

    :raises: :exc:`ValueError` naming the option and what the game does instead.
    """
    for flag, games in _game_options(args):
        if args.game not in games:
            if flag == "--ray":
                where = _GAMES[args.game].called
                raise ValueError(f"--ray plays chess matches; {where} match runs on this machine")
            raise ValueError(_GAMES[args.game].why_not.format(flag=flag))


def _minichess(args: argparse.Namespace, engine1: EngineConfig, engine2: EngineConfig) -> int:
    """``camelpy match --game minichess``: :func:`camelpy.arena.minichess.play_match` between the two
    engines' commands, ``--rounds`` pairs of games (each player White once a pair) at the engines' ``st=``
    seconds a move (the course's 10 by default); it prints what ``camelpy minichess match`` prints."""
    seconds = {engine.st for engine in (engine1, engine2)}
    if len(seconds) != 1:
        raise ValueError("a MiniChess match gives both programs the same time: use st= in --each")
    for engine in (engine1, engine2):
        unsupported = [
            word
            for word, given in (
                ("tc=", engine.tc is not None),
                ("nodes=", engine.nodes is not None),
                ("depth=", engine.depth is not None),
                ("option.", bool(engine.options)),
            )
            if given
        ]
        if unsupported:
            raise ValueError(
                f"{unsupported[0]} is not for MiniChess: a file-protocol program has st= seconds a move only"
            )
    st = seconds.pop()
    minichess.play_match(
        [shlex.join(engine1.command), shlex.join(engine2.command)],
        2 * int_arg(args.rounds, "--rounds", 1, MAX_PAIRS),
        minichess.DEFAULT_TIME_PER_MOVE if st is None else st,
        out=args.out,
    )
    return 0


def _leiserchess(args: argparse.Namespace, engine1: EngineConfig, engine2: EngineConfig) -> int:
    """``camelpy match --game leiserchess``: :func:`camelpy.arena.leiserchess.run_match` with
    this command's options (:func:`_refuse_other_games` has refused the chess-only ones)."""
    if args.out is None:
        raise ValueError("a Leiserchess match needs --out (its games and summary are saved there)")
    return leiserchess.play_and_print(
        (engine1, engine2),
        rounds=args.rounds,
        out=args.out,
        rules=2016 if args.rules is None else args.rules,
        random_plies=leiserchess.DEFAULT_RANDOM_PLIES if args.random_plies is None else args.random_plies,
        seed=args.seed,
        max_plies=DEFAULT_MAX_PLIES if args.max_plies is None else args.max_plies,
        concurrency=args.concurrency or 1,
        sprt=_sprt(args.sprt),
        quiet=args.quiet,
    )


@dataclasses.dataclass(frozen=True)
class _Game:
    """What ``camelpy match --game`` does for one game."""

    play: Callable[[argparse.Namespace, EngineConfig, EngineConfig], int]
    """Plays the match from the parsed arguments and the two engines; returns the exit status."""
    called: str
    """The game's match in words (``a Leiserchess``)."""
    why_not: str
    """The game's answer to an option of another game (``{flag}`` is the option)."""


_GAMES = {
    "chess": _Game(_chess, "a chess", "{flag} is for Leiserchess matches (--game leiserchess)"),
    "leiserchess": _Game(
        _leiserchess,
        "a Leiserchess",
        "{flag} is for chess: a Leiserchess match opens with --random-plies random moves and ends"
        " by the rules or --max-plies",
    ),
    "minichess": _Game(
        _minichess,
        "a MiniChess",
        "{flag} is not for MiniChess: a MiniChess match plays --rounds pairs of the course's runner"
        " games from the start, at the engines' st= seconds a move",
    ),
}
"""The games ``camelpy match --game`` plays, by name (:data:`GAMES`)."""

GAMES = tuple(_GAMES)
"""The games ``camelpy match --game`` plays: chess between UCI engines (the default, refereed by
:mod:`camelpy.arena.referee`), Leiserchess between engines on the course's protocol
(:mod:`camelpy.arena.leiserchess`) and MiniChess between the course's file-protocol programs
(:mod:`camelpy.arena.minichess`)."""

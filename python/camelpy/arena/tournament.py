"""``camelpy tournament config.toml``: a gauntlet or round-robin between several UCI engines, PGN out,
and a rating table by maximum likelihood (:mod:`camelpy.arena.ratings`).

The config (TOML)::

    format = "round-robin"        # or "gauntlet": the first `gauntlet` players (default 1) meet all others
    rounds = 2                    # game pairs per pairing (an opening played with colours swapped)
    concurrency = 2
    anchor = "stockfish"          # default: the first player; rated at anchor_elo (default 0)
    anchor_elo = 0
    out = "tournament-out"        # optional: games.jsonl, games.pgn, ratings.txt; rerun to resume

    [openings]                    # optional: file, format (epd|pgn), order (sequential|random), seed, plies
    file = "suites/bratko_kopec.epd"

    [adjudication]                # optional
    maxmoves = 200
    draw = { movenumber = 40, movecount = 8, score = 10 }
    resign = { movecount = 3, score = 600 }

    [each]                        # defaults for every player
    tc = "10+0.1"

    [[players]]                   # cmd, name, tc / st / nodes / depth, timemargin, options, family
    name = "sf"
    cmd = "/usr/games/stockfish"
    options = { Hash = 16 }

Players of the same ``family`` (versions of one engine, say) are never paired with each other.

Leiserchess engines (``camelpy leiserchess`` or any engine speaking the course's protocol) play a
tournament too: ``game = "leiserchess"`` and a ``[leiserchess]`` table (``rules`` 2016 or 2018,
``random_plies`` opening each pair, ``seed``, ``max_plies``) in place of ``[openings]`` and
``[adjudication]``; the games are refereed by camelpy's rules as in ``camelpy leiserchess match``
(:mod:`camelpy.arena.leiserchess`) and saved as ``games.jsonl`` and ``games.txt``.

>>> config = parse_config('''
... [[players]]
... name = "a"
... cmd = "engine-a"
... nodes = 100
... [[players]]
... name = "b"
... cmd = "engine-b"
... nodes = 100
... ''')
>>> [(config.players[s.white].name, config.players[s.black].name) for s in schedule(config)]
[('a', 'b'), ('b', 'a')]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from camelpy import cluster
from camelpy._args import (
    choice_arg,
    int_arg,
    items_arg,
    opt_int_arg,
    opt_str_arg,
    path_arg,
    read_text,
    real_arg,
    shown,
    str_arg,
)
from camelpy._quote import quote
from camelpy.arena.engines import EngineConfig, engine_from_mapping
from camelpy.arena.events import EventLog
from camelpy.arena.leiserchess import (
    DEFAULT_MAX_PLIES,
    DEFAULT_RANDOM_PLIES,
    MAX_RANDOM_PLIES,
    run_pairs,
)
from camelpy.arena.match import adjudication_from_args
from camelpy.arena.openings import MAX_PAIRS, Opening, book_digest, choose, load_openings
from camelpy.arena.ratings import RatingTable, fit_ratings
from camelpy.arena.referee import DEFAULT_HANG_TIMEOUT, Adjudication, GameRecord
from camelpy.arena.runner import GameLog, GameSpec, Progress, run_schedule, stop_on_terminate
from camelpy.leiserchess import RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

__all__ = [
    "TournamentConfig",
    "TournamentInterrupted",
    "TournamentResult",
    "parse_config",
    "run_tournament",
    "schedule",
    "standings",
]

MAX_CONFIG_BYTES = 1 << 20
"""Largest tournament config read (1 MiB): a config of hundreds of players is tens of kilobytes."""


@dataclasses.dataclass(frozen=True)
class TournamentConfig:
    """A parsed tournament config."""

    players: tuple[EngineConfig, ...]
    """The engines."""
    families: tuple[str, ...] = ()
    """Each player's family ('' for none); same-family players are not paired."""
    format: str = "round-robin"
    """``round-robin`` or ``gauntlet``."""
    gauntlet: int = 1
    """How many leading players run the gauntlet."""
    rounds: int = 1
    """Game pairs per pairing."""
    concurrency: int = 1
    """Games at once."""
    openings: tuple[Opening, ...] = ()
    """The book (empty: the start position)."""
    order: str = "sequential"
    """Opening order."""
    seed: int = 0
    """Seed of a random opening order."""
    adjudication: Adjudication = Adjudication()
    """Adjudication rules."""
    anchor: str = ""
    """The player whose rating is fixed."""
    anchor_elo: float = 0.0
    """The anchor's Elo."""
    out: str | None = None
    """Output folder."""
    hang_timeout: float = DEFAULT_HANG_TIMEOUT
    """Seconds before a silent engine loses (node and depth limits)."""
    game: str = "chess"
    """``chess`` or ``leiserchess``."""
    rules: int = 2016
    """Leiserchess: the rule set."""
    random_plies: int = DEFAULT_RANDOM_PLIES
    """Leiserchess: random plies opening each pair (seeded by :attr:`seed`)."""
    max_plies: int = DEFAULT_MAX_PLIES
    """Leiserchess: plies after which a game is a draw."""

    def __post_init__(self) -> None:
        players = items_arg(self.players, "players", EngineConfig)
        if len(players) < 2:
            raise ValueError(f"a tournament needs at least two players, got {len(players)}")
        families = items_arg(self.families, "families", str)
        if families and len(families) != len(players):
            raise ValueError(f"families must name one family per player, got {shown(families)}")
        choice_arg(self.format, "format", FORMATS)
        int_arg(self.gauntlet, "gauntlet", 1)
        int_arg(self.rounds, "rounds", 1, MAX_PAIRS)
        int_arg(self.concurrency, "concurrency", 1)
        items_arg(self.openings, "openings", Opening)
        choice_arg(self.order, "order", ORDERS)
        int_arg(self.seed, "seed", None)
        if not isinstance(self.adjudication, Adjudication):
            raise TypeError(f"adjudication must be an Adjudication, got {type(self.adjudication).__name__}")
        str_arg(self.anchor, "anchor")
        real_arg(self.anchor_elo, "anchor_elo")
        opt_str_arg(self.out, "out")
        real_arg(self.hang_timeout, "hang_timeout", above=0)
        choice_arg(self.game, "game", GAMES)
        if int_arg(self.rules, "rules", None) not in RULES:
            raise ValueError(f"rules must be 2016 or 2018, got {self.rules}")
        int_arg(self.random_plies, "random_plies", 0, MAX_RANDOM_PLIES)
        int_arg(self.max_plies, "max_plies", 2)


FORMATS = ("round-robin", "gauntlet")
"""The tournament formats."""

ORDERS = ("sequential", "random")
"""The opening orders."""

GAMES = ("chess", "leiserchess")
"""The games a tournament plays (each one's games are played by its entry in ``_PLAY``)."""


_TOP_KEYS = {
    "event",
    "format",
    "gauntlet",
    "rounds",
    "concurrency",
    "anchor",
    "anchor_elo",
    "out",
    "hang_timeout",
    "openings",
    "adjudication",
    "each",
    "players",
    "game",
    "leiserchess",
}

_LEISERCHESS_KEYS = {"rules", "random_plies", "seed", "max_plies"}


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"[{key}] must be a table, got {shown(value)}")
    return value


def _setting(check: Any, value: object, *args: Any, **kwargs: Any) -> Any:
    """*check* (an ``_args`` checker) on a value from the config: the file is data, so a value of the
    wrong type is a :exc:`ValueError` too."""
    try:
        return check(value, *args, **kwargs)
    except TypeError as err:
        raise ValueError(str(err)) from None


def parse_config(text: str, base_dir: str | Path = ".") -> TournamentConfig:
    """Parses TOML config text; relative file paths are taken from *base_dir*.

    :raises: :exc:`ValueError` quoting the bad key or value, :exc:`TypeError` for a *text* that is not a
        string or a *base_dir* that is not a path.
    """
    str_arg(text, "text")
    base_dir = path_arg(base_dir, "base_dir") if base_dir != "" else "."  # "": the current folder
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"bad TOML: {err}") from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ValueError(f"unknown config keys: {sorted(unknown)!r}")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        raise ValueError("the config needs at least two [[players]]")
    each = dict(_table(data, "each"))
    players, families = [], []
    for number, raw in enumerate(raw_players, start=1):
        if not isinstance(raw, Mapping):
            raise ValueError(f"player {number} must be a table, got {shown(raw)}")
        merged = {**each, **raw}
        if "options" in each and "options" in raw:
            merged["options"] = {**each["options"], **raw["options"]}
        try:
            players.append(engine_from_mapping(merged))
        except ValueError as err:
            raise ValueError(f"player {number}: {err}") from None
        families.append(str(raw.get("family", "")))
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"player names must be unique, got {shown(names)}")
    fmt = _setting(choice_arg, data.get("format", "round-robin"), "format", FORMATS)
    game = _setting(choice_arg, data.get("game", "chess"), "game", GAMES)
    lc = _table(data, "leiserchess")
    if game == "leiserchess":
        misplaced = sorted({"openings", "adjudication"} & set(data))
        if misplaced:
            raise ValueError(
                f"a Leiserchess tournament has no [{misplaced[0]}]: its openings are random plies and its"
                " draws the rules' (see [leiserchess])"
            )
        unknown_lc = set(lc) - _LEISERCHESS_KEYS
        if unknown_lc:
            raise ValueError(f"unknown [leiserchess] keys: {sorted(unknown_lc)!r}")
    elif lc:
        raise ValueError('[leiserchess] needs game = "leiserchess"')
    book: list[Opening] = []
    op = _table(data, "openings")
    order = _setting(choice_arg, op.get("order", "sequential"), "openings.order", ORDERS)
    seed = _setting(int_arg, op.get("seed", 0), "openings.seed", None)
    if game == "leiserchess":
        seed = _setting(int_arg, lc.get("seed", 0), "leiserchess.seed", 0, 2**63)
    if "file" in op:
        book_format = op.get("format")
        if book_format is not None:
            _setting(choice_arg, book_format, "openings.format", ("epd", "pgn"))
        plies = _setting(opt_int_arg, op.get("plies"), "openings.plies", 0)
        file = _setting(str_arg, op["file"], "openings.file")
        book = load_openings(Path(base_dir) / file, fmt=book_format, plies=plies)
    adj = _table(data, "adjudication")

    def words(key: str) -> list[str] | None:
        table = adj.get(key)
        if table is None:
            return None
        if not isinstance(table, Mapping):
            raise ValueError(f"adjudication.{key} must be a table, got {shown(table)}")
        return [f"{k}={v}" for k, v in table.items()]

    maxmoves = _setting(opt_int_arg, adj.get("maxmoves"), "adjudication.maxmoves", 1)
    adjudication = adjudication_from_args(words("draw"), words("resign"), maxmoves)
    anchor = _setting(str_arg, data.get("anchor", names[0]), "anchor")
    if anchor not in names:
        raise ValueError(f"anchor {quote(anchor)} is not a player ({', '.join(names)})")
    out = _setting(str_arg, data.get("out", ""), "out")
    return TournamentConfig(
        players=tuple(players),
        families=tuple(families),
        format=fmt,
        gauntlet=_setting(int_arg, data.get("gauntlet", 1), "gauntlet", 1),
        rounds=_setting(int_arg, data.get("rounds", 1), "rounds", 1, MAX_PAIRS),
        concurrency=_setting(int_arg, data.get("concurrency", 1), "concurrency", 1),
        openings=tuple(book),
        order=order,
        seed=seed,
        adjudication=adjudication,
        anchor=anchor,
        anchor_elo=_setting(real_arg, data.get("anchor_elo", 0.0), "anchor_elo"),
        out=str(Path(base_dir) / out) if out else None,
        hang_timeout=_setting(
            real_arg, data.get("hang_timeout", DEFAULT_HANG_TIMEOUT), "hang_timeout", above=0
        ),
        game=game,
        rules=_setting(int_arg, lc.get("rules", 2016), "leiserchess.rules", None),
        random_plies=_setting(
            int_arg,
            lc.get("random_plies", DEFAULT_RANDOM_PLIES),
            "leiserchess.random_plies",
            0,
            MAX_RANDOM_PLIES,
        ),
        max_plies=_setting(int_arg, lc.get("max_plies", DEFAULT_MAX_PLIES), "leiserchess.max_plies", 2),
    )


def _check_config(config: object) -> None:
    if not isinstance(config, TournamentConfig):
        raise TypeError(f"config must be a TournamentConfig, got {type(config).__name__} {shown(config)}")


def pairings(config: TournamentConfig) -> list[tuple[int, int]]:
    """The (i, j) pairings the format asks for, same-family pairings left out."""
    _check_config(config)
    n = len(config.players)
    if config.format == "gauntlet":
        seeds = range(min(max(config.gauntlet, 1), n - 1))
        found = [(i, j) for i in seeds for j in range(n) if j not in seeds]
    else:
        found = [(i, j) for i in range(n) for j in range(i + 1, n)]
    families = config.families or ("",) * n
    return [(i, j) for i, j in found if not families[i] or families[i] != families[j]]


def standings(names: list[str], records: list[GameRecord]) -> list[list[object]]:
    """``[name, points, games]`` for each player, most points first (fewest games first among equal
    points, then by name): the ``standings`` event's rows.

    >>> from camelpy.arena.openings import Opening
    >>> standings(["a", "b", "c"], [GameRecord("a", "b", Opening(), "0-1", "checkmate", "")])
    [['b', 1.0, 1], ['c', 0.0, 0], ['a', 0.0, 1]]
    """
    points = dict.fromkeys(names, 0.0)
    games = dict.fromkeys(names, 0)
    for record in records:
        if record.result == "*":
            continue
        for name in (record.white, record.black):
            if name in points:
                points[name] += record.score_for(name)
                games[name] += 1
    order = sorted(names, key=lambda name: (-points[name], games[name], name))
    return [[name, points[name], games[name]] for name in order]


def schedule(config: TournamentConfig) -> list[GameSpec]:
    """Every game: for each round, each pairing plays one opening twice with colours swapped.

    :raises: :exc:`ValueError` when the games would be more than :data:`MAX_PAIRS` pairs.
    """
    plan = pairings(config)
    chosen = choose(config.openings, config.rounds * len(plan), order=config.order, seed=config.seed)
    specs = []
    for r in range(config.rounds):
        for k, (i, j) in enumerate(plan):
            pair = r * len(plan) + k
            specs.append(GameSpec(pair, 0, i, j, chosen[pair], f"{r + 1}."))
            specs.append(GameSpec(pair, 1, j, i, chosen[pair], f"{r + 1}."))
    return specs


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    """The games and the rating table."""

    games: tuple[GameRecord, ...]
    """Every game played (including earlier runs of a resumed tournament), of whichever game."""
    table: RatingTable
    """Ratings, strongest first."""


def run_tournament(
    config: TournamentConfig, *, quiet: bool = True, backend: str = "local"
) -> TournamentResult:
    """Plays the tournament (resuming from ``config.out`` when it holds the same one) and rates it.
    With ``backend="ray"`` its game pairs are tasks on a Ray cluster, ``config.concurrency`` pairs at
    once (:func:`camelpy.arena.runner.run_schedule`); chess only.

    :raises: :exc:`ValueError` for an engine that cannot start, an output folder of another run or a
        Leiserchess tournament on Ray; :exc:`TournamentInterrupted` (a :exc:`KeyboardInterrupt`) on Ctrl-C
        once games were played, with them rated.
    """
    _check_config(config)
    cluster.check_backend(backend)
    if config.game != "chess" and backend != "local":
        raise ValueError("--ray plays chess tournaments; a Leiserchess tournament runs on this machine")
    records: list[GameRecord] = []
    try:
        _PLAY[config.game](config, quiet, backend, records)
    except KeyboardInterrupt:
        if not records:
            raise
        raise TournamentInterrupted(_rate(config, records)) from None
    return _rate(config, records)


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by Ctrl-C (or ``SIGTERM`` under
    :func:`camelpy.arena.runner.stop_on_terminate`): :attr:`result` rates the games played so far, as
    ``ratings.txt`` in the output folder does; running it again resumes it."""

    def __init__(self, result: TournamentResult) -> None:
        super().__init__(f"interrupted after {len(result.games)} games")
        self.result = result


def _rate(config: TournamentConfig, records: list[GameRecord]) -> TournamentResult:
    """*records* rated, the table written to the output folder's ``ratings.txt``."""
    table = fit_ratings(
        ((r.white, r.black, r.score_for(r.white)) for r in records if r.result != "*"),
        config.anchor,
        config.anchor_elo,
    )
    if config.out:
        (Path(config.out) / "ratings.txt").write_text(str(table) + "\n", encoding="utf-8")
    return TournamentResult(tuple(records), table)


def _play_chess(config: TournamentConfig, quiet: bool, backend: str, records: list[GameRecord]) -> None:
    """Plays a chess tournament's games (:func:`camelpy.arena.runner.run_schedule`) into *records*,
    which first gets earlier runs' games."""
    specs = schedule(config)
    log = None
    events: EventLog | None = None
    if config.out:
        settings = {
            "players": [p.to_json() for p in config.players],
            "families": list(config.families),
            "format": config.format,
            "gauntlet": config.gauntlet,
            "openings": book_digest(config.openings),
            "order": config.order,
            "seed": config.seed,
            "adjudication": dataclasses.asdict(config.adjudication),
        }
        log = GameLog(config.out, settings, "camelpy tournament")
        records.extend(log.open())
        events = EventLog(config.out)
    done = {(r.pair, r.game) for r in records}
    progress = Progress(len(specs), len(records), quiet=quiet)
    names = [p.name for p in config.players]
    if events is not None:
        events.begin("tournament", "camelpy tournament", names, len(specs))
        events.emit("standings", rows=standings(names, records))

    def on_game(record: GameRecord) -> bool:
        records.append(record)
        if log is not None:
            log.append(record)
        if events is not None:
            events.emit("standings", rows=standings(names, records))
        progress.update(len(records), f"{record.white} {record.result} {record.black}")
        return False

    ended = "interrupted"
    try:
        run_schedule(
            config.players,
            [s for s in specs if s.key not in done],
            on_game,
            concurrency=config.concurrency,
            adjudication=config.adjudication,
            hang_timeout=config.hang_timeout,
            backend=backend,
            observer=events.write if events is not None else None,
        )
        ended = "finished"
    finally:
        _close(progress, events, ended)


def _play_leiserchess(config: TournamentConfig, quiet: bool, backend: str, records: list[GameRecord]) -> None:
    """Plays a Leiserchess tournament's games into *records* (earlier runs' too, once a game is played
    or when it ends): each round, each pairing plays one pair from its random opening
    (:func:`camelpy.arena.leiserchess.run_pairs`)."""
    plan = pairings(config)
    if config.rounds * len(plan) > MAX_PAIRS:
        raise ValueError(f"too many game pairs: {config.rounds * len(plan)} (at most {MAX_PAIRS})")
    settings = {
        "engines": [p.to_json() for p in config.players],
        "families": list(config.families),
        "format": config.format,
        "gauntlet": config.gauntlet,
        "rules": config.rules,
        "random_plies": config.random_plies,
        "seed": config.seed,
        "max_plies": config.max_plies,
    }
    total = 2 * config.rounds * len(plan)
    progress = Progress(total, 0, quiet=quiet)
    names = [p.name for p in config.players]
    events = EventLog(config.out) if config.out else None
    if events is not None:
        events.begin("tournament", "camelpy tournament", names, total)

    def on_game(result: GameRecord, games: list[GameRecord]) -> None:
        records[:] = games
        if events is not None:
            events.emit("standings", rows=standings(names, games))
        progress.update(len(games), f"{result.white} {result.result} {result.black}")

    ended = "interrupted"
    try:
        records[:] = run_pairs(
            config.players,
            plan * config.rounds,
            out=config.out,
            settings=settings,
            rules=config.rules,
            random_plies=config.random_plies,
            seed=config.seed,
            max_plies=config.max_plies,
            concurrency=config.concurrency,
            report=on_game,
            event="camelpy tournament",
            observer=events.write if events is not None else None,
        )
        ended = "finished"
    finally:
        _close(progress, events, ended)


def _close(progress: Progress, events: EventLog | None, ended: str) -> None:
    """Ends a run: the progress line removed, the ``end`` event saying why (*ended*)."""
    progress.close()
    if events is not None:
        events.emit("end", reason=ended)


_PLAY = {"chess": _play_chess, "leiserchess": _play_leiserchess}
"""How each game's tournament plays its games (:data:`GAMES`), given the config, *quiet*, the backend and
the list to fill."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy tournament`` options."""
    p.add_argument("config", help="TOML file: players, openings, rounds, concurrency, adjudication")
    p.add_argument("--concurrency", type=int, help="override the config's concurrency")
    p.add_argument("--out", help="override the config's output folder")
    p.add_argument("--quiet", action="store_true", help="no live progress line")
    cluster.add_ray_argument(p, "play the game pairs")


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy tournament`` from parsed arguments; prints the rating table."""
    path = Path(args.config)
    config = parse_config(read_text(path, "config", "config", limit=MAX_CONFIG_BYTES), path.parent)
    if args.concurrency:
        config = dataclasses.replace(config, concurrency=args.concurrency)
    if args.out:
        config = dataclasses.replace(config, out=args.out)
    backend = cluster.ray_backend(args.ray, "camelpy tournament --ray")
    if backend == "ray" and not args.concurrency:  # the config's concurrency is this machine's
        config = dataclasses.replace(config, concurrency=cluster.cluster_cpus(cluster.ray_module()))
    try:
        with stop_on_terminate():
            result = run_tournament(config, quiet=args.quiet, backend=backend)
    except TournamentInterrupted as stop:  # the games so far rated, then "interrupted" (status 130)
        print(f"Games: {len(stop.result.games)} (interrupted)")
        print(stop.result.table)
        raise
    print(f"Games: {len(result.games)}")
    print(result.table)
    return 0

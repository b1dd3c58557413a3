"""Every Python loader of a user-named file checks it before reading it (issue 37, "Loaders check before
they read"): ``/dev/zero``, a directory and a named pipe are refused without being read (a pipe must
never be opened for reading in blocking mode: it would wait for a writer for ever), and a file larger
than the format's cap is refused from its size, with the path quoted and the reason given.

Each loader runs on a thread with a deadline, so that a loader that blocks fails its test instead of
hanging the suite (the pipe is then opened for writing here, which releases it)."""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from camelpy import book, minichess, params
from camelpy._args import read_bytes, read_lines, read_text
from camelpy.arena import leiserchess as leiserchess_match
from camelpy.arena import minichess as minichess_arena
from camelpy.arena import openings, runner, tournament
from camelpy.protocols import leiserchess_book
from camelpy.protocols import minichess as minichess_player
from camelpy.tools.chess import epd, perft, tune

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")

DEADLINE = 10.0
"""Seconds a refusal may take (it takes microseconds; a loader that blocks never returns)."""


def bounded(load: Callable[[], object], fifo: Path | None = None) -> BaseException | None:
    """What *load* raised (``None`` if it returned), failing the test when it has not returned within
    :data:`DEADLINE`."""
    caught: list[BaseException | None] = []

    def run() -> None:
        try:
            load()
            caught.append(None)
        except BaseException as err:  # noqa: BLE001 - reported to the test
            caught.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    if thread.is_alive():
        if fifo is not None:  # release a reader blocked on the pipe
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        thread.join(DEADLINE)
        pytest.fail(f"the loader did not return within {DEADLINE} s (it blocked)")
    return caught[0]


def _match_log(folder: Path) -> Callable[[Path], object]:
    """The games log of *folder* read by a match resuming there (the log is the file under test)."""

    def load(path: Path) -> object:
        os.replace(path, folder / "games.jsonl") if path != folder / "games.jsonl" else None
        return leiserchess_match.run_pairs((), [], out=folder, settings={})

    return load


def _game_log(path: Path) -> object:
    log = runner.GameLog(path.parent, {"x": 1}, "test")
    return log.open()


def _minichess_match(path: Path) -> object:
    return minichess_arena.play_match(["a", "b"], 1, out=path.parent, emit=None)


def _tune(path: Path) -> object:
    args = argparse.Namespace(data=[str(path)], max_positions=None, threads=1, every=1, quiet_margin=0)
    return tune._load(args, None)


def _tournament(path: Path) -> object:
    return tournament.main(argparse.Namespace(config=str(path)))


# (name, loader, module holding its cap, the cap's name); the loader takes the file's path. Loaders of a
# log in a folder (games.jsonl) are given a path of that name.
LOADERS: list[tuple[str, Callable[[Path], object], Any, str | None, str]] = [
    ("Book", lambda p: book.Book(p), book, None, "x.bin"),
    ("read_entries", book.read_entries, book, "MAX_BOOK_BYTES", "x.bin"),
    ("LeiserBook.load", leiserchess_book.LeiserBook.load, leiserchess_book, "MAX_BOOK_BYTES", "x.txt"),
    ("Board.read_state", minichess.Board.read_state, minichess, "MAX_STATE_BYTES", "state"),
    ("read_weights", minichess_player.read_weights, minichess_player, "MAX_WEIGHTS_BYTES", "w.json"),
    ("read_params_file", lambda p: params.read_params_file(str(p)), params, "MAX_PARAMS_BYTES", "w.json"),
    ("read_epd", epd.read_epd, epd, "MAX_EPD_BYTES", "x.epd"),
    ("load_openings", openings.load_openings, openings, "MAX_OPENINGS_BYTES", "x.epd"),
    ("read_suite", perft.read_suite, perft, "MAX_SUITE_BYTES", "x.epd"),
    ("tournament config", _tournament, tournament, "MAX_CONFIG_BYTES", "t.toml"),
    ("tune data", _tune, tune, "MAX_TEXT_DATA_BYTES", "d.txt"),
    ("GameLog.open", _game_log, runner, "MAX_LOG_BYTES", "games.jsonl"),
    ("leiserchess run_pairs", lambda p: leiserchess_match.run_pairs((), [], out=p.parent, settings={}),
     leiserchess_match, "MAX_LOG_BYTES", "games.jsonl"),
    ("minichess play_match", _minichess_match, minichess_arena, "MAX_LOG_BYTES", "games.jsonl"),
]  # fmt: skip
IDS = [name for name, *_ in LOADERS]
CAPPED = [loader for loader in LOADERS if loader[3] is not None]
"""The loaders that read a whole file (``Book`` maps its file: only its kind is checked)."""


@pytest.mark.parametrize(("name", "load", "module", "cap", "file"), LOADERS, ids=IDS)
def test_a_named_pipe_is_refused_unopened(
    tmp_path: Path, name: str, load: Callable[[Path], object], module: Any, cap: str | None, file: str
) -> None:
    path = tmp_path / file
    os.mkfifo(path)
    err = bounded(lambda: load(path), fifo=path)
    assert isinstance(err, ValueError), repr(err)
    assert "is not a regular file (a named pipe)" in str(err) and str(path) in str(err)


@pytest.mark.parametrize(("name", "load", "module", "cap", "file"), LOADERS, ids=IDS)
def test_a_directory_is_refused(
    tmp_path: Path, name: str, load: Callable[[Path], object], module: Any, cap: str | None, file: str
) -> None:
    path = tmp_path / file
    path.mkdir()
    err = bounded(lambda: load(path))
    assert isinstance(err, ValueError), repr(err)
    assert "is not a regular file (a directory)" in str(err) and str(path) in str(err)


@pytest.mark.parametrize(("name", "load", "module", "cap", "file"), LOADERS, ids=IDS)
def test_a_device_is_refused_unread(
    tmp_path: Path, name: str, load: Callable[[Path], object], module: Any, cap: str | None, file: str
) -> None:
    path = tmp_path / file
    path.symlink_to("/dev/zero")  # a user-named path may be a link: the device behind it is refused
    err = bounded(lambda: load(path))
    assert isinstance(err, ValueError), repr(err)
    assert "is not a regular file (a character device)" in str(err), str(err)


@pytest.mark.parametrize(("name", "load", "module", "cap", "file"), CAPPED, ids=[c[0] for c in CAPPED])
def test_a_file_over_the_cap_is_refused_from_its_size(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    load: Callable[[Path], object],
    module: Any,
    cap: str | None,
    file: str,
) -> None:
    assert cap is not None and isinstance(getattr(module, cap), int) and getattr(module, cap) >= 4096
    monkeypatch.setattr(module, cap, 1000)
    path = tmp_path / file
    with open(path, "wb") as f:
        f.truncate(1 << 30)  # sparse: a gigabyte of zeros that takes no disk
    err = bounded(lambda: load(path))
    assert isinstance(err, ValueError), repr(err)
    assert f"{str(path)!r}: it is 1073741824 bytes; at most 1000 are read as " in str(err), str(err)


def test_the_helpers_bound_a_file_that_grows(tmp_path: Path) -> None:
    """A file checked at its size and then grown is still read no further than the cap + 1."""
    path = tmp_path / "grows.txt"
    path.write_text("x\n" * 10)
    lines = read_lines(path, "path", "data file", limit=30)
    path.write_text("x\n" * 100)  # after the check, before the reading
    with pytest.raises(ValueError, match="it grew beyond 30 bytes while being read"):
        list(lines)
    assert read_bytes(path, "path", "file", limit=200) == b"x\n" * 100
    with pytest.raises(ValueError, match=r"'.*grows.txt': it is 200 bytes; at most 199 are read as a file"):
        read_text(path, "path", "file", limit=199)
    path.write_bytes(b"\xff\n")
    with pytest.raises(ValueError, match="not UTF-8 text"):
        read_text(path, "path", "file", limit=199)

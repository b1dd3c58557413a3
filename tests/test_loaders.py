"""The file loaders of the core, as a user meets them from Python and from the UCI engine: a device, a
directory or a FIFO is refused at once with the path quoted, and a 1 GiB file is refused from its
header without being read (issue 37: ``Engine(eval_file="/dev/zero")`` grew memory without bound, a
FIFO as ``EvalFile`` hung the engine, a 1 GB file of junk was read whole before it was refused)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import camelpy
import pytest
from camelpy import data
from camelpy.tablebase import open_tablebase

from tests.test_uci import UciProcess

HUGE = 1 << 30
"""A sparse file this long costs no disk, and a gigabyte of memory to whoever reads it whole."""

MAX_RSS_KB = 400_000
"""Far below what reading the huge file would take, far above the interpreter and the engine."""


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe.nnue"
    os.mkfifo(path)
    yield path


def _huge(path: Path) -> Path:
    with open(path, "wb") as f:
        f.truncate(HUGE)
    return path


@pytest.mark.parametrize("kind", ["device", "directory", "fifo"])
def test_a_network_that_is_not_a_regular_file_is_refused(kind: str, tmp_path: Path, fifo: Path) -> None:
    path = {"device": Path("/dev/zero"), "directory": tmp_path, "fifo": fifo}[kind]
    what = {"device": "a character device", "directory": "a directory", "fifo": "a named pipe"}[kind]
    with pytest.raises(
        OSError, match=f"cannot read network file '{path}': it is not a regular file \\({what}\\)"
    ):
        camelpy.Engine(eval_file=str(path))


def test_a_huge_network_file_is_refused_unread(tmp_path: Path) -> None:
    """In a process of its own, so that its peak memory is the loader's: ``VmHWM``, the high-water mark
    of its own address space (``ru_maxrss`` would carry over the forking test process's, about 1 GB late
    in a full run)."""
    path = _huge(tmp_path / "junk.nnue")
    script = (
        "import camelpy\n"
        "def _peak_kb():\n"
        "    status = open('/proc/self/status').read()\n"
        "    return int(status.split('VmHWM:')[1].split()[0])\n"
        "try:\n"
        f"    camelpy.Engine(eval_file={str(path)!r})\n"
        "except ValueError as err:\n"
        "    print(err)\n"
        "print(_peak_kb())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    message, rss_kb = out.stdout.splitlines()
    assert "is not a camelpy network file" in message
    assert int(rss_kb) < MAX_RSS_KB, f"{rss_kb} KB resident: the file was read"


def test_tables_and_data_files_that_are_not_regular_files(tmp_path: Path, fifo: Path) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    os.mkfifo(tables / "KQvK.cptb")
    with pytest.raises(OSError, match=r"KQvK.cptb': it is not a regular file \(a named pipe\)"):
        open_tablebase(tables)
    kinds = [(Path("/dev/zero"), "a character device"), (fifo, "a named pipe"), (tmp_path, "a directory")]
    for path, what in kinds:
        with pytest.raises(OSError, match=rf"it is not a regular file \({what}\)"):
            data.info(path)
        with pytest.raises(OSError, match=rf"it is not a regular file \({what}\)"):
            list(data.read(path))
    _huge(tmp_path / "huge.bin")
    with pytest.raises(ValueError, match="not a camelpy data file"):
        data.info(tmp_path / "huge.bin")


def test_the_uci_engine_answers_after_a_fifo_as_evalfile() -> None:
    folder = Path(tempfile.mkdtemp(prefix="cp"))  # a short path: the info string quotes it whole
    fifo = folder / "n"
    os.mkfifo(fifo)
    with UciProcess() as engine:
        engine.send(f"setoption name EvalFile value {fifo}")
        engine.send("isready")
        _, line, before = engine.read_until("readyok", timeout=20)
        said = " ".join(before)
        assert "EvalFile' not changed" in said and "it is not a regular file (a named pipe)" in said, before
        engine.send("go depth 2")
        engine.read_until("bestmove", timeout=20)  # still the built-in network
        engine.send("quit")
        assert engine.close() == 0
    shutil.rmtree(folder)

"""``pytest --no-system-packages``: the tests that need Stockfish, Chromium or the Gaviota tables are
skipped with the reason printed in that mode only, and fail, saying what to install, without it.

Each case runs pytest on a small suite of its own in a subprocess, with the plugin
(:mod:`tests.system_packages`) loaded and every package made to look missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.system_packages import PACKAGES

SUITE = """
import pytest

@pytest.mark.needs_stockfish
def test_stockfish():
    pass

@pytest.mark.needs_chromium
def test_chromium():
    pass

@pytest.mark.needs_gaviota
def test_gaviota():
    pass

def test_plain():
    pass
"""

CONFTEST = """
import dataclasses

pytest_plugins = ["tests.system_packages"]


def pytest_configure(config):
    import tests.system_packages as packages

    packages.PACKAGES = tuple(dataclasses.replace(p, present=lambda: False) for p in packages.PACKAGES)
    for package in packages.PACKAGES:
        config.addinivalue_line("markers", f"{package.marker}: {package.reason()}")
"""


def _pytest(folder: Path, *args: str) -> str:
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_suite.py").write_text(SUITE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:randomly", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout + done.stderr


def test_the_option_skips_each_marked_test_with_its_reason(tmp_path: Path) -> None:
    out = _pytest(tmp_path, "--no-system-packages")
    assert "1 passed, 3 skipped in" in out, out
    assert "needs /usr/games/stockfish: apt-get install stockfish" in out
    assert "needs chromium and chromedriver: apt-get install chromium chromium-driver" in out
    assert "needs the Gaviota tables in /usr/share/gaviotatb/gtb4: apt-get install gaviotatb" in out


def test_without_the_option_a_missing_package_fails_saying_what_to_install(tmp_path: Path) -> None:
    out = _pytest(tmp_path)
    assert "1 passed, 3 errors" in out, out  # failed in set-up, before any fixture starts
    assert "skipped" not in out and "warning" not in out
    for package in PACKAGES:
        assert f"{package.reason()} (or skip such tests: pytest --no-system-packages -rs)" in out


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.marker)
def test_every_marker_is_registered(package: object, pytestconfig: pytest.Config) -> None:
    # pyproject.toml registers them, so a misspelt marker on a test is reported as unknown.
    assert any(line.startswith(package.marker + ":") for line in pytestconfig.getini("markers"))  # type: ignore[attr-defined]

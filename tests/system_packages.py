"""The tests that need a system package, and ``pytest --no-system-packages``, which skips them.

Three kinds of test need a Debian package that only root can install (``apt-get install stockfish
gaviotatb chromium chromium-driver``, as the README's test command does); each carries one marker:

* ``needs_stockfish``: plays or compares against ``/usr/games/stockfish``;
* ``needs_chromium``: drives ``camelpy gui`` in a headless Chromium through chromedriver (Selenium);
* ``needs_gaviota``: checks camelpy's tablebases against the Gaviota tables in ``/usr/share/gaviotatb``.

``pytest`` runs them all, and a test whose package is missing fails, naming the package to install.
``pytest --no-system-packages`` (for a user without root) skips every marked test, whether its
package is there or not, so the subset is the same everywhere; ``-rs`` prints each skip's reason,
such as ``needs /usr/games/stockfish: apt-get install stockfish``.

This module is a pytest plugin (the repository's top ``conftest.py`` loads it, so the option works for
``tests/`` and ``benches/`` alike), and the tests find the programs through :func:`stockfish`,
:func:`chromium` and :data:`GAVIOTA`, so that the lookup and the check are one.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

OPTION = "--no-system-packages"

GAVIOTA = Path("/usr/share/gaviotatb/gtb4")
"""Debian's gaviotatb package: the 3- and 4-man Gaviota tables."""


def stockfish() -> str | None:
    """Stockfish on ``PATH`` or in ``/usr/games`` (where Debian's package puts it), or ``None``."""
    return shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def chromium() -> tuple[str, str] | None:
    """Chromium (or Chrome) and chromedriver on ``PATH``, or ``None`` if either is missing."""
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@dataclasses.dataclass(frozen=True)
class SystemPackage:
    """One marker: what the marked tests need (in words), how to install it, and whether it is here."""

    marker: str
    needs: str
    install: str
    present: Callable[[], bool]

    def reason(self) -> str:
        """``needs X: apt-get install Y`` (printed for each skip and in each failure)."""
        return f"needs {self.needs}: {self.install}"


PACKAGES = (
    SystemPackage(
        "needs_stockfish", "/usr/games/stockfish", "apt-get install stockfish", lambda: bool(stockfish())
    ),
    SystemPackage(
        "needs_chromium",
        "chromium and chromedriver",
        "apt-get install chromium chromium-driver",
        lambda: chromium() is not None,
    ),
    SystemPackage(
        "needs_gaviota", f"the Gaviota tables in {GAVIOTA}", "apt-get install gaviotatb", GAVIOTA.is_dir
    ),
)
"""One entry per marker (the markers are registered in ``pyproject.toml``)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        OPTION,
        action="store_true",
        help="skip the tests that need a system package (Stockfish, Chromium and chromedriver, the "
        "Gaviota tables), for a user without root; -rs prints why each was skipped",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption(OPTION):
        return
    for item in items:
        for package in PACKAGES:
            if item.get_closest_marker(package.marker) is not None:
                item.add_marker(pytest.mark.skip(reason=package.reason()))
                break


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Without the option, a marked test whose package is missing fails before its fixtures start,
    saying what to install and how to skip such tests instead (with the option, they are skipped)."""
    if item.config.getoption(OPTION):
        return
    for package in PACKAGES:
        if item.get_closest_marker(package.marker) is not None and not package.present():
            pytest.fail(f"{package.reason()} (or skip such tests: pytest {OPTION} -rs)", pytrace=False)

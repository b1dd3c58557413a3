"""Types are checked, not trusted: the ``_core.pyi`` stubs match the native module (``mypy.stubtest``),
and the package and this test suite pass ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
ALLOWLIST = Path(__file__).resolve().parent / "data" / "stubtest_allowlist.txt"

mypy = pytest.importorskip("mypy")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=600
    )


def test_stubtest_native_module() -> None:
    result = _run("mypy.stubtest", "camelpy._core", "--allowlist", str(ALLOWLIST))
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_package() -> None:
    result = _run("mypy", "--strict", "--no-incremental", "-p", "camelpy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_tests() -> None:
    """The test suite is typed too, and uses the package as its annotations and stubs say."""
    result = _run("mypy", "--strict", "--no-incremental", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_lint_and_format() -> None:
    pytest.importorskip("ruff")
    paths = ["python", "tests", "benches"]
    lint = _run("ruff", "check", *paths)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = _run("ruff", "format", "--check", *paths)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr

"""Words that go stale: package metadata, the crate's description and docs, the package docstrings and
the README's install line must describe what camelpy is now, and agree with each other."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import camelpy
import camelpy.tools
from camelpy.tools import cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9/3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _toml(relative: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / relative).read_text(encoding="utf-8"))


def test_pyproject_names_authors_and_home() -> None:
    project = _toml("pyproject.toml")["project"]
    repository = _toml("Cargo.toml")["workspace"]["package"]["repository"]
    assert project["authors"] == [{"name": "the camelpy developers"}]
    assert project["urls"]["Homepage"] == project["urls"]["Repository"] == repository


def test_crate_description_and_docs_cover_the_engine() -> None:
    description = _toml("rust/core/Cargo.toml")["package"]["description"]
    readme = (ROOT / "rust" / "core" / "README.md").read_text(encoding="utf-8")
    for text in (description, readme):
        for word in (
            "perft",
            "camelpy-4",
            "NNUE",
            "evaluation",
            "parameter table",
            "trace",
            "transposition table",
            "LazySMP",
            "tablebase",
        ):
            assert word in text, word
    assert "PVS" in description and "principal-variation" in readme and "bench" in readme.lower()


def test_package_docstrings_are_current() -> None:
    assert camelpy.__doc__ is not None and "(later)" not in camelpy.__doc__
    assert "search" in camelpy.__doc__ and "camelpy.tools" in camelpy.__doc__
    tools = camelpy.tools.__doc__
    assert tools is not None and "to come" not in tools
    for command in cli.COMMANDS:  # every tool is named in its package's docstring
        package, name = command.module.rsplit(".", 1)
        doc = importlib.import_module(package).__doc__
        assert doc is not None and name in doc, command.name


def test_readme_says_a_rust_toolchain_is_needed() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = readme.split("## Install and run", 1)[1].split("```sh", 1)[0]
    rust_version = _toml("Cargo.toml")["workspace"]["package"]["rust-version"]
    python_version = re.fullmatch(r">=(\d+\.\d+)", _toml("pyproject.toml")["project"]["requires-python"])
    assert python_version is not None
    assert "Rust toolchain" in install and f"rustc {rust_version}" in " ".join(install.split())
    assert f"Python {python_version[1]}" in install

"""Runs the ``>>>`` examples of the tool modules (camelpy.tools.*), so documented examples cannot rot."""

from __future__ import annotations

import doctest
import importlib

import pytest

TOOL_MODULES = [
    "camelpy.tools.stats",
    "camelpy.tools.perft",
    "camelpy.tools.engines",
    "camelpy.tools.openings",
    "camelpy.tools.referee",
    "camelpy.tools.runner",
    "camelpy.tools.match",
    "camelpy.tools.ratings",
    "camelpy.tools.tournament",
    "camelpy.tools.epd",
]


@pytest.mark.parametrize("module_name", TOOL_MODULES)
def test_tool_module_doctests(module_name: str) -> None:
    module = importlib.import_module(module_name)
    failures, tests = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
    assert tests > 0, f"{module_name} has no examples"

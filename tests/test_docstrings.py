"""Runs the ``>>>`` examples in the installed package's docstrings (Python modules and the native
``camelpy._core`` classes), so documented examples cannot rot. (The README's and the documentation
pages' examples run through ``--doctest-glob=*.md``.)"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import camelpy
import camelpy._core
import pytest

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(camelpy.__path__, "camelpy.") if m.name != "camelpy._core"
)
"""Every module of the package (the native one's examples run below): a new module's examples run
without anyone listing it."""
WITHOUT_EXAMPLES = {"camelpy.__main__", "camelpy._polyglot_random", "camelpy.tools"}
"""Modules with nothing to show: the entry point, a table of constants, the tools' package."""


def _native_docstrings() -> list[tuple[str, str]]:
    found = []
    for name, obj in vars(camelpy._core).items():
        if inspect.isclass(obj):
            found.append((f"_core.{name}", obj.__doc__ or ""))
            for attr in vars(obj):
                doc = getattr(getattr(obj, attr), "__doc__", None)
                if doc and ">>>" in doc:
                    found.append((f"_core.{name}.{attr}", doc))
        elif callable(obj) and obj.__doc__ and ">>>" in obj.__doc__:
            found.append((f"_core.{name}", obj.__doc__))
    return [(n, d) for n, d in found if ">>>" in d]


def test_every_module_is_found() -> None:
    found = set(MODULES)
    assert {"camelpy.leiserchess", "camelpy.tools.games.leiserchess", "camelpy.protocols.uci.loop"} <= found


@pytest.mark.parametrize("module_name", MODULES)
def test_module_doctests(module_name: str) -> None:
    module = importlib.import_module(module_name)
    failures, tests = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
    if module_name not in WITHOUT_EXAMPLES:
        assert tests > 0, f"{module_name} has no examples"


@pytest.mark.parametrize(("name", "doc"), _native_docstrings(), ids=lambda v: v if "\n" not in v else "")
def test_native_doctests(name: str, doc: str) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(doc, {"camelpy": camelpy}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"doctest failures in {name}"


def test_native_examples_exist() -> None:
    assert len(_native_docstrings()) >= 2

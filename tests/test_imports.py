"""The package's import graph, read from the source with :mod:`ast`: no module imports another module's
private (``_``-prefixed) name, and no two modules import each other, even through function-local imports.

The native extension ``camelpy._core`` is private by design (pydantic-core's pattern) and is what the
Python modules wrap, so importing it is not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.graphs import circles

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "camelpy"

NATIVE = {"camelpy._core"}


def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _graph(package: Path = PACKAGE) -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
    """Module -> the package modules it imports; and (importer, module, name) for each private name."""
    modules = _modules(package)
    edges: dict[str, set[str]] = {name: set() for name in modules}
    private: set[tuple[str, str, str]] = set()

    def owner(name: str) -> str | None:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        return name if name in modules else None

    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "camelpy":
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in NATIVE:
                        continue
                    if full in modules:
                        targets.append(full)
                    else:
                        targets.append(node.module)
                        dunder = alias.name.startswith("__") and alias.name.endswith("__")
                        if alias.name.startswith("_") and not dunder and node.module not in NATIVE:
                            private.add((name, node.module, alias.name))
            elif isinstance(node, ast.Import):
                targets += [a.name for a in node.names if a.name.split(".")[0] == "camelpy"]
            for target in targets:
                found = owner(target)
                if found is not None and found != name and target not in NATIVE:
                    edges[name].add(found)
    return edges, private


def test_the_graph_is_read() -> None:
    edges, _ = _graph()
    assert "camelpy.arena.openings" in edges["camelpy.arena.match"]
    assert "camelpy.protocols.uci.loop" in edges["camelpy.protocols.uci"]


def test_no_module_imports_a_private_name_of_another() -> None:
    _, private = _graph()
    assert private == set()


def test_no_import_cycles() -> None:
    edges, _ = _graph()
    assert circles(edges) == []


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the Python API", ("camelpy",)),
    ("protocols and arena", ("camelpy.protocols", "camelpy.uci", "camelpy.arena")),
    ("tools", ("camelpy.tools",)),
    ("the GUI", ("camelpy.gui",)),
    ("the command line", ("camelpy.__main__",)),
)
"""The Python layers, lowest first (the brief's order: ... -> bindings -> Python API -> protocols and arena
-> tools -> GUI), each by its packages; a module belongs to the last layer holding it. ``camelpy.uci`` is
the alias of :mod:`camelpy.protocols.uci` and sits with it."""

INDEPENDENT: tuple[tuple[str, ...], ...] = (("camelpy.protocols", "camelpy.uci"), ("camelpy.arena",))
"""Packages of one layer that never import each other: the protocol loops (a program others drive) and the
arena (which drives such programs from the other side)."""


def _layer(module: str) -> int:
    return max(
        i
        for i, (_, packages) in enumerate(LAYERS)
        if any(module == p or module.startswith(p + ".") for p in packages)
    )


def _upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module of a higher layer than the importer's."""
    return sorted(
        f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
        for a, targets in edges.items()
        for b in targets
        if _layer(b) > _layer(a)
    )


def test_imports_point_down_the_layers() -> None:
    """The API never imports a protocol, the arena, a tool or the GUI; protocols and the arena never import a
    tool; tools never import the GUI."""
    edges, _ = _graph()
    assert _upward(edges) == []
    assert _upward({"camelpy": {"camelpy.tools.chess.review"}}) == [
        "camelpy (the Python API) imports camelpy.tools.chess.review (tools)"
    ]
    assert _upward({"camelpy.arena.match": {"camelpy.tools.chess.bench"}}) == [
        "camelpy.arena.match (protocols and arena) imports camelpy.tools.chess.bench (tools)"
    ]


def _crossing(edges: dict[str, set[str]]) -> list[str]:
    """Every import between two :data:`INDEPENDENT` groups."""

    def group(module: str) -> int | None:
        for i, packages in enumerate(INDEPENDENT):
            if any(module == p or module.startswith(p + ".") for p in packages):
                return i
        return None

    return sorted(
        f"{a} imports {b}"
        for a, targets in edges.items()
        for b in targets
        if group(a) is not None and group(b) is not None and group(a) != group(b)
    )


def test_protocols_and_the_arena_do_not_import_each_other() -> None:
    edges, _ = _graph()
    assert _crossing(edges) == []
    assert _crossing({"camelpy.arena.runner": {"camelpy.protocols.uci.loop", "camelpy.arena.referee"}}) == [
        "camelpy.arena.runner imports camelpy.protocols.uci.loop"
    ]


def test_the_small_games_do_not_import_each_other() -> None:
    edges, _ = _graph()
    crossing = [
        (a, b)
        for a, targets in edges.items()
        for b in targets
        for one, other in (("minichess", "leiserchess"), ("leiserchess", "minichess"))
        if one in a.rsplit(".", 1)[-1] and other in b.rsplit(".", 1)[-1]
    ]
    assert crossing == []


def test_the_checks_see_a_cycle_and_a_private_import(tmp_path: Path) -> None:
    package = tmp_path / "camelpy"
    (package / "tools").mkdir(parents=True)
    (package / "__init__.py").write_text("from camelpy import _core\n")
    (package / "tools" / "__init__.py").write_text("")
    (package / "tools" / "a.py").write_text("from camelpy.tools.b import _helper\n")
    (package / "tools" / "b.py").write_text("def f():\n    from camelpy.tools import a\n")
    edges, private = _graph(package)
    assert private == {("camelpy.tools.a", "camelpy.tools.b", "_helper")}
    assert circles(edges) == [["camelpy.tools.a", "camelpy.tools.b"]]

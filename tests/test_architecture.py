"""The rules of the house (``docs/architecture.md``), checked: the layers of the Rust workspace, as
``cargo metadata`` declares them, and of each crate's modules, as their ``use crate::`` paths draw them;
the Python package's layer and independence contracts with import-linter (``[tool.importlinter]`` in
``pyproject.toml``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.graphs import circles

ROOT = Path(__file__).resolve().parent.parent

# The workspace's crates by layer, lowest first (docs/architecture.md): a crate may depend only on crates
# of a lower layer, and two crates of one layer never on each other.
CRATE_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"camelpy-core"}),
    frozenset({"camelpy-games", "camelpy-train"}),
    frozenset({"camelpy-minichess", "camelpy-leiserchess"}),
    frozenset({"camelpy-py"}),
)

# The core is the ground floor: no dependency outside the standard library (dev-dependencies are the
# benchmarks' competitors).
DEPENDENCY_FREE = {"camelpy-core"}


def _workspace() -> dict[str, set[str]]:
    """Each workspace crate -> the names of its normal and build dependencies."""
    cargo = shutil.which("cargo")
    assert cargo is not None, "cargo is needed: the tests run after `cargo test` in .ci/run"
    out = subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--no-deps", "--offline"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return {
        package["name"]: {d["name"] for d in package["dependencies"] if d["kind"] != "dev"}
        for package in json.loads(out)["packages"]
    }


def _layer(crate: str) -> int:
    for level, crates in enumerate(CRATE_LAYERS):
        if crate in crates:
            return level
    raise AssertionError(f"crate {crate!r} is in no layer of docs/architecture.md (CRATE_LAYERS)")


def test_every_crate_depends_only_on_lower_layers() -> None:
    workspace = _workspace()
    internal = set(workspace)
    assert internal == set().union(*CRATE_LAYERS)
    wrong = [
        (crate, dep)
        for crate, deps in workspace.items()
        for dep in deps & internal
        if _layer(dep) >= _layer(crate)
    ]
    assert wrong == []


def test_the_core_has_no_dependencies() -> None:
    workspace = _workspace()
    assert {crate: workspace[crate] for crate in DEPENDENCY_FREE} == {
        crate: set() for crate in DEPENDENCY_FREE
    }


_USE = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)")
_GROUP = "crate::{"
_COMMENT = re.compile(r"//[^\n]*")
_TESTS = "#[cfg(test)]"


def _named_modules(code: str) -> set[str]:
    """The top-level modules that ``crate::`` paths in ``code`` name, ``use crate::{a::X, b}`` included."""
    names = set(_USE.findall(code))
    start = code.find(_GROUP)
    while start >= 0:
        depth, i, item = 1, start + len(_GROUP), ""
        while i < len(code) and depth:
            ch = code[i]
            depth += {"{": 1, "}": -1}.get(ch, 0)
            if depth == 1 and ch == ",":
                names.update(re.findall(r"^\s*([a-z_][a-z0-9_]*)", item))
                item = ""
            elif depth:
                item += ch if depth == 1 else ""
            i += 1
        names.update(re.findall(r"^\s*([a-z_][a-z0-9_]*)", item))
        start = code.find(_GROUP, i)
    return names - {"self", "super"}


def _subsystem_graph(src: Path) -> dict[str, set[str]]:
    """A crate's top-level modules (``x.rs`` or ``x/``) -> the top-level modules their code names."""
    graph: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*.rs")):
        module = path.relative_to(src).parts[0].removesuffix(".rs")
        if module in ("lib", "main"):
            continue
        # A module's tests (the `#[cfg(test)]` block that ends the file, by the house's convention) may
        # use any module of the crate: the rule is about the code that ships.
        code = path.read_text(encoding="utf-8").split(_TESTS, 1)[0]
        code = _COMMENT.sub("", code)
        graph.setdefault(module, set()).update(_named_modules(code) - {module})
    return graph


def test_the_use_reader_reads_groups() -> None:
    code = (
        "use crate::{\n    data::{Record, Writer},\n    nnue::Network,\n    tt,\n};\n"
        "let x = crate::eval::evaluate(p);"
    )
    assert _named_modules(code) == {"data", "nnue", "tt", "eval"}


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("crate", sorted(p.name for p in (ROOT / "rust").iterdir() if (p / "src").is_dir()))
def test_no_circle_between_a_crates_subsystems(crate: str) -> None:
    assert circles(_subsystem_graph(ROOT / "rust" / crate / "src")) == []


def test_python_layer_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint is not None, "import-linter is a test dependency (pyproject.toml's test extra)"
    run = subprocess.run(
        [lint, str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _contract_modules() -> set[str]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    named: set[str] = set()
    for contract in config["contracts"]:
        containers = contract.get("containers", [""])
        for field in ("layers", "source_modules", "modules"):
            for entry in contract.get(field, []):
                for module in re.split(r"[|:]", entry):
                    named.update(f"{c}.{module.strip()}".lstrip(".") for c in containers)
    return named


def test_every_top_level_module_is_under_a_contract() -> None:
    package = ROOT / "python" / "camelpy"
    top = {
        f"camelpy.{p.stem if p.is_file() else p.name}"
        for p in package.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }
    # camelpy.uci is the documented alias of camelpy.protocols.uci: an alias module, nothing of its own.
    assert sorted(top - _contract_modules() - {"camelpy.uci"}) == []

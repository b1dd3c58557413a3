"""The API reference's rule, in one place: which public names camelpy documents, and on which module's page.

Every name in the ``__all__`` of ``camelpy`` and of each public submodule (no ``_`` in its dotted path), and
the Python entry points of the ``camelpy <command>`` tools (each command module's ``add_arguments`` and
``main``, and the console script ``camelpy.__main__.main``), is documented once, at its *home*: ``camelpy``
itself for what it exports (``camelpy.Engine``, not ``camelpy.engine.Engine``), else the module that defines
it, else the first module that exports it. A module that only re-exports a name (an alias module such as
``camelpy.tools.book``, or ``camelpy.arena.match`` re-exporting the referee's ``MatchResult``) shows its
docstring and its own names, and its re-exported names are found at their home.

Used twice: by the ``camelpy-module`` directive (``{camelpy-module} camelpy.engine`` on a page writes the
module's docstring and an autodoc entry for each name at home there), and by ``tests/test_docs.py``, which
checks that the built ``objects.inv`` holds every public name's home entry, so a new public function without
a page entry fails the tests.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_VALUE_REPR = 120
"""Longer values (tables, weight dictionaries) are documented without their ``repr``, which would swamp the
page."""


DOCSTRING_REQUIRED = ("module", "class", "exception", "function", "method", "data")
"""What autodoc documents that must have a docstring (a class's attributes, fields included, may go
without)."""


def _words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


@dataclass(frozen=True)
class Entry:
    """One documented name: *module* is its home, *name* its name there, *kind* the autodoc directive."""

    module: str
    name: str
    kind: str

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"


def public_modules() -> list[str]:
    """``camelpy``, its console script ``camelpy.__main__`` and every submodule with no ``_`` part."""
    import camelpy

    found = ["camelpy", "camelpy.__main__"]
    for info in pkgutil.walk_packages(camelpy.__path__, "camelpy."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            found.append(info.name)
    return sorted(found)


def entry_points() -> dict[str, list[str]]:
    """Module → the functions a ``camelpy`` command calls in it (``add_arguments`` and ``main``)."""
    from camelpy.tools import cli

    points: dict[str, list[str]] = {"camelpy.__main__": ["main"]}
    for command in cli.COMMANDS:
        points.setdefault(command.module, [])
        for name in ("add_arguments", "main"):
            if name not in points[command.module]:
                points[command.module].append(name)
    return points


def exported(module_name: str) -> list[str]:
    """The public names of a module: its ``__all__`` and its command entry points."""
    module = importlib.import_module(module_name)
    names = list(getattr(module, "__all__", []))
    for name in entry_points().get(module_name, []):
        if name not in names:
            names.append(name)
    return names


def _kind(obj: Any) -> str:
    if inspect.isclass(obj):
        return "autoexception" if issubclass(obj, BaseException) else "autoclass"
    if inspect.isroutine(obj):
        return "autofunction"
    return "autodata"


@functools.cache
def _assigned(module_name: str) -> frozenset[str]:
    """The names a module's source assigns at its top level (where a constant is defined, not imported)."""
    module = importlib.import_module(module_name)
    path = getattr(module, "__file__", None)
    if path is None or not path.endswith(".py"):
        return frozenset()
    names: set[str] = set()
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


def _key(name: str, obj: Any) -> tuple[str, int]:
    # A class or function is itself wherever it is exported (under any name); a constant is its name and
    # value together, so two modules' unrelated DEFAULT_HASH_MB of the same small int stay apart.
    if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        return ("", id(obj))
    return (name, id(obj))


@functools.cache
def entries() -> tuple[Entry, ...]:
    """Every public name's home entry, in module order then export order."""
    modules = public_modules()
    exporters: dict[tuple[str, int], list[tuple[str, str]]] = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in exported(module_name):
            obj = getattr(module, name)
            exporters.setdefault(_key(name, obj), []).append((module_name, name))
    homes: list[Entry] = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in exported(module_name):
            obj = getattr(module, name)
            if _home(obj, exporters[_key(name, obj)]) == (module_name, name):
                homes.append(Entry(module_name, name, _kind(obj)))
    return tuple(homes)


def _home(obj: Any, candidates: list[tuple[str, str]]) -> tuple[str, str]:
    for module_name, name in candidates:
        if module_name == "camelpy":
            return module_name, name
    defining = getattr(obj, "__module__", None) if inspect.isclass(obj) or inspect.isroutine(obj) else None
    for module_name, name in candidates:
        if module_name == defining or (defining is None and name in _assigned(module_name)):
            return module_name, name
    return candidates[0]


def home_of(module_name: str, name: str) -> Entry:
    """Where the public name *module_name*.*name* is documented."""
    module = importlib.import_module(module_name)
    obj = getattr(module, name)
    for entry in entries():
        other = getattr(importlib.import_module(entry.module), entry.name)
        if _key(entry.name, other) == _key(name, obj):
            return entry
    raise LookupError(f"{module_name}.{name} has no home entry")


def shadowed_modules() -> frozenset[str]:
    """Modules whose dotted name is also a documented object's (``camelpy.review`` is the module and the
    function ``camelpy`` exports): the object keeps the name in the index, the module's page its text."""
    return frozenset(entry.qualified for entry in entries()) & frozenset(public_modules())


def module_rst(module_name: str) -> list[str]:
    """The reStructuredText of one module's reference: its docstring, then each name at home there."""
    lines = [f".. automodule:: {module_name}"]
    if module_name in shadowed_modules():
        lines.append("   :no-index:")
    lines.append("")
    module = importlib.import_module(module_name)
    for entry in entries():
        if entry.module != module_name:
            continue
        lines.append(f".. {entry.kind}:: {entry.qualified}")
        if entry.kind in ("autoclass", "autoexception"):
            lines += ["   :members:", "   :undoc-members:", "   :show-inheritance:"]
        elif entry.kind == "autodata" and len(repr(getattr(module, entry.name))) > MAX_VALUE_REPR:
            lines.append("   :no-value:")
        lines.append("")
    return lines


@functools.cache
def stub_signatures() -> dict[str, tuple[str, str | None]]:
    """The native module's signatures as ``_core.pyi`` types them: ``"Position.fen"`` → ``("(*, shredder:
    bool = False)", "str")``. The extension's own text signatures carry no types; the stubs (checked against
    it by ``tests/test_stubs.py``) do. Overloaded names are left out (autodoc keeps the text signature)."""
    import camelpy

    tree = ast.parse((Path(camelpy.__file__).parent / "_core.pyi").read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str | None]] = {}
    overloaded: set[str] = set()

    def add(qualname: str, node: ast.FunctionDef, drop_first: bool) -> None:
        decorators = {ast.unparse(d) for d in node.decorator_list}
        if "overload" in decorators or "typing.overload" in decorators or qualname in found:
            overloaded.add(qualname)
        if decorators & {"property", "staticmethod"} == {"property"}:
            return
        args = node.args
        if drop_first and "staticmethod" not in decorators:
            # Without self (or cls); defaults belong to the last parameters, so they stay as they are.
            if args.posonlyargs:
                args.posonlyargs = args.posonlyargs[1:]
            elif args.args:
                args.args = args.args[1:]
        returns = ast.unparse(node.returns) if node.returns is not None else None
        found[qualname] = (f"({ast.unparse(args)})", returns)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            add(node.name, node, False)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    add(f"{node.name}.{item.name}", item, True)
    return {name: sig for name, sig in found.items() if name not in overloaded}


def _is_native(obj: Any) -> bool:
    core = importlib.import_module("camelpy._core")
    natives = {id(value) for value in vars(core).values()}
    owner = getattr(obj, "__objclass__", None) or getattr(obj, "__self__", None)
    return id(obj) in natives or (owner is not None and id(owner) in natives)


FOREIGN_MODULES = (
    "chess",
    "typing",
    "typing_extensions",
    "collections",
    "os",
    "pathlib",
    "threading",
    "asyncio",
    "argparse",
    "concurrent",
    "numpy",
    "enum",
    "dataclasses",
    "io",
    "types",
    "datetime",
    "subprocess",
)
"""Modules whose names the reference leaves as text (nothing outside camelpy is linked)."""


def _foreign(target: str) -> bool:
    import builtins

    head = target.split(".", 1)[0]
    return head in FOREIGN_MODULES or (target == head and hasattr(builtins, target))


def _resolve(dotted: str) -> Any:
    """The object at a dotted path (a module's, or an attribute's of one), or None."""
    parts = dotted.split(".") if dotted else []
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def setup(app: Any) -> dict[str, Any]:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.transforms.post_transforms import SphinxPostTransform
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    logger = logging.getLogger("camelpy_api")

    class CamelpyModule(SphinxDirective):
        """``{camelpy-module} camelpy.engine``: the module's docstring and its names' autodoc entries."""

        required_arguments = 1
        has_content = False

        def run(self) -> list[Any]:
            # The pages are MyST Markdown, whose nested parse reads Markdown: the reStructuredText that
            # autodoc needs goes in an eval-rst block.
            container = nodes.container()
            text = StringList()
            for line in ["```{eval-rst}", *module_rst(self.arguments[0]), "```"]:
                text.append(line, f"<camelpy-module {self.arguments[0]}>")
            nested_parse_with_titles(self.state, text, container)
            return container.children

    def warn_on_missing_docstring(
        app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
    ) -> None:
        # A constant without a docstring of its own gets its type's from autodoc (int's "int([x]) ->
        # integer"): that is no docstring.
        type_doc = type(obj).__doc__
        if what in ("data", "attribute") and not inspect.isclass(obj) and isinstance(type_doc, str):
            if _words(lines) == _words([type_doc]):
                lines.clear()
        # A public module, class, function or module constant without a docstring is a warning, so -W
        # fails the build.
        if what in DOCSTRING_REQUIRED and not any(line.strip() for line in lines):
            logger.warning("%s %s has no docstring", what, name)

    def typed_native_signature(
        app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None, returns: str | None
    ) -> tuple[str, str | None] | None:
        # A class or function of the native module takes its signature from the stubs.
        parent_path, _, attribute = name.rpartition(".")
        parent = _resolve(parent_path)
        if inspect.isclass(parent) and _is_native(parent):  # a method, static ones included
            return stub_signatures().get(f"{parent.__name__}.{attribute}")
        if not _is_native(obj):
            return None
        if inspect.isclass(obj):
            stub = stub_signatures().get(f"{obj.__name__}.__new__") or stub_signatures().get(
                f"{obj.__name__}.__init__"
            )
            return (stub[0], None) if stub else None
        return stub_signatures().get(getattr(obj, "__qualname__", ""))

    class ForeignNames(SphinxPostTransform):
        """Leaves names from outside camelpy (``int``, ``chess.Board``, ``typing.Any``) as plain text before
        the references are resolved: without intersphinx none of them resolves, and the Python domain's
        search for each (every annotation in every signature, over every object of the site) was a fifth
        of the build."""

        default_priority = 5  # before ReferencesResolver (10)

        def run(self, **kwargs: Any) -> None:
            from sphinx.addnodes import pending_xref

            for node in list(self.document.findall(pending_xref)):
                target = node.get("reftarget", "")
                if node.get("refdomain") == "py" and _foreign(target):
                    node.replace_self(node.children or [nodes.Text(target)])

    app.add_post_transform(ForeignNames)
    app.add_directive("camelpy-module", CamelpyModule)
    app.connect("autodoc-process-signature", typed_native_signature)
    app.connect("autodoc-process-docstring", warn_on_missing_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

"""Sphinx configuration of camelpy's documentation site (``pip install '.[docs]'``, then
``sphinx-build -b html docs docs/_build``; ``tests/test_docs.py`` builds it with ``-W`` in CI)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import camelpy  # noqa: E402  (the installed package: the reference documents what users import)

project = "camelpy"
author = "the camelpy developers"
copyright = "the camelpy developers, GPL-3.0-or-later"
release = camelpy.__version__
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc", "camelpy_api"]
source_suffix = {".md": "markdown"}
root_doc = "index"
# docs/tune holds tuning runs' output (weights, moved-weights tables, loss plots), named by strength.md.
exclude_patterns = ["_build", "_ext", "tune", "Thumbs.db", ".DS_Store"]

# MyST: headings get anchors down to ###, so pages link to each other's sections as page.md#anchor, and a
# link to a page or an anchor that is not there is a warning (an error under -W).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The reference lists names in the order their module's __all__ gives them; signatures carry the type
# hints of the code (and of the _core stubs' classes, through their text signatures).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
add_module_names = False
# Objects stay out of the tables of contents: 500 entries in every page's sidebar would double the build.
toc_object_entries = False
python_maximum_signature_line_length = 100

# Without intersphinx, python-chess's names do not resolve (and, not being nitpicky, say nothing); what is
# left of the Python domain's reference warnings is ambiguity between same-named attributes (every GUI
# message's ``type`` field matches a ``type[...]`` annotation), which is noise.
suppress_warnings = ["ref.python"]

html_theme = "furo"
html_title = f"camelpy {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
# No network at build time: nothing is fetched (no intersphinx), and no external link is checked.

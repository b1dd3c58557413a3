"""Evaluation weights as data: the JSON files ``camelpy tune`` writes, read and applied in one place for
:meth:`camelpy.Engine.set_params` and the UCI option ``ParamsFile``.

A weights file is a JSON object mapping weight names (``Engine.params()``, the UCI spin options) to
integers. Applying weights is all or nothing: every name and value is checked against the core's table
before any is set, so a bad file leaves the engine as it was.

>>> import json, tempfile, camelpy
>>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
...     json.dump({"tempo_mg": 25}, f)
>>> read_params_file(f.name)
{'tempo_mg': 25}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

from camelpy._args import read_text
from camelpy._quote import quote

__all__ = ["MAX_PARAMS_BYTES", "SHOW_TUNING_OPTIONS", "ParamTable", "apply_params", "read_params_file"]

MAX_PARAMS_BYTES = 1 << 20
"""Largest weights file read (1 MiB): the engine has some hundreds of weights, a few kilobytes of JSON."""

SHOW_TUNING_OPTIONS = "Show Tuning Options"
"""The UCI check option (default false) whose value true makes the next ``uci`` list the tuning options
too: every classical evaluation weight and every search setting, one spin option each. They are settable
by ``setoption`` whether listed or not; the UCI loop declares the option and the arena and ``camelpy spsa``
set it to read the full list (here, below both, so that neither imports the other)."""


class ParamTable(Protocol):
    """What weights are applied to: the native engine (``camelpy._core.Engine``)."""

    def params(self) -> list[tuple[str, int, int, int]]:
        """Each weight as ``(name, value, min, max)``."""
        ...

    def set_param(self, name: str, value: int) -> None:
        """Sets the weight *name* to *value*."""
        ...


def read_params_file(path: str) -> dict[str, int]:
    """The weights in the JSON file *path*.

    :raises: :exc:`ValueError` naming the file for one that cannot be read, is not JSON, or is not an
        object of integers.
    """
    text = read_text(path, "path", "weights file", limit=MAX_PARAMS_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"weights file {quote(path)} is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise ValueError(f"weights file {quote(path)} must hold a JSON object of weight names to integers")
    for name, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"weights file {quote(path)}: {quote(name)} must be an integer, got {value!r}")
    return data


def apply_params(table: ParamTable, values: Mapping[str, int], *, reset: bool = False) -> None:
    """Sets *values* on *table* (with *reset*, every weight not in *values* returns to its default
    first), all or nothing: on an unknown name or a value out of range nothing changes.

    :raises: :exc:`ValueError` for an unknown name or a value outside the weight's range,
        :exc:`TypeError` for a value that is not an integer.
    """
    rows = table.params()
    known = {name: (low, high) for name, _, low, high in rows}
    for name, value in values.items():
        if name not in known:
            raise ValueError(f"unknown evaluation parameter {quote(name)}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
        low, high = known[name]
        if not low <= value <= high:
            raise ValueError(f"evaluation parameter {name} = {value} is outside [{low}, {high}]")
    if reset:
        from camelpy import _core

        for name, default, _, _ in _core.default_params():
            table.set_param(name, values.get(name, default))
    else:
        for name, value in values.items():
            table.set_param(name, value)

"""JSON from a page or a match's files, parsed within bounds: its length and its nesting.

:func:`json.loads` raises :exc:`RecursionError` (not :exc:`ValueError`) on a deeply nested text, and
a value nested a few hundred deep parses but then breaks whatever walks it recursively (``repr``,
:func:`json.dumps`). :func:`parse_json` turns both into a :exc:`ValueError` naming the bound, so one
``except ValueError`` covers every bad input.

>>> parse_json('{"op": "move", "uci": "e2e4"}', max_length=100, max_depth=4)
{'op': 'move', 'uci': 'e2e4'}
>>> parse_json("[" * 10_000 + "]" * 10_000, max_length=100_000, max_depth=4)
Traceback (most recent call last):
...
ValueError: JSON nested deeper than 4
>>> parse_json('"' + "x" * 200 + '"', max_length=100, max_depth=4)
Traceback (most recent call last):
...
ValueError: JSON longer than 100 characters (202)
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["depth", "parse_json"]


def depth(value: object) -> int:
    """How deeply *value* (as :func:`json.loads` makes it) nests: 0 for a scalar, 1 for a flat list
    or object. Walked without recursion, so any depth is safe to measure.

    >>> depth(1), depth([]), depth({"a": [1, {"b": 2}]})
    (0, 1, 3)
    """
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def parse_json(text: str | bytes, *, max_length: int, max_depth: int) -> Any:
    """*text* parsed as JSON, provided it is at most *max_length* characters (bytes for ``bytes``)
    and nests at most *max_depth* deep.

    :raises: :exc:`ValueError` for text that is not JSON (or not UTF-8), too long, or nested too
        deeply; the message names the bound, never the text.
    """
    if len(text) > max_length:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise ValueError(f"JSON longer than {max_length} {unit} ({len(text)})")
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {max_depth}") from None
    if depth(value) > max_depth:
        raise ValueError(f"JSON nested deeper than {max_depth}")
    return value

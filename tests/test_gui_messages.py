"""The page's script against the GUI's message definitions (:mod:`camelpy.gui.messages`), both ways.

The script is read from ``static/index.html``'s ``<script src>`` files, as text: each op it sends
(``send("name", {fields})``, or ``send("name", variable)`` with the variable's object literal and the
fields set on it later) and each message kind it handles (``const handlers = {kind: (m) => …}``, with
the fields read as ``m.field``). An op or a message, or one of their fields, that the page uses and
the server does not define fails, and so does one that the server defines and the page does not use,
unless :data:`~camelpy.gui.messages.NOT_FROM_THE_PAGE` or
:data:`~camelpy.gui.messages.NOT_READ_BY_THE_PAGE` names it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from camelpy.gui import messages, session
from camelpy.gui.messages import MESSAGES, NOT_FROM_THE_PAGE, NOT_READ_BY_THE_PAGE, OPS
from camelpy.gui.variants import VARIANTS

STATIC = Path(messages.__file__).parent / "static"

_CLOSE = {"(": ")", "[": "]", "{": "}"}


def script() -> str:
    """The page's script: the files ``index.html`` loads, in its order."""
    html = (STATIC / "index.html").read_text()
    sources = re.findall(r'<script src="/static/([\w.]+)"></script>', html)
    assert "app.js" in sources, sources
    return "\n".join((STATIC / name).read_text() for name in sources)


def balanced(text: str, start: int) -> str:
    """The bracketed text opening at *start* (``(``, ``[`` or ``{``), skipping strings and templates."""
    stack: list[str] = []
    index = start
    while index < len(text):
        char = text[index]
        if char in "\"'`":
            end = text.index(char, index + 1)
            while text[end - 1] == "\\":
                end = text.index(char, end + 1)
            index = end
        elif char in _CLOSE:
            stack.append(_CLOSE[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return text[start : index + 1]
        index += 1
    raise AssertionError(f"no closing bracket for {text[start : start + 40]!r}")


def entries(literal: str) -> list[str]:
    """An object literal's entries (``key: value``, or a shorthand ``key``), split at its top level."""
    inner, parts, depth, start, index = literal[1:-1], [], 0, 0, 0
    while index < len(inner):
        char = inner[index]
        if char in "\"'`":
            index = inner.index(char, index + 1)
        elif char in _CLOSE:
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[start:index])
            start = index + 1
        index += 1
    parts.append(inner[start:])
    return [part.strip() for part in parts if part.strip()]


def keys(literal: str) -> set[str]:
    """An object literal's keys (no spread: a field the test cannot see would pass unchecked)."""
    found = set()
    for entry in entries(literal):
        match = re.match(r"(\w+)\s*(?::|$)", entry)
        assert match is not None and not entry.startswith("..."), f"cannot read the entry {entry!r}"
        found.add(match[1])
    return found


def sent(text: str) -> dict[str, set[str]]:
    """Each op the script sends, with the fields it sends (over every place that sends it)."""
    ops: dict[str, set[str]] = {}
    for call in re.finditer(r'\bsend\("(\w+)"\s*(,\s*)?', text):
        fields = ops.setdefault(call[1], set())
        if not call[2]:
            continue
        rest = call.end()
        if text[rest] == "{":
            fields |= keys(balanced(text, rest))
            continue
        name = re.match(r"\w+", text[rest:])
        assert name is not None, f"cannot read the op sent at {text[call.start() : call.start() + 60]!r}"
        made = re.search(rf"\b(?:const|let)\s+{name[0]}\s*=\s*\{{", text)
        assert made is not None, f"no object literal for {name[0]!r}"
        fields |= keys(balanced(text, made.end() - 1))
        fields |= set(re.findall(rf"\b{name[0]}\.(\w+)\s*=[^=]", text))
    return ops


def handled(text: str) -> dict[str, set[str]]:
    """Each message kind the script's ``handlers`` take, with the fields each reads from its message."""
    table = re.search(r"\bconst handlers\s*=\s*\{", text)
    assert table is not None, "no `const handlers = {…}` in the page's script"
    kinds: dict[str, set[str]] = {}
    for entry in entries(balanced(text, table.end() - 1)):
        match = re.fullmatch(r"(\w+):\s*\((\w+)\)\s*=>\s*(.*)", entry, re.DOTALL)
        assert match is not None, f"cannot read the handler {entry!r}"
        kind, name, body = match[1], match[2], match[3]
        assert re.search(rf"\b{name}\b(?!\.)", body) is None, f"{kind}'s handler passes its whole message on"
        kinds[kind] = set(re.findall(rf"\b{name}\.(\w+)", body))
    return kinds


def test_the_script_is_read() -> None:
    text = script()
    assert sent(text)["move"] == {"uci"} and sent(text)["undo"] == set()
    assert {"variant", "strength", "clock", "chess960"} <= sent(text)["new_game"]
    assert handled(text)["engine_info"] == {"info"}
    assert keys('{ a: f(1, 2), b, c: { d: "x,y" } }') == {"a", "b", "c"}
    with pytest.raises(AssertionError, match="cannot read"):
        keys("{ ...rest }")


def test_every_op_the_page_sends_is_defined_with_its_fields() -> None:
    page = sent(script())
    assert set(page) == set(OPS) - NOT_FROM_THE_PAGE
    assert NOT_FROM_THE_PAGE <= set(OPS)
    for op, fields in page.items():
        assert fields == set(OPS[op].__annotations__) - {"op"}, op


def test_every_message_the_server_sends_is_handled_by_the_page() -> None:
    page = handled(script())
    assert set(page) == set(MESSAGES)
    for kind, definition in MESSAGES.items():
        defined = set(definition.__annotations__) - {"type"}
        unread = NOT_READ_BY_THE_PAGE.get(kind, frozenset())
        assert page[kind] <= defined, f"{kind}: the page reads {sorted(page[kind] - defined)}"
        assert defined - page[kind] == unread, kind


def test_the_server_handles_each_op_defined() -> None:
    assert set(session.HANDLERS) == set(OPS)
    for name, handler in session.HANDLERS.items():
        assert handler.__annotations__["msg"] == OPS[name].__name__, name


def test_the_page_offers_every_game() -> None:
    html = (STATIC / "index.html").read_text()
    for select in ("ng-variant", "an-variant"):
        block = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.DOTALL)
        assert block is not None, select
        assert re.findall(r'<option value="(\w+)"', block[1]) == list(VARIANTS), select

"""The UCI option table: declaration lines for ``uci`` and value parsing for ``setoption``.

Names are matched case-insensitively and may contain spaces (``setoption name move overhead value 30``).
A bad value raises :class:`OptionError` (a ``ValueError``) naming the option and what it accepts; the
loop reports it as ``info string`` and keeps the old value.

>>> from camelpy.protocols.uci.options import Option
>>> hash_option = Option.spin("Hash", 16, 1, 1024)
>>> hash_option.declaration()
'option name Hash type spin default 16 min 1 max 1024'
>>> hash_option.parse("64")
64
>>> hash_option.parse("0")
Traceback (most recent call last):
...
camelpy.protocols.uci.options.OptionError: option 'Hash' takes an integer from 1 to 1024, got '0'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Union

from camelpy._quote import quote

__all__ = ["Option", "OptionError", "OptionTable", "Value"]

Value = Union[int, bool, str, None]
"""An option's value: int (spin), bool (check), str (string, combo), None (button)."""

EMPTY_STRING = "<empty>"
"""How an empty string default is written (as Stockfish does); also accepted as a value meaning ''."""


class OptionError(ValueError):
    """An unknown option name, or a value the option does not accept (the message names both)."""


@dataclasses.dataclass(frozen=True)
class Option:
    """One UCI option: its name, type, default, and the range (spin) or choices (combo).

    >>> Option.check("Ponder", False).declaration()
    'option name Ponder type check default false'
    """

    name: str
    kind: str
    """``spin``, ``check``, ``button``, ``string`` or ``combo``."""
    default: Value = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    hidden: bool = False
    """Left out of the ``uci`` answer unless asked for (a tuning weight); settable all the same."""

    @classmethod
    def spin(cls, name: str, default: int, lo: int, hi: int, *, hidden: bool = False) -> Option:
        """An integer option within ``lo..hi`` (*hidden*: listed only when asked for, see
        :meth:`OptionTable.listed`)."""
        return cls(name, "spin", default, lo, hi, hidden=hidden)

    @classmethod
    def check(cls, name: str, default: bool) -> Option:
        """A boolean option (``true``/``false``)."""
        return cls(name, "check", default)

    @classmethod
    def button(cls, name: str) -> Option:
        """An action without a value."""
        return cls(name, "button")

    @classmethod
    def string(cls, name: str, default: str = "") -> Option:
        """A free text option."""
        return cls(name, "string", default)

    def declaration(self) -> str:
        """The ``option name … type …`` line sent in answer to ``uci``."""
        line = f"option name {self.name} type {self.kind}"
        if self.kind == "spin":
            line += f" default {self.default} min {self.min} max {self.max}"
        elif self.kind == "check":
            line += f" default {'true' if self.default else 'false'}"
        elif self.kind == "string":
            line += f" default {self.default or EMPTY_STRING}"
        elif self.kind == "combo":
            line += f" default {self.default}" + "".join(f" var {c}" for c in self.choices)
        return line

    def parse(self, text: str | None) -> Value:
        """The value *text* (from ``setoption … value <text>``; ``None`` if there was no ``value``) means.

        >>> Option.check("UCI_ShowWDL", False).parse("TRUE")
        True
        >>> Option.string("SyzygyPath").parse("<empty>")
        ''

        :raises: :exc:`OptionError` when the option does not accept it.
        """
        if self.kind == "button":
            return None
        if text is None:
            raise OptionError(f"option {self.name!r} needs a value ({self.accepts()})")
        if self.kind == "string":
            return "" if text == EMPTY_STRING else text
        if self.kind == "check":
            lowered = text.lower()
            if lowered not in ("true", "false"):
                raise OptionError(f"option {self.name!r} takes true or false, got {quote(text)}")
            return lowered == "true"
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise OptionError(f"option {self.name!r} takes {self.accepts()}, got {quote(text)}")
        try:
            number = int(text)
        except ValueError:
            number = None
        assert self.min is not None and self.max is not None
        if number is None or not self.min <= number <= self.max:
            raise OptionError(f"option {self.name!r} takes {self.accepts()}, got {quote(text)}")
        return number

    def accepts(self) -> str:
        """What values are accepted, in words."""
        if self.kind == "spin":
            return f"an integer from {self.min} to {self.max}"
        if self.kind == "check":
            return "true or false"
        if self.kind == "combo":
            return "one of " + ", ".join(self.choices)
        if self.kind == "string":
            return "a string"
        return "no value"


class OptionTable:
    """Options by case-insensitive name, with their current values.

    >>> table = OptionTable([Option.spin("Move Overhead", 10, 0, 5000)])
    >>> table.set("move overhead", "30")
    ('Move Overhead', 30)
    >>> table["Move Overhead"]
    30
    >>> table.set("Hash", "1")
    Traceback (most recent call last):
    ...
    camelpy.protocols.uci.options.OptionError: no such option: 'Hash'
    """

    def __init__(self, options: Iterable[Option]) -> None:
        self._options: dict[str, Option] = {}
        self._values: dict[str, Value] = {}
        for option in options:
            key = option.name.lower()
            self._options[key] = option
            self._values[key] = option.default

    def __iter__(self) -> Iterator[Option]:
        return iter(self._options.values())

    def listed(self, *, hidden: bool = False) -> Iterator[Option]:
        """The options ``uci`` declares: every one with *hidden*, else those not :attr:`Option.hidden`
        (a hidden option is settable whether it is listed or not).

        >>> tunable = Option.spin("rfp_margin", 75, 35, 150, hidden=True)
        >>> table = OptionTable([Option.spin("Hash", 16, 1, 64), tunable])
        >>> [o.name for o in table.listed()], [o.name for o in table.listed(hidden=True)]
        (['Hash'], ['Hash', 'rfp_margin'])
        >>> table.set("rfp_margin", "80")
        ('rfp_margin', 80)
        """
        return (option for option in self._options.values() if hidden or not option.hidden)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._options

    def __getitem__(self, name: str) -> Value:
        return self._values[name.lower()]

    def option(self, name: str) -> Option:
        """The option called *name* (any case).

        :raises: :exc:`OptionError` for an unknown name.
        """
        try:
            return self._options[name.lower()]
        except KeyError:
            raise OptionError(f"no such option: {quote(name)}") from None

    def set(self, name: str, text: str | None) -> tuple[str, Value]:
        """Parses and stores a value; returns the option's canonical name and the new value.

        :raises: :exc:`OptionError` for an unknown name or a bad value (the old value is kept).
        """
        option = self.option(name)
        value = option.parse(text)
        if option.kind != "button":
            self._values[option.name.lower()] = value
        return option.name, value

"""``camelpy spsa``: tunes an engine's UCI spin options by playing games (SPSA, as OpenBench and fishtest do).

The method is Spall's simultaneous perturbation stochastic approximation (Spall 1998, "Implementation of
the simultaneous perturbation algorithm for stochastic optimization"). Each iteration ``k`` (from 0)
draws a random sign ``Δᵢ = ±1`` for every parameter at once and plays game pairs (one opening, colours
swapped) between the engine set to ``θ + c_k·Δ`` and the engine set to ``θ − c_k·Δ``; the score
difference of the two, ``W − L`` from the ``+`` side, estimates the slope along ``Δ``, and every
parameter moves at once:

    ``θᵢ ← clamp(θᵢ + a_k · (W − L) / (c_kᵢ · Δᵢ))``, ``a_kᵢ = aᵢ / (A + k + 1)^α``, ``c_kᵢ = cᵢ / (k + 1)^γ``

with Spall's ``α = 0.602``, ``γ = 0.101`` and ``A`` a tenth of the iterations. Each parameter is given
as OpenBench and Stockfish's ``TUNE`` write it: its perturbation ``c_end`` and learning rate ``r_end``
at the *last* iteration (``r = a / c²``, the step per point of ``W − L`` per unit of ``c``), from which
``c = c_end · N^γ`` and ``a = r_end · c_end² · (A + N)^α`` (``N`` iterations; OpenBench's
``create_workload``). Like OpenBench, an integer parameter's perturbation is never below 0.5 and the
two perturbed values are rounded together at random (``floor(x + u)``, one ``u`` for both sides), so
that ``θ + c`` and ``θ − c`` differ and the rounding adds no bias; ``θ`` itself stays a float, clamped
to the parameter's range after each step.

The optimiser (:class:`Spsa`) knows nothing of chess: :meth:`Spsa.step` hands the objective a
:class:`Trial` (the iteration, the two settings) and takes back the ``+`` side's score difference. A
simulated match with a known optimum (:func:`simulated_match`) shows it finding it:

>>> params = [SpsaParam("x", 20, 0, 100, c_end=4, r_end=0.02),
...           SpsaParam("y", -30, -50, 50, c_end=4, r_end=0.02)]
>>> spsa = Spsa(params, SpsaSettings(iterations=300, pairs=8), seed=1)
>>> theta = spsa.run(simulated_match({"x": 60, "y": 10}, width={"x": 25, "y": 25}, pairs=8, seed=1))
>>> abs(theta["x"] - 60) < 8, abs(theta["y"] - 10) < 8
(True, True)

The ``camelpy spsa`` command plays those pairs with ``camelpy match``'s runner (local processes with
``--concurrency``, or a Ray cluster with ``--ray``), keeps its state in an output folder after every
iteration (so running the same command again continues), draws every parameter's path as a PNG, and
prints the result as ``setoption`` lines and ``option.NAME=VALUE`` words for ``camelpy match``'s SPRT.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import difflib
import io
import json
import math
import os
import random
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from camelpy import cluster
from camelpy._args import brief, int_arg, items_arg, path_arg, real_arg, shown, str_arg
from camelpy._quote import quote

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_A_RATIO",
    "DEFAULT_GAMMA",
    "DEFAULT_PAIRS",
    "DEFAULT_R_END",
    "Spsa",
    "SpsaParam",
    "SpsaSettings",
    "Step",
    "Trial",
    "add_arguments",
    "add_run_arguments",
    "carry_from_args",
    "format_params",
    "main",
    "params_from_args",
    "parse_param",
    "play_iterations",
    "plot_paths",
    "plot_saved",
    "read_params",
    "resume",
    "setoption_lines",
    "settings_from_args",
    "simulated_match",
    "time_forfeits",
]

DEFAULT_ALPHA = 0.602
"""Exponent of the step's decay ``a / (A + k + 1)^α``: Spall's (1998) practical value (asymptotically
optimal is 1; 0.602 keeps the steps large for longer), the default of OpenBench and fishtest."""

DEFAULT_GAMMA = 0.101
"""Exponent of the perturbation's decay ``c / (k + 1)^γ``: Spall's (1998) practical value (asymptotically
optimal is 1/6), the default of OpenBench and fishtest."""

DEFAULT_A_RATIO = 0.1
"""``A``, the step's stability constant, as a share of the iterations: Spall suggests about a tenth of
the iterations; OpenBench's default A-ratio."""

DEFAULT_R_END = 0.002
"""The learning rate at the last iteration when a parameter does not give one: the ``r_end`` Stockfish's
``TUNE`` macro writes for every parameter."""

C_END_SHARE = 20
"""A parameter without a ``c_end`` gets ``(max − min) / C_END_SHARE``: Stockfish's ``TUNE`` default."""

DEFAULT_PAIRS = 8
"""Game pairs per iteration: enough to spread the cost of starting the two engines (they are started
afresh with new options every iteration), few enough for many small steps."""

MIN_INTEGER_C = 0.5
"""The smallest perturbation of an integer parameter (OpenBench's): ``θ ± 0.5`` round to different
integers, so the two sides always differ."""

STATE_VERSION = 1
"""Format version of ``state.json``."""

MAX_PARAMS_BYTES = 1 << 20
"""Largest parameters file read (1 MiB: some 20,000 lines, far beyond any tune)."""

MAX_STATE_BYTES = 256 << 20
"""Largest ``state.json`` resumed (256 MiB: a million iterations of a few parameters)."""


def _finite(value: object, name: str) -> float:
    return real_arg(value, name)


@dataclasses.dataclass(frozen=True)
class SpsaParam:
    """One tuned parameter: its name (a UCI spin option for ``camelpy spsa``), starting value, range,
    and its perturbation ``c_end`` and learning rate ``r_end`` at the last iteration.

    >>> SpsaParam("rfp_margin", 80, 20, 200, c_end=9)
    SpsaParam(name='rfp_margin', default=80, minimum=20, maximum=200, c_end=9, r_end=0.002, integer=True)
    >>> SpsaParam("rfp_margin", 300, 20, 200, c_end=9)
    Traceback (most recent call last):
    ...
    ValueError: parameter 'rfp_margin': default 300 is outside its range [20, 200]

    :raises: :exc:`ValueError` for an empty name or one holding ``,`` ``=`` or a line break, a minimum not
        below the maximum, a default outside the range, a ``c_end`` or ``r_end`` not above 0, NaN or
        infinity, or a non-integral number for an integer parameter; :exc:`TypeError` for a value of the
        wrong type.
    """

    name: str
    """The parameter's (option's) name."""
    default: float
    """The starting value."""
    minimum: float
    """The smallest value tried (and sent)."""
    maximum: float
    """The largest value tried (and sent)."""
    c_end: float
    """The perturbation ``c_k`` at the last iteration, in the parameter's units."""
    r_end: float = DEFAULT_R_END
    """The learning rate ``a_k / c_k²`` at the last iteration."""
    integer: bool = True
    """Whether the engine takes whole numbers (UCI spin options do): perturbed values are rounded."""

    def __post_init__(self) -> None:
        name = str_arg(self.name, "parameter name")
        if not name.strip() or any(ch in name for ch in ",=\n\r") or name != name.strip():
            raise ValueError(
                f"bad parameter name {quote(name)}: not empty, no ',' '=' or line break, no outer spaces"
            )
        what = f"parameter {quote(name)}"
        if not isinstance(self.integer, bool):
            raise TypeError(f"{what}: integer must be a bool, got {shown(self.integer)}")
        try:
            values = [
                _finite(getattr(self, field), field) for field in ("default", "minimum", "maximum", "c_end")
            ]
            _finite(self.r_end, "r_end")
        except (TypeError, ValueError) as err:
            raise type(err)(f"{what}: {err}") from None
        default, minimum, maximum, _ = values
        if self.integer:
            for field, value in zip(("default", "minimum", "maximum"), values):
                if value != math.floor(value):
                    raise ValueError(f"{what}: {field} {shown(getattr(self, field))} is not a whole number")
        if not minimum < maximum:
            raise ValueError(f"{what}: min {_num(minimum)} must be below max {_num(maximum)}")
        if not minimum <= default <= maximum:
            raise ValueError(
                f"{what}: default {_num(default)} is outside its range [{_num(minimum)}, {_num(maximum)}]"
            )
        if not self.c_end > 0:
            raise ValueError(f"{what}: c_end must be above 0, got {shown(self.c_end)}")
        if not self.r_end > 0:
            raise ValueError(f"{what}: r_end must be above 0, got {shown(self.r_end)}")

    def clamp(self, value: float) -> float:
        """*value* within ``[minimum, maximum]``.

        >>> SpsaParam("x", 5, 0, 10, c_end=1).clamp(12.5)
        10.0
        """
        return float(min(max(value, self.minimum), self.maximum))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the resume check compares these)."""
        return dataclasses.asdict(self)


def _num(value: float) -> str:
    """A number as the user wrote it: ``80`` rather than ``80.0``."""
    return f"{value:g}" if value == math.floor(value) and abs(value) < 1e15 else repr(value)


@dataclasses.dataclass(frozen=True)
class SpsaSettings:
    """The run's length and schedule: *iterations* ``N``, game *pairs* per iteration, the decay
    exponents *alpha* and *gamma*, and ``A = a_ratio · N``.

    >>> SpsaSettings(iterations=1000)
    SpsaSettings(iterations=1000, pairs=8, alpha=0.602, gamma=0.101, a_ratio=0.1)
    >>> SpsaSettings(iterations=1000, gamma=0.7)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be below alpha (0.602), got 0.7

    :raises: :exc:`ValueError` for fewer than 1 iteration or pair, an *alpha* outside (0, 1], a *gamma*
        below 0 or not below *alpha*, a negative *a_ratio*, NaN or infinity; :exc:`TypeError` for a value
        of the wrong type.
    """

    iterations: int
    """``N``: the planned iterations (the schedule reaches ``c_end`` and ``r_end`` at the last one)."""
    pairs: int = DEFAULT_PAIRS
    """Game pairs played per iteration (two games each, colours swapped)."""
    alpha: float = DEFAULT_ALPHA
    """The step's decay exponent."""
    gamma: float = DEFAULT_GAMMA
    """The perturbation's decay exponent."""
    a_ratio: float = DEFAULT_A_RATIO
    """``A`` as a share of the iterations."""

    def __post_init__(self) -> None:
        int_arg(self.iterations, "iterations", 1, 100_000_000)
        int_arg(self.pairs, "pairs", 1, 1_000_000)
        real_arg(self.alpha, "alpha", above=0, maximum=1)
        real_arg(self.gamma, "gamma", minimum=0)
        if not self.gamma < self.alpha:
            raise ValueError(f"gamma must be below alpha ({self.alpha:g}), got {shown(self.gamma)}")
        real_arg(self.a_ratio, "a_ratio", minimum=0)

    @property
    def big_a(self) -> float:
        """``A``, the step's stability constant."""
        return self.a_ratio * self.iterations

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the resume check compares these)."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Trial:
    """What one iteration plays: the engine set to *plus* (``θ + c_k·Δ``) against *minus* (``θ − c_k·Δ``),
    values clamped and, for integer parameters, rounded."""

    iteration: int
    """``k``, from 0."""
    plus: dict[str, float]
    """The ``+`` side's value of every parameter, by name (an ``int`` for an integer parameter)."""
    minus: dict[str, float]
    """The ``−`` side's values."""
    flips: tuple[int, ...]
    """``Δ``: +1 or −1 per parameter, in the parameters' order."""


@dataclasses.dataclass(frozen=True)
class Step:
    """One finished iteration: its :class:`Trial`'s iteration and signs, the score difference it gave,
    the perturbations and steps used, and ``θ`` after the update."""

    iteration: int
    """``k``, from 0."""
    result: float
    """The objective's answer: the ``+`` side's points minus the ``−`` side's (``W − L``)."""
    flips: tuple[int, ...]
    """``Δ`` per parameter."""
    c: tuple[float, ...]
    """``c_k`` per parameter."""
    a: tuple[float, ...]
    """``a_k`` per parameter."""
    theta: tuple[float, ...]
    """``θ`` after the update, per parameter."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        """The step a :meth:`to_json` dict describes."""
        return cls(
            int(data["iteration"]),
            float(data["result"]),
            tuple(int(x) for x in data["flips"]),
            tuple(float(x) for x in data["c"]),
            tuple(float(x) for x in data["a"]),
            tuple(float(x) for x in data["theta"]),
        )


class Spsa:
    """The SPSA optimiser over *params* with *settings*, its random signs and roundings drawn from
    ``random.Random(seed)``. Pure: it plays nothing itself; :meth:`step` asks an objective.

    >>> spsa = Spsa([SpsaParam("x", 50, 0, 100, c_end=5)], SpsaSettings(iterations=10), seed=3)
    >>> step = spsa.step(lambda trial: 2.0 if trial.plus["x"] > trial.minus["x"] else -2.0)
    >>> step.iteration, spsa.iteration, spsa.theta["x"] > 50
    (0, 1, True)

    :raises: :exc:`ValueError` for no parameters or two with one name; :exc:`TypeError` for an argument
        of the wrong type.
    """

    def __init__(self, params: Sequence[SpsaParam], settings: SpsaSettings, seed: int = 0) -> None:
        self.params: tuple[SpsaParam, ...] = tuple(items_arg(params, "params", SpsaParam))
        if not self.params:
            raise ValueError("SPSA needs at least one parameter")
        seen: set[str] = set()
        for param in self.params:
            if param.name.lower() in seen:
                raise ValueError(f"parameter {quote(param.name)} is given twice")
            seen.add(param.name.lower())
        if not isinstance(settings, SpsaSettings):
            raise TypeError(f"settings must be SpsaSettings, got {type(settings).__name__} {shown(settings)}")
        self.settings = settings
        self.seed = int_arg(seed, "seed", None)
        self._rng = random.Random(self.seed)
        self._theta = [float(p.default) for p in self.params]
        self.history: list[Step] = []
        """The iterations played here, in order (after the :attr:`carried` ones)."""
        self.carried = 0
        """Iterations of an earlier run that :meth:`carry` continues, played elsewhere (0: none)."""
        self._start = tuple(self._theta)
        n = settings.iterations
        self._c0 = [p.c_end * n**settings.gamma for p in self.params]
        self._a0 = [p.r_end * p.c_end**2 * (settings.big_a + n) ** settings.alpha for p in self.params]

    @property
    def iteration(self) -> int:
        """Iterations done, the :attr:`carried` ones too (the next one's ``k``)."""
        return self.carried + len(self.history)

    @property
    def start(self) -> dict[str, float]:
        """``θ`` before the first iteration played here: the defaults, or the carried run's values."""
        return {p.name: t for p, t in zip(self.params, self._start)}

    def carry(self, iterations: int, theta: Mapping[str, float]) -> None:
        """Continues a run whose first *iterations* were played elsewhere (a folder this machine has
        not got) and left ``θ`` at *theta* (every parameter's value, by name). The random signs and
        roundings go on as that run's would have, since what they draw depends on neither ``θ`` nor the
        results: given ``θ`` exactly, the rest of the run is the one it would have played (``camelpy
        spsa``'s progress lines print it so).

        >>> params = [SpsaParam("x", 50, 0, 100, c_end=5)]
        >>> one = Spsa(params, SpsaSettings(iterations=4), seed=3)
        >>> play = lambda trial: 2.0 if trial.plus["x"] > trial.minus["x"] else -1.0
        >>> _ = one.step(play), one.step(play)
        >>> two = Spsa(params, SpsaSettings(iterations=4), seed=3)
        >>> two.carry(2, one.theta)
        >>> one.run(play) == two.run(play), two.iteration, two.carried
        (True, 4, 2)

        :raises: :exc:`ValueError` for an optimiser that has played or carried already, *iterations*
            outside 1..the settings' iterations, a parameter missing from *theta* or not tuned, or a
            value that is not finite or outside its range; :exc:`TypeError` for the wrong types.
        """
        if self.iteration:
            raise ValueError("only a new SPSA run can carry an earlier run's iterations")
        int_arg(iterations, "carried iterations", 1, self.settings.iterations)
        if not isinstance(theta, Mapping):
            raise TypeError(f"theta must be a mapping, got {type(theta).__name__} {shown(theta)}")
        names = {p.name for p in self.params}
        for name in theta:
            if name not in names:
                raise ValueError(f"carried value of {quote(str(name))}, which is not tuned here")
        values = []
        for param in self.params:
            if param.name not in theta:
                raise ValueError(f"the carried values lack {quote(param.name)}")
            value = _finite(theta[param.name], f"carried {param.name}")
            if not param.minimum <= value <= param.maximum:
                raise ValueError(
                    f"carried {param.name} {shown(value)} outside its range {param.minimum}..{param.maximum}"
                )
            values.append(value)
        for _ in range(iterations):  # the draws the carried iterations made
            self._random_draws()
        self.carried, self._theta, self._start = iterations, values, tuple(values)

    @property
    def done(self) -> bool:
        """Whether all the settings' iterations are done."""
        return self.iteration >= self.settings.iterations

    @property
    def theta(self) -> dict[str, float]:
        """The current estimate, unrounded, by name."""
        return {p.name: t for p, t in zip(self.params, self._theta)}

    def values(self) -> dict[str, float]:
        """The current estimate as the engine would take it: rounded half up for an integer parameter
        (an ``int``), in range.

        >>> Spsa([SpsaParam("x", 50, 0, 100, c_end=5)], SpsaSettings(iterations=10)).values()
        {'x': 50}
        """
        return {p.name: _rounded(p, t) for p, t in zip(self.params, self._theta)}

    def schedule(self, k: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """``(a_k, c_k)`` per parameter at iteration *k* (from 0); an integer parameter's ``c_k`` is at
        least :data:`MIN_INTEGER_C`.

        >>> spsa = Spsa([SpsaParam("x", 50, 0, 100, c_end=5, r_end=0.002)], SpsaSettings(iterations=100))
        >>> a, c = spsa.schedule(99)
        >>> round(c[0], 6), round(a[0] / c[0] ** 2, 6)  # c_end and r_end at the last iteration
        (5.0, 0.002)
        """
        int_arg(k, "k", 0)
        s = self.settings
        a = tuple(a0 / (s.big_a + k + 1) ** s.alpha for a0 in self._a0)
        c = tuple(
            max(c0 / (k + 1) ** s.gamma, MIN_INTEGER_C if p.integer else 0.0)
            for p, c0 in zip(self.params, self._c0)
        )
        return a, c

    def trial(self) -> Trial:
        """The next iteration's :class:`Trial`, without drawing it for good: calling it twice gives the
        same trial, and :meth:`step` plays that one."""
        state = self._rng.getstate()
        try:
            return self._draw()[0]
        finally:
            self._rng.setstate(state)

    def _random_draws(self) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """An iteration's random draws: ``Δ``, then the rounding ``u`` of each integer parameter (0.0
        for a float one). What they draw depends only on the parameters, which :meth:`carry` relies on."""
        flips = tuple(self._rng.choice((-1, 1)) for _ in self.params)
        return flips, tuple(self._rng.random() if p.integer else 0.0 for p in self.params)

    def _draw(self) -> tuple[Trial, tuple[float, ...], tuple[float, ...]]:
        k = self.iteration
        a, c = self.schedule(k)
        flips, us = self._random_draws()
        plus: dict[str, float] = {}
        minus: dict[str, float] = {}
        for param, theta, ck, flip, u in zip(self.params, self._theta, c, flips, us):
            hi, lo = theta + ck * flip, theta - ck * flip
            if param.integer:
                plus[param.name] = int(param.clamp(math.floor(hi + u)))
                minus[param.name] = int(param.clamp(math.floor(lo + u)))
            else:
                plus[param.name], minus[param.name] = param.clamp(hi), param.clamp(lo)
        return Trial(k, plus, minus, flips), a, c

    def step(self, objective: Callable[[Trial], float]) -> Step:
        """Plays one iteration: draws ``Δ`` (and the roundings), asks *objective* for the ``+`` side's
        score difference, and moves ``θ``.

        :raises: :exc:`ValueError` when all iterations are done or the objective answers NaN or
            infinity; whatever *objective* raises (``θ`` is then unchanged, and the random state too, so
            the same iteration is played again on the next call).
        """
        if self.done:
            raise ValueError(f"all {self.settings.iterations} iterations are done")
        if not callable(objective):
            raise TypeError(f"objective must be callable, got {type(objective).__name__} {shown(objective)}")
        state = self._rng.getstate()
        try:
            trial, a, c = self._draw()
            result = real_arg(objective(trial), "the objective's score difference")
        except BaseException:
            self._rng.setstate(state)
            raise
        self._theta = [
            p.clamp(t + ak * result / (ck * flip))
            for p, t, ak, ck, flip in zip(self.params, self._theta, a, c, trial.flips)
        ]
        step = Step(trial.iteration, result, trial.flips, c, a, tuple(self._theta))
        self.history.append(step)
        return step

    def run(
        self, objective: Callable[[Trial], float], on_step: Callable[[Step], None] | None = None
    ) -> dict[str, float]:
        """Plays the remaining iterations (calling *on_step* after each) and returns :attr:`theta`."""
        while not self.done:
            step = self.step(objective)
            if on_step is not None:
                on_step(step)
        return self.theta

    def state(self) -> dict[str, Any]:
        """Everything a later :meth:`restore` needs, as JSON data: the parameters, settings, seed, ``θ``,
        the random generator's state, the history and (only for a run that :meth:`carry` continues) the
        carried iterations and values."""
        version, internal, gauss = self._rng.getstate()
        state = {
            "params": [p.to_json() for p in self.params],
            "settings": self.settings.to_json(),
            "seed": self.seed,
            "theta": list(self._theta),
            "rng": [version, list(internal), gauss],
            "history": [s.to_json() for s in self.history],
        }
        if self.carried:  # only then, so that the states of other runs keep their form
            state["carried"] = {"iterations": self.carried, "theta": list(self._start)}
        return state

    def restore(self, state: Mapping[str, Any]) -> None:
        """Continues from a :meth:`state` of a run with the same parameters, settings, seed and carried
        iterations (:meth:`carry`).

        :raises: :exc:`ValueError` when *state* belongs to another run (naming what differs) or is
            malformed.
        """
        if not isinstance(state, Mapping):
            raise TypeError(f"state must be a mapping, got {type(state).__name__} {shown(state)}")
        difference = _difference(state, self.state())
        if difference:
            raise ValueError(f"the saved run differs: {difference}")
        try:
            version, internal, gauss = state["rng"]
            rng_state = (int(version), tuple(int(x) for x in internal), gauss)
            theta = [float(x) for x in state["theta"]]
            history = [Step.from_json(s) for s in state["history"]]
            rng = random.Random()
            rng.setstate(rng_state)
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"the saved SPSA state is malformed: {brief(err)}") from None
        if len(theta) != len(self.params) or self.carried + len(history) > self.settings.iterations:
            raise ValueError("the saved SPSA state is malformed: its sizes do not match its parameters")
        self._rng, self._theta, self.history = rng, theta, history


def _difference(saved: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """What differs between a saved run's parameters, settings and seed and this run's, in words
    (empty when nothing does)."""
    saved_params = saved.get("params")
    if not isinstance(saved_params, list) or not all(isinstance(p, dict) for p in saved_params):
        return "its parameters are unreadable"
    names = [p.get("name") for p in saved_params]
    if names != [p["name"] for p in now["params"]]:
        return f"it tunes {', '.join(map(str, names))}; now {', '.join(p['name'] for p in now['params'])}"
    for old, new in zip(saved_params, now["params"]):
        for field, value in new.items():
            if old.get(field) != value:
                return f"parameter {quote(new['name'])}: {field} was {old.get(field)!r}, now {value!r}"
    old_settings = saved.get("settings")
    if not isinstance(old_settings, dict):
        return "its settings are unreadable"
    for field, value in now["settings"].items():
        if old_settings.get(field) != value:
            return f"{field} was {old_settings.get(field)!r}, now {value!r}"
    if saved.get("seed") != now["seed"]:
        return f"seed was {saved.get('seed')!r}, now {now['seed']!r}"
    if saved.get("carried") != now.get("carried"):
        return f"the carried iterations were {saved.get('carried')!r}, now {now.get('carried')!r}"
    return ""


def _rounded(param: SpsaParam, value: float) -> float:
    value = param.clamp(value)
    return int(math.floor(value + 0.5)) if param.integer else value


def simulated_match(
    optimum: Mapping[str, float],
    *,
    width: Mapping[str, float],
    pairs: int = DEFAULT_PAIRS,
    seed: int = 0,
    draw_rate: float = 0.4,
) -> Callable[[Trial], float]:
    """A stand-in for real games, with a known optimum: an engine set to ``θ`` is rated
    ``Elo(θ) = −100 · Σᵢ ((θᵢ − optimumᵢ) / widthᵢ)²`` (``widthᵢ`` away from the optimum costs 100 Elo),
    and each of the ``2 · pairs`` games of a :class:`Trial` is drawn with probability *draw_rate*, else
    won by the ``+`` side with the logistic probability ``1 / (1 + 10^(−ΔElo / 400))``. The answer is
    ``W − L``; each iteration's games come from ``random.Random`` seeded with *seed* and the iteration,
    so a trial's result does not depend on what was played before it.

    >>> play = simulated_match({"x": 10}, width={"x": 5}, pairs=50, seed=1)
    >>> play(Trial(0, {"x": 10}, {"x": 30}, (1,))) > 50  # the + side is at the optimum, 1600 Elo up
    True
    """
    names = items_arg(list(optimum), "optimum's names", str)
    if set(width) != set(names):
        raise ValueError(f"width must name the optimum's parameters, {names}, got {sorted(width)}")
    for name in names:
        real_arg(optimum[name], f"optimum[{name!r}]")
        real_arg(width[name], f"width[{name!r}]", above=0)
    int_arg(pairs, "pairs", 1)
    int_arg(seed, "seed", None)
    real_arg(draw_rate, "draw_rate", minimum=0, below=1)

    def elo(values: Mapping[str, float]) -> float:
        return -100.0 * sum(((values[n] - optimum[n]) / width[n]) ** 2 for n in names)

    def play(trial: Trial) -> float:
        rng = random.Random(f"{seed}:{trial.iteration}")
        diff = elo(trial.plus) - elo(trial.minus)
        p_win = 1.0 / (1.0 + 10.0 ** (-diff / 400.0))
        score = 0
        for _ in range(2 * pairs):
            if rng.random() >= draw_rate:
                score += 1 if rng.random() < p_win else -1
        return float(score)

    return play


# The command: parameters from a file or the command line, checked against the engine --------------------


def read_params(text: str, *, source: str = "<params>", r_end: float = DEFAULT_R_END) -> list[SpsaParam]:
    """Parameters from CSV lines, in either tuning format:

    * Stockfish's ``TUNE`` output, ``name,default,min,max,c_end,r_end`` (``r_end`` may be left out:
      *r_end*);
    * OpenBench's SPSA input, ``name, int, default, min, max, c_end, r_end`` (only ``int`` parameters:
      UCI spin options are whole numbers).

    Blank lines and ``#`` comments are skipped; spaces around fields are allowed.

    >>> read_params("# name, default, min, max, c_end, r_end\\nrfp_margin, 80, 20, 200, 9, 0.002\\n"
    ...             "lmr_base, int, 100, 50, 200, 7.5, 0.002")  # doctest: +NORMALIZE_WHITESPACE
    [SpsaParam(name='rfp_margin', default=80, minimum=20, maximum=200, c_end=9, r_end=0.002, integer=True),
     SpsaParam(name='lmr_base', default=100, minimum=50, maximum=200, c_end=7.5, r_end=0.002, integer=True)]

    :raises: :exc:`ValueError` naming the line (``source:line``) for a malformed line or a bad parameter.
    """
    str_arg(text, "text")
    params: list[SpsaParam] = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), 1):
        fields = [field.strip() for field in row]
        if not fields or not "".join(fields) or fields[0].startswith("#"):
            continue
        where = f"{source}:{number}"
        if len(fields) == 7 or (len(fields) in (6, 5) and fields[1].lower() in ("int", "float")):
            kind = fields.pop(1).lower()
            if kind != "int":
                raise ValueError(
                    f"{where}: parameter {quote(fields[0])} is a {quote(kind)}; UCI spin options are whole "
                    "numbers, so only 'int' parameters are tuned"
                )
        if len(fields) not in (5, 6):
            raise ValueError(
                f"{where}: expected name,default,min,max,c_end[,r_end] (or OpenBench's name,int,default,"
                f"min,max,c_end,r_end), got {quote(','.join(row))}"
            )
        params.append(
            _param(fields[0], fields[1:4], fields[4], fields[5] if len(fields) == 6 else None, where, r_end)
        )
    if not params:
        raise ValueError(f"{source}: no parameters")
    return params


def _number(text: str, what: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} must be a number, got {quote(text)}") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number, got {quote(text)}")
    return int(value) if value == math.floor(value) and abs(value) < 2**53 else value


def _param(
    name: str, numbers: Sequence[str], c_end: str | None, r_end: str | None, where: str, default_r: float
) -> SpsaParam:
    default, minimum, maximum = (
        _number(text, what, where) for text, what in zip(numbers, ("default", "min", "max"))
    )
    c = _number(c_end, "c_end", where) if c_end else (maximum - minimum) / C_END_SHARE
    r = _number(r_end, "r_end", where) if r_end else default_r
    try:
        return SpsaParam(name, default, minimum, maximum, c, r)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from None


def parse_param(
    word: str, spin: Mapping[str, tuple[int, int, int]] | None = None, *, r_end: float = DEFAULT_R_END
) -> SpsaParam:
    """A parameter from ``--param``'s ``NAME=DEFAULT,MIN,MAX[,C_END[,R_END]]``, or ``NAME`` alone to
    take the default and range from the engine (*spin*: its spin options as ``name: (default, min,
    max)``); ``C_END`` defaults to a twentieth of the range, ``R_END`` to *r_end*.

    >>> parse_param("rfp_margin=80,20,200")
    SpsaParam(name='rfp_margin', default=80, minimum=20, maximum=200, c_end=9.0, r_end=0.002, integer=True)
    >>> parse_param("tempo_mg", {"tempo_mg": (12, -50, 100)}).c_end
    7.5

    :raises: :exc:`ValueError` quoting *word* when it is malformed or names an option *spin* lacks.
    """
    str_arg(word, "param")
    name, sep, rest = word.partition("=")
    name = name.strip()
    where = f"--param {quote(word)}"
    if not sep:
        if spin is None:
            raise ValueError(f"{where}: give NAME=DEFAULT,MIN,MAX[,C_END[,R_END]]")
        default, minimum, maximum = _spin_option(name, spin)
        return _param(name, [str(default), str(minimum), str(maximum)], None, None, where, r_end)
    fields = [field.strip() for field in rest.split(",")]
    if len(fields) not in (3, 4, 5):
        raise ValueError(f"{where}: expected NAME=DEFAULT,MIN,MAX[,C_END[,R_END]]")
    return _param(
        name,
        fields[:3],
        fields[3] if len(fields) > 3 else None,
        fields[4] if len(fields) > 4 else None,
        where,
        r_end,
    )


def _spin_option(name: str, spin: Mapping[str, tuple[int, int, int]]) -> tuple[int, int, int]:
    return spin[_spin_name(name, spin)]


def _spin_name(name: str, spin: Mapping[str, tuple[int, int, int]]) -> str:
    """*name* as *spin* spells it (option names match in any case, as UCI's do)."""
    lowered = {key.lower(): key for key in spin}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, list(spin), n=3)
    hint = f" (did you mean {', '.join(quote(c) for c in close)}?)" if close else ""
    raise ValueError(f"the engine has no spin option {quote(name)}{hint}")


def check_against_engine(params: Sequence[SpsaParam], spin: Mapping[str, tuple[int, int, int]]) -> None:
    """Checks that every parameter is a spin option of the engine (*spin*: ``name: (default, min, max)``)
    and that its range is within the option's.

    >>> check_against_engine([SpsaParam("x", 5, 0, 10, c_end=1)], {"x": (5, 0, 8)})
    Traceback (most recent call last):
    ...
    ValueError: parameter 'x': max 10 is above the engine's maximum 8

    :raises: :exc:`ValueError` naming the first parameter that is not.
    """
    for param in params:
        _, low, high = _spin_option(param.name, spin)
        if param.minimum < low:
            raise ValueError(
                f"parameter {quote(param.name)}: min {_num(param.minimum)} is below the engine's "
                f"minimum {low}"
            )
        if param.maximum > high:
            raise ValueError(
                f"parameter {quote(param.name)}: max {_num(param.maximum)} is above the engine's "
                f"maximum {high}"
            )


def engine_spin_options(command: Sequence[str]) -> dict[str, tuple[int, int, int]]:
    """The engine's spin options, ``name: (default, min, max)``, from its ``uci`` answer (its tuning
    options too: an engine that hides them behind ``Show Tuning Options``, as camelpy does, is asked to
    list them, see :func:`camelpy.arena.engines.list_tuning_options`).

    :raises: :exc:`camelpy.arena.engines.EngineStartError` (a :exc:`ValueError`) quoting the command when
        it does not start or answer.
    """
    import asyncio
    import concurrent.futures

    import chess.engine

    from camelpy.arena.engines import STARTUP_TIMEOUT, EngineStartError, list_tuning_options

    cmd = list(command)
    try:
        engine = chess.engine.SimpleEngine.popen_uci(cmd, timeout=STARTUP_TIMEOUT, stderr=subprocess.DEVNULL)
    except (OSError, TimeoutError, chess.engine.EngineError) as err:
        raise EngineStartError(f"cannot start engine {quote(shlex.join(cmd))}: {brief(err)}") from None
    try:
        protocol = engine.protocol
        assert isinstance(protocol, chess.engine.UciProtocol)
        revealed = asyncio.run_coroutine_threadsafe(list_tuning_options(protocol), protocol.loop)
        try:
            revealed.result(STARTUP_TIMEOUT)
        except (TimeoutError, concurrent.futures.TimeoutError, chess.engine.EngineError) as err:
            revealed.cancel()
            raise EngineStartError(
                f"engine {quote(shlex.join(cmd))} did not list its tuning options: {brief(err)}"
            ) from None
        return {
            option.name: (option.default, option.min, option.max)
            for option in engine.options.values()
            if option.type == "spin"
            and isinstance(option.default, int)
            and option.min is not None
            and option.max is not None
        }
    finally:
        try:
            engine.quit()
        except (chess.engine.EngineError, TimeoutError, OSError):
            engine.close()


def setoption_lines(values: Mapping[str, float]) -> str:
    """*values* as UCI ``setoption`` lines.

    >>> print(setoption_lines({"rfp_margin": 87, "lmr_base": 102}))
    setoption name rfp_margin value 87
    setoption name lmr_base value 102
    """
    return "\n".join(f"setoption name {name} value {_num(value)}" for name, value in values.items())


def option_words(values: Mapping[str, float]) -> str:
    """*values* as ``camelpy match`` engine words (quoted where a name has a space).

    >>> option_words({"rfp_margin": 87, "Move Overhead": 20})
    "option.rfp_margin=87 'option.Move Overhead=20'"
    """
    return " ".join(shlex.quote(f"option.{name}={_num(value)}") for name, value in values.items())


def format_params(params: Sequence[SpsaParam], values: Mapping[str, float] | None = None) -> str:
    """*params* as the CSV :func:`read_params` reads (``name,default,min,max,c_end,r_end``), with *values*
    as the defaults when given: a tuned run's values, ready to start another.

    >>> print(format_params([SpsaParam("x", 5, 0, 10, c_end=0.5)], {"x": 7}))
    # name,default,min,max,c_end,r_end
    x,7,0,10,0.5,0.002
    """
    lines = ["# name,default,min,max,c_end,r_end"]
    for p in params:
        value = p.default if values is None else values[p.name]
        fields = (p.name, value, p.minimum, p.maximum, p.c_end, p.r_end)
        lines.append(",".join(_num(f) if not isinstance(f, str) else f for f in fields))
    return "\n".join(lines)


def plot_paths(spsa: Spsa, path: str | Path) -> None:
    """Writes a PNG of every parameter's path, ``θ`` after each iteration as a share of its range (0 at
    its minimum, 1 at its maximum), the start at iteration 0 (or after the carried iterations: the path
    played here; matplotlib, the tune extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - matplotlib is in the tune and test extras
        raise ImportError("the SPSA plot needs matplotlib: pip install 'camelpy[tune]'") from err
    figure, axes = plt.subplots(figsize=(7, 4.5))
    xs = list(range(spsa.carried, spsa.iteration + 1))
    for index, param in enumerate(spsa.params):
        span = param.maximum - param.minimum
        ys = [spsa.start[param.name]] + [step.theta[index] for step in spsa.history]
        axes.plot(xs, [(y - param.minimum) / span for y in ys], label=param.name, linewidth=1)
    axes.set_xlabel("iteration")
    axes.set_ylabel("value, as a share of its range")
    axes.set_ylim(-0.02, 1.02)
    carried = f" (1-{spsa.carried} carried)" if spsa.carried else ""
    axes.set_title(f"camelpy spsa: {spsa.iteration}/{spsa.settings.iterations} iterations{carried}")
    if len(spsa.params) <= 12:
        axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _save_json(path: Path, data: Mapping[str, Any]) -> None:
    """Writes *data* to *path* atomically: a temporary file beside it, flushed, then :func:`os.replace`."""
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", encoding="utf-8") as f:
        json.dump(data, f)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _load_json(path: Path) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_STATE_BYTES:
            raise ValueError(f"{quote(str(path))} is larger than {MAX_STATE_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"cannot read the saved run {quote(str(path))}: {brief(err)}") from None
    if not isinstance(data, dict) or data.get("camelpy_spsa") != STATE_VERSION:
        raise ValueError(f"{quote(str(path))} is not a camelpy spsa state (version {STATE_VERSION})")
    return data


def _read_params_file(path: str, r_end: float) -> list[SpsaParam]:
    path_arg(path, "--params")
    try:
        if os.stat(path).st_size > MAX_PARAMS_BYTES:
            raise ValueError(f"cannot read parameters {quote(path)}: larger than {MAX_PARAMS_BYTES} bytes")
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_PARAMS_BYTES + 1)
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else brief(err)
        raise ValueError(f"cannot read parameters {quote(path)}: {reason}") from None
    return read_params(text, source=path, r_end=r_end)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``camelpy spsa`` options."""
    add_run_arguments(p, what="the engine's spin options")
    p.add_argument(
        "--engine",
        nargs="+",
        metavar="WORD",
        help="the engine under test: a command (quoted), then tc= st= nodes= depth= option.Name=Value, "
        "as for camelpy match (default: this camelpy)",
    )
    p.add_argument("--tc", help="time control of every game (the engine's tc=), e.g. 8+0.08")
    p.add_argument("--nodes", type=int, help="node limit per move (the engine's nodes=)")
    p.add_argument("--openings", help="EPD or PGN book, used in a random order (default: the start position)")
    p.add_argument("--format", choices=["epd", "pgn"], help="book format (default: from the file name)")
    p.add_argument("--plies", type=int, help="cut PGN openings after this many plies")
    p.add_argument(
        "--draw", nargs="*", metavar="K=V", help="draw adjudication: movenumber= movecount= score="
    )
    p.add_argument(
        "--resign", nargs="*", metavar="K=V", help="resign adjudication: movecount= score= twosided="
    )
    p.add_argument("--maxmoves", type=int, help="adjudicate a draw after this many moves")
    p.add_argument("--hang-timeout", type=float, default=60.0, help="seconds before a silent engine loses")
    p.add_argument("--concurrency", type=int, default=None, help="games at once (default 1)")
    cluster.add_ray_argument(p, "play each iteration's game pairs")


def add_run_arguments(p: argparse.ArgumentParser, *, what: str) -> None:
    """The options every SPSA command shares (``camelpy spsa`` and the small games' ``spsa``): the
    folder, the parameters (*what* names where a bare ``NAME`` takes its default and range), the
    schedule, the seed, ``--plot`` and ``--quiet``."""
    p.add_argument(
        "--out", required=True, help="folder for state.json, spsa.png and the result; rerun to resume"
    )
    p.add_argument(
        "--params",
        metavar="CSV",
        help="parameters, one a line: name,default,min,max,c_end[,r_end] (Stockfish's TUNE output) or "
        "name,int,default,min,max,c_end,r_end (OpenBench's SPSA input)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME[=DEFAULT,MIN,MAX[,C_END[,R_END]]]",
        help=f"a parameter (repeatable); NAME alone takes its default and range from {what}",
    )
    p.add_argument("--iterations", type=int, default=100, help="iterations N (default 100)")
    p.add_argument(
        "--pairs", type=int, default=DEFAULT_PAIRS, help=f"game pairs per iteration (default {DEFAULT_PAIRS})"
    )
    p.add_argument(
        "--alpha", type=float, default=DEFAULT_ALPHA, help=f"step decay exponent (default {DEFAULT_ALPHA})"
    )
    p.add_argument(
        "--gamma",
        type=float,
        default=DEFAULT_GAMMA,
        help=f"perturbation decay exponent (default {DEFAULT_GAMMA})",
    )
    p.add_argument(
        "--a-ratio",
        type=float,
        default=DEFAULT_A_RATIO,
        help=f"A as a share of the iterations (default {DEFAULT_A_RATIO})",
    )
    p.add_argument(
        "--r-end",
        type=float,
        default=DEFAULT_R_END,
        help=f"r_end of parameters that give none (default {DEFAULT_R_END})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the signs, roundings and opening order")
    p.add_argument(
        "--carry",
        nargs="+",
        metavar="K=V",
        help="iterations=K NAME=VALUE ...: continue a run whose first K iterations were played elsewhere "
        "(a folder this machine has not got) and left each parameter at VALUE (its last progress line)",
    )
    p.add_argument(
        "--plot", action="store_true", help="only draw spsa.png and print the values of the saved run"
    )
    p.add_argument("--quiet", action="store_true", help="no progress line per iteration")


def carry_from_args(spsa: Spsa, words: Sequence[str] | None) -> None:
    """Applies ``--carry iterations=K NAME=VALUE ...`` (:func:`add_run_arguments`) to a new *spsa*
    (:meth:`Spsa.carry`); nothing when *words* is ``None``. Names match the parameters' in any case.

    :raises: :exc:`ValueError` quoting a malformed word, or naming what is missing or out of range.
    """
    if words is None:
        return
    names = {p.name.lower(): p.name for p in spsa.params}
    iterations: int | None = None
    theta: dict[str, float] = {}
    for word in words:
        key, sep, text = word.partition("=")
        key = key.strip()
        try:
            if not sep or not key:
                raise ValueError
            if key.lower() == "iterations":
                iterations = int(text)
                continue
            value = float(text)
        except ValueError:
            raise ValueError(
                f"bad carry word {quote(word)}: expected iterations=K or NAME=VALUE (a number)"
            ) from None
        name = names.get(key.lower())
        if name is None:
            raise ValueError(f"bad carry word {quote(word)}: {quote(key)} is not tuned here")
        if name in theta:
            raise ValueError(f"bad carry word {quote(word)}: {quote(name)} is given twice")
        theta[name] = value
    if iterations is None:
        raise ValueError("--carry needs iterations=K, the iterations played before")
    spsa.carry(iterations, theta)


def settings_from_args(args: argparse.Namespace) -> SpsaSettings:
    """The :class:`SpsaSettings` of :func:`add_run_arguments`' options."""
    return SpsaSettings(
        iterations=args.iterations, pairs=args.pairs, alpha=args.alpha, gamma=args.gamma, a_ratio=args.a_ratio
    )


def params_from_args(args: argparse.Namespace, spin: Mapping[str, tuple[int, int, int]]) -> list[SpsaParam]:
    """The parameters of ``--params`` and ``--param`` (:func:`add_run_arguments`), each within *spin*
    (what may be tuned, ``name: (default, min, max)``) and named as *spin* spells it (names match in any
    case, as UCI option names do).

    :raises: :exc:`ValueError` for none, a malformed one, or one *spin* lacks or whose range is wider.
    """
    real_arg(args.r_end, "--r-end", above=0)
    params = _read_params_file(args.params, args.r_end) if args.params else []
    params += [parse_param(word, spin, r_end=args.r_end) for word in args.param]
    if not params:
        raise ValueError("nothing to tune: give --params FILE or --param NAME[=DEFAULT,MIN,MAX[,C_END]]")
    params = [dataclasses.replace(param, name=_spin_name(param.name, spin)) for param in params]
    check_against_engine(params, spin)
    return params


def _engine_config(args: argparse.Namespace) -> Any:
    from camelpy.arena.engines import parse_engine

    words = list(args.engine) if args.engine else [shlex.join([sys.executable, "-m", "camelpy"])]
    if args.tc is not None:
        words.append(f"tc={args.tc}")
    if args.nodes is not None:
        words.append(f"nodes={args.nodes}")
    try:
        return parse_engine(words)
    except ValueError as err:
        if "has no limit" not in str(err):
            raise
        raise ValueError(f"{err}; or --tc (8+0.08) or --nodes (5000) for the games of camelpy spsa") from None


def _params(
    args: argparse.Namespace,
    spin: Mapping[str, tuple[int, int, int]],
    fixed_options: Sequence[tuple[str, str]],
) -> list[SpsaParam]:
    params = params_from_args(args, spin)
    fixed = {name.lower() for name, _ in fixed_options}
    for param in params:
        if param.name.lower() in fixed:
            raise ValueError(
                f"parameter {quote(param.name)} is also set by the engine's option.{param.name}="
            )
    return params


def time_forfeits(games: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """``(forfeits, games)``: the time forfeits among the games of the iteration records that name their
    terminations, and how many games those records hold (records written before they did are left out).

    >>> ended = {"checkmate": 1, "time forfeit": 1}
    >>> time_forfeits([{"wins": 1, "draws": 0, "losses": 1, "terminations": ended}, {"wins": 2, "draws": 0}])
    (1, 2)
    """
    named = [g for g in games if isinstance(g.get("terminations"), Mapping)]
    forfeits = sum(int(g["terminations"].get("time forfeit", 0)) for g in named)
    return forfeits, sum(int(g["wins"]) + int(g["draws"]) + int(g["losses"]) for g in named)


def _report(spsa: Spsa, games: Sequence[Mapping[str, Any]] = ()) -> str:
    values = spsa.values()
    carried = f" (the first {spsa.carried} carried from an earlier run)" if spsa.carried else ""
    forfeits, counted = time_forfeits(games)
    lines = [
        f"# camelpy spsa: {spsa.iteration}/{spsa.settings.iterations} iterations, "
        f"{spsa.iteration * spsa.settings.pairs * 2} games{carried}",
        *([f"# time forfeits: {forfeits} in the {counted} games played here"] if counted else []),
        "# name: start -> now (unrounded)",
        *(
            f"#   {p.name}: {_num(p.default)} -> {_num(values[p.name])} ({t:.3f})"
            for p, t in zip(spsa.params, spsa.theta.values())
        ),
        setoption_lines(values),
        f"# camelpy match words: {option_words(values)}",
    ]
    return "\n".join(lines)


def _write_outputs(spsa: Spsa, out: Path, games: Sequence[Mapping[str, Any]] = ()) -> None:
    (out / "result.txt").write_text(_report(spsa, games) + "\n", encoding="utf-8")
    (out / "tuned.csv").write_text(format_params(spsa.params, spsa.values()) + "\n", encoding="utf-8")
    plot_paths(spsa, out / "spsa.png")


def plot_saved(out: Path) -> int:
    """``--plot``: draws ``spsa.png`` and writes the result files of the run saved in *out*, and prints
    its values (for ``camelpy spsa`` and the small games' weight SPSA alike).

    :raises: :exc:`ValueError` when *out* holds no run or a malformed one.
    """
    state_path = out / "state.json"
    saved = _load_json(state_path)
    if saved is None:
        raise ValueError(f"no saved run in {quote(str(out))} to plot")
    try:
        params = [SpsaParam(**p) for p in saved["spsa"]["params"]]
        spsa = Spsa(params, SpsaSettings(**saved["spsa"]["settings"]), seed=saved["spsa"]["seed"])
        carried = saved["spsa"].get("carried")
        if carried is not None:
            spsa.carry(carried["iterations"], dict(zip((p.name for p in params), carried["theta"])))
        spsa.restore(saved["spsa"])
        games = [g for g in saved.get("games", []) if isinstance(g, Mapping)]
        time_forfeits(games)  # its counts are numbers
    except (AttributeError, KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{quote(str(state_path))} is malformed: {brief(err)}") from None
    _write_outputs(spsa, out, games)
    print(_report(spsa, games))
    return 0


def resume(spsa: Spsa, out: Path, run: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Restores *spsa* from ``out/state.json`` when a run is saved there, and returns its iterations'
    game records (none for a new run). *run* is what else fixes the games (the engine, the book; JSON
    data): a saved run must have the same, and the same parameters, settings and seed.

    :raises: :exc:`ValueError` naming what differs, or for a malformed or oversized state file.
    """
    state_path = out / "state.json"
    saved = _load_json(state_path)
    if saved is None:
        return []
    ours = json.loads(json.dumps(run))
    theirs = saved.get("run")
    if theirs != ours:
        if isinstance(theirs, dict):
            differ = [k for k in sorted(set(ours) | set(theirs)) if theirs.get(k) != ours.get(k)]
        else:  # no run saved, or not an object: all of ours differs
            differ = sorted(ours)
        raise ValueError(
            f"{quote(str(state_path))} holds a run whose games differ in {', '.join(differ)}; use "
            f"another --out folder (theirs: {json.dumps(theirs)})"
        )
    try:
        spsa.restore(saved["spsa"])
    except ValueError as err:
        raise ValueError(f"{quote(str(state_path))}: {err}; use another --out folder") from None
    return list(saved.get("games", []))[: len(spsa.history)]


def play_iterations(
    spsa: Spsa,
    out: Path,
    run: Mapping[str, Any],
    games: list[dict[str, Any]],
    play: Callable[[Trial], dict[str, Any]],
    *,
    quiet: bool = False,
) -> None:
    """Plays *spsa*'s remaining iterations, saving ``out/state.json`` (with *run* and the game records
    *games* of the iterations played here, which :func:`resume` gave) after each so that the same
    command resumes, then writes
    ``result.txt``, ``tuned.csv`` and ``spsa.png`` and prints the result. *play* plays a trial's games and
    returns their record: ``wins``, ``draws`` and ``losses`` of the ``+`` side (its score difference is
    ``wins − losses``) and anything else worth keeping.
    """
    from camelpy.arena.runner import stop_on_terminate

    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "state.json"
    record: dict[str, Any] = {}

    def objective(trial: Trial) -> float:
        record.clear()
        record.update(iteration=trial.iteration, **play(trial))
        return float(record["wins"] - record["losses"])

    def save() -> None:
        state = {"camelpy_spsa": STATE_VERSION, "run": run, "spsa": spsa.state(), "games": games}
        _save_json(state_path, state)

    if spsa.history and not quiet and not spsa.done:
        print(f"resuming at iteration {spsa.iteration + 1}/{spsa.settings.iterations}", file=sys.stderr)
    save()
    with stop_on_terminate():  # `kill` stops it as Ctrl-C does: the iteration under way is played again
        while not spsa.done:
            step = spsa.step(objective)
            games.append(dict(record))
            save()
            if not quiet:
                # θ exactly (the shortest text that reads back the same float): what --carry takes
                moved = " ".join(f"{n}={t!r}" for n, t in spsa.theta.items())
                forfeits, _ = time_forfeits([record])
                lost_on_time = f", {forfeits} time forfeit{'s' if forfeits > 1 else ''}" if forfeits else ""
                print(
                    f"iteration {step.iteration + 1}/{spsa.settings.iterations}: +{record['wins']}="
                    f"{record['draws']}-{record['losses']}{lost_on_time} "
                    f"(plus - minus {step.result:+g}) {moved}",
                    file=sys.stderr,
                    flush=True,
                )
    _write_outputs(spsa, out, games)
    print(_report(spsa, games))
    print(f"wrote {out / 'result.txt'}, {out / 'tuned.csv'}, {out / 'spsa.png'}", file=sys.stderr)


def main(args: argparse.Namespace) -> int:
    """Runs ``camelpy spsa``; returns the exit status (bad input raises ``ValueError``: one error line)."""
    out = Path(path_arg(args.out, "--out"))
    if args.plot:
        return plot_saved(out)
    from camelpy.arena.match import adjudication_from_args, run_match
    from camelpy.arena.openings import book_digest, choose, load_openings

    config = _engine_config(args)
    settings = settings_from_args(args)
    int_arg(args.seed, "--seed", 0, 2**63)
    if args.concurrency is not None:
        int_arg(args.concurrency, "--concurrency", 1)
    real_arg(args.hang_timeout, "--hang-timeout", above=0)
    adjudication = adjudication_from_args(args.draw, args.resign, args.maxmoves)
    book = load_openings(args.openings, fmt=args.format, plies=args.plies) if args.openings else []
    params = _params(args, engine_spin_options(config.command), config.options)
    spsa = Spsa(params, settings, seed=args.seed)
    carry_from_args(spsa, args.carry)
    run = {
        "engine": config.to_json(),
        "openings": book_digest(book),
        "adjudication": dataclasses.asdict(adjudication),
    }
    games = resume(spsa, out, run)
    backend = cluster.ray_backend(args.ray, "camelpy spsa --ray")
    if not book and not args.quiet and not spsa.done:
        print("note: no --openings: every pair starts from the start position", file=sys.stderr)
    shuffled = choose(book, len(book), order="random", seed=args.seed) if book else []

    def play(trial: Trial) -> dict[str, Any]:
        first = (trial.iteration * settings.pairs) % len(shuffled) if shuffled else 0
        openings = [shuffled[(first + i) % len(shuffled)] for i in range(settings.pairs)] if shuffled else []
        plus, minus = (
            dataclasses.replace(
                config,
                name=label,
                options=config.options + tuple((n, str(v)) for n, v in values.items()),
            )
            for label, values in (("plus", trial.plus), ("minus", trial.minus))
        )
        result = run_match(
            plus,
            minus,
            rounds=settings.pairs,
            openings=openings,
            concurrency=args.concurrency,
            adjudication=adjudication,
            hang_timeout=args.hang_timeout,
            quiet=True,
            backend=backend,
        )
        if result.games < 2 * settings.pairs:
            raise ValueError(f"iteration {trial.iteration + 1}: only {result.games} games were played")
        return {
            "wins": result.wins,
            "draws": result.draws,
            "losses": result.losses,
            "pentanomial": list(result.pentanomial),
            "terminations": dict(result.terminations),
        }

    play_iterations(spsa, out, run, games, play, quiet=args.quiet)
    return 0

"""Work on a Ray cluster (``pip install 'camelpy[ray]'``): the connection and a pool of tasks.

``camelpy match``/``tournament``/``datagen`` with ``--ray [ADDRESS]`` and
``analyse_many(..., backend="ray")`` run their work as Ray tasks through this module: game pairs,
shards of self-play games, chunks of positions. Each task takes one CPU of the cluster; a task whose
worker dies, or that raises, is run again (up to :data:`TASK_RETRIES` times), and only a finished
task's result is used, so nothing is lost or counted twice. Without Ray installed, or without
``backend="ray"``, Ray is never imported and everything runs locally.

:func:`connect` joins a cluster (``ray.init``); a program that called ``ray.init`` itself is used as
it is. Every node must have camelpy installed (and, for matches, the engine commands on its ``PATH``);
docs/guide/ray.md ("A cluster of two machines") shows how to ship a wheel to the workers.

>>> missing_ray_message("camelpy match --ray")
"camelpy match --ray needs Ray: pip install 'camelpy[ray]'"
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = [
    "BACKENDS",
    "CONNECT_TIMEOUT",
    "TASK_RETRIES",
    "TaskPool",
    "add_ray_argument",
    "check_address",
    "check_backend",
    "cluster_cpus",
    "connect",
    "missing_ray_message",
    "ray_backend",
    "ray_module",
]

TASK_RETRIES = 3
"""Times a task is run again after its worker died or it raised: a node lost mid-run costs a rerun,
a task that always fails still fails (with its own exception) after a few seconds."""

INSTALL = "pip install 'camelpy[ray]'"
"""How to get the optional dependency."""

K = TypeVar("K")


BACKENDS = ("local", "ray")
"""Where games, shards and positions can be worked on: this machine, or a Ray cluster."""


def check_backend(backend: object) -> str:
    """*backend* checked: one of :data:`BACKENDS`.

    >>> check_backend("cluster")
    Traceback (most recent call last):
    ...
    ValueError: backend must be 'local' or 'ray', got 'cluster'
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'local' or 'ray', got {repr(backend)}")
    return str(backend)


def missing_ray_message(what: str) -> str:
    """The message for *what* needing Ray when it is not installed."""
    return f"{what} needs Ray: {INSTALL}"


def ray_module(what: str = "backend='ray'") -> Any:
    """The ``ray`` module.

    :raises: :exc:`ImportError` saying how to install it, when it is not installed.
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ImportError(missing_ray_message(what)) from None


def connect(address: str | None = None, *, what: str = "backend='ray'", timeout: float | None = None) -> Any:
    """Joins the Ray cluster at *address* (``"host:port"`` of its head, ``"auto"`` for the one started on
    this machine by ``ray start``; ``None``: ``RAY_ADDRESS`` or a cluster started on this machine, else
    a new one-machine cluster) unless this process is already connected, and returns the ``ray``
    module. A ``host:port`` address, given or from ``RAY_ADDRESS``, is first checked by
    :func:`check_address` within *timeout* seconds (default :data:`CONNECT_TIMEOUT`): Ray itself waits
    for minutes, or for ever, on a port where no head answers.

    :raises: :exc:`ImportError` when Ray is not installed (saying how to install it),
        :exc:`ValueError` naming *address* when no cluster answers there.
    """
    ray = ray_module(what)
    if not ray.is_initialized():
        given = address if address is not None else os.environ.get("RAY_ADDRESS") or None
        if given is not None and given not in ("auto", "local") and "://" not in given:
            check_address(given, timeout=timeout, source="" if address is not None else "RAY_ADDRESS")
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as err:
            where = "" if given is None else f" at {given!r}"
            raise ValueError(f"cannot join a Ray cluster{where}: {err}") from None
    return ray


def add_ray_argument(p: argparse.ArgumentParser, does: str) -> None:
    """A command's ``--ray [ADDRESS]`` option: *does* (``"play the game pairs"``) on a Ray cluster."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help=f"{does} on a Ray cluster: its head's host:port, or none for RAY_ADDRESS or the cluster "
        f"`ray start` began on this machine (else a new one here); needs {INSTALL}",
    )


def ray_backend(address: str | None, what: str) -> str:
    """The backend for a ``--ray [ADDRESS]`` option's value: ``"local"`` without the option, else
    ``"ray"`` after joining the cluster (:func:`connect`; an empty *address* is its default).

    >>> ray_backend(None, "camelpy match --ray")
    'local'
    """
    if address is None:
        return "local"
    connect(address or None, what=what)
    return "ray"


CONNECT_TIMEOUT = 5.0
"""Seconds a cluster's head has to accept a connection and answer it as a gRPC server does (its
HTTP/2 settings): a head answers in milliseconds, while Ray itself keeps trying for minutes, or for
ever when the port accepts but is not Ray."""

_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""What an HTTP/2 client sends first: the connection preface, then an empty SETTINGS frame (RFC 9113
section 3.4). A gRPC server, which a Ray head (its GCS) is, answers with a SETTINGS frame of its own."""

_FRAME_HEADER = 9
"""Bytes of an HTTP/2 frame header: length (3), type (1), flags (1), stream (4); SETTINGS is type 4."""


def check_address(address: str, *, timeout: float | None = None, source: str = "") -> None:
    """Checks, within *timeout* seconds (default :data:`CONNECT_TIMEOUT`), that *address*
    (``host:port``) accepts a connection and answers the way a Ray head does: as a gRPC server (HTTP/2
    settings in reply to the HTTP/2 preface). A port nobody listens on, one that accepts and says
    nothing, or an HTTP/1 server is refused at once, where Ray would wait. (With ``RAY_USE_TLS`` set
    the head speaks TLS first: only the connection is checked.) *source* names where the address came
    from (``RAY_ADDRESS``) in the message.

    >>> check_address("no port here")
    Traceback (most recent call last):
    ...
    ValueError: bad Ray cluster address 'no port here': expected host:port (or auto)

    :raises: :exc:`ValueError` naming *address* and saying what went wrong.
    """
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad Ray cluster address {address!r}: expected host:port (or auto)")
    limit = CONNECT_TIMEOUT if timeout is None else timeout
    where = f"cannot join a Ray cluster at {address!r}" + (f" ({source})" if source else "")
    deadline = time.monotonic() + limit
    try:
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=limit)
    except socket.timeout:
        raise ValueError(f"{where}: no connection within {limit:g} s") from None
    except OSError as err:
        raise ValueError(f"{where}: {err.strerror or type(err).__name__}") from None
    with sock:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return
        try:
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
            sock.sendall(_HTTP2_PREFACE)
            head = b""
            while len(head) < _FRAME_HEADER:
                sock.settimeout(max(deadline - time.monotonic(), 0.001))
                chunk = sock.recv(_FRAME_HEADER - len(head))
                if not chunk:
                    break
                head += chunk
        except socket.timeout:
            silent = f"it accepted the connection but did not answer within {limit:g} s"
            raise ValueError(f"{where}: {silent} (is it a Ray cluster's head?)") from None
        except OSError as err:
            raise ValueError(f"{where}: {err.strerror or type(err).__name__}") from None
    if len(head) < _FRAME_HEADER or head[3] != 4 or int.from_bytes(head[5:9], "big") & 0x7FFFFFFF:
        raise ValueError(f"{where}: it does not answer as a Ray cluster's head does (gRPC over HTTP/2)")


def cluster_cpus(ray: Any) -> int:
    """The cluster's CPUs (at least 1): how many one-CPU tasks it runs at once."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


class TaskPool(Generic[K]):
    """Runs *function* (a plain module-level function, importable on the workers) as Ray tasks of one CPU
    each, at most *limit* at once; :meth:`submit` adds one under a key, :meth:`next` waits for any to
    finish and returns ``(key, result)``, re-raising its exception after :data:`TASK_RETRIES` reruns.
    :meth:`cancel` stops those still running (their work is interrupted, as by Ctrl-C)."""

    def __init__(self, ray: Any, function: Callable[..., Any], limit: int) -> None:
        self.ray = ray
        self.remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES, retry_exceptions=True)(function)
        self.limit = max(1, limit)
        self.running: dict[Any, K] = {}

    @property
    def full(self) -> bool:
        """Whether *limit* tasks are running."""
        return len(self.running) >= self.limit

    def __len__(self) -> int:
        return len(self.running)

    def submit(self, key: K, *args: Any) -> None:
        """Starts ``function(*args)`` on the cluster."""
        self.running[self.remote.remote(*args)] = key

    def next(self) -> tuple[K, Any]:
        """The key and result of a task that finished (waiting for one).

        :raises: the task's own exception when it failed every time; :exc:`ValueError` when no task runs.
        """
        if not self.running:
            raise ValueError("no task is running")
        (done,), _ = self.ray.wait(list(self.running), num_returns=1)
        key = self.running.pop(done)
        try:
            return key, self.ray.get(done)
        except self.ray.exceptions.RayTaskError as err:
            cause = err.cause if isinstance(getattr(err, "cause", None), BaseException) else None
            if cause is not None:
                raise cause from None
            raise

    def cancel(self) -> None:
        """Cancels every task still running."""
        for ref in self.running:
            try:
                self.ray.cancel(ref)
            except Exception:  # a task that finished meanwhile cannot be cancelled: nothing to do
                pass
        self.running.clear()

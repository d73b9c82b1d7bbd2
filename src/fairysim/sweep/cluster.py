"""The Dask cluster a sweep runs on: a local one, or the running scheduler of ``--scheduler``."""

from __future__ import annotations

import logging
import multiprocessing.util
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import numba as nb
import numpy as np

from fairysim.runtime.errors import ParameterError
from fairysim.runtime.stops import check as check_stop
from fairysim.runtime.stops import stops_noted

WORKER_PRELOAD = "fairysim.sweep.worker_start"
"""Module each local worker process runs first (:mod:`fairysim.sweep.worker_start`)."""

CONNECT_TIMEOUT_S = 10.0
"""How long to try to reach a ``--scheduler`` before giving up."""

POLL_S = 0.05
"""Seconds between two looks for a finished task (or a stop) while tasks run."""


def check_cluster_options(scheduler: str | None, workers: int | None) -> None:
    """Refuse a bad ``--scheduler`` or ``--workers`` (or both together) before any start-up."""
    if scheduler is not None and workers is not None:
        raise ParameterError(
            "workers",
            "applies to the local cluster only; with {scheduler} the cluster has the workers "
            "it was started with",
            mentions=("scheduler",),
        )
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int | np.integer) or workers < 1
    ):
        raise ParameterError("workers", f"must be a positive whole number, got {workers!r}")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ParameterError(
            "scheduler", f"give an address such as tcp://host:8786, got {scheduler!r}"
        )
    if scheduler is not None:
        check_address(scheduler)


def check_address(scheduler: str) -> None:
    """Refuse a ``--scheduler`` that is no address at all before a client is made: a Client
    whose constructor fails on a malformed address still tries to close itself when it is
    collected, and prints a traceback 20 s after the error line."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(scheduler)
        if protocol in {"tcp", "tls", "ws", "wss", "ucx"}:
            host, _ = parse_host_port(location)
            if not host or any(c.isspace() for c in host):
                raise ValueError(f"{host!r} is not a host name")
    except (ValueError, TypeError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise ParameterError(
            "scheduler", f"{scheduler!r} is not an address such as tcp://host:8786 ({reason})"
        ) from None


@contextmanager
def stops_deferred() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM that arrives in the block until the block ends, then stop.

    A local cluster interrupted while it starts is left half made (Dask's exit hook then prints
    a traceback closing it), and a worker process interrupted while it imports prints its own.
    So while the cluster starts, SIGINT and SIGTERM are blocked in this thread (the threads and
    worker processes the cluster starts inherit the mask: a worker never hears a terminal's
    Ctrl-C, which reaches the whole process group, and the sweep closes it) and a stop that
    still reaches Python is only noted; either is raised as ``KeyboardInterrupt`` once the
    cluster is whole, and the sweep's ``ExitStack`` closes it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stops = {signal.SIGINT, signal.SIGTERM}
    heard: list[int] = []
    before = {signum: signal.signal(signum, lambda n, frame: heard.append(n)) for signum in stops}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        yield
    except Exception:
        if not (heard or stops & signal.sigpending()):
            raise
    finally:
        # A stop pending while blocked is delivered here, to the noting handler.
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if heard:
        raise KeyboardInterrupt


def spawn_in_own_process_group(path: str, args: list[str], passfds: Any) -> int:
    """``multiprocessing.util.spawnv_passfds`` with the child in a process group of its own.

    A terminal's Ctrl-C reaches its foreground process group: the sweep, which stops in one
    line and closes its cluster, and any worker process in the group, which, hit while its
    interpreter starts (before :mod:`fairysim.sweep.worker_start` ignores SIGINT in it), printed
    the traceback of whatever it was importing. The process group is set by ``posix_spawn``
    before the child runs, so there is no such moment. The fds multiprocessing passes are
    inherited (``dup2`` of a fd onto itself clears its close-on-exec flag); every other fd
    Python opened is not inheritable (PEP 446).
    """
    fds = sorted(map(int, passfds))
    actions = [(os.POSIX_SPAWN_DUP2, fd, fd) for fd in fds]
    return os.posix_spawn(path, args, os.environ, file_actions=actions, setpgroup=0)


@contextmanager
def workers_in_own_process_groups() -> Iterator[None]:
    """While the block runs, processes that multiprocessing spawns (a local cluster's workers)
    start in process groups of their own (:func:`spawn_in_own_process_group`); POSIX only."""
    if not hasattr(os, "posix_spawn"):
        yield
        return
    spawn = multiprocessing.util.spawnv_passfds
    multiprocessing.util.spawnv_passfds = spawn_in_own_process_group
    try:
        yield
    finally:
        multiprocessing.util.spawnv_passfds = spawn


def completed(running: Any) -> Iterator[Any]:
    """Each future of ``running`` (a ``distributed.as_completed``) as it finishes; a Ctrl-C or
    SIGTERM heard meanwhile ends the iteration with ``KeyboardInterrupt``.

    The client's process runs distributed's garbage-collection callbacks, which drop an exception
    raised inside them ("Exception ignored in: gc callback"), so a stop is noted
    (:mod:`fairysim.runtime.stops`) and the wait for the next future, which looks every
    :data:`POLL_S` seconds, raises a noted stop itself. Futures added to ``running`` while iterating
    are waited for too.
    """
    with stops_noted():
        while True:
            check_stop()
            if running.has_ready():
                yield next(running)
            elif running.is_empty():
                return
            else:
                time.sleep(POLL_S)


def connect(stack: ExitStack, scheduler: str | None, workers: int | None) -> tuple[Any, int | None]:
    """A Dask client (entered on ``stack``) and the numba threads each task should use.

    Parameters
    ----------
    stack : contextlib.ExitStack
        Closes the client (and the local cluster) when the sweep ends.
    scheduler : str or None
        Address of a running scheduler; None starts a local cluster.
    workers : int or None
        Worker processes of the local cluster (default 1).

    Returns
    -------
    client, threads
        The client, and the numba threads per task (None: all a remote worker has).
    """
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except Exception as exc:  # any failure to connect is the address the user gave
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ParameterError(
                "scheduler", f"cannot connect to {scheduler!r} ({reason})"
            ) from None
        stack.enter_context(client)
        # Remote workers use all their numba threads; size them when starting the workers
        # (one worker process per machine, NUMBA_NUM_THREADS cores).
        return client, None
    workers = 1 if workers is None else workers
    # One task at a time per worker process (numba's own threads do the parallel work), and the
    # machine's cores shared between the worker processes instead of each taking them all.
    threads = max(1, nb.config.NUMBA_NUM_THREADS // int(workers))
    with stops_deferred(), workers_in_own_process_groups():
        cluster = stack.enter_context(
            LocalCluster(
                n_workers=int(workers),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never clash with another cluster
                silence_logs=logging.ERROR,
                # A terminal's Ctrl-C reaches the whole process group; the sweep stops in one
                # line and closes its workers, which must not print their own tracebacks.
                preload=[WORKER_PRELOAD],
            )
        )
        client = stack.enter_context(Client(cluster, set_as_default=False))
    return client, threads


__all__ = [
    "CONNECT_TIMEOUT_S",
    "POLL_S",
    "WORKER_PRELOAD",
    "check_address",
    "check_cluster_options",
    "completed",
    "connect",
    "spawn_in_own_process_group",
    "stops_deferred",
    "workers_in_own_process_groups",
]

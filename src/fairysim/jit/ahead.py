"""A report's searching kernel compiled in a background process while the report plays on.

The search player's kernel is the longest compile a report meets (about a minute on a cold
cache), and a report plays it last (the skill ladder's top rung, the solo study's last policy).
So a report that plays it starts :func:`start` first: a process of its own plays one searching
game at each player count the report needs (:func:`fairysim.jit.warm.search_kernels`), which on a
machine of two cores or more compiles the kernel on a core the report leaves idle while it
compiles its own engines (numba compiles on one core) and plays; then :func:`wait` before the
first searching game, which loads the kernel from numba's cache. With a warm cache the process
loads it and ends in seconds.

The process starts in a session of its own, so a terminal's Ctrl-C reaches the report alone,
which ends the process on its way out (:func:`stop`, also at exit). Its output goes nowhere: if
it fails, the report compiles the kernel itself, as it would without it.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from collections.abc import Sequence

from fairysim.jit.notice import say

ENV_SWITCH = "FAIRYSIM_COMPILE_AHEAD"
"""Set to ``0``, no background compile starts (the test suite, which compiles every kernel ahead
of its tests)."""

QUIET_SECONDS = 8.0
"""How long :func:`wait` waits before it says why it waits: a process that only loads the kernel
from a warm cache ends within it."""

_RUNNING: dict[str, subprocess.Popen] = {}
_LOCK = threading.Lock()


def command(game: str, players: Sequence[int]) -> list[str]:
    """The background process's command line: :func:`fairysim.jit.warm.search_kernels`."""
    return [sys.executable, "-m", "fairysim.jit.warm", "--search", game, *map(str, players)]


def start(game: str, players: Sequence[int]) -> None:
    """Compile ``game``'s searching kernel for ``players`` (each a player count the caller will
    search at) in a background process, unless one is running for the game or the machine has a
    single core (where it would only take turns with the caller) or :data:`ENV_SWITCH` is 0."""
    if (os.cpu_count() or 1) < 2 or os.environ.get(ENV_SWITCH, "1") == "0":
        return
    with _LOCK:
        if game in _RUNNING:
            return
        _RUNNING[game] = subprocess.Popen(
            command(game, players),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def wait(game: str, title: str) -> None:
    """Wait for ``game``'s background compile where one was started (``title`` names the game
    in the one line said while waiting), so that the searching games that follow load the
    kernel from the cache."""
    with _LOCK:
        process = _RUNNING.pop(game, None)
    if process is None:
        return
    try:  # with a warm cache the process only loads the kernel: a few seconds, said nothing of
        process.wait(QUIET_SECONDS)
    except subprocess.TimeoutExpired:
        say(f"finishing the {title} search player's compile in the background")
        process.wait()


def stop() -> None:
    """End every background compile still running (a report that stopped or failed)."""
    with _LOCK:
        processes = list(_RUNNING.values())
        _RUNNING.clear()
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        process.wait()


atexit.register(stop)

__all__ = ["command", "start", "stop", "wait"]

"""Say on stderr that numba is compiling a game's engine, and keep saying it while it lasts.

A cold cache costs minutes of compiling before a command plays its first game. A terminal shows
a spinner, but a log, a CI job or a notebook shows nothing, and the command looks hung. So every
command writes one plain line when a game's kernels start to compile ("compiling the <title>
engine for this machine, first run only, about N s"), then one line every
:data:`TICK_SECONDS` while the compile goes on, on whatever stderr is (plain lines, so a log
reads them as well as a terminal does).

Compiles are seen through numba's event API: numba fires a ``numba:compile`` event only when a
function is really compiled, never when it is loaded from the cache, so a warm run says nothing.
Events nest (a kernel's callees compile inside it); the outermost one of a function in a
registered game's package names the game (found from the function's module, so this module
names no game). Compiles outside every game's package (a user's policy, the small wrapper that
guards it) are quick and happen on every run: they say nothing.

The estimate is the game's :attr:`fairysim.sim.game.GameSpec.compile_seconds`.
``FAIRYSIM_COMPILE_NOTICE=0`` silences the lines. :func:`compile_totals` gives what this
process compiled, per game (``fairysim compile`` and ``bench --compile`` report it).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

TICK_SECONDS = 15.0
"""Seconds between two "still compiling" lines."""

ENV_SWITCH = "FAIRYSIM_COMPILE_NOTICE"
"""Environment variable: ``0`` turns the lines off (the totals are still kept)."""


@dataclass
class CompileTotal:
    """What one process compiled for one game: outermost compiles and their wall seconds."""

    compiles: int = 0
    seconds: float = 0.0


class _State:
    """The one listener's state; numba compiles under a global lock, so one compile at a time."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.depth = 0
        self.game: Any = None  # the spec of the outermost compile in progress, if a game's
        self.started = 0.0  # when that outermost compile began
        self.announced: set[str] = set()  # games whose first line is written
        self.last_line = 0.0  # when the last line was written
        self.totals: dict[str, CompileTotal] = {}
        self.ticker: threading.Thread | None = None


_state = _State()
_installed = False


def say(line: str) -> None:
    """Write ``fairysim: line`` on stderr, unless the notices are switched off (a broken stderr
    is ignored)."""
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return
    stream = sys.stderr  # looked up now: a test's capture, rich's redirection
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):  # a broken stderr must not break a compile
        print(f"fairysim: {line}", file=stream, flush=True)


def headline(spec: Any) -> str:
    """The first line for a game: what compiles, that it happens once, and about how long."""
    line = f"compiling the {spec.title} engine for this machine, first run only"
    estimate = getattr(spec, "compile_seconds", None)
    return f"{line}, about {estimate} s" if estimate else line


_registered_games: Callable[[], Iterable[Any]] = tuple
"""The registered games' specs (each with ``name``, ``title``, ``package`` and
``compile_seconds``): :func:`install` receives it from the engine package, which this tooling
does not import."""


def _game_of(dispatcher: Any) -> Any:
    """The registered game whose package defines the compiled function, or None."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    for spec in list(_registered_games()):
        if module == spec.package or module.startswith(spec.package + "."):
            return spec
    return None


def _tick() -> None:
    """The ticker thread: a line every :data:`TICK_SECONDS` while a game's compile goes on."""
    state = _state
    with state.lock:
        while True:
            state.lock.wait_for(lambda: state.game is not None)
            game = state.game
            remaining = state.last_line + TICK_SECONDS - time.monotonic()
            if remaining > 0:
                state.lock.wait(remaining)
                continue
            done = state.totals.get(game.name, CompileTotal()).seconds
            so_far = done + time.monotonic() - state.started
            say(f"still compiling the {game.title} engine, {so_far:.0f} s so far")
            state.last_line = time.monotonic()


def _on_start(dispatcher: Any) -> None:
    state = _state
    with state.lock:
        state.depth += 1
        if state.depth != 1:
            return
        spec = _game_of(dispatcher)
        if spec is None:
            return
        state.game = spec
        state.started = time.monotonic()
        if spec.name not in state.announced:
            state.announced.add(spec.name)
            say(headline(spec))
            state.last_line = state.started
        elif state.last_line < state.started - TICK_SECONDS:
            state.last_line = state.started  # a later compile of the game: a line in 15 s
        if state.ticker is None:
            state.ticker = threading.Thread(target=_tick, name="fairysim-compile", daemon=True)
            state.ticker.start()
        state.lock.notify_all()


def _on_end() -> None:
    state = _state
    with state.lock:
        state.depth = max(state.depth - 1, 0)
        if state.depth != 0 or state.game is None:
            return
        total = state.totals.setdefault(state.game.name, CompileTotal())
        total.compiles += 1
        total.seconds += time.monotonic() - state.started
        state.game = None
        state.lock.notify_all()


def install(registered_games: Callable[[], Iterable[Any]]) -> None:
    """Listen to numba's compile events (once per process; ``fairysim/sim/__init__.py`` calls it
    with its registry's ``games``, which names the game a compiled function belongs to)."""
    global _installed, _registered_games
    _registered_games = registered_games
    if _installed:
        return
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            _on_start((ev.data or {}).get("dispatcher"))

        def on_end(self, ev: Any) -> None:
            _on_end()

    event.register("numba:compile", Listener())
    _installed = True


def compile_totals() -> dict[str, CompileTotal]:
    """Per game name, what this process has compiled so far (copies)."""
    with _state.lock:
        return {name: CompileTotal(t.compiles, t.seconds) for name, t in _state.totals.items()}


__all__ = ["TICK_SECONDS", "CompileTotal", "compile_totals", "headline", "install", "say"]

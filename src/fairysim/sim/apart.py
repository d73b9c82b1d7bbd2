"""Kernels compiled apart: a jitted function its caller calls through a function pointer.

Numba links a called jitted function into its caller's LLVM module, then optimizes and emits the
whole module again; every caller up a chain of calls repeats the work for all that lies below it.
An engine's worker, block loop and turn loop are such a chain, each level a handful of lines
over the game below it, so each level costs as much compiling as the game itself
(``docs/performance-log.md``, "Compile time: levels apart"). A level called through
:func:`apart` is compiled once, in a library of its own; its caller holds a function pointer,
links none of its code, and costs only its own lines.

The call passes its arguments by value (a table is a few hundred words) and LLVM no longer
optimizes the level together with its caller, so a level goes apart only where the benchmark's
rates hold (the engines' ``kernel_levels`` say which; docs/performance-log.md has the pairs):
what is called per decision or per short play-out stays linked. The pointer is an argument the
caller receives at run time, never a constant in its code, so a kernel loaded from numba's cache
in another process calls that process's function.
"""

from __future__ import annotations

import threading
from typing import Any

from numba.core.registry import CPUDispatcher

_APART: dict[tuple[Any, tuple], tuple] = {}
_LOCK = threading.Lock()


def apart(dispatcher: CPUDispatcher, arg_types: tuple) -> tuple:
    """``dispatcher``'s function compiled (or loaded from numba's cache) for ``arg_types`` alone,
    as a 1-tuple holding a first-class function: a kernel that takes the tuple calls
    ``functions[0](...)`` without linking the function in.

    ``arg_types`` are numba types, exactly those of the call (a first-class call converts
    nothing); the same ``(dispatcher, arg_types)`` gives the same tuple, so a kernel compiled
    for one run's types serves the next. The function compiles with its own options and cache;
    ``dispatcher`` itself is left free to compile other signatures for callers that link it.
    """
    key = (dispatcher, tuple(arg_types))
    with _LOCK:
        if key not in _APART:
            function = CPUDispatcher(
                py_func=dispatcher.py_func, locals={}, targetoptions=dict(dispatcher.targetoptions)
            )
            function.enable_caching()
            function.compile(tuple(arg_types))
            function.disable_compile()  # one signature: a first-class function
            _APART[key] = (function,)
        return _APART[key]


__all__ = ["apart"]

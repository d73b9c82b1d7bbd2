"""Ctrl-C and SIGTERM as a stop that Python cannot drop.

Python raises a signal's exception in whatever Python code runs when the signal comes. Code
the interpreter runs on its own behalf drops it: a weakref callback (seen: a
``WeakKeyDictionary``'s ``remove`` while a run wrote its Parquet chunks), a ``__del__``, a
garbage-collection callback print "Exception ignored in: ..." and carry on, and the run went on
playing. So while a command runs, a stop is also noted, and the loops that play games
(:func:`fairysim.sim.batch.run_chunks`, a sweep's wait for its tasks) call :func:`check` between
chunks, which raises a noted stop again; the interpreter's report of the dropped one is not
printed (the command says it stopped, in one line).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Stopped(KeyboardInterrupt):
    """A stop by SIGTERM, raised like Ctrl-C's ``KeyboardInterrupt`` so that a stop unwinds the
    same way: every ``with`` block closes (temporary files removed) before the command says what
    it kept."""


_heard: list[int] = []
_depth = 0


def _stop(signum: int) -> KeyboardInterrupt:
    return Stopped() if signum == signal.SIGTERM else KeyboardInterrupt()


def _on_signal(signum: int, frame: Any) -> None:
    _heard.append(signum)
    raise _stop(signum)


@contextmanager
def stops_noted() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise (``KeyboardInterrupt``, :class:`Stopped`) and
    are noted for :func:`check`, and a noted stop that the interpreter drops is not reported on
    stderr; on leaving the outermost block the handlers before it are back and the note is
    cleared.

    Signals are set from the main thread only: elsewhere the block changes nothing. A SIGINT
    that is ignored (a process started in the background by a shell) stays ignored.
    """
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stops = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        stops.append(signal.SIGINT)
    before = {signum: signal.signal(signum, _on_signal) for signum in stops}
    report = sys.unraisablehook

    def report_all_but_a_stop(unraisable: Any) -> None:
        if not (_heard and isinstance(unraisable.exc_value, KeyboardInterrupt)):
            report(unraisable)

    sys.unraisablehook = report_all_but_a_stop
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        sys.unraisablehook = report
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if _depth == 0:
            _heard.clear()


def check() -> None:
    """Raise the stop noted in this block, if any (its first raise may have been dropped)."""
    if _heard:
        raise _stop(_heard[0])


__all__ = ["Stopped", "check", "stops_noted"]

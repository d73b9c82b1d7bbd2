"""Which part of a long run is playing, told to whoever listens: the command line's progress
line says "card effects: 12 of 26 arms" while a report plays.

A study calls :func:`tell` as it starts each step; the command that runs it listens
(:func:`listening`). The listener is held in a context variable rather than passed down every
function between the command and the study's loop, since the studies are many and nested (a
report plays its game's study, the card effects, the ladder, ...) and only a listener needs the
words; with no listener :func:`tell` does nothing. Telling never changes what is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    """One step of a long run.

    Attributes
    ----------
    study : str
        What is playing ("card effects, 4 players").
    done, total : int or None
        Steps finished and steps in all ("12 of 26"), where the study counts them.
    unit : str
        What a step is ("arms", "rungs").
    """

    study: str
    done: int | None = None
    total: int | None = None
    unit: str = ""

    def __str__(self) -> str:
        if self.total is None:
            return self.study
        return f"{self.study}: {self.done or 0:,} of {self.total:,} {self.unit}".rstrip()


Listener = Callable[[Stage], None]

_listener: ContextVar[Listener | None] = ContextVar("fairysim_stage_listener", default=None)


def tell(study: str, done: int | None = None, total: int | None = None, unit: str = "") -> None:
    """Tell the listener (if any) that ``study`` is playing, ``done`` of ``total`` ``unit``."""
    listener = _listener.get()
    if listener is not None:
        listener(Stage(study, done, total, unit))


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Within the block, every :func:`tell` calls ``listener``."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


__all__ = ["Listener", "Stage", "listening", "tell"]

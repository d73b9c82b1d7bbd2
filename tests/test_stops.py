"""A Ctrl-C or SIGTERM that Python drops is raised again between chunks (fairysim.runtime.stops)."""

from __future__ import annotations

import signal
import sys
import weakref

import numpy as np
import pytest

from fairysim.runtime.stops import Stopped, check, stops_noted
from fairysim.sim.batch import run_chunks


class Token:
    """Something to hold a weak reference to."""


def drop_a_signal_in_a_callback(signum: int) -> bool:
    """Send ``signum`` while Python runs a weakref callback: its handler's exception is raised
    inside the callback, where the interpreter drops it and carries on (True)."""
    token = Token()
    ref = weakref.ref(token, lambda _: signal.raise_signal(signum))
    assert ref() is token
    del token  # the callback runs here
    return True


@pytest.mark.usefixtures("hear_ctrl_c")
@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGTERM, Stopped), (signal.SIGINT, KeyboardInterrupt)]
)
def test_a_stop_dropped_by_a_callback_is_raised_before_the_next_chunk(monkeypatch, signum, raised):
    reported: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: reported.append(info.exc_type))
    played: list[int] = []
    carried_on: list[bool] = []

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        played.append(first)
        if len(played) == 2:
            carried_on.append(drop_a_signal_in_a_callback(signum))
        return {"score": np.zeros((n, 2))}

    with stops_noted(), pytest.raises(raised):
        for _ in run_chunks(play_chunk, games=10, chunk_games=2):
            pass
    assert carried_on == [True]  # the stop's exception was dropped in the callback
    assert played == [0, 2]  # and raised again before a third chunk
    assert reported == []  # the dropped one is not printed: the command's line says it


def test_other_dropped_exceptions_are_still_reported(monkeypatch):
    reported: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: reported.append(info.exc_type))

    def fail(_):
        raise ValueError("a bug in a callback")

    with stops_noted():
        token = Token()
        ref = weakref.ref(token, fail)
        del token
    assert ref() is None
    assert reported == [ValueError]


def test_the_handlers_and_the_note_last_only_as_long_as_the_block():
    before = signal.getsignal(signal.SIGTERM)
    with stops_noted():
        with stops_noted(), pytest.raises(Stopped):
            signal.raise_signal(signal.SIGTERM)
        with pytest.raises(Stopped):
            check()  # still noted in the outer block
    assert signal.getsignal(signal.SIGTERM) is before
    check()  # the note ended with the outermost block


def test_an_ignored_ctrl_c_stays_ignored(monkeypatch):
    monkeypatch.setattr(signal, "getsignal", lambda signum: signal.SIG_IGN)
    installed: list[int] = []
    real_signal = signal.signal

    def record(signum, handler):
        installed.append(signum)
        return real_signal(signum, handler)

    monkeypatch.setattr(signal, "signal", record)
    with stops_noted():
        pass
    assert signal.SIGINT not in installed
    assert signal.SIGTERM in installed

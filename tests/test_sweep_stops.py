"""A stop heard while a sweep or tournament waits for its tasks ends the wait
(:func:`fairysim.sweep.cluster.completed`), even one Python dropped inside a callback, as it drops
what distributed's garbage-collection callbacks raise; a local cluster's worker processes start in
process groups of their own, where a terminal's Ctrl-C does not reach them."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import os
import signal
import time

import pytest

from fairysim.sweep.cluster import (
    completed,
    spawn_in_own_process_group,
    workers_in_own_process_groups,
)


class Running:
    """Stands in for ``distributed.as_completed``: futures become ready after a few looks."""

    def __init__(self, futures, looks_each=2, on_look=None):
        self.waiting = list(futures)
        self.ready: list = []
        self.looks_each = looks_each
        self.looks = 0
        self.on_look = on_look

    def add(self, future):
        self.waiting.append(future)

    def has_ready(self):
        self.looks += 1
        assert self.looks < 1000, "the wait never ended"
        if self.on_look is not None:
            self.on_look(self.looks)
        if self.waiting and self.looks % self.looks_each == 0:
            self.ready.append(self.waiting.pop(0))
        return bool(self.ready)

    def is_empty(self):
        return not (self.waiting or self.ready)

    def __next__(self):
        return self.ready.pop(0)


def test_every_future_comes_in_order_including_those_added_meanwhile():
    running = Running(["a", "b"])
    seen = []
    for future in completed(running):
        seen.append(future)
        if future == "a":
            running.add("c")
    assert seen == ["a", "b", "c"]


@pytest.mark.usefixtures("hear_ctrl_c")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_dropped_inside_a_callback_still_ends_the_wait(signum):
    def dropped_stop(look):
        if look == 3:
            with contextlib.suppress(KeyboardInterrupt):  # as a gc callback's is dropped
                signal.raise_signal(signum)

    running = Running(["a", "b", "c"], looks_each=50, on_look=dropped_stop)
    with pytest.raises(KeyboardInterrupt):
        list(completed(running))
    assert running.looks < 10


def test_the_signal_handlers_are_put_back():
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    assert list(completed(Running(["a"]))) == ["a"]
    with pytest.raises(KeyboardInterrupt):
        for _ in completed(Running(["a", "b"])):
            raise KeyboardInterrupt
    assert {signum: signal.getsignal(signum) for signum in before} == before


@pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="posix_spawn sets the process group")
def test_a_spawned_process_starts_in_a_process_group_of_its_own():
    # A spawn-started child reads its start-up data from the fds multiprocessing passes it:
    # that it runs to a clean exit shows they reached it.
    context = multiprocessing.get_context("spawn")
    with workers_in_own_process_groups():
        child = context.Process(target=time.sleep, args=(1.0,))
        child.start()
    try:
        assert os.getpgid(child.pid) == child.pid != os.getpgrp()
    finally:
        child.join(60)
    assert child.exitcode == 0
    assert multiprocessing.util.spawnv_passfds is not spawn_in_own_process_group

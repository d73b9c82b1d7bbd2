"""Run in each local Dask worker process as it starts (a Dask ``preload``): Ctrl-C is ignored.

A terminal's Ctrl-C reaches the whole foreground process group. The sweep's own process stops in
one line and closes the cluster (:func:`fairysim.cli.common.handle_errors`); a worker that heard
the signal too would print the traceback of its interrupted event loop. The workers a local
cluster starts are in process groups of their own
(:func:`fairysim.sweep.cluster.workers_in_own_process_groups`), which no Ctrl-C reaches; one the
nanny restarts later is spawned in the sweep's group, and this module ignores SIGINT in it.
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def ignore_ctrl_c() -> None:
    """Ignore SIGINT in this process (signals are set from the main thread only)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


ignore_ctrl_c()


def dask_setup(worker: Any) -> None:
    """The preload's entry point; the module's import has done the work."""
    ignore_ctrl_c()


__all__ = ["dask_setup", "ignore_ctrl_c"]

"""Run in each local Dask worker process as it starts (a Dask ``preload``): Ctrl-C is ignored.

A terminal's Ctrl-C reaches the whole process group. The sweep's own process stops in one line
and closes the cluster (:func:`fairysim.cli.common.handle_errors`); a worker that heard the
signal too would print the traceback of its interrupted event loop. Ignoring SIGINT here
rather than in the sweep's process while the workers start keeps every Ctrl-C working there; a
worker hit in the second before this module runs may still print.
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

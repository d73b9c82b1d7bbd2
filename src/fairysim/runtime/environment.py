"""Environment variables that fairysim's engines read, checked before numba reads them.

Numba reads ``NUMBA_NUM_THREADS`` once, when it is first imported: ``0`` or a negative number
raise a traceback from inside numba's import, and a value that is not a number is reported as
a warning with a traceback of its own, after which the run goes on with every core. So
``fairysim/__init__.py`` checks the variable first; a bad value is dropped from the environment
(numba then imports), remembered here, and raised as a one-line :class:`FairysimError` by the
command line before any work (:func:`raise_environment_error`) and by every run
(:func:`fairysim.sim.batch.run_chunks`).
"""

from __future__ import annotations

import os

from fairysim.runtime.errors import FairysimError

THREADS_VARIABLE = "NUMBA_NUM_THREADS"

_error: list[FairysimError] = []


def check_environment() -> None:
    """Check the environment variables numba reads; remember (and drop) a bad one."""
    raw = os.environ.get(THREADS_VARIABLE)
    if raw is None:
        return
    try:
        threads = int(raw)
    except ValueError:
        threads = None
    if threads is None or threads < 1:
        os.environ.pop(THREADS_VARIABLE)
        _error[:] = [
            FairysimError(
                THREADS_VARIABLE, f"must be a positive whole number of threads, got {raw!r}"
            )
        ]


def raise_environment_error() -> None:
    """Raise the error :func:`check_environment` found, if any."""
    if _error:
        raise _error[0]


__all__ = ["THREADS_VARIABLE", "check_environment", "raise_environment_error"]

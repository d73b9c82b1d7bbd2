"""The ``fairysim`` console script: Ctrl-C and SIGTERM handled from the first moment.

Loading the command line and its engines (numba, pandas) takes a second or more; a stop in that
time would otherwise print the traceback of whatever import it interrupted, and SIGTERM would end
the process with no word. So the stop handling is installed here, before anything heavy is
imported, and a stop during the imports says so in one line like a stop during a command
(:func:`fairysim.cli.common.handle_errors`, which takes over once a command runs).
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

STOPPED = 130
"""Exit code of a stopped command (128 + SIGINT), as :data:`fairysim.cli.common.STOPPED`."""


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Run the ``fairysim`` command line (``python -m fairysim`` and the console script)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)
    try:
        from fairysim.cli import app
    except KeyboardInterrupt:
        print("Stopped: nothing written", file=sys.stderr)
        sys.exit(STOPPED)
    app(prog_name="fairysim")


__all__ = ["STOPPED", "main"]

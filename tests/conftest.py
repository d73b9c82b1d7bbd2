"""Test-session setup.

The toy game under tests/highcard registers through the game contract, so every registry-driven
test (the contract test, the command line, sweeps) runs it too.

Before a run over whole test folders (plain ``pytest``), the engines are compiled into numba's
on-disk cache by as many processes side by side as there are cores (``warm_kernels.py``):
compiled one after another inside the tests, a clean checkout spends most of the suite's time
waiting on a single core. With a warm cache each process only loads its kernels, in seconds. A
run of chosen files or tests compiles what it uses as it goes; ``FAIRYSIM_TEST_WARM=0`` turns
the warm-up off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import highcard.spec  # noqa: F401  (registers the game)

WARM_KERNELS = Path(__file__).with_name("warm_kernels.py")
WARM_TASKS = (
    ("concerto", "engine"),
    ("fairyland", "engine"),
    ("concerto", "lanes"),
    ("fantastique", "engine"),
    ("fantastique", "lanes"),
)
"""The built-in games' kernels, the slowest to compile first (Fairy Land has no lanes)."""


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput") or os.environ.get("FAIRYSIM_TEST_WARM", "1") == "0":
        return  # an xdist worker: the controller has warmed the cache
    if config.option.collectonly or config.option.help or config.option.version:
        return
    if not any(Path(arg.split("::")[0]).is_dir() for arg in config.args):
        return
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        # a failure here shows again, with its cause, in the tests that compile
        list(pool.map(_warm, WARM_TASKS))


def _warm(task: tuple[str, str]) -> None:
    command = [sys.executable, str(WARM_KERNELS), *task]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

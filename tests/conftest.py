"""Test-session setup.

The toy game under tests/highcard registers through the game contract, so every registry-driven
test (the contract test, the command line, sweeps) runs it too.

Before a run over whole test folders (plain ``pytest``), the engines are compiled into numba's
on-disk cache by a few processes (:data:`WARM_TASKS`), as many side by side as there are cores
(``warm_kernels.py``): compiled one after another inside the tests, a clean checkout spends most
of the suite's time waiting on a single core. With a warm cache each process only loads its
kernels, in seconds. The test processes start, and collect, as soon as a core is free of the
warm-up, and the first test runs once it has finished. The warm-up says on pytest's terminal
which game's kernels it is compiling as each part starts and ends, and every 30 s what is still
compiling, so minutes of it are never silent. A run of chosen files or tests compiles
what it uses as it goes;
``FAIRYSIM_TEST_WARM=0`` turns the warm-up off. A run over one game's test folder
(``pytest tests/fairyland``) warms that game only.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import subprocess
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path

# The suite compiles its kernels with LLVM's -O1, set before any kernel compiles (the warm-up's
# processes and the xdist workers inherit it): a cold suite compiles in about three quarters of
# the time, and a test checks what a kernel computes, which the optimization level does not
# change (no kernel uses fast-math; the saved-run tests compare with files written at -O3). Users'
# runs and ``fairysim bench`` compile at numba's default -O3, in a cache folder of their own
# (fairysim.jit.cache.folder_name). ``NUMBA_OPT=3 pytest`` runs the suite as users' runs compile.
os.environ.setdefault("NUMBA_OPT", "1")
if "numba" in sys.modules:  # imported by pytest for a warning filter of pyproject.toml's
    from numba.core import config as numba_config

    numba_config.reload_config()  # nothing is compiled yet: every compile reads the level

import highcard.declaration
import highcard.spec  # noqa: F401  (registers the game)
import pytest

# The warm-up below compiles every kernel ahead of the tests; a report's background compile of
# its search player (fairysim.jit.ahead) would only load it again beside them.
os.environ.setdefault("FAIRYSIM_COMPILE_AHEAD", "0")

TESTS = Path(__file__).resolve().parent
WARM_KERNELS = TESTS / "warm_kernels.py"
WARM_TASKS = (
    ("concerto", ("engine", "lanes")),
    ("fairyland", ("engine",)),
    ("fantastique", ("engine", "search")),
    ("fantastique", ("lanes",)),
)
"""The built-in games' kernels, a process per task, as many at once as there are cores, in an
order that keeps two cores busy to the end (Concerto's engine and lanes, the longest task, on one
core, the rest after one another on the other; cold at -O3 on 2 cores, 149 s against 58, 83 and
18 s). The searching kernel only for Fantastique: the default suite plays the search player in
that game alone (each game's searching kernel is minutes of compiling; the others' are tested
under ``-m slow``). A game's lanes come after its engine in
the same process where tables the lanes do not serve fall back to the engine, which a process of
their own would compile a second time (Fairy Concerto's 2 and 5 player tables: about 4 of the
lanes' 6 CPU minutes); Fantastique's lanes serve every table (:data:`LANES_ALONE`)."""

CORES = os.cpu_count() or 2
"""Warm-up processes at once: one per core."""

WARMING: list[Future] = []
"""The warm-up's tasks in this (the controlling) process, started by ``pytest_configure``."""

LANES_ALONE = frozenset({"fantastique"})
"""Games whose lanes serve every table of the warm-up: their lanes compile no engine kernel and
can warm in a process of their own."""


LONGEST_FIRST = (
    "test_notebooks.py",
    "test_sweep.py",
    "cli/test_faults.py",
    "cli/test_sweep_cli.py",
    "analysis/test_pages_in_browser.py",
    "fairyland/test_forced_card.py",
    "analysis/fantastique/test_report.py",
    "analysis/fairyland/test_report.py",
    "analysis/test_report_figures.py",
    "cli/test_hardening.py",
    "test_compile_ux.py",
    "test_tournament_dask.py",
    "cli/test_concerto_cli.py",
    "cli/test_report_cli.py",
    "fantastique/test_rulebook_examples.py",
)
"""The test files that take longest (``pytest --durations=0``, summed per file), longest first.
The workers take whole files (``--dist loadfile``) in collection order (``--no-loadscope-reorder``
in pyproject.toml): the long files first and the many short ones after keep every worker busy to
the end, where files in path order left one worker on a long file while the other waited. The
rulebook examples come early so that the round kernel they compile from a cold cache
(``engine.play_round`` for Python-built tables) is cached before the rulings tests, on the other
worker, need it, rather than both workers compiling it at once. A file missing here runs after
them in path order; the list changes the schedule only, never a result."""


def pytest_collection_modifyitems(config, items) -> None:
    rank = {TESTS / name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.path), len(rank)))  # stable


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput") or os.environ.get("FAIRYSIM_TEST_WARM", "1") == "0":
        return  # an xdist worker: the controller has warmed the cache
    if config.option.collectonly or config.option.help or config.option.version:
        return
    tasks = warm_tasks(config.args)
    if not tasks:
        return
    WARM_UP_SAYS.append(config)
    say(
        f"warm-up: compiling the engines into numba's cache before the first test, {CORES} "
        "processes at once (FAIRYSIM_TEST_WARM=0 skips it)"
    )
    # A failure here shows again, with its cause, in the tests that compile.
    pool = ThreadPoolExecutor(max_workers=CORES)
    WARMING.extend(pool.submit(_warm, task) for task in tasks)
    pool.shutdown(wait=False)  # its threads play the tasks out; the hooks below wait for them


def pytest_sessionstart(session) -> None:
    # Before xdist starts its workers (its own pytest_sessionstart runs last): they start, import
    # and collect (several seconds of CPU each) on the first core the warm-up leaves free, beside
    # its last task rather than after it.
    wait_for_warm_up(running=CORES - 1)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session) -> None:
    # Before xdist hands out the first test (or this process runs it): every kernel is cached.
    wait_for_warm_up(running=0)


WARM_UP_LINES: queue.Queue[str] = queue.Queue()
"""What the warm-up's processes say (a part started or ended), for the controlling process to
print between its waits (:func:`wait_for_warm_up`): pytest's terminal is written from one
thread."""

WARM_UP_SAYS: list[pytest.Config] = []
"""The run's configuration, whose terminal reporter prints the warm-up's lines."""

STILL_EVERY = 30.0
"""Seconds between the warm-up's "still compiling" lines while no part starts or ends."""

COMPILING: dict[str, float] = {}
"""The parts compiling now (``"fantastique engine"``) and when each started."""


def say(line: str) -> None:
    """Print one line of the warm-up on pytest's terminal (stderr without a terminal reporter),
    seen whatever pytest captures."""
    reporter = (
        WARM_UP_SAYS[0].pluginmanager.get_plugin("terminalreporter") if WARM_UP_SAYS else None
    )
    if reporter is None:
        print(line, file=sys.__stderr__, flush=True)
    else:
        reporter.write_line(line)


def say_warm_up_lines() -> bool:
    """Print what the warm-up's processes said since the last call; whether they said anything."""
    said = False
    while True:
        try:
            line = WARM_UP_LINES.get_nowait()
        except queue.Empty:
            return said
        said = True
        say(line)


def wait_for_warm_up(running: int) -> None:
    """Wait until at most ``running`` of the warm-up's tasks are unfinished (queued or playing),
    printing each part as it starts and ends, and every :data:`STILL_EVERY` seconds what is
    still compiling."""
    pending = {future for future in WARMING if not future.done()}
    while len(pending) > running:
        _, pending = wait(pending, timeout=STILL_EVERY, return_when=FIRST_COMPLETED)
        if not say_warm_up_lines() and COMPILING:
            now = time.monotonic()
            parts = ", ".join(f"{part} ({now - t:.0f} s)" for part, t in COMPILING.items())
            say(f"warm-up: still compiling {parts}")
    say_warm_up_lines()
    if WARMING and running == 0 and not pending and WARM_UP_SAYS:
        say("warm-up: done; the tests load every engine from the cache")
        WARM_UP_SAYS.clear()


def warm_tasks(args: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The :data:`WARM_TASKS` a run over ``args`` needs: none unless one names a folder; only a
    game's own when every folder named is inside that game's test folder (``tests/fairyland``),
    every game's otherwise."""
    paths = [Path(arg.split("::")[0]).resolve() for arg in args]
    if not any(path.is_dir() for path in paths):
        return ()
    games = {game for game, _ in WARM_TASKS}
    named = set()
    for path in paths:
        inside = [game for game in games if path.is_relative_to(TESTS / game)]
        if not inside:
            return WARM_TASKS
        named.update(inside)
    return tuple(task for task in WARM_TASKS if task[0] in named)


def _warm(task: tuple[str, tuple[str, ...]]) -> None:
    """Play one task's parts in a process of their own, queueing what it says for the terminal
    (:data:`WARM_UP_LINES`): "start GAME PART" and "done GAME PART in ..." per part."""
    game, parts = task
    command = [sys.executable, str(WARM_KERNELS), game, *parts]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as process:
        for line in process.stdout:
            event, _, rest = line.strip().partition(" ")
            part = " ".join(rest.split()[:2])
            if event == "start":
                COMPILING[part] = time.monotonic()
                WARM_UP_LINES.put(f"warm-up: {part}: compiling (or loading from the cache)")
            elif event == "done":
                COMPILING.pop(part, None)
                WARM_UP_LINES.put(f"warm-up: {part}: ready {rest.split(maxsplit=2)[2]}")
    if process.returncode:
        for part in parts:
            COMPILING.pop(f"{game} {part}", None)
        WARM_UP_LINES.put(
            f"warm-up: {game} {' '.join(parts)} failed (exit {process.returncode}); the tests "
            "that need it compile it and show why"
        )


@pytest.fixture(scope="module")
def scheduler():
    """Address of a local Dask cluster of two single-threaded worker processes, one per test
    module that asks for it (starting one costs a few seconds): the path a multi-machine run
    takes."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def figures_unrendered(monkeypatch):
    """Report figures built but not drawn: each is still made from its data (its labels, its
    checks), then kept as a 1-pixel PNG and an empty SVG. For tests of a page's words and files,
    where drawing is most of a small report's time (about 0.2 s a figure, its PNG and SVG, and a
    report has five to a dozen); every report's figures are also tested drawn (its written page,
    ``tests/analysis/test_report_figures.py``, the browser test)."""
    import io

    from PIL import Image

    from fairysim.analysis.report import page

    pixel = io.BytesIO()
    Image.new("RGB", (1, 1), "white").save(pixel, format="PNG")
    png = pixel.getvalue()
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
    monkeypatch.setattr(page, "figure_png", lambda fig, dpi=page.DPI: png)
    monkeypatch.setattr(page, "figure_svg", lambda fig, laid_out=False: svg)


@pytest.fixture
def hear_ctrl_c():
    """SIGINT handled as Python handles it in a terminal (``KeyboardInterrupt``), even when
    pytest was started in the background by a shell, which sets SIGINT to be ignored by what it
    starts (fairysim then leaves it ignored, as Python does)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)

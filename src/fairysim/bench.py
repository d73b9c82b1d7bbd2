"""Speed benchmark: the jitted engines against their plain-Python reference engines.

Each game declares its cases in its spec (:attr:`fairysim.sim.game.GameSpec.bench`). A case
times the fast engine on many games and the reference engine on few (it is orders of magnitude
slower) and reports both as games per second, the median over repeats after a warm-up
run, so the compile and first-touch costs never count.

>>> from fairysim.sim.game import games
>>> all(spec.bench for spec in games().values())  # every built-in game has cases
True
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairysim.runtime.errors import ParameterError
from fairysim.sim.game import GameSpec, load_entry
from fairysim.sim.game import games as all_games

DEFAULT_GAMES = 100_000
"""Games per timed run of a fast engine."""

DEFAULT_REFERENCE_GAMES = 300
"""Games per timed run of a reference engine."""

DEFAULT_REPEATS = 5
"""Timed runs per engine; the median is reported."""

WARMUP_GAMES = 1_000
"""Games of the untimed warm-up run (compiles the kernel, touches the memory)."""

DEFAULT_COMPILE_REPEATS = 1
"""Cold compiles per case of ``run_compile_bench`` when not told otherwise (minutes each)."""


@dataclass(frozen=True)
class BenchCase:
    """One benchmarked configuration of one game.

    Attributes
    ----------
    game : str
        The registered game's name.
    label : str
        What is measured, e.g. ``4 players, greedy``.
    fast : callable
        ``fast(games)`` plays ``games`` games on the jitted engine (results discarded).
    reference : callable or None
        ``reference(games)`` plays them on the reference engine; None if the game has none
        or cannot play the case.
    max_games : int or None
        Most games of a timed run of this case (a searching seat plays thousands of games a
        second, not millions).
    paths : dict
        The ways a user reads the same games, each ``path(games)``: ``summary``
        (``simulate_summary`` by seat and by turn position) and ``frame`` (``simulate``, one
        row per game and seat); empty for a case timed off the lanes.
    """

    game: str
    label: str
    fast: Callable[[int], object]
    reference: Callable[[int], object] | None = None
    max_games: int | None = None
    paths: Mapping[str, Callable[[int], object]] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchResult:
    """Timings of one case.

    Attributes
    ----------
    case : BenchCase
        What was timed.
    games, reference_games : int
        Games per timed run of each engine.
    fast_seconds, reference_seconds : tuple of float
        Wall time of every timed run (``reference_seconds`` empty without a reference engine).
    """

    case: BenchCase
    games: int
    fast_seconds: tuple[float, ...]
    reference_games: int
    reference_seconds: tuple[float, ...]
    path_seconds: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    """Wall time of every timed run of the engine alone (``engine``) and of each read path,
    run after run in turn (engine, summary, frame, engine, ...), so a machine's swings touch
    them alike."""

    @property
    def path_ratios(self) -> dict[str, float]:
        """Each read path's rate as a share of the engine's (median runs, the same repeats)."""
        if not self.path_seconds:
            return {}
        engine = statistics.median(self.path_seconds["engine"])
        return {
            name: engine / statistics.median(seconds)
            for name, seconds in self.path_seconds.items()
            if name != "engine"
        }

    @property
    def fast_rate(self) -> float:
        """Games per second of the fast engine (median run)."""
        return self.games / statistics.median(self.fast_seconds)

    @property
    def fast_rate_range(self) -> tuple[float, float]:
        """Games per second of the fast engine's slowest and fastest runs: how far the machine
        moved during the repeats (a shared machine's rate swings by tens of percent)."""
        return self.games / max(self.fast_seconds), self.games / min(self.fast_seconds)

    @property
    def reference_rate(self) -> float | None:
        """Games per second of the reference engine (median run), None without one."""
        if not self.reference_seconds:
            return None
        return self.reference_games / statistics.median(self.reference_seconds)

    @property
    def ratio(self) -> float | None:
        """How many times faster the fast engine is, None without a reference engine."""
        reference = self.reference_rate
        return None if reference is None else self.fast_rate / reference

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly record of the case and its timings."""
        return {
            "game": self.case.game,
            "case": self.case.label,
            "games": self.games,
            "fast_seconds": list(self.fast_seconds),
            "fast_games_per_s": self.fast_rate,
            "fast_games_per_s_range": list(self.fast_rate_range),
            "reference_games": self.reference_games,
            "reference_seconds": list(self.reference_seconds),
            "reference_games_per_s": self.reference_rate,
            "ratio": self.ratio,
            "path_seconds": {k: list(v) for k, v in self.path_seconds.items()},
            "path_ratios": self.path_ratios,
        }


def game_cases(spec: GameSpec) -> list[BenchCase]:
    """The benchmark cases a game declares (:attr:`GameSpec.bench`), seed 1.

    The fast engine is timed through ``play_chunks`` alone (no DataFrame), the reference engine
    through its ``play_games``; a case on the lanes also through the two read paths
    (:attr:`BenchCase.paths`).
    """
    reference = load_entry(spec.reference)
    cases = []
    for bench_spec in spec.bench:
        setup = spec.make_setup(seed=1, **bench_spec.setup)
        paths = read_paths(spec, setup, bench_spec.setup) if bench_spec.lanes else {}

        def fast(games: int, setup: Any = setup, lanes: bool = bench_spec.lanes) -> None:
            for _ in spec.play_chunks(setup, games, lanes=lanes):
                pass

        def slow(games: int, setup: Any = setup) -> None:
            reference(setup, games)

        cases.append(
            BenchCase(
                spec.name,
                bench_spec.label,
                fast,
                slow if bench_spec.reference else None,
                bench_spec.games,
                paths,
            )
        )
    return cases


def read_paths(
    spec: GameSpec, setup: Any, options: Mapping[str, Any]
) -> dict[str, Callable[[int], object]]:
    """The read paths of a case: ``simulate_summary`` by seat and turn position, and
    ``simulate`` to a DataFrame, on the case's setup."""
    from fairysim.sim.run import simulate, simulate_summary

    def summary(games: int) -> None:
        simulate_summary(setup, games, by_turn=True)

    def frame(games: int) -> None:
        simulate(spec, games=games, seed=1, **options)

    return {"summary": summary, "frame": frame}


def time_paths(case: BenchCase, games: int, repeats: int) -> dict[str, tuple[float, ...]]:
    """Wall time of the engine and each read path of ``case``, in turn, ``repeats`` times."""
    runs: dict[str, list[float]] = {"engine": [], **{name: [] for name in case.paths}}
    for path in case.paths.values():
        path(min(games, WARMUP_GAMES))
    for _ in range(repeats):
        for name, run in (("engine", case.fast), *case.paths.items()):
            runs[name].extend(time_runs(run, games, 1))
    return {name: tuple(seconds) for name, seconds in runs.items()}


def time_runs(run: Callable[[int], object], games: int, repeats: int) -> tuple[float, ...]:
    """Wall time of ``repeats`` calls of ``run(games)``.

    Parameters
    ----------
    run : callable
        Plays ``games`` games.
    games, repeats : int
        Games per run and number of runs.

    Returns
    -------
    tuple of float
        Seconds per run, in order.
    """
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(games)
        seconds.append(time.perf_counter() - start)
    return tuple(seconds)


def run_case(case: BenchCase, games: int, reference_games: int, repeats: int) -> BenchResult:
    """Warm up, then time both engines of one case.

    Parameters
    ----------
    case : BenchCase
        The case.
    games, reference_games : int
        Games per timed run of the fast and the reference engine.
    repeats : int
        Timed runs per engine.

    Returns
    -------
    BenchResult
    """
    games = games if case.max_games is None else min(games, case.max_games)
    case.fast(min(games, WARMUP_GAMES))
    fast_seconds = time_runs(case.fast, games, repeats)
    reference_seconds: tuple[float, ...] = ()
    if case.reference is not None:
        case.reference(min(reference_games, 10))
        reference_seconds = time_runs(case.reference, reference_games, repeats)
    paths = time_paths(case, games, repeats) if case.paths else {}
    return BenchResult(case, games, fast_seconds, reference_games, reference_seconds, paths)


def select_cases(games: Iterable[str] | None = None) -> list[BenchCase]:
    """The registered cases of ``games`` (all registered games when None).

    Raises
    ------
    ParameterError
        Naming ``game`` for a game without benchmark cases.
    """
    return [case for spec in benched_games(games) for case in game_cases(spec)]


def benched_games(games: Iterable[str] | None = None) -> list[GameSpec]:
    """The specs of ``games`` (all registered games with benchmark cases when None).

    Raises
    ------
    ParameterError
        Naming ``game`` for a game without benchmark cases.
    """
    registered = {name: spec for name, spec in all_games().items() if spec.bench}
    names = list(registered) if games is None else list(games)
    for name in names:
        if name not in registered:
            raise ParameterError(
                "game", f"no benchmark for {name!r}; choose one of {', '.join(registered)}"
            )
    return [registered[name] for name in names]


def run_bench(
    cases: Iterable[BenchCase],
    games: int = DEFAULT_GAMES,
    reference_games: int = DEFAULT_REFERENCE_GAMES,
    repeats: int = DEFAULT_REPEATS,
    threads: int | None = None,
    on_result: Callable[[BenchResult], None] | None = None,
) -> list[BenchResult]:
    """Time every case.

    Parameters
    ----------
    cases : iterable of BenchCase
        From :func:`select_cases`.
    games, reference_games : int
        Games per timed run of the fast and the reference engines.
    repeats : int
        Timed runs per engine (the median is reported).
    threads : int, optional
        Numba threads for the fast engines (all cores when None).
    on_result : callable, optional
        Called with each result as soon as it is measured.

    Returns
    -------
    list of BenchResult
        One per case, in order.

    Examples
    --------
    >>> slow = lambda games: time.sleep(games * 1e-4)
    >>> case = BenchCase("toy", "sleep", fast=lambda games: None, reference=slow)
    >>> result = run_bench([case], games=1000, reference_games=10, repeats=1)[0]
    >>> result.ratio > 1
    True
    """
    from fairysim.sim.batch import check_games, numba_threads

    games = check_games(games, "games")
    reference_games = check_games(reference_games, "reference_games")
    if repeats < 1:
        raise ParameterError("repeats", f"must be at least 1, got {repeats}")
    results = []
    with numba_threads(threads):
        for case in cases:
            result = run_case(case, games, reference_games, repeats)
            if on_result is not None:
                on_result(result)
            results.append(result)
    return results


@dataclass(frozen=True)
class CompileResult:
    """Cold-cache first runs of one benchmark case, each in a fresh process and cache folder.

    Attributes
    ----------
    game, case : str
        The game's name and the case's label (:attr:`BenchSpec.label`).
    seconds : tuple of float
        Wall time of each first run: the setup and four games, almost all of it compiling.
    compile_seconds : tuple of float
        Of each, the wall time numba spent compiling the game's functions (its events).
    compiles : int
        Outermost compiles of the game's functions in the first run (the same every run).
    cpu_seconds : tuple of float
        CPU time (user and system) of each whole child process, start-up included: on a shared
        machine, where wall time depends on the other loads, the steadier figure.
    """

    game: str
    case: str
    seconds: tuple[float, ...]
    compile_seconds: tuple[float, ...]
    compiles: int
    cpu_seconds: tuple[float, ...] = ()

    @property
    def median(self) -> float:
        """Median wall time of a cold first run."""
        return statistics.median(self.seconds)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly record of the case and its timings."""
        return {
            "game": self.game,
            "case": self.case,
            "cold_first_run_seconds": list(self.seconds),
            "cold_first_run_median_s": self.median,
            "compile_seconds": list(self.compile_seconds),
            "compiles": self.compiles,
            "process_cpu_seconds": list(self.cpu_seconds),
        }


def select_compile_cases(games: Iterable[str] | None = None) -> list[tuple[GameSpec, str]]:
    """The ``(game, case label)`` pairs whose kernels compile apart
    (:attr:`BenchSpec.compile_apart`), for ``games`` (all registered games when None).

    Raises
    ------
    ParameterError
        Naming ``game`` for a game without benchmark cases.
    """
    return [
        (spec, case.label)
        for spec in benched_games(games)
        for case in spec.bench
        if case.compile_apart
    ]


def cold_first_run(spec: GameSpec, label: str, threads: int | None = None) -> dict[str, Any]:
    """One first run of case ``label`` in a new Python process whose numba cache is an empty
    temporary folder (``FAIRYSIM_CACHE_DIR``): what a first run costs on a fresh machine.

    The child sees this process's ``sys.path``, so it imports the same fairysim and registers
    the same game (:func:`fairysim.jit.warm.first_run`). The record gains ``cpu_seconds``, the
    child's CPU time (the one child this process waits for in the meantime).
    """
    with tempfile.TemporaryDirectory(prefix="fairysim-compile-") as cache:
        env = {
            **os.environ,
            "FAIRYSIM_CACHE_DIR": cache,
            "FAIRYSIM_COMPILE_NOTICE": "0",
            "PYTHONPATH": os.pathsep.join(path for path in sys.path if path),
        }
        if threads is not None:
            env["NUMBA_NUM_THREADS"] = str(threads)
        command = [sys.executable, "-m", "fairysim.jit.warm", "--first-run"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [*command, spec.name, label, spec.package],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = " ".join(done.stderr.strip().splitlines()[-1:])
        raise RuntimeError(f"the cold first run of {spec.name} {label!r} failed: {tail}")
    record = json.loads(done.stdout.strip().splitlines()[-1])
    record["cpu_seconds"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return record


def run_compile_bench(
    cases: Iterable[tuple[GameSpec, str]],
    repeats: int = DEFAULT_COMPILE_REPEATS,
    threads: int | None = None,
    on_result: Callable[[CompileResult], None] | None = None,
) -> list[CompileResult]:
    """Time ``repeats`` cold first runs of every case (:func:`cold_first_run`), one after
    another: a compile takes one core, and two side by side would slow each other.

    Returns
    -------
    list of CompileResult
        One per case, in order.
    """
    if repeats < 1:
        raise ParameterError("repeats", f"must be at least 1, got {repeats}")
    results = []
    for spec, label in cases:
        runs = [cold_first_run(spec, label, threads) for _ in range(repeats)]
        result = CompileResult(
            spec.name,
            label,
            tuple(run["seconds"] for run in runs),
            tuple(run["compile_seconds"] for run in runs),
            runs[-1]["compiles"],
            tuple(run["cpu_seconds"] for run in runs),
        )
        if on_result is not None:
            on_result(result)
        results.append(result)
    return results


def machine_info(threads: int | None = None) -> dict[str, Any]:
    """What the timings depend on: cores, numba threads, versions.

    Parameters
    ----------
    threads : int, optional
        The ``--threads`` the fast engines ran with (numba's current count when None).
    """
    import numba

    from fairysim import __version__

    return {
        "cpu_count": os.cpu_count(),
        "numba_threads": threads if threads is not None else numba.get_num_threads(),
        "numba_version": numba.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.system(),
        "fairysim_version": __version__,
    }

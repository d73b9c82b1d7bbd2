"""``fairysim bench``: games per second of the fast engines and of the reference engines."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from fairysim.bench import (
    DEFAULT_GAMES,
    DEFAULT_REFERENCE_GAMES,
    DEFAULT_REPEATS,
    machine_info,
    run_bench,
    run_compile_bench,
    select_cases,
    select_compile_cases,
)
from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    handle_errors,
    positive_int,
    stdout_console,
)

if TYPE_CHECKING:
    from fairysim.bench import BenchResult, CompileResult


@handle_errors(flags=POLICY_FLAG)
def bench(
    games: Annotated[
        int, typer.Option("--games", help="Games per timed run of each fast engine.")
    ] = DEFAULT_GAMES,
    reference_games: Annotated[
        int,
        typer.Option("--reference-games", help="Games per timed run of each reference engine."),
    ] = DEFAULT_REFERENCE_GAMES,
    repeats: Annotated[
        int, typer.Option("--repeats", help="Timed runs per engine; the median is reported.")
    ] = DEFAULT_REPEATS,
    game: Annotated[
        list[str] | None,
        typer.Option("--game", help="Benchmark only this game (repeatable; default: all)."),
    ] = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
    ] = None,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the timings to this JSON file. Default: none."),
    ] = None,
    compile_times: Annotated[
        bool,
        typer.Option(
            "--compile",
            help="Also time each game's first run from a cold cache (a new process and an empty "
            "cache folder per run, median of --repeats; minutes per game). Default: off.",
        ),
    ] = False,
) -> None:
    """Time the engines: games per second, median of repeats after a warm-up (compile) run.

    With --compile, also each game's first run from a cold cache."""
    from fairysim.runtime.files import check_out_file, write_text

    positive_int(threads, "--threads")
    if json_out is not None:
        json_out = check_out_file(json_out, "--json", suffix=".json")
    cases = select_cases(game)
    compile_cases = select_compile_cases(game) if compile_times else []
    console = stdout_console()
    info = machine_info(threads)
    console.print(f"Machine: {info['cpu_count']} cores, {info['numba_threads']} numba threads")
    console.print(
        f"Runs: {games:,} games (fast), {reference_games:,} (reference), median of {repeats}"
    )
    with ProgressBar("benchmarking", unit="cases") as progress:
        done = []

        def report(result: BenchResult) -> None:
            done.append(result)
            progress(len(done), len(cases))

        results = run_bench(cases, games, reference_games, repeats, threads, on_result=report)
    console.print(results_table(results))
    if any(result.path_ratios for result in results):
        console.print(paths_table(results))
    compiled: list[CompileResult] = []
    if compile_cases:
        with ProgressBar("compiling from a cold cache", unit="cases") as progress:

            def compile_done(result: CompileResult) -> None:
                compiled.append(result)
                progress(len(compiled), len(compile_cases))

            run_compile_bench(compile_cases, repeats, threads, on_result=compile_done)
        console.print(compile_table(compiled))
    if json_out is not None:
        record = {
            "machine": info,
            "games": games,
            "reference_games": reference_games,
            "repeats": repeats,
            "results": [r.as_dict() for r in results],
        }
        if compile_times:
            record["compile"] = [r.as_dict() for r in compiled]
        write_text(json_out, json.dumps(record, indent=2) + "\n", "--json")
        console.print(f"Wrote {json_out}", soft_wrap=True)


def results_table(results: list[BenchResult]) -> Table:
    """A rich table of benchmark results: games per second of both engines and their ratio.

    Parameters
    ----------
    results : list of BenchResult
        From :func:`fairysim.bench.run_bench`.

    Returns
    -------
    rich.table.Table
    """
    table = Table(title="Games per second (median; fast runs: the slowest and fastest timed runs)")
    table.add_column("game")
    table.add_column("case")
    table.add_column("fast", justify="right")
    table.add_column("fast runs", justify="right")
    table.add_column("reference", justify="right")
    table.add_column("fast/reference", justify="right")
    for result in results:
        reference = result.reference_rate
        ratio = result.ratio
        table.add_row(
            result.case.game,
            result.case.label,
            f"{result.fast_rate:,.0f}",
            "{:,.0f}-{:,.0f}".format(*result.fast_rate_range),
            "n/a" if reference is None else f"{reference:,.1f}",
            "n/a" if ratio is None else f"{ratio:,.0f}x",
        )
    return table


def paths_table(results: list[BenchResult]) -> Table:
    """A rich table of each read path's rate as a share of the engine's, timed in turn in the
    same run: ``simulate_summary`` (by seat and turn position) and ``simulate`` (a DataFrame).
    """
    table = Table(title="Read paths, as a share of the engine's games per second (same run)")
    table.add_column("game")
    table.add_column("case")
    table.add_column("summary/engine", justify="right")
    table.add_column("DataFrame/engine", justify="right")
    for result in results:
        ratios = result.path_ratios
        if ratios:
            table.add_row(
                result.case.game,
                result.case.label,
                f"{ratios['summary']:.2f}",
                f"{ratios['frame']:.2f}",
            )
    return table


def compile_table(results: list[CompileResult]) -> Table:
    """A rich table of cold-cache first runs: the median and the range of the runs' wall time,
    how much of it numba spent compiling the game's functions, and the child's CPU time (the
    steadier figure on a shared machine).

    Parameters
    ----------
    results : list of CompileResult
        From :func:`fairysim.bench.run_compile_bench`.

    Returns
    -------
    rich.table.Table
    """
    table = Table(
        title="First run from a cold cache, seconds (median; its runs' range and count; "
        "numba compiling; the process's CPU time)"
    )
    table.add_column("game")
    table.add_column("case")
    table.add_column("first run", justify="right")
    table.add_column("runs", justify="right")
    table.add_column("compiling", justify="right")
    table.add_column("CPU", justify="right")
    for result in results:
        table.add_row(
            result.game,
            result.case,
            f"{result.median:.0f}",
            f"{min(result.seconds):.0f}-{max(result.seconds):.0f} ({len(result.seconds)})",
            f"{statistics.median(result.compile_seconds):.0f}",
            f"{statistics.median(result.cpu_seconds):.0f}" if result.cpu_seconds else "n/a",
        )
    return table

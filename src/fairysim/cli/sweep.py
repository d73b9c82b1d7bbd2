"""``fairysim sweep <game>``: a grid of setups x lineups on Dask, resumable, one file a cell."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fairysim.cli.common import ProgressBar, handle_errors, stdout_console

if TYPE_CHECKING:
    import pandas as pd

    from fairysim.sweep import CellRunner

DEFAULT_TASK_GAMES = 262_144
"""Shown in --help without importing the engines; equal to fairysim.sweep.DEFAULT_TASK_GAMES."""

app = typer.Typer(
    help="Play a grid of setups x lineups on Dask distributed; resumes where a stopped run ended.",
    no_args_is_help=True,
)


@app.command("fantastique")
@handle_errors
def fantastique(
    out_dir: Annotated[
        Path,
        typer.Option(
            "--out-dir",
            help="Folder of the sweep: sweep.json (its configuration), cells/ (one file per "
            "finished cell) and summary.parquet. Run the same command again to resume.",
        ),
    ],
    fans: Annotated[
        str,
        typer.Option("--fans", help="Comma-separated Grande Finale fans (I..VI), or 'all'."),
    ] = "I",
    players: Annotated[
        str,
        typer.Option("--players", help="Comma-separated player counts (2..5), or 'all'."),
    ] = "4",
    lineup: Annotated[
        list[str] | None,
        typer.Option(
            "--lineup",
            help="A lineup, as --policy of `fairysim simulate` takes it: one policy for every "
            "seat, or one per seat (then for every player count of the sweep). Repeat for more "
            "lineups. Default: greedy.",
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", help="Games per cell.")] = 10_000,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help="Seed of every cell; game i depends only on (seed, i): common deals."
        ),
    ] = 0,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Address of a running Dask scheduler (tcp://host:8786) whose workers have "
            "fairysim installed. Default: a local cluster.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="Worker processes of the local cluster (default 1 with all cores' numba "
            "threads; N workers share the cores).",
        ),
    ] = None,
    task_games: Annotated[
        int | None,
        typer.Option(
            "--task-games",
            help=f"Games per Dask task (default {DEFAULT_TASK_GAMES:,}); never changes results.",
        ),
    ] = None,
) -> None:
    """Sweep Fantastique over fans x player counts x lineups; print win shares per cell and seat."""
    # Engines and Dask load here, not at import: `fairysim --help` should not wait for them.
    from fairysim.sweep import CELL_RUNNERS, run_sweep

    start = time.perf_counter()
    console = stdout_console()
    with ProgressBar("sweeping") as progress:
        summary = run_sweep(
            "fantastique",
            fans=fans,
            players=players,
            lineups=lineup or ["greedy"],
            games=games,
            seed=seed,
            out_dir=out_dir,
            scheduler=scheduler,
            workers=workers,
            task_games=DEFAULT_TASK_GAMES if task_games is None else task_games,
            progress=progress,
            log=lambda line: console.print(line, soft_wrap=True),
        )
    elapsed = time.perf_counter() - start
    meta = summary.attrs["fairysim"]
    config = meta["config"]
    cells = len(meta["cells"])
    console.print(
        f"Fantastique sweep: {len(config['fan'])} fans x {len(config['players'])} player counts "
        f"x {len(config['lineups'])} lineups = {cells} cells, {config['games']:,} games each, "
        f"seed {config['seed']}; {len(meta['computed'])} played, {len(meta['skipped'])} "
        f"resumed ({elapsed:.1f} s wall time)",
        soft_wrap=True,
    )
    console.print(sweep_table(summary, CELL_RUNNERS["fantastique"]))
    console.print(
        f"Wrote {out_dir / 'summary.parquet'} and {cells} cell files in {out_dir / 'cells'}",
        soft_wrap=True,
    )


def sweep_table(summary: pd.DataFrame, runner: CellRunner) -> Table:
    """A rich table of a sweep's summary: one row per cell and seat.

    Parameters
    ----------
    summary : pandas.DataFrame
        What :func:`fairysim.sweep.run_sweep` returns.
    runner : CellRunner
        The game's runner: its axes are the leading columns, its ``points`` the trailing ones.

    Returns
    -------
    rich.table.Table
        Axis values, seat, policy, win share with its 95% Wilson interval and the mean
        points, with a rule between cells.
    """
    table = Table(
        title="Per cell and seat: win share (ties split), 95% Wilson CI, mean points",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    axes = [axis.name for axis in runner.axes]
    for name in axes:
        table.add_column(name, justify="right")
    table.add_column("seat", justify="right")
    # Each seat's policy says what the lineup is, so the lineup needs no column of its own and
    # the table fits 80 columns. Policy names are what a reader looks for: 16 characters a line.
    widest = int(summary["policy"].astype(str).str.len().max())
    table.add_column("policy", overflow="fold", min_width=min(widest, 16))
    table.add_column("win\nshare", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    for header, _ in runner.points:
        table.add_column(header, justify="right", no_wrap=True)
    for index, (_, cell) in enumerate(summary.groupby("cell", sort=False)):
        if index:
            table.add_section()
        for row_index, row in enumerate(cell.itertuples(index=False)):
            record = row._asdict()
            # Cell columns only on a cell's first row: the eye finds where a cell starts.
            lead = [str(record[name]) if row_index == 0 else "" for name in axes]
            table.add_row(
                *lead,
                str(record["seat"]),
                str(record["policy"]),
                f"{record['win_share']:.3f}",
                f"{record['win_low']:.3f}-{record['win_high']:.3f}",
                *[f"{record[column]:.2f}" for _, column in runner.points],
            )
    return table

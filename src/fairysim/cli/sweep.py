"""``fairysim sweep <game>``: a grid of setups x lineups on Dask, resumable, one file a cell.

One command per game (``fantastique``, ``concerto``); the options every sweep has are declared
once here and the running and printing shared, so the commands differ only in their grid axes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from fairysim.cli.common import ProgressBar, handle_errors, stdout_console
from fairysim.sim.concerto.spec import PAHHA_NOTE
from fairysim.sim.concerto.spec import SPEC as CONCERTO

CardsOption = Annotated[Path | None, typer.Option("--cards", help=CONCERTO.cards_help)]


def load_card_option(cards: Path | None) -> Any:
    from fairysim.cli.simulate import load_card_option as load

    return load(CONCERTO, cards)


if TYPE_CHECKING:
    import pandas as pd

    from fairysim.sweep import CellRunner

DEFAULT_TASK_GAMES = 262_144
"""Shown in --help without importing the engines; equal to fairysim.sweep.DEFAULT_TASK_GAMES."""

app = typer.Typer(
    help="Play a grid of setups x lineups on Dask distributed; resumes where a stopped run ended.",
    no_args_is_help=True,
)


OutDirOption = Annotated[
    Path,
    typer.Option(
        "--out-dir",
        help="Folder of the sweep: sweep.json (its configuration), cells/ (one file per "
        "finished cell) and summary.parquet. Run the same command again to resume.",
    ),
]
GamesOption = Annotated[int, typer.Option("--games", help="Games per cell.")]
SeedOption = Annotated[
    int,
    typer.Option(
        "--seed", help="Seed of every cell; game i depends only on (seed, i): common deals."
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Address of a running Dask scheduler (tcp://host:8786) whose workers have "
        "fairysim installed. Default: a local cluster.",
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        help="Worker processes of the local cluster (default 1 with all cores' numba "
        "threads; N workers share the cores).",
    ),
]
TaskGamesOption = Annotated[
    int | None,
    typer.Option(
        "--task-games",
        help=f"Games per Dask task (default {DEFAULT_TASK_GAMES:,}); never changes results.",
    ),
]


def lineup_option(simulate_command: str) -> Any:
    """The ``--lineup`` option, its help naming the command whose ``--policy`` it mirrors.

    Parameters
    ----------
    simulate_command : str
        ``fairysim simulate`` or ``fairysim simulate concerto``.

    Returns
    -------
    typing.Annotated
        The option's type for a command's signature.
    """
    return Annotated[
        list[str] | None,
        typer.Option(
            "--lineup",
            help=f"A lineup, as --policy of `{simulate_command}` takes it: one policy for every "
            "seat, or one per seat (then for every player count of the sweep). Repeat for more "
            "lineups. Default: greedy.",
        ),
    ]


FantastiqueLineupOption = lineup_option("fairysim simulate")
ConcertoLineupOption = lineup_option("fairysim simulate concerto")


def sweep_and_print(
    game: str,
    headline: Callable[[dict[str, Any]], str],
    *,
    out_dir: Path,
    lineup: Sequence[str] | None,
    games: int,
    seed: int,
    scheduler: str | None,
    workers: int | None,
    task_games: int | None,
    notes: Callable[[dict[str, Any]], list[str]] = lambda config: [],
    table_axes: Callable[[dict[str, Any]], list[str]] | None = None,
    **grid: Any,
) -> pd.DataFrame:
    """Run :func:`fairysim.sweep.run_sweep` with a progress bar and print what it found.

    Parameters
    ----------
    game : str
        The game's sweep (``fantastique``, ``concerto``).
    headline : callable
        ``headline(config) -> str``: the game's name and grid, from the manifest's
        configuration; the line goes on with the cells, games, seed and what was resumed.
    out_dir, lineup, games, seed, scheduler, workers, task_games
        The options every sweep command has (``lineup`` None: greedy).
    notes : callable, optional
        ``notes(config) -> lines`` printed after the table.
    table_axes : callable, optional
        ``table_axes(config) -> names``: the axes the table shows (default: all).
    **grid
        The game's axes and settings, passed on to ``run_sweep``.

    Returns
    -------
    pandas.DataFrame
        The sweep's summary.
    """
    # Engines and Dask load here, not at import: `fairysim --help` should not wait for them.
    from fairysim.sweep import CELL_RUNNERS, run_sweep

    start = time.perf_counter()
    console = stdout_console()
    with ProgressBar("sweeping") as progress:
        summary = run_sweep(
            game,
            lineups=lineup or ["greedy"],
            games=games,
            seed=seed,
            out_dir=out_dir,
            scheduler=scheduler,
            workers=workers,
            task_games=DEFAULT_TASK_GAMES if task_games is None else task_games,
            progress=progress,
            log=lambda line: console.print(line, soft_wrap=True),
            **grid,
        )
    elapsed = time.perf_counter() - start
    meta = summary.attrs["fairysim"]
    config = meta["config"]
    cells = len(meta["cells"])
    console.print(
        f"{headline(config)} x {len(config['lineups'])} lineups = {cells} cells, "
        f"{config['games']:,} games each, seed {config['seed']}; {len(meta['computed'])} played, "
        f"{len(meta['skipped'])} resumed ({elapsed:.1f} s wall time)",
        soft_wrap=True,
    )
    axes = None if table_axes is None else table_axes(config)
    console.print(sweep_table(summary, CELL_RUNNERS[game], axes))
    for line in notes(config):
        console.print(line, soft_wrap=True)
    console.print(
        f"Wrote {out_dir / 'summary.parquet'} and {cells} cell files in {out_dir / 'cells'}",
        soft_wrap=True,
    )
    return summary


@app.command("fantastique")
@handle_errors
def fantastique(
    out_dir: OutDirOption,
    fans: Annotated[
        str,
        typer.Option("--fans", help="Comma-separated Grande Finale fans (I..VI), or 'all'."),
    ] = "I",
    players: Annotated[
        str,
        typer.Option("--players", help="Comma-separated player counts (2..5), or 'all'."),
    ] = "4",
    lineup: FantastiqueLineupOption = None,
    games: GamesOption = 10_000,
    seed: SeedOption = 0,
    scheduler: SchedulerOption = None,
    workers: WorkersOption = None,
    task_games: TaskGamesOption = None,
) -> None:
    """Sweep Fantastique over fans x player counts x lineups; print win shares per cell and seat."""
    sweep_and_print(
        "fantastique",
        lambda config: (
            f"Fantastique sweep: {len(config['fan'])} fans x {len(config['players'])} player counts"
        ),
        out_dir=out_dir,
        lineup=lineup,
        games=games,
        seed=seed,
        scheduler=scheduler,
        workers=workers,
        task_games=task_games,
        fans=fans,
        players=players,
    )


RANDOM_HELP = "'random' (drawn per game, the default) or 'all'"
CONCERTO_CARD_AXES = ("soloist_card", "pianist_card", "harpist_card")


@app.command("concerto")
@handle_errors
def concerto(
    out_dir: OutDirOption,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Comma-separated player counts (1 = solo against Pahha, 2 = the two-player "
            "rules, 3 or 4 = the draft), or 'all'.",
        ),
    ] = "4",
    lineup: ConcertoLineupOption = None,
    soloist: Annotated[
        str,
        typer.Option("--soloist", help=f"Comma-separated fixed soloist cards A..D, {RANDOM_HELP}."),
    ] = "random",
    pianist: Annotated[
        str,
        typer.Option(
            "--pianist",
            help=f"Comma-separated fixed pianist card ids of the card file, {RANDOM_HELP}.",
        ),
    ] = "random",
    harpist: Annotated[
        str,
        typer.Option(
            "--harpist",
            help=f"Comma-separated fixed harpist card ids of the card file, {RANDOM_HELP}.",
        ),
    ] = "random",
    cards: CardsOption = None,
    games: GamesOption = 10_000,
    seed: SeedOption = 0,
    scheduler: SchedulerOption = None,
    workers: WorkersOption = None,
    task_games: TaskGamesOption = None,
) -> None:
    """Sweep Fairy Concerto over player counts x soloist x pianist x harpist cards x lineups;
    print win shares per cell and seat."""
    card_set = load_card_option(cards)

    def headline(config: dict[str, Any]) -> str:
        # Each axis's values rather than their count: a Concerto grid is mostly single values.
        grid = " x ".join(
            f"{name.removesuffix('_card')} {','.join(map(str, config[name]))}"
            for name in ("players", *CONCERTO_CARD_AXES)
        )
        return f"Fairy Concerto sweep: {grid}"

    def table_axes(config: dict[str, Any]) -> list[str]:
        # A card axis with one value is said once in the headline, not on every row: four
        # axis columns would push the numbers off an 80-column terminal.
        return ["players"] + [name for name in CONCERTO_CARD_AXES if len(config[name]) > 1]

    def notes(config: dict[str, Any]) -> list[str]:
        return [f"Cards: {card_set.label}"] + ([PAHHA_NOTE] if 1 in config["players"] else [])

    sweep_and_print(
        "concerto",
        headline,
        out_dir=out_dir,
        lineup=lineup,
        games=games,
        seed=seed,
        scheduler=scheduler,
        workers=workers,
        task_games=task_games,
        notes=notes,
        table_axes=table_axes,
        players=players,
        soloist_card=soloist,
        pianist_card=pianist,
        harpist_card=harpist,
        cards=card_set,
    )


def sweep_table(
    summary: pd.DataFrame, runner: CellRunner, axes: Sequence[str] | None = None
) -> Table:
    """A rich table of a sweep's summary: one row per cell and seat.

    Parameters
    ----------
    summary : pandas.DataFrame
        What :func:`fairysim.sweep.run_sweep` returns.
    runner : CellRunner
        The game's runner: its axes are the leading columns, its ``points`` the trailing ones.
    axes : sequence of str, optional
        The axes to show (default: all of the runner's).

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
    axes = [axis.name for axis in runner.axes] if axes is None else list(axes)
    for name in axes:
        # "soloist_card" -> two short header lines: the columns' values are short.
        table.add_column(name.replace("_", "\n"), justify="right")
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

"""``fairysim tune GAME``: the fewest card changes that bring a game within a designer's targets.

A thin layer over :func:`fairysim.analysis.tune.tune`: every input is checked there before a game
is played (a bad one is one line, exit 2, nothing written); this module prints the progress, the
verdict and the files written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fairysim.cli.common import check_threads, handle_errors, stop_message


@handle_errors
def tune_command(
    game: Annotated[str, typer.Argument(help="The game, as fairysim simulate names it.")],
    targets: Annotated[
        Path,
        typer.Option("--targets", help="The targets file (TOML; docs/tune.md)."),
    ],
    out_dir: Annotated[
        Path,
        typer.Option(
            "--out-dir",
            help="Folder of tuned_cards.toml, changes.csv, candidates.parquet, front.csv, "
            "tune.html and the study (tune.db).",
        ),
    ],
    cards: Annotated[
        Path | None,
        typer.Option("--cards", help="The base card file (default: the game's shipped one)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games and the search.")] = 0,
    budget_games: Annotated[
        int | None,
        typer.Option(
            "--budget-games",
            help="Games the search plays (default 1,000,000; reproducible).",
        ),
    ] = None,
    budget_seconds: Annotated[
        float | None,
        typer.Option(
            "--budget-seconds",
            help="Seconds the search runs (stops on the clock: not reproducible). Default: "
            "none, the search stops at its --budget-games.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue the study in --out-dir (or --storage). Default: off."
        ),
    ] = False,
    storage: Annotated[
        str | None,
        typer.Option(
            "--storage",
            help="An Optuna RDB storage URL in place of --out-dir/tune.db. Default: none.",
        ),
    ] = None,
    search_games: Annotated[
        int | None,
        typer.Option(
            "--search-games",
            help="Games per table of a search candidate's first look (default 2,000); it "
            "doubles them until its intervals decide every target or it drops out.",
        ),
    ] = None,
    max_search_games: Annotated[
        int | None,
        typer.Option(
            "--max-search-games",
            help="Most games per table a search candidate plays (default 8 x --search-games; "
            "equal to it, every candidate plays --search-games).",
        ),
    ] = None,
    final_games: Annotated[
        int | None,
        typer.Option(
            "--final-games",
            help="Games per table of each finalist on fresh games (default 20,000).",
        ),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            help="numba threads (default: one a search candidate, all for the final replay).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="Play the search's candidates on a local Dask cluster of this many worker "
            "processes (the same results as one process). Default: none, this process.",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Address of a running Dask scheduler to play candidates on. Default: none.",
        ),
    ] = None,
) -> None:
    """Search the card file's listed numbers for the fewest changes that meet every target."""
    from fairysim.analysis.tune import tune

    threads = check_threads(threads)
    games = {
        "search_games": search_games,
        "max_search_games": max_search_games,
        "final_games": final_games,
    }
    stop_message(
        lambda: (
            "the trials played so far are kept in the study (--out-dir's tune.db or "
            "--storage); the same command with --resume continues it"
        )
    )
    result = tune(
        game,
        targets=targets,
        out_dir=out_dir,
        cards=cards,
        seed=seed,
        budget_games=budget_games,
        budget_seconds=budget_seconds,
        resume=resume,
        storage=storage,
        **{k: v for k, v in games.items() if v is not None},
        threads=threads,
        workers=workers,
        scheduler=scheduler,
        echo=lambda line: typer.echo(line, err=True),
    )
    if result.met and not result.changes.empty:
        typer.echo("Every target met (corrected intervals, fresh games) by:")
    elif result.met:
        typer.echo("The base card file already meets every target: no change needed.")
    else:
        typer.echo("No candidate met every target on fresh games; the closest:")
    for row in result.changes.itertuples(index=False):
        typer.echo(f"  {row.path}: {row[1]} -> {row[2]}")
    for path in result.files:
        typer.echo(f"wrote {path}")
    typer.echo(f"compare base and tuned: {result.compare_command}")

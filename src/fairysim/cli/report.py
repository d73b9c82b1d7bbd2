"""``fairysim report <game>``: run the standard study of a game and write its HTML report."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from fairysim.cli.common import ProgressBar, handle_errors, positive_int, stdout_console
from fairysim.cli.concerto import report_concerto, report_concerto_solo
from fairysim.errors import FairysimError

app = typer.Typer(
    help="Run a game's standard balance study and write a designer report (HTML and figures).",
    no_args_is_help=True,
)


@app.command("fantastique")
@handle_errors
def fantastique(
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="Games per (fan, player count, lineup) cell (default: the report's size, "
            "fairysim.analysis.fantastique_report.DEFAULT_GAMES).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of every run of the report (default: the report's)."),
    ] = None,
    out_dir: Annotated[
        Path,
        typer.Option("--out-dir", help="Folder for the report (created if missing)."),
    ] = Path("results/fantastique"),
    threads: Annotated[
        int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
    ] = None,
) -> None:
    """Write the Fantastique balance report (2 to 5 players) and print where the HTML is."""
    from fairysim.sim.batch import check_games
    from fairysim.sim.rng import check_seed

    # The report owns its defaults (sized to its run time): pass only what the user gave.
    options: dict[str, int] = {}
    if games is not None:
        options["games"] = check_games(games, "--games")
    if seed is not None:
        try:
            options["seed"] = check_seed(seed)
        except ValueError as error:
            raise FairysimError("--seed", str(error)) from None
    positive_int(threads, "--threads")
    prepare_out_dir(out_dir)
    # Imported after the checks: the analysis stack (matplotlib) is slow to load.
    from fairysim.analysis.fantastique_report import write_fantastique_report

    with ProgressBar("report") as progress:
        html = write_fantastique_report(out_dir, threads=threads, progress=progress, **options)
    stdout_console().print(f"Report written to {html}", soft_wrap=True)


def prepare_out_dir(out_dir: Path, option: str = "--out-dir") -> Path:
    """Create ``out_dir`` (and its parents) if needed, or raise naming ``option``.

    Parameters
    ----------
    out_dir : Path
        The folder a command writes into.
    option : str
        Named in the error.

    Returns
    -------
    Path
        ``out_dir``, now an existing folder.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise FairysimError(option, f"{out_dir} exists and is not a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FairysimError(option, f"cannot create {out_dir} ({error.strerror})") from None
    if not os.access(out_dir, os.W_OK):
        raise FairysimError(option, f"{out_dir} is not writable")
    return out_dir


app.command("concerto")(report_concerto)
app.command("concerto-solo")(report_concerto_solo)

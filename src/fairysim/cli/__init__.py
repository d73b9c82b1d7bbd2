"""The ``fairysim`` command line: thin commands over :mod:`fairysim.sim` and :mod:`.analysis`.

One module per command (``simulate``, ``metrics``, ``report``, ``sweep``, ``tournament``,
``replay``, ``policies``, ``bench``, ``compile``, ``compare``, ``best-response``); the per-game
subcommands are made from the game registry (:mod:`fairysim.cli.by_game`). Each command checks
its options, calls a plain function that tests can import, and prints. Errors a user can fix are
:class:`fairysim.runtime.errors.FairysimError` and come out as one line with exit code 2
(:func:`fairysim.cli.common.handle_errors`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from fairysim import __version__
from fairysim.cli import (
    bench,
    best_response,
    compare,
    compile,
    metrics,
    policies,
    replay,
    report,
    simulate,
    sweep,
    tournament,
    tune,
)
from fairysim.cli.common import OneLineErrorGroup
from fairysim.sim.game import games

app = typer.Typer(
    name="fairysim",
    help="Monte Carlo balance analysis of the card games "
    + ", ".join(spec.title for spec in games().values())
    + ": simulate, metrics, report, sweep, tournament, compare, best response, benchmark, "
    "compile ahead of time.",
    no_args_is_help=True,
    add_completion=False,
    # An unexpected exception is a bug: show numba's and Python's plain traceback, not rich's
    # multi-page rendering of every local variable.
    pretty_exceptions_enable=False,
    cls=OneLineErrorGroup,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"fairysim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the fairysim version and exit.",
        ),
    ] = False,
) -> None:
    """Simulate card games by the million and measure their balance."""


app.add_typer(simulate.app, name="simulate")
app.add_typer(metrics.app, name="metrics")
app.add_typer(report.app, name="report")
app.add_typer(policies.app, name="policies")
app.add_typer(sweep.app, name="sweep")
app.add_typer(tournament.app, name="tournament")
app.add_typer(replay.app, name="replay")
app.add_typer(best_response.app, name="best-response")
app.command("bench")(bench.bench)
app.command("compile")(compile.compile_games)
app.command("compare")(compare.compare_command)
app.command("tune")(tune.tune_command)

__all__ = ["app"]

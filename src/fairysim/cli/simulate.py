"""``fairysim simulate <game>``: play a run, print a per-seat summary, optionally save every row."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fairysim.cli.common import (
    ProgressBar,
    apply_weights,
    handle_errors,
    positive_int,
    stdout_console,
)
from fairysim.cli.concerto import simulate_concerto

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from fairysim.sim.policy import Policy

app = typer.Typer(
    help="Play many games and summarise who wins; optionally save one row per game and seat.",
    no_args_is_help=True,
)


@app.command("fantastique")
@handle_errors
def fantastique(
    players: Annotated[int, typer.Option("--players", help="Number of players, 2 to 5.")] = 4,
    fan: Annotated[
        str, typer.Option("--fan", help="Grande Finale fan side: I, II, III, IV, V or VI.")
    ] = "I",
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help="One policy for every seat, or a comma-separated policy per seat. Built-ins "
            "(see `fairysim policies fantastique`) or module:function for your own.",
        ),
    ] = "greedy",
    games: Annotated[int, typer.Option("--games", help="Number of games to play.")] = 10_000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the run; game i depends only on (seed, i).")
    ] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Parquet file for one row per (game, seat), written atomically with the run's "
            "configuration. Without it only the summary is printed.",
        ),
    ] = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
    ] = None,
    chunk_games: Annotated[
        int | None,
        typer.Option(
            "--chunk-games",
            help="Games per chunk (memory and progress granularity; never changes results).",
        ),
    ] = None,
    trace: Annotated[
        bool,
        typer.Option(
            "--trace", help="Add each seat's medal points after every round to the --out rows."
        ),
    ] = False,
    cards: Annotated[
        Path | None,
        typer.Option("--cards", help="Card file (TOML) for a variant deck or medal ladder."),
    ] = None,
    weights: Annotated[
        str | None,
        typer.Option(
            "--weights",
            help="Policy weights as comma-separated \\[seat or policy:]name=value, e.g. "
            "'finale=2' (every seat whose policy has it), 'hoarder:finale=2', '1:risk=0.3'.",
        ),
    ] = None,
) -> None:
    """Simulate Fantastique games and print win shares with 95% intervals and mean scores."""
    # Engines load here, not at import: `fairysim --help` should not wait for numba.
    from fairysim.errors import CardFileError, FairysimError
    from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, check_games, check_out_path
    from fairysim.sim.fantastique import load_cards, make_setup, simulate_summary

    # Every check runs before the first game, so a bad option costs no compile and no file.
    games = check_games(games, "--games")
    chunk_games = positive_int(chunk_games, "--chunk-games") or DEFAULT_CHUNK_GAMES
    positive_int(threads, "--threads")
    if out is not None:
        out = check_out_path(out, "--out")
    try:
        card_set = load_cards(cards)
    except CardFileError as error:
        raise FairysimError("--cards", str(error)) from None
    setup = make_setup(players=players, fan=fan, policies=policy, seed=seed, cards=card_set)
    setup = dataclasses.replace(setup, policies=apply_weights(setup.policies, weights))

    start = time.perf_counter()
    with ProgressBar("simulating", total=games) as progress:
        summary = simulate_summary(
            setup,
            games,
            out=out,
            trace=trace,
            chunk_games=chunk_games,
            threads=threads,
            progress=progress,
        )
    elapsed = time.perf_counter() - start

    console = stdout_console()
    console.print(
        f"Fantastique, {setup.players} players, fan {setup.fan}, {games:,} games, seed {setup.seed}"
        f" ({elapsed:.1f} s wall time)"
    )
    console.print(summary_table(summary, [policy_label(p) for p in setup.policies]))
    if out is not None:
        console.print(f"Wrote {games * setup.players:,} rows to {out}", soft_wrap=True)


def summary_table(summary: pd.DataFrame, labels: Sequence[str] | None = None) -> Table:
    """A rich table of a per-seat summary from ``simulate_summary``.

    Parameters
    ----------
    summary : pandas.DataFrame
        One row per seat with ``games``, ``wins`` and ``<column>_mean`` for score, medal points,
        finale points and finale count.
    labels : sequence of str, optional
        What to show for each seat's policy (default: the summary's ``policy`` column).

    Returns
    -------
    rich.table.Table
        Win share with its 95% Wilson interval and the mean score and its parts, per seat.
    """
    from fairysim.analysis.stats import wilson_interval

    labels = [str(p) for p in summary["policy"]] if labels is None else list(labels)
    lows, highs = wilson_interval(summary["wins"], summary["games"])
    # No vertical rules and collapsed padding, so that eight columns fit an 80-column terminal.
    table = Table(
        title="Per seat: win share (ties split), 95% Wilson CI, mean points",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("seat", justify="right")
    # Policy names are what a reader looks for: keep them whole and let the headers wrap.
    table.add_column("policy", overflow="fold", min_width=min(max(map(len, labels)), 20))
    for name in (
        "win\nshare",
        "95% CI",
        "score",
        "medal\npoints",
        "finale\npoints",
        "finale\ncards",
    ):
        table.add_column(name, justify="right", no_wrap=True)
    for row, label, low, high in zip(
        summary.itertuples(index=False), labels, lows, highs, strict=True
    ):
        table.add_row(
            str(row.seat),
            str(label),
            f"{row.wins / row.games:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{row.score_mean:.2f}",
            f"{row.medal_points_mean:.2f}",
            f"{row.finale_points_mean:.2f}",
            f"{row.finale_count_mean:.2f}",
        )
    return table


def policy_label(policy: Policy) -> str:
    """A policy's name, followed by the weights that differ from its defaults.

    Examples
    --------
    >>> from fairysim.sim.fantastique import POLICIES
    >>> policy_label(POLICIES["hoarder"].with_weights(finale=2))
    'hoarder (finale=2)'
    """
    changed = [
        f"{name}={value:g}"
        for name, value, default in zip(
            policy.weight_names, policy.weights, policy.defaults, strict=True
        )
        if value != default
    ]
    return f"{policy.name} ({', '.join(changed)})" if changed else policy.name


app.command("concerto")(simulate_concerto)

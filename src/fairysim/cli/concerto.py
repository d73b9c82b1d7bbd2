"""``fairysim simulate concerto``: typer command function (wired in by fairysim.cli)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from fairysim.cli.common import (
    ProgressBar,
    apply_weights,
    handle_errors,
    positive_int,
    stdout_console,
)


@handle_errors
def simulate_concerto(
    players: Annotated[
        int, typer.Option("--players", help="1 = solo against Pahha, 2 = two-player rules, 3 or 4.")
    ] = 4,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help="One policy for every player, or a comma-separated policy per seat (random, "
            "greedy, chaser, maestro, denier, lookahead) or module:function.",
        ),
    ] = "greedy",
    games: Annotated[int, typer.Option("--games", help="Number of games to play.")] = 10_000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed; game i depends only on (seed, i).")
    ] = 0,
    soloist: Annotated[
        str | None, typer.Option("--soloist", help="Fixed soloist card A..D.")
    ] = None,
    pianist: Annotated[str | None, typer.Option("--pianist", help="Fixed pianist card id.")] = None,
    harpist: Annotated[str | None, typer.Option("--harpist", help="Fixed harpist card id.")] = None,
    cards: Annotated[
        Path | None, typer.Option("--cards", help="Card file (TOML), ruling C9.")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Parquet file for every row.")] = None,
    threads: Annotated[int | None, typer.Option("--threads", help="Numba threads.")] = None,
    weights: Annotated[
        str | None, typer.Option("--weights", help="Policy weights name=value,...")
    ] = None,
) -> None:
    """Simulate Fairy Concerto games and print a per-seat summary."""
    from fairysim.errors import CardFileError, FairysimError
    from fairysim.sim.batch import check_games, check_out_path
    from fairysim.sim.concerto import load_cards, make_setup, simulate_summary

    games = check_games(games, "--games")
    positive_int(threads, "--threads")
    if out is not None:
        out = check_out_path(out, "--out")
    try:
        card_set = load_cards(cards)
    except CardFileError as error:
        raise FairysimError("--cards", str(error)) from None
    setup = make_setup(players, policy, seed, soloist, pianist, harpist, card_set)
    setup = dataclasses.replace(setup, policies=apply_weights(setup.policies, weights))
    with ProgressBar("simulating", total=games) as progress:
        summary = simulate_summary(setup, games, out=out, threads=threads, progress=progress)
    console = stdout_console()
    console.print(f"cards: {card_set.label}")
    cols = ["seat", "policy", "games", "wins", "score_mean", "score_std", "margin_mean"]
    console.print(summary[cols].to_string(index=False))

"""Fairy Concerto commands: ``simulate concerto``, ``report concerto``, ``report concerto-solo``
and ``policies concerto``.

The command functions live here, in one module for the game; ``fairysim.cli.simulate``,
``.report`` and ``.policies`` register them under their command groups. ``sweep concerto`` lives
with the other sweeps in ``fairysim.cli.sweep`` and reuses the card option and note defined here.
Like every command they check all options before the first game (so a bad option costs no
compile and leaves no file) and import the engines and the analysis stack only then.
"""

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
from fairysim.errors import FairysimError

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from fairysim.sim.concerto import ConcertoCards

CardsOption = Annotated[
    Path | None,
    typer.Option(
        "--cards",
        help="Card file (TOML) with the score, pianist and harpist cards and the token mix "
        "(default: the shipped PROVISIONAL set, ruling C9; see docs/concerto-cards.md).",
    ),
]
CONTEST_PARTS = ("conductor", "soloist", "pianist", "harpist")
"""Score parts of the four contest cards, summed in the summary table."""

PAHHA_NOTE = "A tie with Pahha is a loss; Pahha scores 3 per face-down score card (ruling C8)."
"""Printed under every table with a solo seat against Pahha."""

ThreadsOption = Annotated[
    int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
]


def load_card_option(cards: Path | None) -> ConcertoCards:
    """Read ``--cards`` (the shipped set when None); a bad file is an error naming ``--cards``,
    the file, the card and the problem.

    Parameters
    ----------
    cards : Path or None
        The option's value.

    Returns
    -------
    ConcertoCards
    """
    from fairysim.errors import CardFileError
    from fairysim.sim.concerto import load_cards

    try:
        return load_cards(cards)
    except CardFileError as error:
        raise FairysimError("--cards", str(error)) from None


# --------------------------------------------------------------------------------------------
# fairysim simulate concerto


@handle_errors
def simulate_concerto(
    players: Annotated[
        int,
        typer.Option(
            "--players",
            help="1 = solo against Pahha, 2 = the two-player rules, 3 or 4 = the draft.",
        ),
    ] = 4,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help="One policy for every player, or a comma-separated policy per player. "
            "Built-ins (see `fairysim policies concerto`): random, greedy, chaser, maestro, "
            "denier, lookahead (solo); or module:function for your own.",
        ),
    ] = "greedy",
    games: Annotated[int, typer.Option("--games", help="Number of games to play.")] = 10_000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the run; game i depends only on (seed, i).")
    ] = 0,
    soloist: Annotated[
        str | None,
        typer.Option("--soloist", help="Fixed soloist card A, B, C or D (default: random)."),
    ] = None,
    pianist: Annotated[
        str | None,
        typer.Option("--pianist", help="Fixed pianist card id of the card file (default: random)."),
    ] = None,
    harpist: Annotated[
        str | None,
        typer.Option("--harpist", help="Fixed harpist card id of the card file (default: random)."),
    ] = None,
    cards: CardsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Parquet file for one row per (game, seat; Pahha has its own row in solo), "
            "written atomically with the run's configuration. Without it only the summary is "
            "printed.",
        ),
    ] = None,
    threads: ThreadsOption = None,
    chunk_games: Annotated[
        int | None,
        typer.Option(
            "--chunk-games",
            help="Games per chunk (memory and progress granularity; never changes results).",
        ),
    ] = None,
    weights: Annotated[
        str | None,
        typer.Option(
            "--weights",
            help="Policy weights as comma-separated \\[seat or policy:]name=value, e.g. "
            "'chaser:composer=3' or '0:rollouts=48'.",
        ),
    ] = None,
) -> None:
    """Simulate Fairy Concerto games and print win shares with 95% intervals and mean points."""
    # Engines load here, not at import: `fairysim --help` should not wait for numba.
    from fairysim.cli.simulate import policy_label
    from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, check_games, check_out_path
    from fairysim.sim.concerto import make_setup, simulate_summary

    # Every check runs before the first game, so a bad option costs no compile and no file.
    games = check_games(games, "--games")
    chunk_games = positive_int(chunk_games, "--chunk-games") or DEFAULT_CHUNK_GAMES
    positive_int(threads, "--threads")
    if out is not None:
        out = check_out_path(out, "--out")
    card_set = load_card_option(cards)
    setup = make_setup(players, policy, seed, soloist, pianist, harpist, card_set)
    setup = dataclasses.replace(setup, policies=apply_weights(setup.policies, weights))

    start = time.perf_counter()
    with ProgressBar("simulating", total=games) as progress:
        summary = simulate_summary(
            setup, games, out=out, chunk_games=chunk_games, threads=threads, progress=progress
        )
    elapsed = time.perf_counter() - start

    console = stdout_console()
    form = {1: "solo against Pahha", 2: "2 players"}.get(setup.players, f"{setup.players} players")
    fixed = [
        f"{name} {value}"
        for name, value in (
            ("soloist", setup.soloist),
            ("pianist", setup.pianist),
            ("harpist", setup.harpist),
        )
        if value is not None
    ]
    console.print(
        f"Fairy Concerto, {form}, {games:,} games, seed {setup.seed}"
        + (f", {', '.join(fixed)}" if fixed else "")
        + f" ({elapsed:.1f} s wall time)"
    )
    console.print(f"Cards: {card_set.label}", soft_wrap=True)
    labels = [policy_label(p) for p in setup.policies]
    if setup.players == 1:
        labels.append("Pahha")
    console.print(concerto_summary_table(summary, labels))
    if setup.players == 1:
        console.print(PAHHA_NOTE)
    if out is not None:
        console.print(f"Wrote {games * setup.seats:,} rows to {out}", soft_wrap=True)


def concerto_summary_table(summary: pd.DataFrame, labels: Sequence[str] | None = None) -> Table:
    """A rich table of a Fairy Concerto per-seat summary from ``simulate_summary``.

    Parameters
    ----------
    summary : pandas.DataFrame
        One row per seat (Pahha's included in solo) with ``games``, ``wins`` and
        ``<column>_mean`` for the score, its parts and the score cards held and completed.
    labels : sequence of str, optional
        What to show for each seat's policy (default: the summary's ``policy`` column).

    Returns
    -------
    rich.table.Table
        Win share with its 95% Wilson interval; mean score, popularity points, points on the
        four contest cards (conductor, soloist, pianist, harpist) and honors; mean score cards
        completed (5 points each) / held, per seat.
    """
    from fairysim.analysis.stats import wilson_interval

    labels = [str(p) for p in summary["policy"]] if labels is None else list(labels)
    lows, highs = wilson_interval(summary["wins"], summary["games"])
    table = Table(
        title="Per seat: win share (ties split), 95% Wilson CI, mean points",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("seat", justify="right")
    # Long policy names (with changed weights) fold onto a second line rather than push the
    # numbers off an 80-column terminal.
    table.add_column("policy", overflow="fold", min_width=min(max(map(len, labels)), 12))
    # Nine narrow columns fit an 80-column terminal: the four contest cards are summed into
    # one, and score-card points are 5 per card done (every part is in the --out rows).
    for name in (
        "win\nshare",
        "95% CI",
        "score",
        "popu-\nlarity",
        "con-\ntests",
        "hon-\nors",
        "score cards\ndone/held",
    ):
        table.add_column(name, justify="right", no_wrap=True)
    for row, label, low, high in zip(summary.to_dict("records"), labels, lows, highs, strict=True):
        contests = sum(row[f"{part}_mean"] for part in CONTEST_PARTS)
        table.add_row(
            str(row["seat"]),
            str(label),
            f"{row['wins'] / row['games']:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{row['score_mean']:.2f}",
            f"{row['popularity_mean']:.2f}",
            f"{contests:.2f}",
            f"{row['honors_mean']:.2f}",
            f"{row['cards_completed_mean']:.2f}/{row['cards_held_mean']:.2f}",
        )
    return table


# --------------------------------------------------------------------------------------------
# fairysim report concerto / concerto-solo


def _report_checks(
    games: int | None, seed: int | None, threads: int | None, out_dir: Path
) -> dict[str, int]:
    """The options every report shares, checked; only those the user gave are returned (the
    report owns its defaults, sized to its run time)."""
    from fairysim.cli.report import prepare_out_dir
    from fairysim.sim.batch import check_games
    from fairysim.sim.rng import check_seed

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
    return options


@handle_errors
def report_concerto(
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="Games per player count (default: the report's size, "
            "fairysim.analysis.concerto_report.BALANCE_DEFAULT_GAMES).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of every run of the report (default: the report's)."),
    ] = None,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help="The one policy every seat plays (a built-in or module:function).",
        ),
    ] = "greedy",
    cards: CardsOption = None,
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Folder for the report (created if missing).")
    ] = Path("results/concerto"),
    threads: ThreadsOption = None,
) -> None:
    """Write the Fairy Concerto card-balance report (2 to 4 players) and print where it is."""
    from fairysim.sim.concerto import make_setup

    options = _report_checks(games, seed, threads, out_dir)
    if "," in policy:
        raise FairysimError("--policy", "give one policy: every seat plays it")
    card_set = load_card_option(cards)
    # Resolves (and for module:function, imports and compiles) the policy before any game.
    make_setup(players=2, policies=policy, seed=0, cards=card_set)
    # Imported after the checks: the analysis stack (matplotlib) is slow to load.
    from fairysim.analysis.concerto_report import write_concerto_report

    with ProgressBar("report") as progress:
        html = write_concerto_report(
            out_dir, policy=policy, cards=card_set, threads=threads, progress=progress, **options
        )
    stdout_console().print(f"Report written to {html}", soft_wrap=True)


@handle_errors
def report_concerto_solo(
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="Games per fast policy (default: the report's size, "
            "fairysim.analysis.concerto_report.SOLO_DEFAULT_GAMES).",
        ),
    ] = None,
    lookahead_games: Annotated[
        int | None,
        typer.Option(
            "--lookahead-games",
            help="Games of the slow lookahead policy, paired with greedy on the first deals "
            "(default: SOLO_DEFAULT_LOOKAHEAD_GAMES).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of every run of the report (default: the report's)."),
    ] = None,
    cards: CardsOption = None,
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Folder for the report (created if missing).")
    ] = Path("results/concerto-solo"),
    threads: ThreadsOption = None,
) -> None:
    """Write the Fairy Concerto solo report (win rates against Pahha) and print where it is."""
    from fairysim.sim.batch import check_games

    options = _report_checks(games, seed, threads, out_dir)
    if lookahead_games is not None:
        options["lookahead_games"] = check_games(lookahead_games, "--lookahead-games")
    card_set = load_card_option(cards)
    from fairysim.analysis.concerto_report import write_concerto_solo_report

    with ProgressBar("report") as progress:
        html = write_concerto_solo_report(
            out_dir, cards=card_set, threads=threads, progress=progress, **options
        )
    stdout_console().print(f"Report written to {html}", soft_wrap=True)


# --------------------------------------------------------------------------------------------
# fairysim policies concerto


@handle_errors
def policies_concerto() -> None:
    """List Fairy Concerto's built-in policies (names for --policy, weights for --weights)."""
    from fairysim.cli.policies import policy_table
    from fairysim.sim.concerto import POLICIES

    console = stdout_console()
    console.print(policy_table("Fairy Concerto policies", POLICIES))
    console.print(
        "lookahead is for solo (--players 1); in the other forms it plays like greedy.",
        soft_wrap=True,
    )

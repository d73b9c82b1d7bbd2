"""``fairysim simulate GAME``: play a run, print a per-seat summary, optionally save every row.

One command per registered game, made from its spec (:mod:`fairysim.cli.by_game`): the options
every game shares are declared once here; the game adds its setup axes and flags.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from fairysim.cli.by_game import Param, game_group, game_names, make_command, option, spec_of
from fairysim.cli.common import (
    ProgressBar,
    apply_weights,
    check_threads,
    handle_errors,
    stdout_console,
    stop_message,
)
from fairysim.errors import CardFileError, FairysimError

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from fairysim.sim.game import GameSpec
    from fairysim.sim.policy import Policy


def load_card_option(spec: GameSpec, cards: Path | None, option_name: str = "--cards") -> Any:
    """Read a ``--cards`` file (the shipped set when None); a bad file is an error naming the
    option, the file and the problem."""
    try:
        return spec.load_cards(cards)
    except CardFileError as error:
        raise FairysimError(option_name, str(error)) from None


def simulate_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim simulate <game>``."""
    params = [
        option("players", int, spec.default_players, "--players", spec.players_help),
        option(
            "policy",
            str,
            "greedy",
            "--policy",
            "One policy for every seat, or a comma-separated policy per seat. Built-ins (see "
            f"`fairysim policies {spec.name}`) or module:function for your own.",
        ),
        option("games", int, 10_000, "--games", "Number of games to play."),
        option(
            "precision",
            float | None,
            None,
            "--precision",
            "Instead of --games: play until every seat's win share has a half-width at or "
            "below this (win-share units, 0.01 = 1 percentage point), looking after 1,000 "
            "games and each time the count doubles, the 5% error rate split over the looks.",
        ),
        option(
            "max_games",
            int,
            1_000_000,
            "--max-games",
            "Cap on the games --precision may play (default 1,000,000).",
        ),
        option("seed", int, 0, "--seed", "Seed of the run; game i depends only on (seed, i)."),
    ]
    params += [option(axis.name, str | None, None, axis.option, axis.help) for axis in spec.axes]
    params += [
        option("cards", Path | None, None, "--cards", spec.cards_help),
        option(
            "out",
            Path | None,
            None,
            "--out",
            "Parquet file for one row per (game, seat), written atomically with the run's "
            "configuration. Without it only the summary is printed.",
        ),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
        option(
            "chunk_games",
            int | None,
            None,
            "--chunk-games",
            "Games per chunk, 1 to 4,194,304 (memory and progress granularity; never changes "
            "results).",
        ),
        option(
            "weights",
            str | None,
            None,
            "--weights",
            "Policy weights as comma-separated \\[seat or policy:]name=value, e.g. 'w0=2' "
            "(every seat whose policy has it), 'greedy:w0=2', '1:w0=0.3'.",
        ),
    ]
    params += [option(flag.name, bool, False, flag.option, flag.help) for flag in spec.flags]
    return params


def run_simulate(spec: GameSpec, **options: Any) -> None:
    """Check every option, play the run and print its summary (and write ``--out``)."""
    from fairysim.files import check_out_file
    from fairysim.sim.batch import check_chunk_games, check_games
    from fairysim.sim.run import simulate_summary

    # Every check runs before the first game, so a bad option costs no compile and no file.
    games = check_games(options["games"], "--games")
    precision = options["precision"]
    if precision is not None and not 0 < precision <= 0.5:
        raise FairysimError("--precision", f"must be above 0 and at most 0.5, got {precision}")
    max_games = check_games(options["max_games"], "--max-games")
    chunk_games = check_chunk_games(options["chunk_games"], "--chunk-games")
    threads = check_threads(options["threads"])
    out = options["out"]
    if out is not None:
        out = check_out_file(out, "--out")
    card_set = load_card_option(spec, options["cards"])
    axes = {
        axis.name: axis.parse(options[axis.name], card_set)
        for axis in spec.axes
        if options[axis.name] is not None
    }
    setup = spec.make_setup(
        players=options["players"],
        policies=options["policy"],
        seed=options["seed"],
        cards=card_set,
        **axes,
    )
    setup = dataclasses.replace(setup, policies=apply_weights(setup.policies, options["weights"]))
    flags = {flag.name: options[flag.name] for flag in spec.flags}

    start = time.perf_counter()
    reached = None
    if precision is not None:
        summary, reached = play_to_precision(
            spec, setup, precision, max_games, chunk_games, threads, flags, out
        )
        games = int(summary["games"].iloc[0])
    else:
        with ProgressBar("simulating", total=games) as progress:
            kept = "nothing written" if out is None else f"nothing written, {out} untouched"
            stop_message(lambda: f"stopped after {progress.done:,} games; {kept}")
            summary = simulate_summary(
                setup,
                games,
                out=out,
                chunk_games=chunk_games,
                threads=threads,
                progress=progress,
                **flags,
            )
    elapsed = time.perf_counter() - start

    console = stdout_console()
    console.print(f"{setup.headline(games)} ({elapsed:.1f} s wall time)")
    for line in setup.preamble():
        console.print(line, soft_wrap=True)
    labels = setup.row_labels([policy_label(p) for p in setup.policies])
    console.print(summary_table(spec, summary, labels))
    for line in setup.footnotes():
        console.print(line, soft_wrap=True)
    if reached is not None:
        console.print(reached.message(), soft_wrap=True)
    if out is not None:
        console.print(f"Wrote {games * setup.seats:,} rows to {out}", soft_wrap=True)


def play_to_precision(
    spec: GameSpec,
    setup: Any,
    precision: float,
    max_games: int,
    chunk_games: int,
    threads: int | None,
    flags: dict[str, Any],
    out: Path | None,
) -> tuple[pd.DataFrame, Any]:
    """Play ``setup`` until :func:`fairysim.analysis.precision.run_to_precision` stops; with
    ``--out``, the games played are replayed into the file (game ``i`` depends only on the seed
    and ``i``, so the rows are the same games)."""
    from fairysim.analysis.precision import run_to_precision
    from fairysim.sim.batch import SeatAggregate
    from fairysim.sim.run import simulate_summary

    aggregate = SeatAggregate(spec.seat_columns, setup.seats)

    def play(first: int, n: int) -> Any:
        chunks = spec.play_chunks(
            setup, n, first_game=first, chunk_games=chunk_games, threads=threads, **flags
        )
        for _, arrays in chunks:
            yield arrays

    kept = "nothing written" if out is None else f"nothing written, {out} untouched"
    with ProgressBar("simulating to precision", total=max_games) as progress:
        stop_message(lambda: f"stopped after {progress.done:,} games; {kept}")

        def fold(first: int, arrays: Any) -> None:
            aggregate.add(arrays)
            progress(aggregate.games, max_games)

        reached = run_to_precision(play, precision, max_games, on_chunk=fold)
    summary = aggregate.frame(setup.policy_names)
    if out is not None:
        summary = simulate_summary(
            setup, reached.games, out=out, chunk_games=chunk_games, threads=threads, **flags
        )
    return summary, reached


def summary_table(
    spec: GameSpec, summary: pd.DataFrame, labels: Sequence[str] | None = None
) -> Table:
    """A rich table of a per-seat summary from ``simulate_summary``.

    Parameters
    ----------
    spec : GameSpec
        The game; its :attr:`~fairysim.sim.game.GameSpec.summary` names the columns after the
        win share.
    summary : pandas.DataFrame
        One row per seat with ``games``, ``wins`` and ``<column>_mean`` per seat column.
    labels : sequence of str, optional
        What to show for each seat's policy (default: the summary's ``policy`` column).

    Returns
    -------
    rich.table.Table
        Win share with its 95% Wilson interval, then the game's mean points, per seat.
    """
    from fairysim.analysis.stats import wilson_interval

    labels = [str(p) for p in summary["policy"]] if labels is None else list(labels)
    lows, highs = wilson_interval(summary["wins"], summary["games"])
    # No vertical rules and collapsed padding, so that the columns fit an 80-column terminal.
    table = Table(
        title="Per seat: win share (ties split), 95% Wilson CI, mean points",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    table.add_column("seat", justify="right")
    # Long policy names (with changed weights) fold rather than push the numbers off the screen.
    table.add_column("policy", overflow="fold", min_width=min(max(map(len, labels)), 20))
    for name in ("win\nshare", "95% CI", *(column.header for column in spec.summary)):
        table.add_column(name, justify="right", no_wrap=True)
    for row, label, low, high in zip(summary.to_dict("records"), labels, lows, highs, strict=True):
        table.add_row(
            str(row["seat"]),
            str(label),
            f"{row['wins'] / row['games']:.3f}",
            f"{low:.3f}-{high:.3f}",
            *(column.cell(row) for column in spec.summary),
        )
    return table


def policy_label(policy: Policy) -> str:
    """A policy's name, followed by the weights that differ from its defaults.

    Examples
    --------
    >>> from fairysim.sim.policy import builtin, weight
    >>> hoarder = builtin("hoarder", print, "keeps cards", 0, finale=weight(1.0, 0.0, 5.0))
    >>> policy_label(hoarder.with_weights(finale=2))
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


def simulate_command(name: str) -> Any:
    """The ``simulate`` command of game ``name``."""
    spec = spec_of(name)

    def body(**options: Any) -> None:
        run_simulate(spec, **options)

    return make_command(
        handle_errors(body),
        simulate_params(spec),
        f"Simulate {spec.title} games and print win shares with 95% intervals and mean points.",
    )


app = game_group(
    "Play many games and summarise who wins; optionally save one row per game and seat.",
    simulate_command,
    game_names,
)

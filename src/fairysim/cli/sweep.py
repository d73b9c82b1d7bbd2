"""``fairysim sweep GAME``: a grid of setups x lineups on Dask, resumable, one file a cell.

One command per registered game, made from its spec (:mod:`fairysim.cli.by_game`): the options
every sweep has are declared once here; the game adds ``--players`` and one option per setup
axis (named after the axis, as in ``simulate``), each taking a list.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from fairysim.cli.by_game import (
    Param,
    axis_flag,
    axis_flags,
    cards_option,
    deprecated,
    game_group,
    game_names,
    make_command,
    option,
    players_help,
    spec_of,
    wording,
)
from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    handle_errors,
    stdout_console,
    stop_message,
    take_deprecated,
)
from fairysim.cli.simulate import (
    entry_note,
    percent,
    percent_interval,
    row_name,
    same_policy_note,
    seat_note,
    turn_words,
    verdict,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from fairysim.analysis.wording import SummaryColumn
    from fairysim.sim.game import GameSpec, SetupAxis

DEFAULT_TASK_GAMES = 262_144
"""Shown in --help without importing the engines; equal to fairysim.sweep.DEFAULT_TASK_GAMES."""

RANDOM = "random"
"""The default of an axis drawn per game; equal to fairysim.sweep.RANDOM (same reason)."""

GAMES = 10_000
"""Equal to fairysim.sweep.run.GAMES, the games per cell without ``--games`` or
``--precision`` (shown in --help without the engines)."""

PRECISION_MAX_GAMES = 1_000_000
"""Equal to fairysim.sweep.run.PRECISION_MAX_GAMES (shown in --help without the engines)."""


POLICY_WIDTH = 16
"""Characters a line of a sweep table's policy column has at least (longer names fold)."""


UNBOUNDED = 10_000
"""A width no table reaches: what a table is measured in to learn its natural width."""


OLD_AXIS = "deprecated_"
"""Prefix of the parameter of an axis's deprecated sweep option (the axis's sweep keyword as
a flag, where it differs from the axis's name)."""


def sweep_default(axis: SetupAxis) -> str:
    """The sweep option's default: the axis's, or ``random`` where it is drawn per game."""
    return RANDOM if axis.default is None else axis.default


def sweep_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim sweep <game>``."""
    params = [
        option(
            "out_dir",
            str,
            ...,
            "--out-dir",
            "Folder of the sweep: sweep.json (its configuration), cells/ (one file per "
            "finished cell) and summary.parquet, created if missing. Run the same command again "
            "to resume.",
        ),
        option(
            "players",
            str,
            str(spec.default_players),
            "--players",
            f"Comma-separated player counts, or 'all'. {players_help(spec)}",
        ),
    ]
    words = wording(spec)
    for axis in spec.axes:
        # An axis that takes any text (a file path) has no 'all'.
        every = " or 'all'" if axis.values or axis.values_from else ""
        drawn = f", or '{RANDOM}' (drawn per game)" if axis.default is None else ""
        params.append(
            option(
                axis.name,
                str,
                sweep_default(axis),
                axis_flag(axis),
                f"{words.axes.get(axis.name, axis.name)} Here a comma-separated list{every}"
                f"{drawn}.",
            )
        )
        if axis.sweep_keyword_name != axis.name:
            old = "--" + axis.sweep_keyword_name.replace("_", "-")
            params.append(deprecated(OLD_AXIS + axis.name, str | None, old, axis_flag(axis)))
    params += [
        option(
            "policy",
            list[str] | None,
            None,
            "--policy",
            f"A lineup, as --policy of `fairysim simulate {spec.name}` takes it: one policy for "
            "every seat, or one per seat (then for every player count of the sweep). Repeat for "
            "more lineups. Default: greedy. A lineup of different policies is played on every "
            "rotation of its seats on the same deals, its rows the lineup's entries.",
        ),
        deprecated("lineup", list[str] | None, "--lineup", "--policy"),
        cards_option(spec),
        option(
            "games",
            int | None,
            None,
            "--games",
            f"Games per cell (default {GAMES:,}). For a mixed lineup, deals: each is played "
            "once per rotation of the seats.",
        ),
        option(
            "precision",
            float | None,
            None,
            "--precision",
            "Instead of --games: play each cell in doubling looks (1,000 games, 2,000, ...; "
            "deals for a mixed lineup) until every win share it reports (by turn position "
            "where one policy plays every seat, by lineup entry where the lineup mixes "
            "policies) has a half-width at or below this (win-share units, 0.01 = 1 "
            "percentage point), Holm-corrected over the cell's rows, the 5% error rate split "
            "over the looks. Default: none, a fixed --games.",
        ),
        option(
            "max_games",
            int | None,
            None,
            "--max-games",
            f"Cap on the games of a cell --precision may play (default {PRECISION_MAX_GAMES:,}).",
        ),
        option(
            "seed",
            int,
            0,
            "--seed",
            "Seed of every cell; game i depends only on (seed, i): common deals.",
        ),
        *cluster_params("Default: a local cluster.", "1"),
    ]
    return params


def cluster_params(default: str, workers_default: str) -> list[Param]:
    """``--scheduler``, ``--workers`` and ``--task-games``: where a command's games run on Dask
    (:mod:`fairysim.sweep.cluster`); ``default`` says what runs without them."""
    return [
        option(
            "scheduler",
            str | None,
            None,
            "--scheduler",
            "Address of a running Dask scheduler (tcp://host:8786) whose workers have "
            f"fairysim installed. {default}",
        ),
        option(
            "workers",
            int | None,
            None,
            "--workers",
            "Worker processes of a local Dask cluster, each with all cores' numba threads (N "
            f"workers share the cores). Default: {workers_default}.",
        ),
        option(
            "task_games",
            int | None,
            None,
            "--task-games",
            f"Games per Dask task (default {DEFAULT_TASK_GAMES:,}); never changes results.",
        ),
    ]


def sweep_and_print(spec: GameSpec, **options: Any) -> pd.DataFrame:
    """Run :func:`fairysim.sweep.run_sweep` with a progress bar and print what it found.

    Parameters
    ----------
    spec : GameSpec
        The game.
    **options
        The command's options (:func:`sweep_params`), by keyword.

    Returns
    -------
    pandas.DataFrame
        The sweep's summary.
    """
    # Engines and Dask load here, not at import: `fairysim --help` should not wait for them.
    from fairysim.sweep import run_sweep

    take_deprecated(options, "lineup", "policy", "--lineup", "--policy")
    for axis in spec.axes:
        if OLD_AXIS + axis.name in options:
            old = "--" + axis.sweep_keyword_name.replace("_", "-")
            take_deprecated(options, OLD_AXIS + axis.name, axis.name, old, axis_flag(axis))
    games, precision, max_games = options["games"], options["precision"], options["max_games"]
    out_dir = Path(options["out_dir"])
    start = time.perf_counter()
    console = stdout_console()
    stop_message(lambda: finished_cells(out_dir))
    with ProgressBar("sweeping") as progress:
        summary = run_sweep(
            spec,
            players=options["players"],
            lineups=options["policy"] or ["greedy"],
            games=games,
            precision=precision,
            max_games=max_games,
            seed=options["seed"],
            out_dir=options["out_dir"],
            cards=options["cards"],
            scheduler=options["scheduler"],
            workers=options["workers"],
            task_games=options["task_games"],
            progress=progress,
            log=lambda line: console.print(line, soft_wrap=True),
            **{axis.sweep_keyword_name: options[axis.name] for axis in spec.axes},
        )
    elapsed = time.perf_counter() - start
    meta = summary.attrs["fairysim"]
    config = meta["config"]
    cells = len(meta["cells"])
    # Each axis's values rather than their count: a grid is mostly single values.
    columns = {"players": "players"} | {axis.name: axis.result_column for axis in spec.axes}
    grid = " x ".join(
        f"{label} {','.join(map(str, config[column]))}" for label, column in columns.items()
    )
    watched = meta["precision"]
    if watched is None:
        played = f"{config['games']:,} games each"
        if "entry" in set(meta["shares"]["row"]):
            played += " (deals, each played once per seat rotation, for a mixed lineup)"
    else:
        played = (
            f"each played to --precision {config['precision']:g} (at most "
            f"{config['max_games']:,} games)"
        )
    console.print(
        f"{spec.title} sweep: {grid} x {len(config['lineups'])} lineups = {cells} cells, "
        f"{played}, seed {config['seed']}; {len(meta['computed'])} played, "
        f"{len(meta['skipped'])} resumed ({elapsed:.1f} s wall time)",
        soft_wrap=True,
    )
    for line in meta["preamble"]:
        console.print(line, soft_wrap=True)
    # An axis with one value is said once in the line above, not on every row: axis columns
    # would push the numbers off an 80-column terminal.
    shown = [
        column for column in columns.values() if len(config[column]) > 1 or column == "players"
    ]
    shares = meta["shares"]
    console.print(shares_title(shares), soft_wrap=True)
    table, left_out = fitting_table(console, spec, shares, shown)
    console.print(table)
    if left_out:
        names = ", ".join(" ".join(header.replace("-\n", "").split()) for header in left_out)
        console.print(
            f"Too wide for this terminal: {names}; shares.parquet has every mean.",
            soft_wrap=True,
        )
    for line in [*shares_notes(spec, shares), *meta["footnotes"]]:
        console.print(line, soft_wrap=True)
    if watched is not None:
        console.print(precision_message(watched), soft_wrap=True)
    files = f"{out_dir / 'summary.parquet'}, {out_dir / 'shares.parquet'}"
    console.print(f"Wrote {files} and {cells} cell files in {out_dir / 'cells'}", soft_wrap=True)
    return summary


def finished_cells(out_dir: Path) -> str:
    """What a stopped sweep kept: its finished cells, which the same command resumes from."""
    finished = len(list((out_dir / "cells").glob("*.json")))
    if not finished:
        return "no cell finished"
    return f"{finished} finished cells kept in {out_dir}; run the same command to resume"


def fitting_table(
    console: Console, spec: GameSpec, summary: pd.DataFrame, axes: Sequence[str]
) -> tuple[Table, list[str]]:
    """:func:`sweep_table` with as many of the game's mean points as fit ``console``'s width
    (the first ones, the most telling), and the headers of those left out.

    Axis columns come on top of what ``simulate`` prints, so a wide grid may not fit 80
    columns; a table wider than the terminal would be cut at its edge, numbers included.
    """
    columns = wording(spec).summary
    points = list(columns)
    # Long policy names may fold to POLICY_WIDTH characters; every other column keeps its width.
    folded = max(0, int(labels_of(summary).str.len().max()) - POLICY_WIDTH)
    while True:
        table = sweep_table(summary, axes, points)
        unbounded = console.options.update_width(UNBOUNDED)
        width = Measurement.get(console, unbounded, table).maximum - folded
        if len(points) <= 1 or width <= console.width:
            return table, [column.header for column in columns[len(points) :]]
        points.pop()


def labels_of(rows: pd.DataFrame) -> pd.Series:
    """The policy each row shows: a lineup entry's label (``greedy#2`` where a policy
    repeats), else the policy."""
    return rows["label" if "label" in rows.columns else "policy"].astype(str)


def shares_title(shares: pd.DataFrame) -> str:
    """The line above a sweep's table: what a row is and how its intervals are corrected (at
    95% family-wise, or for a sweep played to a precision at a look's share of the 5%)."""
    from fairysim.stats.precision import ALPHA

    names = {"turn": "turn position", "seat": "seat", "entry": "lineup entry"}
    kinds = [kind for kind in names if kind in set(shares["row"])]
    unit = names[kinds[0]]
    if len(kinds) > 1:
        others = " or ".join(names[kind] for kind in kinds[1:])
        unit += f" ({others} where the lineup mixes policies)"
    over = f"{1 - ALPHA:.0%} family-wise"
    if "look_level" in shares.columns:
        level = float(shares["look_level"].iloc[0])
        over = f"{level:.2%} family-wise, the 5% error rate split over the looks planned"
    return (
        f"Per cell and {unit}: win share (ties split), interval Holm-corrected over the cell's "
        f"rows ({over}) against the fair share, mean points"
    )


def shares_notes(spec: GameSpec, shares: pd.DataFrame) -> list[str]:
    """The lines under a sweep's table: what its rows are (as ``simulate`` says it), the
    verdict column, and for a sweep played to a precision the games column."""
    order = turn_words(spec)
    kinds = set(shares["row"])
    notes = []
    if "turn" in kinds:
        notes.append(f"turn: {order.note}, in a cell whose every seat plays one policy")
    if "seat" in kinds:
        notes.append(seat_note(order))
    if "entry" in kinds:
        notes.append(entry_note(order, "the rotations", "the same deals of the cell's seed"))
        entries = shares[shares["row"] == "entry"].sort_values(["cell", "index"])
        lineups = entries.groupby("cell", sort=False)["policy"].agg(tuple).unique()
        notes += dict.fromkeys(filter(None, map(same_policy_note, lineups)))
    notes.append(
        "vs fair: above or below where the corrected interval excludes the fair share "
        "(1/rows of the cell, significant after correcting for the rows compared); - where it "
        "does not"
    )
    if "widest" in shares.columns:
        notes.append(
            "games: the games the cell's every figure rests on (its last look); +/-: its "
            "widest corrected half-width"
        )
    return notes


def precision_message(watched: pd.DataFrame) -> str:
    """One line: the precision every cell reached, or the cells the cap stopped first."""
    cells = watched.drop_duplicates("cell")
    asked = float(cells["precision"].iloc[0])
    fewest, most = int(cells["games"].min()), int(cells["games"].max())
    games = f"{fewest:,} games a cell" if fewest == most else f"{fewest:,} to {most:,} games a cell"
    missed = cells[~cells["reached"].astype(bool)]
    if missed.empty:
        return (
            f"precision reached in every cell: widest half-width "
            f"{cells['widest'].max():.4f} (asked {asked:.4f}) with {games}"
        )
    return (
        f"--max-games {int(missed['games'].max()):,} reached before --precision {asked:g} in "
        f"{len(missed)} of {len(cells)} cells: widest half-width {missed['widest'].max():.4f}"
    )


def sweep_table(
    summary: pd.DataFrame, axes: Sequence[str], points: Sequence[SummaryColumn]
) -> Table:
    """A rich table of a sweep's summary: one row per cell and seat.

    Parameters
    ----------
    summary : pandas.DataFrame
        The rows the cells report (:func:`fairysim.sweep.run_sweep`'s
        ``attrs["fairysim"]["shares"]``: one per turn position or seat of a cell, with its
        interval Holm-corrected over the cell's rows).
    axes : sequence of str
        The result columns of the axes to show, leading each cell's first row.
    points : sequence of SummaryColumn
        The mean points to show after the win share (a game's
        :attr:`~fairysim.analysis.wording.GameWording.summary`).

    Returns
    -------
    rich.table.Table
        Axis values, turn (or seat), policy, win share with its corrected interval and its
        verdict against the fair share (for a precision sweep also the cell's games and widest
        half-width) and the game's mean points, with a rule between cells.
    """
    precise = "widest" in summary.columns
    table = Table(
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    for name in axes:
        # "x_card" -> two short header lines: the columns' values are short.
        table.add_column(name.replace("_", "\n"), justify="right")
    if precise:
        table.add_column("games", justify="right", no_wrap=True)
        table.add_column("+/-", justify="right", no_wrap=True)
    table.add_column("/".join(sorted(set(summary["row"]), reverse=True)), justify="right")
    # Each seat's policy says what the lineup is, so the lineup needs no column of its own and
    # the table fits 80 columns. Policy names are what a reader looks for: 16 characters a line
    # at least.
    widest = int(labels_of(summary).str.len().max())
    table.add_column("policy", overflow="fold", min_width=min(widest, POLICY_WIDTH))
    for header in ("win\nshare", "corrected\nCI", "vs\nfair", *(c.header for c in points)):
        table.add_column(header, justify="right", no_wrap=True)
    for index, (_, cell) in enumerate(summary.groupby("cell", sort=False)):
        if index:
            table.add_section()
        for row_index, row in enumerate(cell.to_dict("records")):
            # Cell columns only on a cell's first row: the eye finds where a cell starts.
            lead = [str(row[name]) if row_index == 0 else "" for name in axes]
            if precise:
                games = f"{int(row['games']):,}" if row_index == 0 else ""
                lead += [games, f"{row['widest']:.4f}" if row_index == 0 else ""]
            table.add_row(
                *lead,
                row_name(row["row"], row["index"]),
                str(row.get("label", row["policy"])),
                percent(row["win_share"]),
                percent_interval(row["low"], row["high"]),
                verdict(row),
                *(column.cell(row) for column in points),
            )
    return table


def sweep_command(name: str) -> Any:
    """The ``sweep`` command of game ``name``."""
    spec = spec_of(name)
    grid = " x ".join(["player counts", *(axis.name for axis in spec.axes), "lineups"])
    return make_command(
        handle_errors(
            functools.partial(sweep_and_print, spec), flags=POLICY_FLAG | axis_flags(spec)
        ),
        sweep_params(spec),
        f"Sweep {spec.title} over {grid}; print win shares per cell by turn order, corrected.",
    )


app = game_group(
    "Play a grid of setups x lineups on Dask distributed; resumes where a stopped run ended.",
    sweep_command,
    game_names,
)

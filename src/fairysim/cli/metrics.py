"""``fairysim metrics GAME``: the balance card of one run, in the terminal.

The same card every report opens with (:mod:`fairysim.analysis.studies.balance`): win share by turn
position against the fair share (clustered by game, Holm over the table), the winning margin,
how often the top score is tied, and, where the game records per-round totals, the comeback rate
and lead changes; the game length where it varies. The run takes ``simulate``'s options and is
played chunk by chunk, so memory stays bounded whatever ``--games``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from fairysim.cli.by_game import (
    Param,
    axis_flags,
    game_group,
    game_names,
    make_command,
    option,
    spec_of,
)
from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    handle_errors,
    stdout_console,
    stop_message,
)
from fairysim.cli.simulate import (
    GAMES,
    lineup_option,
    setup_from_options,
    simulate_params,
    turn_words,
)

if TYPE_CHECKING:
    from fairysim.sim.game import GameSpec

TRACE_FLAG = "trace"
"""Mirrors :data:`fairysim.analysis.studies.simulation.TRACE_FLAG` (the options are made
without importing it)."""

LEFT_OUT = ("precision", "max_games", "out")
"""``simulate`` options ``metrics`` does not take (it plays a fixed count and keeps no rows)."""


def metrics_params(spec: GameSpec) -> list[Param]:
    """``simulate``'s options, without those that keep rows or stop at a precision."""
    own = {
        "policy": lineup_option(
            spec, "The card reads turn positions, whichever seat plays which policy."
        ),
        "games": option(
            "games", int | None, None, "--games", f"Number of games to play (default {GAMES:,})."
        ),
    }
    params = [own.get(p.name, p) for p in simulate_params(spec) if p.name not in LEFT_OUT]
    return [p for p in params if p.name != TRACE_FLAG]


def run_metrics(spec: GameSpec, **options: Any) -> None:
    """Check every option, play the run (:func:`fairysim.analysis.studies.simulation.
    simulate_balance`) and print its balance card."""
    from fairysim.analysis.studies.simulation import check_balance_run, simulate_balance

    games, chunk_games = check_balance_run(
        options["games"], options["chunk_games"], options["threads"]
    )
    setup = setup_from_options(spec, options)
    start = time.perf_counter()
    with ProgressBar("simulating", total=games) as progress:
        stop_message(lambda: f"stopped after {progress.done:,} games; nothing written")
        card = simulate_balance(
            setup,
            games=games,
            chunk_games=chunk_games,
            threads=options["threads"],
            progress=progress,
        )
    elapsed = time.perf_counter() - start
    console = stdout_console()
    console.print(f"{setup.headline(games)} ({elapsed:.1f} s wall time)")
    for line in setup.preamble():
        console.print(line, soft_wrap=True)
    from fairysim.analysis.report.formats import fmt_percent

    fair = ", ".join(fmt_percent(f) for f in card.turn_order["fair"].unique())
    console.print(
        f"Win share by turn position ({turn_words(spec).note}) against the fair share {fair}, "
        f"clustered by game; intervals corrected over the {card.comparisons} comparisons "
        "(Holm):",
        soft_wrap=True,
    )
    console.print(turn_table(card))
    console.print("Balance:", soft_wrap=True)
    console.print(card_table(card))
    if TRACE_FLAG not in {flag.name for flag in spec.flags}:
        console.print(
            f"No comebacks or lead changes: {spec.title}'s engine records no per-round totals.",
            soft_wrap=True,
        )
    for line in setup.footnotes():
        console.print(line, soft_wrap=True)


def turn_table(card: Any) -> Table:
    """The card's turn-order rows as a rich table; the player count and the fair share only
    where the card has several player counts (the line above the table states one), so that a
    row fits 80 columns on one line."""
    from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points
    from fairysim.stats.turn_order import ordinal

    rows = card.turn_order
    several = rows["players"].nunique() > 1
    names = ["turn", "games", "win share", "corrected CI", "advantage"]
    if several:
        names = ["players", *names[:4], "fair", names[4]]
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("verdict")
    for r in rows.itertuples(index=False):
        cells = [
            ordinal(int(r.position)),
            f"{int(r.games):,}",
            fmt_percent(r.win_share),
            fmt_interval(max(r.low, 0.0), min(r.high, 1.0)),  # a share's range (few games)
            fmt_points(r.advantage),
        ]
        if several:
            cells = [str(int(r.players)), *cells[:4], fmt_percent(r.fair), cells[4]]
        table.add_row(*cells, "differs from fair" if r.significant else "not significant")
    return table


def card_table(card: Any) -> Table:
    """The card's per-player-count summary as a rich table (95% intervals), a row per measure
    and a column per player count, so that each number and its interval sit on one line at 80
    columns."""
    from fairysim.analysis.report.formats import fmt_interval, fmt_percent

    s = card.summary
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("")
    for players in s["players"]:
        table.add_column(f"{int(players)} players", justify="right")
    records = s.to_dict("records")

    def row(name: str, cell: Any) -> None:
        table.add_row(name, *(cell(r) for r in records))

    def mean(column: str, digits: int) -> Any:
        return lambda r: (
            f"{r[column]:.{digits}f} [{r[column + '_low']:.{digits}f}, "
            f"{r[column + '_high']:.{digits}f}]"
        )

    def share(column: str) -> Any:
        return lambda r: (
            f"{fmt_percent(r[column])} {fmt_interval(r[column + '_low'], r[column + '_high'])}"
        )

    row("games", lambda r: f"{int(r['games']):,}")
    row("winning margin (points)", mean("margin", 2))
    row("top score tied", share("tied"))
    if "comeback" in s.columns:
        row("comeback", share("comeback"))
        row("lead changes", mean("lead_changes", 2))
    if "length" in s.columns and (s["length_min"] != s["length_max"]).any():
        row("length", mean("length", 1))
    return table


def metrics_command(name: str) -> Any:
    """The ``metrics`` command of game ``name``."""
    spec = spec_of(name)

    def body(**options: Any) -> None:
        run_metrics(spec, **options)

    return make_command(
        handle_errors(body, flags=POLICY_FLAG | axis_flags(spec)),
        metrics_params(spec),
        f"Play {spec.title} games and print the balance card: turn order, margins, comebacks.",
    )


app = game_group(
    "Play a run and print its balance card: seat advantage by turn order, winning margins, "
    "comebacks and lead changes, game length.",
    metrics_command,
    game_names,
)

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
    console.print(
        f"Win share by turn position ({turn_words(spec).note}), clustered by game; intervals "
        f"corrected over the {card.comparisons} comparisons (Holm):",
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
    """The card's turn-order rows as a rich table."""
    from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points
    from fairysim.stats.turn_order import ordinal

    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    for name in ("players", "turn", "games", "win share", "corrected CI", "fair", "advantage"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    for r in card.turn_order.itertuples(index=False):
        table.add_row(
            str(int(r.players)),
            ordinal(int(r.position)),
            f"{int(r.games):,}",
            fmt_percent(r.win_share),
            fmt_interval(r.low, r.high),
            fmt_percent(r.fair),
            fmt_points(r.advantage),
            "differs from fair" if r.significant else "not significant",
        )
    return table


def card_table(card: Any) -> Table:
    """The card's per-player-count summary as a rich table (95 % intervals)."""
    from fairysim.analysis.report.formats import fmt_interval, fmt_percent

    s = card.summary
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    columns = ["players", "games", "winning margin (points)", "top score tied"]
    if "comeback" in s.columns:
        columns += ["comeback", "lead changes"]
    varies = "length" in s.columns and (s["length_min"] != s["length_max"]).any()
    if varies:
        columns.append("length")
    for name in columns:
        table.add_column(name, justify="right", no_wrap=True)
    for r in s.to_dict("records"):
        cells = [
            str(int(r["players"])),
            f"{int(r['games']):,}",
            f"{r['margin']:.2f} [{r['margin_low']:.2f}, {r['margin_high']:.2f}]",
            f"{fmt_percent(r['tied'])} {fmt_interval(r['tied_low'], r['tied_high'])}",
        ]
        if "comeback" in s.columns:
            interval = fmt_interval(r["comeback_low"], r["comeback_high"])
            cells.append(f"{fmt_percent(r['comeback'])} {interval}")
            cells.append(
                f"{r['lead_changes']:.2f} [{r['lead_changes_low']:.2f}, "
                f"{r['lead_changes_high']:.2f}]"
            )
        if varies:
            cells.append(f"{r['length']:.1f} [{r['length_low']:.1f}, {r['length_high']:.1f}]")
        table.add_row(*cells)
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

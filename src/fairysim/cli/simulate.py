"""``fairysim simulate GAME``: play a run, print a per-seat summary, optionally save every row.

The run itself (fixed, to a precision, or rotated for a mixed lineup) is
:func:`fairysim.analysis.studies.simulation.simulate_setup`, which Python users call alike; this
module parses the options, calls it and prints the table (rows, corrected intervals, the notes
under it), and ``sweep`` imports the table and its notes from here.

One command per registered game, made from its spec (:mod:`fairysim.cli.by_game`): the options
every game shares are declared once here; the game adds its setup axes and flags.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from fairysim.cli.by_game import (
    Param,
    axis_flags,
    axis_options,
    cards_option,
    flag_options,
    game_group,
    game_names,
    make_command,
    option,
    players_option,
    spec_of,
    wording,
)
from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    handle_errors,
    stdout_console,
    stop_message,
)
from fairysim.runtime.errors import CardFileError, ParameterError
from fairysim.sim.weights import apply_weights, apply_weights_file

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from fairysim.sim.game import GameSpec
    from fairysim.sim.policy import Policy


def load_card_option(spec: GameSpec, cards: Path | None, option_name: str = "cards") -> Any:
    """Read a ``--cards`` file (the shipped set when None); a bad file is an error naming the
    parameter (worded as its option), the file and the problem."""
    try:
        return spec.load_cards(cards)
    except CardFileError as error:
        raise ParameterError(option_name, str(error)) from None


GAMES = 10_000
"""Mirrors :data:`fairysim.analysis.studies.simulation.GAMES` (help text without importing it;
a test checks that they agree)."""
MAX_GAMES = 1_000_000
"""Mirrors :data:`fairysim.analysis.studies.simulation.MAX_GAMES` (help text)."""
CHUNK_GAMES = 65_536
"""Mirrors :data:`fairysim.sim.batch.DEFAULT_CHUNK_GAMES` (help text)."""


def lineup_option(spec: GameSpec, more: str = "") -> Param:
    """``--policy``: one policy for every seat or one per seat, as every command takes it;
    ``more`` says what the command does with a lineup of different policies."""
    return option(
        "policy",
        str,
        "greedy",
        "--policy",
        "One policy for every seat, or a comma-separated policy per seat (seat 0 first). "
        f"Built-ins (see `fairysim policies {spec.name}`) or module:function for your own."
        + (f" {more}" if more else ""),
    )


def simulate_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim simulate <game>``."""
    params = [
        players_option(spec),
        lineup_option(
            spec,
            "A lineup of different policies is played on every rotation of its seats on the "
            "same deals, its rows the lineup's entries.",
        ),
        option(
            "games",
            int | None,
            None,
            "--games",
            f"Number of games to play (default {GAMES:,}). With a mixed lineup, the number of "
            "deals: each is played once per rotation of the seats, so --players times as many "
            "games.",
        ),
        option(
            "precision",
            float | None,
            None,
            "--precision",
            "Instead of --games: play until every win share the table shows (by turn position, "
            "or a mixed lineup's entries) has a Holm-corrected half-width at or below this "
            "(win-share units, 0.01 = 1 percentage point), looking after 1,000 games and each "
            "time the count doubles, the 5% error rate split over the looks.",
            shown="none, a fixed --games",
        ),
        option(
            "max_games",
            int | None,
            None,
            "--max-games",
            f"Cap on the games --precision may play (default {MAX_GAMES:,}; deals for a mixed "
            "lineup).",
        ),
        option("seed", int, 0, "--seed", "Seed of the run; game i depends only on (seed, i)."),
    ]
    params += axis_options(spec)
    params += [
        cards_option(spec),
        option(
            "out",
            Path | None,
            None,
            "--out",
            "Parquet file for one row per (game, seat), written atomically with the run's "
            "configuration (a mixed lineup adds the columns rotation and entry).",
            shown="none, only the summary is printed",
        ),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
        option(
            "chunk_games",
            int | None,
            None,
            "--chunk-games",
            f"Games per chunk, 1 to 4,194,304 (default {CHUNK_GAMES:,}; memory and progress "
            "granularity; never changes results).",
        ),
        option(
            "weights",
            str | None,
            None,
            "--weights",
            "Policy weights as comma-separated \\[seat or policy:]name=value, e.g. 'w0=2' "
            "(every seat whose policy has it), 'greedy:w0=2', '1:w0=0.3' (seats from 0). "
            f"Default: none, each policy's own (`fairysim policies {spec.name}`).",
        ),
        option(
            "weights_file",
            Path | None,
            None,
            "--weights-file",
            "A weights file (\\[policy] tables, as best-response writes weights.toml), set on "
            "the seats playing each policy it names, before --weights. Default: none.",
        ),
    ]
    params += flag_options(spec)
    return params


def run_simulate(spec: GameSpec, **options: Any) -> None:
    """Check every option, play the run (:func:`fairysim.analysis.studies.simulation.
    simulate_setup`) and print its summary (and write ``--out``)."""
    from fairysim.analysis.studies.simulation import ENTRY, TURN, check_simulation, simulate_setup
    from fairysim.sim.rotation import mixes_policies

    # Every check runs before the first game, so a bad option costs no compile and no file.
    games, max_games, chunk_games, out = check_simulation(
        options["games"],
        options["precision"],
        options["max_games"],
        options["chunk_games"],
        options["threads"],
        options["out"],
    )
    setup = setup_from_options(spec, options)
    flags = {flag.name: options[flag.name] for flag in spec.flags}
    precision = options["precision"]
    rotated = mixes_policies(setup)
    unit = "deals" if rotated and precision is not None else "games"
    total = max_games if precision is not None else games * (setup.players if rotated else 1)
    described = "simulating" if precision is None else "simulating to precision"
    with ProgressBar(described, unit, total=total) as progress:
        kept = "nothing written" if out is None else f"nothing written, {out} untouched"
        stop_message(lambda: f"stopped after {progress.done:,} {unit}; {kept}")
        run = simulate_setup(
            setup,
            games=None if precision is not None else games,
            precision=precision,
            max_games=max_games if precision is not None else None,
            out=out,
            chunk_games=chunk_games,
            threads=options["threads"],
            progress=progress,
            **flags,
        )

    console = stdout_console()
    labels = [policy_label(p) for p in setup.policies]
    order = turn_words(spec)
    looks = run.looks
    n = len(run.rows)
    if run.rows_are == ENTRY:
        parts = [spec.title, setup.table(), *setup.choices()]
        counts = f"{run.deals:,} deals x {n} seat rotations = {run.games:,} games"
        headline = ", ".join([*parts, counts, f"seed {setup.seed}"])
    else:
        headline = setup.headline(run.games)
    console.print(f"{headline} ({run.seconds:.1f} s wall time)", soft_wrap=True)
    for line in setup.preamble():
        console.print(line, soft_wrap=True)
    console.print(table_title(spec, run.rows_are, n, looks), soft_wrap=True)
    if run.rows_are == ENTRY:
        from fairysim.sim.rotation import entry_labels

        console.print(
            summary_table(spec, run.rows, entry_labels(labels), first="entry", looks=looks)
        )
        notes = [entry_note(order, f"the {n} rotations", f"the same {run.deals:,} deals")]
        notes += filter(None, [same_policy_note(labels)])
        first = "entry"
    elif run.rows_are == TURN:
        console.print(
            summary_table(spec, run.rows, [labels[0]] * n, first=order.label, looks=looks)
        )
        notes = [f"{order.label}: {order.note}; every seat plays {labels[0]}"]
        first = order.label
    else:
        console.print(summary_table(spec, run.rows, setup.row_labels(labels), looks=looks))
        notes = [seat_note(order)]
        first = "seat"
    notes.append(verdict_line(run.corrected(), first))
    for line in [*notes, *column_legends(spec), *setup.footnotes()]:
        console.print(line, soft_wrap=True)
    if run.reached is not None:
        console.print(run.reached.message(), soft_wrap=True)
    if out is not None:
        console.print(f"Wrote {run.seat_rows:,} rows to {out}", soft_wrap=True)


@dataclasses.dataclass(frozen=True)
class TurnWords:
    """How a table names a game's turn order: its rows' ``label`` (``turn`` where the starter
    is drawn, else ``seat``), the ``note`` under it, and whether the order is ``drawn``."""

    label: str
    note: str
    drawn: bool


def turn_words(spec: GameSpec) -> TurnWords:
    """The game's :class:`TurnWords`, from its turn order and its wording."""
    drawn = spec.turn_order.drawn
    return TurnWords("turn" if drawn else "seat", wording(spec).turn_order, drawn)


def entry_note(order: Any, rotations: str, deals: str) -> str:
    """What a rotated lineup's rows are (:mod:`fairysim.sim.rotation`): ``simulate``'s
    table and a sweep's mixed-lineup cells; ``rotations`` and ``deals`` say how many."""
    return (
        f"entry: the lineup's policies in the order given (#2 where a policy repeats), each "
        f"pooled over {rotations} of the seats, which seat every entry at every seat on "
        f"{deals} (--games counts deals), so no entry keeps a seat or a turn position "
        f"({order.label}: {order.note}); intervals clustered by deal"
    )


def seat_note(order: Any) -> str:
    """What a table's seat rows are: the turn order itself where the seat index is it, else
    lineup seats, shown with their policies (the starter drawn each game): a lineup that is not
    rotated because the game adds rows that are no player (a solo game's opponent)."""
    if not order.drawn:
        return f"seat: {order.note}"
    return (
        f"seat: lineup seat, shown with its policy because the lineup mixes policies; the "
        f"starter is drawn each game, so a seat's share is not its turn order's "
        f"({order.label}: {order.note})"
    )


def setup_from_options(spec: GameSpec, options: dict[str, Any]) -> Any:
    """The run's setup from the options every run command shares (players, policy, seed,
    cards, the game's axes, weights), each checked with an error naming its option."""
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
    seated = apply_weights_file(setup.policies, options.get("weights_file"))
    return dataclasses.replace(setup, policies=apply_weights(seated, options["weights"]))


def table_title(spec: GameSpec, unit: str, rows: int, looks: Sequence[int] = ()) -> str:
    """The line above the summary table: what a row is, how tied winners count and how the
    intervals are corrected (over the table's rows, and over the looks of a run played to a
    precision)."""
    from fairysim.stats.precision import ALPHA

    level = 1 - ALPHA / max(len(looks), 1)
    over = "95% family-wise"
    if looks:
        over = f"{level:.2%} family-wise, the {ALPHA:.0%} error rate split over {len(looks)} looks"
    return (
        f"Per {unit}: win share ({spec.ties}), interval Holm-corrected over the {rows} rows "
        f"({over}) against the fair share 1/{rows}, mean points"
    )


def corrected_rows(rows: pd.DataFrame, looks: Sequence[int] = ()) -> pd.DataFrame:
    """The table's rows as one Holm-corrected family against the fair share
    (:func:`fairysim.stats.precision.corrected_shares`), at 95% family-wise or, for a run
    played to a precision, at the share of the 5% that each of its ``looks`` has."""
    from fairysim.stats.precision import ALPHA, corrected_shares

    return corrected_shares(rows, ALPHA / max(len(looks), 1))


def verdict_line(corrected: pd.DataFrame, first: str = "seat") -> str:
    """The line under the table that says which rows differ from the fair share: only those
    whose corrected interval excludes it (significant after correcting for the rows)."""
    fair = f"the fair share 1/{len(corrected)}"
    differ = [
        f"{first} {row_name(first, row[first if first in row else 'seat'])} {verdict(row)}"
        for row in corrected.to_dict("records")
        if row["significant"]
    ]
    if not differ:
        return (
            f"vs fair: no row differs from {fair} after correcting for the {len(corrected)} rows "
            "compared (every corrected interval holds it)"
        )
    rest = len(corrected) - len(differ)
    others = {0: "", 1: "; the other row does not differ"}.get(
        rest, f"; the other {rest} rows do not differ"
    )
    return (
        f"vs fair: {', '.join(differ)} {fair} after correcting for the {len(corrected)} rows "
        f"compared (their corrected intervals exclude it){others}"
    )


def repeated_entries(labels: Sequence[str]) -> list[int]:
    """The lineup entries whose policy (same name and weights) another entry plays too."""
    return [e for e, label in enumerate(labels) if list(labels).count(label) > 1]


def same_policy_groups(labels: Sequence[str]) -> str | None:
    """The entries of a lineup that play one policy, as their rows are labelled ("greedy,
    greedy#2 and greedy#3 play one policy"), or None where no policy repeats."""
    from fairysim.sim.rotation import entry_labels

    shown = entry_labels(labels)
    repeated = repeated_entries(labels)
    if not repeated:
        return None
    groups = [
        [shown[e] for e in repeated if labels[e] == label]
        for label in dict.fromkeys(labels[e] for e in repeated)
    ]
    names = "; ".join(", ".join(group[:-1]) + f" and {group[-1]}" for group in groups)
    return f"{names} {'play one policy' if len(groups) == 1 else 'each play one policy'}"


def same_policy_note(labels: Sequence[str]) -> str | None:
    """Why a rotated lineup's entries of one policy get different shares, or None where no
    policy repeats: the rotations turn the whole lineup, so each entry keeps its place
    relative to the others (entry ``e`` always sits ``(e - d) mod N`` seats after entry ``d``,
    :mod:`fairysim.sim.rotation`), and its row is the policy's share in that place."""
    from fairysim.sim.rotation import entry_labels

    groups = same_policy_groups(labels)
    if groups is None:
        return None
    shown = entry_labels(labels)
    repeated = repeated_entries(labels)
    alone = [e for e in range(len(labels)) if e not in repeated]
    anchor = alone[0] if alone else 0

    def seats(e: int) -> str:
        apart = (e - anchor) % len(labels)
        return f"{shown[e]} {apart} seat{'s' if apart > 1 else ''} after {shown[anchor]}"

    places = ", ".join(seats(e) for e in repeated if e != anchor)
    return (
        f"same policy: {groups}, yet their rows can differ beyond their intervals: the "
        "rotations turn the whole lineup, so each entry keeps its place relative to the others "
        f"({places}); a row is the policy's share in that place, not the policy's share alone"
    )


def column_legends(spec: GameSpec) -> list[str]:
    """One line per summary column whose name is not plain (its ``legend``)."""
    return [column.legend for column in wording(spec).summary if column.legend]


def verdict(row: dict[str, Any]) -> str:
    """A corrected row's verdict against its fair share: above, below or - (not
    significant)."""
    if not row["significant"]:
        return "-"
    return "above" if row["win_share"] > row["fair"] else "below"


def summary_table(
    spec: GameSpec,
    summary: pd.DataFrame,
    labels: Sequence[str] | None = None,
    first: str = "seat",
    looks: Sequence[int] = (),
) -> Table:
    """A rich table of a per-seat summary from ``simulate_summary``.

    Parameters
    ----------
    spec : GameSpec
        The game; its wording's :attr:`~fairysim.analysis.wording.GameWording.summary` names
        the columns after the win share.
    summary : pandas.DataFrame
        One row per seat (or per turn position, in column ``first``) with ``games``, ``wins``
        and ``<column>_mean`` per seat column.
    labels : sequence of str, optional
        What to show for each row's policy (default: the summary's ``policy`` column).
    first : str
        The column naming the rows: ``seat`` or the game's turn order label.
    looks : sequence of int
        The looks planned of a run played to a precision (its error rate is split over them);
        empty for a fixed run.

    Returns
    -------
    rich.table.Table
        Win share with its interval Holm-corrected over the rows (:func:`corrected_rows`; the
        verdicts against the fair share are :func:`verdict_line`'s), then the game's mean
        points, per row.
    """
    labels = [str(p) for p in summary["policy"]] if labels is None else list(labels)
    corrected = corrected_rows(summary, looks)
    # No padding: the box's blank divider alone parts the columns, so that they fit 80 columns.
    table = Table(box=box.SIMPLE_HEAD, padding=0, show_edge=False)
    table.add_column(first, justify="right", min_width=longest_word(first))
    # Long policy names (with changed weights) fold rather than push the numbers off the screen.
    table.add_column("policy", overflow="fold", min_width=min(max(map(len, labels)), 20))
    columns = wording(spec).summary
    headers = ("win\nshare", "corrected\nCI", *(column.header for column in columns))
    for name in headers:
        # Never narrower than the header's longest word, so no word is broken or cut.
        table.add_column(name, justify="right", no_wrap=True, min_width=longest_word(name))
    key = first if first in summary.columns else "seat"
    for row, label in zip(corrected.to_dict("records"), labels, strict=True):
        table.add_row(
            row_name(first, row[key]),
            str(label),
            percent(row["win_share"]),
            percent_interval(row["low"], row["high"]),
            *(column.cell(row) for column in columns),
        )
    return table


def row_name(kind: str, index: Any) -> str:
    """A table row's name: a turn position counted from 1 ("1st"), a seat or entry as its
    index from 0."""
    from fairysim.stats.turn_order import ordinal

    return ordinal(int(index)) if kind == "turn" else str(index)


def percent(share: float) -> str:
    """A win share as the vocabulary prints it: percent, one decimal ("24.8%")."""
    from fairysim.analysis.report.formats import fmt_percent

    return fmt_percent(share)


def percent_interval(low: float, high: float) -> str:
    """A share's interval in percent: "[22.8%, 27.1%]"."""
    from fairysim.analysis.report.formats import fmt_interval

    return fmt_interval(low, high)


def longest_word(header: str) -> int:
    """The width of a header's longest word."""
    return max(len(word) for word in header.split())


def policy_label(policy: Policy) -> str:
    """A policy's name, followed by the weights that differ from its defaults.

    Examples
    --------
    >>> from fairysim.sim.policy import builtin, weight
    >>> hoarder = builtin("hoarder", print, "keeps cards", 0, finale=weight(1.0, 0.0, 5.0))
    >>> policy_label(hoarder.with_weights(finale=2))
    'hoarder (finale=2)'
    """
    ranges = policy.ranges or (None,) * len(policy.weights)
    changed = [
        f"{name}={value:g}" if allowed is None else f"{name}={allowed.shown(value)}"
        for name, value, default, allowed in zip(
            policy.weight_names, policy.weights, policy.defaults, ranges, strict=True
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
        handle_errors(body, flags=POLICY_FLAG | axis_flags(spec)),
        simulate_params(spec),
        f"Simulate {spec.title} games and print win shares with corrected intervals and mean "
        "points.",
    )


app = game_group(
    "Play many games and summarise who wins; optionally save one row per game and seat.",
    simulate_command,
    game_names,
)

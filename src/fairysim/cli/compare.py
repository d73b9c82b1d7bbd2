"""``fairysim compare GAME``: a baseline and its variants played on the same seeds.

Every option and file is checked before a game is played, and the output folder before that:
a bad input is one line, exit 2, and nothing written. The tables come from
:func:`fairysim.analysis.studies.what_if.compare`; this module prints them and writes
``compare_differences.parquet``, ``compare_ranking.parquet`` and ``compare_pairing.parquet``
(each with the run's metadata, written atomically) and ``compare_differences.png``/``.svg``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    check_threads,
    handle_errors,
    stdout_console,
)
from fairysim.runtime.errors import FairysimError

SETUP_HELP = (
    "A setup as key=value items joined by ';': the game's make_setup options "
    "(policies, cards and the setup axes of fairysim simulate GAME --help) and weights "
    '(as --weights of simulate). Example: "cards=my_cards.toml;policies=random,greedy".'
)

GAMES = 10_000
"""Games per setup without ``--games`` or ``--precision``."""

PRINTED_METRICS = ("win_share", "score", "turn_order_spread", "game_length")
"""Metrics printed at every group; score parts are printed pooled (all are in the Parquet)."""


def check_out_dir(out_dir: Path) -> None:
    """Refuse an output folder that could not be made or written, before any game is played."""
    if out_dir.exists():
        if not out_dir.is_dir():
            raise FairysimError("--out-dir", f"{out_dir} exists and is not a folder")
        if not os.access(out_dir, os.W_OK):
            raise FairysimError("--out-dir", f"{out_dir} is not writable")
        return
    parent = out_dir.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise FairysimError("--out-dir", f"cannot create {out_dir} ({parent} is not writable)")


def _shown(unit: str, difference: float, low: float, high: float) -> tuple[str, str]:
    """A difference and its interval in the metric's unit (shares in percentage points)."""
    if unit == "share":
        return f"{100 * difference:+.2f} pp", f"[{100 * low:+.2f}, {100 * high:+.2f}] pp"
    return f"{difference:+.3f}", f"[{low:+.3f}, {high:+.3f}]"


def _where(row: Any) -> str:
    from fairysim.analysis.report.what_if import position_label

    if row.group == "pooled":
        return "pooled"
    if row.group == "seat":
        return f"seat {row.index}"
    return f"{position_label(int(row.index))} to act"


def _short(verdict: str) -> str:
    """A verdict without the words the table's title already says."""
    return verdict.replace(" than the baseline", "").replace(" from the baseline", "")


def differences_table(differences: Any, variant: str) -> Table:
    """The printed differences of one variant."""
    table = Table(
        title=f"{variant} minus baseline (SE ratio: paired over unpaired)", title_justify="left"
    )
    for header in ("metric", "where", "difference", "interval", "SE ratio", "Holm"):
        table.add_column(header)
    rows = differences[differences["variant"] == variant]
    for row in rows.itertuples():
        if row.metric not in PRINTED_METRICS and row.group != "pooled":
            continue
        mid, interval = _shown(row.unit, row.difference, row.low, row.high)
        unit = "" if row.unit == "share" else f" ({row.unit})"
        table.add_row(
            f"{row.label}{unit}",
            _where(row),
            mid,
            interval,
            f"{row.se_ratio:.2f}",
            _short(row.verdict),
        )
    return table


def ranking_table(ranking: Any) -> Table:
    """The printed ranking of the variants."""
    table = Table(title="Variants ranked against the baseline", title_justify="left")
    for header in ("rank", "variant", "difference", "interval", "vs baseline", "vs next"):
        table.add_column(header)
    for row in ranking.itertuples():
        unit = "share" if row.metric in ("win_share", "turn_order_spread") else "points"
        if row.metric == "game_length":
            unit = "per game"
        mid, interval = _shown(unit, row.difference, row.low, row.high)
        table.add_row(
            str(row.rank),
            row.variant,
            mid,
            interval,
            _short(row.versus_baseline),
            row.versus_next.replace(" the next", ""),
        )
    return table


def write_outputs(result: Any, out_dir: Path, title: str) -> list[Path]:
    """The Parquet tables (with the run's metadata) and the figure, each written atomically."""
    from fairysim.analysis.report.what_if import difference_figure
    from fairysim.cli.report import prepare_out_dir
    from fairysim.sim.batch import AtomicParquetWriter, run_metadata

    prepare_out_dir(out_dir)
    meta = run_metadata(result.meta["game"], result.meta)
    written = []
    try:
        for name, frame in (
            ("differences", result.differences),
            ("ranking", result.ranking),
            ("pairing", result.pairing),
        ):
            path = out_dir / f"compare_{name}.parquet"
            with AtomicParquetWriter(path, meta) as writer:
                writer.write(frame.reset_index(drop=True))
            written.append(path)
        fig = difference_figure(result.differences, title)
        for suffix in ("png", "svg"):
            path = out_dir / f"compare_differences.{suffix}"
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=out_dir)
            os.close(fd)
            try:
                fig.savefig(tmp, format=suffix, dpi=150)
                os.chmod(tmp, 0o644)
                os.replace(tmp, path)
            finally:
                Path(tmp).unlink(missing_ok=True)
            written.append(path)
    except OSError as error:
        raise FairysimError("--out-dir", f"cannot write to {out_dir} ({error.strerror})") from None
    return written


def given_variants(
    variant: list[str], folder: Path | None, baseline: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """The variants of ``--variant`` (in the order given) then of ``--variant-cards`` (in file
    name order), with a label each: a ``--variant``'s own text, a card file's name."""
    from fairysim.analysis.studies.variants import card_file_variants, describe, parse_setup

    variants = [parse_setup(text, "--variant") for text in variant]
    labels = [describe(options) for options in variants]
    if folder is not None:
        base = parse_setup(baseline, "--baseline")
        for label, options in card_file_variants(folder, "--variant-cards", base):
            variants.append(options)
            labels.append(label)
    if not variants:
        raise FairysimError("--variant", "give at least one --variant or --variant-cards")
    return variants, labels


@handle_errors(flags={**POLICY_FLAG, "variants": "--variant"})
def compare_command(
    game: Annotated[str, typer.Argument(help="The game, as fairysim simulate names it.")],
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for tables and figure.")],
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="A variant setup (repeatable). " + SETUP_HELP),
    ] = None,
    variant_cards: Annotated[
        Path | None,
        typer.Option(
            "--variant-cards",
            help="A folder of card files: each .toml file is one variant (the baseline with "
            "those cards), labelled by its file name; with --variant or alone.",
        ),
    ] = None,
    baseline: Annotated[
        str, typer.Option("--baseline", help="The baseline setup (default: the game's).")
    ] = "",
    players: Annotated[
        int | None, typer.Option("--players", help="Player count (default: the game's).")
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", help=f"Games per setup (default: {GAMES:,}).")
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision",
            help="Instead of --games: play 1,000 games a setup, doubling, until every win-share "
            "difference has a corrected half-width at or below this (win-share units, 0.01 = "
            "1 percentage point), the 5% error rate split over the looks.",
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            help="Cap on the games a setup --precision may play (default: 160,000).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every setup's games.")] = 0,
    rank_by: Annotated[
        str, typer.Option("--rank-by", help="Metric the ranking sorts by (pooled).")
    ] = "score",
    rank_position: Annotated[
        int | None,
        typer.Option("--rank-position", help="Rank at this turn position (0 = first to act)."),
    ] = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
    ] = None,
) -> None:
    """Play a baseline and variants on the same seeds and report their paired differences.

    Per turn position and pooled, with family-wise (Holm) intervals; printed, and written as
    Parquet and a figure under --out-dir."""
    from fairysim.analysis.studies.what_if import compare, compare_to_precision, ranking_sentence
    from fairysim.sim.game import get_game
    from fairysim.stats.precision import check_counts

    spec = get_game(game, "GAME")
    check_threads(threads)
    variants, labels = given_variants(variant or [], variant_cards, baseline)
    check_counts(games, precision, max_games)
    check_out_dir(out_dir)
    reached = None
    with ProgressBar("playing", unit="games") as progress:
        options = dict(
            baseline=baseline,
            variants=variants,
            labels=labels,
            players=players,
            seed=seed,
            rank_by=rank_by,
            rank_position=rank_position,
            threads=threads,
            progress=progress,
        )
        if precision is None:
            result = compare(spec, games=GAMES if games is None else games, **options)
        else:
            if max_games is not None:
                options["max_games"] = max_games
            result, reached = compare_to_precision(spec, precision=precision, **options)
    meta = result.meta
    title = f"{spec.title}, {meta['players']} players, {meta['games']:,} games a setup, seed {seed}"
    written = write_outputs(result, out_dir, title)
    console = stdout_console()
    console.print(title, soft_wrap=True)
    console.print(f"Baseline: {baseline or '(defaults)'}", soft_wrap=True)
    if reached is not None:
        console.print(reached.message().replace("per run", "per setup"), soft_wrap=True)
    d = result.differences
    console.print(
        f"{int(d['tests'].iloc[0])} differences tested: Holm-corrected p-values, intervals at "
        f"the Bonferroni level ({float(d['level'].iloc[0]):.4%} each, 95 % family-wise). "
        "Positions are turn positions (1st acts first).",
        soft_wrap=True,
    )
    for row in result.pairing.itertuples():
        console.print(f"Pairing, {row.variant}: {row.pairing}.", soft_wrap=True)
    fixed = sorted({item["metric"] for item in meta["fixed"]})
    if fixed:
        console.print(
            "Left out, the same in every game of both setups (pooled): "
            + ", ".join(name.replace("_", " ") for name in fixed)
            + ".",
            soft_wrap=True,
        )
    ratio = d["se_ratio"].dropna()
    if len(ratio):
        console.print(
            "Pairing narrowed the intervals to a median of "
            f"{ratio.median():.2f} (range {ratio.min():.2f}-{ratio.max():.2f}) of the width "
            f"unpaired runs of {meta['games']:,} games each would give.",
            soft_wrap=True,
        )
    for label in dict.fromkeys(d["variant"]):
        console.print(differences_table(d, label))
    console.print(ranking_table(result.ranking))
    console.print(ranking_sentence(result.ranking), soft_wrap=True)
    for path in written:
        console.print(f"Wrote {path}", soft_wrap=True)


__all__ = ["check_out_dir", "compare_command", "given_variants", "write_outputs"]

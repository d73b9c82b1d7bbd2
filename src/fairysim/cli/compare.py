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
    "(cards and the setup axes of fairysim simulate GAME --help), policy (as --policy), "
    "weights (as --weights of simulate) and label (a short name). "
    'Example: "cards=my_cards.toml;policy=random,greedy;label=rich".'
)

GAMES = 10_000
"""Games per setup without ``--games`` or ``--precision`` (the help's words; the default is
:data:`fairysim.analysis.studies.what_if.GAMES`, which a test holds equal)."""


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


COMPARE_FLAGS = {
    **POLICY_FLAG,
    "variants": "--variant",
    "labels": "--label",
    "baseline": "--baseline",
    "variant_cards": "--variant-cards",
    "weights_file": "--weights-file",
}
"""The library's parameter names as compare's flags (:func:`fairysim.cli.common.flag_of`)."""


@handle_errors(flags=COMPARE_FLAGS)
def compare_command(
    game: Annotated[str, typer.Argument(help="The game, as fairysim simulate names it.")],
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for tables and figure.")],
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="A variant setup (repeatable). " + SETUP_HELP),
    ] = None,
    label: Annotated[
        list[str] | None,
        typer.Option(
            "--label",
            help="A short name for each --variant, in order (repeatable, one per --variant; "
            "default: the setup's label=, else what it changes, a card file by its name).",
        ),
    ] = None,
    variant_cards: Annotated[
        Path | None,
        typer.Option(
            "--variant-cards",
            help="A folder of card files: each .toml file is one variant (the baseline with "
            "those cards), labelled by its file name; with --variant or alone.",
        ),
    ] = None,
    weights_file: Annotated[
        Path | None,
        typer.Option(
            "--weights-file",
            help="A weights file (as best-response writes weights.toml) set on every setup "
            "that seats a policy it names and gives no weights_file= of its own (default: "
            "none, the policies' defaults).",
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
        str | None,
        typer.Option(
            "--rank-by",
            help="Metric the ranking sorts by (default: turn_order_spread, lowest first; "
            "win_share with --rank-position; score, a score part or game_length, highest first).",
        ),
    ] = None,
    rank_position: Annotated[
        int | None,
        typer.Option("--rank-position", help="Rank at this turn position (1 = first to act)."),
    ] = None,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Numba threads (default: all cores).")
    ] = None,
) -> None:
    """Play a baseline and variants on the same seeds and report what changes who wins.

    Headline: each variant's change in the turn-order spread and in the win share of each turn
    position and seat, with Holm-corrected verdicts; score and its parts follow as supporting
    rows. Printed, and written as Parquet and a figure under --out-dir."""
    from fairysim.analysis.studies.what_if import compare, compare_to_precision
    from fairysim.sim.game import get_game
    from fairysim.stats.precision import check_counts

    spec = get_game(game, "GAME")
    check_threads(threads)
    check_counts(games, precision, max_games)
    check_out_dir(out_dir)
    reached = None
    with ProgressBar("playing", unit="games") as progress:
        options = dict(
            baseline=baseline,
            variants=variant or [],
            variant_cards=variant_cards,
            labels=label or None,
            weights_file=weights_file,
            players=players,
            seed=seed,
            rank_by=rank_by,
            rank_position=rank_position,
            threads=threads,
            progress=progress,
        )
        if precision is None:
            result = compare(spec, games=games, **options)
        else:
            if max_games is not None:
                options["max_games"] = max_games
            result, reached = compare_to_precision(spec, precision=precision, **options)
    meta = result.meta
    table = f"{meta['players']} player{'s' if meta['players'] != 1 else ''}"
    title = f"{spec.title}, {table}, {meta['games']:,} games a setup, seed {seed}"
    written = write_outputs(result, out_dir, title)
    print_comparison(result, title, reached)
    console = stdout_console()
    for path in written:
        console.print(f"Wrote {path}", soft_wrap=True)


def print_comparison(result: Any, title: str, reached: Any) -> None:
    """The comparison as a designer reads it: who wins first, then the ranking, the pairing,
    each variant's rows (who wins, then score and its parts)."""
    from fairysim.analysis.studies.variants import describe
    from fairysim.analysis.studies.what_if import ranking_sentence
    from fairysim.cli.compare_tables import (
        SUPPORTING,
        WHO_WINS,
        differences_table,
        family_line,
        headline_lines,
        ranking_table,
    )

    console = stdout_console()
    meta, d = result.meta, result.differences
    console.print(title, soft_wrap=True)
    console.print(f"Baseline: {describe(meta['baseline']['options'])}", soft_wrap=True)
    for item in meta["variants"]:
        console.print(f"Variant {item['label']}: {describe(item['options'])}", soft_wrap=True)
    if reached is not None:
        console.print(reached.message().replace("per run", "per setup"), soft_wrap=True)
    console.print("", soft_wrap=True)
    console.print("What changes who wins:", soft_wrap=True)
    for line in headline_lines(d):
        console.print(f"- {line}", soft_wrap=True)
    console.print(family_line(d), soft_wrap=True)
    console.print(ranking_table(result.ranking))
    console.print(ranking_sentence(result.ranking), soft_wrap=True)
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
    for variant in dict.fromkeys(d["variant"]):
        console.print(differences_table(d, variant, WHO_WINS))
        console.print(differences_table(d, variant, SUPPORTING))


__all__ = ["check_out_dir", "compare_command", "print_comparison", "write_outputs"]

"""``fairysim tournament GAME``: every policy against every mix of the others (or a balanced
sample of mixes where they are too many), seats rotated on identical deals, for ``--games`` or
until ``--precision``; prints the ratings, the head-to-head matrix and win share by turn order,
and saves them as Parquet with the run's metadata (:mod:`fairysim.analysis.tournament.play`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from fairysim.cli.by_game import Param, game_group, game_names, make_command, option, spec_of
from fairysim.cli.common import (
    ProgressBar,
    check_threads,
    handle_errors,
    stdout_console,
    stop_message,
)
from fairysim.cli.simulate import load_card_option
from fairysim.cli.sweep import cluster_params

GAMES = 2_000
"""Mirrors :data:`fairysim.analysis.tournament.play.GAMES` (help text without importing it)."""

FIRST_LOOK = 1000
"""Mirrors :data:`fairysim.analysis.tournament.play.FIRST_LOOK` (help text without importing it)."""

PRECISION_MAX_GAMES = 64_000
"""Mirrors :data:`fairysim.analysis.tournament.play.PRECISION_MAX_GAMES` (help text)."""

if TYPE_CHECKING:
    import pandas as pd

    from fairysim.sim.game import GameSpec


def tournament_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim tournament <game>``."""
    params = [
        option(
            "policies",
            str,
            "random,greedy",
            "--policies",
            "Comma-separated policies, two or more (a name twice is two entries). Built-ins "
            f"(see `fairysim policies {spec.name}`) or module:function for your own; "
            "NAME@FILE is policy NAME with the weights of FILE's [NAME] table (best-response's "
            "weights.toml), an entry apart from NAME at its defaults.",
        ),
        option("players", int, spec.default_players, "--players", spec.players_help),
        option(
            "games",
            int | None,
            None,
            "--games",
            f"Games per (mix, seat rotation) (default: {GAMES:,}).",
        ),
        option(
            "precision",
            float | None,
            None,
            "--precision",
            f"Instead of --games: play {FIRST_LOOK:,} games per (mix, seat rotation), doubling "
            "on the same deals, until every head-to-head share has a half-width at or below "
            "this (share units, 0.01 = 1 percentage point), its interval at the 5% error rate "
            "split over the looks.",
        ),
        option(
            "max_games",
            int | None,
            None,
            "--max-games",
            "Cap on the games per (mix, seat rotation) --precision may play (default: "
            f"{PRECISION_MAX_GAMES:,}).",
        ),
        option("seed", int, 0, "--seed", "Seed; game i of every pairing has the same deal."),
        option(
            "weights_file",
            Path | None,
            None,
            "--weights-file",
            "A weights file ([policy] tables, as best-response writes weights.toml), set on "
            "every entry playing a policy it names (an entry's own NAME@FILE comes after).",
        ),
    ]
    params += [option(axis.name, str | None, None, axis.option, axis.help) for axis in spec.axes]
    params += [
        option("cards", Path | None, None, "--cards", spec.cards_help),
        option(
            "out_dir",
            Path | None,
            None,
            "--out-dir",
            "Folder for tournament_*.parquet (seats, ratings, head-to-head, turn order), "
            "each with the run's configuration.",
        ),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
        option(
            "chunk_games",
            int | None,
            None,
            "--chunk-games",
            "Games per chunk (memory and progress granularity; never changes results).",
        ),
        *cluster_params(
            "Default: this process, unless --workers is given. The results are the same "
            "wherever the games run.",
            "no cluster without it",
        ),
    ]
    return params


def run_tournament(spec: GameSpec, **options: Any) -> None:
    """Check every option, play the tournament, print its tables (and write ``--out-dir``)."""
    from fairysim.analysis.tournament import play as tm
    from fairysim.stats.precision import check_counts

    # The checks play_tournament makes too, here before the card file is read and the
    # progress bar drawn; each error names its parameter, worded as its flag.
    names, players = tm.check_tournament(
        spec, options["policies"], options["players"], options["seed"]
    )
    precision, max_games = options["precision"], options["max_games"]
    check_counts(options["games"], precision, max_games)
    games = None if precision is not None else (options["games"] or tm.GAMES)
    if precision is not None and max_games is None:
        max_games = tm.PRECISION_MAX_GAMES
    threads = check_threads(options["threads"])
    out_dir = tm.check_out_dir(options["out_dir"])
    card_set = load_card_option(spec, options["cards"])
    axes = {
        axis.name: axis.parse(options[axis.name], card_set)
        for axis in spec.axes
        if options[axis.name] is not None
    }
    design = tm.tournament_design(len(names), players, options["seed"])
    mixes = design.mixes
    start = time.perf_counter()
    total = None if games is None else len(mixes) * players * games
    with ProgressBar("tournament", total=total) as progress:
        kept = "nothing written" if out_dir is None else f"nothing written to {out_dir}"
        stop_message(lambda: f"stopped after {progress.done:,} games; {kept}")
        result = tm.play_tournament(
            spec,
            policies=names,
            players=players,
            games=games,
            precision=precision,
            max_games=max_games,
            seed=options["seed"],
            cards=card_set,
            chunk_games=options["chunk_games"],
            threads=threads,
            progress=progress,
            scheduler=options["scheduler"],
            workers=options["workers"],
            task_games=options["task_games"],
            weights_file=options["weights_file"],
            **axes,
        )
    elapsed = time.perf_counter() - start
    games = result.games
    total = len(mixes) * players * games
    result.meta["reproduce"] = reproduce_command(spec, names, players, games, options, max_games)
    pairs = tm.pair_results(result)
    rating = tm.ratings(result, pairs)
    matrix = tm.head_to_head(result, pairs)
    order = tm.turn_order(result)

    console = stdout_console()
    console.print(
        f"{spec.title} tournament, {players} players, {len(names)} policies: {len(mixes)} mixes "
        f"x {players} seat rotations x {games:,} games = {total:,} games on {games:,} deals "
        f"({elapsed:.1f} s wall time)",
        soft_wrap=True,
    )
    console.print(design.describe(), soft_wrap=True)
    if result.precision is not None:
        reached = result.precision
        console.print(reached.message().replace("per run", "per (mix, rotation)"), soft_wrap=True)
        console.print(
            f"Looks: {', '.join(f'{n:,}' for n in reached.looks)} games per (mix, rotation) of "
            f"{', '.join(f'{n:,}' for n in reached.planned)}"
            f" planned; stopped by the --max-games cap: {'yes' if not reached.reached else 'no'}.",
            soft_wrap=True,
        )
    console.print(rating_table(rating))
    level = f"{1 - result.alpha:.2%}"
    console.print(matrix_table(result.entries, matrix, level))
    console.print(turn_order_table(players, order, level))
    looks = (
        ""
        if result.precision is None
        else f" (the 5% error rate split over the {len(result.precision.planned)} looks planned; "
        "the ratings' 95% is not split)"
    )
    console.print(
        f"Intervals: the matrix and turn order at {level}{looks}, clustered by deal (game "
        f"index); ratings 95%, a percentile bootstrap over deals ({tm.BOOTSTRAP} resamples). "
        "Ratings are Bradley-Terry log-strengths (choix), centred on zero, fitted to who ranks "
        "above whom at each table.",
        soft_wrap=True,
    )
    console.print(f"Reproduce with `{result.meta['reproduce']}`.", soft_wrap=True)
    if out_dir is not None:
        written = tm.save_tournament(
            result, out_dir, {"ratings": rating, "head_to_head": matrix, "turn_order": order}
        )
        console.print(f"Wrote {', '.join(str(p) for p in written)}", soft_wrap=True)


def reproduce_command(
    spec: GameSpec,
    names: tuple[str, ...],
    players: int,
    games: int,
    options: dict[str, Any],
    max_games: int | None,
) -> str:
    """The command that plays this tournament again: its policies, players, seed, setup
    options and either ``--games`` or ``--precision H --max-games N`` (the chunk size and
    threads never change the results, so they are left out)."""
    import shlex

    parts = ["fairysim", "tournament", spec.name, "--policies", ",".join(names)]
    parts += ["--players", str(players)]
    if options["precision"] is not None:
        parts += ["--precision", f"{options['precision']:g}", "--max-games", str(max_games)]
    else:
        parts += ["--games", str(games)]
    parts += ["--seed", str(options["seed"])]
    for axis in spec.axes:
        if options[axis.name] is not None:
            parts += [axis.option, str(options[axis.name])]
    if options["cards"] is not None:
        parts += ["--cards", str(options["cards"])]
    if options.get("weights_file") is not None:
        parts += ["--weights-file", str(options["weights_file"])]
    return shlex.join(parts)


def _table(title: str) -> Table:
    return Table(
        title=title, box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False, show_edge=False
    )


def rating_table(rating: pd.DataFrame) -> Table:
    """Ratings, strongest first, with their intervals."""
    table = _table("Rating (Bradley-Terry log-strength), 95% bootstrap CI, strongest first")
    for name in ("policy", "rating", "95% CI"):
        table.add_column(name, justify="left" if name == "policy" else "right")
    for row in rating.itertuples(index=False):
        table.add_row(row.entry, f"{row.rating:+.3f}", f"{row.low:+.3f} to {row.high:+.3f}")
    return table


def matrix_table(entries: tuple[str, ...], matrix: pd.DataFrame, level: str = "95%") -> Table:
    """How often the row policy ranks above the column policy at one table."""
    table = _table(f"Head to head: how often row ranks above column at one table, {level} CI")
    table.add_column("row \\ column")
    for entry in entries:
        table.add_column(entry, justify="right")
    cells = {(r.row, r.col): r for r in matrix.itertuples(index=False)}
    for row in entries:
        line = [row]
        for col in entries:
            cell = cells.get((row, col))
            line.append(
                "-" if cell is None else f"{cell.share:.3f}\n{cell.low:.3f}-{cell.high:.3f}"
            )
        table.add_row(*line)
    return table


def turn_order_table(players: int, order: pd.DataFrame, level: str = "95%") -> Table:
    """Win share per policy by turn position (1 plays first), and the first seat's advantage."""
    table = _table(f"Win share by turn order (1 = plays first), {level} CI")
    table.add_column("policy")
    for position in range(players):
        table.add_column(str(position + 1), justify="right")
    for entry, group in order.groupby("entry", sort=False):
        by_position = {int(r.position): r for r in group.itertuples(index=False)}
        table.add_row(
            str(entry),
            *(
                "-"
                if p not in by_position
                else f"{by_position[p].win_share:.3f}\n"
                f"{by_position[p].low:.3f}-{by_position[p].high:.3f}"
                for p in range(players)
            ),
        )
    return table


def tournament_command(name: str) -> Any:
    """The ``tournament`` command of game ``name`` (none for a game without two seats)."""
    spec = spec_of(name)
    if spec.max_players < 2:
        return None

    def body(**options: Any) -> None:
        run_tournament(spec, **options)

    return make_command(
        handle_errors(body),
        tournament_params(spec),
        f"Rate {spec.title} policies: every mix at every seat, rotated on the same deals, for "
        "--games or until --precision. Where every mix of the policies would be more than "
        "500, a balanced sample is played instead: a cyclic block design of tables of "
        "distinct policies, drawn from --seed, in which every pair of policies meets equally "
        "often (or as nearly as the sample allows; the run says how near) and every policy "
        "sits at every seat equally often.",
    )


app = game_group(
    "Play policies against each other with seats rotated on identical deals; rate them.",
    tournament_command,
    game_names,
)

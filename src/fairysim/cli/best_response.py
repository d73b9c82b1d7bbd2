"""``fairysim best-response GAME``: search a policy's weights for the best response to a field of
policies, seats rotated on identical deals, and validate it on fresh deals
(:func:`fairysim.analysis.strategy.best_response.best_response`)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from fairysim.cli.by_game import Param, game_group, game_names, make_command, option, spec_of
from fairysim.cli.common import (
    ProgressBar,
    check_threads,
    handle_errors,
    stdout_console,
    stop_message,
)
from fairysim.cli.simulate import load_card_option
from fairysim.sim.game import GameSpec

EVALUATIONS = 200
"""Mirrors :data:`fairysim.analysis.strategy.best_response.EVALUATIONS` (help text without
importing the analysis)."""

GAMES = 2_000
"""Mirrors :data:`fairysim.analysis.strategy.best_response.GAMES`."""

VALIDATION_GAMES = 10_000
"""Mirrors :data:`fairysim.analysis.strategy.best_response.VALIDATION_GAMES`."""

POOL_GAMES = 1_000
"""Mirrors :data:`fairysim.analysis.strategy.rounds.POOL_GAMES`."""


def best_response_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim best-response <game>``."""
    params = [
        option(
            "policy",
            str,
            ...,
            "--policy",
            "The policy whose weights are searched: a built-in with weights (see `fairysim "
            f"policies {spec.name}`) or module:function with --range for each weight.",
        ),
        option(
            "field",
            str,
            ...,
            "--field",
            "Comma-separated opponents, filling the other seats in order and cycling; the deals "
            "are cut into one block per opponent policy, each starting the field at the next, so "
            "every opponent sits at the table equally often.",
        ),
        option("players", int, spec.default_players, "--players", spec.players_help),
        option(
            "out_dir",
            Path,
            ...,
            "--out-dir",
            "Folder for weights.toml, search.parquet, "
            "validation.parquet, best_response.html and the search's journal.",
        ),
        option("seed", int, 0, "--seed", "Seed of the deals and of the optimiser."),
        option(
            "evaluations", int, EVALUATIONS, "--evaluations", "Candidates the search evaluates."
        ),
        option(
            "games",
            int,
            GAMES,
            "--games",
            "Deals per candidate, each played once per seat rotation (the same for every "
            "candidate).",
        ),
        option(
            "validation_games",
            int,
            VALIDATION_GAMES,
            "--validation-games",
            "Fresh deals (never searched on) on which the best and the starting weights are "
            "compared.",
        ),
        option(
            "ranges",
            str | None,
            None,
            "--range",
            "Narrower search ranges, name=low:high,... (default: each weight's declared range).",
        ),
        option(
            "rounds",
            int,
            1,
            "--rounds",
            "Search this many times, each round against the field enlarged by the responses "
            "before it (kept in --out-dir/rounds/round_k), then rate the pool (the policy's "
            "start, the field, every response) by a tournament with Bradley-Terry ratings "
            "(pool_ratings.csv).",
        ),
        option(
            "pool_games",
            int,
            POOL_GAMES,
            "--pool-games",
            "With --rounds above 1: games per (mix, seat rotation) of the pool's tournament.",
        ),
        option(
            "resume",
            bool,
            False,
            "--resume",
            "Continue the search kept in --out-dir (the same options): gives what an "
            "uninterrupted search gives.",
        ),
    ]
    params += [option(axis.name, str | None, None, axis.option, axis.help) for axis in spec.axes]
    params += [
        option("cards", Path | None, None, "--cards", spec.cards_help),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
        option(
            "workers",
            int | None,
            None,
            "--workers",
            "Play each generation's candidates on a local Dask cluster of this many worker "
            "processes (the same result as one process).",
        ),
        option(
            "scheduler",
            str | None,
            None,
            "--scheduler",
            "Address of a running Dask scheduler to play the candidates on.",
        ),
    ]
    return params


def run_best_response(spec: GameSpec, **options: Any) -> None:
    """Check the options, search, validate, write and print the headline."""
    from fairysim.analysis.strategy.best_response import best_response
    from fairysim.analysis.strategy.page import headline

    card_set = load_card_option(spec, options["cards"])
    axes = {
        axis.name: axis.parse(options[axis.name], card_set)
        for axis in spec.axes
        if options[axis.name] is not None
    }
    threads = check_threads(options["threads"])
    out_dir = options["out_dir"]
    total = options["evaluations"] * max(options["rounds"], 1)
    with ProgressBar("best response", unit="candidates", total=total) as bar:
        stop_message(
            lambda: (
                f"stopped after {bar.done:,} candidates; they are kept in {out_dir}: "
                "run again with --resume to continue"
            )
        )
        result = best_response(
            spec,
            options["policy"],
            options["field"],
            options["players"],
            cards=card_set,
            seed=options["seed"],
            evaluations=options["evaluations"],
            games=options["games"],
            validation_games=options["validation_games"],
            ranges=options["ranges"],
            out_dir=out_dir,
            workers=options["workers"],
            scheduler=options["scheduler"],
            resume=options["resume"],
            threads=threads,
            progress=bar,
            rounds=options["rounds"],
            pool_games=options["pool_games"],
            **axes,
        )
    console = stdout_console()
    shown = ", ".join(
        f"{name} {result.weights[name]:.4g} (start {result.start[name]:.4g})"
        for name in result.weights
    )
    console.print(
        f"{spec.title}, {result.players} players: best response of {result.policy_name} "
        f"against {','.join(result.field)} ({len(result.candidates)} candidates x "
        f"{result.games:,} deals x {result.players} rotations, {result.seconds:.1f} s)",
        soft_wrap=True,
    )
    console.print(f"Weights: {shown}", soft_wrap=True)
    console.print(headline(result), soft_wrap=True)
    if result.pool is not None:
        console.print(
            "Pool ratings (Bradley-Terry log-strength, 95% bootstrap interval), strongest "
            "first: "
            + "; ".join(
                f"{row.entry} {row.rating:+.3f} [{row.low:+.3f}, {row.high:+.3f}]"
                for row in result.pool.ratings.itertuples(index=False)
            ),
            soft_wrap=True,
        )
    console.print(f"Reproduce with `{reproduce_command(spec, options)}`.", soft_wrap=True)
    console.print(f"Wrote {', '.join(str(p) for p in result.files)}", soft_wrap=True)


def reproduce_command(spec: GameSpec, options: dict[str, Any]) -> str:
    """The command that runs this search again (threads and workers never change it)."""
    parts = ["fairysim", "best-response", spec.name, "--policy", options["policy"]]
    parts += ["--field", options["field"], "--players", str(options["players"])]
    parts += ["--out-dir", str(options["out_dir"]), "--seed", str(options["seed"])]
    parts += ["--evaluations", str(options["evaluations"]), "--games", str(options["games"])]
    parts += ["--validation-games", str(options["validation_games"])]
    if options["rounds"] != 1:
        parts += ["--rounds", str(options["rounds"]), "--pool-games", str(options["pool_games"])]
    if options["ranges"]:
        parts += ["--range", options["ranges"]]
    for axis in spec.axes:
        if options[axis.name] is not None:
            parts += [axis.option, str(options[axis.name])]
    if options["cards"] is not None:
        parts += ["--cards", str(options["cards"])]
    return shlex.join(parts)


def best_response_command(name: str) -> Any:
    """The ``best-response`` command of game ``name`` (none for a game without two seats)."""
    spec = spec_of(name)
    if spec.max_players < 2:
        return None

    def body(**options: Any) -> None:
        run_best_response(spec, **options)

    return make_command(
        handle_errors(body),
        best_response_params(spec),
        f"Search the weights of one {spec.title} policy for the best response to a field of "
        "policies (CMA-ES, every candidate on the same deals, every seat rotated), then "
        "compare the best weights with the starting ones on fresh deals: the gain is a lower "
        "bound of how far the policy's family exploits the field.",
    )


app = game_group(
    "Search a policy's weights for the best response to a field of policies.",
    best_response_command,
    game_names,
)

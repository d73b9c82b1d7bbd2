"""``fairysim replay GAME``: one game of a run told as the rulebook tells it.

One command per registered game whose package has a ``narrate`` module, made from its spec
(:mod:`fairysim.cli.by_game`) with the setup options ``simulate`` takes (so the same options
name the same games), plus ``--game`` and ``--html``. The game is played by the reference
engine, which plays the same games as the fast one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from fairysim.cli.by_game import (
    Param,
    axis_flags,
    game_group,
    game_names,
    make_command,
    option,
    spec_of,
)
from fairysim.cli.common import POLICY_FLAG, handle_errors, stdout_console
from fairysim.cli.simulate import lineup_option, setup_from_options, simulate_params
from fairysim.runtime.errors import ParameterError
from fairysim.sim.game import GameSpec

KEPT = {"players", "seed", "cards", "weights"}
"""The ``simulate`` options a replay shares as they are (with the game's setup axes)."""


def replay_params(spec: GameSpec) -> list[Param]:
    """The options of ``fairysim replay <game>``: the setup ``simulate`` takes, the lineup of
    the game, then ``--game`` and ``--html``."""
    axes = {axis.name for axis in spec.axes}
    params = [p for p in simulate_params(spec) if p.name in KEPT | axes]
    params.insert(1, lineup_option(spec))
    params += [
        option(
            "game",
            int,
            0,
            "--game",
            "Index of the game to replay, from 0 (as the `game` column of `fairysim simulate "
            "--out`): game i of a seed is the same in every run, whatever its length.",
        ),
        option(
            "html",
            Path | None,
            None,
            "--html",
            "Also write the replay as an HTML page to this .html file (written atomically). "
            "Default: print only.",
        ),
        # Once the length of the run whose game is told; a game depends only on (seed, index).
        Param("games", int | None, None, typer.Option("--games", hidden=True)),
    ]
    return params


def check_game_index(game: Any, games: int) -> int:
    """``game`` if it is a game of a run of ``games`` games, else an error naming ``game``."""
    if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < games:
        raise ParameterError(
            "game",
            f"must be a game of the run, 0 to {games - 1:,}; got {game!r}",
        )
    return game


def run_replay(spec: GameSpec, **options: Any) -> None:
    """Check every option, replay the game, print it (and write ``--html``)."""
    from fairysim.analysis.report.replay import replay, write_html
    from fairysim.runtime.files import check_out_file
    from fairysim.sim.batch import MAX_GAMES, check_games

    games = MAX_GAMES if options["games"] is None else check_games(options["games"], "games")
    game = check_game_index(options["game"], games)
    html = options["html"]
    if html is not None:
        html = check_out_file(html, "html", suffix=".html")
    setup = setup_from_options(spec, options)
    result = replay(spec, setup, game)
    console = stdout_console()
    for line in result.lines:
        console.print(line.text, soft_wrap=True, markup=False, highlight=False)
    if html is not None:
        write_html(result, html)
        console.print(f"Wrote {html}", soft_wrap=True, markup=False, highlight=False)


def replay_command(name: str) -> Any:
    """The ``replay`` command of game ``name``, or None if the game has no narrate module."""
    from fairysim.analysis.report.replay import has_narrator

    spec = spec_of(name)
    if not has_narrator(spec):
        return None

    def body(**options: Any) -> None:
        run_replay(spec, **options)

    return make_command(
        handle_errors(body, flags=POLICY_FLAG | axis_flags(spec)),
        replay_params(spec),
        f"Replay one {spec.title} game of a run: the deal, each decision with the choices the "
        "seat had, the score after each round and the final breakdown (reference engine).",
    )


app = game_group(
    "Tell one game of a run as the rulebook tells it, decision by decision.",
    replay_command,
    game_names,
)

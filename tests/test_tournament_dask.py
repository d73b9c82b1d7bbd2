"""Tournaments on Dask: the same games, tables and ratings as in process, whatever the workers
and the task size; the cluster options refused in one line naming them.

One local cluster of two worker processes serves the module (reached through ``scheduler=``, as
a multi-machine run is); ``workers=`` starts a cluster of its own. The toy game of
tests/highcard keeps the compiles short.
"""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.analysis.tournament import play as tm
from fairysim.cli import app
from fairysim.runtime.errors import FairysimError

TOURNAMENT = {"policies": "stand,redraw-low,coin", "players": 3, "seed": 6}
GAMES = 500


@pytest.fixture(scope="module")
def in_process():
    return tm.play_tournament("highcard", **TOURNAMENT, games=GAMES)


def same_tournament(a: tm.Tournament, b: tm.Tournament) -> None:
    pd.testing.assert_frame_equal(a.rows, b.rows, check_exact=True)
    pd.testing.assert_frame_equal(tm.head_to_head(a), tm.head_to_head(b), check_exact=True)
    pd.testing.assert_frame_equal(tm.ratings(a), tm.ratings(b), check_exact=True)
    pd.testing.assert_frame_equal(tm.turn_order(a), tm.turn_order(b), check_exact=True)


def test_a_tournament_on_a_cluster_plays_the_games_it_plays_in_process(scheduler, in_process):
    done = []
    on_dask = tm.play_tournament(
        "highcard",
        **TOURNAMENT,
        games=GAMES,
        scheduler=scheduler,
        task_games=120,  # tasks cut across the chunks, in a different order on each worker
        chunk_games=50,
        progress=lambda d, t: done.append((d, t)),
    )
    same_tournament(on_dask, in_process)
    assert done[-1] == (len(in_process.rows) // 3, len(in_process.rows) // 3)


def test_the_local_cluster_of_workers_gives_the_same_tournament(in_process):
    same_tournament(
        tm.play_tournament("highcard", **TOURNAMENT, games=GAMES, workers=1, task_games=200),
        in_process,
    )


def test_a_tournament_to_a_precision_on_a_cluster_stops_where_it_stops_in_process(scheduler):
    options = {**TOURNAMENT, "precision": 0.03, "first_look": 100, "max_games": 800}
    here = tm.play_tournament("highcard", **options)
    there = tm.play_tournament("highcard", **options, scheduler=scheduler, task_games=70)
    assert len(here.precision.looks) >= 2  # the looks extend the games on the workers too
    assert there.precision.looks == here.precision.looks
    same_tournament(there, here)


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"workers": 0}, "workers"),
        ({"workers": 2, "scheduler": "tcp://localhost:8786"}, "workers"),
        ({"scheduler": "not an address"}, "scheduler"),
        ({"task_games": 100}, "task_games"),
        ({"workers": 1, "task_games": 0}, "task_games"),
    ],
)
def test_bad_cluster_options_name_the_option_before_any_game(options, where):
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", **TOURNAMENT, games=10, **options)
    assert error.value.where == where


def test_the_command_prints_the_same_tables_on_a_cluster(scheduler):
    runner = CliRunner(env={"COLUMNS": "200"})
    args = ["tournament", "highcard", "--policies", "stand,coin", "--players", "2"]
    args += ["--games", "300", "--seed", "2"]
    here = runner.invoke(app, args)
    there = runner.invoke(app, [*args, "--scheduler", scheduler, "--task-games", "64"])
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    tables = [r.output.split("\n", 1)[1].split("Reproduce with")[0] for r in (here, there)]
    assert tables[0] == tables[1]
    bad = runner.invoke(app, [*args, "--task-games", "64"])
    assert bad.exit_code == 2 and bad.output.startswith("Error: --task-games: ")


def test_weighted_entries_on_a_cluster_play_their_weights(scheduler, tmp_path):
    """An entry's weights travel to the workers with its lineup (``NAME@FILE``)."""
    path = tmp_path / "weights.toml"
    path.write_text('["redraw-low"]\nbelow = 8.0\n')
    options = {"policies": f"redraw-low,redraw-low@{path},stand", "players": 2, "games": 300}
    on_dask = tm.play_tournament("highcard", **options, scheduler=scheduler, task_games=120)
    same_tournament(on_dask, tm.play_tournament("highcard", **options))

"""Errors name the Python parameter; the command line words it as its flag (issue 40, item 4)."""

from __future__ import annotations

import pickle

import pytest
from highcard.spec import NAME
from typer.testing import CliRunner

from fairysim.analysis.tournament import play as tm
from fairysim.cli import app
from fairysim.cli.common import POLICY_FLAG, flag_of
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.stats.precision import check_counts

runner = CliRunner(env={"COLUMNS": "1000"})


def test_a_parameter_error_reads_as_python_and_as_flags():
    error = ParameterError(
        "max_games", "only caps {precision}; give {precision} too", mentions=("precision",)
    )
    assert str(error) == "max_games: only caps precision; give precision too"
    assert error.worded(flag_of) == "--max-games: only caps --precision; give --precision too"


def test_braces_that_name_no_parameter_are_left_alone():
    error = ParameterError("weights", "{'w0': 1} is not name=value")
    assert str(error) == "weights: {'w0': 1} is not name=value"


def test_an_error_inside_a_value_keeps_its_parameter_worded():
    inner = ParameterError("policies", "unknown policy 'x'")
    outer = ParameterError.inside("variants", inner)
    assert str(outer) == "variants: policies: unknown policy 'x'"
    flags = {**POLICY_FLAG, "variants": "--variant"}
    assert outer.worded(lambda n: flag_of(n, flags)) == "--variant: --policy: unknown policy 'x'"
    moved = ParameterError.about("lineups", inner)
    assert moved.worded(lambda n: flag_of(n, POLICY_FLAG)) == "--policy: unknown policy 'x'"


def test_flag_of_leaves_what_is_no_parameter_name():
    assert [flag_of(n) for n in ("task_games", "--fan", "GAME", "score card")] == [
        "--task-games",
        "--fan",
        "GAME",
        "score card",
    ]


def test_errors_survive_pickling_with_their_fields():
    # A Dask task sends its error back to the process that words it.
    error = ParameterError("task_games", "give {scheduler}", mentions=("scheduler",))
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is ParameterError
    assert (back.where, back.message) == ("task_games", "give scheduler")
    assert back.worded(flag_of) == "--task-games: give --scheduler"
    plain = pickle.loads(pickle.dumps(FairysimError("cards.toml", "bad")))
    assert (type(plain), str(plain)) == (FairysimError, "cards.toml: bad")


@pytest.mark.parametrize(
    ("counts", "line"),
    [
        ((10, 0.05, None), "precision: give games or precision, not both"),
        ((None, None, None), "games: give games or precision"),
        ((10, None, 50), "max_games: only caps precision; give precision too"),
        ((None, 0.6, None), "precision: must be above 0 and at most 0.5, got 0.6"),
        ((None, 0.05, 0), "max_games: must be a positive whole number of games, got 0"),
    ],
)
def test_the_counts_are_checked_once_naming_parameters(counts, line):
    with pytest.raises(ParameterError) as error:
        check_counts(*counts, required=True)
    assert str(error.value) == line


def test_a_report_style_cap_beside_games_is_refused_as_capping_a_fixed_count():
    with pytest.raises(ParameterError) as error:
        check_counts(10, None, 50, default_precision=True)
    assert str(error.value) == "max_games: caps precision; games plays a fixed count"
    check_counts(None, None, 50, default_precision=True)  # caps the default precision


def test_the_tournament_names_its_parameters_and_the_command_its_flags():
    with pytest.raises(ParameterError) as error:
        tm.play_tournament(NAME, policies="coin,stand", players=2, games=10, task_games=5)
    assert str(error.value) == "task_games: sizes Dask tasks: give scheduler or workers"
    with pytest.raises(ParameterError) as error:
        tm.play_tournament(NAME, policies="coin,stand", players=2, games=10, chunk_games=0)
    assert str(error.value) == "chunk_games: must be a positive whole number, got 0"
    result = runner.invoke(
        app, ["tournament", NAME, "--policy", "coin,stand", "--games", "10", "--chunk-games", "0"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.strip() == "Error: --chunk-games: must be a positive whole number, got 0"


def test_the_tournament_plays_its_own_default_count():
    assert tm.GAMES == 2_000
    t = tm.play_tournament(NAME, policies="coin,stand", players=2)
    assert t.games == tm.GAMES

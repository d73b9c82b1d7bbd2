"""The Python functions behind `fairysim simulate` (fairysim.analysis.studies.simulation) on
the toy game (tests/highcard): the same numbers as the command prints, errors that name the
Python parameter."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from highcard.spec import NAME
from typer.testing import CliRunner

from fairysim.analysis.report.formats import fmt_percent
from fairysim.analysis.studies import simulation
from fairysim.cli import app
from fairysim.cli import simulate as simulate_cli
from fairysim.runtime.errors import ParameterError
from fairysim.sim.game import get_game
from fairysim.sim.rotation import rotated_summary
from fairysim.sim.run import simulate_summary

runner = CliRunner(env={"COLUMNS": "1000"})


def setup_of(policies: str = "coin", players: int = 3, seed: int = 4):
    return get_game(NAME).make_setup(players=players, policies=policies, seed=seed)


def printed_rows(*args: str) -> list[tuple[int, float, float, float]]:
    """The table rows `fairysim simulate` prints: (row, win share, low, high), shares printed in
    percent with one decimal, a turn position as "1st" (row 0)."""
    result = runner.invoke(app, ["simulate", NAME, *args])
    assert result.exit_code == 0, result.output
    rows = []
    for text in result.output.splitlines():
        match = re.match(r"\s*(\d+)(?:st|nd|rd|th)? \S+\s+([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", text)
        if match:
            index, share, low, high = match.groups()
            turn = not text.strip().split()[0].isdigit()
            rows.append((int(index) - turn, float(share), float(low), float(high)))
    return rows


def rows_of(run: simulation.Simulation) -> list[tuple[int, float, float, float]]:
    corrected = run.corrected()
    key = corrected.columns[0]
    return [
        (int(row[key]), *(float(f"{100 * row[name]:.1f}") for name in ("win_share", "low", "high")))
        for row in corrected.to_dict("records")
    ]


def test_the_command_line_defaults_mirror_the_library():
    assert (simulate_cli.GAMES, simulate_cli.MAX_GAMES) == (simulation.GAMES, simulation.MAX_GAMES)


def test_a_fixed_run_is_simulate_summary_and_prints_the_same_numbers():
    run = simulation.simulate_setup(setup_of(), games=1500, chunk_games=400)
    assert (run.games, run.deals, run.reached, run.looks) == (1500, 1500, None, [])
    direct = simulate_summary(setup_of(), 1500, by_turn=run.rows_are == simulation.TURN)
    pd.testing.assert_frame_equal(run.summary, direct)
    printed = printed_rows("--policy", "coin", "--games", "1500", "--seed", "4")
    assert printed == rows_of(run)


def test_a_run_to_precision_stops_at_a_look_and_prints_the_same_numbers():
    run = simulation.simulate_setup(setup_of(), precision=0.05, max_games=20_000)
    assert run.reached is not None and run.reached.reached
    assert run.games == run.reached.games in run.reached.planned
    assert run.alpha == pytest.approx(0.05 / len(run.reached.planned))
    widest = float(run.corrected()["half_width"].max())
    assert widest <= 0.05
    args = ("--policy", "coin", "--precision", "0.05", "--max-games", "20000", "--seed", "4")
    assert printed_rows(*args) == rows_of(run)


def test_simulate_to_precision_holds_the_games_of_a_fixed_run_of_its_length():
    setup = setup_of()
    summary, reached = simulation.simulate_to_precision(setup, 0.05, max_games=20_000)
    fixed = simulate_summary(setup, reached.games)
    pd.testing.assert_series_equal(summary["wins"], fixed["wins"])


def test_a_mixed_lineup_is_rotated_and_prints_the_same_numbers():
    setup = setup_of("stand,coin,redraw-low")
    run = simulation.simulate_setup(setup, games=600)
    assert run.rows_are == simulation.ENTRY
    assert (run.deals, run.games, run.seat_rows) == (600, 1800, 1800 * setup.seats)
    pd.testing.assert_frame_equal(run.summary, rotated_summary(setup, 600))
    printed = printed_rows("--policy", "stand,coin,redraw-low", "--games", "600", "--seed", "4")
    assert printed == rows_of(run)


def test_a_mixed_lineup_to_precision_counts_deals_and_prints_the_same_numbers():
    setup = setup_of("stand,coin,redraw-low")
    run = simulation.simulate_setup(setup, precision=0.05, max_games=16_000)
    assert run.reached is not None and run.reached.unit.startswith(f"deals ({run.games:,} games")
    assert run.games == run.deals * 3
    args = ("--policy", "stand,coin,redraw-low", "--precision", "0.05", "--max-games", "16000")
    assert printed_rows(*args, "--seed", "4") == rows_of(run)
    summary, reached = simulation.rotated_to_precision(setup, 0.05, max_games=16_000)
    assert reached.games == run.deals
    pd.testing.assert_frame_equal(summary, run.summary)


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"games": 10, "precision": 0.05}, "precision: give games or precision, not both"),
        ({"games": 10, "max_games": 50}, "max_games: only caps precision; give precision too"),
        ({"precision": 0.7}, "precision: must be above 0 and at most 0.5, got 0.7"),
        ({"games": 0}, "games: must be a positive whole number of games, got 0"),
        ({"chunk_games": 0}, "chunk_games: must be between 1 and 4,194,304 games, got 0"),
        ({"threads": 0}, "threads: must be a positive whole number, got 0"),
        ({"out": "rows.csv"}, "out: rows.csv must end in .parquet"),
    ],
)
def test_errors_name_the_python_parameter(options, line):
    with pytest.raises(ParameterError) as error:
        simulation.simulate_setup(setup_of(), **options)
    assert str(error.value) == line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--games", "10", "--precision", "0.05"],
            "--precision: give --games or --precision, not both",
        ),
        (
            ["--games", "10", "--max-games", "50"],
            "--max-games: only caps --precision; give --precision too",
        ),
        (["--chunk-games", "0"], "--chunk-games: must be between 1 and 4,194,304 games, got 0"),
        (["--policy", "nosuch"], "--policy: unknown policy 'nosuch'"),
    ],
)
def test_the_command_line_words_them_as_its_flags(args, line):
    result = runner.invoke(app, ["simulate", NAME, *args])
    assert result.exit_code == 2, result.output
    (printed,) = result.output.strip().splitlines()
    assert printed.startswith(f"Error: {line}")


def test_a_balance_card_is_the_one_metrics_prints():
    card = simulation.simulate_balance(setup_of("stand"), games=800)
    result = runner.invoke(
        app, ["metrics", NAME, "--policy", "stand", "--games", "800", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert len(card.turn_order) == 3
    for row in card.turn_order.itertuples(index=False):
        assert f" {fmt_percent(row.win_share)} " in result.output


def test_a_balance_card_refuses_a_bad_count_naming_the_parameter():
    with pytest.raises(ParameterError) as error:
        simulation.simulate_balance(setup_of(), games=0)
    assert str(error.value) == "games: must be a positive whole number of games, got 0"

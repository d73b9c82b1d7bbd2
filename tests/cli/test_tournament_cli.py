"""`fairysim tournament GAME` end to end on the toy game: tables printed, Parquet saved with the
run's metadata, and bad input as one line with exit code 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.batch import read_results

runner = CliRunner(env={"COLUMNS": "200"})


def tournament(*args: str):
    return runner.invoke(app, ["tournament", "highcard", *args])


def assert_one_line_error(result, option: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output


def test_prints_tables_and_saves_parquet_with_metadata(tmp_path):
    result = tournament(
        "--policies",
        "stand,redraw-low",
        "--players",
        "2",
        "--games",
        "100",
        "--seed",
        "4",
        "--out-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    assert "Rating (Bradley-Terry" in result.output
    assert "Head to head" in result.output
    assert "turn order" in result.output
    assert "1 mixes x 2 seat rotations x 100 games = 200 games" in result.output
    seats, meta = read_results(tmp_path / "tournament_seats.parquet")
    assert len(seats) == 200 * 2
    assert meta["game"] == "highcard"
    assert meta["config"]["policies"] == ["stand", "redraw-low"]
    assert meta["config"]["seed"] == 4 and meta["config"]["games_per_pairing"] == 100
    ratings, rmeta = read_results(tmp_path / "tournament_ratings.parquet")
    assert rmeta["table"] == "ratings" and set(ratings["entry"]) == {"stand", "redraw-low"}
    matrix, _ = read_results(tmp_path / "tournament_head_to_head.parquet")
    assert len(matrix) == 2
    order, _ = read_results(tmp_path / "tournament_turn_order.parquet")
    assert set(order["position"]) == {0, 1}


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--policies", "stand"], "--policies"),
        (["--policies", "stand,nosuch"], "--policies"),
        (["--policies", "stand,coin", "--players", "7"], "--players"),
        (["--policies", "stand,coin", "--games", "0"], "--games"),
        (["--policies", "stand,coin", "--out-dir", "/no/such/folder"], "--out-dir"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, option):
    assert_one_line_error(tournament(*args), option)

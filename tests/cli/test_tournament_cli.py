"""`fairysim tournament GAME` end to end on the toy game: tables printed, Parquet saved with the
run's metadata, and bad input as one line with exit code 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.batch import read_results

runner = CliRunner(env={"COLUMNS": "1000"})


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
        "--policy",
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
    assert "Win share by turn position" in result.output and "1st" in result.output
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
    assert set(order["turn_position"]) == {1, 2}
    assert set(seats["turn_position"]) == {1, 2} and "position" not in seats.columns


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--policy", "stand"], "--policy"),
        (["--policy", "stand,nosuch"], "--policy"),
        (["--policy", "stand,coin", "--players", "7"], "--players"),
        (["--policy", "stand,coin", "--games", "0"], "--games"),
        (["--policy", "stand,coin", "--out-dir", "/proc/no/such/folder"], "--out-dir"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, option):
    assert_one_line_error(tournament(*args), option)


def test_precision_prints_and_saves_what_it_reached(tmp_path):
    """Asked wide enough for the first look (1,000 games per pairing) to reach it."""
    result = tournament(
        "--policy",
        "stand,redraw-low,coin",
        "--players",
        "2",
        "--precision",
        "0.04",
        "--max-games",
        "4000",
        "--seed",
        "4",
        "--out-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "3 mixes x 2 seat rotations x 1,000 games = 6,000 games" in out
    assert "precision reached: every head-to-head share within +/-" in out
    assert "(asked 0.0400, corrected, at 98.33% for the 3 looks planned)" in out
    assert "Looks: 1,000 games per (mix, rotation) of 1,000, 2,000, 4,000 planned" in out
    assert "stopped by the --max-games cap: no" in out
    assert "98.33% CI" in out
    reproduce = (
        "fairysim tournament highcard --policy stand,redraw-low,coin --players 2 "
        "--precision 0.04 --max-games 4000 --seed 4"
    )
    assert f"Reproduce with `{reproduce}`" in out
    for name in ("seats", "ratings", "head_to_head", "turn_order"):
        _, meta = read_results(tmp_path / f"tournament_{name}.parquet")
        assert meta["reproduce"] == reproduce
        precision = meta["config"]["precision"]
        assert precision["asked"] == 0.04 and precision["reached"]
        assert precision["games_per_pairing"] == 1000 == meta["config"]["games_per_pairing"]
        assert precision["looks"] == [1000] and precision["looks_planned"] == [1000, 2000, 4000]
        assert precision["stopped_by_cap"] is False
        assert 0 < precision["widest_half_width"] <= 0.04
    matrix, _ = read_results(tmp_path / "tournament_head_to_head.parquet")
    assert ((matrix["high"] - matrix["low"]) / 2).max() == pytest.approx(
        precision["widest_half_width"]
    )


def test_precision_cap_stops_it_and_says_so():
    result = tournament(
        "--policy", "stand,coin", "--players", "2", "--precision", "0.01", "--max-games", "300"
    )
    assert result.exit_code == 0, result.output
    assert "--max-games 300 reached before --precision 0.01" in result.output
    assert "stopped by the --max-games cap: yes" in result.output
    assert "x 300 games = 600 games" in result.output


def test_fixed_games_reproduce_line_and_default_count():
    result = tournament("--policy", "stand,coin", "--players", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "x 2,000 games" in result.output
    assert (
        "Reproduce with `fairysim tournament highcard --policy stand,coin --players 2 "
        "--games 2000 --seed 3`" in result.output
    )


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--games", "100", "--precision", "0.05"], "--precision"),
        (["--precision", "0.7"], "--precision"),
        (["--precision", "0"], "--precision"),
        (["--precision", "-0.1"], "--precision"),
        (["--max-games", "100"], "--max-games"),
        (["--precision", "0.05", "--max-games", "0"], "--max-games"),
    ],
)
def test_bad_precision_is_one_line_exit_2_and_writes_nothing(tmp_path, args, option):
    result = tournament("--policy", "stand,coin", *args, "--out-dir", str(tmp_path))
    assert_one_line_error(result, option)
    assert list(tmp_path.iterdir()) == []


def test_precision_message_matches_the_shared_check():
    from fairysim.runtime.errors import FairysimError
    from fairysim.stats.precision import check_precision

    with pytest.raises(FairysimError) as error:
        check_precision(0.7)
    result = tournament("--policy", "stand,coin", "--precision", "0.7")
    assert result.output.strip() == f"Error: --precision: {error.value.message}"


def test_help_constants_mirror_the_analysis():
    from fairysim.analysis.tournament import play as tm
    from fairysim.cli import tournament as cli

    assert cli.FIRST_LOOK == tm.FIRST_LOOK
    assert cli.PRECISION_MAX_GAMES == tm.PRECISION_MAX_GAMES


def test_a_balanced_sample_is_played_and_described():
    policies = ",".join(["stand", "coin", "redraw-low", "stand", "coin"] * 2)
    result = tournament("--policy", policies, "--players", "4", "--games", "3", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "30 mixes x 4 seat rotations x 3 games = 360 games" in result.output
    assert "Mixes: a balanced sample of 30 of the 705 mixes" in result.output
    assert "every ordered pair of entries meets 16 times and each entry at each seat 12 times" in (
        result.output
    )

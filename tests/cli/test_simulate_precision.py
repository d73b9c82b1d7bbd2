"""`fairysim simulate --precision H --max-games N` on the toy game (tests/highcard)."""

from __future__ import annotations

import re

import pytest
from highcard.spec import NAME
from typer.testing import CliRunner

from fairysim.cli import app

runner = CliRunner(env={"COLUMNS": "200"})


def simulate(*args: str):
    return runner.invoke(app, ["simulate", NAME, "--policy", "coin", *args])


def test_precision_stops_when_reached_and_says_so():
    result = simulate("--precision", "0.05", "--max-games", "100000", "--chunk-games", "300")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("precision reached"))
    games = int(re.search(r"after ([\d,]+) games", line).group(1).replace(",", ""))
    assert games in (1000, 2000, 4000, 8000) and games < 100_000
    widest = float(re.search(r"within \+/-([\d.]+)", line).group(1))
    assert widest <= 0.05


def test_cap_reached_first_is_one_line():
    result = simulate("--precision", "0.001", "--max-games", "1500")
    assert result.exit_code == 0, result.output
    assert any(x.startswith("--max-games 1,500 reached") for x in result.output.splitlines())


@pytest.mark.parametrize("value", ["0", "0.7", "-1"])
def test_bad_precision_is_one_line_exit_2(value):
    result = simulate("--precision", value)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"Error: --precision: must be above 0 and at most 0.5, got {float(value)}"
    ]


def test_bad_max_games_is_one_line_exit_2():
    result = simulate("--precision", "0.05", "--max-games", "0")
    assert result.exit_code == 2, result.output
    assert result.output.strip().startswith("Error: --max-games: ")

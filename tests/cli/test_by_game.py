"""Commands made from the game registry: the toy game of tests/highcard, which no line of src/
names, runs through `fairysim simulate`, `policies`, `bench`; and the command line, sweeps and the
benchmark name no game."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.batch import read_results
from fairysim.sim.game import games

SRC = Path(__file__).resolve().parents[2] / "src" / "fairysim"

runner = CliRunner(env={"COLUMNS": "1000"})


def test_the_toy_game_simulates_and_saves_its_rows(tmp_path):
    out = tmp_path / "high.parquet"
    args = ["--players", "4", "--policy", "stand,redraw-low,coin,stand", "--deck", "SHORT"]
    result = runner.invoke(
        app, ["simulate", "highcard", *args, "--games", "300", "--seed", "4", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "High card, 4 players, short deck, 300 deals x 4 seat rotations" in result.output
    assert "redraw-low" in result.output
    df, meta = read_results(out)
    assert len(df) == 300 * 4 * 4
    assert set(df.deck) == {"short"}
    assert df.score.between(1, 6).all()
    assert meta["game"] == "highcard"
    assert meta["config"]["deck"] == "short"


def test_the_toy_game_refuses_a_bad_axis_value_in_one_line():
    result = runner.invoke(app, ["simulate", "highcard", "--deck", "tiny"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --deck: must be one of short, long, got 'tiny'"
    ]


def test_the_toy_game_lists_its_policies():
    result = runner.invoke(app, ["policies", "highcard"])
    assert result.exit_code == 0, result.output
    for name in ("coin", "stand", "redraw-low", "below=5"):
        assert name in result.output


def test_help_lists_every_registered_game():
    for command in ("simulate", "policies"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, result.output
        for name in games():
            assert name in result.output


def test_an_unknown_game_is_one_line():
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "chess" in result.output


def test_the_command_line_sweeps_and_bench_name_no_game():
    words = set()
    for spec in games().values():
        words |= {spec.name, spec.title.lower()}
        words |= {axis.name for axis in spec.axes}
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + ")", re.IGNORECASE)
    files = [*(SRC / "cli").rglob("*.py"), *(SRC / "sweep").rglob("*.py"), SRC / "bench.py"]
    files += [
        SRC / "analysis" / name
        for name in (
            "studies/variants.py",
            "studies/what_if.py",
            "studies/simulation.py",
            "report/what_if.py",
        )
    ]
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []

"""Hostile counts (issue 41): one game is refused in one line naming the option, before any game
is played, by every command whose numbers carry intervals; two games give intervals within
what a game can have; the verdict line under a table never speaks of rows that are not there."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.cli.simulate import verdict_line

RUNNER = CliRunner(env={"COLUMNS": "1000"})

ONE_GAME = [
    (["simulate", "highcard", "--games", "1"], "--games"),
    (["metrics", "fantastique", "--games", "1"], "--games"),
    (["tournament", "highcard", "--policy", "stand,coin", "--games", "1"], "--games"),
    (["compare", "highcard", "--games", "1", "--variant", "policies=coin", "--out-dir", "o"],
     "--games"),
    (["sweep", "highcard", "--games", "1", "--out-dir", "o"], "--games"),
    (["report", "fantastique", "--games", "1", "--out-dir", "o"], "--games"),
    (["report", "fantastique", "--card-games", "1", "--out-dir", "o"], "--card-games"),
    (["simulate", "highcard", "--precision", "0.05", "--max-games", "1"], "--max-games"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "option"), ONE_GAME, ids=lambda a: " ".join(a[:1]))
def test_one_game_is_one_line_naming_the_option(args, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {option}: "), result.output
    assert "at least 2 games" in lines[0]
    assert not any(tmp_path.iterdir())  # nothing written


def test_two_games_give_shares_and_margins_within_their_range():
    result = RUNNER.invoke(
        app, ["metrics", "fantastique", "--games", "2", "--players", "4", "--threads", "1"]
    )
    assert result.exit_code == 0, result.output
    percents = [float(p) for p in re.findall(r"(-?[\d.]+)%", result.stdout)]
    assert percents and all(0 <= p <= 100 for p in percents), result.stdout
    assert not re.search(r"\[-\d", result.stdout), result.stdout  # no negative margin or share


def rows(significant: list[bool]) -> pd.DataFrame:
    n = len(significant)
    return pd.DataFrame(
        {"seat": range(n), "significant": significant, "win_share": [0.5] * n, "fair": 1 / n}
    )


@pytest.mark.parametrize(
    ("significant", "tail"),
    [
        ([True, True], "(their corrected intervals exclude it)"),
        ([True, True, False], "; the other row does not differ"),
        ([True, False, False, False], "; the other 3 rows do not differ"),
    ],
)
def test_the_verdict_line_counts_the_rows_that_do_not_differ(significant, tail):
    line = verdict_line(rows(significant))
    assert line.endswith(tail), line

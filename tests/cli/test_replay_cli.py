"""`fairysim replay GAME` end to end: the game's text, `--html`, and one-line errors that write
nothing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.analysis.replay import DECISION_MARK, replay
from fairysim.cli import app
from fairysim.sim.game import games

runner = CliRunner(env={"COLUMNS": "200"})


def assert_one_line_error(result, option: str) -> None:
    """Exit 2, one line naming ``option``, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["fantastique", "concerto", "fairyland"])
def test_replay_prints_the_game_and_writes_html(name, tmp_path):
    page = tmp_path / "game.html"
    args = ["replay", name, "--players", "2", "--seed", "5", "--game", "2", "--games", "10"]
    result = runner.invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    spec = games()[name]
    setup = spec.make_setup(players=2, policies="greedy", seed=5, cards=spec.load_cards(None))
    expected = replay(spec, setup, 2)
    printed = result.output.splitlines()
    assert printed[: len(expected.lines)] == [line.text for line in expected.lines]
    assert sum(line.startswith(DECISION_MARK) for line in printed) == len(expected.decisions)
    assert printed[-1] == f"Wrote {page}"
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "Final scoring" in text


@pytest.mark.parametrize(
    ("extra", "option"),
    [
        (["--game", "-1"], "--game"),
        (["--game", "10", "--games", "10"], "--game"),
        (["--policy", "no_such_policy"], "--policy"),
        (["--players", "9"], "--players"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(extra, option, tmp_path):
    page = tmp_path / "game.html"
    result = runner.invoke(app, ["replay", "fantastique", "--html", str(page), *extra])
    assert_one_line_error(result, option)
    assert not page.exists()


def test_bad_html_path_is_one_line(tmp_path):
    result = runner.invoke(app, ["replay", "fantastique", "--html", str(tmp_path / "x.txt")])
    assert_one_line_error(result, "--html")
    assert list(tmp_path.iterdir()) == []

"""`fairysim replay GAME` end to end: the game's text, `--html`, and one-line errors that write
nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from fairysim.analysis.report.replay import DECISION_MARK, replay
from fairysim.cli import app
from fairysim.sim.game import games

runner = CliRunner(env={"COLUMNS": "1000"})


def assert_one_line_error(result, option: str) -> None:
    """Exit 2, one line naming ``option``, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("name", "players"), [("fantastique", 2), ("concerto", 2), ("concerto", 1), ("fairyland", 3)]
)
def test_replay_prints_the_game_and_writes_html(name, players, tmp_path):
    page = tmp_path / "game.html"
    args = ["replay", name, "--players", str(players), "--seed", "5", "--game", "2"]
    result = runner.invoke(app, [*args, "--games", "10", "--html", str(page)])
    assert result.exit_code == 0, result.output
    spec = games()[name]
    setup = spec.make_setup(players=players, policies="greedy", seed=5, cards=spec.load_cards(None))
    expected = replay(spec, setup, 2)
    printed = result.output.splitlines()
    assert printed[: len(expected.lines)] == [line.text for line in expected.lines]
    assert sum(line.startswith(DECISION_MARK) for line in printed) == len(expected.decisions)
    assert printed[-1] == f"Wrote {page}"
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "Final scoring" in text
    assert "Winner: " in text


def test_replay_help_loads_no_engine():
    """Listing the games (and one game's options) imports no reference engine: it would load
    the game's compiled policies, minutes of compiling on a cold cache."""
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from fairysim.cli import app\n"
        "for args in (['replay', '--help'], ['replay', 'fairyland', '--help']):\n"
        "    result = CliRunner().invoke(app, args)\n"
        "    assert result.exit_code == 0, result.output\n"
        "print(sorted(m for m in sys.modules if m.startswith('fairysim.sim.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    loaded = done.stdout.strip()
    assert "fairysim.sim.fairyland.spec" in loaded  # the games were listed
    assert ".reference'" not in loaded and ".narrate'" not in loaded, loaded


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

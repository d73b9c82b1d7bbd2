"""The test session's warm-up compiles what a run needs (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS, WARM_TASKS, warm_tasks


@pytest.mark.parametrize(
    ("args", "games"),
    [
        (["tests"], {"concerto", "fairyland", "fantastique"}),
        (["tests/fairyland"], {"fairyland"}),
        (["tests/concerto", "tests/fantastique"], {"concerto", "fantastique"}),
        (["tests/fairyland", "tests/cli"], {"concerto", "fairyland", "fantastique"}),
        (["tests/fairyland/test_rules.py"], set()),
        (["tests/fairyland/test_rules.py::test_x"], set()),
    ],
)
def test_a_run_warms_the_games_its_folders_need(args, games, monkeypatch):
    monkeypatch.chdir(TESTS.parent)
    assert {game for game, _ in warm_tasks(args)} == games


def test_every_warm_task_names_a_game_with_a_test_folder():
    assert all(Path(TESTS, game).is_dir() for game, _ in WARM_TASKS)


def test_a_games_lanes_warm_after_its_engine_in_the_same_process():
    """Lanes fall back to the engine for tables they do not serve: warmed in a process of their
    own, they would compile the engine a second time."""
    games = [game for game, _ in WARM_TASKS]
    assert len(games) == len(set(games))
    for _, parts in WARM_TASKS:
        assert parts[0] == "engine"
        assert set(parts) <= {"engine", "lanes", "search"}

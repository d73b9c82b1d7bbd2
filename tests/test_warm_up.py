"""The test session's warm-up compiles what a run needs (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import LANES_ALONE, TESTS, WARM_TASKS, warm_tasks


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
    own, they would compile the engine a second time (unless they serve every table)."""
    warmed = [(game, part) for game, parts in WARM_TASKS for part in parts]
    assert len(warmed) == len(set(warmed))
    for game, parts in WARM_TASKS:
        assert set(parts) <= {"engine", "lanes", "search"}
        assert parts[0] == "engine" or (parts == ("lanes",) and game in LANES_ALONE)
        assert (game, "engine") in warmed


def test_the_long_files_run_first_and_the_rest_keep_their_order():
    from types import SimpleNamespace

    from conftest import LONGEST_FIRST, pytest_collection_modifyitems

    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    assert all(Path(TESTS, name).is_file() for name in LONGEST_FIRST)
    names = ["a/test_x.py", LONGEST_FIRST[1], "b/test_y.py", LONGEST_FIRST[0], "a/test_x.py"]
    items = [SimpleNamespace(path=TESTS / name, n=n) for n, name in enumerate(names)]
    pytest_collection_modifyitems(None, items)
    assert [item.n for item in items] == [3, 1, 0, 2, 4]

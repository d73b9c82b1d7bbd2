"""The test session's warm-up compiles what a run needs (tests/conftest.py)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import conftest
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


def test_the_tests_wait_for_the_warm_up_and_the_workers_for_a_free_core(monkeypatch):
    """``wait_for_warm_up(running=k)`` returns once at most k tasks are unfinished: the workers
    start beside the last task (k = cores - 1), the first test after every task (k = 0)."""
    gates = [threading.Event() for _ in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(gate.wait, 30) for gate in gates]
        monkeypatch.setattr(conftest, "WARMING", futures)
        finished = threading.Event()

        def wait_then_mark(running):
            conftest.wait_for_warm_up(running)
            finished.set()

        for release, running in ((gates[:2], 1), (gates[2:], 0)):
            finished.clear()
            waiter = threading.Thread(target=wait_then_mark, args=(running,))
            waiter.start()
            assert not finished.wait(0.2)  # more than `running` tasks still play
            for gate in release:
                gate.set()
            assert finished.wait(10)
            waiter.join()
            assert sum(not f.done() for f in futures) <= running


def test_the_warm_up_says_each_part_as_it_starts_and_ends(tmp_path, monkeypatch):
    """What a warm-up process prints (``warm_kernels.py``: a line per part started and ended)
    reaches pytest's terminal through the controlling process, and a failed process says so."""
    from types import SimpleNamespace

    script = tmp_path / "warm.py"
    script.write_text(
        "import sys\n"
        "print('start toy engine', flush=True)\n"
        "print('done toy engine in 3 s (loaded from the cache)', flush=True)\n"
        "print('start toy lanes', flush=True)\n"
        "sys.exit(1)\n"
    )
    said: list[str] = []
    reporter = SimpleNamespace(write_line=said.append)
    config = SimpleNamespace(pluginmanager=SimpleNamespace(get_plugin=lambda name: reporter))
    monkeypatch.setattr(conftest, "WARM_KERNELS", script)
    monkeypatch.setattr(conftest, "WARM_UP_SAYS", [config])
    monkeypatch.setattr(conftest, "COMPILING", {})
    conftest._warm(("toy", ("engine", "lanes")))
    assert conftest.say_warm_up_lines()
    assert said == [
        "warm-up: toy engine: compiling (or loading from the cache)",
        "warm-up: toy engine: ready in 3 s (loaded from the cache)",
        "warm-up: toy lanes: compiling (or loading from the cache)",
        "warm-up: toy engine lanes failed (exit 1); the tests that need it compile it and show why",
    ]
    assert conftest.COMPILING == {}

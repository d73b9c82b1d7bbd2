"""The search player's kernel compiled in the background of a report (fairysim.jit.ahead)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from fairysim.analysis.studies.base import search_ahead
from fairysim.jit import ahead as compile_ahead
from fairysim.sim.game import get_game


@pytest.fixture
def background(monkeypatch, tmp_path):
    """compile_ahead with a stand-in process: it writes its pid and session to a file, then sleeps
    ``seconds`` (the first player count given) before it writes ``done``."""
    script = (
        "import os, sys, time; from pathlib import Path; folder = Path(sys.argv[1]); "
        "(folder / 'started').write_text(f'{os.getpid()} {os.getsid(0)}'); "
        "time.sleep(float(sys.argv[2])); (folder / 'done').write_text('1')"
    )
    monkeypatch.setattr(
        compile_ahead,
        "command",
        lambda game, players: [sys.executable, "-c", script, str(tmp_path), str(players[0])],
    )
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setenv(compile_ahead.ENV_SWITCH, "1")  # the suite turns it off (conftest.py)
    yield tmp_path
    compile_ahead.stop()


def started(folder) -> tuple[int, int]:
    for _ in range(200):
        if (folder / "started").exists() and (folder / "started").read_text():
            pid, session = (folder / "started").read_text().split()
            return int(pid), int(session)
        time.sleep(0.05)
    raise AssertionError("the background process did not start")


def test_wait_returns_when_the_background_compile_is_done_and_says_so(
    background, capsys, monkeypatch
):
    monkeypatch.setattr(compile_ahead, "QUIET_SECONDS", 0.1)
    compile_ahead.start("fantastique", [1])
    pid, session = started(background)
    assert session == pid != os.getsid(0)  # a session of its own: a terminal's Ctrl-C misses it
    compile_ahead.start("fantastique", [1])  # one at a time for a game
    compile_ahead.wait("fantastique", "Fantastique")
    assert (background / "done").exists()
    assert "finishing the Fantastique search player's compile" in capsys.readouterr().err
    compile_ahead.wait("fantastique", "Fantastique")  # nothing left to wait for
    assert capsys.readouterr().err == ""


def test_a_short_wait_says_nothing(background, capsys):
    compile_ahead.start("fantastique", [0.2])
    compile_ahead.wait("fantastique", "Fantastique")
    assert (background / "done").exists()
    assert capsys.readouterr().err == ""


def test_stop_ends_a_background_compile_still_running(background):
    compile_ahead.start("fantastique", [60])
    started(background)
    begun = time.perf_counter()
    compile_ahead.stop()
    assert time.perf_counter() - begun < 10
    assert not (background / "done").exists()


@pytest.mark.parametrize(("cores", "switch"), [(1, "1"), (2, "0")])
def test_one_core_or_the_switch_off_starts_nothing(background, monkeypatch, cores, switch):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    monkeypatch.setenv(compile_ahead.ENV_SWITCH, switch)
    compile_ahead.start("fantastique", [0])
    time.sleep(0.5)
    assert not (background / "started").exists()


@pytest.mark.parametrize(("search_games", "starts"), [(0, False), (400, True)])
def test_a_report_compiles_its_search_ahead_only_when_it_plays_it(
    monkeypatch, search_games, starts
):
    calls = []
    monkeypatch.setattr(compile_ahead, "start", lambda game, players: calls.append((game, players)))
    search_ahead(get_game("fantastique"), [5, 2, 2], search_games)
    assert calls == ([("fantastique", [2, 5])] if starts else [])


def test_the_warm_module_refuses_a_search_without_player_counts():
    done = subprocess.run(
        [sys.executable, "-m", "fairysim.jit.warm", "--search", "fantastique"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "--search GAME PLAYERS" in done.stderr

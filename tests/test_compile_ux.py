"""Compiling as a user meets it (issue 25): the notice on stderr while numba compiles a game's
kernels (fairysim.jit.notice), ``fairysim compile`` and ``fairysim bench --compile``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.jit import notice as compile_notice
from fairysim.sim.game import GAMES, get_game

runner = CliRunner(env={"COLUMNS": "1000"})

SRC = Path(__file__).resolve().parents[1] / "src"

KERNEL = """
import numba

@numba.njit
def twice(x):
    return 2 * x

@numba.njit
def thrice(x):
    return 3 * x
"""


def toy_game(monkeypatch, name: str, package: str, seconds: int | None = 7):
    """A registered game whose package is ``package`` (the toy game of tests/highcard with
    another name, package and estimate), removed from the registry after the test."""
    spec = replace(
        get_game("highcard"),
        name=name,
        title=f"Toy {name}",
        package=package,
        compile_seconds=seconds,
    )
    monkeypatch.setitem(GAMES, name, spec)
    return spec


def fairysim_command(*args: str, cache: Path, **env: str) -> subprocess.CompletedProcess:
    """``python -m fairysim ARGS`` in a new process with numba's cache in ``cache``; stdout and
    stderr are pipes, not terminals."""
    environment = {
        **os.environ,
        "FAIRYSIM_CACHE_DIR": str(cache),
        "NUMBA_NUM_THREADS": "1",
        "PYTHONPATH": str(SRC),
        **env,
    }
    environment.pop("FAIRYSIM_COMPILE_NOTICE", None)
    return subprocess.run(
        [sys.executable, "-m", "fairysim", *args],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_games_first_compile_says_so_once_on_stderr(tmp_path, monkeypatch, capsys):
    package = tmp_path / "notice_toy_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    toy_game(monkeypatch, "noticetoy", "notice_toy_pkg")
    from notice_toy_pkg.kernel import thrice, twice

    assert twice(2) == 4  # compiles: numba fires its compile event
    assert thrice(2) == 6  # the same game again: no second line
    err = capsys.readouterr().err
    expected = (
        "fairysim: compiling the Toy noticetoy engine for this machine, first run only, about 7 s\n"
    )
    assert err == expected
    total = compile_notice.compile_totals()["noticetoy"]
    assert total.compiles == 2
    assert total.seconds > 0


def test_a_compile_outside_every_games_package_says_nothing(capsys):
    import numba

    @numba.njit
    def plain(x):
        return x + 1

    assert plain(1) == 2
    assert "compiling" not in capsys.readouterr().err


def test_a_long_compile_says_so_again_every_tick(monkeypatch, capsys):
    monkeypatch.setattr(compile_notice, "TICK_SECONDS", 0.2)
    toy_game(monkeypatch, "ticktoy", "tick_toy_pkg", seconds=None)
    dispatcher = SimpleNamespace(py_func=SimpleNamespace(__module__="tick_toy_pkg.engine"))
    compile_notice._on_start(dispatcher)
    time.sleep(0.75)
    compile_notice._on_end()
    time.sleep(0.5)  # the compile is over: no more lines
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "fairysim: compiling the Toy ticktoy engine for this machine, first run only"
    ticks = lines[1:]
    assert 2 <= len(ticks) <= 4, lines
    assert all(
        line.startswith("fairysim: still compiling the Toy ticktoy engine, ") for line in ticks
    )
    assert ticks[-1].endswith(" s so far")


def test_the_notice_can_be_turned_off(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAIRYSIM_COMPILE_NOTICE", "0")
    toy_game(monkeypatch, "quiettoy", "quiet_toy_pkg")
    dispatcher = SimpleNamespace(py_func=SimpleNamespace(__module__="quiet_toy_pkg"))
    compile_notice._on_start(dispatcher)
    compile_notice._on_end()
    assert capsys.readouterr().err == ""
    assert compile_notice.compile_totals()["quiettoy"].compiles == 1


def test_a_command_compiling_from_a_cold_cache_says_so_on_a_non_terminal_stderr(tmp_path):
    """Replaying one game compiles only the policy the reference engine asks (random, the
    cheapest compile of a real game: built-ins compile on first use); a second run finds it in
    the cache and says nothing. Listing the policies compiles nothing at all."""
    spec = get_game("fantastique")
    args = ("replay", spec.name, "--players", "2", "--policy", "random", "--games", "1")
    listing = fairysim_command("policies", spec.name, cache=tmp_path)
    assert listing.returncode == 0 and "greedy" in listing.stdout
    assert "compiling" not in listing.stderr
    cold = fairysim_command(*args, cache=tmp_path)
    assert cold.returncode == 0, cold.stderr
    headline = (
        f"fairysim: compiling the {spec.title} engine for this machine, first run only, "
        f"about {spec.compile_seconds} s"
    )
    assert cold.stderr.splitlines()[0] == headline
    warm = fairysim_command(*args, cache=tmp_path)
    assert warm.returncode == 0, warm.stderr
    assert "compiling" not in warm.stderr


@pytest.mark.slow
def test_a_cold_simulate_says_so_before_its_table(tmp_path):
    spec = get_game("fantastique")
    cold = fairysim_command("simulate", spec.name, "--players", "2", "--games", "4", cache=tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert f"compiling the {spec.title} engine" in cold.stderr.splitlines()[0]
    assert "4 games" in cold.stdout


def test_compile_names_each_part_and_its_time():
    result = runner.invoke(app, ["compile", "highcard"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Cache: ")
    assert [line.split(":")[0] for line in lines[1:]] == ["High card, engine", "High card, lanes"]
    assert all(line.split(": ")[1].split(" s ")[0].replace(".", "").isdigit() for line in lines[1:])


def test_compile_refuses_an_unknown_game_in_one_line():
    result = runner.invoke(app, ["compile", "highcard", "chess"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "unknown game 'chess'" in result.stderr
    assert "High card" not in result.stdout  # nothing compiled before the refusal


@pytest.mark.slow
def test_compile_fills_a_cold_cache_then_finds_it_full(tmp_path):
    first = fairysim_command("compile", "fantastique", cache=tmp_path)
    assert first.returncode == 0, first.stderr
    parts = [line for line in first.stdout.splitlines() if line.startswith("Fantastique, ")]
    assert len(parts) == 2
    assert "compiled " in parts[0] and " functions in " in parts[0]
    again = fairysim_command("compile", "fantastique", cache=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("nothing to compile, all in the cache") == 2
    assert "compiling" not in again.stderr


def test_bench_compile_times_a_cold_first_run_in_a_new_process(tmp_path):
    out = tmp_path / "bench.json"
    args = ["bench", "--game", "highcard", "--games", "20", "--reference-games", "2"]
    result = runner.invoke(app, [*args, "--repeats", "1", "--compile", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "First run from a cold cache" in result.stdout
    record = json.loads(out.read_text())
    (timed,) = record["compile"]
    assert timed["game"] == "highcard"
    assert timed["case"] == get_game("highcard").bench[0].label
    assert len(timed["cold_first_run_seconds"]) == 1
    assert timed["cold_first_run_median_s"] > 0
    assert timed["process_cpu_seconds"][0] > 0  # the child's own CPU time, start-up included


def test_bench_without_compile_times_no_compile(tmp_path):
    out = tmp_path / "bench.json"
    args = ["bench", "--game", "highcard", "--games", "20", "--reference-games", "2"]
    result = runner.invoke(app, [*args, "--repeats", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "cold cache" not in result.stdout
    assert "compile" not in json.loads(out.read_text())


@pytest.mark.slow
def test_bench_compile_times_each_form_that_compiles_apart(tmp_path):
    out = tmp_path / "bench.json"
    args = ["bench", "--game", "fantastique", "--games", "200", "--reference-games", "2"]
    result = runner.invoke(app, [*args, "--repeats", "1", "--compile", "--json", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    apart = [case.label for case in get_game("fantastique").bench if case.compile_apart]
    assert [timed["case"] for timed in record["compile"]] == apart
    for timed in record["compile"]:
        assert timed["compiles"] > 0  # the cache was empty: the kernels compiled
        assert 0 < timed["compile_seconds"][0] <= timed["cold_first_run_seconds"][0]

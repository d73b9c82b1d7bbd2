"""The benchmark logic (fairysim.bench), on toy cases and on Fantastique's registered cases."""

from __future__ import annotations

import statistics

import pytest

from fairysim.bench import (
    WARMUP_GAMES,
    BenchCase,
    BenchResult,
    machine_info,
    run_bench,
    select_cases,
    time_runs,
)
from fairysim.runtime.errors import FairysimError


def recording_case(label: str = "toy") -> tuple[BenchCase, list[tuple[str, int]]]:
    calls: list[tuple[str, int]] = []
    case = BenchCase(
        "toy",
        label,
        fast=lambda games: calls.append(("fast", games)),
        reference=lambda games: calls.append(("reference", games)),
    )
    return case, calls


def test_run_bench_warms_up_then_repeats_each_engine():
    case, calls = recording_case()
    seen = []
    results = run_bench([case], games=5_000, reference_games=40, repeats=3, on_result=seen.append)
    assert calls == [
        ("fast", min(5_000, WARMUP_GAMES)),
        ("fast", 5_000),
        ("fast", 5_000),
        ("fast", 5_000),
        ("reference", 10),
        ("reference", 40),
        ("reference", 40),
        ("reference", 40),
    ]
    assert seen == results
    assert len(results[0].fast_seconds) == len(results[0].reference_seconds) == 3


def test_rates_are_medians_and_ratio_is_fast_over_reference():
    case, _ = recording_case()
    result = BenchResult(case, 1000, (2.0, 1.0, 100.0), 10, (1.0, 5.0, 2.0))
    assert result.fast_rate == 1000 / statistics.median((2.0, 1.0, 100.0)) == 500.0
    assert result.fast_rate_range == (1000 / 100.0, 1000 / 1.0)
    assert result.reference_rate == 10 / 2.0
    assert result.ratio == pytest.approx(100.0)
    record = result.as_dict()
    assert record["ratio"] == pytest.approx(100.0)
    assert record["case"] == "toy" and record["game"] == "toy"
    assert record["fast_games_per_s_range"] == [10.0, 1000.0]


def test_case_without_reference_has_no_ratio():
    case = BenchCase("toy", "fast only", fast=lambda games: None)
    [result] = run_bench([case], games=10, repeats=1)
    assert result.reference_rate is None and result.ratio is None
    assert result.reference_seconds == ()


def test_time_runs_counts_every_run():
    assert len(time_runs(lambda games: None, 10, 4)) == 4


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"games": 0}, "games"),
        ({"reference_games": 0}, "reference_games"),
        ({"repeats": 0}, "repeats"),
    ],
)
def test_run_bench_rejects_bad_counts(kwargs, option):
    case, calls = recording_case()
    with pytest.raises(FairysimError) as error:
        run_bench([case], **kwargs)
    assert error.value.where == option
    assert calls == []


def test_a_registered_game_brings_its_cases():
    # The toy game of tests/highcard declares one case in its spec; no line of src/ names it.
    (case,) = select_cases(["highcard"])
    assert (case.game, case.label) == ("highcard", "3 players, stand")
    assert case.label in {c.label for c in select_cases()}
    result = run_bench([case], games=200, reference_games=20, repeats=1)[0]
    assert result.fast_rate > 0 and result.reference_rate > 0


def test_unknown_game_names_the_option():
    with pytest.raises(FairysimError) as error:
        select_cases(["chess"])
    assert error.value.where == "game"  # the parameter; the command line says --game


def test_fantastique_cases_cover_the_issue_and_run():
    cases = select_cases(["fantastique"])
    labels = {case.label for case in cases}
    assert {
        "4 players, greedy",
        "4 players, greedy, one game at a time",
        "4 players, random",
        "4 players, hoarder",
        "2 players, greedy",
        "5 players, greedy",
        "4 players, rollout + 3 balancer",
    } <= labels
    # every case measures the reference engine too, but the search (which the reference engine
    # cannot play), and both engines actually play
    searching = {case.label for case in cases if "rollout" in case.label}
    assert all((case.reference is None) == (case.label in searching) for case in cases)
    assert all(case.max_games for case in cases if case.label in searching)
    [result] = run_bench([cases[0]], games=50, reference_games=2, repeats=1)
    assert result.fast_rate > 0 and result.reference_rate > 0


def test_machine_info_names_cores_and_threads():
    info = machine_info(threads=1)
    assert info["numba_threads"] == 1
    assert info["cpu_count"] >= 1


def test_read_paths_are_timed_in_turn_with_the_engine_and_given_as_shares():
    calls: list[tuple[str, int]] = []
    case = BenchCase(
        "toy",
        "paths",
        fast=lambda games: calls.append(("engine", games)),
        paths={
            "summary": lambda games: calls.append(("summary", games)),
            "frame": lambda games: calls.append(("frame", games)),
        },
    )
    [result] = run_bench([case], games=50, repeats=2)
    # the engine's warm-up and repeats, each path's warm-up, then the three in turn
    assert calls[3:5] == [("summary", 50), ("frame", 50)]
    assert calls[5:] == [("engine", 50), ("summary", 50), ("frame", 50)] * 2
    seconds = {"engine": (1.0, 1.0), "summary": (1.25, 1.25), "frame": (4.0, 2.0)}
    result = BenchResult(case, 50, (1.0,), 0, (), seconds)
    assert result.path_ratios == {"summary": pytest.approx(0.8), "frame": pytest.approx(1 / 3)}
    assert result.as_dict()["path_ratios"]["summary"] == pytest.approx(0.8)


def test_a_lanes_case_brings_both_read_paths():
    cases = {case.label: case for case in select_cases(["fantastique"])}
    assert set(cases["4 players, greedy"].paths) == {"summary", "frame"}
    assert not cases["4 players, greedy, one game at a time"].paths

"""`fairysim bench` on tiny runs: the table, the ratio, the JSON file, and bad options."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from fairysim.cli import app

runner = CliRunner(env={"COLUMNS": "1000"})


def test_bench_prints_rates_ratio_and_writes_json(tmp_path):
    out = tmp_path / "bench.json"
    result = runner.invoke(
        app,
        [
            "bench",
            "--game",
            "fantastique",
            "--games",
            "200",
            "--reference-games",
            "3",
            "--repeats",
            "1",
            "--threads",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "cores" in result.output and "1 numba threads" in result.output
    assert "fast/reference" in result.output
    record = json.loads(out.read_text())
    assert record["machine"]["numba_threads"] == 1
    cases = {r["case"]: r for r in record["results"]}
    assert "4 players, greedy" in cases
    for r in cases.values():
        assert r["fast_games_per_s"] > 0
        if r["reference_games_per_s"] is None:  # the search player: the reference cannot play it
            assert "rollout" in r["case"] and r["ratio"] is None
            continue
        assert r["ratio"] == r["fast_games_per_s"] / r["reference_games_per_s"]
        assert f"{r['ratio']:,.0f}x" in result.output
        slowest, fastest = r["fast_games_per_s_range"]
        assert slowest <= r["fast_games_per_s"] <= fastest
        assert f"{slowest:,.0f}-{fastest:,.0f}" in result.output


def test_bench_unknown_game_is_one_line_exit_2():
    result = runner.invoke(app, ["bench", "--game", "chess", "--games", "10"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --game: "), result.output
    assert "Traceback" not in result.output


def test_bench_bad_json_path_is_refused_before_running(tmp_path):
    result = runner.invoke(app, ["bench", "--json", str(tmp_path / "missing" / "b.json")])
    assert result.exit_code == 2
    assert result.output.startswith("Error: --json: ")
    assert len(result.output.strip().splitlines()) == 1

"""`fairysim report fantastique`: wiring to the report writer, its errors, and one real run."""

from __future__ import annotations

import html
import re
import shlex
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairysim.cli import app

runner = CliRunner(env={"COLUMNS": "1000"})
REPORT_MODULE = "fairysim.analysis.fantastique.report"
DEFAULTS = {"games": 6_000, "seed": 1}  # the stand-in writer's own defaults


@pytest.fixture
def fake_writer(monkeypatch):
    """Stand in for the report writer: records its arguments, writes a stub page."""
    calls = []

    def write_report(
        out_dir,
        games=DEFAULTS["games"],
        seed=DEFAULTS["seed"],
        players=(2, 3, 4, 5),
        threads=None,
        progress=None,
        cards=None,
        policy="greedy",
    ):
        calls.append(
            {"out_dir": out_dir, "games": games, "seed": seed, "threads": threads, "policy": policy}
        )
        progress(1, 1)
        html = Path(out_dir) / "index.html"
        html.write_text("<html></html>")
        return html

    module = types.ModuleType(REPORT_MODULE)
    module.write_report = write_report
    monkeypatch.setitem(sys.modules, REPORT_MODULE, module)
    return calls


def test_passes_options_and_prints_html_path(tmp_path, fake_writer):
    out_dir = tmp_path / "new" / "report"
    result = runner.invoke(
        app,
        [
            "report",
            "fantastique",
            "--games",
            "123",
            "--seed",
            "9",
            "--out-dir",
            str(out_dir),
            "--threads",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert fake_writer == [
        {"out_dir": out_dir, "games": 123, "seed": 9, "threads": 1, "policy": "greedy"}
    ]
    assert f"Report written to {out_dir / 'index.html'}" in result.output


def test_default_out_dir_is_results_fantastique(tmp_path, monkeypatch, fake_writer):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", "fantastique", "--games", "10"])
    assert result.exit_code == 0, result.output
    assert fake_writer == [
        {
            "out_dir": Path("results/fantastique"),
            "games": 10,
            "seed": DEFAULTS["seed"],
            "threads": None,
            "policy": "greedy",
        }
    ]
    assert (tmp_path / "results" / "fantastique" / "index.html").exists()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--games", "0"], "--games"),
        (["--threads", "0"], "--threads"),
        (["--seed", "-1"], "--seed"),
        (["--out-dir", "{file}"], "--out-dir"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, fake_writer, args, option):
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder")
    args = [a.replace("{file}", str(a_file)) for a in args]
    result = runner.invoke(app, ["report", "fantastique", "--out-dir", str(tmp_path / "r"), *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {option}: "), result.output
    assert "Traceback" not in result.output
    assert fake_writer == []


@pytest.mark.usefixtures("figures_unrendered")
def test_real_report_writes_html(tmp_path):
    """End to end with the real writer, on few games."""
    result = runner.invoke(
        app,
        [
            "report",
            "fantastique",
            "--games",
            "200",
            "--card-games",
            "500",
            "--ladder-games",
            "300",
            "--search-games",
            "10",
            "--heuristic-games",
            "100",
            "--best-heuristic-games",
            "20",
            "--seed",
            "1",
            "--out-dir",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "fantastique-report.html").read_text()
    assert "--card-games 5000" in page
    assert "Which heuristic is the best heuristic" in page  # its tournament, 20 games a pairing
    assert "20 games per mix and rotation" in page
    html = Path(result.output.split("Report written to ", 1)[1].strip())
    assert html == tmp_path / "fantastique-report.html"
    assert html.suffix == ".html"
    assert html.exists()
    assert html.is_relative_to(tmp_path)
    # Not a terminal: each study says on stderr that it starts, in the order played; stdout
    # carries the result alone.
    studies = [
        line
        for line in result.stderr.splitlines()
        if line.startswith("fairysim: ") and "compil" not in line  # not a compile's notice
    ]
    assert studies[0] == "fairysim: balance card, 200 games a run"
    assert "fairysim: card effects, 4 players, greedy (" in "\n".join(studies)
    assert any(line.startswith("fairysim: skill ladder, 2 players (") for line in studies)
    assert studies[-1] == "fairysim: figures and page"
    assert result.stdout.strip().splitlines() == [f"Report written to {html}"]


@pytest.mark.usefixtures("figures_unrendered")
def test_the_reproduce_command_writes_the_same_files(tmp_path):
    """The page's "Reproduce with" command names every option the report was given off its
    default, so that it, run as it is, writes the same result files; each section's rerun is
    that command with its own games ten times over."""
    first = tmp_path / "first"
    given = ["--games", "200", "--card-games", "300", "--ladder-games", "200",
             "--search-games", "0", "--heuristic-games", "100", "--best-heuristic-games", "0",
             "--response-evaluations", "0", "--policy", "balancer", "--seed", "5"]  # fmt: skip
    result = runner.invoke(app, ["report", "fantastique", *given, "--out-dir", str(first)])
    assert result.exit_code == 0, result.output
    page = (first / "fantastique-report.html").read_text()
    command = html.unescape(re.search(r"Reproduce with <code>(.+?)</code>", page).group(1))
    args = shlex.split(command)
    assert args[:3] == ["fairysim", "report", "fantastique"]
    assert sorted(zip(args[3::2], args[4::2], strict=True)) == sorted(
        zip(given[::2], given[1::2], strict=True)
    )
    again = tmp_path / "again"
    result = runner.invoke(app, [*args[1:], "--out-dir", str(again)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in first.glob("*.csv"))
    assert files and files == sorted(p.name for p in again.glob("*.csv"))
    for name in files:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name
    for option, games in (("--card-games", "3000"), ("--ladder-games", "2000")):
        rerun = command.replace(f"{option} {given[given.index(option) + 1]}", f"{option} {games}")
        assert f"<code>{html.escape(rerun)}</code>" in page, option


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("fantastique", "fairysim.analysis.fantastique.declaration"),
        ("concerto", "fairysim.analysis.concerto.declaration"),
        ("fairyland", "fairysim.analysis.fairyland.declaration"),
    ],
)
def test_the_heuristic_check_states_its_game_count_as_a_number(name, default):
    import importlib

    games = importlib.import_module(default).REPORT_HEURISTIC_GAMES
    result = runner.invoke(app, ["report", name, "--help"], env={"COLUMNS": "400"})
    text = " ".join(result.output.replace("│", " ").split())
    assert "--heuristic-games" in text and f"(default: {games:,})" in text
    assert "again under the best heuristic" in text

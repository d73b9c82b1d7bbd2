"""``fairysim tune``: every bad input is one line naming the file (or option) and the key, exit 2,
before any game is played and with nothing written (issue 42)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairysim.analysis.tune.targets import load_targets
from fairysim.cli import app
from fairysim.sim.game import get_game

runner = CliRunner(env={"COLUMNS": "1000"})

GOOD_VARY = '"grande_finale_medals.gold" = { min = 10, max = 30, step = 10 }'
GOOD_TARGET = "finale_decides = { between = [0.25, 0.45] }"


def targets_text(vary: str = GOOD_VARY, target: str = GOOD_TARGET, head: str = "") -> str:
    return f"players = [4]\n{head}\n[vary]\n{vary}\n\n[targets]\n{target}\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (targets_text(vary='"medals.platinum[0]" = { values = [1] }'), "unknown path"),
        (targets_text(vary='"medals.gold[9]" = { values = [1] }'), "[9] names nothing"),
        (targets_text(vary='"medals..gold" = { values = [1] }'), "unknown path"),
        (targets_text(vary='"medals.gold" = { values = [1] }'), "is not a number"),
        (targets_text(vary='"medals" = { values = [1] }'), "is not a number"),
        (
            targets_text(
                vary='"grande_finale_medals.gold" = { min = 100, max = 2000, step = 100 }'
            ),
            "refused by the card checks",
        ),
        (
            targets_text(vary='"grande_finale_medals.gold" = { values = [12.5] }'),
            "refused by the card checks",
        ),
        (targets_text(vary='"fan_cards.8" = { values = [-1] }'), "refused by the card checks"),
        (targets_text(target="game_length = { max = 3 }"), "unknown measure"),
        (targets_text(target="luck = { max = 3 }"), "unknown measure"),
        (targets_text(target="skill_gap = { min = 0.1 }"), "needs two listed policies"),
        (targets_text(vary=""), "give at least one number to vary"),
        (targets_text(target="finale_decides = { between = [0.5, 0.2] }"), "lo > hi"),
        (targets_text(target="finale_decides = { most = 0.2 }"), "must be one of"),
        (targets_text(target='finale_decides = { max = "low" }'), "must be a number"),
        (targets_text(target=""), "give at least one target"),
        (
            targets_text(vary='"grande_finale_medals.gold" = { min = 30, max = 10, step = 10 }'),
            "is above max",
        ),
        (
            targets_text(vary='"grande_finale_medals.gold" = { min = 10, max = 30, step = 0 }'),
            "step must be above 0",
        ),
        (targets_text(vary='"grande_finale_medals.gold" = { values = [20] }'), "allows no value"),
        (targets_text(head="colour = 3"), "unknown key"),
        (targets_text(head='policies = ["nobody"]'), "unknown policy"),
        (targets_text(head="players = [9]").replace("players = [4]\n", ""), "players"),
        (targets_text(head='setup = { fan = "IX" }'), "setup"),
        ("players = [4\n", "not valid TOML"),
        (targets_text(target="forced_effect = { max = 0.05 }"), "name the card"),
        (targets_text(target="forced_effect.9 = { max = 0.05 }"), "'9' is no card"),
        (targets_text(target='"forced_effect.value 0" = { max = 0.05 }'), "is no card"),
    ],
)
def test_bad_targets_file_is_one_line_and_writes_nothing(tmp_path: Path, text: str, words: str):
    path = tmp_path / "targets.toml"
    path.write_text(text)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["tune", "fantastique", "--targets", str(path), "--out-dir", str(out)]
    )
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    assert lines[0].startswith(f"Error: {path}"), lines[0]
    assert words in lines[0], lines[0]
    assert not out.exists()


def test_the_key_at_fault_is_named(tmp_path: Path):
    path = tmp_path / "targets.toml"
    path.write_text(targets_text(vary='"medals.platinum[0]" = { values = [1] }'))
    result = runner.invoke(app, ["tune", "fantastique", "--targets", str(path), "--out-dir",
                                 str(tmp_path / "out")])  # fmt: skip
    assert "vary.'medals.platinum[0]'" in result.output


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--budget-games", "10", "--budget-seconds", "5"], "--budget-games"),
        (["--budget-seconds", "0"], "--budget-seconds"),
        (["--budget-games", "1999"], "--budget-games"),
        (["--search-games", "0"], "--search-games"),
        (["--search-games", "500", "--max-search-games", "400"], "--max-search-games"),
        (["--resume"], "--resume"),
        (["--cards", "missing.toml"], "missing.toml"),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], option: str):
    path = tmp_path / "targets.toml"
    path.write_text(targets_text())
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["tune", "fantastique", "--targets", str(path), "--out-dir", str(out), *args]
    )
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert result.output.startswith(f"Error: {option}"), result.output
    assert not out.exists()


@pytest.mark.parametrize("game", ["fantastique", "concerto", "fairyland"])
def test_documented_examples_are_valid(game: str):
    docs = Path(__file__).parents[2] / "docs" / "tune" / f"{game}.toml"
    targets = load_targets(get_game(game), docs)
    assert targets.vary and targets.targets


def test_a_measure_of_one_table_size_is_refused_at_another(tmp_path: Path):
    path = tmp_path / "targets.toml"
    path.write_text('players = [2]\n[vary]\n"tokens.composer" = { values = [6] }\n'
                    "[targets]\nsolo_win_rate = { min = 0.4 }\n")  # fmt: skip
    result = runner.invoke(app, ["tune", "concerto", "--targets", str(path), "--out-dir",
                                 str(tmp_path / "out")])  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "targets.solo_win_rate: is measured at 1 player(s) at most" in result.output


def test_a_run_prints_the_verdict_the_files_and_the_compare_command(tmp_path: Path):
    path = tmp_path / "targets.toml"
    path.write_text(targets_text(target="finale_decides = { min = 0.99 }"))
    out = tmp_path / "out"
    result = runner.invoke(app, ["tune", "fantastique", "--targets", str(path), "--out-dir",
                                 str(out), "--budget-games", "1500", "--search-games", "500",
                                 "--final-games", "1000"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "No candidate met every target on fresh games; the closest:" in result.output
    for name in ("tuned_cards.toml", "changes.csv", "candidates.parquet", "front.csv"):
        assert f"wrote {out / name}" in result.output
    assert "fairysim compare fantastique --players 4 --seed 0" in result.output
    # The printed command runs as it is (the one vocabulary's ``policy=``), on a few games.
    line = next(x for x in result.output.splitlines() if "fairysim compare" in x)
    command = shlex.split(line[line.index("fairysim compare") :])[1:]
    played = runner.invoke(app, [*command, "--games", "300"])
    assert played.exit_code == 0, played.output
    assert "deprecated" not in played.output
    assert (out / "compare").is_dir()

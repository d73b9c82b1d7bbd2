"""One name per concept (docs/vocabulary.md): every command's ``--help`` of every game and the
results files and printed tables of small runs, checked against the vocabulary; and each
deprecated option name still works, with its one-line notice."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest
import typer
import typer._click as click
from typer.testing import CliRunner

from fairysim.analysis.wording import wording_of
from fairysim.cli import app
from fairysim.sim.batch import read_results
from fairysim.sim.game import games

runner = CliRunner(env={"COLUMNS": "200"})

DEPRECATED = {"--policies": "--policy", "--lineup": "--policy", "--fans": "--fan"}
"""Old option names kept one release (docs/vocabulary.md, "Deprecated names")."""

OLD_NAMES = re.compile(r"--policies\b|--lineup\b|--fans\b|first_seat|<bool>")
"""What no help text may show."""

DECIMAL_SHARE = re.compile(r"(?<![\d.+-])0\.\d{3}(?!\d)")
"""A share printed as a fraction (0.251): printed shares are in percent (a signed number, such
as a rating's log-strength, is no share)."""


def commands() -> Iterator[tuple[str, Any]]:
    """Every command of the command line, each game's subcommands included, by its path."""
    root = typer.main.get_command(app)

    def walk(command: Any, path: str, parent: Any):
        ctx = click.Context(command, info_name=path.split()[-1], parent=parent)
        yield path, command
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), f"{path} {name}", ctx)

    yield from walk(root, "fairysim", None)


COMMANDS = dict(commands())


def help_of(path: str) -> str:
    result = runner.invoke(app, [*path.split()[1:], "--help"])
    assert result.exit_code == 0, (path, result.output)
    return result.output


def test_the_walk_reaches_every_command_of_every_game():
    for command in ("simulate", "metrics", "sweep", "tournament", "policies"):
        for game in games():
            assert f"fairysim {command} {game}" in COMMANDS, (command, game)
    for game in ("fantastique", "concerto", "fairyland"):
        assert f"fairysim replay {game}" in COMMANDS
        assert f"fairysim report {game}" in COMMANDS


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_help_uses_one_name_per_concept(path):
    text = help_of(path)
    assert not OLD_NAMES.search(text), (path, OLD_NAMES.search(text).group())
    assert "0 = " not in text  # turn positions and seats are said from 1st / seat 0
    command = COMMANDS[path]
    shown = [p for p in command.params if not getattr(p, "hidden", False)]
    for param in shown:
        if param.name in ("help", "version") or getattr(param, "required", False):
            continue
        if param.param_type_name == "argument":
            continue
        stated = param.default is not None and not getattr(param, "is_flag", False)
        assert stated or "default" in (param.help or "").lower(), (path, param.opts)


@pytest.mark.parametrize(
    "game", [g for g in sorted(games()) if f"fairysim replay {g}" in COMMANDS]
)  # a game without a narrator has no replay command
def test_replay_help_is_about_replay(game):
    text = help_of(f"fairysim replay {game}")
    assert "rotation" not in text and "--games" not in text


@pytest.mark.parametrize("game", sorted(games()))
def test_metrics_help_is_about_metrics(game):
    """metrics plays a fixed count of games, never a lineup's rotations nor to a precision."""
    text = help_of(f"fairysim metrics {game}")
    assert "rotation" not in text and "--precision" not in text and "deals" not in text


@pytest.mark.parametrize("game", sorted(games()))
def test_every_option_of_a_game_is_worded_and_names_its_values(game):
    """The wording, written in the analysis layer, lists what the engine's facts allow."""
    spec = games()[game]
    words = wording_of(spec)
    for axis in spec.axes:
        assert all(value in words.axes[axis.name] for value in axis.values), axis.name
    assert set(words.flags) == {flag.name for flag in spec.flags}
    text = help_of(f"fairysim simulate {game}")
    assert f"{spec.min_players} to {spec.max_players}" in text or spec.min_players == 1


@pytest.mark.parametrize("game", sorted(games()))
def test_policies_says_what_every_weight_does(game):
    spec = games()[game]
    sentences = wording_of(spec).weights
    for name, policy in spec.policies.items():
        for weight in policy.weight_names:
            assert sentences.get(name, {}).get(weight), f"{game} {name}:{weight} has no sentence"
    result = runner.invoke(app, ["policies", game])
    assert result.exit_code == 0, result.output
    assert "not described" not in result.output


def test_a_misspelt_weight_or_policy_is_answered_with_the_valid_names():
    result = runner.invoke(app, ["simulate", "highcard", "--policy", "redraw-lo", "--games", "5"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: --policy: ") and "redraw-low" in line and "stand" in line
    args = ["simulate", "highcard", "--policy", "redraw-low", "--weights", "belo=3"]
    result = runner.invoke(app, [*args, "--games", "5"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: --weights: ") and "redraw-low has below" in line


def assert_turn_columns(rows: pd.DataFrame, players: int) -> None:
    """Every seat row carries ``start_seat`` and ``turn_position`` (1 = the first to act)."""
    assert "first_seat" not in rows.columns and "position" not in rows.columns
    assert rows["turn_position"].min() == 1 and rows["turn_position"].max() == players
    first = rows[rows["turn_position"] == 1]
    assert (first["seat"].astype(int) == first["start_seat"].astype(int)).all()


def assert_percent_table(output: str) -> None:
    assert not DECIMAL_SHARE.search(output), DECIMAL_SHARE.search(output).group()
    assert re.search(r"\d+\.\d%", output)


@pytest.mark.parametrize(
    ("game", "players", "policy"),
    [
        ("fantastique", 3, "greedy"),
        ("concerto", 2, "greedy"),
        ("fairyland", 3, "greedy"),
        ("highcard", 3, "stand"),
    ],
)
def test_simulate_writes_and_prints_one_vocabulary(game, players, policy, tmp_path):
    out = tmp_path / "run.parquet"
    args = ["simulate", game, "--players", str(players), "--policy", policy, "--games", "40"]
    args += ["--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert_percent_table(result.output)
    if games()[game].turn_order.drawn:  # rows by turn position, said from 1st
        assert re.search(r"^\s*1st\s", result.output, re.M) and "turn: " in result.output
    rows, _ = read_results(out)
    assert_turn_columns(rows, players)


def test_tournament_writes_and_prints_one_vocabulary(tmp_path):
    out = tmp_path / "made" / "here"  # a missing folder is made, as in every command
    args = ["tournament", "highcard", "--policy", "stand,coin", "--players", "2"]
    result = runner.invoke(app, [*args, "--games", "50", "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert_percent_table(result.output)
    assert "1st" in result.output and "2nd" in result.output
    seats, _ = read_results(out / "tournament_seats.parquet")
    assert set(seats["turn_position"]) == {1, 2} and "position" not in seats.columns
    order, _ = read_results(out / "tournament_turn_order.parquet")
    assert set(order["turn_position"]) == {1, 2}


def test_sweep_writes_and_prints_one_vocabulary(tmp_path, scheduler):
    out = tmp_path / "sweep"
    args = ["sweep", "highcard", "--scheduler", scheduler, "--players", "2", "--deck", "short"]
    result = runner.invoke(
        app, [*args, "--policy", "stand", "--games", "60", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert_percent_table(result.output)
    assert re.search(r"^\s*1st\s", result.output, re.M) is None or "turn" in result.output
    shares = pd.read_parquet(out / "shares.parquet")
    assert "first_seat" not in shares.columns
    turns = shares[shares["row"] == "turn"]
    assert (turns["turn_position"] == turns["index"] + 1).all()


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "highcard", "--policy", "stand", "--players", "2", "--games", "5"],
        ["tournament", "highcard", "--policy", "stand,coin", "--players", "2", "--games", "5"],
    ],
)
def test_every_seed_default_is_zero(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "seed 0" in result.output or "--seed 0" in result.output


def test_the_report_seed_default_is_zero():
    from fairysim.analysis.report.registry import REPORT_SEED

    assert REPORT_SEED == 0
    assert "[default: 0]" in help_of("fairysim report fantastique") or "(default: 0)" in help_of(
        "fairysim report fantastique"
    )


def notice_of(result, old: str) -> None:
    """The one-line deprecation notice of ``old``, on stderr."""
    notices = [line for line in result.output.splitlines() if line.startswith("Note: ")]
    assert notices == [
        f"Note: {old} is deprecated and goes in the next release; use {DEPRECATED[old]}"
    ]


def test_tournament_policies_still_works_with_a_notice():
    rest = ["stand,coin", "--players", "2", "--games", "30", "--seed", "3"]
    result = runner.invoke(app, ["tournament", "highcard", "--policies", *rest])
    assert result.exit_code == 0, result.output
    notice_of(result, "--policies")
    new = runner.invoke(app, ["tournament", "highcard", "--policy", *rest])
    tables = [line for line in result.output.splitlines() if not line.startswith(("Note", "High"))]
    assert tables == [line for line in new.output.splitlines() if not line.startswith("High")]


def test_sweep_lineup_still_works_with_a_notice(tmp_path, scheduler):
    args = ["sweep", "highcard", "--scheduler", scheduler, "--players", "2", "--deck", "short"]
    result = runner.invoke(
        app, [*args, "--lineup", "stand", "--games", "40", "--out-dir", str(tmp_path / "a")]
    )
    assert result.exit_code == 0, result.output
    notice_of(result, "--lineup")
    new = runner.invoke(
        app, [*args, "--policy", "stand", "--games", "40", "--out-dir", str(tmp_path / "b")]
    )
    old_shares = pd.read_parquet(tmp_path / "a" / "shares.parquet")
    pd.testing.assert_frame_equal(old_shares, pd.read_parquet(tmp_path / "b" / "shares.parquet"))
    assert new.exit_code == 0 and "Note: " not in new.output


def test_sweep_fans_still_works_with_a_notice(tmp_path):
    """``--fans`` is read as ``--fan``: its value is checked as ``--fan``'s, before any game."""
    args = ["sweep", "fantastique", "--fans", "VII", "--out-dir", str(tmp_path / "s")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    notice_of(result, "--fans")
    assert result.output.splitlines()[-1].startswith("Error: --fan: must be one of I, II")
    assert not (tmp_path / "s").exists()

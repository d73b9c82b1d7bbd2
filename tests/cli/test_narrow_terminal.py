"""Results read whole at 80 columns (issue 41): ``simulate``, ``metrics``, ``compare`` and
``tournament`` run through the command line at ``COLUMNS=80`` print no line wider than the
terminal and no cell cut with an ellipsis, and carry every number the same run prints on a wide
terminal (so nothing was dropped to make it fit)."""

from __future__ import annotations

import re
import shlex
from collections import Counter

import pytest
from typer.testing import CliRunner

from fairysim.cli import app

NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?%?")
WALL_TIME = re.compile(r"\(\d+\.\d\s+s\s+wall\s+time\)")


def run(width: int, *args: str) -> str:
    """The command's stdout at a terminal of ``width`` columns."""
    result = CliRunner(env={"COLUMNS": str(width)}).invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def numbers(output: str) -> Counter:
    """Every number printed, with how often (the wall time left out: it differs between runs)."""
    return Counter(NUMBER.findall(WALL_TIME.sub("", output)))


def assert_readable(output: str, width: int) -> None:
    assert "…" not in output, output
    wide = [line for line in output.splitlines() if len(line.rstrip()) > width]
    assert not wide, "\n".join(wide)


COMMANDS = {
    "simulate": [
        "simulate", "fantastique", "--players", "4", "--games", "300", "--threads", "1",
        "--policy", "balancer,greedy,greedy,greedy",
    ],
    "metrics": ["metrics", "fantastique", "--players", "4", "--games", "300", "--threads", "1"],
    "tournament": [
        "tournament", "fantastique", "--players", "3", "--games", "40", "--threads", "1",
        "--policy", "random,greedy,balancer",
    ],
    "compare": [
        "compare", "fantastique", "--players", "3", "--games", "200", "--threads", "1",
        "--variant", "fan=II", "--out-dir", "out",
    ],
}  # fmt: skip


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_line_fits_80_columns_with_every_number_of_a_wide_terminal(
    command, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # compare's files are written under a short relative path
    narrow = run(80, *COMMANDS[command])
    assert_readable(narrow, 80)
    wide = run(1000, *COMMANDS[command])
    assert numbers(wide), wide
    assert numbers(narrow) == numbers(wide), f"narrow:\n{narrow}\nwide:\n{wide}"


def test_a_terminal_too_narrow_for_the_columns_stacks_each_row():
    """At 40 columns the turn-order table's columns do not fit side by side even wrapped at
    their longest words: each row becomes a block of "header: cell" lines, every number kept."""
    args = COMMANDS["metrics"]
    narrow = run(40, *args)
    assert_readable(narrow, 40)
    assert numbers(narrow) == numbers(run(1000, *args))
    block = re.search(r"^\S[^:]*: 1st\n((?:  \S[^:]*: .+\n)+)", narrow, flags=re.M)
    assert block and len(block.group(1).splitlines()) >= 4, narrow  # one row, one cell a line


def test_a_long_reproduce_command_pastes_back_as_one():
    output = run(80, *COMMANDS["tournament"])
    wide = run(1000, *COMMANDS["tournament"])
    command = re.search(r"Reproduce with `(.+)`\.", wide).group(1)
    lines = output.splitlines()
    start = lines.index("Reproduce with:") + 1
    broken = []
    for line in lines[start:]:
        broken.append(line)
        if not line.endswith("\\"):
            break
    assert len(broken) > 1
    assert shlex.split(" ".join(line.removesuffix("\\") for line in broken)) == shlex.split(command)


def test_identical_policies_are_explained_under_the_table():
    output = run(1000, *COMMANDS["simulate"])
    note = next(line for line in output.splitlines() if line.startswith("same policy: "))
    assert "greedy, greedy#2 and greedy#3 play one policy" in note
    assert "greedy 1 seat after balancer" in note and "greedy#3 3 seats after balancer" in note


def test_a_tournament_explains_its_entries_of_one_policy():
    args = ["tournament", "highcard", "--policy", "stand,stand,coin", "--players", "3"]
    output = run(1000, *args, "--games", "50", "--threads", "1")
    note = next(line for line in output.splitlines() if line.startswith("same policy: "))
    assert "stand and stand#2 play one policy" in note and "place relative to the others" in note
    alone = run(1000, "tournament", "highcard", "--policy", "stand,coin", "--games", "50")
    assert "same policy" not in alone

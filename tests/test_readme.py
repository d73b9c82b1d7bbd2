"""Every ``fairysim`` command line in README.md names a command that exists, with options that
command takes: the documented spelling is the working one (issue 16, "Nothing changes for users").

Each command is checked through its ``--help`` (no game is played), so a renamed command or
option fails here; the README's policy example and report commands run in the CLI tests.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairysim.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"
runner = CliRunner(env={"COLUMNS": "1000"})


def readme_commands() -> list[str]:
    """The ``fairysim`` lines of the README's bash blocks, continuation lines joined, comments
    and a leading ``pip install ... &&`` removed."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("&&")[-1].strip()
            if line.startswith("fairysim"):
                commands.append(shlex.split(line, comments=True))
    return [shlex.join(words) for words in commands]


COMMANDS = readme_commands()


def test_the_readme_documents_the_commands_of_every_kind():
    documented = {shlex.split(command)[1] for command in COMMANDS}
    assert {"simulate", "policies", "report", "bench", "sweep", "replay"} <= documented


@pytest.mark.parametrize("command", COMMANDS)
def test_a_readme_command_names_a_command_and_options_that_exist(command):
    words = shlex.split(command)[1:]
    path = words[: next((i for i, w in enumerate(words) if w.startswith("-")), None)]
    options = [w.split("=")[0] for w in words if w.startswith("--")]
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    for option in options:
        assert option in result.output, f"{command}: {option} is not an option of {path}"

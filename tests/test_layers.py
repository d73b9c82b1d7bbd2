"""The layout's rules, enforced: import-linter's contracts (pyproject.toml) on the package, and
the same contracts failing on a copy with a planted back-import or circle."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "fairysim"


def lint_imports(src: Path, config: Path) -> subprocess.CompletedProcess:
    """import-linter's command on the package found under ``src``, with ``config``'s contracts."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command as c; c()",
            str(config),
            "--no-cache",
        ],
        cwd=src,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "COLUMNS": "250"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """A copy of the package's source to plant imports in."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(PACKAGE, src / "fairysim", ignore=shutil.ignore_patterns("__pycache__"))
    return src


def test_the_package_keeps_every_contract():
    result = lint_imports(ROOT / "src", ROOT / "pyproject.toml")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract"),
    [
        # an engine reaching up into the command line
        ("sim/rng.py", "from fairysim.cli import common", "Layers"),
        # a statistic reaching up into a report
        ("stats/ranking.py", "from fairysim.analysis.report import formats", "Layers"),
        # one game's engine importing another's
        ("sim/fantastique/rules.py", "from fairysim.sim.concerto import rules", "another game's"),
        # a circle inside one package: corrections already imports estimates
        ("stats/estimates.py", "from fairysim.stats import corrections", "circles"),
    ],
)
def test_a_planted_import_breaks_its_contract(package_copy, module, planted, contract):
    path = package_copy / "fairysim" / module
    original = path.read_text()
    try:
        path.write_text(original + f"\n{planted}  # noqa: E402, F401\n")
        result = lint_imports(package_copy, ROOT / "pyproject.toml")
    finally:
        path.write_text(original)
    assert result.returncode != 0
    broken = [line for line in result.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(contract in line for line in broken), result.stdout[-3000:]

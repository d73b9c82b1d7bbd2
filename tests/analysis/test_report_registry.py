"""The report registry: every report declared by its game's analysis, none by the engines, and
read without importing an engine, pandas or numba."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fairysim.analysis.report.registry import get_report, reports
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import games

SIM = Path(__file__).resolve().parents[2] / "src" / "fairysim" / "sim"


def test_no_engine_module_names_the_analysis_layer():
    assert SIM.is_dir()
    named = [
        str(path.relative_to(SIM))
        for path in sorted(SIM.rglob("*"))
        if path.suffix in (".py", ".toml") and "fairysim.analysis" in path.read_text("utf-8")
    ]
    assert named == []


def test_every_report_is_declared_for_a_registered_game_by_that_game_s_analysis():
    declared = reports()
    assert list(declared) == ["fantastique", "concerto", "concerto-solo", "fairyland"]
    for name, report in declared.items():
        assert report.game in games()
        assert report.writer.startswith(f"fairysim.analysis.{report.game}.")
        for extra in report.options:
            assert report.default(extra.name) is not None, (name, extra.name)


def test_an_unknown_report_is_refused_naming_the_reports():
    with pytest.raises(FairysimError, match="unknown report 'nope'; the reports are fantastique"):
        get_report("nope")


def test_the_declarations_load_no_engine_and_no_data_library():
    code = (
        "import sys; from fairysim.analysis.report.registry import reports; reports(); "
        "heavy = {'pandas', 'numba', 'scipy', 'matplotlib', 'fairysim.sim.game'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

"""results/index.html: every report linked, each with its balance card in one line."""

from __future__ import annotations

import pandas as pd
import pytest

from fairysim.analysis.report.index import WrittenReport, balance_line, write_index
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.sections import balance_section, turn_order_section
from fairysim.analysis.studies.balance import BalanceRows, balance_card
from fairysim.sim.fantastique.spec import SPEC

from .test_balance import constructed_run


def _written(folder, name: str, card: bool) -> WrittenReport:
    report = Report(f"The {name} report", f"{name}-report.html", f"{name}-")
    if card:
        rows = BalanceRows(SPEC.turn_order)
        rows.add(constructed_run(SPEC.turn_order))
        result = balance_card(rows)
        balance_section(report, result, SPEC.turn_order)
        turn_order_section(report, result, SPEC.turn_order)
    return WrittenReport(name, report.write(folder / name))


def test_the_index_links_every_report_with_its_balance_line(tmp_path):
    with_card = _written(tmp_path, "alpha", card=True)
    without = _written(tmp_path, "solo", card=False)
    index = write_index(tmp_path, [with_card, without])
    text = index.read_text(encoding="utf-8")
    assert '<a href="alpha/alpha-report.html">The alpha report</a>' in text
    assert '<a href="solo/solo-report.html">The solo report</a>' in text
    assert "No balance card" in text
    line = balance_line(with_card)
    assert "3 players 1st +46.7 pp" in line  # the constructed starter wins 80 % against 33.3 %
    assert "Winning margin (points): 3p 10.0" in line


def test_the_line_reads_what_the_page_wrote(tmp_path):
    written = _written(tmp_path, "alpha", card=True)
    turn = pd.read_csv(tmp_path / "alpha" / "alpha-turn_order.csv")
    turn["significant"] = False
    turn.to_csv(tmp_path / "alpha" / "alpha-turn_order.csv", index=False)
    assert balance_line(written).startswith("No turn position differs from the fair share")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "--seed"),
        (["--out-dir", ""], "--out-dir"),
        (["--threads", "0"], "--threads"),
    ],
)
def test_report_all_refuses_bad_options_in_one_line(args, message, tmp_path):
    from typer.testing import CliRunner

    from fairysim.cli import app

    result = CliRunner().invoke(app, ["report", "all", *args], catch_exceptions=False)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1

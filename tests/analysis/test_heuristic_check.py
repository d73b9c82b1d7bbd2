"""A report's comparisons under its policy and under the best heuristic: which verdicts change,
and what the page says of it (a warning, and that a change is no tested difference)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from fairysim.analysis.report.heuristic_check import check_paragraphs
from fairysim.analysis.report.page import Report
from fairysim.analysis.studies.heuristic_check import HeuristicCheck, compare_verdicts


def table(rows):
    """Comparisons ``(a, b, value, low, high)``; significant where the interval excludes 0."""
    out = pd.DataFrame(rows, columns=["a", "b", "difference", "low", "high"])
    out["significant"] = (out["low"] > 0) | (out["high"] < 0)
    return out


BASE = table(
    [
        ("x", "y", 0.05, 0.02, 0.08),  # above under both
        ("x", "z", 0.03, 0.01, 0.05),  # above, then not separated
        ("y", "z", -0.01, -0.03, 0.01),  # not separated, then below
        ("z", "w", 0.04, 0.01, 0.07),  # above, then below
    ]
)
BEST = table(
    [
        ("y", "z", -0.04, -0.06, -0.02),
        ("x", "y", 0.06, 0.03, 0.09),
        ("x", "z", 0.02, -0.01, 0.05),
        ("z", "w", -0.04, -0.07, -0.01),
    ]
)


def test_each_comparisons_verdicts_are_set_side_by_side_and_changes_marked():
    out = compare_verdicts(BASE, BEST, ["a", "b"], "difference")
    assert list(zip(out["a"], out["b"], strict=True)) == [("x", "y"), ("x", "z"), ("y", "z"),
                                                          ("z", "w")]  # fmt: skip
    assert out["base_verdict"].tolist() == ["above", "above", "not separated", "above"]
    assert out["best_verdict"].tolist() == ["above", "not separated", "below", "below"]
    assert out["changed"].tolist() == [False, True, True, True]
    assert out.loc[out["a"] == "y", "best_value"].item() == pytest.approx(-0.04)


def test_tables_of_different_comparisons_are_refused():
    with pytest.raises(ValueError, match="different comparisons"):
        compare_verdicts(BASE, BEST.iloc[:3], ["a", "b"], "difference")


def page(best):
    check = HeuristicCheck(
        compare_verdicts(BASE, best, ["a", "b"], "difference"),
        {"policy": "greedy", "best": "smart", "players": 4, "games": 1000, "arm": "an arm",
         "seed": 7},
    )  # fmt: skip
    report = Report("t", "t.html", "t-")
    report.section("Comparisons")
    check_paragraphs(
        report,
        check,
        "pair comparisons",
        lambda r: f"{r.a} against {r.b}",
        lambda r, p: f"{100 * getattr(r, p + 'value'):+.1f} pp",
        "pair_check",
        note="A note of the report's own.",
    )
    return re.sub(r"</?span[^>]*>", "", report.html())  # the verdict marks, as a reader sees


def test_the_page_warns_where_a_verdict_changes_and_says_it_is_no_tested_difference():
    html = page(BEST)
    assert "Warning: 3 of the 4 pair comparisons change verdict under smart at 4 players" in html
    assert "x against z: not separated under smart (+2.0 pp), above under greedy (+3.0 pp)" in html
    assert "not a tested difference between the two policies" in html
    assert "t-pair_check.csv" in html
    assert "1,000 games an arm under each policy, seed 7" in html
    assert "A note of the report&#x27;s own." in html or "A note of the report's own." in html


def test_the_page_says_so_where_every_verdict_holds():
    html = page(BASE)
    assert "Warning" not in html
    assert "Every one of the 4 pair comparisons keeps its verdict under smart (4 players)" in html

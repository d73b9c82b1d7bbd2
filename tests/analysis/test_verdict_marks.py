"""The reviewer's check: every verdict word on every report traced to the tested row behind it.

The marks (:mod:`fairysim.analysis.report.verdict_marks`) tie a phrase to rows of a CSV file the
page writes; `tests/verdict_check.py` reads a written page back and sorts every verdict word
into supported, contradicted (its rows do not support it) and unmarked.
"""

from __future__ import annotations

import importlib
import re

import pandas as pd
import pytest
from verdict_check import review

from fairysim.analysis.report import verdict_marks as vm
from fairysim.analysis.report.answer_card import Mark
from fairysim.analysis.report.page import Report

REPORTS = {
    "fantastique": (
        "fairysim.analysis.fantastique.report",
        {"ladder_games": 200, "heuristic_games": 200},
    ),
    "concerto": (
        "fairysim.analysis.concerto.report",
        {"ladder_games": 200, "heuristic_games": 200},
    ),
    "concerto-solo": ("fairysim.analysis.concerto.solo_report", {"lookahead_games": 30}),
    "fairyland": (
        "fairysim.analysis.fairyland.report",
        {"ladder_games": 200, "heuristic_games": 200, "auction_games": 3},
    ),
}
"""Each report's writer and its own small counts (every report: 100 games, 200 card games)."""


def _unnumbered(heading: str) -> str:
    return re.sub(r"^\d+\.\s*", "", heading)


def _page(tmp_path, rows: pd.DataFrame, sentence: str):
    report = Report("Demo", "demo.html", prefix="demo-")
    report.data("pairs", rows)
    report.paragraph(sentence)
    return review(report.write(tmp_path))


@pytest.fixture
def pairs():
    return pd.DataFrame(
        {"difference": [0.05, -0.04, 0.01], "separated": [True, True, False]}, dtype=object
    )


def test_a_mark_becomes_a_span_naming_its_rows():
    html = Report("Demo", "d.html")
    html.paragraph("II " + vm.tested("stronger than I", "d-pairs.csv", [0, 2], "higher") + ".")
    page = html.html()
    assert '<span class="verdict" data-test-family="d-pairs.csv" data-test-row="0 2"' in page
    assert 'data-test-claim="higher"' in page and "\x02" not in page and "\x1f" not in page
    assert vm.plain(vm.tested("stronger", "f.csv", 1, "higher")) == "stronger"


def test_a_supported_verdict_passes(tmp_path, pairs):
    sentence = vm.tested(
        "A is higher than B", "demo-pairs.csv", 0, "higher", significant="separated"
    )
    found = _page(tmp_path, pairs, sentence)
    assert [f.word for f in found.supported] == ["higher"]
    assert not found.contradicted and not found.unmarked


def test_a_verdict_its_row_does_not_support_is_caught(tmp_path, pairs):
    # row 1 is separated but below 0; row 2 is not separated
    for rows, claim in ((1, "higher"), (2, "separated"), (0, "not separated")):
        text = vm.tested(
            "A is higher than B", "demo-pairs.csv", rows, claim, significant="separated"
        )
        assert _page(tmp_path, pairs, text).contradicted, (rows, claim)


def test_a_missing_row_or_file_is_caught(tmp_path, pairs):
    for family, row in (("demo-pairs.csv", 7), ("demo-other.csv", 0)):
        text = vm.tested("A is higher", family, row, "higher", significant="separated")
        assert _page(tmp_path, pairs, text).contradicted


def test_an_unmarked_verdict_is_caught_and_a_definition_is_not(tmp_path, pairs):
    found = _page(
        tmp_path, pairs, "A is stronger than B. " + vm.definition("tied means not separated")
    )
    assert [f.word for f in found.unmarked] == ["stronger"]
    assert {f.word for f in found.supported} == {"tied", "separated"}


def test_an_answer_phrase_is_marked_once_and_escaped():
    mark = Mark("chaser's best", "pairs", (0, 2), "higher")
    text = mark.apply(mark.apply("so chaser&#x27;s best, chaser&#x27;s best", "d-"), "d-")
    page = vm.to_spans(text)
    assert page.count('data-test-family="d-pairs.csv" data-test-row="0 2"') == 2
    assert "<span" not in page.split("</span>")[-1] and "\x02" not in page


def test_verdict_cells_are_marked_against_their_own_row():
    data = pd.DataFrame({"estimate": [0.1, 0.0], "low": [0.05, -0.1], "high": [0.15, 0.1]}).assign(
        significant=[True, False]
    )
    display = pd.DataFrame({"item": ["x", "y"], "verdict": ["significant", "not significant"]})
    marked = vm.verdict_cells(display, data, "t.csv")
    assert marked["item"].tolist() == ["x", "y"]
    assert vm.plain(marked["verdict"][0]) == "significant" and marked["verdict"][0] != "significant"
    assert "t.csv" in marked["verdict"][1]


@pytest.fixture(scope="module", params=sorted(REPORTS))
def written(request, tmp_path_factory):
    module, own = REPORTS[request.param]
    writer = importlib.import_module(module).write_report
    out = tmp_path_factory.mktemp(request.param)
    page = writer(out, games=100, seed=3, card_games=200, search_games=0, **own)
    return request.param, page


def test_every_verdict_on_every_report_is_traced_to_a_tested_row(written):
    name, page = written
    assert page.name.startswith(name), page
    found = review(page)
    assert not found.contradicted, [(f.context, f.problem) for f in found.contradicted]
    untraced = found.unmarked  # every section of every report traces every verdict it states
    assert not untraced, [(_unnumbered(f.heading), f.word, f.context) for f in untraced]
    assert found.supported, "no verdict on the page is traced"


@pytest.mark.parametrize(
    ("above", "below", "verdict", "caught"),
    [
        ([True, True], [False, False], "dominant", False),
        ([True, False], [False, False], "dominant", True),
        ([False, False], [False, True], "not dominant", False),
        ([False, False], [False, False], "undecided", False),
        ([False, False], [True, False], "undecided", True),
    ],
)
def test_a_dominance_verdict_is_checked_against_the_bands_cells(
    tmp_path, above, below, verdict, caught
):
    cells = pd.DataFrame({"share": [0.6, 0.5], "above_band": above, "below_band": below})
    report = Report("Demo", "demo.html", prefix="demo-")
    report.data("cells", cells)
    # "dominant" is no verdict word of the check: a word it knows carries the mark
    report.paragraph(vm.dominance_verdict("separated", "demo-cells.csv", cells, verdict))
    found = review(report.write(tmp_path))
    assert bool(found.contradicted) is caught and not found.unmarked

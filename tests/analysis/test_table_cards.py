"""The table-card study (:mod:`fairysim.analysis.studies.table_cards`) and its report subsection.

The known answer comes from the toy game under tests/highcard: two players each draw one card
of 1..6, seat 0 redraws a card below 5 once, seat 1 keeps its card; a removed value is skipped
at the draw. Seat 0's win share (ties split) is then exact by enumeration for either shoe, so
the effect of removing a card is known.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from fairysim.analysis.report.page import Report
from fairysim.analysis.report.table_cards import table_card_subsection
from fairysim.analysis.studies.table_cards import NOT_SHOWN, table_card_study
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import get_game

LINEUP = ["redraw-low", "stand"]


def seat0_share(values: list[int], below: int = 5) -> Fraction:
    """Seat 0's exact win share: it redraws below ``below``, seat 1 stands, ties split."""
    n = len(values)
    final: dict[int, Fraction] = {}
    for first in values:
        for card in values if first < below else [first]:
            share = Fraction(1, n * n) if first < below else Fraction(1, n)
            final[card] = final.get(card, Fraction(0)) + share
    won = Fraction(0)
    for card, p in final.items():
        for other in values:
            won += p * Fraction(1, n) * (1 if card > other else Fraction(1, 2) * (card == other))
    return won


@pytest.fixture(scope="module")
def study():
    return table_card_study(
        "highcard", players=2, games=5_000, seed=3, policies=LINEUP, deck="short"
    )


def test_the_effect_of_a_removal_is_the_known_answer(study):
    shipped = seat0_share(list(range(1, 7)))
    rows = study.differences
    for card in (6, 5):
        expected = float(seat0_share([v for v in range(1, 7) if v != card]) - shipped)
        assert expected == pytest.approx(-0.0311, abs=1e-4)
        mine = rows[(rows["label"] == f"card {card}") & (rows["metric"] == "win_share")]
        assert (mine["options"] == f"removed_card={card}").all()
        first = mine[mine["index"] == 0].iloc[0]
        assert abs(first["difference"] - expected) < 4 * first["se"]
        assert first["effect_low"] <= expected <= first["effect_high"]
        assert first["verdict"] == "lower without it"
        other = mine[mine["index"] == 1].iloc[0]
        assert other["difference"] == pytest.approx(-first["difference"])  # shares sum to 1


def test_every_row_is_one_corrected_family_and_the_verdicts_follow_it(study):
    rows = study.differences
    tested = rows["effect_low"].notna()
    excludes = (rows["effect_low"] > 0) | (rows["effect_high"] < 0)
    assert (excludes[tested] == rows.loc[tested, "effect_significant"]).all()
    assert ((rows["verdict"] == NOT_SHOWN) == ~rows["effect_significant"]).all()
    assert set(rows["group"]) == {"turn position", "pooled"}
    assert rows["games"].eq(5_000).all()
    assert (study.pairing["same_turn_order_games"] == 5_000).all()
    assert (rows.loc[rows["metric"] == "win_share", "se_ratio"] < 1).all()  # the pairing helps


def test_rows_are_sorted_by_difference_within_a_type(study):
    for _, rows in study.differences.groupby("label", sort=False):
        positions = rows[rows["group"] == "turn position"]["difference"].to_numpy()
        assert (np.diff(positions) <= 0).all()


def test_the_subsection_words_only_what_the_intervals_allow(study):
    report = Report("t", "t.html", "t-")
    table_card_subsection(report, study)
    html = report.html()
    assert "A card removed from the shoe" in html
    assert "turn position 0&#x27;s win share lower without it" in html or (
        "turn position 0's win share lower without it" in html
    )
    assert "t-removals.csv" in html


def test_a_game_without_table_cards_is_refused_in_one_line():
    # a copy of the toy game under a name that registers no card studies
    spec = replace(get_game("highcard"), name="plain-highcard")
    with pytest.raises(FairysimError) as info:
        table_card_study(spec, players=2, games=10)
    assert info.value.where == "GAME"

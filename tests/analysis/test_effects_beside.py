"""The forced-card effect beside an association: rows matched by label, counts of where the two
part, and cells for cards the effect study did not force."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.report.effects_beside import (
    NOT_MEASURED,
    association_against_effect,
    effect_display,
    effects_beside,
)
from fairysim.analysis.report.verdict_marks import plain
from fairysim.analysis.studies.card_effects import CardEffectStudy


def constructed_effects() -> CardEffectStudy:
    """Three cards at two player counts: Crown helps (+3 pp, narrow), Lute shows no effect
    (+0.2 pp, se 0.4 pp), Bell hurts (-4 pp, narrow)."""
    rows = []
    for players in (2, 3):
        for card, (label, effect) in enumerate((("Crown", 0.03), ("Lute", 0.002), ("Bell", -0.04))):
            rows.append(
                {
                    "players": players,
                    "card": card + 1,
                    "label": label,
                    "effect": effect,
                    "effect_se": 0.004,
                    "association": 0.0,
                    "association_se": 0.01,
                }
            )
    return CardEffectStudy(pd.DataFrame(rows), pd.DataFrame(), {}, [], {"games": 1000})


def test_each_row_gets_its_own_cards_effect_and_unforced_cards_none():
    labels = pd.Series(["Bell", "Harp", "Crown", "Lute"], index=[10, 11, 12, 13])
    beside = effects_beside(constructed_effects(), labels)
    assert list(beside.index) == [10, 11, 12, 13]
    assert beside["forced_effect"].tolist()[0] == pytest.approx(-0.04)
    assert np.isnan(beside.loc[11, "forced_effect"])
    assert beside.loc[12, "forced_effect"] == pytest.approx(0.03)
    assert beside.loc[12, "forced_effect_low"] < 0.03 < beside.loc[12, "forced_effect_high"]
    assert beside["forced_effect_significant"].tolist()[2:] == [1.0, 0.0]
    cells = effect_display(beside)
    assert cells["forced-card effect"] == ["-4.0 pp", NOT_MEASURED, "+3.0 pp", "+0.2 pp"]
    assert cells["effect verdict"] == ["significant", "", "significant", "not significant"]
    assert effects_beside(None, labels)["forced_effect"].isna().all()


def test_where_the_lift_and_the_effect_part_is_counted_and_named():
    labels = pd.Series(["Crown", "Lute", "Bell", "Harp"])
    # Crown: lift significantly low, effect significantly positive; Lute: lift significantly
    # high, no effect; Bell: lift high, effect negative; Harp: lift low but never forced
    lift = pd.Series([-0.154, 0.08, 0.05, -0.2])
    significant = pd.Series([True, True, True, True])
    beside = effects_beside(constructed_effects(), labels)
    lines = association_against_effect(
        labels, lift, significant, beside, "the lift", "t.csv", ("lift_significant", "lift")
    )
    assert plain(lines[0]).startswith(
        "Of the 2 card(s) with a significantly positive the lift, 1 show no effect separated "
        "from 0 when forced into a seat's reach; of the 1 with a significantly negative the "
        "lift, 1 raise the win share significantly when forced."
    )
    assert lines[1].startswith("For example Crown: the lift -15.4 pp, forced-card effect +3.0 pp [")
    assert (
        association_against_effect(
            labels, lift, significant, effects_beside(None, labels), "x", "t.csv", ("s", "v")
        )
        == []
    )


def test_each_count_is_marked_against_the_rows_it_counts():
    labels = pd.Series(["Crown", "Lute", "Bell", "Harp"])
    lift = pd.Series([-0.154, 0.08, 0.05, -0.2])
    significant = pd.Series([True, True, True, True])
    beside = effects_beside(constructed_effects(), labels)
    (line, _) = association_against_effect(
        labels, lift, significant, beside, "lift", "t.csv", ("lift_significant", "lift")
    )
    marks = [m.split("\x1f") for m in re.findall("\x02([^\x03]*)\x03", line)]
    # family, rows, claim, significance column, estimate column, text
    assert [m[1:5] for m in marks] == [
        ["1 2", "higher", "lift_significant", "lift"],
        ["1", "not separated", "forced_effect_significant", "forced_effect"],
        ["0", "lower", "lift_significant", "lift"],
        ["0", "higher", "forced_effect_significant", "forced_effect"],
    ]


def test_no_significant_lift_is_worded_without_a_verdict_word():
    labels = pd.Series(["Crown", "Lute"])
    beside = effects_beside(constructed_effects(), labels)
    lines = association_against_effect(
        labels,
        pd.Series([0.1, -0.1]),
        pd.Series([False, False]),
        beside,
        "lift",
        "t.csv",
        ("s", "v"),
    )
    assert lines[0] == plain(lines[0])
    assert "significant" not in lines[0] and "separated" not in lines[0]


def test_an_effect_without_a_significance_flag_is_not_measured_not_significant():
    beside = effects_beside(constructed_effects(), pd.Series(["Crown", "Lute"]))
    beside.loc[0, "forced_effect_significant"] = np.nan
    assert effect_display(beside)["effect verdict"] == [NOT_MEASURED, "not significant"]

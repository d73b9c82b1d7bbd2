"""Card strength as an effect (fairysim.analysis.studies.card_effects), over the game contract.

The known answer comes from the toy game under tests/highcard: two players each draw one card
of 1..6 and keep it ("stand"); the higher card wins, a tie splits. A seat holding card v wins
``w(v) = (v - 1) / 6 + 1 / 12`` of games whatever its rival holds, so giving it v in place of a
card c != v (the games where the intervention is made) moves its win share by
``w(v) - mean over c != v of w(c) = 6 (w(v) - 1/2) / 5``, and the association (holders of v
against the others, a 0/1 count) is the same number.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.report.card_effects import card_effect_figure, card_effect_section
from fairysim.analysis.report.page import Report
from fairysim.analysis.studies.card_effects import (
    NOT_SHOWN,
    STRONGER,
    WEAKER,
    card_effects,
    disagreements,
    verdict_changes,
)
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import get_game


def exact_effect(v: int, top: int = 6) -> float:
    w = (v - 1) / top + 1 / (2 * top)
    return top * (w - 0.5) / (top - 1)


@pytest.fixture(scope="module")
def highcard_study():
    return card_effects("highcard", players=2, games=30_000, seed=5, policies="stand", deck="short")


def test_the_effect_of_a_forced_card_is_the_known_answer(highcard_study):
    table = highcard_study.effects.set_index("card")
    for v in range(1, 7):
        row = table.loc[v]
        assert abs(row["effect"] - exact_effect(v)) < 5 * row["effect_se"], v
        assert abs(row["association"] - exact_effect(v)) < 5 * row["association_se"], v
        # The intervention is made in every game where the seat did not draw v: about 5/6.
        assert 0.8 < row["games"] / 30_000 < 0.87
        assert abs(row["held"] - 1 / 6) < 0.02


def test_verdicts_follow_the_corrected_intervals(highcard_study):
    table = highcard_study.effects
    # Sorted by effect, largest first: card 6 down to card 1.
    assert table["card"].tolist() == [6, 5, 4, 3, 2, 1]
    for row in table.itertuples(index=False):
        excludes = row.effect_low > 0 or row.effect_high < 0
        assert excludes == row.effect_significant
        expected = NOT_SHOWN if not excludes else (STRONGER if row.effect > 0 else WEAKER)
        assert row.verdict == expected
    # The exact effects are +-0.5, +-0.3 and +-0.1: 30,000 games separate every card.
    assert highcard_study.groups[2] == [[f"card {v}"] for v in range(6, 0, -1)]
    assert highcard_study.notes == []


def test_pairing_narrows_the_interval(highcard_study):
    # The rival's card is the same in both games of a pair, so the paired error is smaller.
    assert (highcard_study.effects["se_ratio"] < 1).all()


def test_disagreements_name_opposite_signs_and_orders():
    table = pd.DataFrame(
        {
            "label": ["a", "b", "c"],
            "effect": [0.03, 0.01, -0.02],
            "effect_significant": [True, False, True],
            "association": [0.01, 0.04, 0.02],
            "association_significant": [False, True, True],
        }
    )
    notes = disagreements(table, ["a"])
    assert len(notes) == 2
    assert notes[0].startswith("c: ")
    assert notes[0].endswith(
        "opposite signs, the effect significant and the association significant after correction"
    )
    assert notes[1].startswith("order: the association ranks b first, not in the effect's top")
    assert "Spearman's rho -0.50 between the two over 3 cards" in notes[1]
    # a page marks each verdict against the row and the flag it rests on
    marked = disagreements(
        table, ["a"], mark=lambda words, column, index: f"<{words}|{column}|{index}>"
    )
    assert marked[0].endswith(
        "<the effect significant|effect_significant|2> and "
        "<the association significant|association_significant|2> after correction"
    )
    agree = table.assign(association=[0.03, 0.01, -0.02])
    assert disagreements(agree) == []
    # A first card inside the effect's tied top group, and orders that agree: nothing to say.
    close = table.assign(association=[0.02, 0.03, -0.01], association_significant=False)
    assert disagreements(close, ["a", "b"]) == []
    assert disagreements(close, ["a"])[0].startswith("order: the association ranks b first")
    # An effect whose association the correction does not separate from 0: nothing to contradict.
    quiet = table.assign(association_significant=False)
    assert [n for n in disagreements(quiet) if not n.startswith("order")] == []
    # Another association (a report's own lift), named and with its unit.
    lift = table.rename(columns={"association": "lift", "association_significant": "sig"})
    named = disagreements(
        lift, association="lift", significant="sig", name="the lift", unit="of games"
    )
    assert named[0].startswith("c: the lift is +2.0 pp of games but the effect -2.0 pp")


def test_a_game_without_an_intervention_is_refused_in_one_line():
    # Every game may declare one: a copy of the toy game under a name that registers no card
    # studies declares none.
    spec = replace(get_game("highcard"), name="plain-highcard")
    with pytest.raises(FairysimError, match="declares no card-effect intervention") as info:
        card_effects(spec, players=2, games=10, policies="stand")
    assert info.value.where == "GAME"


def test_bad_seat_and_games_are_named():
    with pytest.raises(FairysimError) as info:
        card_effects("highcard", players=2, games=10, seat=2, policies="stand")
    assert info.value.where == "seat"
    with pytest.raises(FairysimError) as info:
        card_effects("highcard", players=2, games=0, policies="stand")
    assert info.value.where == "games"


def test_the_section_and_figure(highcard_study):
    report = Report("card effects", "page.html", "p-")
    card_effect_section(report, highcard_study, "fairysim report x")
    html = re.sub(r"</?span[^>]*>", "", unescape(report.html()))
    assert "Card strength as an effect" in html
    # every pair separated: one letter each, in order, and the family named with its file
    assert "card 6 a, card 5 b, card 4 c, card 3 d, card 2 e, card 1 f." in html
    assert "15 of 15 pairs separated" in html
    assert "pairs corrected together: all 15 pairs of cards at 2 players, Holm" in html
    assert "p-card_effect_pairs.csv" in report.html()
    assert "Stronger than the card it replaces: card 6, card 5, card 4" in html
    assert "a card worth the hand's average scores 0" in html
    fig = card_effect_figure(highcard_study)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "seat's win share (pp of games)"
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"card {v}" for v in range(1, 7)]  # sorted, strongest on top
    assert np.isfinite(highcard_study.effects[["effect_low", "effect_high"]].to_numpy()).all()


def test_verdict_changes_under_another_policy(highcard_study):
    same = verdict_changes(highcard_study, highcard_study)
    assert same == ["2 players: every card keeps its verdict under stand (30,000 games an arm)"]
    # Redrawing every card below 5: a forced 4, worth more than the average card it replaces
    # under stand, is thrown away for a fresh draw and comes out weaker.
    redraw = card_effects(
        "highcard", players=2, games=8_000, seed=5, policies="redraw-low", deck="short"
    )
    (sentence,) = verdict_changes(highcard_study, redraw)
    assert sentence.startswith("2 players: the verdict changes for ")
    assert "card 4 weaker than the card it replaces under redraw-low (" in sentence
    assert "stronger than the card it replaces under stand (+10.2 pp)" in sentence
    # a page marks each verdict against its own row of either study's effects table
    marked = verdict_changes(
        highcard_study, redraw, mark=lambda verdict, which, row: f"<{verdict}|{which}|{row}>"
    )
    rows = {which: int(row) for which, row in re.findall(r"\|(study|other)\|(\d+)>", marked[0])[:2]}
    four = {"study": highcard_study.effects, "other": redraw.effects}
    for which, row in rows.items():
        assert four[which]["label"].iloc[row] == "card 4"

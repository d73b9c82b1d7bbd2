"""The Fairy Concerto card-balance report: content, PROVISIONAL labels, files, figures."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from fairysim.analysis.concerto import figures
from fairysim.analysis.concerto import report as cr
from fairysim.analysis.concerto.study import card_balance

from .tidy import text_of


@pytest.fixture(scope="module")
def balance():
    return card_balance(games=300, seed=3)


def test_balance_report_content_and_files(balance, tmp_path):
    report = cr.build_report(balance)
    text = text_of(report.html())
    assert "PROVISIONAL card set (ruling C9)" in text
    assert "fairysim report concerto --games 300 --seed 3" in text
    assert "300 games per player count (2, 3, 4 players); every seat plays greedy" in text
    assert "900 games in all; seed 3" in text
    headings = (
        "Balance at a glance",
        "Score cards",
        "Contest cards",
        "popularity kind",
        "Seat advantage by turn order",
    )
    for heading in headings:
        assert heading in text, heading
    assert "No score card is dominated by another" in text
    # the balance card's comebacks and lead changes, from each round's standings (PC6)
    summary = balance.balance.summary
    assert {"comeback", "lead_changes", "comeback_games"} <= set(summary.columns)
    assert (summary["lead_changes"] >= 0).all()
    assert (summary[summary["players"] >= 3]["lead_changes"] <= 1).all()  # two rounds there
    assert "Comeback: the share of games" in text and "ruling PC6" in text
    assert "records no per-round standings" not in text
    assert "PROVISIONAL cards played" in text
    html = report.write(tmp_path)
    assert html.name == cr.REPORT_FILENAME
    names = {p.name for p in tmp_path.iterdir()}
    tables = (
        "score_cards",
        "score_cards_pooled",
        "contests_pooled",
        "popularity",
        "balance",
        "turn_order",
        "completion_pairs",
        "contest_pairs",
    )
    for stem in tables:
        assert f"concerto-{stem}.csv" in names, stem
    for stem in (
        "score_cards",
        "score_card_lift",
        "contests",
        "contest_spread",
        "popularity",
        "turn_order",
    ):
        assert f"concerto-{stem}.png" in names, stem
        assert f"concerto-{stem}.svg" in names, stem


@pytest.mark.usefixtures("figures_unrendered")
def test_rankings_are_worded_from_corrected_tests(balance):
    text = text_of(cr.build_report(balance).html())
    alone = "Completion, easiest (separated from every other after correction)"
    group = "Completion, easiest by estimate, with those not separated from it after correction"
    assert alone in text or group in text
    assert "Honors, most decisive" in text
    # the intervals beside a group verdict are the cards' own, labelled plain, and the pairs'
    # family is named with the file that holds every pair
    assert "(plain 95% intervals, each card's own; pairs corrected together: all 325 pairs " in text
    assert "every pair in concerto-completion_pairs.csv" in text
    assert "the intervals are plain 95%, each card's own" in text
    for card in balance.score_cards_pooled["card"]:
        assert f"easiest: {card}: {card}" not in text  # a leader is named once
    assert "Most decisive honor" not in text and "Easiest:" not in text


def test_figures_are_figures(balance):
    drawn = [
        figures.score_card_figure(balance),
        figures.score_card_lift_figure(balance),
        figures.contest_figure(balance),
        figures.contest_spread_figure(balance),
        figures.popularity_figure(balance),
    ]
    assert all(isinstance(f, Figure) for f in drawn)


@pytest.mark.usefixtures("figures_unrendered")
def test_the_contest_cards_fixed_by_seat_in_the_card_effect_section(balance, tmp_path):
    """Each soloist, pianist and harpist card fixed against the card drawn at random (PC3), on
    the same deals: rows per seat index and the spread, worded from the corrected intervals."""
    import pandas as pd

    from fairysim.analysis.studies.card_effects import card_effects
    from fairysim.analysis.studies.table_cards import table_card_studies

    effects = card_effects("concerto", players=3, games=40, seed=3)
    effects.table_cards = table_card_studies("concerto", players=3, games=800, seed=3)
    (study,) = effects.table_cards
    rows = study.differences
    spread = rows[rows["metric"] == "turn_order_spread"]
    assert list(spread["label"]) == list(dict.fromkeys(rows["label"]))
    assert spread["difference"].is_monotonic_decreasing  # the cards sorted by their effect
    assert set(rows["label"]) == {
        *(f"Soloist {s}" for s in "ABCD"),
        *(f"Pianist {p}" for p in balance.cards.pianist_ids),
        *(f"Harpist {h}" for h in balance.cards.harpist_ids),
    }
    seats = rows[rows["group"] == "turn position"]
    assert sorted(set(seats["index"])) == [0, 1, 2]
    assert (study.pairing["same_turn_order_games"] == 400).all()  # the seat index is the order
    tested = rows["effect_low"].notna()
    excludes = (rows["effect_low"] > 0) | (rows["effect_high"] < 0)
    assert (excludes[tested] == rows.loc[tested, "effect_significant"]).all()
    assert set(rows["verdict"]) <= {
        "higher with the card fixed",
        "lower with the card fixed",
        "no change shown",
    }
    cr.build_report(balance, effects).write(tmp_path)
    text = text_of((tmp_path / cr.REPORT_FILENAME).read_text())
    assert "Soloist, pianist and harpist cards fixed, by seat" in text
    assert "the card drawn at random" in text
    saved = pd.read_csv(tmp_path / "concerto-contest_cards.csv")
    assert len(saved) == len(rows)

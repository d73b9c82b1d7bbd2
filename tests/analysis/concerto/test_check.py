"""Fairy Concerto's best-heuristic check: the score cards' holders' lifts under the report's policy
and under chaser, side by side, and what the card-balance page says of them."""

from __future__ import annotations

import pytest

from fairysim.analysis.concerto import report as cr
from fairysim.analysis.concerto.check import score_card_check
from fairysim.analysis.concerto.study import card_balance
from fairysim.analysis.studies.heuristic_check import BASE, BEST, HeuristicCheck

from .tidy import text_of

GAMES, SEED, PLAYERS = 300, 3, 3


@pytest.fixture(scope="module")
def check():
    return score_card_check(GAMES, SEED, PLAYERS, "greedy", "chaser")


def test_the_check_compares_every_score_card_under_both_policies_on_the_same_deals(check):
    table = check.table
    assert len(table) == 26 and table["card"].is_unique
    assert check.meta == {
        "policy": "greedy", "best": "chaser", "players": PLAYERS, "games": GAMES,
        "arm": "in one run", "seed": SEED,
    }  # fmt: skip
    # The greedy side is the card-balance study's own lifts at that player count, corrected alone.
    greedy = card_balance(GAMES, SEED, (PLAYERS,), "greedy").score_cards_pooled.set_index("card")
    rows = table.set_index("card")
    assert rows[f"{BASE}value"].to_dict() == pytest.approx(greedy["lift"].to_dict())
    assert rows[f"{BASE}significant"].to_dict() == greedy["lift_significant"].to_dict()
    assert rows["asks_for"].to_dict() == greedy["asks_for"].to_dict()
    # chaser plays other games than greedy: its lifts differ somewhere.
    assert (rows[f"{BEST}value"] != rows[f"{BASE}value"]).any()
    assert (table["changed"] == (table[f"{BASE}verdict"] != table[f"{BEST}verdict"])).all()


@pytest.mark.usefixtures("figures_unrendered")
def test_the_score_card_section_shows_the_check_and_warns_where_a_verdict_changes(check):
    balance = card_balance(GAMES, SEED, (PLAYERS,))
    text = text_of(cr.build_report(balance, check=check).html())
    assert (
        "The same score cards' holders' lifts played again under the best heuristic, chaser" in text
    )
    table = check.table.copy()
    first = table.index[0]
    table.loc[first, [f"{BASE}verdict", f"{BEST}verdict", "changed"]] = (
        "above",
        "not separated",
        True,
    )
    table.loc[table.index[1:], "changed"] = False
    changed = HeuristicCheck(table, check.meta)
    text = text_of(cr.build_report(balance, check=changed).html())
    card = table.loc[first, "card"]
    assert "Warning: 1 of the 26 score cards' holders' lifts change verdict under chaser" in text
    assert f"{card} ({table.loc[first, 'asks_for']}): not separated under chaser" in text
    assert "concerto-score_card_check" in text
